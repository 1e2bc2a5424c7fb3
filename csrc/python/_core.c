/* _core.c: the CPython module urdf2dyn._core, a thin layer over the C core.
 *
 * It converts arguments (any real dtype, any layout -> float64 C-contiguous, once), checks
 * shapes and names the argument at fault, releases the GIL around the core's loops, and
 * turns core status codes into exceptions after the GIL is back. No dynamics here. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "batch/u2d_batch.h"
#include "batch/u2d_simd.h"
#include "model/u2d_model.h"
#include "parse/u2d_xml.h"

typedef struct {
    PyObject *URDFError;
    PyTypeObject *ModelType;
} module_state;

typedef struct {
    PyObject_HEAD
    u2d_urdf *urdf;         /* the document: names, limits, mimic, ... */
    u2d_model *model;       /* the compiled tree                        */
    u2d_work *spare;        /* a workspace lent to one call at a time (taken and returned
                               with the GIL held), so small calls skip the allocation   */
    double gravity[3];
    int floating_base;
    u2d_osim_writer *writer;    /* the .osim text kept parsed for osim_write, made at its
                                   first call, and that text                           */
    char *writer_text;
} ModelObject;

/* Borrow the spare workspace (NULL if another call has it: that call's u2d_batch then
 * allocates its own). */
static u2d_work *take_spare(ModelObject *self)
{
    u2d_work *w = self->spare;
    self->spare = NULL;
    return w ? w : u2d_work_new(self->model);
}

static void give_back(ModelObject *self, u2d_work *w)
{
    if (!self->spare) self->spare = w;
    else u2d_work_free(w);
}

static const char *jtype_name(u2d_jtype t)
{
    switch (t) {
    case U2D_JOINT_REVOLUTE: return "revolute";
    case U2D_JOINT_CONTINUOUS: return "continuous";
    case U2D_JOINT_PRISMATIC: return "prismatic";
    case U2D_JOINT_FLOATING: return "floating";
    case U2D_JOINT_PLANAR: return "planar";
    case U2D_JOINT_CUSTOM: return "custom";
    case U2D_JOINT_BALL: return "ball";
    case U2D_JOINT_ELLIPSOID: return "ellipsoid";
    case U2D_JOINT_CURVATURE: return "constant_curvature";
    case U2D_JOINT_FIXED: return "fixed";
    }
    return "?";
}

/* ---- arrays --------------------------------------------------------------- */

static void format_shape(PyArrayObject *a, char *buf, size_t len)
{
    int nd = PyArray_NDIM(a);
    size_t k = (size_t)snprintf(buf, len, "(");
    for (int i = 0; i < nd && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, i + 1 < nd || nd == 1 ? "%zd," : "%zd",
                              (Py_ssize_t)PyArray_DIM(a, i));
    if (k < len) snprintf(buf + k, len - k, ")");
}

/* obj as a float64 C-contiguous array of shape (width,) or (N, width), or NULL with an
 * exception naming the argument. */
static PyArrayObject *as_samples(PyObject *obj, const char *arg, const char *wname,
                                 npy_intp width)
{
    if (PyArray_Check(obj)) {
        char kind = PyArray_DESCR((PyArrayObject *)obj)->kind;
        if (kind != 'f' && kind != 'i' && kind != 'u') {
            PyErr_Format(PyExc_TypeError, "%s: expected an array of real numbers, got dtype %R",
                         arg, (PyObject *)PyArray_DESCR((PyArrayObject *)obj));
            return NULL;
        }
    }
    /* an array of real numbers converts whatever its kind's width (np.longdouble too, which
     * NumPy's 'safe' rule refuses); anything else is converted without forcing, so that a
     * list of complex numbers is still refused */
    int force = PyArray_Check(obj) ? NPY_ARRAY_FORCECAST : 0;
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OTF(obj, NPY_DOUBLE,
                                                         NPY_ARRAY_IN_ARRAY | force);
    if (!a) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);       /* value: the exception itself */
        if (type && PyErr_GivenExceptionMatches(type, PyExc_MemoryError))
            /* a batch too large to copy as float64: say so, not that it holds no numbers */
            PyErr_Format(PyExc_MemoryError, "%s: %S", arg, value ? value : Py_None);
        else
            PyErr_Format(PyExc_TypeError, "%s: expected an array of real numbers (%S)", arg,
                         value ? value : Py_None);
        Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
        return NULL;
    }
    int nd = PyArray_NDIM(a);
    if ((nd != 1 && nd != 2) || PyArray_DIM(a, nd - 1) != width) {
        char shape[128];
        format_shape(a, shape, sizeof shape);
        PyErr_Format(PyExc_ValueError, "%s: expected shape (%s,) = (%zd,) or (N, %zd), got %s",
                     arg, wname, (Py_ssize_t)width, (Py_ssize_t)width, shape);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* b must hold as many samples as a (both single, or both N). */
static int same_samples(PyArrayObject *a, const char *aname, PyArrayObject *b, const char *bname)
{
    if (PyArray_NDIM(a) == PyArray_NDIM(b) &&
        (PyArray_NDIM(a) == 1 || PyArray_DIM(a, 0) == PyArray_DIM(b, 0)))
        return 0;
    char sa[128], sb[128];
    format_shape(a, sa, sizeof sa);
    format_shape(b, sb, sizeof sb);
    PyErr_Format(PyExc_ValueError, "%s: has shape %s but %s has shape %s: give both one sample "
                 "or both the same number of samples N", bname, sb, aname, sa);
    return -1;
}

static size_t count_samples(PyArrayObject *a)
{
    return PyArray_NDIM(a) == 1 ? 1 : (size_t)PyArray_DIM(a, 0);
}

/* ---- status codes -> exceptions (with the GIL held) ----------------------- */

static PyObject *raise_status(ModelObject *self, u2d_status st, size_t bad, const double *q,
                              const char *qname)
{
    switch (st) {
    case U2D_OK:
        return NULL;
    case U2D_ERR_NOMEM:
        return PyErr_NoMemory();
    case U2D_ERR_QUATERNION: {
        const u2d_model *m = self->model;
        const char *name = "root_joint", *kind = "floating";
        for (int i = 1; i < m->nbody; i++) {
            int at = u2d_quat_at(m->jtype[i]);
            if (at < 0) continue;
            const double *x = q + bad * (size_t)m->nq + m->qadr[i] + at;
            double n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
            if (!(n2 > 1e-24 && n2 < INFINITY)) {
                name = m->jurdf[i] >= 0 ? self->urdf->joint[m->jurdf[i]].name : "root_joint";
                kind = jtype_name(m->jtype[i]);
                break;
            }
        }
        return PyErr_Format(PyExc_ValueError, "%s: sample %zu: the quaternion of %s joint "
                            "'%s' has zero or infinite norm", qname, bad, kind, name);
    }
    case U2D_ERR_SINGULAR:
        return PyErr_Format(PyExc_ValueError, "sample %zu: singular mass matrix: a movable joint "
                            "carries no inertia along its motion (e.g. a massless leaf link, or "
                            "a floating base over a massless root link that one joint moves: "
                            "load without floating_base=True or give that link a mass), or two "
                            "joint axes line up (gimbal lock of a chain of revolute joints "
                            "through one point); forward dynamics is undefined there", bad);
    case U2D_ERR_ARGUMENT:
        return PyErr_Format(PyExc_ValueError, "argument out of range");
    case U2D_ERR_THREAD:
        return PyErr_Format(PyExc_RuntimeError, "could not start worker threads");
    }
    return PyErr_Format(PyExc_RuntimeError, "urdf2dyn core: unknown status %d", (int)st);
}

/* ---- Model ---------------------------------------------------------------- */

static void Model_dealloc(ModelObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    u2d_work_free(self->spare);
    u2d_osim_writer_free(self->writer);
    free(self->writer_text);
    u2d_model_free(self->model);
    u2d_urdf_free(self->urdf);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* ---- algorithms: what each takes and returns, per sample ---------------------- */

/* Shape codes: q = nq, v = nv, L = links, J = movable joints, P = inertial parameters
 * (10 per moving body), digits = themselves. */
typedef struct {
    int nin;
    const char *in_name[3];
    char in_kind[3];            /* 'q' or 'v' */
    int nout;
    const char *out_shape[3];   /* "" is a scalar per sample */
} algo_spec;

static const algo_spec algo_specs[U2D_NALGO] = {
    [U2D_ALGO_RNEA] = {3, {"q", "v", "a"}, "qvv", 1, {"v"}},
    [U2D_ALGO_CRBA] = {1, {"q"}, "q", 1, {"vv"}},
    [U2D_ALGO_NLE] = {2, {"q", "v"}, "qv", 1, {"v"}},
    [U2D_ALGO_GRAVITY] = {1, {"q"}, "q", 1, {"v"}},
    [U2D_ALGO_CORIOLIS] = {2, {"q", "v"}, "qv", 1, {"vv"}},
    [U2D_ALGO_ABA] = {3, {"q", "v", "tau"}, "qvv", 1, {"v"}},
    [U2D_ALGO_FK] = {1, {"q"}, "q", 2, {"L3", "L33"}},
    [U2D_ALGO_JOINT_POS] = {1, {"q"}, "q", 1, {"J3"}},
    [U2D_ALGO_COM] = {1, {"q"}, "q", 1, {"3"}},
    [U2D_ALGO_JACOBIAN] = {1, {"q"}, "q", 1, {"6v"}},
    [U2D_ALGO_LINK_VEL] = {2, {"q", "v"}, "qv", 1, {"L6"}},
    [U2D_ALGO_KINETIC] = {2, {"q", "v"}, "qv", 1, {""}},
    [U2D_ALGO_POTENTIAL] = {1, {"q"}, "q", 1, {""}},
    [U2D_ALGO_INTEGRATE] = {2, {"q", "v"}, "qv", 1, {"q"}},
    [U2D_ALGO_DIFFERENCE] = {2, {"q0", "q1"}, "qq", 1, {"v"}},
    [U2D_ALGO_NORMALIZE] = {1, {"q"}, "q", 1, {"q"}},
    [U2D_ALGO_RNEA_DERIV] = {3, {"q", "v", "a"}, "qvv", 3, {"vv", "vv", "vv"}},
    [U2D_ALGO_ABA_DERIV] = {3, {"q", "v", "tau"}, "qvv", 3, {"vv", "vv", "vv"}},
    [U2D_ALGO_CCRBA] = {1, {"q"}, "q", 1, {"6v"}},
    [U2D_ALGO_CENTROIDAL] = {3, {"q", "v", "a"}, "qvv", 2, {"33", "26"}},
    [U2D_ALGO_REGRESSOR] = {3, {"q", "v", "a"}, "qvv", 1, {"vP"}},
    [U2D_ALGO_FRAME_JACOBIAN] = {1, {"q"}, "q", 1, {"6v"}},
    [U2D_ALGO_FRAME_JACOBIAN_DOT] = {2, {"q", "v"}, "qv", 1, {"6v"}},
    [U2D_ALGO_FRAME_VELOCITY] = {2, {"q", "v"}, "qv", 1, {"6"}},
    [U2D_ALGO_FRAME_ACCELERATION] = {3, {"q", "v", "a"}, "qvv", 1, {"6"}},
    [U2D_ALGO_FRAME_CLASSICAL] = {3, {"q", "v", "a"}, "qvv", 1, {"6"}},
    [U2D_ALGO_PASSIVE] = {2, {"q", "v"}, "qv", 1, {"v"}},
};

static npy_intp shape_size(const u2d_model *m, char code)
{
    switch (code) {
    case 'q': return m->nq;
    case 'v': return m->nv;
    case 'L': return m->nlink;
    case 'J': return m->njoint;
    case 'P': return 10 * (npy_intp)(m->nbody - 1);
    default: return code - '0';
    }
}

/* The dimensions of n samples (or one sample, without the leading axis) of the given shape;
 * returns their number and stores the doubles per sample. */
static int output_dims(const u2d_model *m, const char *shape, int single, npy_intp n,
                       npy_intp dims[4], size_t *per_sample)
{
    int nd = 0;
    size_t size = 1;
    if (!single) dims[nd++] = n;
    for (const char *c = shape; *c; c++) {
        dims[nd] = shape_size(m, *c);
        size *= (size_t)dims[nd++];
    }
    *per_sample = size;
    return nd;
}

/* A new array of n samples (or one sample, without the leading axis) of the given shape. */
static PyArrayObject *new_output(const u2d_model *m, const char *shape, int single, npy_intp n,
                                 size_t *per_sample)
{
    npy_intp dims[4];
    int nd = output_dims(m, shape, single, n, dims, per_sample);
    return (PyArrayObject *)PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
}

/* The caller's array obj as output k (out=): a new reference, after checking that it is
 * exactly what new_output would have made (float64, C-contiguous, aligned, native byte
 * order, writeable, that shape), so the core may write it as its own. */
static PyArrayObject *given_output(const u2d_model *m, const char *shape, int single,
                                   npy_intp n, PyObject *obj, int k, size_t *per_sample)
{
    npy_intp dims[4];
    int nd = 0;
    size_t size = 1;
    char want[96] = "", *w = want;
    if (!single) dims[nd++] = n;
    for (const char *c = shape; *c; c++) {
        dims[nd] = shape_size(m, *c);
        size *= (size_t)dims[nd++];
    }
    for (int d = 0; d < nd; d++)
        w += snprintf(w, (size_t)(want + sizeof want - w), d ? ", %ld" : "%ld", (long)dims[d]);
    *per_sample = size;
    PyArrayObject *a = (PyArrayObject *)obj;
    int ok = PyArray_Check(obj) && PyArray_TYPE(a) == NPY_DOUBLE && PyArray_ISCARRAY(a) &&
             PyArray_ISNOTSWAPPED(a) && PyArray_NDIM(a) == nd;
    for (int d = 0; ok && d < nd; d++) ok = PyArray_DIM(a, d) == dims[d];
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "out[%d]: expected a writeable C-contiguous float64 "
                     "array of shape (%s%s); allocate it with numpy.empty((%s%s))", k, want,
                     nd == 1 ? "," : "", want, nd == 1 ? "," : "");
        return NULL;
    }
    Py_INCREF(obj);
    return a;
}

