/* u2d_kinematics.c: where the bodies and links are, how fast they move, and the
 * quantities that follow (centre of mass, Jacobians, energies).
 *
 * u2d_kinematics fills Xup, Xa (world -> body) and optionally the body velocities; the
 * other functions read them. Xa_i = (E, r): r is body i's origin in world coordinates and
 * E^T the body's axes in the world. */
#include <string.h>
#include "model/u2d_model.h"

/* Body i's transforms, motion subspace and (with qd) velocity, from its parent's. */
static u2d_status place_body(const u2d_model *m, u2d_work *w, int i, const double *q,
                             const double *qd)
{
    u2d_status st = u2d_place_body(m, w, i, q, qd);
    if (st != U2D_OK) return st;
    if (qd) {
        const int p = m->parent[i];
        const double *qdi = qd + m->vadr[i], *S = &w->S[36 * i];
        double *v = &w->v[6 * i];
        u2d_xform_motion(&w->Xup[i], &w->v[6 * p], v);
        for (int k = 0; k < m->jnv[i]; k++)
            for (int r = 0; r < 6; r++) v[r] += S[6 * k + r] * qdi[k];
    }
    return U2D_OK;
}

u2d_status u2d_kinematics(const u2d_model *m, u2d_work *w, const double *q, const double *qd)
{
    u2d_xform_identity(&w->Xa[0]);
    memset(w->v, 0, 6 * sizeof(double));
    for (int i = 1; i < m->nbody; i++) {
        u2d_status st = place_body(m, w, i, q, qd);
        if (st != U2D_OK) return st;
    }
    return U2D_OK;
}

int u2d_on_path(const u2d_model *m, int i, int body)
{
    /* preorder: body is in i's subtree iff its first velocity index falls in i's range */
    return i == 0 || (i <= body && m->vadr[i] <= m->vadr[body] &&
                      m->vadr[body] < m->vadr[i] + m->nvsub[i]);
}

u2d_status u2d_kinematics_path(const u2d_model *m, u2d_work *w, int body, const double *q,
                               const double *qd)
{
    /* a configuration is valid or not as a whole, whatever part of it a frame needs */
    for (int i = 1; i < m->nbody; i++) {
        const int at = u2d_quat_at(m->jtype[i]);
        if (at < 0 || u2d_on_path(m, i, body)) continue;
        const double *x = q + m->qadr[i] + at;
        double norm = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
        if (norm < 1e-12 || isinf(norm)) return U2D_ERR_QUATERNION;     /* as u2d_jcalc */
    }
    u2d_xform_identity(&w->Xa[0]);
    memset(w->v, 0, 6 * sizeof(double));
    for (int i = 1; i <= body; i++) {
        if (!u2d_on_path(m, i, body)) continue;
        u2d_status st = place_body(m, w, i, q, qd);
        if (st != U2D_OK) return st;
    }
    return U2D_OK;
}

void u2d_joint_positions(const u2d_model *m, const u2d_work *w, double *pos)
{
    for (int i = 1; i < m->nbody; i++) memcpy(&pos[3 * (i - 1)], w->Xa[i].r, 3 * sizeof(double));
}

/* A point fixed on body b, given in body coordinates, in world coordinates. */
static void body_point_world(const u2d_work *w, int b, const double p[3], double out[3])
{
    u2d_multv3(w->Xa[b].E, p, out);
    for (int k = 0; k < 3; k++) out[k] += w->Xa[b].r[k];
}

void u2d_link_velocities(const u2d_model *m, const u2d_work *w, double *vel)
{
    for (int l = 0; l < m->nlink; l++) {
        int b = m->link_body[l];
        const double *v = &w->v[6 * b];
        const double *r = m->link_X[l].r;        /* link origin in body coordinates */
        double lin[3];
        u2d_cross3(v, r, lin);
        for (int k = 0; k < 3; k++) lin[k] += v[3 + k];
        u2d_multv3(w->Xa[b].E, lin, &vel[6 * l]);
        u2d_multv3(w->Xa[b].E, v, &vel[6 * l + 3]);
    }
}

double u2d_center_of_mass(const u2d_model *m, const u2d_work *w, double com[3])
{
    double mass = 0.0, mc[3] = {0, 0, 0};
    for (int b = 1; b < m->nbody; b++) {
        const u2d_inertia *I = &m->inertia[b];
        double h[3];                                    /* m c in world axes, at the origin */
        u2d_multv3(w->Xa[b].E, I->h, h);
        for (int k = 0; k < 3; k++) mc[k] += h[k] + I->m * w->Xa[b].r[k];
        mass += I->m;
    }
    for (int k = 0; k < 3; k++) com[k] = mass > 0.0 ? mc[k] / mass : 0.0;
    return mass;
}

void u2d_jacobian(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                  double *J)
{
    const int nv = m->nv, b = m->link_body[link];
    double pb[3], p[3];                           /* the point on the body, then in world */
    u2d_multv3(m->link_X[link].E, point, pb);
    for (int k = 0; k < 3; k++) pb[k] += m->link_X[link].r[k];
    body_point_world(w, b, pb, p);
    memset(J, 0, sizeof(double) * 6 * (size_t)nv);
    for (int j = b; j > 0; j = m->parent[j])
        for (int k = 0; k < m->jnv[j]; k++) {
            double s[6], lin[3];                      /* column in world coordinates at O */
            int col = m->vadr[j] + k;
            u2d_xform_motion_inv(&w->Xa[j], &w->S[36 * j + 6 * k], s);
            u2d_cross3(s, p, lin);                    /* v_P = v_O + w x p */
            for (int r = 0; r < 3; r++) {
                J[(size_t)r * nv + col] = s[3 + r] + lin[r];
                J[(size_t)(r + 3) * nv + col] = s[r];
            }
        }
}

double u2d_kinetic_energy(const u2d_model *m, const u2d_work *w, const double *qd)
{
    double T = 0.0;
    if (m->has_armature)                    /* the rotors' 1/2 armature qd^2 */
        for (int b = 1; b < m->nbody; b++)
            for (int k = 0; k < m->jnv[b]; k++)
                T += 0.5 * m->armature[b] * qd[m->vadr[b] + k] * qd[m->vadr[b] + k];
    for (int b = 1; b < m->nbody; b++) {
        double Iv[6];
        const double *v = &w->v[6 * b];
        u2d_inertia_mul(&m->inertia[b], v, Iv);
        T += 0.5 * (v[0] * Iv[0] + v[1] * Iv[1] + v[2] * Iv[2] + v[3] * Iv[3] + v[4] * Iv[4]
                    + v[5] * Iv[5]);
    }
    return T;
}

double u2d_potential_energy(const u2d_model *m, const u2d_work *w, const double gravity[3])
{
    double com[3], mass = u2d_center_of_mass(m, w, com);
    return -mass * u2d_dot3(gravity, com);
}
