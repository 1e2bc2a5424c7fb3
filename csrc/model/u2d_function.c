/* u2d_function.c: the functions of one variable that drive OpenSim's CustomJoint axes.
 *
 * Each is evaluated as OpenSim 4 evaluates it, derivatives included, since the joint's
 * motion subspace and bias term are built from f' and f'' (and the derivative algorithms
 * would need f'''):
 *   Constant, LinearFunction, PolynomialFunction (coefficients highest power first),
 *   SimmSpline: the cubic spline of Forsythe, Malcolm and Moler ("Computer Methods for
 *     Mathematical Computations", 1977, routine SPLINE): its end conditions match the third
 *     derivative at each end to that of the cubic through the four nearest knots (with
 *     three knots, zero third derivative ends; two knots, a straight line). It is not the
 *     natural spline. Outside the knots it continues as the tangent line at the end knot,
 *   PiecewiseLinearFunction: straight segments, extended by the end segments' slopes,
 *   MultiplierFunction: a constant times another function.
 * Within 2e-13 of an end knot OpenSim returns the knot's own value (SIMM's rounding rule);
 * so do we. Model data only: this file is compiled once, for scalars. */
#include <math.h>
#include "model/u2d_model.h"

#define KNOT_GAP 1e-7          /* SIMM's smallest knot spacing                     */
#define KNOT_ROUNDOFF 2e-13    /* SIMM: an abscissa this close to an end knot is on it */

void u2d_simm_spline_fit(int n, double *data)
{
    const double *x = data, *y = data + n;
    double *b = data + 2 * n, *c = data + 3 * n, *d = data + 4 * n;
    if (n < 2) return;
    if (n == 2) {
        b[0] = b[1] = (y[1] - y[0]) / fmax(KNOT_GAP, x[1] - x[0]);
        c[0] = c[1] = d[0] = d[1] = 0.0;
        return;
    }
    /* Tridiagonal system for sigma_i (held in c): diagonal b, off-diagonal h (held in d),
     * right-hand side the second divided differences. */
    d[0] = fmax(KNOT_GAP, x[1] - x[0]);
    c[1] = (y[1] - y[0]) / d[0];
    for (int i = 1; i < n - 1; i++) {
        d[i] = fmax(KNOT_GAP, x[i + 1] - x[i]);
        b[i] = 2.0 * (d[i - 1] + d[i]);
        c[i + 1] = (y[i + 1] - y[i]) / d[i];
        c[i] = c[i + 1] - c[i];
    }
    /* end rows: third derivatives from divided differences of the four end knots */
    b[0] = -d[0];
    b[n - 1] = -d[n - 2];
    double c0 = 0.0, cn = 0.0;
    if (n > 3) {
        double d31 = fmax(KNOT_GAP, x[3] - x[1]), d20 = fmax(KNOT_GAP, x[2] - x[0]);
        double d1 = fmax(KNOT_GAP, x[n - 1] - x[n - 3]), d2 = fmax(KNOT_GAP, x[n - 2] - x[n - 4]);
        double d30 = fmax(KNOT_GAP, x[3] - x[0]), d3 = fmax(KNOT_GAP, x[n - 1] - x[n - 4]);
        c0 = (c[2] / d31 - c[1] / d20) * d[0] * d[0] / d30;
        cn = -(c[n - 2] / d1 - c[n - 3] / d2) * d[n - 2] * d[n - 2] / d3;
    }
    c[0] = c0;
    c[n - 1] = cn;
    for (int i = 1; i < n; i++) {               /* elimination */
        double t = d[i - 1] / b[i - 1];
        b[i] -= t * d[i - 1];
        c[i] -= t * c[i - 1];
    }
    c[n - 1] /= b[n - 1];                       /* back substitution */
    for (int i = n - 2; i >= 0; i--) c[i] = (c[i] - d[i] * c[i + 1]) / b[i];

    /* cubic coefficients on each interval: y + b dx + c dx^2 + d dx^3 */
    b[n - 1] = (y[n - 1] - y[n - 2]) / d[n - 2] + d[n - 2] * (c[n - 2] + 2.0 * c[n - 1]);
    for (int i = 0; i < n - 1; i++) {
        b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2.0 * c[i]);
        d[i] = (c[i + 1] - c[i]) / d[i];
        c[i] *= 3.0;
    }
    c[n - 1] *= 3.0;
    d[n - 1] = d[n - 2];
}