/* Whether the bytes of a and b overlap (a conservative may-share-memory test). */
static int overlaps(PyArrayObject *a, PyArrayObject *b)
{
    if (!a || !b || PyArray_NBYTES(a) == 0 || PyArray_NBYTES(b) == 0) return 0;
    const char *a0 = PyArray_DATA(a), *b0 = PyArray_DATA(b);
    return a0 < b0 + PyArray_NBYTES(b) && b0 < a0 + PyArray_NBYTES(a);
}

/* Wrenches for the core: bodies (K,) and wrenches (N or 1, K, 6); None for none. */
static int convert_fext(const u2d_model *m, PyObject *body_obj, PyObject *wrench_obj, size_t n,
                        PyArrayObject **fb, PyArrayObject **fw, int *nfext, int *shared)
{
    *nfext = 0;
    *shared = 0;
    if (body_obj == Py_None) return 0;
    *fb = (PyArrayObject *)PyArray_FROM_OTF(body_obj, NPY_INT, NPY_ARRAY_IN_ARRAY);
    *fw = (PyArrayObject *)PyArray_FROM_OTF(wrench_obj, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!*fb || !*fw) return -1;
    npy_intp k = PyArray_SIZE(*fb);
    if (PyArray_NDIM(*fb) != 1 || PyArray_NDIM(*fw) != 3 || PyArray_DIM(*fw, 1) != k ||
        PyArray_DIM(*fw, 2) != 6 ||
        (PyArray_DIM(*fw, 0) != 1 && (size_t)PyArray_DIM(*fw, 0) != n)) {
        PyErr_Format(PyExc_ValueError, "f_ext: expected wrenches of shape (6,) or (N, 6) "
                     "with N = %zu", n);
        return -1;
    }
    const int *body = PyArray_DATA(*fb);
    for (npy_intp i = 0; i < k; i++)
        if (body[i] < 0 || body[i] >= m->nbody) {
            PyErr_Format(PyExc_ValueError, "f_ext: body index %d out of range", body[i]);
            return -1;
        }
    *nfext = (int)k;
    *shared = PyArray_DIM(*fw, 0) == 1 && n != 1;
    return 0;
}

/* compute(algo, inputs, fext_body, fext_wrench, threads, link, point, dt[, reference[, out]])
 * out: None, or a tuple of the algorithm's output arrays to fill (and return) */
static PyObject *Model_compute(ModelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 8 || nargs > 10 || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "compute(algo, inputs, fext_body, fext_wrench, "
                        "threads, link, point, dt[, reference[, out]])");
        return NULL;
    }
    const u2d_model *m = self->model;
    long algo = PyLong_AsLong(args[0]), threads = PyLong_AsLong(args[4]);
    long link = PyLong_AsLong(args[5]);
    long reference = nargs > 8 ? PyLong_AsLong(args[8]) : 0;
    double dt = PyFloat_AsDouble(args[7]);
    if (PyErr_Occurred()) return NULL;
    if (algo < 0 || algo >= U2D_NALGO) {
        PyErr_Format(PyExc_ValueError, "unknown algorithm %ld", algo);
        return NULL;
    }
    const algo_spec *spec = &algo_specs[algo];
    if (PyTuple_GET_SIZE(args[1]) != spec->nin) {
        PyErr_Format(PyExc_TypeError, "expected %d arrays", spec->nin);
        return NULL;
    }
    PyArrayObject *in[3] = {NULL, NULL, NULL}, *out[3] = {NULL, NULL, NULL}, *fb = NULL;
    PyArrayObject *fw = NULL;
    PyObject *result = NULL;
    u2d_batch_args ba = {0};

    for (int k = 0; k < spec->nin; k++) {
        char kind = spec->in_kind[k];
        in[k] = as_samples(PyTuple_GET_ITEM(args[1], k), spec->in_name[k],
                           kind == 'q' ? "nq" : "nv", kind == 'q' ? m->nq : m->nv);
        if (!in[k] || (k > 0 && same_samples(in[0], spec->in_name[0], in[k], spec->in_name[k])))
            goto done;
        ba.in[k] = PyArray_DATA(in[k]);
        ba.in_size[k] = (size_t)(kind == 'q' ? m->nq : m->nv);
    }
    int single = PyArray_NDIM(in[0]) == 1;
    size_t n = count_samples(in[0]);
    if (convert_fext(m, args[2], args[3], n, &fb, &fw, &ba.nfext, &ba.fext_shared)) goto done;
    if (ba.nfext) {
        ba.fext_body = PyArray_DATA(fb);
        ba.fext_wrench = PyArray_DATA(fw);
    }
    PyObject *given = nargs > 9 && args[9] != Py_None ? args[9] : NULL;
    if (given && (!PyTuple_Check(given) || PyTuple_GET_SIZE(given) != spec->nout)) {
        PyErr_Format(PyExc_TypeError, "out: expected a tuple of %d arrays", spec->nout);
        goto done;
    }
    for (int k = 0; k < spec->nout; k++) {
        out[k] = given ? given_output(m, spec->out_shape[k], single, (npy_intp)n,
                                      PyTuple_GET_ITEM(given, k), k, &ba.out_size[k])
                       : new_output(m, spec->out_shape[k], single, (npy_intp)n, &ba.out_size[k]);
        if (!out[k]) goto done;
        ba.out[k] = PyArray_DATA(out[k]);
    }
    for (int k = 0; given && k < spec->nout; k++) {  /* the core reads inputs while writing */
        int clash = overlaps(out[k], fw);
        for (int j = 0; j < 3; j++)
            clash |= overlaps(out[k], in[j]) || (j < k && overlaps(out[k], out[j]));
        if (clash) {
            PyErr_Format(PyExc_ValueError, "out[%d] shares memory with an input or another "
                         "output: pass separate arrays", k);
            goto done;
        }
    }
    if (args[6] != Py_None &&
        !PyArg_ParseTuple(args[6], "ddd", &ba.point[0], &ba.point[1], &ba.point[2]))
        goto done;
    memcpy(ba.gravity, self->gravity, sizeof ba.gravity);
    ba.link = (int)link;
    ba.reference = (u2d_reference)reference;
    ba.dt = dt;

    size_t bad = 0;
    u2d_status st;
    int nt = threads > 64 ? 64 : (int)threads;
    u2d_work *w = take_spare(self);
    Py_BEGIN_ALLOW_THREADS
    st = u2d_batch(m, (u2d_algo)algo, n, nt, &ba, w, &bad);
    Py_END_ALLOW_THREADS
    if (w) give_back(self, w);
    if (st != U2D_OK) {
        raise_status(self, st, bad, ba.in[0], spec->in_name[0]);
        goto done;
    }
    if (spec->nout == 1) {
        result = (PyObject *)out[0];
        out[0] = NULL;
    } else if (spec->nout == 2) result = PyTuple_Pack(2, out[0], out[1]);
    else result = PyTuple_Pack(3, out[0], out[1], out[2]);
done:
    for (int k = 0; k < 3; k++) Py_XDECREF(in[k]);
    for (int k = 0; k < 3; k++) Py_XDECREF(out[k]);
    Py_XDECREF(fb); Py_XDECREF(fw);
    return result;
}

/* simulate(q0, v0, tau, tau_half_steps, dt, method, fext_body, fext_wrench) -> (qs, vs) */
/* signature(algo) -> (input names, input widths, output shapes per sample): the table above,
 * for the Python layer's broadcasting and out= checks. */
