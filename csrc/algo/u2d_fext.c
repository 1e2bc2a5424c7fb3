/* u2d_fext.c: external wrenches, from the caller's list to one spatial force per body. */
#include <string.h>
#include "model/u2d_model.h"

int u2d_gather_fext(const u2d_model *m, u2d_work *w, const u2d_fext *fext)
{
    if (!fext || fext->n == 0) return 0;
    memset(w->fext, 0, 6 * sizeof(u2d_real) * (size_t)m->nbody);
    for (int k = 0; k < fext->n; k++) {
        u2d_real *dst = &w->fext[6 * fext->body[k]];
        const u2d_real *src = &fext->wrench[6 * k];   /* [f; m] -> [n; f] */
        for (int j = 0; j < 3; j++) {
            dst[j] += src[3 + j];
            dst[3 + j] += src[j];
        }
    }
    return 1;
}
