/* The loops of context quality's TF-IDF redundancy (monitor/scoring/context_quality.py),
 * in C: each chunk's norm, the pairs' cosines and the terms a pair shares (common_terms),
 * with the same doubles as the Python loops, added in the same order, and each sum the
 * Python code takes with math.fsum summed exactly too, so the results are identical to
 * the last bit.
 *
 * Built by setup.py as monitor.scoring._tfidf (optional: context_quality falls back to
 * its Python loop). Compiled without floating-point contraction (see setup.py): a fused
 * multiply-add would round differently from Python. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

/* Non-overlapping partials of an exact sum of doubles (Shewchuk's algorithm, as CPython's
 * math.fsum). Finite doubles need at most about 40 partials (2,098 exponents / 53 bits). */
#define MAX_PARTIALS 64

typedef struct {
    double p[MAX_PARTIALS];
    int n;
    int failed; /* a non-finite value, or too many partials: the caller falls back */
} ExactSum;

static void
exact_add(ExactSum *s, double x)
{
    int i = 0;
    for (int j = 0; j < s->n; j++) {
        double y = s->p[j];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y;
        double lo = y - (hi - x);
        if (lo != 0.0)
            s->p[i++] = lo;
        x = hi;
    }
    s->n = i;
    if (x != 0.0) {
        if (!isfinite(x) || s->n >= MAX_PARTIALS)
            s->failed = 1;
        else
            s->p[s->n++] = x;
    }
}

/* The sum rounded once, half to even (math.fsum's result for finite partials). */
static double
exact_result(const ExactSum *s)
{
    int n = s->n;
    double hi = 0.0, lo = 0.0;
    if (n > 0) {
        hi = s->p[--n];
        while (n > 0) {
            double x = hi, y = s->p[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0)
                break;
        }
        if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) || (lo > 0.0 && s->p[n - 1] > 0.0))) {
            double y = lo * 2.0, x = hi + y;
            if (y == x - hi)
                hi = x;
        }
    }
    return hi;
}

static int
as_double(PyObject *value, double *out)
{
    *out = PyFloat_AsDouble(value);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* cosine_total(found, idf2, norms) -> float | None
 *
 * found: [(i, j, terms, products), ...], idf2: {term: float}, norms: [float, ...].
 * For each pair in order, dot = fsum(products[k] * idf2[terms[k]]) and
 * total += min(1.0, dot / (norms[i] * norms[j])), from total = 0.0. None when a value
 * is not finite (the Python loop then decides what happens). */
static PyObject *
cosine_total(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "cosine_total(found, idf2, norms)");
        return NULL;
    }
    PyObject *found = args[0], *idf2 = args[1], *norms = args[2];
    if (!PyList_Check(found) || !PyDict_Check(idf2) || !PyList_Check(norms)) {
        PyErr_SetString(PyExc_TypeError, "cosine_total(list, dict, list)");
        return NULL;
    }
    double total = 0.0;
    for (Py_ssize_t f = 0; f < PyList_GET_SIZE(found); f++) {
        PyObject *pair = PyList_GET_ITEM(found, f);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 4) {
            PyErr_SetString(PyExc_TypeError, "a pair is (i, j, terms, products)");
            return NULL;
        }
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 0));
        Py_ssize_t j = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
        if ((i == -1 || j == -1) && PyErr_Occurred())
            return NULL;
        PyObject *terms = PyTuple_GET_ITEM(pair, 2), *products = PyTuple_GET_ITEM(pair, 3);
        if (!PyTuple_Check(terms) || !PyTuple_Check(products)
            || PyTuple_GET_SIZE(terms) != PyTuple_GET_SIZE(products) || i < 0 || j < 0
            || i >= PyList_GET_SIZE(norms) || j >= PyList_GET_SIZE(norms)) {
            PyErr_SetString(PyExc_ValueError, "a pair's indices or lengths do not fit");
            return NULL;
        }
        ExactSum sum = {.n = 0, .failed = 0};
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(terms); k++) {
            PyObject *term = PyTuple_GET_ITEM(terms, k);
            PyObject *weight = PyDict_GetItemWithError(idf2, term);
            if (weight == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetObject(PyExc_KeyError, term);
                return NULL;
            }
            double w, p;
            if (as_double(weight, &w) < 0 || as_double(PyTuple_GET_ITEM(products, k), &p) < 0)
                return NULL;
            exact_add(&sum, p * w);
        }
        double a, b;
        if (as_double(PyList_GET_ITEM(norms, i), &a) < 0
            || as_double(PyList_GET_ITEM(norms, j), &b) < 0)
            return NULL;
        if (sum.failed || !isfinite(a) || !isfinite(b))
            Py_RETURN_NONE;
        double denominator = a * b;
        if (denominator == 0.0) {
            PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
            return NULL;
        }
        double dot = exact_result(&sum);
        if (!isfinite(dot))
            Py_RETURN_NONE;
        double cosine = dot / denominator;
        total += cosine < 1.0 ? cosine : 1.0; /* min(1.0, cosine), NaN included */
    }
    return PyFloat_FromDouble(total);
}