static PyObject *Model_signature(ModelObject *self, PyObject *arg)
{
    long algo = PyLong_AsLong(arg);
    if (algo == -1 && PyErr_Occurred()) return NULL;
    if (algo < 0 || algo >= U2D_NALGO) {
        PyErr_Format(PyExc_ValueError, "unknown algorithm %ld", algo);
        return NULL;
    }
    const algo_spec *spec = &algo_specs[algo];
    PyObject *names = PyTuple_New(spec->nin), *widths = PyTuple_New(spec->nin);
    PyObject *shapes = PyTuple_New(spec->nout);
    if (!names || !widths || !shapes) goto error;
    for (int k = 0; k < spec->nin; k++) {
        PyObject *name = PyUnicode_FromString(spec->in_name[k]);
        PyObject *width = PyLong_FromLong(spec->in_kind[k] == 'q' ? self->model->nq
                                                                  : self->model->nv);
        if (!name || !width) { Py_XDECREF(name); Py_XDECREF(width); goto error; }
        PyTuple_SET_ITEM(names, k, name);
        PyTuple_SET_ITEM(widths, k, width);
    }
    for (int k = 0; k < spec->nout; k++) {
        const char *code = spec->out_shape[k];
        PyObject *shape = PyTuple_New((Py_ssize_t)strlen(code));
        if (!shape) goto error;
        PyTuple_SET_ITEM(shapes, k, shape);
        for (Py_ssize_t i = 0; code[i]; i++) {
            PyObject *d = PyLong_FromSsize_t((Py_ssize_t)shape_size(self->model, code[i]));
            if (!d) goto error;
            PyTuple_SET_ITEM(shape, i, d);
        }
    }
    return Py_BuildValue("(NNN)", names, widths, shapes);
error:
    Py_XDECREF(names); Py_XDECREF(widths); Py_XDECREF(shapes);
    return NULL;
}

static PyObject *Model_simulate(ModelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "simulate(q0, v0, tau, tau_half_steps, dt, method, "
                        "fext_body, fext_wrench)");
        return NULL;
    }
    const u2d_model *m = self->model;
    int half = PyObject_IsTrue(args[3]);
    double dt = PyFloat_AsDouble(args[4]);
    long method = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    PyArrayObject *q0 = NULL, *v0 = NULL, *tau = NULL, *qs = NULL, *vs = NULL, *fb = NULL,
                  *fw = NULL;
    PyObject *result = NULL;
    u2d_work *w = NULL;
    if (!(q0 = as_samples(args[0], "q0", "nq", m->nq)) ||
        !(v0 = as_samples(args[1], "v0", "nv", m->nv)) ||
        !(tau = as_samples(args[2], "tau", "nv", m->nv)))
        goto done;
    if (PyArray_NDIM(q0) != 1 || PyArray_NDIM(v0) != 1 || PyArray_NDIM(tau) != 2) {
        PyErr_SetString(PyExc_ValueError, "simulate: q0 must be (nq,), v0 (nv,) and tau "
                        "(steps, nv) or (2 steps + 1, nv)");
        goto done;
    }
    size_t rows = (size_t)PyArray_DIM(tau, 0), steps = half ? (rows - 1) / 2 : rows;
    if (steps < 1 || (half && rows % 2 == 0)) {
        PyErr_Format(PyExc_ValueError, "simulate: tau has %zu rows: expected steps >= 1 rows, "
                     "or 2 steps + 1 rows with half_steps=True", rows);
        goto done;
    }
    int nfext = 0, shared = 0;
    if (convert_fext(m, args[6], args[7], steps, &fb, &fw, &nfext, &shared)) goto done;
    npy_intp dq[2] = {(npy_intp)steps + 1, m->nq}, dv[2] = {(npy_intp)steps + 1, m->nv};
    if (!(qs = (PyArrayObject *)PyArray_SimpleNew(2, dq, NPY_DOUBLE)) ||
        !(vs = (PyArrayObject *)PyArray_SimpleNew(2, dv, NPY_DOUBLE)) ||
        !(w = take_spare(self))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    size_t bad = 0;
    u2d_status st;
    Py_BEGIN_ALLOW_THREADS
    st = u2d_simulate(m, w, self->gravity, PyArray_DATA(q0), PyArray_DATA(v0), PyArray_DATA(tau),
                      half, steps, dt, (u2d_method)method, nfext,
                      nfext ? PyArray_DATA(fb) : NULL, nfext ? PyArray_DATA(fw) : NULL, shared,
                      PyArray_DATA(qs), PyArray_DATA(vs), &bad);
    Py_END_ALLOW_THREADS
    if (st != U2D_OK) {
        PyObject *type, *value, *tb;
        raise_status(self, st, 0, PyArray_DATA(qs) + bad * (size_t)m->nq, "q");
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(type, "simulate: step %zu: %S", bad, value);
        Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
        goto done;
    }
    result = PyTuple_Pack(2, qs, vs);
done:
    if (w) give_back(self, w);
    Py_XDECREF(q0); Py_XDECREF(v0); Py_XDECREF(tau); Py_XDECREF(qs); Py_XDECREF(vs);
    Py_XDECREF(fb); Py_XDECREF(fw);
    return result;
}

/* joints(): one tuple per movable joint, in q order. */
static PyObject *Model_joints(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_model *m = self->model;
    const u2d_urdf *u = self->urdf;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 1; i < m->nbody; i++) {
        int j = m->jurdf[i];
        const u2d_urdf_joint *J = j >= 0 ? &u->joint[j] : NULL;
        const double *ax = &m->axis[3 * i];
        PyObject *limit = J && J->has_limit
            ? Py_BuildValue("(dddd)", J->lower, J->upper, J->effort, J->velocity)
            : Py_NewRef(Py_None);
        PyObject *mimic = J && J->mimic
            ? Py_BuildValue("(sdd)", J->mimic, J->mimic_multiplier, J->mimic_offset)
            : Py_NewRef(Py_None);
        if (!limit || !mimic) {
            Py_XDECREF(limit); Py_XDECREF(mimic); Py_DECREF(list);
            return NULL;
        }
        static const double none[2] = {0.0, 0.0};
        const double *kp = J ? J->stiffness_poly : none, *kd = J ? J->damping_poly : none;
        PyObject *t = Py_BuildValue(   /* 'N' steals limit and mimic, even on failure */
            "(ssiiiizs(ddd)NNdddd(dd)(dd))", J ? J->name : "root_joint",
            jtype_name(m->jtype[i]), m->qadr[i], m->vadr[i], m->jnq[i], m->jnv[i],
            J ? u->link[J->parent].name : NULL, u->link[J ? J->child : u->root].name,
            ax[0], ax[1], ax[2], limit, mimic, J ? J->damping : 0.0, J ? J->friction : 0.0,
            J ? J->stiffness : 0.0, J ? J->springref : 0.0, kp[0], kp[1], kd[0], kd[1]);
        if (!t) { Py_DECREF(list); return NULL; }
        int rc = PyList_Append(list, t);
        Py_DECREF(t);
        if (rc) { Py_DECREF(list); return NULL; }
    }
    return list;
}

/* links(): (name, body) per URDF link, in document order. */
static PyObject *Model_links(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_model *m = self->model;
    PyObject *list = PyList_New(m->nlink);
    if (!list) return NULL;
    for (int l = 0; l < m->nlink; l++) {
        PyObject *t = Py_BuildValue("(si)", self->urdf->link[l].name, m->link_body[l]);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, l, t);
    }
    return list;
}

/* ---- the compiled structure, read-only ------------------------------------- */

/* A new float64 array of the given shape filled from src (n doubles), or NULL. */
static PyObject *copy_doubles(int nd, const npy_intp *dims, const double *src)
{
    PyObject *a = PyArray_SimpleNew(nd, (npy_intp *)dims, NPY_DOUBLE);
    if (!a) return NULL;
    npy_intp n = PyArray_SIZE((PyArrayObject *)a);
    if (n) memcpy(PyArray_DATA((PyArrayObject *)a), src, sizeof(double) * (size_t)n);
    return a;
}

static PyObject *copy_ints(npy_intp n, const int *src)
{
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT);
    if (a && n) memcpy(PyArray_DATA((PyArrayObject *)a), src, sizeof(int) * (size_t)n);
    return a;
}

/* Store value under key in dict and drop the reference; -1 if value is NULL or on error. */
static int put(PyObject *dict, const char *key, PyObject *value)
{
    if (!value) return -1;
    int rc = PyDict_SetItemString(dict, key, value);
    Py_DECREF(value);
    return rc;
}

/* structure(): the compiled tree as a dict of new arrays (code generators read this; the
 * model itself stays private and immutable). Per body: parent, jtype, qadr, vadr, jnq, jnv,
 * axis (nb,3), plane (nb,6), Xtree as E (nb,3,3) and r (nb,3), inertia as mass (nb,),
 * h (nb,3) and Ib (nb,3,3), armature (nb,), joint (name of the joint above, "" for the
 * world); per link:
 * link_body (nl,), link_E (nl,3,3), link_r (nl,3). */
static PyObject *Model_structure(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_model *m = self->model;
    const u2d_urdf *u = self->urdf;
    const npy_intp nb = m->nbody, nl = m->nlink;
    double *buf = malloc(sizeof(double) * (size_t)(nb > nl ? nb : nl) * 9 + sizeof(double));
    PyObject *d = PyDict_New(), *names = PyList_New(nb);
    if (!buf || !d || !names) goto error;
    if (put(d, "parent", copy_ints(nb, m->parent)) || put(d, "jtype", copy_ints(nb, m->jtype)) ||
        put(d, "qadr", copy_ints(nb, m->qadr)) || put(d, "vadr", copy_ints(nb, m->vadr)) ||
        put(d, "jnq", copy_ints(nb, m->jnq)) || put(d, "jnv", copy_ints(nb, m->jnv)) ||
        put(d, "link_body", copy_ints(nl, m->link_body)))
        goto error;
    npy_intp d3[2] = {nb, 3}, d6[2] = {nb, 6}, d33[3] = {nb, 3, 3};
    npy_intp l3[2] = {nl, 3}, l33[3] = {nl, 3, 3};
    if (put(d, "axis", copy_doubles(2, d3, m->axis)) ||
        put(d, "plane", copy_doubles(2, d6, m->plane)))
        goto error;
    for (npy_intp b = 0; b < nb; b++) memcpy(buf + 9 * b, m->Xtree[b].E, 9 * sizeof(double));
    if (put(d, "Xtree_E", copy_doubles(3, d33, buf))) goto error;
    for (npy_intp b = 0; b < nb; b++) memcpy(buf + 3 * b, m->Xtree[b].r, 3 * sizeof(double));
    if (put(d, "Xtree_r", copy_doubles(2, d3, buf))) goto error;
    for (npy_intp b = 0; b < nb; b++) buf[b] = m->inertia[b].m;
    if (put(d, "mass", copy_doubles(1, &nb, buf))) goto error;
    for (npy_intp b = 0; b < nb; b++) memcpy(buf + 3 * b, m->inertia[b].h, 3 * sizeof(double));
    if (put(d, "h", copy_doubles(2, d3, buf))) goto error;
    for (npy_intp b = 0; b < nb; b++) memcpy(buf + 9 * b, m->inertia[b].Ib, 9 * sizeof(double));
    if (put(d, "Ib", copy_doubles(3, d33, buf))) goto error;
    if (put(d, "armature", copy_doubles(1, &nb, m->armature))) goto error;
    for (npy_intp l = 0; l < nl; l++) memcpy(buf + 9 * l, m->link_X[l].E, 9 * sizeof(double));
    if (put(d, "link_E", copy_doubles(3, l33, buf))) goto error;
    for (npy_intp l = 0; l < nl; l++) memcpy(buf + 3 * l, m->link_X[l].r, 3 * sizeof(double));
    if (put(d, "link_r", copy_doubles(2, l3, buf))) goto error;
    for (npy_intp b = 0; b < nb; b++) {
        int j = m->jurdf[b];
        PyObject *s = PyUnicode_FromString(b == 0 ? "" : j >= 0 ? u->joint[j].name : "root_joint");
        if (!s) goto error;
        PyList_SET_ITEM(names, b, s);
    }
    free(buf);
    if (put(d, "joint", names)) { Py_DECREF(d); return NULL; }
    return d;
error:
    free(buf);
    Py_XDECREF(d); Py_XDECREF(names);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* inertial_parameters(): (nbody - 1, 10) per moving body [m, m c, Ixx Ixy Iyy Ixz Iyz Izz]. */
static PyObject *Model_inertial_parameters(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    npy_intp dims[2] = {self->model->nbody - 1, 10};
    PyObject *pi = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (pi) u2d_inertial_parameters(self->model, PyArray_DATA((PyArrayObject *)pi));
    return pi;
}

/* The core's message as text. A message may quote bytes of a file that are not UTF-8, or
 * end inside a character where the core's fixed-size buffer cut it: those are replaced,
 * so that the caller gets the message, never a decoding error. */
static PyObject *core_text(const char *msg)
{
    return PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
}

/* findings(): (line, message) per questionable input read as written (0: line unknown). */
static PyObject *Model_findings(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_urdf *u = self->urdf;
    PyObject *list = PyList_New(u->nfinding);
    if (!list) return NULL;
    for (int k = 0; k < u->nfinding; k++) {
        PyObject *t = Py_BuildValue("(iN)", u->finding[k].line,
                                    core_text(u->finding[k].message));
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, k, t);
    }
    return list;
}