/* The knot interval k with x[k] <= t <= x[k+1], for x[0] < t < x[n-1]. */
static int interval(const double *x, int n, double t)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t < x[mid]) hi = mid;
        else lo = mid;
    }
    return lo;
}

/* Where t falls: -1 before the knots, -2 after, -3 on the first knot, -4 on the last,
 * else the interval. */
static int locate(const double *x, int n, double t)
{
    if (t < x[0]) return -1;
    if (t > x[n - 1]) return -2;
    if (fabs(t - x[0]) <= KNOT_ROUNDOFF) return -3;
    if (fabs(t - x[n - 1]) <= KNOT_ROUNDOFF) return -4;
    return interval(x, n, t);
}

void u2d_function_eval(const u2d_function *fn, const double *data, int f, double t,
                       double out[4])
{
    double scale = 1.0;
    while (fn[f].kind == U2D_FN_MULTIPLIER) {
        scale *= fn[f].scale;
        f = fn[f].inner;
    }
    const u2d_function *F = &fn[f];
    const double *p = data + F->at;
    const int n = F->n;
    out[0] = out[1] = out[2] = out[3] = 0.0;
    switch ((u2d_fkind)F->kind) {
    case U2D_FN_CONSTANT:
        out[0] = p[0];
        break;
    case U2D_FN_LINEAR:
        out[0] = p[0] * t + p[1];
        out[1] = p[0];
        break;
    case U2D_FN_POLYNOMIAL:     /* Horner, carrying three derivatives along */
        for (int k = 0; k < n; k++) {
            out[3] = out[3] * t + 3.0 * out[2];
            out[2] = out[2] * t + 2.0 * out[1];
            out[1] = out[1] * t + out[0];
            out[0] = out[0] * t + p[k];
        }
        break;
    case U2D_FN_SIMM_SPLINE: {
        const double *x = p, *y = p + n, *b = p + 2 * n, *c = p + 3 * n, *d = p + 4 * n;
        int k = locate(x, n, t);
        if (k == -1) { out[0] = y[0] + (t - x[0]) * b[0]; out[1] = b[0]; }
        else if (k == -2) { out[0] = y[n - 1] + (t - x[n - 1]) * b[n - 1]; out[1] = b[n - 1]; }
        else if (k == -3) { out[0] = y[0]; out[1] = b[0]; out[2] = 2.0 * c[0]; }
        else if (k == -4) { out[0] = y[n - 1]; out[1] = b[n - 1]; out[2] = 2.0 * c[n - 1]; }
        else {
            double dx = t - x[k];
            out[0] = y[k] + dx * (b[k] + dx * (c[k] + dx * d[k]));
            out[1] = b[k] + dx * (2.0 * c[k] + 3.0 * dx * d[k]);
            out[2] = 2.0 * c[k] + 6.0 * dx * d[k];
            out[3] = 6.0 * d[k];
        }
        break;
    }
    case U2D_FN_PIECEWISE_LINEAR: {
        const double *x = p, *y = p + n, *b = p + 2 * n;
        int k = n < 2 ? -3 : locate(x, n, t);
        if (k == -1) { out[0] = y[0] + (t - x[0]) * b[0]; out[1] = b[0]; }
        else if (k == -2) { out[0] = y[n - 1] + (t - x[n - 1]) * b[n - 1]; out[1] = b[n - 1]; }
        else if (k == -3) { out[0] = y[0]; out[1] = b[0]; }
        else if (k == -4) { out[0] = y[n - 1]; out[1] = b[n - 1]; }
        else { out[0] = y[k] + (t - x[k]) * b[k]; out[1] = b[k]; }
        break;
    }
    case U2D_FN_MULTIPLIER:
        break;
    }
    for (int k = 0; k < 4; k++) out[k] *= scale;
}
