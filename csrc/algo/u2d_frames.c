/* u2d_frames.c: a frame on a link (the link's axes, its origin moved to a point) and its
 * Jacobian, Jacobian time derivative, velocity and accelerations, in Pinocchio's three
 * reference frames:
 *   LOCAL                the frame's own axes, about its own origin
 *   WORLD                world axes, about the world origin (the spatial vector)
 *   LOCAL_WORLD_ALIGNED  world axes, about the frame's origin
 * Outputs are Pinocchio's [linear; angular] 6-vectors (the core computes in Featherstone's
 * [angular; linear] and reorders at the end).
 *
 * Everything is first computed in world coordinates at the world origin, where a joint's
 * Jacobian column is s = X_0i^-1 S_i and its rate d/dt s = X_0i^-1 (v_i x S_i + dS_i/dt)
 * (v_i the body's own velocity), then carried to the reference frame. The carrying
 * transform moves with the frame, so Jacobian rates get its rate too: the true time
 * derivative in each reference, so that J a + dJ/dt v is the frame's acceleration there. */
#include <string.h>
#include "model/u2d_model.h"

typedef struct {
    int body;
    double p[3];            /* frame origin in world coordinates                         */
    double E[9];            /* world -> frame rotation (rows: the frame's axes in world) */
} frame;

static void frame_locate(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                         frame *F)
{
    u2d_xform Xl;                                   /* world -> link */
    const int b = m->link_body[link];
    double pb[3];                                   /* the point in body coordinates */
    u2d_multv3(m->link_X[link].E, point, pb);
    for (int k = 0; k < 3; k++) pb[k] += m->link_X[link].r[k];
    u2d_xform_mul(&m->link_X[link], &w->Xa[b], &Xl);
    u2d_multv3(w->Xa[b].E, pb, F->p);
    for (int k = 0; k < 3; k++) F->p[k] += w->Xa[b].r[k];
    memcpy(F->E, Xl.E, sizeof F->E);
    F->body = b;
}

/* A world spatial motion vector [w; v_O] in the reference frame, as [linear; angular]. */
static void express(const frame *F, u2d_reference ref, const double mw[6], double out[6])
{
    double lin[3];
    if (ref == U2D_WORLD) {
        memcpy(out, mw + 3, 3 * sizeof(double));
        memmove(out + 3, mw, 3 * sizeof(double));
        return;
    }
    u2d_cross3(mw, F->p, lin);                      /* v_P = v_O + w x p */
    for (int k = 0; k < 3; k++) lin[k] += mw[3 + k];
    if (ref == U2D_LOCAL_WORLD_ALIGNED) {
        double ang[3] = {mw[0], mw[1], mw[2]};
        memcpy(out, lin, sizeof lin);
        memcpy(out + 3, ang, sizeof ang);
        return;
    }
    double ang[3];
    u2d_mulmv3(F->E, mw, ang);
    u2d_mulmv3(F->E, lin, out);
    memcpy(out + 3, ang, sizeof ang);
}

/* Body b's velocity (w->v, body frame) as a world spatial vector. */
static void world_velocity(const u2d_work *w, int b, double vw[6])
{
    u2d_xform_motion_inv(&w->Xa[b], &w->v[6 * b], vw);
}

static void put_column(double *J, int nv, int col, const double c[6])
{
    for (int r = 0; r < 6; r++) J[(size_t)r * nv + col] = c[r];
}

void u2d_frame_jacobian(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                        u2d_reference ref, double *J)
{
    frame F;
    frame_locate(m, w, link, point, &F);
    memset(J, 0, sizeof(double) * 6 * (size_t)m->nv);
    for (int j = F.body; j > 0; j = m->parent[j])
        for (int k = 0; k < m->jnv[j]; k++) {
            double s[6], c[6];
            u2d_xform_motion_inv(&w->Xa[j], &w->S[36 * j + 6 * k], s);
            express(&F, ref, s, c);
            put_column(J, m->nv, m->vadr[j] + k, c);
        }
}

