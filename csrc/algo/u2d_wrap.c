/* u2d_wrap.c: a straight path segment wrapped over a wrap cylinder, as OpenSim computes it
 * (WrapCylinder::wrapLine, the algorithm SIMM introduced), so that muscle-tendon lengths and
 * the lengths scaling derives from them match OpenSim's.
 *
 * In the cylinder's frame (axis z through the origin): the tangent points of the two end
 * points' tangent lines are found in the planes normal to the axis, the pair on the allowed
 * side (the quadrant) is chosen, slid along the axis to the plane through the end points
 * and the apex of the wrap, and joined by a helix on the surface, whose length is the
 * wrapped length. With several wrap objects on one path OpenSim also slides the tangent
 * points until the helix leaves them within 0.1 degree of the segments' directions; with
 * one (and no visualizer) it does not, and neither does this. */
#include <math.h>
#include <string.h>
#include "algo/u2d_wrap.h"

#define LINE_EPSILON 1e-5
#define PI 3.14159265358979323846
#define TANGENCY (0.1 * PI / 180.0)         /* OpenSim's threshold: 0.1 degree            */
#define MAX_SLIDES 100
#define SEGMENT 0.002                       /* m of helix per wrap point                   */

static void sub(const double a[3], const double b[3], double o[3])
{
    for (int k = 0; k < 3; k++) o[k] = a[k] - b[k];
}

static void axpy(const double a[3], double s, const double b[3], double o[3])
{
    for (int k = 0; k < 3; k++) o[k] = a[k] + s * b[k];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double o[3])
{
    double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    memcpy(o, c, sizeof c);
}

static double dist2(const double a[3], const double b[3])
{
    double d[3];
    sub(a, b, d);
    return dot(d, d);
}

/* v / |v| into o, or zero when |v| is below machine epsilon; returns |v|. */
static double unit(const double v[3], double o[3])
{
    double n = sqrt(dot(v, v));
    for (int k = 0; k < 3; k++) o[k] = n >= 2.220446049250313e-16 ? v[k] / n : 0.0;
    return n;
}

/* The point of the line through a along dir (any length) closest to p; *t in units of dir. */
static void closest_on_line(const double p[3], const double a[3], const double dir[3],
                            double o[3], double *t)
{
    double v[3], u[3];
    sub(p, a, v);
    double mag = unit(v, v), mag2 = unit(dir, u);
    double s = dot(v, u) * mag;
    axpy(a, s, u, o);
    if (t) *t = s / mag2;
}

/* The closest points of lines p1-p2 and p3-p4 (o1 at s along p1-p2, o2 at t along p3-p4,
 * in units of the segments); 0 when the lines are parallel (outputs left as they were). */
static int intersect_lines(const double p1[3], const double p2[3], const double p3[3],
                           const double p4[3], double o1[3], double *s, double o2[3],
                           double *t)
{
    double v1[3], v2[3], c[3], d[3];
    sub(p2, p1, v1);
    sub(p4, p3, v2);
    double m1 = unit(v1, v1), m2 = unit(v2, v2);
    cross(v1, v2, c);
    double denom = dot(c, c);
    if (fabs(denom) <= 2e-13) {
        *s = *t = NAN;
        return 0;
    }
    sub(p3, p1, d);
    double dc[3];
    cross(v1, c, dc);           /* det[d; v1; c] = d . (v1 x c) */
    double tt = dot(d, dc) / denom;
    axpy(p3, tt, v2, o2);
    cross(v2, c, dc);
    double ss = dot(d, dc) / denom;
    axpy(p1, ss, v1, o1);
    *s = ss / m1;
    *t = tt / m2;
    return 1;
}

/* Where segment a-b meets the plane n.x + d = 0 (0 if it does not). */
static int segment_plane(const double a[3], const double b[3], const double n[3], double d,
                         double o[3])
{
    double v[3];
    sub(b, a, v);
    double along = dot(v, n);
    if (fabs(along) < LINE_EPSILON) return 0;
    double t = (-d - dot(n, a)) / along;
    if (t < -LINE_EPSILON || t > 1.0 + LINE_EPSILON) return 0;
    axpy(a, t, v, o);
    return 1;
}

static double dist2_to_axis(const double p[3])
{
    return p[0] * p[0] + p[1] * p[1];
}

static int side(double x) { return x >= 0.0 ? 1 : -1; }

static const double AXIS_PT[3] = {0.0, 0.0, -1.0}, DN[3] = {0.0, 0.0, 1.0};

/* The two tangent points of the tangent lines from p to the circle of the cylinder in the
 * plane normal to the axis through p; pa the axis point under p, *pdist p's distance. */
static void tangents(const double p[3], double radius, double pa[3], double a[3], double b[3],
                     double *pdist)
{
    double v[3], pp[3], u[3];
    closest_on_line(p, AXIS_PT, DN, pa, NULL);
    sub(p, pa, v);
    *pdist = unit(v, v);
    double sin_theta = radius / *pdist, along = radius * sin_theta;
    axpy(pa, along, v, pp);
    double across = sqrt(radius * radius - along * along);
    cross(DN, v, u);
    axpy(pp, across, u, a);
    axpy(pp, -across, u, b);
}