/* document(): the URDF as read, for advice on it: links (name, line, mass, com, Icom) with
 * mass None when there is no <inertial>, and every joint, fixed ones included (name, line,
 * type, parent, child, (lower, upper, effort, velocity) or None), in document order. */
static PyObject *Model_document(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_urdf *u = self->urdf;
    PyObject *links = PyList_New(u->nlink), *joints = PyList_New(u->njoint);
    if (!links || !joints) goto error;
    for (int l = 0; l < u->nlink; l++) {
        const u2d_urdf_link *L = &u->link[l];
        const double *c = L->com, *Ic = L->Icom;
        PyObject *t = L->has_inertial
            ? Py_BuildValue("(sid(ddd)(ddddddddd))", L->name, L->line, L->mass, c[0], c[1],
                            c[2], Ic[0], Ic[1], Ic[2], Ic[3], Ic[4], Ic[5], Ic[6], Ic[7], Ic[8])
            : Py_BuildValue("(siOOO)", L->name, L->line, Py_None, Py_None, Py_None);
        if (!t) goto error;
        PyList_SET_ITEM(links, l, t);
    }
    for (int j = 0; j < u->njoint; j++) {
        const u2d_urdf_joint *J = &u->joint[j];
        PyObject *limit = J->has_limit
            ? Py_BuildValue("(dddd)", J->lower, J->upper, J->effort, J->velocity)
            : Py_NewRef(Py_None);
        if (!limit) goto error;
        PyObject *t = Py_BuildValue("(sisssN)", J->name, J->line, jtype_name(J->type),
                                    u->link[J->parent].name, u->link[J->child].name, limit);
        if (!t) goto error;        /* 'N' stole limit, even on failure */
        PyList_SET_ITEM(joints, j, t);
    }
    return Py_BuildValue("(NN)", links, joints);
error:
    Py_XDECREF(links);
    Py_XDECREF(joints);
    return NULL;
}

static PyObject *Model_get_gravity(ModelObject *self, void *Py_UNUSED(c))
{
    npy_intp dim = 3;
    PyObject *g = PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
    if (g) memcpy(PyArray_DATA((PyArrayObject *)g), self->gravity, sizeof self->gravity);
    return g;
}

static int Model_set_gravity(ModelObject *self, PyObject *value, void *Py_UNUSED(c))
{
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "gravity cannot be deleted");
        return -1;
    }
    PyArrayObject *g = as_samples(value, "gravity", "3", 3);
    if (!g) return -1;
    const double *x = PyArray_DATA(g);
    int ok = PyArray_NDIM(g) == 1 && isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
    int in_range = ok && u2d_gravity_in_range(x);
    if (in_range) memcpy(self->gravity, x, sizeof self->gravity);
    else if (ok) {
        char msg[256];
        PyOS_snprintf(msg, sizeof msg, "gravity: (%g, %g, %g) m/s^2: its length overflows "
                      "(components past ~1e154 m/s^2); give components of a physical size, "
                      "such as (0, 0, -9.81)", x[0], x[1], x[2]);
        PyErr_SetString(PyExc_ValueError, msg);
    }
    else PyErr_SetString(PyExc_ValueError, "gravity: expected 3 finite numbers (m/s^2)");
    Py_DECREF(g);
    return in_range ? 0 : -1;
}

static PyObject *Model_get_int(ModelObject *self, void *which)
{
    const u2d_model *m = self->model;
    switch ((int)(intptr_t)which) {
    case 0: return PyLong_FromLong(m->nq);
    case 1: return PyLong_FromLong(m->nv);
    case 2: return PyLong_FromLong(m->nbody);
    case 4: {
        double mass = 0.0;
        for (int b = 1; b < m->nbody; b++) mass += m->inertia[b].m;
        return PyFloat_FromDouble(mass);
    }
    default: return PyBool_FromLong(self->floating_base);
    }
}

static PyObject *Model_get_name(ModelObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(self->urdf->name);
}

/* mjcf(): None unless the model is an MJCF; then a dict: qpos0 (nq), MuJoCo's reference
 * configuration in urdf2dyn's conventions. */
static PyObject *Model_mjcf(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_urdf *u = self->urdf;
    if (!u->mjcf) Py_RETURN_NONE;
    npy_intp n = u->nqpos0;
    PyObject *q0 = copy_doubles(1, &n, u->qpos0);
    return q0 ? Py_BuildValue("{sN}", "qpos0", q0) : NULL;
}

/* osim(): None for a URDF; for an OpenSim model a dict: q_names (nq, q order; None for a
 * coordinate OpenSim does not have, e.g. of floating_base's root joint), coordinates
 * (name, joint, motion, default, lower, upper, locked, clamped, range written) in q order,
 * markers (name, link, (x, y, z) in the link frame), the file's gravity, custom joints' axes,
 * couplers (dependent, independent, function, scale), forces (name, element) of the
 * ForceSet, tree_order, the coordinate names in OpenSim's multibody tree order, and
 * file_order, in the file's order (OpenSim's CoordinateSet). */
static PyObject *Model_osim(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    static const char *motions[3] = {"rotational", "translational", "coupled"};
    const u2d_model *m = self->model;
    const u2d_urdf *u = self->urdf;
    if (!u->has_gravity || u->mjcf) Py_RETURN_NONE;
    PyObject *names = PyList_New(0), *coords = PyList_New(0), *markers = PyList_New(0);
    if (!names || !coords || !markers) goto error;
    for (int b = 1; b < m->nbody; b++) {
        const u2d_urdf_joint *J = m->jurdf[b] >= 0 ? &u->joint[m->jurdf[b]] : NULL;
        for (int k = 0; k < m->jnq[b]; k++) {
            const u2d_coordinate *C = J && k < J->ncoord ? &u->coord[J->coord0 + k] : NULL;
            PyObject *n = C ? PyUnicode_FromString(C->name) : Py_NewRef(Py_None);
            if (!n || PyList_Append(names, n)) { Py_XDECREF(n); goto error; }
            Py_DECREF(n);
            if (!C) continue;
            PyObject *t = Py_BuildValue("(sssdddiiiii)", C->name, J->name,
                                        motions[C->motion >= 0 && C->motion < 3 ? C->motion : 0],
                                        C->default_value, C->range[0], C->range[1], C->locked,
                                        C->clamped, C->range_written, C->nan_ends & 1,
                                        C->nan_ends >> 1 & 1);
            if (!t || PyList_Append(coords, t)) { Py_XDECREF(t); goto error; }
            Py_DECREF(t);
        }
    }
    for (int k = 0; k < u->nmarker; k++) {
        const u2d_marker *M = &u->marker[k];
        PyObject *t = Py_BuildValue("(ss(ddd))", M->name, u->link[M->link].name,
                                    M->location[0], M->location[1], M->location[2]);
        if (!t || PyList_Append(markers, t)) { Py_XDECREF(t); goto error; }
        Py_DECREF(t);
    }
    /* custom joints' axes: (joint, body, [(axis (3), coordinate k of the joint or -1,
     * linear (slope, intercept) or None)] * 6) */
    PyObject *custom = PyList_New(0);
    if (!custom) goto error;
    for (int b = 1; b < m->nbody; b++) {
        if (m->jcustom[b] < 0) continue;
        const u2d_custom *C = &m->custom[m->jcustom[b]];
        PyObject *axes = PyList_New(6);
        if (!axes) { Py_DECREF(custom); goto error; }
        for (int k = 0; k < 6; k++) {
            /* a linear function, or one scaled by MultiplierFunctions (OpenSim's ScaleTool
             * wraps every axis's function in one, scale 1 where nothing scales it) */
            const u2d_function *f = &m->func[C->func[k]];
            double scale = 1.0;
            for (; f->kind == U2D_FN_MULTIPLIER; f = &m->func[f->inner]) scale *= f->scale;
            const double *d = m->fdata + f->at;
            PyObject *lin = f->kind == U2D_FN_LINEAR
                          ? Py_BuildValue("(dd)", scale * d[0], scale * d[1])
                          : Py_NewRef(Py_None);
            PyObject *t = lin ? Py_BuildValue("((ddd)iN)", C->axis[3 * k], C->axis[3 * k + 1],
                                              C->axis[3 * k + 2], C->coord[k], lin) : NULL;
            if (!t) { Py_DECREF(axes); Py_DECREF(custom); goto error; }
            PyList_SET_ITEM(axes, k, t);
        }
        PyObject *t = Py_BuildValue("(siN)", u->joint[m->jurdf[b]].name, b, axes);
        if (!t || PyList_Append(custom, t)) { Py_XDECREF(t); Py_DECREF(custom); goto error; }
        Py_DECREF(t);
    }
    /* coordinate couplers: (dependent, independent, function, scale factor, constraint
     * name, line) */
    PyObject *couplers = PyList_New(0);
    for (int k = 0; couplers && k < u->ncoupler; k++) {
        const u2d_coupler *K = &u->coupler[k];
        PyObject *t = Py_BuildValue("(ssidsi)", u->coord[K->dependent].name,
                                    u->coord[K->independent].name, K->func, K->scale,
                                    K->name, K->line);
        if (!t || PyList_Append(couplers, t)) { Py_XDECREF(t); Py_CLEAR(couplers); }
        else Py_DECREF(t);
    }
    if (!couplers) { Py_DECREF(custom); goto error; }
    /* the forces (name, element, under <components>), the coordinates in OpenSim's
     * multibody tree order and in the file's (joint by joint as the file lists them:
     * OpenSim's CoordinateSet) */
    PyObject *forces = PyList_New(u->nforce), *order = PyList_New(u->coord_order ? u->ncoord : 0);
    PyObject *file_order = PyList_New(u->ncoord);
    for (Py_ssize_t k = 0; file_order && k < u->ncoord; k++) {
        PyObject *n = PyUnicode_FromString(u->coord[k].name);
        if (!n) Py_CLEAR(file_order);
        else PyList_SET_ITEM(file_order, k, n);
    }
    for (int k = 0; forces && k < u->nforce; k++) {
        PyObject *t = Py_BuildValue("(ssO)", u->force[k].name, u->force[k].kind,
                                    u->force[k].component ? Py_True : Py_False);
        if (!t) Py_CLEAR(forces);
        else PyList_SET_ITEM(forces, k, t);
    }
    for (Py_ssize_t k = 0; order && forces && k < PyList_GET_SIZE(order); k++) {
        PyObject *n = PyUnicode_FromString(u->coord[u->coord_order[k]].name);
        if (!n) Py_CLEAR(order);
        else PyList_SET_ITEM(order, k, n);
    }
    if (!forces || !order || !file_order) {
        Py_XDECREF(forces); Py_XDECREF(order); Py_XDECREF(file_order); Py_DECREF(custom);
        Py_DECREF(couplers);
        goto error;
    }
    return Py_BuildValue("{sNsNsNs(ddd)sNsNsNsNsN}", "q_names", names, "coordinates", coords,
                         "markers", markers, "gravity", u->gravity[0], u->gravity[1],
                         u->gravity[2], "custom", custom, "couplers", couplers,
                         "forces", forces, "tree_order", order, "file_order", file_order);
error:
    Py_XDECREF(names); Py_XDECREF(coords); Py_XDECREF(markers);
    return NULL;
}