u2d_status u2d_frame_jacobian_dot(const u2d_model *m, const u2d_work *w, const double *q,
                                  const double *qd, int link, const double point[3],
                                  u2d_reference ref, double *dJ)
{
    frame F;
    frame_locate(m, w, link, point, &F);
    double vf[6], pdot[3];                          /* frame velocity: world, and of its origin */
    world_velocity(w, F.body, vf);
    u2d_cross3(vf, F.p, pdot);
    for (int k = 0; k < 3; k++) pdot[k] += vf[3 + k];
    memset(dJ, 0, sizeof(double) * 6 * (size_t)m->nv);
    for (int j = F.body; j > 0; j = m->parent[j]) {
        double S[36], Sdot[36], cJ[6];
        u2d_xform X;
        u2d_status st = u2d_jcalc(m, j, q + m->qadr[j], qd + m->vadr[j], &X, S, cJ, Sdot);
        if (st != U2D_OK) return st;
        for (int k = 0; k < m->jnv[j]; k++) {
            double t[6], s[6], ds[6], c[6];
            u2d_crossm(&w->v[6 * j], &S[6 * k], t);            /* body frame */
            for (int r = 0; r < 6; r++) t[r] += Sdot[6 * k + r];
            u2d_xform_motion_inv(&w->Xa[j], &S[6 * k], s);      /* column, world at O */
            u2d_xform_motion_inv(&w->Xa[j], t, ds);             /* its rate           */
            express(&F, ref, ds, c);
            if (ref == U2D_LOCAL_WORLD_ALIGNED) {
                double extra[3];                                 /* w_s x dp/dt */
                u2d_cross3(s, pdot, extra);
                for (int r = 0; r < 3; r++) c[r] += extra[r];
            } else if (ref == U2D_LOCAL) {
                /* d/dt (X_f s) = X_f ds - v_f x (X_f s), all in the frame's coordinates */
                double vl[6], sl[6], vfx[6], x[6];
                express(&F, U2D_LOCAL, vf, vl);                  /* [lin; ang] */
                express(&F, U2D_LOCAL, s, sl);
                double va[6] = {vl[3], vl[4], vl[5], vl[0], vl[1], vl[2]};
                double sa[6] = {sl[3], sl[4], sl[5], sl[0], sl[1], sl[2]};
                u2d_crossm(va, sa, vfx);
                x[0] = vfx[3]; x[1] = vfx[4]; x[2] = vfx[5];
                x[3] = vfx[0]; x[4] = vfx[1]; x[5] = vfx[2];
                for (int r = 0; r < 6; r++) c[r] -= x[r];
            }
            put_column(dJ, m->nv, m->vadr[j] + k, c);
        }
    }
    return U2D_OK;
}

void u2d_frame_velocity(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                        u2d_reference ref, double out[6])
{
    frame F;
    double vw[6];
    frame_locate(m, w, link, point, &F);
    world_velocity(w, F.body, vw);
    express(&F, ref, vw, out);
}

u2d_status u2d_accelerations(const u2d_model *m, u2d_work *w, int body, const double *q,
                             const double *qd, const double *qdd)
{
    const int last = body < 0 ? m->nbody - 1 : body;
    u2d_status st = body < 0 ? u2d_kinematics(m, w, q, qd)
                             : u2d_kinematics_path(m, w, body, q, qd);
    if (st != U2D_OK) return st;
    memset(w->a, 0, 6 * sizeof(double));
    for (int i = 1; i <= last; i++) {
        if (body >= 0 && !u2d_on_path(m, i, body)) continue;
        const double *S = &w->S[36 * i], *qdi = qd + m->vadr[i], *qddi = qdd + m->vadr[i];
        double *a = &w->a[6 * i], vJ[6] = {0, 0, 0, 0, 0, 0}, t[6];
        u2d_xform_motion(&w->Xup[i], &w->a[6 * m->parent[i]], a);
        for (int k = 0; k < m->jnv[i]; k++)
            for (int r = 0; r < 6; r++) {
                vJ[r] += S[6 * k + r] * qdi[k];
                a[r] += S[6 * k + r] * qddi[k];
            }
        u2d_crossm(&w->v[6 * i], vJ, t);
        for (int r = 0; r < 6; r++) a[r] += w->cJ[6 * i + r] + t[r];
    }
    return U2D_OK;
}

void u2d_frame_acceleration(const u2d_model *m, const u2d_work *w, int link,
                            const double point[3], u2d_reference ref, int classical,
                            double out[6])
{
    frame F;
    double aw[6];
    frame_locate(m, w, link, point, &F);
    u2d_xform_motion_inv(&w->Xa[F.body], &w->a[6 * F.body], aw);
    express(&F, ref, aw, out);
    if (classical) {                    /* Pinocchio: linear += angular x linear, velocity */
        double vel[6], wxv[3];
        u2d_frame_velocity(m, w, link, point, ref, vel);
        u2d_cross3(vel + 3, vel, wxv);
        for (int k = 0; k < 3; k++) out[k] += wxv[k];
    }
}
