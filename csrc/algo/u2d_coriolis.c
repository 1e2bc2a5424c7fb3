/* u2d_coriolis.c: the Coriolis matrix C(q, qd) with dM/dt = C + C^T.
 *
 * In world coordinates, body i contributes J_i^T (I_i dJ_i/dt + B_i J_i) to C, with
 *   B_i = 1/2 (v_i x* I_i - I_i v_i x + (I_i v_i) x-bar),  (f x-bar) m = m x* f,
 * whose symmetric part is dI_i/dt / 2 (Echeandia & Wensing 2021; the same factorization as
 * Pinocchio's computeCoriolisMatrix). Column j of J_i is S_j (world) for every ancestor j
 * of i, and dS_j/dt = v_j x S_j + (the joint's own dS/dt, from jcalc). With the composites
 * IC_k = sum of I_i and BC_k = sum of B_i over the subtree of k, for j an ancestor of k (or
 * k itself):
 *   C_jk = S_j^T (IC_k dS_k/dt + BC_k S_k),   C_kj = S_k^T (IC_k dS_j/dt + BC_k S_j).
 * Workspace use: S and U hold S and dS/dt in world coordinates, IA and Dinv hold IC, BC. */
#include <string.h>
#include "model/u2d_model.h"

static void mat6_mul(const double A[36], const double B[36], double out[36])
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double s = 0.0;
            for (int k = 0; k < 6; k++) s += A[6 * i + k] * B[6 * k + j];
            out[6 * i + j] = s;
        }
}

/* Cross-product matrices of the motion v: vx (motion) and vx* = -(vx)^T (force). */
static void cross_matrices(const double v[6], double vx[36], double vxs[36])
{
    const double *w = v, *u = v + 3;
    double W[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
    double V[9] = {0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0};
    memset(vx, 0, 36 * sizeof(double));
    memset(vxs, 0, 36 * sizeof(double));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            vx[6 * i + j] = vx[6 * (i + 3) + j + 3] = W[3 * i + j];
            vx[6 * (i + 3) + j] = V[3 * i + j];
            vxs[6 * i + j] = vxs[6 * (i + 3) + j + 3] = W[3 * i + j];
            vxs[6 * i + j + 3] = V[3 * i + j];
        }
}

static double dot6(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

u2d_status u2d_coriolis(const u2d_model *m, u2d_work *w, const double *q, const double *qd,
                        double *C)
{
    const int nb = m->nbody, nv = m->nv;
    u2d_status st = u2d_kinematics(m, w, q, qd);
    if (st != U2D_OK) return st;
    for (int i = 1; i < nb; i++) {          /* dS/dt in body coordinates, into U */
        u2d_xform X;
        double cJ[6];
        u2d_jcalc(m, i, q + m->qadr[i], qd + m->vadr[i], &X, &w->S[36 * i], cJ, &w->U[36 * i]);
    }

    for (int i = 1; i < nb; i++) {
        double v0[6], vx[36], vxs[36], Ib[36], f[6], t1[36], t2[36];
        double *S = &w->S[36 * i], *Sd = &w->U[36 * i], *IC = &w->IA[36 * i];
        double *BC = &w->Dinv[36 * i];
        u2d_xform_motion_inv(&w->Xa[i], &w->v[6 * i], v0);
        for (int k = 0; k < m->jnv[i]; k++) {
            double s0[6], sd0[6];
            u2d_xform_motion_inv(&w->Xa[i], &S[6 * k], s0);
            u2d_xform_motion_inv(&w->Xa[i], &Sd[6 * k], sd0);
            memcpy(&S[6 * k], s0, sizeof s0);
            u2d_crossm(v0, s0, &Sd[6 * k]);
            for (int r = 0; r < 6; r++) Sd[6 * k + r] += sd0[r];
        }
        u2d_inertia_mat6(&m->inertia[i], Ib);
        u2d_mat6_xform_T(&w->Xa[i], Ib, IC);
        cross_matrices(v0, vx, vxs);
        mat6_mul(vxs, IC, t1);
        mat6_mul(IC, vx, t2);
        u2d_mat6_mul(IC, v0, f);
        for (int k = 0; k < 36; k++) BC[k] = 0.5 * (t1[k] - t2[k]);
        /* + 1/2 f x-bar = 1/2 [-[n]x -[f]x; -[f]x 0] */
        const double n3[3] = {f[0], f[1], f[2]}, f3[3] = {f[3], f[4], f[5]};
        double Nx[9] = {0, -n3[2], n3[1], n3[2], 0, -n3[0], -n3[1], n3[0], 0};
        double Fx[9] = {0, -f3[2], f3[1], f3[2], 0, -f3[0], -f3[1], f3[0], 0};
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                BC[6 * r + c] -= 0.5 * Nx[3 * r + c];
                BC[6 * r + c + 3] -= 0.5 * Fx[3 * r + c];
                BC[6 * (r + 3) + c] -= 0.5 * Fx[3 * r + c];
            }
    }
    for (int i = nb - 1; i > 0; i--) {
        int p = m->parent[i];
        if (p <= 0) continue;
        for (int k = 0; k < 36; k++) {
            w->IA[36 * p + k] += w->IA[36 * i + k];
            w->Dinv[36 * p + k] += w->Dinv[36 * i + k];
        }
    }

    memset(C, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int k = 1; k < nb; k++) {
        const double *IC = &w->IA[36 * k], *BC = &w->Dinv[36 * k];
        for (int c = 0; c < m->jnv[k]; c++) {
            const double *s = &w->S[36 * k + 6 * c], *sd = &w->U[36 * k + 6 * c];
            const int col = m->vadr[k] + c;
            double F1[6], G1[6], G2[6], t[6];
            u2d_mat6_mul(IC, sd, F1);
            u2d_mat6_mul(BC, s, t);
            for (int r = 0; r < 6; r++) F1[r] += t[r];
            u2d_mat6_mul(IC, s, G1);
            for (int r = 0; r < 6; r++) {                   /* G2 = BC^T s */
                double x = 0.0;
                for (int l = 0; l < 6; l++) x += BC[6 * l + r] * s[l];
                G2[r] = x;
            }
            for (int j = k; j > 0; j = m->parent[j])
                for (int r = 0; r < m->jnv[j]; r++) {
                    const double *sj = &w->S[36 * j + 6 * r], *sdj = &w->U[36 * j + 6 * r];
                    const int row = m->vadr[j] + r;
                    C[(size_t)row * nv + col] = dot6(sj, F1);
                    if (j != k) C[(size_t)col * nv + row] = dot6(G1, sdj) + dot6(G2, sj);
                }
        }
    }
    return U2D_OK;
}
