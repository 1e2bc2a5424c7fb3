/* u2d_compile.c: u2d_urdf -> u2d_model.
 *
 * Links are visited depth first from the root with an explicit stack (chains may be
 * 10 000 deep), each link's children in the order of their joints' names (Pinocchio's
 * order). A movable joint opens a new body; a fixed joint folds its child link into the
 * current body: the link's inertia is added to the body's and the link keeps a constant
 * placement on the body (link_body, link_X), so every URDF link stays addressable. The
 * root link rides on the world (body 0), or on a floating joint added above it when
 * floating_base is set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/u2d_model.h"

static int is_movable(u2d_jtype t) { return t != U2D_JOINT_FIXED; }

static void joint_size(u2d_jtype t, int *nq, int *nv)
{
    switch (t) {
    case U2D_JOINT_FLOATING: *nq = 7; *nv = 6; break;
    case U2D_JOINT_PLANAR:   *nq = 3; *nv = 3; break;
    case U2D_JOINT_BALL:     *nq = 4; *nv = 3; break;
    case U2D_JOINT_FIXED:    *nq = 0; *nv = 0; break;
    default:                 *nq = 1; *nv = 1; break;
    }
}

/* In-plane axes of a planar joint: x and y carried by the smallest rotation taking z to n,
 * so that the usual normal (0, 0, 1) gives the joint frame's own x and y. */
static void plane_axes(const double n[3], double u[3], double w[3])
{
    double c = n[2];
    if (c < -1.0 + 1e-12) {   /* n = -z: turn half a revolution about x */
        u[0] = 1; u[1] = 0; u[2] = 0;
        w[0] = 0; w[1] = -1; w[2] = 0;
        return;
    }
    /* R = I + [k]x + [k]x^2 / (1 + c) with k = z x n */
    double k[3] = {-n[1], n[0], 0.0}, K[9] = {0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0};
    double K2[9], R[9];
    u2d_mulmm3(K, K, K2);
    for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0 ? 1.0 : 0.0) + K[i] + K2[i] / (1.0 + c);
    for (int i = 0; i < 3; i++) { u[i] = R[3 * i]; w[i] = R[3 * i + 1]; }
}

/* 0, 1 or 2 when the unit axis n is +-x, +-y or +-z exactly, else -1: such joints turn
 * only two rows of their tree transform, the common case that jcalc makes cheap. */
static int aligned_axis(const double n[3])
{
    for (int k = 0; k < 3; k++)
        if (fabs(n[k]) == 1.0 && n[(k + 1) % 3] == 0.0 && n[(k + 2) % 3] == 0.0) return k;
    return -1;
}

/* A joint as a child of its parent link, sorted by (parent, name), or by (parent, joint)
 * when the document's order is the model's (MJCF: MuJoCo numbers bodies in it). */
typedef struct { int parent; const char *name; int joint; } child_entry;

static int cmp_child(const void *a, const void *b)
{
    const child_entry *x = a, *y = b;
    if (x->parent != y->parent) return x->parent < y->parent ? -1 : 1;
    return x->name ? strcmp(x->name, y->name) : (x->joint > y->joint) - (x->joint < y->joint);
}

/* Carve one allocation into aligned arrays. */
typedef struct { char *base; size_t used; } carver;

static void *carve(carver *c, size_t bytes)
{
    size_t at = (c->used + 15) & ~(size_t)15;
    c->used = at + bytes;
    return c->base ? c->base + at : NULL;
}

