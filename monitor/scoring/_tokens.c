/* The 003 scorers' tokens and their word trigrams (monitor/scoring/tokens.py), in C. Each
 * function gives exactly what its Python version gives:
 *
 * - tokens(text): tokenize(text), _TOKEN.findall(text.lower()) with
 *   _TOKEN = [^\W_]+(?:[.,'’-][^\W_]+)*: a token is a run of [A-Za-z0-9], extended over one
 *   of . , ' - ’ while another run follows. Texts whose characters beyond ASCII are all
 *   separators that lower-casing keeps (typeset quotes, dashes, ellipses, ...: real prose)
 *   are read here; for any other text it returns None and Python tokenises it;
 * - trigrams(tokens): frozenset(map(" ".join, zip(t, t[1:], t[2:]))).
 *
 * Built by setup.py as monitor.scoring._tokens (optional: tokens.py falls back to Python). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static unsigned char alnum[128];
static unsigned char joiner[128]; /* . , ' - */

static void
init_classes(void)
{
    for (int c = 0; c < 128; c++)
        alnum[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    joiner['.'] = joiner[','] = joiner['\''] = joiner['-'] = 1;
}

/* A character's class: 1 a token character ([^\W_]), 2 a joiner (. , ' - and U+2019),
 * 0 a separator, -1 a character this code leaves to Python: a letter or digit beyond ASCII,
 * or one that lower-casing changes (the Python version lower-cases the text first). */
static int
class_of(Py_UCS4 c)
{
    if (c < 128)
        return alnum[c] ? 1 : joiner[c] ? 2 : 0;
    if (c == 0x2019)
        return 2;
    if (Py_UNICODE_ISALNUM(c) || Py_UNICODE_TOLOWER(c) != c)
        return -1;
    return 0;
}

/* text[start:end].lower(), where only ASCII letters change; ``ascii``: no U+2019 in it. */
static PyObject *
lowered(int kind, const void *data, Py_ssize_t start, Py_ssize_t end, int ascii)
{
    PyObject *out = PyUnicode_New(end - start, ascii ? 127 : 0x2019);
    if (out == NULL)
        return NULL;
    int out_kind = PyUnicode_KIND(out);
    void *out_data = PyUnicode_DATA(out);
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        PyUnicode_WRITE(out_kind, out_data, i - start, (c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    return out;
}

/* tokens(text) -> list[str] | None: tokenize(text), or None when the text has a character
 * of class -1 (see class_of). */
static PyObject *
tokens(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "tokens() needs a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    while (i < n) {
        int cls = class_of(PyUnicode_READ(kind, data, i));
        if (cls < 0) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        if (cls != 1) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        int ascii = 1;
        while (i < n && class_of(PyUnicode_READ(kind, data, i)) == 1)
            i++;
        while (i + 1 < n && class_of(PyUnicode_READ(kind, data, i)) == 2
               && class_of(PyUnicode_READ(kind, data, i + 1)) == 1) {
            ascii &= PyUnicode_READ(kind, data, i) < 128;
            i++;
            while (i < n && class_of(PyUnicode_READ(kind, data, i)) == 1)
                i++;
        }
        PyObject *token = lowered(kind, data, start, i, ascii);
        if (token == NULL || PyList_Append(out, token) < 0) {
            Py_XDECREF(token);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(token);
    }
    return out;
}

/* trigrams(tokens) -> frozenset[str]: the word trigrams of a list of str. */
static PyObject *
trigrams(PyObject *module, PyObject *tokens)
{
    (void)module;
    if (!PyList_Check(tokens)) {
        PyErr_SetString(PyExc_TypeError, "trigrams() needs a list of str");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(tokens);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyUnicode_Check(PyList_GET_ITEM(tokens, k))) {
            PyErr_SetString(PyExc_TypeError, "trigrams() needs a list of str");
            return NULL;
        }
    }
    PyObject *space = PyUnicode_FromString(" ");
    /* a new frozenset (not a shared empty one on Python 3.11), filled before it is seen */
    PyObject *out = space == NULL ? NULL : PyFrozenSet_New(NULL);
    if (out == NULL) {
        Py_XDECREF(space);
        return NULL;
    }
    for (Py_ssize_t k = 0; k + 2 < n; k++) {
        PyObject *a = PyList_GET_ITEM(tokens, k), *b = PyList_GET_ITEM(tokens, k + 1),
                 *c = PyList_GET_ITEM(tokens, k + 2);
        PyObject *gram;
        if (PyUnicode_IS_ASCII(a) && PyUnicode_IS_ASCII(b) && PyUnicode_IS_ASCII(c)) {
            Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b),
                       lc = PyUnicode_GET_LENGTH(c);
            gram = PyUnicode_New(la + lb + lc + 2, 127);
            if (gram != NULL) {
                Py_UCS1 *d = PyUnicode_1BYTE_DATA(gram);
                memcpy(d, PyUnicode_1BYTE_DATA(a), (size_t)la);
                d[la] = ' ';
                memcpy(d + la + 1, PyUnicode_1BYTE_DATA(b), (size_t)lb);
                d[la + 1 + lb] = ' ';
                memcpy(d + la + lb + 2, PyUnicode_1BYTE_DATA(c), (size_t)lc);
            }
        }
        else {
            PyObject *three = PyTuple_Pack(3, a, b, c);
            gram = three == NULL ? NULL : PyUnicode_Join(space, three);
            Py_XDECREF(three);
        }
        if (gram == NULL || PySet_Add(out, gram) < 0) {
            Py_XDECREF(gram);
            Py_DECREF(out);
            Py_DECREF(space);
            return NULL;
        }
        Py_DECREF(gram);
    }
    Py_DECREF(space);
    return out;
}

static PyMethodDef methods[] = {
    {"tokens", tokens, METH_O, "tokens.tokenize() of a text, or None (left to Python)."},
    {"trigrams", trigrams, METH_O, "The word trigrams of a list of tokens."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tokens_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tokens",
    .m_doc = "The 003 scorers' tokens and word trigrams, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__tokens(void)
{
    init_classes();
    return PyModule_Create(&tokens_module);
}
