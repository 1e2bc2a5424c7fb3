/* u2d_mesh.c: a mesh's volume, centre and inertia per unit density, as MuJoCo's compiler
 * computes them (mjCMesh::Process: ComputeFaceCentroid, ComputeVolume, ComputeInertia) for
 * a body whose inertia comes from its mesh geoms.
 *
 * Files: binary STL (as MuJoCo's decoder: ASCII is refused, at most 200 000 triangles), and
 * Wavefront OBJ, whose first group of faces MuJoCo reads (its decoder takes shape 0 of
 * tinyobjloader, which starts a new shape at an 'o' or 'g' line after faces; quads split on
 * their shorter diagonal, larger polygons by its ear clipping, faces of more than 100
 * corners dropped). Vertices are single precision, as
 * MuJoCo stores them. Inertia "legacy" (MuJoCo's default: every pyramid counted positive),
 * "exact" (signed, faces must be consistently oriented) and "shell" (the surface); "convex"
 * needs the convex hull (qhull in MuJoCo) and is refused, as is a mesh without faces. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_mjcf.h"
#include "parse/u2d_parse.h"

#define MAX_STL_FACES 200000
#define MAX_MESH_FACES 50000000
/* MuJoCo 4's OBJ reader keeps no triangle of a face of more than 100 corners (seen with
 * mujoco 4.0.0: a regular 101-gon gives none, a 100-gon its 98) */
#define MAX_OBJ_POLYGON 100

static int mesh_fail(char err[U2D_ERRLEN], const char *name, const char *msg)
{
    snprintf(err, U2D_ERRLEN, "mesh '%.300s': %s", name, msg);
    return -1;
}

/* Area of triangle abc; its unit normal n and centre cen (area 0, n not unit, when tiny). */
static double triangle(const double *a, const double *b, const double *c, double n[3],
                       double cen[3])
{
    double e1[3], e2[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        if (cen) cen[k] = (a[k] + b[k] + c[k]) / 3;
    }
    u2d_cross3(e1, e2, n);
    double len = sqrt(u2d_dot3(n, n));
    if (len < U2D_MJ_MINVAL) return 0.0;
    for (int k = 0; k < 3; k++) n[k] /= len;
    return 0.5 * len;
}

typedef struct { int a, b; } half_edge;

static int cmp_edge(const void *x, const void *y)
{
    const half_edge *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Exact inertia needs every edge run once each way: two faces running an edge the same way
 * are inconsistently oriented (MuJoCo refuses them too). */
static int check_orientation(int nface, const int *face, const double *v, const char *name,
                             char err[U2D_ERRLEN])
{
    half_edge *e = malloc(sizeof *e * (size_t)(3 * nface + 1));
    if (!e) return mesh_fail(err, name, "out of memory");
    int ne = 0;
    for (int f = 0; f < nface; f++) {
        const int *t = face + 3 * f;
        double n[3];
        if (!(triangle(v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], n, NULL) > sqrt(U2D_MJ_MINVAL)))
            continue;
        for (int k = 0; k < 3; k++) e[ne++] = (half_edge){t[k], t[(k + 1) % 3]};
    }
    qsort(e, (size_t)ne, sizeof *e, cmp_edge);
    for (int k = 1; k < ne; k++)
        if (e[k].a == e[k - 1].a && e[k].b == e[k - 1].b) {
            char msg[200];
            snprintf(msg, sizeof msg, "faces have inconsistent orientation (two run from vertex "
                     "%d to %d): inertia=\"exact\" cannot use them", e[k].a + 1, e[k].b + 1);
            free(e);
            return mesh_fail(err, name, msg);
        }
    free(e);
    return 0;
}

