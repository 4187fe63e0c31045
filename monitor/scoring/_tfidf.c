/* Context quality's TF-IDF redundancy (monitor/scoring/context_quality.py) in C, for all
 * the pairs of an event's chunks at once: each term is looked up once per chunk in one
 * table of the event's terms (not once per pair), and the chunks' norms and the pairs'
 * cosines are the same doubles as the Python loops', added in the same order, each sum the
 * Python code takes with math.fsum summed exactly too, so the result is identical to the
 * last bit.
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

/* A term of the event: its first chunk's dict key (borrowed), its hash, in how many
 * chunks it is (df) and the first of its occurrences (a list through Occurrence.next). */
typedef struct {
    PyObject *term;
    Py_hash_t hash;
    Py_ssize_t df;
    Py_ssize_t first, last;
} Term;

typedef struct {
    Py_ssize_t chunk, next;
    long long tf;
} Occurrence;

/* The event's terms: an open-addressing table of indices into terms (-1: empty). */
typedef struct {
    Term *terms;
    Py_ssize_t *slots, mask, count;
    Occurrence *seen;
    Py_ssize_t n_seen;
} Terms;

/* The index of ``term`` in the table, added if new; -1 on error. */
static Py_ssize_t
term_index(Terms *t, PyObject *term)
{
    Py_hash_t hash = PyObject_Hash(term);
    if (hash == -1)
        return -1;
    Py_ssize_t s = (Py_ssize_t)((size_t)hash & (size_t)t->mask);
    for (;; s = (s + 1) & t->mask) {
        Py_ssize_t k = t->slots[s];
        if (k < 0)
            break;
        Term *found = &t->terms[k];
        if (found->term == term)
            return k;
        if (found->hash == hash) {
            int eq = PyObject_RichCompareBool(found->term, term, Py_EQ);
            if (eq < 0)
                return -1;
            if (eq)
                return k;
        }
    }
    Py_ssize_t k = t->count++;
    t->slots[s] = k;
    t->terms[k] = (Term){.term = term, .hash = hash, .df = 0, .first = -1, .last = -1};
    return k;
}

/* redundancy(counts, idf2_by_df, single) -> float | None
 *
 * The sum, over the pairs (i, j), i < j, in order, that share a term, of
 * min(1.0, dot(i, j) / (norm(i) * norm(j))): context_quality's TF-IDF redundancy before
 * its division by the number of pairs, for the chunks whose content-term counts are
 * ``counts``, in one pass over their terms instead of once per pair. ``idf2_by_df[d]`` is
 * the squared idf of a term in ``d`` of the chunks (``d`` >= 2), ``single`` that of a term in
 * one. As in the Python loops (_tfidf_total, _norm): dot(i, j) is the exact sum (math.fsum)
 * over the shared terms of float(tf_i * tf_j) * idf2; norm(i) is
 * sqrt(single * square_sum + extra), square_sum the sum of i's tf ** 2 and extra the exact
 * sum over i's terms in two chunks or more of float(tf ** 2) * (idf2 - single); so the
 * result is identical to the last bit. None for a count that is negative or beyond 2 ** 31
 * or a value that is not finite (the Python loops then decide). */
