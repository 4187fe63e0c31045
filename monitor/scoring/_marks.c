/* Spec 000's run counts over a text's character classes (monitor/scoring/factual.py), in
 * one pass in C, with the counts ClassMarks' bytes.count passes give:
 *
 * run_counts(marks) -> (numbers, spaces, proper_nouns)
 *     marks: ClassMarks.marks, one class byte per character ("d" digit, "U" upper, "l"
 *     lower, "w" whitespace, anything else other);
 *     numbers: the runs of "d" (the matches of /\d+/g);
 *     spaces: the runs of "w" (split(/\s+/).length is one more);
 *     proper_nouns: the "Ul" pairs, less those that continue a match, "Ul+" followed by
 *     "wUl" (the matches of /[A-Z][a-z]+(?:\s[A-Z][a-z]+)*\/g).
 *
 * Built by setup.py as monitor.scoring._marks (optional: factual.py counts with
 * bytes.count without it). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *
run_counts(PyObject *module, PyObject *marks)
{
    (void)module;
    if (!PyBytes_Check(marks)) {
        PyErr_SetString(PyExc_TypeError, "run_counts() needs the class bytes");
        return NULL;
    }
    const unsigned char *m = (const unsigned char *)PyBytes_AS_STRING(marks);
    Py_ssize_t n = PyBytes_GET_SIZE(marks), numbers = 0, spaces = 0, pairs = 0, continued = 0;
    unsigned char before = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = m[i];
        numbers += c == 'd' && before != 'd';
        spaces += c == 'w' && before != 'w';
        if (c == 'l' && before == 'U') {
            pairs++;
            Py_ssize_t j = i + 1; /* past the lower-case run: "wUl" continues the noun */
            while (j < n && m[j] == 'l')
                j++;
            continued += j + 2 < n && m[j] == 'w' && m[j + 1] == 'U' && m[j + 2] == 'l';
        }
        before = c;
    }
    return Py_BuildValue("(nnn)", numbers, spaces, pairs - continued);
}

static PyMethodDef methods[] = {
    {"run_counts", run_counts, METH_O, "Spec 000's digit, whitespace and proper-noun runs."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef marks_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_marks",
    .m_doc = "Spec 000's run counts over character classes, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__marks(void)
{
    return PyModule_Create(&marks_module);
}