/* axis_values(q): the six transform-axis values f_k(q) of every custom joint, bodies in
 * order (list of 6-tuples), for one configuration q (nq). */
static PyObject *Model_axis_values(ModelObject *self, PyObject *arg)
{
    const u2d_model *m = self->model;
    PyArrayObject *q = (PyArrayObject *)PyArray_FROM_OTF(arg, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!q) return NULL;
    if (PyArray_SIZE(q) != m->nq) {
        Py_DECREF(q);
        return PyErr_Format(PyExc_ValueError, "axis_values: q must have %d numbers", m->nq);
    }
    const double *x = PyArray_DATA(q);
    PyObject *list = PyList_New(0);
    for (int b = 1; list && b < m->nbody; b++) {
        if (m->jcustom[b] < 0) continue;
        const u2d_custom *C = &m->custom[m->jcustom[b]];
        double v[6], o[4];
        for (int k = 0; k < 6; k++) {
            u2d_function_eval(m->func, m->fdata, C->func[k],
                              C->coord[k] >= 0 ? x[m->qadr[b] + C->coord[k]] : 0.0, o);
            v[k] = o[0];
        }
        PyObject *t = Py_BuildValue("(dddddd)", v[0], v[1], v[2], v[3], v[4], v[5]);
        if (!t || PyList_Append(list, t)) { Py_XDECREF(t); Py_CLEAR(list); }
        else Py_DECREF(t);
    }
    Py_DECREF(q);
    return list;
}

/* custom_functions(): what code generation needs to rebuild the custom joints exactly,
 * (joints, functions, data): joints a list of (body, coord (6), func (6), axis (18)) per
 * custom joint, bodies in order; functions a list of (kind, n, at, inner, scale) with kind
 * u2d_fkind's number; data the functions' numbers as the core holds them (SimmSpline
 * coefficients already fitted). */
static PyObject *Model_custom_functions(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    const u2d_model *m = self->model;
    PyObject *joints = PyList_New(0), *funcs = PyList_New(0), *data = PyList_New(m->nfdata);
    if (!joints || !funcs || !data) goto error;
    for (int b = 1; b < m->nbody; b++) {
        if (m->jcustom[b] < 0) continue;
        const u2d_custom *C = &m->custom[m->jcustom[b]];
        const double *a = C->axis;
        PyObject *t = Py_BuildValue(
            "(i(iiiiii)(iiiiii)(dddddddddddddddddd))", b,
            C->coord[0], C->coord[1], C->coord[2], C->coord[3], C->coord[4], C->coord[5],
            C->func[0], C->func[1], C->func[2], C->func[3], C->func[4], C->func[5],
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
            a[13], a[14], a[15], a[16], a[17]);
        if (!t || PyList_Append(joints, t)) { Py_XDECREF(t); goto error; }
        Py_DECREF(t);
    }
    for (int f = 0; f < m->nfunc; f++) {
        const u2d_function *F = &m->func[f];
        PyObject *t = Py_BuildValue("(iiiid)", F->kind, F->n, F->at, F->inner, F->scale);
        if (!t || PyList_Append(funcs, t)) { Py_XDECREF(t); goto error; }
        Py_DECREF(t);
    }
    for (int k = 0; k < m->nfdata; k++) {
        PyObject *x = PyFloat_FromDouble(m->fdata[k]);
        if (!x) goto error;
        PyList_SET_ITEM(data, k, x);
    }
    return Py_BuildValue("(NNN)", joints, funcs, data);
error:
    Py_XDECREF(joints); Py_XDECREF(funcs); Py_XDECREF(data);
    return NULL;
}

/* ---- inverse kinematics ---------------------------------------------------- */

/* obj as a C-contiguous array of type `type` holding exactly `size` elements, or NULL with
 * an exception naming the argument (the Python layer gives the shapes; this guards the
 * core against any other caller). */
static PyArrayObject *exact_array(PyObject *obj, const char *arg, int type, npy_intp size)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OTF(obj, type, NPY_ARRAY_IN_ARRAY |
                                                         NPY_ARRAY_FORCECAST);
    if (a && PyArray_SIZE(a) != size) {
        PyErr_Format(PyExc_ValueError, "ik: %s: expected %zd values, got %zd", arg,
                     (Py_ssize_t)size, (Py_ssize_t)PyArray_SIZE(a));
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* ik(link, pos, weight, task_v, task_q, task_weight, locked, lower, upper, target,
 *    task_value, q0, tolerance, max_iter, threads, coupler, coupler_scale) -> (q, err, report)
 * link (k,) pos (k,3) weight (k,); task_* (t,); locked, lower, upper (nv,);
 * target (N,k,3); task_value (N,t); q0 (nq,); coupler (c,5), coupler_scale (c,) (see
 * u2d_ik_problem). q (N,nq), err (N,k), report (N,5): squared error, RMS, max, worst
 * marker (-1: none), iterations. */
static PyObject *Model_ik(ModelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "ik(link, pos, weight, task_v, task_q, task_weight, "
                        "locked, lower, upper, target, task_value, q0, tolerance, max_iter, "
                        "threads, coupler, coupler_scale)");
        return NULL;
    }
    const u2d_model *m = self->model;
    double tol = PyFloat_AsDouble(args[12]);
    long max_iter = PyLong_AsLong(args[13]), threads = PyLong_AsLong(args[14]);
    if (PyErr_Occurred()) return NULL;
    PyArrayObject *a[14] = {NULL}, *q = NULL, *err = NULL, *rep = NULL;
    PyObject *result = NULL;
    u2d_ik_report *report = NULL;
    PyArrayObject *t0 = (PyArrayObject *)PyArray_FROM_OTF(args[9], NPY_DOUBLE,
                                                          NPY_ARRAY_IN_ARRAY);
    if (!t0) return NULL;
    if (PyArray_NDIM(t0) != 3 || PyArray_DIM(t0, 2) != 3) {
        PyErr_SetString(PyExc_ValueError, "ik: target: expected shape (N, markers, 3)");
        Py_DECREF(t0);
        return NULL;
    }
    npy_intp n = PyArray_DIM(t0, 0), k = PyArray_DIM(t0, 1);
    Py_DECREF(t0);
    PyObject *tv = PyArray_FROM_OTF(args[10], NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!tv) return NULL;
    npy_intp t = PyArray_NDIM((PyArrayObject *)tv) == 2 ? PyArray_DIM((PyArrayObject *)tv, 1)
                                                        : -1;
    Py_DECREF(tv);
    if (t < 0) {
        PyErr_SetString(PyExc_ValueError, "ik: task_value: expected shape (N, tasks)");
        return NULL;
    }
    PyObject *cs = PyArray_FROM_OTF(args[16], NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!cs) return NULL;
    npy_intp nc = PyArray_SIZE((PyArrayObject *)cs);
    Py_DECREF(cs);
    static const char *names[14] = {"link", "pos", "weight", "task_v", "task_q", "task_weight",
                                    "locked", "lower", "upper", "target", "task_value", "q0",
                                    "coupler", "coupler_scale"};
    const int types[14] = {NPY_INT, NPY_DOUBLE, NPY_DOUBLE, NPY_INT, NPY_INT, NPY_DOUBLE,
                           NPY_INT, NPY_DOUBLE, NPY_DOUBLE, NPY_DOUBLE, NPY_DOUBLE, NPY_DOUBLE,
                           NPY_INT, NPY_DOUBLE};
    const npy_intp sizes[14] = {k, 3 * k, k, t, t, t, m->nv, m->nv, m->nv, 3 * k * n, t * n,
                                m->nq, 5 * nc, nc};
    for (int i = 0; i < 14; i++)
        if (!(a[i] = exact_array(args[i < 12 ? i : i + 3], names[i], types[i], sizes[i])))
            goto done;
    if (k > INT_MAX || t > INT_MAX || nc > INT_MAX || max_iter < 1 || max_iter > INT_MAX ||
        !(tol > 0)) {
        PyErr_SetString(PyExc_ValueError, "ik: too many markers or tasks, or max_iter < 1, "
                        "or tolerance <= 0");
        goto done;
    }
    npy_intp dq[2] = {n, m->nq}, de[2] = {n, k}, dr[2] = {n, 5};
    if (!(q = (PyArrayObject *)PyArray_SimpleNew(2, dq, NPY_DOUBLE)) ||
        !(err = (PyArrayObject *)PyArray_SimpleNew(2, de, NPY_DOUBLE)) ||
        !(rep = (PyArrayObject *)PyArray_SimpleNew(2, dr, NPY_DOUBLE)) ||
        !(report = PyMem_RawCalloc((size_t)n + 1, sizeof *report))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    u2d_ik_problem p = {
        (int)k, PyArray_DATA(a[0]), PyArray_DATA(a[1]), PyArray_DATA(a[2]),
        (int)t, PyArray_DATA(a[3]), PyArray_DATA(a[4]), PyArray_DATA(a[5]),
        PyArray_DATA(a[6]), PyArray_DATA(a[7]), PyArray_DATA(a[8]), tol, (int)max_iter,
        (int)nc, PyArray_DATA(a[12]), PyArray_DATA(a[13]),
    };
    size_t bad = 0;
    u2d_status st;
    Py_BEGIN_ALLOW_THREADS
    st = u2d_batch_ik(m, &p, (size_t)n, threads > 64 ? 64 : (int)threads, PyArray_DATA(a[9]),
                      PyArray_DATA(a[10]), PyArray_DATA(a[11]), PyArray_DATA(q),
                      PyArray_DATA(err), report, &bad);
    Py_END_ALLOW_THREADS
    if (st == U2D_ERR_ARGUMENT) {
        PyErr_SetString(PyExc_ValueError, "ik: a marker's link, a task's or a coupler's "
                        "coordinate or function is out of range, or a weight is negative or "
                        "not finite");
        goto done;
    }
    if (st != U2D_OK) {
        PyObject *type, *value, *tb;
        raise_status(self, st, bad, PyArray_DATA(q), "q");
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(type, "ik: frame %zu: %S", bad, value);
        Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
        goto done;
    }
    double *r = PyArray_DATA(rep);
    for (npy_intp s = 0; s < n; s++) {
        r[5 * s] = report[s].squared;
        r[5 * s + 1] = report[s].rms;
        r[5 * s + 2] = report[s].max;
        r[5 * s + 3] = report[s].worst;
        r[5 * s + 4] = report[s].iterations;
    }
    result = PyTuple_Pack(3, q, err, rep);
done:
    for (int i = 0; i < 14; i++) Py_XDECREF(a[i]);
    Py_XDECREF(q); Py_XDECREF(err); Py_XDECREF(rep);
    PyMem_RawFree(report);
    return result;
}