static PyObject *
redundancy(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyList_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "redundancy(counts: list, idf2_by_df: list, single)");
        return NULL;
    }
    PyObject *counts = args[0], *weights = args[1];
    Py_ssize_t n = PyList_GET_SIZE(counts), total_terms = 0;
    double single;
    if (as_double(args[2], &single) < 0)
        return NULL;
    if (PyList_GET_SIZE(weights) < n + 1) {
        PyErr_SetString(PyExc_ValueError, "idf2_by_df needs a weight for every df up to n");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyDict_Check(PyList_GET_ITEM(counts, i))) {
            PyErr_SetString(PyExc_TypeError, "counts must be dicts");
            return NULL;
        }
        total_terms += PyDict_GET_SIZE(PyList_GET_ITEM(counts, i));
    }
    Py_ssize_t capacity = 16;
    while (capacity < 2 * total_terms)
        capacity *= 2;
    Py_ssize_t n_pairs = n * (n - 1) / 2;
    Terms t = {.mask = capacity - 1, .count = 0, .n_seen = 0};
    t.terms = PyMem_Malloc(sizeof(Term) * (size_t)(total_terms ? total_terms : 1));
    t.slots = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)capacity);
    t.seen = PyMem_Malloc(sizeof(Occurrence) * (size_t)(total_terms ? total_terms : 1));
    ExactSum *dots = PyMem_Malloc(sizeof(ExactSum) * (size_t)(n_pairs ? n_pairs : 1));
    double *square_sums = PyMem_Calloc((size_t)(n ? n : 1), sizeof(double));
    ExactSum *extras = PyMem_Malloc(sizeof(ExactSum) * (size_t)(n ? n : 1));
    char *shares = PyMem_Calloc((size_t)(n_pairs ? n_pairs : 1), 1);
    PyObject *result = NULL;
    if (!t.terms || !t.slots || !t.seen || !dots || !square_sums || !extras || !shares) {
        PyErr_NoMemory();
        goto done;
    }
    memset(t.slots, 0xff, sizeof(Py_ssize_t) * (size_t)capacity); /* -1: empty */
    for (Py_ssize_t p = 0; p < n_pairs; p++)
        dots[p] = (ExactSum){.n = 0, .failed = 0};
    /* every occurrence of a term, chunk by chunk; the sums of squared counts */
    for (Py_ssize_t i = 0; i < n; i++) {
        extras[i] = (ExactSum){.n = 0, .failed = 0};
        long long square_sum = 0;
        Py_ssize_t pos = 0;
        PyObject *term, *count;
        while (PyDict_Next(PyList_GET_ITEM(counts, i), &pos, &term, &count)) {
            long long tf = PyLong_AsLongLong(count);
            if (tf == -1 && PyErr_Occurred())
                goto done;
            if (tf < 0 || tf >= (1LL << 31) || square_sum > (1LL << 62) - tf * tf) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            square_sum += tf * tf;
            Py_ssize_t k = term_index(&t, term);
            if (k < 0)
                goto done;
            Term *found = &t.terms[k];
            Py_ssize_t o = t.n_seen++;
            t.seen[o] = (Occurrence){.chunk = i, .next = -1, .tf = tf};
            if (found->last < 0)
                found->first = o;
            else
                t.seen[found->last].next = o;
            found->last = o;
            found->df++;
        }
        square_sums[i] = (double)square_sum;
    }
    /* each term in two chunks or more adds to those chunks' norms and to their pairs' dots */
    for (Py_ssize_t k = 0; k < t.count; k++) {
        Term *term = &t.terms[k];
        if (term->df < 2)
            continue;
        double w;
        if (as_double(PyList_GET_ITEM(weights, term->df), &w) < 0)
            goto done;
        for (Py_ssize_t a = term->first; a >= 0; a = t.seen[a].next) {
            Occurrence *x = &t.seen[a];
            exact_add(&extras[x->chunk], (double)(x->tf * x->tf) * (w - single));
            for (Py_ssize_t b = x->next; b >= 0; b = t.seen[b].next) {
                Occurrence *y = &t.seen[b]; /* x->chunk < y->chunk: chunks come in order */
                Py_ssize_t p = x->chunk * n - x->chunk * (x->chunk + 1) / 2 + y->chunk - x->chunk - 1;
                exact_add(&dots[p], (double)(x->tf * y->tf) * w);
                shares[p] = 1;
            }
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* the norms, in square_sums' place */
        double extra = exact_result(&extras[i]);
        if (extras[i].failed || !isfinite(extra)) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        square_sums[i] = sqrt(single * square_sums[i] + extra);
    }
    double *norms = square_sums, total = 0.0;
    for (Py_ssize_t i = 0, p = 0; i < n; i++) {
        for (Py_ssize_t j = i + 1; j < n; j++, p++) {
            if (!shares[p])
                continue;
            double dot = exact_result(&dots[p]);
            if (dots[p].failed || !isfinite(dot) || !isfinite(norms[i]) || !isfinite(norms[j])) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            double denominator = norms[i] * norms[j];
            if (denominator == 0.0) {
                PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
                goto done;
            }
            double cosine = dot / denominator;
            total += cosine < 1.0 ? cosine : 1.0; /* min(1.0, cosine), NaN included */
        }
    }
    result = PyFloat_FromDouble(total);
done:
    PyMem_Free(t.terms);
    PyMem_Free(t.slots);
    PyMem_Free(t.seen);
    PyMem_Free(dots);
    PyMem_Free(square_sums);
    PyMem_Free(extras);
    PyMem_Free(shares);
    return result;
}

static PyMethodDef methods[] = {
    {"redundancy", (PyCFunction)(void (*)(void))redundancy, METH_FASTCALL,
     "The sum over the pairs of chunks that share a term of their TF-IDF cosines."},
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