/* MuJoCo's integrals over the triangles, v already placed (refpos, refquat, scale). */
static int integrate(double *v, int nface, const int *face, int kind,
                     const char *name, u2d_mj_mesh_mass *out, char err[U2D_ERRLEN])
{
    const int shell = kind == U2D_MESH_SHELL, legacy = kind == U2D_MESH_LEGACY;
    double n[3], cen[3], fc[3] = {0, 0, 0}, area = 0.0;
    for (int f = 0; f < nface; f++) {           /* area-weighted centre of the faces */
        const int *t = face + 3 * f;
        double a = triangle(v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], n, cen);
        for (int k = 0; k < 3; k++) fc[k] += a * cen[k];
        area += a;
    }
    if (area < U2D_MJ_MINVAL) return mesh_fail(err, name, "its surface area is too small");
    for (int k = 0; k < 3; k++) fc[k] /= area;

    /* centre of mass: of the surface, or of the pyramids from fc to each face */
    double com[3] = {0, 0, 0}, total = 0.0;
    for (int f = 0; f < nface; f++) {
        const int *t = face + 3 * f;
        double a = triangle(v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], n, cen), w, d[3];
        if (shell) {
            w = a;
            for (int k = 0; k < 3; k++) com[k] += w * cen[k];
        } else {
            for (int k = 0; k < 3; k++) d[k] = cen[k] - fc[k];
            w = u2d_dot3(d, n) * a / 3;
            if (legacy) w = fabs(w);
            for (int k = 0; k < 3; k++) com[k] += w * (cen[k] * 3.0 / 4.0 + fc[k] / 4.0);
        }
        total += w;
    }
    if (total < U2D_MJ_MINVAL)
        return mesh_fail(err, name, shell ? "its surface area is too small"
                         : total < 0 ? "its volume is negative (misoriented triangles)"
                         : "its volume is too small (try inertia=\"shell\" on the <mesh>)");
    for (int k = 0; k < 3; k++) com[k] /= total;

    /* second moments about the centre: the pyramids' (or triangles') closed forms */
    static const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    double P[6] = {0, 0, 0, 0, 0, 0};
    total = 0.0;
    for (int f = 0; f < nface; f++) {
        const int *t = face + 3 * f;
        double D[3], E[3], F[3], w;
        for (int k = 0; k < 3; k++) {
            D[k] = v[3 * t[0] + k] - com[k];
            E[k] = v[3 * t[1] + k] - com[k];
            F[k] = v[3 * t[2] + k] - com[k];
        }
        double a = triangle(D, E, F, n, cen);
        w = shell ? a : u2d_dot3(cen, n) * a / 3;
        if (legacy) w = fabs(w);
        total += w;
        double C = shell ? 12 : 20;
        for (int j = 0; j < 6; j++) {
            int p = ij[j][0], q = ij[j][1];
            P[j] += w / C * (2 * (D[p] * D[q] + E[p] * E[q] + F[p] * F[q]) + D[p] * E[q]
                             + D[q] * E[p] + D[p] * F[q] + D[q] * F[p] + E[p] * F[q] + E[q] * F[p]);
        }
    }
    double I[9] = {P[1] + P[2], -P[3], -P[4], -P[3], P[0] + P[2], -P[5], -P[4], -P[5], P[0] + P[1]};
    double lam[3];
    u2d_sym3_eigenvalues(I, lam);
    if (!(lam[0] > 0.0)) return mesh_fail(err, name, "its inertia has a non-positive eigenvalue");
    const double rtol = 1e-6, atol = 1e-9;          /* MuJoCo's tolerances */
    if (lam[0] + lam[1] < lam[2] * (1.0 - rtol) - atol)
        return mesh_fail(err, name, "the eigenvalues of its inertia violate A + B >= C");
    out->volume = total;
    memcpy(out->com, com, sizeof com);
    memcpy(out->I, I, sizeof I);
    return 0;
}

/* Vertex i of the mesh as given, in double. */
static void vertex_at(const float *vert, int i, double p[3])
{
    for (int k = 0; k < 3; k++) p[k] = (double)vert[3 * i + k];
}

/* Whether the vertices as given span a solid (U2D_HULL_OK) or lie on one point, line or
 * plane, by MuJoCo's tests before it builds a convex hull (mjCMesh::MakeGraph): a second
 * vertex farther than mjMINVAL from the first, a third off their line (a cross product
 * above mjMINVAL times the two edges' lengths), a vertex off their plane by more than
 * mjMINVAL times the first edge's length. */
