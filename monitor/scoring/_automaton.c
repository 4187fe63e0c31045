/* Many byte strings looked for in one pass over a text: an Aho-Corasick automaton of every
 * item, as a table of transitions (a state and a byte give the next state), run over the
 * text with each whitespace run made one space and its ends stripped
 * (b" ".join(text.split())). Used by the indirect pre-check's anchors
 * (monitor/scoring/injection/anchor_scan.py).
 *
 * Items are byte strings found anywhere in that text, or whole words (a match counts
 * when the bytes on either side are not letters, digits or "_", or the text ends there).
 * An item without a space is found in the collapsed text exactly when it is found in the
 * text itself; a space in an item stands for a whitespace run, and a space at an item's
 * end needs a byte that is not a space beyond it, as the collapsed text has no space at
 * its ends. Automaton(items, words).found(text[, other]) -> list[int]: the indices of
 * the items in either text, each once.
 *
 * Built by setup.py as monitor.scoring._automaton (optional: its users then look for the
 * items in Python, with the same answers). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static unsigned char is_space[256]; /* bytes.split()'s whitespace: \t \n \v \f \r and space */
static unsigned char is_word[256];  /* [A-Za-z0-9_] */

static void
init_classes(void)
{
    for (int c = 0; c < 256; c++) {
        is_space[c] = c == ' ' || (c >= '\t' && c <= '\r');
        is_word[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                     || c == '_';
    }
}

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_items, n_states, n_classes;
    unsigned char byte_class[256]; /* 0: a byte in no item (back to the start state) */
    /* the transitions, n_states rows of n_classes: each the row offset (state * n_classes)
     * of the next state. States are numbered so that those where an item (or a suffix's)
     * ends come last, from first_report: the loop's test is one comparison of the value it
     * loaded, off its chain of dependent loads. */
    int32_t *rows;
    int32_t first_report;
    int32_t *old_of; /* a state's number while building: own_*, suffix are by that number */
    int32_t *own_first, *own_count; /* the items ending at a state: own_items[first..] */
    int32_t *own_items;
    int32_t *suffix;               /* the next state down its failure chain with items, -1 */
    int32_t *lengths;
    unsigned char *words;
} Automaton;