/* norm(keys, counts, square_sum, idf2, single) -> float | None
 *
 * One chunk's TF-IDF norm: sqrt(single * square_sum + extra), where extra is the exact sum
 * (math.fsum) over the terms t in both keys (a frozenset) and idf2 (a dict) of
 * counts[t] ** 2 * (idf2[t] - single). The smaller of the two is walked, the other looked
 * into; the order of the terms cannot change an exact sum. None for a count beyond 2 ** 31
 * or a value that is not finite (the Python code then decides). */
static PyObject *
norm(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "norm(keys, counts, square_sum, idf2, single)");
        return NULL;
    }
    PyObject *keys = args[0], *counts = args[1], *idf2 = args[3];
    if (!PyAnySet_Check(keys) || !PyDict_Check(counts) || !PyDict_Check(idf2)) {
        PyErr_SetString(PyExc_TypeError, "norm(set, dict, int, dict, float)");
        return NULL;
    }
    double square_sum, single;
    if (as_double(args[2], &square_sum) < 0 || as_double(args[4], &single) < 0)
        return NULL;
    ExactSum sum = {.n = 0, .failed = 0};
    int walk_keys = PySet_GET_SIZE(keys) <= PyDict_GET_SIZE(idf2);
    PyObject *walked = walk_keys ? PyObject_GetIter(keys) : NULL;
    if (walk_keys && walked == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    for (;;) {
        PyObject *term, *weight;
        if (walk_keys) {
            term = PyIter_Next(walked);
            if (term == NULL)
                break;
            Py_DECREF(term); /* the set still holds it */
            weight = PyDict_GetItemWithError(idf2, term);
            if (weight == NULL) {
                if (PyErr_Occurred())
                    goto error;
                continue;
            }
        }
        else {
            if (!PyDict_Next(idf2, &pos, &term, &weight))
                break;
            int in = PySet_Contains(keys, term);
            if (in < 0)
                goto error;
            if (!in)
                continue;
        }
        PyObject *count = PyDict_GetItemWithError(counts, term);
        if (count == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, term);
            goto error;
        }
        long long tf = PyLong_AsLongLong(count);
        double w;
        if ((tf == -1 && PyErr_Occurred()) || as_double(weight, &w) < 0)
            goto error;
        if (tf < 0 || tf >= (1LL << 31)) {
            Py_XDECREF(walked);
            Py_RETURN_NONE;
        }
        exact_add(&sum, (double)(tf * tf) * (w - single));
    }
    if (PyErr_Occurred())
        goto error;
    Py_XDECREF(walked);
    double extra = exact_result(&sum);
    if (sum.failed || !isfinite(extra))
        Py_RETURN_NONE;
    return PyFloat_FromDouble(sqrt(single * square_sum + extra));
error:
    Py_XDECREF(walked);
    return NULL;
}

/* common_terms(counts_a, counts_b) -> (terms, products)
 *
 * The terms two chunks share (the keys of both dicts, in the order of the smaller one)
 * and for each the product of its two counts: context_quality's pair facts, one pass
 * over the smaller dict with a lookup in the other (no intersection set, no products
 * list built in Python). */
static PyObject *
common_terms(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyDict_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "common_terms(dict, dict)");
        return NULL;
    }
    PyObject *small = args[0], *large = args[1];
    int swapped = PyDict_GET_SIZE(small) > PyDict_GET_SIZE(large);
    if (swapped) {
        small = args[1];
        large = args[0];
    }
    PyObject *terms = PyList_New(0), *products = PyList_New(0), *result = NULL;
    if (terms == NULL || products == NULL)
        goto done;
    Py_ssize_t pos = 0;
    PyObject *term, *count;
    while (PyDict_Next(small, &pos, &term, &count)) {
        PyObject *other = PyDict_GetItemWithError(large, term);
        if (other == NULL) {
            if (PyErr_Occurred())
                goto done;
            continue;
        }
        PyObject *product = swapped ? PyNumber_Multiply(other, count)
                                    : PyNumber_Multiply(count, other);
        int failed = product == NULL || PyList_Append(terms, term) < 0 ||
                     PyList_Append(products, product) < 0;
        Py_XDECREF(product);
        if (failed)
            goto done;
    }
    PyObject *terms_tuple = PyList_AsTuple(terms);
    PyObject *products_tuple = terms_tuple == NULL ? NULL : PyList_AsTuple(products);
    if (products_tuple != NULL)
        result = PyTuple_Pack(2, terms_tuple, products_tuple);
    Py_XDECREF(terms_tuple);
    Py_XDECREF(products_tuple);
done:
    Py_XDECREF(terms);
    Py_XDECREF(products);
    return result;
}

static PyMethodDef methods[] = {
    {"cosine_total", (PyCFunction)(void (*)(void))cosine_total, METH_FASTCALL,
     "The sum over pairs of min(1, fsum(products * idf2[terms]) / (norms[i] * norms[j]))."},
    {"common_terms", (PyCFunction)(void (*)(void))common_terms, METH_FASTCALL,
     "The terms two count dicts share, and their count products."},
    {"norm", (PyCFunction)(void (*)(void))norm, METH_FASTCALL,
     "One chunk's TF-IDF norm over the terms it shares with other chunks."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tfidf_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tfidf",
    .m_doc = "Context quality's TF-IDF pair loop, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__tfidf(void)
{
    return PyModule_Create(&tfidf_module);
}