static double angle_between(const double a[3], const double b[3])
{
    return acos(dot(a, b) / (sqrt(dot(a, a)) * sqrt(dot(b, b))));
}

/* The point at fraction t of the helix from r1 turning theta (sense +-1) and rising axial. */
static void helix_point(const double r1[3], double sense, double theta, double axial, double t,
                        double o[3])
{
    double a = sense * t * theta, c = cos(a), s = sin(a);
    o[0] = c * r1[0] - s * r1[1];
    o[1] = s * r1[0] + c * r1[1];
    o[2] = r1[2] + t * axial;
}

/* Slide tangent point r along the axis when the line from p does not meet the helix (its
 * next point w) within the tangency threshold; 1 if it moved. */
static int slide_tangent(const double p[3], double r[3], const double w[3])
{
    double pr[3], rw[3], pa[3], wa[3], o1[3], o2[3], s, t;
    sub(r, p, pr);
    sub(w, r, rw);
    unit(pr, pr);
    unit(rw, rw);
    if (!(fabs(acos(dot(pr, DN)) - acos(dot(rw, DN))) > TANGENCY)) return 0;
    closest_on_line(p, r, DN, pa, NULL);
    closest_on_line(w, r, DN, wa, NULL);
    memcpy(o2, r, sizeof o2);
    intersect_lines(p, w, pa, wa, o1, &s, o2, &t);
    for (int k = 0; k < 3; k++) r[k] += 1.5 * (o2[k] - r[k]);
    return 1;
}

/* The helix from res->r1 to res->r2 (the long way round when far) and its length. */
static void spiral(const double p1[3], const double p2[3], double radius, int far, int single,
                   u2d_wrap_result *res)
{
    double sense = far ? -1.0 : 1.0;
    for (int slides = 0;; slides++) {
        double r1a[3], r2a[3], uu[3], vv[3], c[3];
        closest_on_line(res->r1, AXIS_PT, DN, r1a, NULL);
        closest_on_line(res->r2, AXIS_PT, DN, r2a, NULL);
        double axial = dot(r2a, DN) - dot(r1a, DN);
        sub(res->r1, r1a, uu);
        sub(res->r2, r2a, vv);
        cross(uu, vv, c);
        double theta = atan2(dot(c, DN), dot(uu, vv));
        if (far) theta = 2.0 * PI - theta;
        double x = radius * theta;
        res->length = sqrt(x * x + axial * axial);
        int n = (int)(res->length / SEGMENT);
        if (single || n < 2 || slides >= MAX_SLIDES) return;
        double w1[3], w2[3], t = 1.0 / n;
        helix_point(res->r1, sense, theta, axial, t, w1);
        int moved = slide_tangent(p1, res->r1, w1);
        helix_point(res->r1, sense, theta, axial, 1.0 - t, w2);    /* from r1 as slid */
        moved |= slide_tangent(p2, res->r2, w2);
        if (!moved) return;
    }
}