static void
automaton_dealloc(Automaton *self)
{
    PyMem_Free(self->rows);
    PyMem_Free(self->old_of);
    PyMem_Free(self->own_first);
    PyMem_Free(self->own_count);
    PyMem_Free(self->own_items);
    PyMem_Free(self->suffix);
    PyMem_Free(self->lengths);
    PyMem_Free(self->words);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Automaton(items: list[bytes], words: list[bool]) */
static PyObject *
automaton_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *words;
    static char *names[] = {"items", "words", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!", names, &PyList_Type, &items,
                                     &PyList_Type, &words))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items), total = 1;
    if (PyList_GET_SIZE(words) != n || n >= INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "one word flag per item");
        return NULL;
    }
    Automaton *self = (Automaton *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    int32_t *trie = NULL, *fail = NULL, *queue = NULL, *item_state = NULL, *next = NULL;
    unsigned char *reports = NULL;
    self->n_items = n;
    self->lengths = PyMem_Malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    self->words = PyMem_Malloc((size_t)(n ? n : 1));
    item_state = PyMem_Malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    if (self->lengths == NULL || self->words == NULL || item_state == NULL)
        goto nomemory;
    Py_ssize_t classes = 1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyList_GET_ITEM(items, k), *word = PyList_GET_ITEM(words, k);
        if (!PyBool_Check(word)) {
            PyErr_SetString(PyExc_TypeError, "a word flag is a bool");
            goto error;
        }
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) == 0
            || PyBytes_GET_SIZE(item) >= INT32_MAX / 2) {
            PyErr_SetString(PyExc_ValueError, "an item is a non-empty bytes");
            goto error;
        }
        const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(item);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(item); i++) {
            if (self->byte_class[s[i]] == 0)
                self->byte_class[s[i]] = (unsigned char)classes++;
            if (classes > 255) {
                PyErr_SetString(PyExc_ValueError, "items of more than 254 distinct bytes");
                goto error;
            }
        }
        self->lengths[k] = (int32_t)PyBytes_GET_SIZE(item);
        self->words[k] = word == Py_True;
        total += PyBytes_GET_SIZE(item);
    }
    if (total >= INT32_MAX / classes) {
        PyErr_SetString(PyExc_ValueError, "too many items");
        goto error;
    }
    self->n_classes = classes;
    /* the trie: -1 where no item goes on */
    trie = PyMem_Malloc(sizeof(int32_t) * (size_t)(total * classes));
    if (trie == NULL)
        goto nomemory;
    memset(trie, 0xff, sizeof(int32_t) * (size_t)(total * classes));
    Py_ssize_t states = 1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyList_GET_ITEM(items, k);
        const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(item);
        int32_t state = 0;
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(item); i++) {
            int32_t *to = &trie[state * classes + self->byte_class[s[i]]];
            if (*to < 0)
                *to = (int32_t)states++;
            state = *to;
        }
        item_state[k] = state;
    }
    self->n_states = states;
    next = PyMem_Malloc(sizeof(int32_t) * (size_t)(states * classes));
    reports = PyMem_Calloc((size_t)states, 1);
    self->rows = PyMem_Malloc(sizeof(int32_t) * (size_t)(states * classes));
    self->old_of = PyMem_Malloc(sizeof(int32_t) * (size_t)states);
    self->own_first = PyMem_Calloc((size_t)states, sizeof(int32_t));
    self->own_count = PyMem_Calloc((size_t)states, sizeof(int32_t));
    self->own_items = PyMem_Malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    self->suffix = PyMem_Malloc(sizeof(int32_t) * (size_t)states);
    fail = PyMem_Calloc((size_t)states, sizeof(int32_t));
    queue = PyMem_Malloc(sizeof(int32_t) * (size_t)states);
    if (!next || !reports || !self->rows || !self->old_of || !self->own_first || !self->own_count
        || !self->own_items || !self->suffix || !fail || !queue)
        goto nomemory;
    /* the items of each state, grouped by state */
    for (Py_ssize_t k = 0; k < n; k++)
        self->own_count[item_state[k]]++;
    for (Py_ssize_t s = 0, at = 0; s < states; s++) {
        self->own_first[s] = (int32_t)at;
        at += self->own_count[s];
        self->own_count[s] = 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int32_t s = item_state[k];
        self->own_items[self->own_first[s] + self->own_count[s]++] = (int32_t)k;
    }
    /* breadth first: each state's failure (its longest proper suffix that is a state) and
     * its transitions, a missing one taken from its failure's */
    Py_ssize_t head = 0, tail = 0;
    self->suffix[0] = -1;
    for (Py_ssize_t c = 0; c < classes; c++) {
        int32_t to = trie[c];
        next[c] = to < 0 ? 0 : to;
        if (to > 0) {
            fail[to] = 0;
            queue[tail++] = to;
        }
    }
    while (head < tail) {
        int32_t s = queue[head++];
        int32_t f = fail[s];
        self->suffix[s] = self->own_count[f] ? f : self->suffix[f];
        reports[s] = self->own_count[s] || self->suffix[s] >= 0;
        for (Py_ssize_t c = 0; c < classes; c++) {
            int32_t to = trie[s * classes + c];
            if (to < 0) {
                next[s * classes + c] = next[f * classes + c];
                continue;
            }
            next[s * classes + c] = to;
            fail[to] = next[f * classes + c];
            queue[tail++] = to;
        }
    }
    /* renumber: the states that report last (the start state, which does not, stays 0) */
    int32_t *new_of = fail; /* done with the failures */
    int32_t numbered = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            self->first_report = (int32_t)(numbered * classes);
        for (Py_ssize_t s = 0; s < states; s++) {
            if (reports[s] == pass) {
                new_of[s] = numbered;
                self->old_of[numbered++] = (int32_t)s;
            }
        }
    }
    for (Py_ssize_t s = 0; s < states; s++) {
        for (Py_ssize_t c = 0; c < classes; c++)
            self->rows[new_of[s] * classes + c] = (int32_t)(new_of[next[s * classes + c]] * classes);
    }
    goto done;
nomemory:
    PyErr_NoMemory();
error:
    Py_CLEAR(self);
done:
    PyMem_Free(trie);
    PyMem_Free(fail);
    PyMem_Free(queue);
    PyMem_Free(item_state);
    PyMem_Free(next);
    PyMem_Free(reports);
    return (PyObject *)self;
}

/* Add the items that end at buffer[i] (in state ``state``, old numbering) to ``out``. */
static int
report(Automaton *self, int32_t state, const unsigned char *buffer, Py_ssize_t i, Py_ssize_t m,
       unsigned char *seen, PyObject *out)
{
    for (int32_t s = self->own_count[state] ? state : self->suffix[state]; s >= 0;
         s = self->suffix[s]) {
        for (int32_t k = 0; k < self->own_count[s]; k++) {
            int32_t item = self->own_items[self->own_first[s] + k];
            if (seen[item])
                continue;
            if (self->words[item]) {
                Py_ssize_t start = i + 1 - self->lengths[item];
                if ((start > 0 && is_word[buffer[start - 1]]) || (i + 1 < m && is_word[buffer[i + 1]]))
                    continue;
            }
            seen[item] = 1;
            PyObject *index = PyLong_FromLong(item);
            int failed = index == NULL || PyList_Append(out, index) < 0;
            Py_XDECREF(index);
            if (failed)
                return -1;
        }
    }
    return 0;
}