static int hull_fault(int nvert, const float *vert)
{
    double p0[3], p[3], e1[3], e2[3], n[3];
    vertex_at(vert, 0, p0);
    int v1 = -1;
    double len1 = 0;
    for (int i = 1; i < nvert && v1 < 0; i++) {
        vertex_at(vert, i, p);
        for (int k = 0; k < 3; k++) e1[k] = p[k] - p0[k];
        len1 = sqrt(u2d_dot3(e1, e1));
        if (len1 > U2D_MJ_MINVAL) v1 = i;
    }
    if (v1 < 0) return U2D_HULL_COLOCATED;
    int found = 0;
    for (int i = 1; i < nvert && !found; i++) {
        if (i == v1) continue;
        vertex_at(vert, i, p);
        for (int k = 0; k < 3; k++) e2[k] = p[k] - p0[k];
        double len2 = sqrt(u2d_dot3(e2, e2));
        if (len2 < U2D_MJ_MINVAL) continue;
        u2d_cross3(e1, e2, n);
        double norm = sqrt(u2d_dot3(n, n));
        if (norm > U2D_MJ_MINVAL * len1 * len2) {
            for (int k = 0; k < 3; k++) n[k] /= norm;
            found = 1;
        }
    }
    if (!found) return U2D_HULL_COLLINEAR;
    double d = u2d_dot3(n, p0);
    for (int i = 0; i < nvert; i++) {
        vertex_at(vert, i, p);
        if (fabs(u2d_dot3(n, p) - d) > U2D_MJ_MINVAL * len1) return U2D_HULL_OK;
    }
    return U2D_HULL_COPLANAR;
}

int u2d_mesh_mass_of(int nvert, const float *vert, int nface, const int *face,
                     const char *name, const u2d_mj_mesh_spec *spec, u2d_mj_mesh_mass *out,
                     char err[U2D_ERRLEN])
{
    out->flat = U2D_HULL_OK;
    if (spec->inertia == U2D_MESH_CONVEX)
        return mesh_fail(err, name, "inertia=\"convex\" needs the mesh's convex hull, which "
                         "urdf2dyn does not compute: give the body an <inertial>, or set "
                         "inertia=\"legacy\", \"exact\" or \"shell\" on the <mesh>");
    if (nvert < 4) return mesh_fail(err, name, "at least 4 vertices are required");
    if (nface < 1)
        return mesh_fail(err, name, "it has no faces, and MuJoCo would take its convex hull's, "
                         "which urdf2dyn does not compute");
    for (int k = 0; k < 3 * nface; k++)
        if (face[k] < 0 || face[k] >= nvert) {
            char msg[120];
            snprintf(msg, sizeof msg, "face %d names vertex %d, which does not exist", k / 3,
                     face[k]);
            return mesh_fail(err, name, msg);
        }
    double *v = malloc(sizeof(double) * 3 * (size_t)nvert);
    int *f = malloc(sizeof(int) * 3 * (size_t)nface);
    if (!v || !f) {
        free(v); free(f);
        return mesh_fail(err, name, "out of memory");
    }
    memcpy(f, face, sizeof(int) * 3 * (size_t)nface);
    const double *s = spec->scale, *rp = spec->refpos;
    if (s[0] * s[1] * s[2] < 0)                     /* a mirror: keep the faces outward */
        for (int k = 0; k < nface; k++) { int t = f[3 * k + 1]; f[3 * k + 1] = f[3 * k + 2]; f[3 * k + 2] = t; }
    double q[4] = {spec->refquat[0], spec->refquat[1], spec->refquat[2], spec->refquat[3]}, R[9];
    int turn = q[0] != 1 || q[1] != 0 || q[2] != 0 || q[3] != 0;
    u2d_mj_normalize(q, 4);
    u2d_mj_quat_matrix(q, R);
    /* MuJoCo's order: the faces' orientation and the hull's vertices, on the vertices as
     * given (a face too small to count is so before scale=, as in mjCMesh::Process), then
     * the integrals, once placed */
    for (int i = 0; i < 3 * nvert; i++) v[i] = (double)vert[i];
    int rc = spec->inertia == U2D_MESH_EXACT ? check_orientation(nface, f, v, name, err) : 0;
    if (!rc) out->flat = hull_fault(nvert, vert);
    for (int i = 0; i < nvert && !rc; i++) {
        double p[3], t[3];
        for (int k = 0; k < 3; k++) p[k] = v[3 * i + k] - rp[k];
        if (turn) { u2d_multv3(R, p, t); memcpy(p, t, sizeof p); }
        for (int k = 0; k < 3; k++) v[3 * i + k] = p[k] * s[k];
    }
    if (!rc) rc = integrate(v, nface, f, spec->inertia, name, out, err);
    free(v);
    free(f);
    return rc;
}

