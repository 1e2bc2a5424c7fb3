/* fuzz_mjcf.c: libFuzzer harness of the MJCF reader (csrc/parse/u2d_mjcf.c and what it
 * calls: u2d_mjcf_mass.c, u2d_mesh.c).
 *
 * Each input: the bytes before the first NUL are the MJCF text; after it, split at each
 * "\0F\0", come the bytes that pick the states and then the model's other files, file k
 * answering any path whose last component starts with k (<include file="1.xml"/>,
 * <mesh file="2.obj"/>: harness.h's h_read_piece). The reader is what is fuzzed here: parse,
 * the contract's checks of the document and of the compiled model, one inverse dynamics and
 * mass matrix at the reference pose, free; the algorithms on hostile states are fuzz_urdf's
 * job, and `driver --parse FILE` replays an input through all of them (h_exercise). Inputs
 * that are not MJCF are skipped. tests/test_c_core.py replays tests/c/regressions/ and
 * corpus/mjcf/ with the driver.
 *
 * Build and run: tests/c/fuzz.sh mjcf SECONDS */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#define H_ON_CONTRACT_FAILURE() abort()
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;      /* keep single inputs quick */
    const uint8_t *nul = memchr(data, 0, size);
    size_t n = nul ? (size_t)(nul - data) : size;
    h_guarded g;                                /* the text ends at a page it cannot read past */
    if (h_guard(&g, data, n) != 0) return 0;
    if (!u2d_is_mjcf(g.text)) { h_unguard(&g); return 0; }
    h_files files = {nul ? nul + 1 : data + size, nul ? size - n - 1 : 0};
    char *err = malloc(U2D_ERRLEN);             /* exact size: ASan watches the boundary */
    u2d_urdf *u = err ? u2d_mjcf_parse(g.text, "fuzz.xml", h_read_piece, &files, err) : NULL;
    h_unguard(&g);
    if (!u) {
        if (err && (!memchr(err, 0, U2D_ERRLEN) || !err[0]))
            h_contract_failed("u2d_mjcf_parse", "NULL without a message");
        free(err);
        return 0;
    }
    h_check_urdf(u);
    u2d_model *m = u2d_model_compile(u, 0, err);
    if (!m) {
        if (!memchr(err, 0, U2D_ERRLEN) || !err[0])
            h_contract_failed("u2d_model_compile", "NULL without a message");
    } else {
        h_check_model(m, u, 0);
        if (u->nqpos0 != m->nq || (m->nq > 0 && !u->qpos0))
            h_contract_failed("u2d_mjcf_parse", "qpos0 is not nq long");
        u2d_work *w = u2d_work_new(m);
        size_t nv = (size_t)m->nv;
        double *x = calloc(2 * nv + nv * nv + 1, sizeof(double));
        if (w && x && u->nqpos0 == m->nq) {
            double g3[3] = {0, 0, -9.81};
            u2d_rnea(m, w, g3, u->qpos0, x, x, NULL, x + nv);
            u2d_crba(m, w, u->qpos0, x + 2 * nv);
        }
        free(x);
        u2d_work_free(w);
        u2d_model_free(m);
    }
    u2d_urdf_free(u);
    free(err);
    return 0;
}