/* ``text`` with each whitespace run made one space and the ends stripped, into ``buffer``;
 * its length. */
static Py_ssize_t
collapse(const unsigned char *text, Py_ssize_t n, unsigned char *buffer)
{
    Py_ssize_t m = 0;
    int space = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = text[i];
        if (is_space[c]) {
            space = m > 0;
            continue;
        }
        if (space)
            buffer[m++] = ' ';
        space = 0;
        buffer[m++] = c;
    }
    return m;
}

#define STEP(row, buffer, i, m)                                                               \
    do {                                                                                      \
        row = rows[row + byte_class[buffer[i]]];                                              \
        if (row >= first_report                                                               \
            && report(self, self->old_of[row / self->n_classes], buffer, i, m, seen, out) < 0) \
            return -1;                                                                        \
    } while (0)

/* Add the items found in ``a`` or ``b`` (collapsed texts) to ``out``, once each. The two
 * are read side by side: each step of one waits on the load of its last one, so two
 * independent chains take about the time of one. */
static int
scan(Automaton *self, const unsigned char *a, Py_ssize_t m_a, const unsigned char *b,
     Py_ssize_t m_b, unsigned char *seen, PyObject *out)
{
    const int32_t *rows = self->rows, first_report = self->first_report;
    const unsigned char *byte_class = self->byte_class;
    int32_t row_a = 0, row_b = 0;
    Py_ssize_t i = 0;
    for (; i < m_a && i < m_b; i++) {
        STEP(row_a, a, i, m_a);
        STEP(row_b, b, i, m_b);
    }
    for (Py_ssize_t j = i; j < m_a; j++)
        STEP(row_a, a, j, m_a);
    for (Py_ssize_t j = i; j < m_b; j++)
        STEP(row_b, b, j, m_b);
    return 0;
}

#undef STEP

/* found(text[, other]) -> list[int] */
static PyObject *
automaton_found(Automaton *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2 || !PyBytes_Check(args[0])
        || (nargs == 2 && !PyBytes_Check(args[1]))) {
        PyErr_SetString(PyExc_TypeError, "found(text: bytes[, other: bytes])");
        return NULL;
    }
    Py_ssize_t n_a = PyBytes_GET_SIZE(args[0]), n_b = nargs == 2 ? PyBytes_GET_SIZE(args[1]) : 0;
    unsigned char *buffer = PyMem_Malloc((size_t)(n_a + n_b + 1));
    unsigned char *seen = PyMem_Calloc((size_t)(self->n_items ? self->n_items : 1), 1);
    PyObject *out = PyList_New(0);
    if (buffer == NULL || seen == NULL || out == NULL) {
        if (out != NULL)
            PyErr_NoMemory();
        goto error;
    }
    Py_ssize_t m_a = collapse((const unsigned char *)PyBytes_AS_STRING(args[0]), n_a, buffer);
    Py_ssize_t m_b = nargs == 2 ? collapse((const unsigned char *)PyBytes_AS_STRING(args[1]), n_b,
                                           buffer + n_a)
                                : 0;
    if (scan(self, buffer, m_a, buffer + n_a, m_b, seen, out) < 0)
        goto error;
    PyMem_Free(buffer);
    PyMem_Free(seen);
    return out;
error:
    PyMem_Free(buffer);
    PyMem_Free(seen);
    Py_XDECREF(out);
    return NULL;
}

static PyMethodDef automaton_methods[] = {
    {"found", (PyCFunction)(void (*)(void))automaton_found, METH_FASTCALL,
     "found(text[, other]): the indices of the items in either text, each once."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject AutomatonType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "monitor.scoring._automaton.Automaton",
    .tp_basicsize = sizeof(Automaton),
    .tp_dealloc = (destructor)automaton_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Automaton(items, words): every item found in one pass over a text.",
    .tp_methods = automaton_methods,
    .tp_new = automaton_new,
};

static struct PyModuleDef automaton_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_automaton",
    .m_doc = "Many byte strings looked for in one pass over a text, in C.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__automaton(void)
{
    init_classes();
    if (PyType_Ready(&AutomatonType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&automaton_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Automaton", (PyObject *)&AutomatonType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