/* ---- files ---------------------------------------------------------------------------- */

typedef struct {
    float *v; int nv, capv;
    int *f; int nf, capf;
} mesh_buf;

/* Room for one more of n items of size bytes in *p (u2d_grow), as long as the capacity
 * stays within MAX_MESH_FACES: a mesh file cannot make the reader take without bound. */
static int grow_mesh(void **p, int *cap, int n, size_t size)
{
    if (n == *cap && 2 * (long long)*cap > MAX_MESH_FACES) return -1;
    return u2d_grow(p, cap, n, size);
}

static int push_vertex(mesh_buf *b, const float p[3])
{
    if (grow_mesh((void **)&b->v, &b->capv, b->nv, 3 * sizeof(float))) return -1;
    memcpy(b->v + 3 * b->nv++, p, 3 * sizeof(float));
    return 0;
}

static int push_face(mesh_buf *b, int i, int j, int k)
{
    if (grow_mesh((void **)&b->f, &b->capf, b->nf, 3 * sizeof(int))) return -1;
    int *t = b->f + 3 * b->nf++;
    t[0] = i; t[1] = j; t[2] = k;
    return 0;
}

static int read_stl(const char *data, size_t len, const char *name, mesh_buf *b,
                    char err[U2D_ERRLEN])
{
    uint32_t n;
    if (len < 84) return mesh_fail(err, name, "not a binary STL file (shorter than its header)");
    memcpy(&n, data + 80, 4);
    if (n < 1 || n > MAX_STL_FACES)
        return mesh_fail(err, name, "a binary STL file has 1 to 200000 triangles for MuJoCo; "
                         "this one is not (an ASCII STL? MuJoCo reads binary STL only)");
    if ((size_t)n * 50 != len - 84)
        return mesh_fail(err, name, "the binary STL file's size does not match its triangle "
                         "count (an ASCII STL? MuJoCo reads binary STL only)");
    for (uint32_t i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++) {
            float p[3];
            memcpy(p, data + 84 + 50 * (size_t)i + 12 * (size_t)(j + 1), sizeof p);
            for (int k = 0; k < 3; k++)
                if (!(fabsf(p[k]) <= 1073741824.0f))        /* 2^30, and not NaN */
                    return mesh_fail(err, name, "a vertex exceeds MuJoCo's bounds (2^30)");
            if (push_vertex(b, p)) return mesh_fail(err, name, "out of memory");
        }
        if (push_face(b, 3 * (int)i, 3 * (int)i + 1, 3 * (int)i + 2))
            return mesh_fail(err, name, "out of memory");
    }
    return 0;
}

/* One OBJ face corner "v", "v/t", "v//n" or "v/t/n": the vertex index (0-based), or -1. */
static int obj_corner(const char *tok, size_t n, int nvert)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    char *end;
    long i = strtol(buf, &end, 10);
    if (end == buf || (*end && *end != '/')) return -1;
    if (i > 0 && i <= nvert) return (int)i - 1;
    if (i < 0 && -i <= nvert) return nvert + (int)i;
    return -1;
}

static double dist2(const float *a, const float *b)
{
    double d = 0.0;
    for (int k = 0; k < 3; k++) d += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return d;
}

/* Whether (tx, ty) is inside triangle (vx, vy): the crossing test tinyobjloader uses, in
 * single precision as there. */
