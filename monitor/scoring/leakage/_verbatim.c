/* Verbatim runs (monitor/scoring/leakage/verbatim.py) in one pass in C, without a word
 * object per context word:
 *
 * copied_runs(answer, context, gram, min_words) -> list[tuple[int, int]]
 *     answer: the answer's words (a list of bytes); context: the context's words view
 *     (bytes, words separated by ASCII whitespace); the same as verbatim._copied_runs(
 *     answer, context.split()) with VERBATIM_GRAM == gram and MIN_VERBATIM_WORDS ==
 *     min_words: the [first, last] answer word indices of the runs of at least min_words
 *     words whose every gram-gram occurs in the context, overlapping runs merged.
 *
 * Each distinct answer word gets a number; a context word is its number or -1 (not an
 * answer word, so no gram holding it can match). The context's grams of answer words go
 * into a hash set of number sequences, and each answer gram is looked up there: two
 * grams are equal exactly when their numbers are (a number stands for one word). Both
 * tables hash with FNV-1a started at a key of the process (its str hash secret) and
 * mixed, so words or grams crafted to share a slot cannot be computed ahead.
 *
 * Built by setup.py as monitor.scoring.leakage._verbatim (optional: verbatim.py does the
 * same in Python without it). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    uint64_t hash;
    const char *word; /* NULL: a free slot */
    Py_ssize_t length;
    int32_t id;
} WordSlot;

typedef struct {
    uint64_t hash;
    Py_ssize_t at; /* -1: a free slot; else where the gram starts in the context's ids */
} GramSlot;

#define FNV_PRIME 1099511628211ULL

static uint64_t hash_key; /* set by PyInit__verbatim */

/* murmur3's final mix: every bit of the key and the input reaches the slot's bits */
static uint64_t
mixed(uint64_t hash)
{
    hash = (hash ^ (hash >> 33)) * 0xff51afd7ed558ccdULL;
    hash = (hash ^ (hash >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return hash ^ (hash >> 33);
}

static uint64_t
word_hash(const char *s, Py_ssize_t n)
{
    uint64_t hash = hash_key;
    for (Py_ssize_t i = 0; i < n; i++)
        hash = (hash ^ (unsigned char)s[i]) * FNV_PRIME;
    return mixed(hash);
}

static uint64_t
gram_hash(const int32_t *ids, Py_ssize_t gram)
{
    uint64_t hash = hash_key;
    for (Py_ssize_t i = 0; i < gram; i++)
        hash = (hash ^ (uint32_t)ids[i]) * FNV_PRIME;
    return mixed(hash);
}

static size_t
table_size(Py_ssize_t items)
{
    size_t size = 16;
    while (size < (size_t)items * 2 + 2)
        size *= 2;
    return size;
}

/* The slot of word s[0:n]: the one holding it, or the free one where it goes. */
static WordSlot *
word_slot(WordSlot *slots, size_t mask, const char *s, Py_ssize_t n, uint64_t hash)
{
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        WordSlot *at = &slots[i];
        if (at->word == NULL ||
            (at->hash == hash && at->length == n && memcmp(at->word, s, (size_t)n) == 0))
            return at;
    }
}

/* The slot of the gram ids[0:gram] (whose hash is `hash`) in a set of grams of `ctx`. */
static GramSlot *
gram_slot(GramSlot *slots, size_t mask, const int32_t *ctx, const int32_t *ids,
          Py_ssize_t gram, uint64_t hash)
{
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        GramSlot *at = &slots[i];
        if (at->at < 0 || (at->hash == hash &&
                           memcmp(ctx + at->at, ids, (size_t)gram * sizeof(int32_t)) == 0))
            return at;
    }
}

/* bytes.split()'s whitespace: " \t\n\v\f\r" */
static const unsigned char is_space[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
};

/* Append the run (first, last) to *runs; on failure *runs is cleared (NULL, an error set). */
static void
append_run(PyObject **runs, Py_ssize_t first, Py_ssize_t last)
{
    PyObject *run = Py_BuildValue("(nn)", first, last);
    if (run == NULL || PyList_Append(*runs, run) < 0)
        Py_CLEAR(*runs);
    Py_XDECREF(run);
}

/* The runs of `hits` (one flag per answer gram), as _copied_runs() merges them. */
static PyObject *
runs_of_hits(const char *hits, Py_ssize_t n_hits, Py_ssize_t gram, Py_ssize_t min_words)
{
    PyObject *runs = PyList_New(0);
    Py_ssize_t first = -1, last = -1; /* the pending run, not yet appended */
    for (Py_ssize_t i = 0; runs != NULL && i < n_hits;) {
        if (!hits[i]) {
            i++;
            continue;
        }
        Py_ssize_t j = i;
        while (j < n_hits && hits[j])
            j++;
        Py_ssize_t end = j - 1 + gram - 1;
        if (end - i + 1 >= min_words) {
            if (first >= 0 && i <= last) { /* two copied runs that share words: one finding */
                last = end;
            }
            else {
                if (first >= 0)
                    append_run(&runs, first, last);
                first = i;
                last = end;
            }
        }
        i = j;
    }
    if (runs != NULL && first >= 0)
        append_run(&runs, first, last);
    return runs;
}

