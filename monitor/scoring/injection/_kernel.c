/* The injection detector's two hot loops over ASCII text, in C, with the same results as
 * their Python versions (which run when this module was not built, and for other text):
 *
 * - ascii_logit: the model's logit, model.python_logit(); the same tokens, look-ups and
 *   sums, in the same order, so the same double (see model.py's docstring);
 * - ascii_words: the words evidence.tokens_of() finds (below).
 *
 * ascii_logit(norm, memo, pairs, bias, window, stride, head, tail) -> float | None
 *
 *   norm    an ASCII str (the normalised text); anything else is a TypeError
 *   memo    dict: token -> its contribution (a float)
 *   pairs   dict: first token -> dict: second token -> the pair's weight (a float)
 *   bias    the model's bias
 *   window, stride, head, tail   WINDOW_TOKENS, STRIDE_TOKENS, HEAD_TOKENS, TAIL_TOKENS
 *
 * Returns None when a token is not in `memo` (the caller's Python path computes it).
 *
 * Tokens are those of the pattern  \w+|[^\w\s\x1c-\x1f]{1,3}  under re.ASCII: a run of
 * [A-Za-z0-9_], or one to three characters that are neither word characters, nor
 * " \t\n\r\f\v", nor \x1c-\x1f.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

enum { SKIP = 0, WORD = 1, PUNCT = 2 };

static unsigned char char_class[128];
static unsigned char word_or_quote[128];

static void
init_classes(void)
{
    for (int c = 0; c < 128; c++) {
        int word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_';
        int space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
                    (c >= 0x1c && c <= 0x1f);
        char_class[c] = word ? WORD : (space ? SKIP : PUNCT);
        word_or_quote[c] = word || c == '\'';
    }
}

typedef struct {
    Py_ssize_t start;
    Py_ssize_t length;
} Span;

/* The spans of the tokens of `s` (length n) into a new array; *count receives their
 * number. NULL (with a MemoryError set) when memory runs out. */
