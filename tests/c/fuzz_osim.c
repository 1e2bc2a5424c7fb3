/* fuzz_osim.c: libFuzzer harness of the urdf2dyn core through its OpenSim model parser.
 *
 * Each input: the bytes before the first NUL are the .osim text, the bytes after it pick the
 * states, as in fuzz_urdf.c -> u2d_osim_parse (bodies, OpenSim 3 and 4 joints, offset
 * frames, custom joints and their functions, coordinates, markers, couplers) -> the
 * OpenSim additions checked and every function evaluated (harness.h, h_check_osim) ->
 * u2d_model_compile (fixed and floating base) -> every algorithm on models of up to 16
 * coordinates (the every-joint model, the edge cases, gait10dof18musc and what mutations
 * make of them) -> free. Seeds: the published models of tests/data/opensim_models, slimmed
 * (tests/c/make_corpus.py), and edge cases; dictionary: osim.dict. A failing input replays with `driver --parse FILE.osim`.
 *
 * Build and run: tests/c/fuzz.sh osim SECONDS */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#define H_ON_CONTRACT_FAILURE() abort()
#define H_EVAL_MAX_NV 16              /* the human models (23-39): parsed and compiled */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;      /* keep single inputs quick */
    h_exercise(h_parser_named("osim"), data, size);
    return 0;
}
