/* _core.c: the CPython module urdf2dyn._core, a thin layer over the C core.
 *
 * It converts arguments (any real dtype, any layout -> float64 C-contiguous, once), checks
 * shapes and names the argument at fault, releases the GIL around the core's loops, and
 * turns core status codes into exceptions after the GIL is back. No dynamics here. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <string.h>
#include "u2d_batch.h"
#include "u2d_model.h"

typedef struct {
    PyObject *URDFError;
    PyTypeObject *ModelType;
} module_state;

typedef struct {
    PyObject_HEAD
    u2d_urdf *urdf;         /* the document: names, limits, mimic, ... */
    u2d_model *model;       /* the compiled tree                        */
    double gravity[3];
    int floating_base;
} ModelObject;

static const char *jtype_name(u2d_jtype t)
{
    switch (t) {
    case U2D_JOINT_REVOLUTE: return "revolute";
    case U2D_JOINT_CONTINUOUS: return "continuous";
    case U2D_JOINT_PRISMATIC: return "prismatic";
    case U2D_JOINT_FLOATING: return "floating";
    case U2D_JOINT_PLANAR: return "planar";
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
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OTF(obj, NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
    if (!a) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
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

static PyArrayObject *new_like(PyArrayObject *samples, npy_intp width)
{
    npy_intp dims[2] = {PyArray_DIM(samples, 0), width};
    if (PyArray_NDIM(samples) == 1) dims[0] = width;
    return (PyArrayObject *)PyArray_SimpleNew(PyArray_NDIM(samples), dims, NPY_DOUBLE);
}

static size_t count_samples(PyArrayObject *a)
{
    return PyArray_NDIM(a) == 1 ? 1 : (size_t)PyArray_DIM(a, 0);
}

/* ---- status codes -> exceptions (with the GIL held) ----------------------- */

static PyObject *raise_status(ModelObject *self, u2d_status st, size_t bad, const double *q)
{
    switch (st) {
    case U2D_OK:
        return NULL;
    case U2D_ERR_NOMEM:
        return PyErr_NoMemory();
    case U2D_ERR_QUATERNION: {
        const u2d_model *m = self->model;
        const char *name = "root_joint";
        for (int i = 1; i < m->nbody; i++) {
            const double *x = q + bad * (size_t)m->nq + m->qadr[i] + 3;
            double n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
            if (m->jtype[i] == U2D_JOINT_FLOATING && !(n2 > 1e-24 && n2 < INFINITY)) {
                name = m->jurdf[i] >= 0 ? self->urdf->joint[m->jurdf[i]].name : "root_joint";
                break;
            }
        }
        return PyErr_Format(PyExc_ValueError, "q: sample %zu: the quaternion of floating joint "
                            "'%s' has zero or infinite norm", bad, name);
    }
    case U2D_ERR_THREAD:
        return PyErr_Format(PyExc_RuntimeError, "could not start worker threads");
    }
    return PyErr_Format(PyExc_RuntimeError, "urdf2dyn core: unknown status %d", (int)st);
}

/* ---- Model ---------------------------------------------------------------- */

static void Model_dealloc(ModelObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    u2d_model_free(self->model);
    u2d_urdf_free(self->urdf);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* rnea(q, v, a, fext_body, fext_wrench, threads) */
static PyObject *Model_rnea(ModelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "rnea(q, v, a, fext_body, fext_wrench, threads)");
        return NULL;
    }
    const u2d_model *m = self->model;
    PyArrayObject *q = NULL, *v = NULL, *a = NULL, *fb = NULL, *fw = NULL, *tau = NULL;
    long threads = PyLong_AsLong(args[5]);
    if (threads == -1 && PyErr_Occurred()) return NULL;

    if (!(q = as_samples(args[0], "q", "nq", m->nq))) goto error;
    if (!(v = as_samples(args[1], "v", "nv", m->nv))) goto error;
    if (!(a = as_samples(args[2], "a", "nv", m->nv))) goto error;
    if (same_samples(q, "q", v, "v") || same_samples(q, "q", a, "a")) goto error;
    size_t n = count_samples(q);

    u2d_rnea_args ra = {0};
    if (args[3] != Py_None) {
        fb = (PyArrayObject *)PyArray_FROM_OTF(args[3], NPY_INT, NPY_ARRAY_IN_ARRAY);
        fw = (PyArrayObject *)PyArray_FROM_OTF(args[4], NPY_DOUBLE, NPY_ARRAY_IN_ARRAY);
        if (!fb || !fw) goto error;
        npy_intp k = PyArray_SIZE(fb);
        if (PyArray_NDIM(fb) != 1 || PyArray_NDIM(fw) != 3 || PyArray_DIM(fw, 1) != k ||
            PyArray_DIM(fw, 2) != 6 ||
            (PyArray_DIM(fw, 0) != 1 && (size_t)PyArray_DIM(fw, 0) != n)) {
            PyErr_Format(PyExc_ValueError, "f_ext: expected wrenches of shape (6,) or (N, 6) "
                         "with N = %zu", n);
            goto error;
        }
        const int *body = PyArray_DATA(fb);
        for (npy_intp i = 0; i < k; i++)
            if (body[i] < 0 || body[i] >= m->nbody) {
                PyErr_Format(PyExc_ValueError, "f_ext: body index %d out of range", body[i]);
                goto error;
            }
        ra.nfext = (int)k;
        ra.fext_body = body;
        ra.fext_wrench = PyArray_DATA(fw);
        ra.fext_shared = PyArray_DIM(fw, 0) == 1 && n != 1;
    }
    if (!(tau = new_like(q, m->nv))) goto error;

    ra.q = PyArray_DATA(q);
    ra.qd = PyArray_DATA(v);
    ra.qdd = PyArray_DATA(a);
    memcpy(ra.gravity, self->gravity, sizeof ra.gravity);
    ra.tau = PyArray_DATA(tau);
    size_t bad = 0;
    u2d_status st;
    Py_BEGIN_ALLOW_THREADS
    st = u2d_rnea_batch(m, n, threads > 64 ? 64 : (int)threads, &ra, &bad);
    Py_END_ALLOW_THREADS
    if (st != U2D_OK) {
        raise_status(self, st, bad, ra.q);
        goto error;
    }
    Py_DECREF(q); Py_DECREF(v); Py_DECREF(a); Py_XDECREF(fb); Py_XDECREF(fw);
    return (PyObject *)tau;

error:
    Py_XDECREF(q); Py_XDECREF(v); Py_XDECREF(a); Py_XDECREF(fb); Py_XDECREF(fw);
    Py_XDECREF(tau);
    return NULL;
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
        PyObject *t = Py_BuildValue(   /* 'N' steals limit and mimic, even on failure */
            "(ssiiiizs(ddd)NNdd)", J ? J->name : "root_joint", jtype_name(m->jtype[i]),
            m->qadr[i], m->vadr[i], m->jnq[i], m->jnv[i],
            J ? u->link[J->parent].name : NULL, u->link[J ? J->child : u->root].name,
            ax[0], ax[1], ax[2], limit, mimic, J ? J->damping : 0.0, J ? J->friction : 0.0);
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
    if (ok) memcpy(self->gravity, x, sizeof self->gravity);
    else PyErr_SetString(PyExc_ValueError, "gravity: expected 3 finite numbers (m/s^2)");
    Py_DECREF(g);
    return ok ? 0 : -1;
}

static PyObject *Model_get_int(ModelObject *self, void *which)
{
    const u2d_model *m = self->model;
    switch ((int)(intptr_t)which) {
    case 0: return PyLong_FromLong(m->nq);
    case 1: return PyLong_FromLong(m->nv);
    case 2: return PyLong_FromLong(m->nbody);
    default: return PyBool_FromLong(self->floating_base);
    }
}

static PyObject *Model_get_name(ModelObject *self, void *Py_UNUSED(c))
{
    return PyUnicode_FromString(self->urdf->name);
}

static PyMethodDef Model_methods[] = {
    {"rnea", (PyCFunction)(void (*)(void))Model_rnea, METH_FASTCALL,
     "rnea(q, v, a, fext_body, fext_wrench, threads) -> tau"},
    {"joints", (PyCFunction)Model_joints, METH_NOARGS, "movable joints, in q order"},
    {"links", (PyCFunction)Model_links, METH_NOARGS, "(name, body) per URDF link"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Model_getset[] = {
    {"gravity", (getter)Model_get_gravity, (setter)Model_set_gravity, "gravity (3,)", NULL},
    {"nq", (getter)Model_get_int, NULL, "configuration size", (void *)0},
    {"nv", (getter)Model_get_int, NULL, "velocity size", (void *)1},
    {"nbody", (getter)Model_get_int, NULL, "bodies, the world included", (void *)2},
    {"floating_base", (getter)Model_get_int, NULL, "floating root added", (void *)3},
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

/* load(xml_text, floating_base) -> Model */
static PyObject *core_load(PyObject *module, PyObject *args)
{
    module_state *st = PyModule_GetState(module);
    const char *xml;
    Py_ssize_t len;
    int floating_base = 0;
    if (!PyArg_ParseTuple(args, "s#p", &xml, &len, &floating_base)) return NULL;
    if ((size_t)len != strlen(xml)) {
        PyErr_SetString(st->URDFError, "the URDF text contains a NUL character");
        return NULL;
    }
    char err[U2D_ERRLEN] = "";
    u2d_urdf *u;
    u2d_model *m = NULL;
    Py_BEGIN_ALLOW_THREADS
    u = u2d_urdf_parse(xml, err);
    if (u) m = u2d_model_compile(u, floating_base, err);
    Py_END_ALLOW_THREADS
    if (!m) {
        u2d_urdf_free(u);
        PyErr_SetString(st->URDFError, err[0] ? err : "could not load the URDF");
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
    self->gravity[0] = 0.0; self->gravity[1] = 0.0; self->gravity[2] = -9.81;
    self->floating_base = floating_base;
    return (PyObject *)self;
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

static PyMethodDef core_methods[] = {
    {"load", core_load, METH_VARARGS, "load(xml_text, floating_base) -> Model"},
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