static void model_layout(u2d_model *m, carver *c)
{
    size_t nb = (size_t)m->nbody, nl = (size_t)m->nlink;
    m->parent = carve(c, nb * sizeof(int));
    m->jtype = carve(c, nb * sizeof(int));
    m->qadr = carve(c, nb * sizeof(int));
    m->vadr = carve(c, nb * sizeof(int));
    m->jnq = carve(c, nb * sizeof(int));
    m->jnv = carve(c, nb * sizeof(int));
    m->nvsub = carve(c, nb * sizeof(int));
    m->jurdf = carve(c, nb * sizeof(int));
    m->jaxis = carve(c, nb * sizeof(int));
    m->sidx = carve(c, nb * sizeof(int));
    m->ssign = carve(c, nb * sizeof(double));
    m->axis = carve(c, nb * 3 * sizeof(double));
    m->plane = carve(c, nb * 6 * sizeof(double));
    m->ellipsoid = carve(c, nb * U2D_ELLIPSOID_N * sizeof(double));
    m->curvature = carve(c, nb * U2D_CURVATURE_N * sizeof(double));
    m->Xtree = carve(c, nb * sizeof(u2d_xform));
    m->inertia = carve(c, nb * sizeof(u2d_inertia));
    m->com = carve(c, nb * 3 * sizeof(double));
    m->Icom = carve(c, nb * 9 * sizeof(double));
    m->armature = carve(c, nb * sizeof(double));
    m->damping = carve(c, nb * sizeof(double));
    m->stiffness = carve(c, nb * sizeof(double));
    m->passive_poly = carve(c, nb * 4 * sizeof(double));
    m->spring_q = carve(c, nb * 7 * sizeof(double));
    m->link_body = carve(c, nl * sizeof(int));
    m->link_X = carve(c, nl * sizeof(u2d_xform));
    m->link_is_body = carve(c, nl * sizeof(int));
    m->jcustom = carve(c, nb * sizeof(int));
    m->custom = carve(c, (size_t)m->ncustom * sizeof(u2d_custom));
    m->func = carve(c, (size_t)m->nfunc * sizeof(u2d_function));
    m->fdata = carve(c, (size_t)m->nfdata * sizeof(double));
}