static PyObject *
copied_runs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t gram, min_words;
    if (nargs != 4 || !PyList_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "copied_runs() takes a list of bytes, bytes and two ints");
        return NULL;
    }
    if ((gram = PyLong_AsSsize_t(args[2])) == -1 && PyErr_Occurred())
        return NULL;
    if ((min_words = PyLong_AsSsize_t(args[3])) == -1 && PyErr_Occurred())
        return NULL;
    if (gram < 1) {
        PyErr_SetString(PyExc_ValueError, "copied_runs() needs a gram of at least one word");
        return NULL;
    }
    PyObject *answer = args[0];
    Py_ssize_t n_answer = PyList_GET_SIZE(answer);
    for (Py_ssize_t i = 0; i < n_answer; i++) {
        if (!PyBytes_Check(PyList_GET_ITEM(answer, i))) {
            PyErr_SetString(PyExc_TypeError, "copied_runs() takes the answer's words as bytes");
            return NULL;
        }
    }
    if (n_answer < gram)
        return PyList_New(0);
    const char *ctx = PyBytes_AS_STRING(args[1]);
    Py_ssize_t n_ctx = PyBytes_GET_SIZE(args[1]), n_words = 0, n_grams = 0;

    PyObject *result = NULL;
    size_t word_mask = table_size(n_answer) - 1, gram_mask = 0;
    WordSlot *words = PyMem_Calloc(word_mask + 1, sizeof(WordSlot));
    GramSlot *grams = NULL;
    int32_t *answer_ids = PyMem_Malloc((size_t)n_answer * sizeof(int32_t));
    int32_t *ctx_ids = PyMem_Malloc(((size_t)n_ctx / 2 + 1) * sizeof(int32_t));
    char *hits = PyMem_Malloc((size_t)(n_answer - gram + 1));
    if (words == NULL || answer_ids == NULL || ctx_ids == NULL || hits == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int32_t distinct = 0;
    for (Py_ssize_t i = 0; i < n_answer; i++) { /* the answer's words, numbered */
        PyObject *word = PyList_GET_ITEM(answer, i);
        const char *s = PyBytes_AS_STRING(word);
        Py_ssize_t n = PyBytes_GET_SIZE(word);
        uint64_t hash = word_hash(s, n);
        WordSlot *at = word_slot(words, word_mask, s, n, hash);
        if (at->word == NULL)
            *at = (WordSlot){hash, s, n, distinct++};
        answer_ids[i] = at->id;
    }
    /* the context's words as numbers (a word and its separator take two bytes or more),
     * and how many of its grams are grams of answer words */
    for (Py_ssize_t i = 0, run = 0; i < n_ctx;) {
        if (is_space[(unsigned char)ctx[i]]) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        uint64_t hash = hash_key; /* word_hash(), in the same pass */
        while (i < n_ctx && !is_space[(unsigned char)ctx[i]])
            hash = (hash ^ (unsigned char)ctx[i++]) * FNV_PRIME;
        WordSlot *at = word_slot(words, word_mask, ctx + start, i - start, mixed(hash));
        ctx_ids[n_words++] = at->word == NULL ? -1 : at->id;
        run = at->word == NULL ? 0 : run + 1;
        n_grams += run >= gram;
    }
    gram_mask = table_size(n_grams) - 1;
    grams = PyMem_Malloc((gram_mask + 1) * sizeof(GramSlot));
    if (grams == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t k = 0; k <= gram_mask; k++)
        grams[k].at = -1;
    for (Py_ssize_t i = 0, run = 0; n_grams > 0 && i < n_words; i++) { /* those grams */
        run = ctx_ids[i] < 0 ? 0 : run + 1;
        if (run < gram)
            continue;
        const int32_t *ids = ctx_ids + i - gram + 1;
        uint64_t hash = gram_hash(ids, gram);
        GramSlot *at = gram_slot(grams, gram_mask, ctx_ids, ids, gram, hash);
        if (at->at < 0)
            *at = (GramSlot){hash, i - gram + 1};
    }
    Py_ssize_t n_hits = n_answer - gram + 1;
    for (Py_ssize_t i = 0; i < n_hits; i++) {
        const int32_t *ids = answer_ids + i;
        hits[i] = gram_slot(grams, gram_mask, ctx_ids, ids, gram, gram_hash(ids, gram))->at >= 0;
    }
    result = runs_of_hits(hits, n_hits, gram, min_words);
done:
    PyMem_Free(words);
    PyMem_Free(grams);
    PyMem_Free(answer_ids);
    PyMem_Free(ctx_ids);
    PyMem_Free(hits);
    return result;
}

static PyMethodDef methods[] = {
    {"copied_runs", (PyCFunction)(void (*)(void))copied_runs, METH_FASTCALL,
     "verbatim._copied_runs(answer, context.split()) of a words view."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_verbatim", "Verbatim runs of answer words in a context.", -1, methods,
};

PyMODINIT_FUNC
PyInit__verbatim(void)
{
    hash_key = (uint64_t)_Py_HashBytes("monitor.scoring.leakage._verbatim", 33) ^
               1469598103934665603ULL;
    return PyModule_Create(&module);
}