/* function_values(f, x): OpenSim function f of the model (an index of its functions) and
 * its first three derivatives at each x, as an (n, 4) array. */
static PyObject *Model_function_values(ModelObject *self, PyObject *args)
{
    const u2d_model *m = self->model;
    int f;
    PyObject *arg;
    if (!PyArg_ParseTuple(args, "iO", &f, &arg)) return NULL;
    if (f < 0 || f >= m->nfunc)
        return PyErr_Format(PyExc_ValueError, "function_values: no function %d", f);
    PyArrayObject *x = (PyArrayObject *)PyArray_FROM_OTF(arg, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!x) return NULL;
    npy_intp n = PyArray_SIZE(x), dims[2] = {n, 4};
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (out) {
        const double *xs = PyArray_DATA(x);
        double *o = PyArray_DATA(out);
        for (npy_intp k = 0; k < n; k++) u2d_function_eval(m->func, m->fdata, f, xs[k], o + 4 * k);
    }
    Py_DECREF(x);
    return (PyObject *)out;
}

/* ---- OpenSim documents: what scaling reads, and the writer ------------------ */

static PyObject *xform_tuple(const u2d_xform *X)
{
    const double *E = X->E, *r = X->r;
    return Py_BuildValue("((ddddddddd)(ddd))", E[0], E[1], E[2], E[3], E[4], E[5], E[6], E[7],
                         E[8], r[0], r[1], r[2]);
}

static const char *link_name(const u2d_urdf *u, int l)
{
    return l >= 0 && l < u->nlink ? u->link[l].name : "";
}

static const char *coord_name(const u2d_urdf *u, int c)
{
    return c >= 0 && c < u->ncoord ? u->coord[c].name : NULL;
}

/* Append the tuple built from fmt to list; -1 on failure. */
static int append(PyObject *list, PyObject *item)
{
    if (!item) return -1;
    int r = PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

/* osim_doc(): None for a URDF; for an OpenSim model (u2d_osimdoc.h) a dict of lists, each
 * entry a tuple in the order of the core's table (the writer's edits index them):
 *   bodies    (link index, name) of the links that are bodies (ground included)
 *   frames    (name, joint, kind, link, translation, orientation)
 *   markers   (name, link, (E, r) link -> its frame, location in that frame, fixed)
 *   paths     (name, type, lengths kind, (l0, l1), first point, points, first wrap, wraps)
 *   points    (name, kind, link, (E, r), location, coordinate or None, (lo, hi),
 *              (x, y, z coordinate or None), (x, y, z function index or -1))
 *   wraps     (name, type, link, translation, rotation, size, quadrant, active)
 *   pathwraps (wrap index, (first, last), method)
 *   geometry  (link, scale factors)
 *   axes      (joint, (six flags: the axis has a function written)) per custom joint
 *   couplers  number of couplers (model.couplers' order), version: the document's
 *   ellipsoids (joint, its index, parent body, child body, radii, winging origin or None)
 *   curvatures (joint, its index, child body, length, neutral angles x z y) of the
 *   ConstantCurvatureJoints
 *   named     (kind, name) of the constraints, contact geometry, ground's wrap objects and
 *             <components> entries */
static PyObject *Model_osim_doc(ModelObject *self, PyObject *Py_UNUSED(ignored))
{
    static const char *frame_kinds[] = {"offset", "in_parent", "in_child"};
    static const char *point_kinds[] = {"fixed", "conditional", "moving"};
    static const char *wrap_types[] = {"cylinder", "sphere", "ellipsoid", "torus", "other"};
    static const char *lengths[] = {"none", "muscle", "resting", "slack"};
    static const char *methods[] = {"hybrid", "midpoint", "axial"};
    const u2d_urdf *u = self->urdf;
    const u2d_osimdoc *d = &u->osim;
    if (!u->has_gravity || !d->link_node) Py_RETURN_NONE;
    PyObject *bodies = PyList_New(0), *frames = PyList_New(0), *markers = PyList_New(0),
             *paths = PyList_New(0), *points = PyList_New(0), *wraps = PyList_New(0),
             *pathwraps = PyList_New(0), *geometry = PyList_New(0), *axes = PyList_New(0);
    if (!bodies || !frames || !markers || !paths || !points || !wraps || !pathwraps ||
        !geometry || !axes)
        goto error;
    for (int l = 0; l < u->nlink; l++)
        if (d->link_node[l] >= 0 && append(bodies, Py_BuildValue("(is)", l, u->link[l].name)))
            goto error;
    for (int k = 0; k < d->nframe; k++) {
        const u2d_osim_frame *F = &d->frame[k];
        const double *t = F->translation, *a = F->orientation;
        const char *joint = F->joint >= 0 ? u->joint[F->joint].name : "";   /* a component's */
        if (append(frames, Py_BuildValue("(ssss(ddd)(ddd))", F->name, joint,
                                         frame_kinds[F->kind], link_name(u, F->link), t[0],
                                         t[1], t[2], a[0], a[1], a[2])))
            goto error;
    }
    for (int k = 0; k < u->nmarker; k++) {
        const u2d_osim_marker *M = &d->marker[k];
        const double *p = M->location;
        if (append(markers, Py_BuildValue("(ssN(ddd)O)", u->marker[k].name,
                                          link_name(u, u->marker[k].link), xform_tuple(&M->X),
                                          p[0], p[1], p[2], M->fixed ? Py_True : Py_False)))
            goto error;
    }
    for (int k = 0; k < d->npath; k++) {
        const u2d_osim_path *P = &d->path[k];
        if (append(paths, Py_BuildValue("(sss(dd)iiii)", P->name, P->type, lengths[P->lengths],
                                        P->length[0], P->length[1], P->point0, P->npoint,
                                        P->wrap0, P->nwrap)))
            goto error;
    }
    for (int k = 0; k < d->npoint; k++) {
        const u2d_osim_point *P = &d->point[k];
        const double *p = P->location;
        if (append(points, Py_BuildValue(
                "(sssN(ddd)z(dd)(zzz)(iii))", P->name, point_kinds[P->kind],
                link_name(u, P->link), xform_tuple(&P->X), p[0], p[1], p[2],
                coord_name(u, P->coord), P->range[0], P->range[1], coord_name(u, P->mcoord[0]),
                coord_name(u, P->mcoord[1]), coord_name(u, P->mcoord[2]), P->mfunc[0],
                P->mfunc[1], P->mfunc[2])))
            goto error;
    }
    for (int k = 0; k < d->nwrap; k++) {
        const u2d_osim_wrap *W = &d->wrap[k];
        const double *t = W->translation, *r = W->rotation, *z = W->size;
        if (append(wraps, Py_BuildValue("(sss(ddd)(ddd)(ddd)iO)", W->name, wrap_types[W->type],
                                        link_name(u, W->link), t[0], t[1], t[2], r[0], r[1],
                                        r[2], z[0], z[1], z[2], W->quadrant,
                                        W->active ? Py_True : Py_False)))
            goto error;
    }
    for (int k = 0; k < d->npathwrap; k++) {
        const u2d_osim_pathwrap *W = &d->pathwrap[k];
        if (append(pathwraps, Py_BuildValue("(i(ii)s)", W->wrap, W->range[0], W->range[1],
                                            methods[W->method])))
            goto error;
    }
    for (int k = 0; k < d->ngeometry; k++) {
        const double *z = d->geometry[k].scale;
        if (append(geometry, Py_BuildValue("(s(ddd))", link_name(u, d->geometry[k].link), z[0],
                                           z[1], z[2])))
            goto error;
    }
    for (int c = 0; c < u->ncustom; c++) {
        const char *joint = "";
        for (int j = 0; j < u->njoint; j++)
            if (u->joint[j].type == U2D_JOINT_CUSTOM && u->joint[j].custom == c)
                joint = u->joint[j].name;
        const int *a = &d->axis_node[6 * c];
        if (append(axes, Py_BuildValue("(s(OOOOOO))", joint, a[0] >= 0 ? Py_True : Py_False,
                                       a[1] >= 0 ? Py_True : Py_False,
                                       a[2] >= 0 ? Py_True : Py_False,
                                       a[3] >= 0 ? Py_True : Py_False,
                                       a[4] >= 0 ? Py_True : Py_False,
                                       a[5] >= 0 ? Py_True : Py_False)))
            goto error;
    }
    /* ellipsoid joints: (joint, its u2d_urdf index, parent body, child body, radii as
     * written, winging axis origin or None) */
    PyObject *ellipsoids = PyList_New(0);
    if (!ellipsoids) goto error;
    for (int j = 0; j < u->njoint; j++) {
        const u2d_urdf_joint *J = &u->joint[j];
        if (J->type != U2D_JOINT_ELLIPSOID) continue;
        const double *P = J->ellipsoid, *r = P + U2D_ELLIPSOID_RADII;
        PyObject *origin = J->ncoord == 4
            ? Py_BuildValue("(dd)", P[U2D_ELLIPSOID_WING_AT], P[U2D_ELLIPSOID_WING_AT + 1])
            : Py_NewRef(Py_None);
        if (!origin || append(ellipsoids, Py_BuildValue("(siss(ddd)N)", J->name, j,
                                                        link_name(u, J->parent),
                                                        link_name(u, J->ellipsoid_body), r[0],
                                                        r[1], r[2], origin))) {
            Py_DECREF(ellipsoids);
            goto error;
        }
    }
    /* constant-curvature joints: (joint, its u2d_urdf index, child body, length, neutral
     * angles) */
    PyObject *curvatures = PyList_New(0);
    if (!curvatures) {
        Py_DECREF(ellipsoids);
        goto error;
    }
    for (int j = 0; j < u->njoint; j++) {
        const u2d_urdf_joint *J = &u->joint[j];
        if (J->type != U2D_JOINT_CURVATURE) continue;
        const double *neutral = J->curvature + U2D_CURVATURE_NEUTRAL;
        if (append(curvatures, Py_BuildValue("(sisd(ddd))", J->name, j,
                                             link_name(u, J->curvature_body),
                                             J->curvature[U2D_CURVATURE_LENGTH], neutral[0],
                                             neutral[1], neutral[2]))) {
            Py_DECREF(ellipsoids);
            Py_DECREF(curvatures);
            goto error;
        }
    }
    PyObject *named = PyList_New(0);
    for (int k = 0; named && k < d->nnamed; k++)
        if (append(named, Py_BuildValue("(ss)", d->named[k].kind, d->named[k].name)))
            Py_CLEAR(named);
    if (!named) {
        Py_DECREF(ellipsoids);
        Py_DECREF(curvatures);
        goto error;
    }
    return Py_BuildValue("{sisNsNsNsNsNsNsNsNsNsisNsNsN}", "version", d->version, "bodies",
                         bodies, "frames", frames, "markers", markers, "paths", paths,
                         "points", points, "wraps", wraps, "pathwraps", pathwraps, "geometry",
                         geometry, "axes", axes, "couplers", u->ncoupler, "ellipsoids",
                         ellipsoids, "curvatures", curvatures, "named", named);
error:
    Py_XDECREF(bodies); Py_XDECREF(frames); Py_XDECREF(markers); Py_XDECREF(paths);
    Py_XDECREF(points); Py_XDECREF(wraps); Py_XDECREF(pathwraps); Py_XDECREF(geometry);
    Py_XDECREF(axes);
    return NULL;
}

/* osim_write(xml, edits) -> str: the OpenSim text xml (the one the model was read from;
 * parsed at the first call and kept) with the edits made; each edit a tuple (kind, target,
 * values (up to 6 numbers), name or None, flag) as u2d_osim_edit. ValueError naming the
 * edit at fault. */
static PyObject *Model_osim_write(ModelObject *self, PyObject *args)
{
    const char *xml;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "sO!", &xml, &PyList_Type, &list)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > INT_MAX) return PyErr_Format(PyExc_ValueError, "osim_write: too many edits");
    u2d_osim_edit *edits = PyMem_Calloc(n ? (size_t)n : 1, sizeof *edits);
    if (!edits) return PyErr_NoMemory();
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *values, *name;
        u2d_osim_edit *e = &edits[k];
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, k), "iiOOp", &e->kind, &e->target, &values,
                              &name, &e->flag))
            goto error;
        PyObject *seq = PySequence_Fast(values, "osim_write: values must be a sequence");
        if (!seq) goto error;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < m && i < 6; i++)
            e->v[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        Py_DECREF(seq);
        if (PyErr_Occurred()) goto error;
        if (name != Py_None && !(e->name = PyUnicode_AsUTF8(name))) goto error;
    }
    char err[U2D_ERRLEN] = "";
    char *out = NULL;
    /* the GIL stays held: the kept document is changed, saved and changed back */
    if (self->writer && strcmp(self->writer_text, xml) != 0) {      /* another text */
        u2d_osim_writer_free(self->writer);
        free(self->writer_text);
        self->writer = NULL;
        self->writer_text = NULL;
    }
    if (!self->writer) {
        size_t len = strlen(xml) + 1;
        self->writer_text = malloc(len);
        if (self->writer_text) memcpy(self->writer_text, xml, len);
        self->writer = self->writer_text ? u2d_osim_writer_new(xml, self->urdf, err) : NULL;
        if (!self->writer_text) snprintf(err, sizeof err, "out of memory");
        if (!self->writer) { free(self->writer_text); self->writer_text = NULL; }
    }
    if (self->writer) out = u2d_osim_writer_write(self->writer, edits, (int)n, err);
    if (!out && self->writer && strstr(err, "out of memory while writing")) {
        u2d_osim_writer_free(self->writer);         /* not taken back: parse it anew next */
        free(self->writer_text);
        self->writer = NULL;
        self->writer_text = NULL;
    }
    PyMem_Free(edits);
    if (!out) return PyErr_Format(PyExc_ValueError, "%s", err[0] ? err : "osim_write failed");
    PyObject *text = PyUnicode_FromString(out);
    free(out);
    return text;