static int inside_triangle(const float vx[3], const float vy[3], float tx, float ty)
{
    int in = 0;
    for (int i = 0, j = 2; i < 3; j = i++) {
        if ((vy[i] > ty) != (vy[j] > ty) &&
            tx < (vx[j] - vx[i]) * (ty - vy[i]) / (vy[j] - vy[i]) + vx[i])
            in = !in;
    }
    return in;
}

/* The two coordinate axes tinyobjloader projects a polygon on: those across the largest
 * component of the normal at its first corner that is not flat (in single precision). */
static void polygon_axes(const float *v, const int *idx, int n, int axes[2])
{
    axes[0] = 1; axes[1] = 2;
    for (int k = 0; k < n; k++) {
        const float *a = v + 3 * idx[k], *b = v + 3 * idx[(k + 1) % n];
        const float *c = v + 3 * idx[(k + 2) % n];
        float e0[3], e1[3];
        for (int i = 0; i < 3; i++) { e0[i] = b[i] - a[i]; e1[i] = c[i] - b[i]; }
        float cx = fabsf(e0[1] * e1[2] - e0[2] * e1[1]);
        float cy = fabsf(e0[2] * e1[0] - e0[0] * e1[2]);
        float cz = fabsf(e0[0] * e1[1] - e0[1] * e1[0]);
        if (cx > FLT_EPSILON || cy > FLT_EPSILON || cz > FLT_EPSILON) {
            if (!(cx > cy && cx > cz)) {
                axes[0] = 0;
                if (cz > cx && cz > cy) axes[1] = 1;
            }
            return;
        }
    }
}

/* A face of 5 or more corners cut into triangles as MuJoCo's OBJ reader cuts it
 * (tinyobjloader's built-in ear clipping, in single precision): walking the corners, a
 * corner whose triangle with the next two turns the way its "area" (the cross product of
 * its first two corners' projections, as tinyobjloader has it) says and holds no other
 * corner is cut off; a full round without a cut ends it, the rest of the face dropped, as
 * there. idx (the corners) is consumed. */
static int ear_clip(mesh_buf *b, int *idx, int n)
{
    int axes[2];
    polygon_axes(b->v, idx, n, axes);
    int guess = 0, left = n, previous = n;
    while (n > 3 && left > 0) {
        if (guess >= n) guess -= n;
        if (previous != n) { previous = n; left = n; }
        else left--;
        float vx[3], vy[3];
        for (int k = 0; k < 3; k++) {
            vx[k] = b->v[3 * idx[(guess + k) % n] + axes[0]];
            vy[k] = b->v[3 * idx[(guess + k) % n] + axes[1]];
        }
        float cross = (vx[1] - vx[0]) * (vy[2] - vy[1]) - (vy[1] - vy[0]) * (vx[2] - vx[1]);
        float area = (vx[0] * vy[1] - vy[0] * vx[1]) * 0.5f;
        int ear = !(cross * area < 0.0f);
        for (int k = 3; k < n && ear; k++) {
            const float *t = b->v + 3 * idx[(guess + k) % n];
            if (inside_triangle(vx, vy, t[axes[0]], t[axes[1]])) ear = 0;
        }
        if (!ear) { guess++; continue; }
        if (push_face(b, idx[guess % n], idx[(guess + 1) % n], idx[(guess + 2) % n]))
            return -1;
        int cut = (guess + 1) % n;
        memmove(idx + cut, idx + cut + 1, sizeof *idx * (size_t)(n - cut - 1));
        n--;
    }
    return n == 3 ? push_face(b, idx[0], idx[1], idx[2]) : 0;
}