u2d_model *u2d_model_compile(const u2d_urdf *u, int floating_base, char err[U2D_ERRLEN])
{
    int nl = u->nlink, nj = u->njoint;
    err[0] = '\0';
    if (floating_base)
        for (int j = 0; j < nj; j++)
            if (strcmp(u->joint[j].name, "root_joint") == 0) {
                snprintf(err, U2D_ERRLEN, "floating_base=True adds a joint named 'root_joint', "
                         "but the URDF already has one");
                return NULL;
            }

    /* A second free joint above the URDF's own would let a massless root link float too:
     * 6 more coordinates and a singular mass matrix (Pinocchio stacks them so). */
    if (floating_base && !u->mjcf)
        for (int j = 0; j < nj; j++)
            if (u->joint[j].type == U2D_JOINT_FLOATING && u->joint[j].parent == u->root) {
                const u2d_urdf_joint *J = &u->joint[j];
                char at[32] = "";
                if (J->line > 0) snprintf(at, sizeof at, "line %d: ", J->line);
                snprintf(err, U2D_ERRLEN, "%sjoint '%.100s': floating_base=True adds a floating "
                         "joint above the root link '%.100s', but this floating joint already "
                         "lets '%.100s' move freely: load without floating_base=True (the "
                         "URDF's joint is the floating base)", at, J->name,
                         u->link[u->root].name, u->link[J->child].name);
                return NULL;
            }

    if (floating_base && u->mjcf) {
        snprintf(err, U2D_ERRLEN, "floating_base does not apply to an MJCF model: its bodies "
                 "float where they have a free joint (<freejoint/>)");
        return NULL;
    }

    u2d_model *m = calloc(1, sizeof *m);
    int *parent_joint = malloc(sizeof(int) * (size_t)nl);
    int *first = calloc((size_t)nl + 1, sizeof(int));
    int *kids = malloc(sizeof(int) * (size_t)(nj + 1));
    int *stack = malloc(sizeof(int) * (size_t)nl);
    if (!m || !parent_joint || !first || !kids || !stack) goto nomem;

    m->nlink = nl;
    m->nbody = 1 + (floating_base ? 1 : 0);
    for (int j = 0; j < nj; j++) m->nbody += is_movable(u->joint[j].type);
    m->njoint = m->nbody - 1;
    m->ncustom = u->ncustom;
    m->nfunc = u->nfunc;
    m->nfdata = u->nfdata;

    carver c = {NULL, 0};
    model_layout(m, &c);
    m->buffer = calloc(1, c.used);
    if (!m->buffer) goto nomem;
    c = (carver){m->buffer, 0};
    model_layout(m, &c);
    if (u->ncustom) memcpy(m->custom, u->custom, (size_t)u->ncustom * sizeof(u2d_custom));
    if (u->nfunc) memcpy(m->func, u->func, (size_t)u->nfunc * sizeof(u2d_function));
    if (u->nfdata) memcpy(m->fdata, u->fdata, (size_t)u->nfdata * sizeof(double));

    /* Children of each link ordered by joint name, as urdfdom stores them (a std::map keyed
     * by name) and hence as Pinocchio numbers its joints: the same depth-first walk then
     * gives the same q, v and tau vectors. An MJCF keeps its document's order, MuJoCo's. */
    child_entry *order = malloc(sizeof *order * (size_t)(nj + 1));
    if (!order) goto nomem;
    for (int i = 0; i < nl; i++) parent_joint[i] = -1;
    for (int j = 0; j < nj; j++) {
        parent_joint[u->joint[j].child] = j;
        first[u->joint[j].parent + 1]++;
        order[j] = (child_entry){u->joint[j].parent, u->mjcf ? NULL : u->joint[j].name, j};
    }
    qsort(order, (size_t)nj, sizeof *order, cmp_child);
    for (int i = 0; i < nl; i++) first[i + 1] += first[i];
    for (int j = 0; j < nj; j++) kids[j] = order[j].joint;
    free(order);

    /* Body 0: the world. */
    m->parent[0] = -1;
    m->sidx[0] = -1;
    m->jtype[0] = U2D_JOINT_FIXED;
    m->jurdf[0] = -1;
    m->jcustom[0] = -1;
    u2d_xform_identity(&m->Xtree[0]);

    int nb = 1, nq = 0, nv = 0, top = 0;
    stack[top++] = u->root;
    while (top > 0) {
        int l = stack[--top], j = parent_joint[l];
        const u2d_urdf_joint *J = j >= 0 ? &u->joint[j] : NULL;
        if (!J && !floating_base) {                       /* root on the world */
            m->link_body[l] = 0;
            u2d_xform_identity(&m->link_X[l]);
        } else if (J && !is_movable(J->type)) {           /* folded into its parent's body */
            m->link_body[l] = m->link_body[J->parent];
            u2d_xform_mul(&J->origin, &m->link_X[J->parent], &m->link_X[l]);
        } else {                                          /* a new body */
            int b = nb++;
            u2d_jtype type = J ? J->type : U2D_JOINT_FLOATING;
            m->jtype[b] = (int)type;
            m->jurdf[b] = j;
            m->parent[b] = J ? m->link_body[J->parent] : 0;
            if (J) {
                u2d_xform_mul(&J->origin, &m->link_X[J->parent], &m->Xtree[b]);
                memcpy(&m->axis[3 * b], J->axis, sizeof J->axis);
                m->armature[b] = J->armature;
                m->has_armature |= J->armature != 0.0;
                m->damping[b] = J->damping;
                m->stiffness[b] = J->stiffness;
                memcpy(&m->passive_poly[4 * b], J->stiffness_poly, sizeof J->stiffness_poly);
                memcpy(&m->passive_poly[4 * b + 2], J->damping_poly, sizeof J->damping_poly);
                memcpy(&m->spring_q[7 * b], J->spring_q, sizeof J->spring_q);
            } else {
                u2d_xform_identity(&m->Xtree[b]);
                m->axis[3 * b + 2] = 1.0;
            }
            m->jaxis[b] = aligned_axis(&m->axis[3 * b]);

            if (type == U2D_JOINT_PLANAR)
                plane_axes(&m->axis[3 * b], &m->plane[6 * b], &m->plane[6 * b + 3]);
            joint_size(type, &m->jnq[b], &m->jnv[b]);
            m->jcustom[b] = type == U2D_JOINT_CUSTOM ? J->custom : -1;
            if (type == U2D_JOINT_CUSTOM) m->jnq[b] = m->jnv[b] = u->custom[J->custom].ncoord;
            if (type == U2D_JOINT_ELLIPSOID) {   /* three angles, and the winging one */
                m->jnq[b] = m->jnv[b] = J->ncoord;
                memcpy(&m->ellipsoid[U2D_ELLIPSOID_N * b], J->ellipsoid, sizeof J->ellipsoid);
            }
            if (type == U2D_JOINT_CURVATURE) {   /* three angles */
                m->jnq[b] = m->jnv[b] = 3;
                memcpy(&m->curvature[U2D_CURVATURE_N * b], J->curvature, sizeof J->curvature);
            }
            m->qadr[b] = nq;
            m->vadr[b] = nv;
            nq += m->jnq[b];
            nv += m->jnv[b];
            m->link_body[l] = b;
            u2d_xform_identity(&m->link_X[l]);
        }
        /* Push children last-first so the first by name comes out first. */
        for (int k = first[l + 1] - 1; k >= first[l]; k--) stack[top++] = u->joint[kids[k]].child;
    }
    m->nq = nq;
    m->nv = nv;

    /* Each link's inertia, seen from its body's frame, added to the body. */
    for (int l = 0; l < nl; l++) {
        const u2d_urdf_link *L = &u->link[l];
        if (!L->has_inertial) continue;
        u2d_inertia Il, Ib;
        u2d_inertia_from_com(L->mass, L->com, L->Icom, &Il);
        u2d_inertia_xform_T(&m->link_X[l], &Il, &Ib);
        u2d_inertia_add(&m->inertia[m->link_body[l]], &Ib);
    }

    for (int l = 0; l < nl; l++) {
        u2d_xform I;
        u2d_xform_identity(&I);
        m->link_is_body[l] = memcmp(&I, &m->link_X[l], sizeof I) == 0;
    }

    /* The bodies' inertias about their centres of mass, for transforms that rotate only. */
    for (int b = 0; b < m->nbody; b++) {
        const u2d_inertia *I = &m->inertia[b];
        double *cb = &m->com[3 * b], *Ic = &m->Icom[9 * b];
        for (int k = 0; k < 3; k++) cb[k] = I->m > 0.0 ? I->h[k] / I->m : 0.0;
        double cc = u2d_dot3(cb, cb);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                Ic[3 * i + j] = I->Ib[3 * i + j] - I->m * ((i == j ? cc : 0.0) - cb[i] * cb[j]);
    }

    for (int b = m->nbody - 1; b > 0; b--) {
        m->nvsub[b] += m->jnv[b];
        if (m->parent[b] > 0) m->nvsub[m->parent[b]] += m->nvsub[b];
    }

    /* 1-DoF joints have a constant S; note those whose S is a signed unit vector. */
    for (int b = 1; b < m->nbody; b++) {
        double zero[7] = {0, 0, 0, 0, 0, 0, 1}, S[36], cJ[6];
        u2d_xform X;
        m->sidx[b] = -1;
        if (m->jnv[b] != 1 || m->jtype[b] == U2D_JOINT_CUSTOM) continue;   /* S(q) moves */
        u2d_jcalc(m, b, zero, NULL, &X, S, cJ, NULL);
        int nonzero = 0, at = 0;
        for (int k = 0; k < 6; k++)
            if (S[k] != 0.0) { nonzero++; at = k; }
        if (nonzero == 1 && fabs(S[at]) == 1.0) {
            m->sidx[b] = at;
            m->ssign[b] = S[at];
        }
    }

    /* Joint inertias below this are rounding noise: 1e-13 of the heaviest body's scale. */
    double scale = 0.0;
    for (int b = 1; b < m->nbody; b++) {
        const u2d_inertia *I = &m->inertia[b];
        scale = fmax(scale, fmax(I->m, I->Ib[0] + I->Ib[4] + I->Ib[8]));
    }
    m->singular_tol = 1e-13 * scale;

    free(parent_joint); free(first); free(kids); free(stack);
    return m;

nomem:
    snprintf(err, U2D_ERRLEN, "out of memory while building the model");
    free(parent_joint); free(first); free(kids); free(stack);
    u2d_model_free(m);
    return NULL;
}

void u2d_model_free(u2d_model *m)
{
    if (!m) return;
    free(m->buffer);
    free(m);
}