error:
    PyMem_Free(edits);
    return NULL;
}

/* path_lengths(q) -> (lengths (npath,) or (N, npath), flags (npath,) bool): the OpenSim
 * geometry paths' lengths (u2d_path_lengths); a flag marks a path measured without a wrap
 * object other than a cylinder. */
static PyObject *Model_path_lengths(ModelObject *self, PyObject *arg)
{
    const u2d_model *m = self->model;
    const u2d_urdf *u = self->urdf;
    int np = u->osim.npath;
    PyArrayObject *q = as_samples(arg, "q", "nq", m->nq);
    if (!q) return NULL;
    size_t n = count_samples(q);
    npy_intp dims[2] = {(npy_intp)n, np}, fd = np;
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(PyArray_NDIM(q), dims + 2 -
                                                            PyArray_NDIM(q), NPY_DOUBLE);
    PyArrayObject *flags = (PyArrayObject *)PyArray_ZEROS(1, &fd, NPY_BOOL, 0);
    int *flag = PyMem_Calloc((size_t)np + 1, sizeof(int)), *any = PyMem_Calloc((size_t)np + 1,
                                                                               sizeof(int));
    u2d_work *w = take_spare(self);
    if (!out || !flags || !flag || !any || !w) goto error;
    u2d_status st = U2D_OK;
    const double *qd = PyArray_DATA(q);
    double *L = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    for (size_t k = 0; k < n && st == U2D_OK; k++) {
        st = u2d_path_lengths(m, u, w, qd + k * (size_t)m->nq, L + k * (size_t)np, flag);
        for (int p = 0; p < np; p++) any[p] |= flag[p];
    }
    Py_END_ALLOW_THREADS
    if (st != U2D_OK) {
        PyErr_Format(PyExc_ValueError, "path_lengths: the configuration cannot be placed "
                     "(status %d)", (int)st);
        goto error;
    }
    for (int p = 0; p < np; p++) ((npy_bool *)PyArray_DATA(flags))[p] = (npy_bool)any[p];
    give_back(self, w);
    PyMem_Free(flag);
    PyMem_Free(any);
    Py_DECREF(q);
    return Py_BuildValue("(NN)", out, flags);
error:
    if (w) give_back(self, w);
    PyMem_Free(flag);
    PyMem_Free(any);
    Py_XDECREF(out);
    Py_XDECREF(flags);
    Py_DECREF(q);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
}

