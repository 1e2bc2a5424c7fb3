/* fuzz_urdf.c: libFuzzer harness of the urdf2dyn core through its URDF parser.
 *
 * Each input: the bytes before the first NUL are the URDF text, the bytes after it pick the
 * values of q, v, a, tau (NaN, inf, huge, tiny, ordinary) -> u2d_urdf_parse ->
 * u2d_model_compile (fixed and floating base) -> u2d_work_new -> every algorithm of
 * harness.h, fresh and on a reused workspace, and the batched ones -> free. Crashes, leaks,
 * sanitizer reports and contract violations (e.g. a NULL model without a message, a result
 * that depends on the workspace's history) are findings; a failing input replays with
 * `driver --parse FILE.urdf`. The other parsers have a harness each (fuzz_osim.c).
 *
 * Build and run: tests/c/fuzz.sh urdf SECONDS */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#define H_ON_CONTRACT_FAILURE() abort()
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;      /* keep single inputs quick */
    h_exercise(h_parser_named("urdf"), data, size);
    return 0;
}