static int read_obj(const char *data, size_t len, const char *name, mesh_buf *b,
                    char err[U2D_ERRLEN])
{
    const char *p = data, *stop = data + len;
    int done = 0, line = 0, dropped = 0;
    char msg[160];
    while (p < stop) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        if (!eol) eol = stop;
        line++;
        while (p < eol && (*p == ' ' || *p == '\t')) p++;
        if (eol - p >= 2 && p[0] == 'v' && (p[1] == ' ' || p[1] == '\t')) {
            float xyz[3];
            char *end;
            const char *s = p + 2;
            for (int k = 0; k < 3; k++) {
                double x = u2d_strtod(s, &end);
                if (end == s || end > eol || !isfinite(x)) {
                    snprintf(msg, sizeof msg, "line %d: a vertex needs three numbers", line);
                    return mesh_fail(err, name, msg);
                }
                xyz[k] = (float)x;
                s = end;
            }
            if (push_vertex(b, xyz)) return mesh_fail(err, name, "out of memory");
        } else if (eol - p >= 2 && p[0] == 'f' && (p[1] == ' ' || p[1] == '\t') && !done) {
            int idx[4096], n = 0;
            for (const char *s = p + 2; s < eol;) {
                while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
                const char *t = s;
                while (s < eol && *s != ' ' && *s != '\t' && *s != '\r') s++;
                if (s == t) break;
                int k = obj_corner(t, (size_t)(s - t), b->nv);
                if (k < 0 || n == 4096) {
                    snprintf(msg, sizeof msg, "line %d: a face names a vertex that does not "
                             "exist (or has more than 4096)", line);
                    return mesh_fail(err, name, msg);
                }
                idx[n++] = k;
            }
            if (n < 3) {
                snprintf(msg, sizeof msg, "line %d: a face needs 3 vertices", line);
                return mesh_fail(err, name, msg);
            }
            int rc = 0;
            if (n == 4) {   /* tinyobjloader's split: along the shorter diagonal */
                const float *v = b->v;
                if (dist2(v + 3 * idx[0], v + 3 * idx[2]) < dist2(v + 3 * idx[1], v + 3 * idx[3]))
                    rc = push_face(b, idx[0], idx[1], idx[2]) || push_face(b, idx[0], idx[2], idx[3]);
                else
                    rc = push_face(b, idx[0], idx[1], idx[3]) || push_face(b, idx[1], idx[2], idx[3]);
            } else if (n <= MAX_OBJ_POLYGON) {
                rc = ear_clip(b, idx, n);
            } else {        /* a larger face MuJoCo's reader drops: so does urdf2dyn */
                dropped++;
            }
            if (rc) return mesh_fail(err, name, "out of memory");
        } else if (eol - p >= 1 && (p[0] == 'o' || p[0] == 'g') &&
                   (eol - p == 1 || p[1] == ' ' || p[1] == '\t' || p[1] == '\r')) {
            if (b->nf > 0) done = 1;        /* MuJoCo reads the first group's faces only */
        }
        p = eol + 1;
    }
    if (b->nf == 0 && dropped > 0) {        /* else the hull's inertia, without saying why */
        char why[200];
        snprintf(why, sizeof why, "all its faces (%d) have more than %d corners, which MuJoCo's "
                 "OBJ reader drops (it weighs the convex hull then; urdf2dyn does not): split "
                 "each into faces of at most %d corners", dropped, MAX_OBJ_POLYGON,
                 MAX_OBJ_POLYGON);
        return mesh_fail(err, name, why);
    }
    return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t k = 0; k < m; k++) {
        char c = s[n - m + k];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[k]) return 0;
    }
    return 1;
}

int u2d_mesh_mass(const char *data, size_t len, const char *name, const u2d_mj_mesh_spec *spec,
                  u2d_mj_mesh_mass *out, char err[U2D_ERRLEN])
{
    mesh_buf b = {NULL, 0, 0, NULL, 0, 0};
    int rc;
    if (spec->inertia == U2D_MESH_CONVEX)           /* refused before the file is read */
        return u2d_mesh_mass_of(0, NULL, 0, NULL, name, spec, out, err);
    if (has_suffix(name, ".stl")) rc = read_stl(data, len, name, &b, err);
    else if (has_suffix(name, ".obj")) rc = read_obj(data, len, name, &b, err);
    else rc = mesh_fail(err, name, "urdf2dyn reads the inertia of binary STL and OBJ meshes "
                        "only");
    if (!rc) rc = u2d_mesh_mass_of(b.nv, b.v, b.nf, b.f, name, spec, out, err);
    free(b.v);
    free(b.f);
    return rc;
}
