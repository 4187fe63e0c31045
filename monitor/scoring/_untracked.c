/* Containers the cyclic garbage collector need not look at (monitor/scoring/chunk_cache.py):
 *
 * untracked(obj) -> obj
 *     obj itself; when it is a list, tuple, set, frozenset or dict (exactly: an instance of
 *     a subclass may hold more than its items) and its every item (and value) is atomic
 *     (below: a str, bytes, int, float, bool, None, ...), it is no longer tracked by the
 *     collector. Such a container cannot be part of a reference cycle, so no collection
 *     can free it: tracking it only makes every collection read its items. (CPython
 *     stops tracking such tuples and dicts by itself, at a collection; never lists or
 *     sets.) The caller must not add anything else to it afterwards.
 *
 * Built by setup.py as monitor.scoring._untracked (optional: the containers then stay
 * tracked, with the same results, and collections take longer). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Whether the collector can never find item in a cycle: CPython's own test for a tuple's
 * items (_PyObject_GC_MAY_BE_TRACKED): an object of a type without garbage collection
 * (str, bytes, int, float, bool, None, ...), or a tuple it no longer tracks. */
static int
atomic(PyObject *item)
{
    return !PyObject_IS_GC(item) || (PyTuple_CheckExact(item) && !PyObject_GC_IsTracked(item));
}

/* 1 when obj is a list, tuple, set, frozenset or dict of atomic items, else 0. */
static int
all_atomic(PyObject *obj)
{
    if (PyList_CheckExact(obj)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); i++) {
            if (!atomic(PyList_GET_ITEM(obj, i)))
                return 0;
        }
        return 1;
    }
    if (PyTuple_CheckExact(obj)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(obj); i++) {
            if (!atomic(PyTuple_GET_ITEM(obj, i)))
                return 0;
        }
        return 1;
    }
    if (PyFrozenSet_CheckExact(obj) || PySet_CheckExact(obj)) {
        Py_ssize_t pos = 0;
        PyObject *key;
        Py_hash_t hash;
        while (_PySet_NextEntry(obj, &pos, &key, &hash)) {
            if (!atomic(key))
                return 0;
        }
        return 1;
    }
    if (PyDict_CheckExact(obj)) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(obj, &pos, &key, &value)) {
            if (!atomic(key) || !atomic(value))
                return 0;
        }
        return 1;
    }
    return 0;
}

static PyObject *
untracked(PyObject *module, PyObject *obj)
{
    (void)module;
    if (PyObject_GC_IsTracked(obj) && all_atomic(obj))
        PyObject_GC_UnTrack(obj);
    Py_INCREF(obj);
    return obj;
}

static PyMethodDef methods[] = {
    {"untracked", untracked, METH_O,
     "obj, no longer tracked by the collector when it is a container of atomic items."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_untracked", "Containers the garbage collector need not look at.",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__untracked(void)
{
    return PyModule_Create(&module);
}