int u2d_wrap_cylinder(double radius, double length, int quadrant, int single,
                      const double p1[3], const double p2[3], u2d_wrap_result *res)
{
    const double r2sq = radius * radius;
    const int constrained = quadrant != 0, axis = (quadrant < 0 ? -quadrant : quadrant) - 1;
    const int sign = quadrant > 0 ? 1 : -1;
    int code = U2D_WRAPS, far = 0, long_wrap = 0;
    res->length = 0.0;
    if (dist2_to_axis(p1) < r2sq || dist2_to_axis(p2) < r2sq) return U2D_WRAPS_INSIDE;

    /* where the straight segment passes closest to the cylinder's axis segment */
    double ends[2][3] = {{0.0, 0.0, -0.5 * length}, {0.0, 0.0, 0.5 * length}};
    double near12[3], near00[3], t12, t00;
    memcpy(near12, p1, sizeof near12);
    memcpy(near00, ends[0], sizeof near00);
    intersect_lines(p1, p2, ends[0], ends[1], near12, &t12, near00, &t00);
    int through = dist2(near12, near00) < r2sq && t12 > 0.0 && t12 < 1.0;
    if (!constrained) {
        if (!through) return U2D_WRAPS_NOT;
        code = U2D_WRAPS_MANDATORY;
    }

    double p11[3], p22[3], r1a[3], r1b[3], r2a[3], r2b[3], d1, d2;
    tangents(p1, radius, p11, r1a, r1b, &d1);
    tangents(p2, radius, p22, r2a, r2b, &d2);
    const double *r1, *r2;
    if (constrained) {
        if (side(p1[axis]) == sign || side(p2[axis]) == sign) {
            if (through) code = U2D_WRAPS_MANDATORY;
            else if (side(p1[axis]) != side(p2[axis]) && side(near12[axis]) != sign)
                code = U2D_WRAPS;
            else return U2D_WRAPS_NOT;
        }
        double r1am[3], r1bm[3], r2am[3], r2bm[3];
        sub(r1a, p11, r1am); sub(r1b, p11, r1bm);
        sub(r2a, p22, r2am); sub(r2b, p22, r2bm);
        double alpha = angle_between(r1am, r2bm), beta = angle_between(r1bm, r2am);
        /* the tangent points on the allowed side; r1a with r2b, or r1b with r2a */
        int on1a = side(r1a[axis]) == sign, on1b = side(r1b[axis]) == sign;
        int a_pair;                         /* 1: (r1a, r2b), 0: (r1b, r2a) */
        if (on1a && on1b) a_pair = side(r2a[axis]) != sign;
        else if (on1a) a_pair = 1;
        else if (on1b) a_pair = 0;
        else if (side(r2a[axis]) == sign) a_pair = 0;
        else if (side(r2b[axis]) == sign) a_pair = 1;
        else a_pair = alpha > beta;
        if (!on1a && !on1b && side(r2a[axis]) != sign && side(r2b[axis]) != sign)
            far = 1;                        /* none on the allowed side */
        else
            far = a_pair ? alpha <= beta ? 0 : 1 : alpha > beta ? 0 : 1;
        r1 = a_pair ? r1a : r1b;
        r2 = a_pair ? r2b : r2a;
        double musc[3], rr[3];
        for (int k = 0; k < 3; k++) {
            musc[k] = (r1[k] - p1[k]) + (r2[k] - p2[k]);
            rr[k] = (r1[k] - p11[k]) + (r2[k] - p22[k]);
        }
        long_wrap = dot(rr, musc) < 0.0;
    } else {
        double u1a[3], u1b[3], u2a[3], u2b[3];
        sub(r1a, p11, u1a); sub(r1b, p11, u1b);
        sub(r2a, p22, u2a); sub(r2b, p22, u2b);
        unit(u1a, u1a); unit(u1b, u1b); unit(u2a, u2a); unit(u2b, u2b);
        double aa = dot(u1a, u2a), ab = dot(u1a, u2b), ba = dot(u1b, u2a), bb = dot(u1b, u2b);
        if (aa > ab && aa > ba && aa > bb) { r1 = r1a; r2 = r2a; }
        else if (ab > ba && ab > bb) { r1 = r1a; r2 = r2b; }
        else if (ba > bb) { r1 = r1b; r2 = r2a; }
        else { r1 = r1b; r2 = r2b; }
    }
    memcpy(res->r1, r1, sizeof res->r1);
    memcpy(res->r2, r2, sizeof res->r2);

    /* the apex of the wrap: on the surface, in the plane of the end points and the axis
     * point under the segment's point that divides it as the end points' distances do */
    double mpt[3], axpt[3], l1[3], l2[3], n[3], v1[3], v2[3], apex1[3], apex2[3], dir[3];
    sub(p2, p1, dir);
    axpy(p1, d1 / (d1 + d2), dir, mpt);
    closest_on_line(mpt, AXIS_PT, DN, axpt, NULL);
    sub(p1, axpt, l1); unit(l1, l1);
    sub(p2, axpt, l2); unit(l2, l2);
    cross(l1, l2, n); unit(n, n);
    cross(DN, n, v1); unit(v1, v1);
    cross(n, DN, v2); unit(v2, v2);
    axpy(axpt, radius, v1, apex1);
    axpy(axpt, radius, v2, apex2);
    int first = dist2(mpt, apex1) < dist2(mpt, apex2);
    const double *apex = far ? (first ? apex2 : apex1) : (first ? apex1 : apex2);

    /* slide the tangent points along the axis onto the plane of p1, p2 and the apex */
    double uu[3], vv[3], pn[3];
    sub(p1, apex, uu); unit(uu, uu);
    sub(p2, apex, vv); unit(vv, vv);
    cross(uu, vv, pn); unit(pn, pn);
    double d = -dot(p1, pn), lo[3], hi[3], hit[3], on[3];
    axpy(res->r1, -10.0, DN, lo);
    axpy(res->r1, 10.0, DN, hi);
    if (segment_plane(lo, hi, pn, d, hit)) {
        closest_on_line(hit, p11, p22, on, NULL);      /* OpenSim takes p22 as the direction */
        if (dist2(on, p22) < dist2(p11, p22)) memcpy(res->r1, hit, sizeof hit);
    }
    axpy(res->r2, -10.0, DN, lo);
    axpy(res->r2, 10.0, DN, hi);
    if (segment_plane(lo, hi, pn, d, hit)) {
        closest_on_line(hit, p22, p11, on, NULL);
        if (dist2(on, p11) < dist2(p22, p11)) memcpy(res->r2, hit, sizeof hit);
    }
    double half = 0.5 * length;
    if ((res->r1[2] < -half || res->r1[2] > half) && (res->r2[2] < -half || res->r2[2] > half))
        return U2D_WRAPS_NOT;
    spiral(p1, p2, radius, long_wrap, single, res);
    return code;
}