static Span *
token_spans(const unsigned char *s, Py_ssize_t n, Py_ssize_t *count)
{
    Py_ssize_t cap = n / 4 + 16, k = 0, i = 0;
    Span *spans = PyMem_Malloc(sizeof(Span) * (size_t)cap);
    if (spans == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    while (i < n) {
        unsigned char cls = char_class[s[i]];
        if (cls == SKIP) {
            i++;
            continue;
        }
        Py_ssize_t start = i++;
        if (cls == WORD) {
            while (i < n && char_class[s[i]] == WORD)
                i++;
        }
        else {
            while (i < n && i - start < 3 && char_class[s[i]] == PUNCT)
                i++;
        }
        if (k == cap) { /* "a!b!c" has as many tokens as characters */
            cap *= 2;
            Span *grown = PyMem_Realloc(spans, sizeof(Span) * (size_t)cap);
            if (grown == NULL) {
                PyMem_Free(spans);
                PyErr_NoMemory();
                return NULL;
            }
            spans = grown;
        }
        spans[k].start = start;
        spans[k].length = i - start;
        k++;
    }
    *count = k;
    return spans;
}

/* The value of a dict entry as a double: 1 when found, 0 when absent, -1 on error. */
static int
lookup_double(PyObject *dict, PyObject *key, double *out)
{
    PyObject *value = PyDict_GetItemWithError(dict, key); /* borrowed */
    if (value == NULL)
        return PyErr_Occurred() ? -1 : 0;
    *out = PyFloat_AsDouble(value);
    if (*out == -1.0 && PyErr_Occurred())
        return -1;
    return 1;
}

static PyObject *
ascii_logit(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "ascii_logit() takes 8 arguments");
        return NULL;
    }
    PyObject *norm = args[0], *memo = args[1], *pairs = args[2];
    if (!PyUnicode_Check(norm) || !PyUnicode_IS_ASCII(norm)) {
        PyErr_SetString(PyExc_TypeError, "ascii_logit() needs an ASCII str");
        return NULL;
    }
    if (!PyDict_Check(memo) || !PyDict_Check(pairs)) {
        PyErr_SetString(PyExc_TypeError, "ascii_logit() needs dicts for memo and pairs");
        return NULL;
    }
    double bias = PyFloat_AsDouble(args[3]);
    if (bias == -1.0 && PyErr_Occurred())
        return NULL;
    Py_ssize_t window = PyLong_AsSsize_t(args[4]), stride = PyLong_AsSsize_t(args[5]);
    Py_ssize_t head = PyLong_AsSsize_t(args[6]), tail = PyLong_AsSsize_t(args[7]);
    if (PyErr_Occurred())
        return NULL;
    if (window < 1 || stride < 1 || head < 0 || tail < 0) {
        PyErr_SetString(PyExc_ValueError, "ascii_logit(): bad window, stride, head or tail");
        return NULL;
    }

    const unsigned char *s = PyUnicode_1BYTE_DATA(norm);
    Py_ssize_t n_all = 0;
    Span *spans = token_spans(s, PyUnicode_GET_LENGTH(norm), &n_all);
    if (spans == NULL)
        return NULL;
    if (n_all == 0) {
        PyMem_Free(spans);
        return PyFloat_FromDouble(bias);
    }
    /* the head and the tail of a text of very many tokens (model.tokens()) */
    Py_ssize_t m = n_all, skip_from = n_all, skip = 0;
    if (n_all > head + tail) {
        m = head + tail;
        skip_from = head;
        skip = n_all - head - tail;
    }

    PyObject *result = NULL;
    PyObject **toks = PyMem_Calloc((size_t)m, sizeof(PyObject *));
    double *with_pairs = PyMem_Malloc(sizeof(double) * (size_t)m);
    double *prefix = NULL;
    if (toks == NULL || with_pairs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        Span sp = spans[j < skip_from ? j : j + skip];
        toks[j] = PyUnicode_FromStringAndSize((const char *)s + sp.start, sp.length);
        if (toks[j] == NULL)
            goto done;
        int found = lookup_double(memo, toks[j], &with_pairs[j]);
        if (found < 0)
            goto done;
        if (found == 0) { /* not memoised yet: the Python path computes it */
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    /* each token plus the pair it starts (0.0 when the model has no such pair) */
    for (Py_ssize_t j = 0; j + 1 < m; j++) {
        double pair = 0.0;
        PyObject *seconds = PyDict_GetItemWithError(pairs, toks[j]); /* borrowed */
        if (seconds == NULL && PyErr_Occurred())
            goto done;
        if (seconds != NULL && lookup_double(seconds, toks[j + 1], &pair) < 0)
            goto done;
        with_pairs[j] = with_pairs[j] + pair;
    }
    if (m <= window) { /* sum() of Python 3.11: 0.0 plus each value, in order */
        double total = 0.0;
        for (Py_ssize_t j = 0; j < m; j++)
            total += with_pairs[j];
        result = PyFloat_FromDouble(bias + total);
        goto done;
    }
    prefix = PyMem_Malloc(sizeof(double) * (size_t)(m + 1));
    if (prefix == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    prefix[0] = 0.0; /* [0.0, *accumulate(with_pairs)] */
    prefix[1] = with_pairs[0];
    for (Py_ssize_t j = 1; j < m; j++)
        prefix[j + 1] = prefix[j] + with_pairs[j];
    double best = 0.0;
    for (Py_ssize_t start = 0;; start += stride) { /* model.windows(), the first maximum */
        Py_ssize_t end = start + window < m ? start + window : m;
        double value = prefix[end] - prefix[start];
        if (start == 0 || value > best)
            best = value;
        if (end == m)
            break;
    }
    result = PyFloat_FromDouble(bias + best);

done:
    if (toks != NULL) {
        for (Py_ssize_t j = 0; j < m; j++)
            Py_XDECREF(toks[j]);
    }
    PyMem_Free(toks);
    PyMem_Free(with_pairs);
    PyMem_Free(prefix);
    PyMem_Free(spans);
    return result;
}

/* ascii_words(text) -> set[str]: evidence.tokens_of() of one ASCII text, the runs of
 * [A-Za-z0-9_'] and, of those with a quote, the run without its leading and trailing
 * quotes (an empty string for a run of quotes alone). */
static PyObject *
ascii_words(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_TypeError, "ascii_words() needs an ASCII str");
        return NULL;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    PyObject *out = PySet_New(NULL);
    if (out == NULL)
        return NULL;
    while (i < n) {
        if (!word_or_quote[s[i]]) {
            i++;
            continue;
        }
        Py_ssize_t start = i, quotes = 0;
        while (i < n && word_or_quote[s[i]]) {
            quotes += s[i] == '\'';
            i++;
        }
        for (int pass = 0; pass < (quotes ? 2 : 1); pass++) {
            Py_ssize_t a = start, b = i;
            if (pass == 1) { /* str.strip("'") */
                while (a < b && s[a] == '\'')
                    a++;
                while (b > a && s[b - 1] == '\'')
                    b--;
            }
            PyObject *word = PyUnicode_FromStringAndSize((const char *)s + a, b - a);
            if (word == NULL || PySet_Add(out, word) < 0) {
                Py_XDECREF(word);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(word);
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"ascii_logit", (PyCFunction)(void (*)(void))ascii_logit, METH_FASTCALL,
     "The injection model's logit of an ASCII text; None when a token is not memoised."},
    {"ascii_words", ascii_words, METH_O, "evidence.tokens_of() of one ASCII text."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The injection detector's hot loops, in C.", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    init_classes();
    return PyModule_Create(&kernel_module);
}