static PyMethodDef Model_methods[] = {
    {"function_values", (PyCFunction)Model_function_values, METH_VARARGS,
     "function_values(f, x) -> (n, 4): an OpenSim function and its derivatives"},
    {"axis_values", (PyCFunction)Model_axis_values, METH_O,
     "the custom joints' six axis values at q"},
    {"custom_functions", (PyCFunction)Model_custom_functions, METH_NOARGS,
     "(joints, functions, data): the custom joints' axes and functions, for code generation"},
    {"mjcf", (PyCFunction)Model_mjcf, METH_NOARGS, "None unless an MJCF; its qpos0"},
    {"osim", (PyCFunction)Model_osim, METH_NOARGS,
     "None for a URDF; OpenSim names, coordinates, markers and gravity"},
    {"osim_doc", (PyCFunction)Model_osim_doc, METH_NOARGS,
     "None for a URDF; an OpenSim document's frames, markers, paths, wraps ... as read"},
    {"path_lengths", (PyCFunction)Model_path_lengths, METH_O,
     "path_lengths(q) -> (lengths, flags): the OpenSim geometry paths' lengths at q"},
    {"osim_write", (PyCFunction)Model_osim_write, METH_VARARGS,
     "osim_write(xml, edits) -> the OpenSim text with the edits made"},
    {"compute", (PyCFunction)(void (*)(void))Model_compute, METH_FASTCALL,
     "compute(algo, inputs, fext_body, fext_wrench, threads, link, point, dt[, reference[, "
     "out]])"},
    {"signature", (PyCFunction)Model_signature, METH_O,
     "signature(algo) -> (input names, input widths, output shapes per sample)"},
    {"simulate", (PyCFunction)(void (*)(void))Model_simulate, METH_FASTCALL,
     "simulate(q0, v0, tau, tau_half_steps, dt, method, fext_body, fext_wrench) -> (qs, vs)"},
    {"ik", (PyCFunction)(void (*)(void))Model_ik, METH_FASTCALL,
     "ik(link, pos, weight, task_v, task_q, task_weight, locked, lower, upper, target, "
     "task_value, q0, tolerance, max_iter, threads) -> (q, err, report)"},
    {"joints", (PyCFunction)Model_joints, METH_NOARGS, "movable joints, in q order"},
    {"links", (PyCFunction)Model_links, METH_NOARGS, "(name, body) per URDF link"},
    {"structure", (PyCFunction)Model_structure, METH_NOARGS,
     "the compiled tree: a dict of arrays (parents, joints, placements, inertias, links)"},
    {"inertial_parameters", (PyCFunction)Model_inertial_parameters, METH_NOARGS,
     "(nbody - 1, 10) inertial parameters per moving body"},
    {"findings", (PyCFunction)Model_findings, METH_NOARGS,
     "(line, message) per questionable input read as written"},
    {"document", (PyCFunction)Model_document, METH_NOARGS,
     "(links, joints) of the URDF as read, fixed joints included"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Model_getset[] = {
    {"gravity", (getter)Model_get_gravity, (setter)Model_set_gravity, "gravity (3,)", NULL},
    {"nq", (getter)Model_get_int, NULL, "configuration size", (void *)0},
    {"nv", (getter)Model_get_int, NULL, "velocity size", (void *)1},
    {"nbody", (getter)Model_get_int, NULL, "bodies, the world included", (void *)2},
    {"floating_base", (getter)Model_get_int, NULL, "floating root added", (void *)3},
    {"total_mass", (getter)Model_get_int, NULL, "mass of the moving links", (void *)4},
    {"name", (getter)Model_get_name, NULL, "robot name", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Model_slots[] = {
    {Py_tp_dealloc, Model_dealloc},
    {Py_tp_methods, Model_methods},
    {Py_tp_getset, Model_getset},
    {Py_tp_doc, "A compiled URDF model (create it with urdf2dyn._core.load)."},
    {0, NULL},
};

static PyType_Spec Model_spec = {
    "urdf2dyn._core.Model", sizeof(ModelObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    Model_slots,
};

/* ---- module --------------------------------------------------------------- */

/* Raise type with the core's message err (or fallback), as core_text gives it. */
static void set_core_error(PyObject *type, const char *err, const char *fallback)
{
    PyObject *text = core_text(err[0] ? err : fallback);
    if (text) {
        PyErr_SetObject(type, text);
        Py_DECREF(text);
    }
}

/* A file an MJCF names, through the Python callable ctx (path -> bytes), with the GIL. */
static char *read_through_python(void *ctx, const char *path, size_t *len, char err[U2D_ERRLEN])
{
    PyGILState_STATE gil = PyGILState_Ensure();
    char *out = NULL;
    PyObject *r = PyObject_CallFunction((PyObject *)ctx, "s", path);
    if (r && PyBytes_Check(r)) {
        Py_ssize_t n = PyBytes_GET_SIZE(r);
        out = malloc((size_t)n + 1);
        if (out) {
            memcpy(out, PyBytes_AS_STRING(r), (size_t)n);
            out[n] = '\0';
            *len = (size_t)n;
        } else {
            snprintf(err, U2D_ERRLEN, "out of memory reading '%.300s'", path);
        }
    } else if (r) {
        snprintf(err, U2D_ERRLEN, "the file reader returned %.60s, not bytes",
                 Py_TYPE(r)->tp_name);
    } else {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *text = value ? PyObject_Str(value) : NULL;
        const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
        snprintf(err, U2D_ERRLEN, "%.400s", msg ? msg : "cannot read the file");
        Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
        PyErr_Clear();
    }
    Py_XDECREF(r);
    PyGILState_Release(gil);
    return out;
}

/* load(xml_text, floating_base, path=None, read=None) -> Model. An MJCF's files (includes,
 * meshes) are found relative to path and read by read(path) -> bytes (default: the C
 * library's fopen). */
static PyObject *core_load(PyObject *module, PyObject *args)
{
    module_state *st = PyModule_GetState(module);
    const char *xml, *path = NULL;
    Py_ssize_t len;
    int floating_base = 0;
    PyObject *read = Py_None;
    if (!PyArg_ParseTuple(args, "s#p|zO", &xml, &len, &floating_base, &path, &read)) return NULL;
    if ((size_t)len != strlen(xml)) {
        PyErr_SetString(st->URDFError, "the URDF text contains a NUL character");
        return NULL;
    }
    if (read != Py_None && !PyCallable_Check(read)) {
        PyErr_SetString(PyExc_TypeError, "load: read must be a callable path -> bytes");
        return NULL;
    }
    char err[U2D_ERRLEN] = "";
    u2d_urdf *u;
    u2d_model *m = NULL;
    Py_BEGIN_ALLOW_THREADS
    if (u2d_is_mjcf(xml))
        u = u2d_mjcf_parse(xml, path, read == Py_None ? NULL : read_through_python,
                           read == Py_None ? NULL : read, err);
    else
        u = u2d_is_osim(xml) ? u2d_osim_parse(xml, err) : u2d_urdf_parse(xml, err);
    if (u) m = u2d_model_compile(u, floating_base, err);
    Py_END_ALLOW_THREADS
    if (!m) {
        u2d_urdf_free(u);
        set_core_error(st->URDFError, err, "could not load the URDF");
        return NULL;
    }
    ModelObject *self = PyObject_New(ModelObject, st->ModelType);
    if (!self) {
        u2d_model_free(m);
        u2d_urdf_free(u);
        return NULL;
    }
    self->urdf = u;
    self->model = m;
    self->spare = NULL;
    self->gravity[0] = 0.0; self->gravity[1] = 0.0; self->gravity[2] = -9.81;
    if (u->has_gravity) memcpy(self->gravity, u->gravity, sizeof self->gravity);
    self->floating_base = floating_base;
    self->writer = NULL;
    self->writer_text = NULL;
    return (PyObject *)self;
}

static PyObject *finding_list(const u2d_finding *f, int n)
{
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *t = Py_BuildValue("(iN)", f[k].line, core_text(f[k].message));
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, k, t);
    }
    return list;
}

/* urdf_check(xml_text) -> (errors, findings): every error of URDF text as [(line, message)]
 * (the first the one load raises; line 0 when unknown), going on past each refused link or
 * joint, and the findings read on the way (u2d_urdf_check). */
static PyObject *core_urdf_check(PyObject *module, PyObject *args)
{
    module_state *st = PyModule_GetState(module);
    const char *xml;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#", &xml, &len)) return NULL;
    if ((size_t)len != strlen(xml)) {
        PyErr_SetString(st->URDFError, "the URDF text contains a NUL character");
        return NULL;
    }
    char err[U2D_ERRLEN] = "";
    u2d_urdf *u;
    Py_BEGIN_ALLOW_THREADS
    u = u2d_urdf_check(xml, err);
    Py_END_ALLOW_THREADS
    if (!u) return PyErr_NoMemory();
    PyObject *errors = finding_list(u->error, u->nerror);
    PyObject *findings = finding_list(u->finding, u->nfinding);
    u2d_urdf_free(u);
    PyObject *out = errors && findings ? PyTuple_Pack(2, errors, findings) : NULL;
    Py_XDECREF(errors);
    Py_XDECREF(findings);
    return out;
}

static int core_exec(PyObject *module)
{
    module_state *st = PyModule_GetState(module);
    import_array1(-1);
    st->URDFError = PyErr_NewExceptionWithDoc(
        "urdf2dyn.URDFError", "A URDF document that cannot be loaded; the message names the "
        "element, the attribute and the reason.", PyExc_ValueError, NULL);
    if (!st->URDFError || PyModule_AddObjectRef(module, "URDFError", st->URDFError) < 0)
        return -1;
    static const struct { const char *name; int id; } algos[] = {
        {"RNEA", U2D_ALGO_RNEA}, {"CRBA", U2D_ALGO_CRBA}, {"NLE", U2D_ALGO_NLE},
        {"GRAVITY", U2D_ALGO_GRAVITY}, {"CORIOLIS", U2D_ALGO_CORIOLIS}, {"ABA", U2D_ALGO_ABA},
        {"FK", U2D_ALGO_FK}, {"JOINT_POS", U2D_ALGO_JOINT_POS}, {"COM", U2D_ALGO_COM},
        {"JACOBIAN", U2D_ALGO_JACOBIAN}, {"LINK_VEL", U2D_ALGO_LINK_VEL},
        {"KINETIC", U2D_ALGO_KINETIC}, {"POTENTIAL", U2D_ALGO_POTENTIAL},
        {"INTEGRATE", U2D_ALGO_INTEGRATE}, {"DIFFERENCE", U2D_ALGO_DIFFERENCE},
        {"NORMALIZE", U2D_ALGO_NORMALIZE},
        {"RNEA_DERIV", U2D_ALGO_RNEA_DERIV}, {"ABA_DERIV", U2D_ALGO_ABA_DERIV},
        {"CCRBA", U2D_ALGO_CCRBA}, {"CENTROIDAL", U2D_ALGO_CENTROIDAL},
        {"REGRESSOR", U2D_ALGO_REGRESSOR},
        {"FRAME_JACOBIAN", U2D_ALGO_FRAME_JACOBIAN},
        {"FRAME_JACOBIAN_DOT", U2D_ALGO_FRAME_JACOBIAN_DOT},
        {"FRAME_VELOCITY", U2D_ALGO_FRAME_VELOCITY},
        {"FRAME_ACCELERATION", U2D_ALGO_FRAME_ACCELERATION},
        {"FRAME_CLASSICAL", U2D_ALGO_FRAME_CLASSICAL}, {"PASSIVE", U2D_ALGO_PASSIVE},
        {"LOCAL", U2D_LOCAL}, {"WORLD", U2D_WORLD},
        {"LOCAL_WORLD_ALIGNED", U2D_LOCAL_WORLD_ALIGNED},
        {"EULER", U2D_EULER}, {"SEMI_IMPLICIT", U2D_SEMI_IMPLICIT}, {"RK4", U2D_RK4},
    };
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++)
        if (PyModule_AddIntConstant(module, algos[k].name, algos[k].id) < 0) return -1;
    st->ModelType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Model_spec, NULL);
    if (!st->ModelType || PyModule_AddType(module, st->ModelType) < 0) return -1;
    return 0;
}

static int core_traverse(PyObject *module, visitproc visit, void *arg)
{
    module_state *st = PyModule_GetState(module);
    Py_VISIT(st->URDFError);
    Py_VISIT(st->ModelType);
    return 0;
}

static int core_clear(PyObject *module)
{
    module_state *st = PyModule_GetState(module);
    Py_CLEAR(st->URDFError);
    Py_CLEAR(st->ModelType);
    return 0;
}

static void core_free(void *module) { core_clear((PyObject *)module); }

/* read_markerset(xml_text) -> ([(name, frame, (x, y, z), fixed)], [(line, finding)]): an
 * OpenSim marker set file, frames as written, and what was read as written but is
 * questionable (URDFError naming the marker and element of what cannot be read). */
static PyObject *core_read_markerset(PyObject *module, PyObject *args)
{
    module_state *st = PyModule_GetState(module);
    const char *xml;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#", &xml, &len)) return NULL;
    if ((size_t)len != strlen(xml)) {
        PyErr_SetString(st->URDFError, "the marker set text contains a NUL character");
        return NULL;
    }
    char err[U2D_ERRLEN] = "";
    u2d_markerset_entry *list = NULL;
    u2d_finding *notes = NULL;
    int n, nnotes = 0;
    Py_BEGIN_ALLOW_THREADS
    n = u2d_markerset_parse(xml, &list, &notes, &nnotes, err);
    Py_END_ALLOW_THREADS
    if (n < 0) {
        set_core_error(st->URDFError, err, "could not read the marker set");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    for (int k = 0; out && k < n; k++) {
        const u2d_markerset_entry *E = &list[k];
        PyObject *t = Py_BuildValue("(ss(ddd)O)", E->name, E->frame, E->location[0],
                                    E->location[1], E->location[2],
                                    E->fixed ? Py_True : Py_False);
        if (!t || PyList_Append(out, t)) Py_CLEAR(out);
        Py_XDECREF(t);
    }
    free(list);
    PyObject *findings = out ? finding_list(notes, nnotes) : NULL;
    free(notes);
    PyObject *result = findings ? PyTuple_Pack(2, out, findings) : NULL;
    Py_XDECREF(out);
    Py_XDECREF(findings);
    return result;
}

static PyObject *core_simd_path(PyObject *self, PyObject *noargs)
{
    (void)self; (void)noargs;
    return PyUnicode_FromString(u2d_simd_path());
}

static PyObject *core_set_simd_path(PyObject *self, PyObject *args)
{
    const char *name = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "z", &name)) return NULL;
    if (u2d_simd_select(name) != 0)
        return PyErr_Format(PyExc_ValueError, "set_simd_path: %s is not available on this CPU "
                            "or in this build (use avx512, avx2, scalar or None)", name);
    return PyUnicode_FromString(u2d_simd_path());
}

/* The XML text with each bare '&' written '&amp;', as load reads it. */
static PyObject *core_escape_bare_ampersands(PyObject *module, PyObject *arg)
{
    (void)module;
    const char *text = PyUnicode_AsUTF8(arg);
    if (!text) return NULL;
    char *escaped = u2d_xml_escape_bare(text);
    if (!escaped) return PyErr_NoMemory();
    PyObject *result = PyUnicode_FromString(escaped);
    free(escaped);
    return result;
}

static PyMethodDef core_methods[] = {
    {"escape_bare_ampersands", core_escape_bare_ampersands, METH_O,
     "escape_bare_ampersands(xml_text) -> the text with each bare '&' written '&amp;'"},
    {"load", core_load, METH_VARARGS,
     "load(xml_text, floating_base, path=None, read=None) -> Model"},
    {"urdf_check", core_urdf_check, METH_VARARGS,
     "urdf_check(xml_text) -> (errors, findings), each [(line, message)]"},
    {"read_markerset", core_read_markerset, METH_VARARGS,
     "read_markerset(xml_text) -> ([(name, frame, location, fixed)], [(line, finding)])"},
    {"simd_path", core_simd_path, METH_NOARGS, "simd_path() -> str"},
    {"set_simd_path", core_set_simd_path, METH_VARARGS, "set_simd_path(name or None) -> str"},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, core_exec},
    {0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "urdf2dyn._core", "urdf2dyn's C core.", sizeof(module_state),
    core_methods, core_slots, core_traverse, core_clear, core_free,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&core_module); }
