/* The injection detector's hot loops over ASCII text, in C, with the same results as
 * their Python versions (which run when this module was not built, and for other text):
 *
 * - Table.logit: the model's logit, model.python_logit(): the same tokens, the same
 *   contributions and pair weights (doubles computed in Python, kept here by the bytes of
 *   their tokens), added in the same order, so the same double (see model.py);
 * - ascii_words: the words evidence.tokens_of() finds (below);
 * - spaced_run: whether normalisation._SPACED can make a letter-spacing copy (below);
 * - copy_triggers: whether normalisation.copies() may make any copy (below);
 * - plain: normalisation.plain_bytes() of a text without the pre-check's triggers (below);
 * - model_text: model.model_text() of ASCII or typeset text (below).
 *
 * Table(pairs)            pairs: {(first token, second token): weight} of one model
 * table.add(token, value) a token's contribution (computed by model.py)
 * table.logit(norm, bias, window, stride, head, tail) -> float | list[str]
 *     the logit of an ASCII text, or the list of its tokens not added yet (add them and
 *     ask again); window, stride, head and tail are model.py's WINDOW_TOKENS,
 *     STRIDE_TOKENS, HEAD_TOKENS and TAIL_TOKENS
 * table.clear(), len(table)   forget the tokens (the pairs stay); how many there are
 *
 * Tokens are those of the pattern  \w+|[^\w\s\x1c-\x1f]{1,3}  under re.ASCII: a run of
 * [A-Za-z0-9_], or one to three characters that are neither word characters, nor
 * " \t\n\r\f\v", nor \x1c-\x1f.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { SKIP = 0, WORD = 1, PUNCT = 2 };

static unsigned char char_class[128];
static unsigned char word_or_quote[128];
static unsigned char is_separator[128]; /* the letter-spacing separators " .-_*+/|~," */
static unsigned char leet_char[128];    /* read as letters by the l33t copy: "013457@$" */
static unsigned char b64_char[128];     /* base64: [A-Za-z0-9+/] */
/* plain(): each byte's flags; P_CLASS holds its letter-spacing class (normalisation's
 * _SPACING_MAP): 1 a letter or digit ("w"), 2 a separator but "_" ("s"), 3 "_", 0 other */
enum {
    P_CLASS = 3, P_WORD = 1, P_SEPARATOR = 2, P_UNDERSCORE = 3,
    P_UPPER = 4, P_LOWER = 8, P_LETTER = P_UPPER | P_LOWER,
    P_CONTROL = 16, P_B64 = 32, P_LEET = 64, P_JOINS = 128, /* "-", "_", ".", "*" */
};
/* "wswswsw" as seven two-bit classes */
#define SPACED_CLASSES 0x1999 /* 01 10 01 10 01 10 01 */
static unsigned char plain_flags[256];

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
        is_separator[c] = c != 0 && strchr(" .-_*+/|~,", c) != NULL;
        leet_char[c] = c != 0 && strchr("013457@$", c) != NULL;
        b64_char[c] = (word && c != '_') || c == '+' || c == '/';
        int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
        int spacing = c == '_' ? P_UNDERSCORE
                      : word   ? P_WORD
                               : (is_separator[c] ? P_SEPARATOR : 0);
        plain_flags[c] = (unsigned char)(spacing | (upper ? P_UPPER : 0) | (lower ? P_LOWER : 0) |
                                         (c == 0x7f || (c < 0x20 && c != 9 && c != 10 && c != 13) ? P_CONTROL : 0) |
                                         (b64_char[c] ? P_B64 : 0) | (leet_char[c] ? P_LEET : 0) |
                                         (c && strchr("-_.*", c) ? P_JOINS : 0));
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

/* ------------------------------------------------------------------ byte-keyed maps */

/* Open addressing from a key's bytes to a double. A key is one token, or a pair of tokens
 * stored as "first second" (tokens never hold a space). Hashes are Python's keyed hash of
 * the bytes (_Py_HashBytes: SipHash with the process's secret key, so crafted tokens
 * cannot pile up in one probe sequence); a pair's combines its tokens' hashes. The load
 * factor stays at most one half. */
typedef struct {
    uint64_t hash; /* 0: an empty slot */
    size_t offset; /* of the key's bytes in the arena */
    size_t length;
    double value;
} Slot;

typedef struct {
    Slot *slots;
    size_t capacity; /* a power of two */
    size_t count;
    char *arena;
    size_t arena_used, arena_capacity;
} Map;

static uint64_t
token_hash(const char *bytes, Py_ssize_t length)
{
    uint64_t h = (uint64_t)_Py_HashBytes(bytes, length);
    return h ? h : 1;
}

static uint64_t
pair_hash(uint64_t first, uint64_t second)
{
    uint64_t h = (first * 0x9E3779B97F4A7C15ULL) ^ (second + 0x632BE59BD9B4E019ULL);
    h ^= h >> 31;
    return h ? h : 1;
}

static int
map_init(Map *map, size_t capacity)
{
    map->slots = PyMem_Calloc(capacity, sizeof(Slot));
    map->arena = PyMem_Malloc(4096);
    if (map->slots == NULL || map->arena == NULL) {
        PyMem_Free(map->slots);
        PyMem_Free(map->arena);
        map->slots = NULL;
        map->arena = NULL;
        PyErr_NoMemory();
        return -1;
    }
    map->capacity = capacity;
    map->count = 0;
    map->arena_used = 0;
    map->arena_capacity = 4096;
    return 0;
}

static void
map_free(Map *map)
{
    PyMem_Free(map->slots);
    PyMem_Free(map->arena);
    map->slots = NULL;
    map->arena = NULL;
    map->capacity = map->count = map->arena_used = map->arena_capacity = 0;
}

/* Whether a slot's key is `a`, or `a b` when b is not NULL. */
static int
key_equals(const Map *map, const Slot *slot, const char *a, size_t la, const char *b, size_t lb)
{
    size_t length = b == NULL ? la : la + 1 + lb;
    if (slot->length != length)
        return 0;
    const char *key = map->arena + slot->offset;
    if (memcmp(key, a, la) != 0)
        return 0;
    return b == NULL || (key[la] == ' ' && memcmp(key + la + 1, b, lb) == 0);
}

static Slot *
map_find(const Map *map, uint64_t hash, const char *a, size_t la, const char *b, size_t lb)
{
    size_t mask = map->capacity - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        Slot *slot = &map->slots[i];
        if (slot->hash == 0)
            return NULL;
        if (slot->hash == hash && key_equals(map, slot, a, la, b, lb))
            return slot;
    }
}

static int
map_grow(Map *map)
{
    size_t capacity = map->capacity * 2;
    Slot *slots = PyMem_Calloc(capacity, sizeof(Slot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < map->capacity; k++) {
        Slot *old = &map->slots[k];
        if (old->hash == 0)
            continue;
        size_t i = (size_t)old->hash & (capacity - 1);
        while (slots[i].hash != 0)
            i = (i + 1) & (capacity - 1);
        slots[i] = *old;
    }
    PyMem_Free(map->slots);
    map->slots = slots;
    map->capacity = capacity;
    return 0;
}

/* Set the value of key `a` (or `a b`). */
static int
map_set(Map *map, uint64_t hash, const char *a, size_t la, const char *b, size_t lb, double value)
{
    Slot *found = map_find(map, hash, a, la, b, lb);
    if (found != NULL) {
        found->value = value;
        return 0;
    }
    if ((map->count + 1) * 2 > map->capacity && map_grow(map) < 0)
        return -1;
    size_t length = b == NULL ? la : la + 1 + lb;
    if (map->arena_used + length > map->arena_capacity) {
        size_t capacity = map->arena_capacity;
        while (map->arena_used + length > capacity)
            capacity *= 2;
        char *arena = PyMem_Realloc(map->arena, capacity);
        if (arena == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        map->arena = arena;
        map->arena_capacity = capacity;
    }
    char *key = map->arena + map->arena_used;
    memcpy(key, a, la);
    if (b != NULL) {
        key[la] = ' ';
        memcpy(key + la + 1, b, lb);
    }
    size_t mask = map->capacity - 1, i = (size_t)hash & mask;
    while (map->slots[i].hash != 0)
        i = (i + 1) & mask;
    map->slots[i] = (Slot){hash, map->arena_used, length, value};
    map->arena_used += length;
    map->count++;
    return 0;
}

/* ------------------------------------------------------------------------- the Table */

#define PAIR_FILTER_BITS 18

typedef struct {
    PyObject_HEAD
    Map tokens; /* token -> its contribution (filled by the caller: Table.add) */
    Map pairs;  /* "first second" -> the pair's weight (from the constructor) */
    /* one bit per value of PAIR_FILTER_BITS bits of a pair's hash, set for the model's
     * pairs: a clear bit means the pair is not one (most pairs of a text are not), without
     * a probe of the pairs' table, which is too large to stay in the cache (32 KB against
     * about 1 MB) */
    uint64_t pair_filter[(1 << PAIR_FILTER_BITS) / 64];
} Table;

static inline size_t
pair_filter_bit(uint64_t hash)
{
    return (size_t)(hash >> (64 - PAIR_FILTER_BITS)); /* not the bits that pick the slot */
}

static void
table_dealloc(Table *self)
{
    map_free(&self->tokens);
    map_free(&self->pairs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The ASCII bytes of a str, or NULL with a TypeError. */
static const char *
ascii_bytes(PyObject *text, Py_ssize_t *length)
{
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_TypeError, "the kernel needs ASCII str");
        return NULL;
    }
    *length = PyUnicode_GET_LENGTH(text);
    return (const char *)PyUnicode_1BYTE_DATA(text);
}

static PyObject *
table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *pairs;
    static char *names[] = {"pairs", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!:Table", names, &PyDict_Type, &pairs))
        return NULL;
    Table *self = (Table *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    if (map_init(&self->tokens, 1024) < 0 || map_init(&self->pairs, 1024) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(pairs, &pos, &key, &value)) {
        Py_ssize_t la, lb;
        if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2) {
            PyErr_SetString(PyExc_TypeError, "Table(): pairs are keyed by (first, second)");
            Py_DECREF(self);
            return NULL;
        }
        PyObject *first = PyTuple_GET_ITEM(key, 0), *second = PyTuple_GET_ITEM(key, 1);
        if (PyUnicode_Check(first) && PyUnicode_Check(second) &&
            !(PyUnicode_IS_ASCII(first) && PyUnicode_IS_ASCII(second)))
            continue; /* never a pair of ASCII text */
        const char *a = ascii_bytes(first, &la);
        const char *b = a == NULL ? NULL : ascii_bytes(second, &lb);
        double weight = b == NULL ? -1.0 : PyFloat_AsDouble(value);
        if (b == NULL || (weight == -1.0 && PyErr_Occurred())) {
            Py_DECREF(self);
            return NULL;
        }
        uint64_t h = pair_hash(token_hash(a, la), token_hash(b, lb));
        if (map_set(&self->pairs, h, a, (size_t)la, b, (size_t)lb, weight) < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->pair_filter[pair_filter_bit(h) / 64] |= 1ULL << (pair_filter_bit(h) % 64);
    }
    return (PyObject *)self;
}

static PyObject *
table_add(Table *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "add() takes a token and its contribution");
        return NULL;
    }
    Py_ssize_t length;
    const char *token = ascii_bytes(args[0], &length);
    if (token == NULL)
        return NULL;
    double value = PyFloat_AsDouble(args[1]);
    if (value == -1.0 && PyErr_Occurred())
        return NULL;
    if (map_set(&self->tokens, token_hash(token, length), token, (size_t)length, NULL, 0, value) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
table_clear(Table *self, PyObject *unused)
{
    (void)unused;
    Map fresh;
    if (map_init(&fresh, 1024) < 0)
        return NULL;
    map_free(&self->tokens);
    self->tokens = fresh;
    Py_RETURN_NONE;
}

static Py_ssize_t
table_length(Table *self)
{
    return (Py_ssize_t)self->tokens.count;
}

static PyObject *
table_logit(Table *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "logit() takes 6 arguments");
        return NULL;
    }
    Py_ssize_t n;
    const char *s = ascii_bytes(args[0], &n);
    if (s == NULL)
        return NULL;
    double bias = PyFloat_AsDouble(args[1]);
    if (bias == -1.0 && PyErr_Occurred())
        return NULL;
    Py_ssize_t window = PyLong_AsSsize_t(args[2]), stride = PyLong_AsSsize_t(args[3]);
    Py_ssize_t head = PyLong_AsSsize_t(args[4]), tail = PyLong_AsSsize_t(args[5]);
    if (PyErr_Occurred())
        return NULL;
    if (window < 1 || stride < 1 || head < 0 || tail < 0) {
        PyErr_SetString(PyExc_ValueError, "logit(): bad window, stride, head or tail");
        return NULL;
    }
    Py_ssize_t n_all = 0;
    Span *spans = token_spans((const unsigned char *)s, n, &n_all);
    if (spans == NULL)
        return NULL;
    if (n_all == 0) {
        PyMem_Free(spans);
        return PyFloat_FromDouble(bias);
    }
    /* the head and the tail of a text of very many tokens (model.tokens()) */
    Py_ssize_t m = n_all;
    if (n_all > head + tail) { /* the kept spans, in order */
        memmove(spans + head, spans + n_all - tail, sizeof(Span) * (size_t)tail);
        m = head + tail;
    }

    PyObject *result = NULL, *missing = NULL;
    double *with_pairs = PyMem_Malloc(sizeof(double) * (size_t)m);
    uint64_t *hashes = PyMem_Malloc(sizeof(uint64_t) * (size_t)m);
    double *prefix = NULL;
    if (with_pairs == NULL || hashes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        const char *token = s + spans[j].start;
        size_t length = (size_t)spans[j].length;
        hashes[j] = token_hash(token, (Py_ssize_t)length);
        Slot *slot = map_find(&self->tokens, hashes[j], token, length, NULL, 0);
        if (slot != NULL) {
            with_pairs[j] = slot->value;
            continue;
        }
        /* not known yet: the caller computes it (Table.add) and asks again */
        if (missing == NULL && (missing = PyList_New(0)) == NULL)
            goto done;
        PyObject *text = PyUnicode_FromStringAndSize(token, (Py_ssize_t)length);
        if (text == NULL || PyList_Append(missing, text) < 0) {
            Py_XDECREF(text);
            goto done;
        }
        Py_DECREF(text);
    }
    if (missing != NULL) {
        result = Py_NewRef(missing);
        goto done;
    }
    /* each token plus the pair it starts (0.0 when the model has no such pair) */
    for (Py_ssize_t j = 0; j + 1 < m; j++) {
        uint64_t h = pair_hash(hashes[j], hashes[j + 1]);
        size_t bit = pair_filter_bit(h);
        Slot *slot = NULL;
        if (self->pair_filter[bit / 64] >> (bit % 64) & 1)
            slot = map_find(&self->pairs, h, s + spans[j].start, (size_t)spans[j].length,
                            s + spans[j + 1].start, (size_t)spans[j + 1].length);
        double pair = slot == NULL ? 0.0 : slot->value;
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
    Py_XDECREF(missing);
    PyMem_Free(with_pairs);
    PyMem_Free(hashes);
    PyMem_Free(prefix);
    PyMem_Free(spans);
    return result;
}

static PyMethodDef table_methods[] = {
    {"logit", (PyCFunction)(void (*)(void))table_logit, METH_FASTCALL,
     "logit(norm, bias, window, stride, head, tail): the logit of an ASCII text, or the "
     "list of its tokens not added yet."},
    {"add", (PyCFunction)(void (*)(void))table_add, METH_FASTCALL,
     "add(token, contribution): a token's contribution."},
    {"clear", (PyCFunction)table_clear, METH_NOARGS, "Forget every token (not the pairs)."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods table_sequence = {.sq_length = (lenfunc)table_length};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "monitor.scoring.injection._kernel.Table",
    .tp_basicsize = sizeof(Table),
    .tp_dealloc = (destructor)table_dealloc,
    .tp_as_sequence = &table_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Table(pairs): one model's token contributions and pair weights, by bytes.",
    .tp_methods = table_methods,
    .tp_new = table_new,
};

/* ascii_words(text) -> set[str]: evidence.tokens_of() of one ASCII text, the runs of
 * [A-Za-z0-9_'] and, of those with a quote, the run without its leading and trailing
 * quotes (an empty string for a run of quotes alone). */
static PyObject *
ascii_words(PyObject *module, PyObject *text)
{
    (void)module;
    Py_ssize_t n, i = 0;
    const unsigned char *s = (const unsigned char *)ascii_bytes(text, &n);
    if (s == NULL)
        return NULL;
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

/* Whether normalisation._SPACED,
 *     (?<!\w)\w(?:[ .\-_*+/|~,]\w){3,}(?!\w)
 * matches the ASCII text s[0:n] (lower-casing changes no class): one-character words
 * separated by one separator each, at least four, the first and the last not inside a
 * longer word. Linear: a run that fails has pure separators only among its first three, so
 * at most three later starts lie inside it. */
static int
has_spaced_run(const char *s, Py_ssize_t n)
{
#define WORD_AT(k) (char_class[(unsigned char)s[k]] == WORD)
    for (Py_ssize_t p = 0; p < n; p++) {
        if (!WORD_AT(p) || (p > 0 && WORD_AT(p - 1)))
            continue;
        Py_ssize_t k = 0, i = p + 1;
        while (i + 1 < n && is_separator[(unsigned char)s[i]] && WORD_AT(i + 1)) {
            k++;
            i += 2;
            if (k >= 3 && (i == n || !WORD_AT(i)))
                return 1;
        }
    }
#undef WORD_AT
    return 0;
}

static PyObject *
spaced_run(PyObject *module, PyObject *text)
{
    (void)module;
    Py_ssize_t n;
    const char *s = ascii_bytes(text, &n);
    if (s == NULL)
        return NULL;
    return PyBool_FromLong(has_spaced_run(s, n));
}

static int
contains(const char *s, Py_ssize_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (Py_ssize_t i = 0; i + (Py_ssize_t)m <= n; i++) {
        if (s[i] == needle[0] && memcmp(s + i, needle, m) == 0)
            return 1;
    }
    return 0;
}

/* copy_triggers(text, norm) -> bool: whether normalisation.copies() may make a copy of the
 * ASCII text beyond ``norm`` (normalise(text)); False: it makes none, exactly. A copy needs
 * one of: a line break in the text; a letter-spaced run (spaced_run); three separators
 * between lower-case letters in norm (_HYPHENATED); a letter next to a l33t character in
 * norm (_maybe_leet); a run of 16 base64 characters in the text (_maybe_b64); "rot13",
 * "rot-13", "rot 13", "revers" or "backward" in norm. */
static PyObject *
copy_triggers(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "copy_triggers() takes the text and its normal form");
        return NULL;
    }
    Py_ssize_t n, m;
    const char *text = ascii_bytes(args[0], &n);
    const char *norm = text == NULL ? NULL : ascii_bytes(args[1], &m);
    if (norm == NULL)
        return NULL;
    if (memchr(text, '\n', (size_t)n) != NULL || has_spaced_run(text, n))
        Py_RETURN_TRUE;
    Py_ssize_t run = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        run = b64_char[(unsigned char)text[i]] ? run + 1 : 0;
        if (run >= 16)
            Py_RETURN_TRUE;
    }
    int hyphens = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        unsigned char c = (unsigned char)norm[i];
        int lower = c >= 'a' && c <= 'z';
        if (i + 1 < m) {
            unsigned char next = (unsigned char)norm[i + 1];
            int next_lower = next >= 'a' && next <= 'z';
            if ((lower && leet_char[next]) || (leet_char[c] && next_lower))
                Py_RETURN_TRUE;
            int separator = c == '-' || c == '_' || c == '.' || c == '*';
            if (separator && next_lower && i > 0 && norm[i - 1] >= 'a' && norm[i - 1] <= 'z' &&
                ++hyphens >= 3)
                Py_RETURN_TRUE;
        }
    }
    static const char *const words[] = {"rot13", "rot-13", "rot 13", "revers", "backward"};
    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
        if (contains(norm, m, words[w]))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* Whether normalisation._LEET_TRIGGER,
 *     [013457@$](?:(?<=[a-z][013457@$])[013457@$]*[a-z]|(?<=[@$])(?<![\w][@$])(?=[a-z]))
 * matches the lower-case ASCII bytes s[0:n]: a l33t character after a letter and followed
 * by l33t characters then a letter, or "@" or "$" not after a word character and followed
 * by a letter. */
static int
has_leet_trigger(const char *s, Py_ssize_t n)
{
#define LOWER_AT(k) (s[k] >= 'a' && s[k] <= 'z')
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!leet_char[c])
            continue;
        if (i > 0 && LOWER_AT(i - 1)) {
            Py_ssize_t k = i + 1;
            while (k < n && leet_char[(unsigned char)s[k]])
                k++;
            if (k < n && LOWER_AT(k))
                return 1;
        }
        if ((c == '@' || c == '$') && (i == 0 || char_class[(unsigned char)s[i - 1]] != WORD) &&
            LOWER_AT(i + 1))
            return 1;
    }
#undef LOWER_AT
    return 0;
}

/* The text as ASCII bytes in a new buffer (*length set), each character beyond ASCII
 * written as its str value in ``typographic`` ({code point: ASCII str}); NULL when a
 * character is not there (with no error set) or when memory runs out (with one). */
static char *
typeset_ascii(PyObject *text, PyObject *typographic, Py_ssize_t *length)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), size = n, used = 0;
    char *out = PyMem_Malloc((size_t)size + 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 cp = PyUnicode_READ(kind, data, i);
        if (cp < 128 && used < size) { /* most characters: one byte, as it is */
            out[used++] = (char)cp;
            continue;
        }
        const char *to = (const char *)&cp;
        Py_ssize_t to_length = 1;
        char byte = (char)cp;
        if (cp < 128) {
            to = &byte;
        } else {
            PyObject *key = PyLong_FromUnsignedLong(cp);
            PyObject *value = key == NULL ? NULL : PyDict_GetItemWithError(typographic, key);
            Py_XDECREF(key);
            if (value == NULL || !PyUnicode_Check(value) || !PyUnicode_IS_ASCII(value)) {
                PyMem_Free(out);
                return NULL;
            }
            to = (const char *)PyUnicode_1BYTE_DATA(value);
            to_length = PyUnicode_GET_LENGTH(value);
        }
        if (used + to_length > size) {
            size = 2 * size + to_length;
            char *grown = PyMem_Realloc(out, (size_t)size + 1);
            if (grown == NULL) {
                PyMem_Free(out);
                PyErr_NoMemory();
                return NULL;
            }
            out = grown;
        }
        memcpy(out + used, to, (size_t)to_length);
        used += to_length;
    }
    *length = used;
    return out;
}

/* The ASCII bytes plain() and model_text() read: args[0] (a str) itself when it is ASCII,
 * else typeset_ascii() of it with args[1] (a dict) in a new buffer, *owned (the caller
 * frees it). NULL with an error set for bad arguments or no memory; NULL without one when
 * a character is not in the dict (the caller answers None). */
static const char *
ascii_text(const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t *n, char **owned)
{
    *owned = NULL;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str and a dict of code points", name);
        return NULL;
    }
    if (PyUnicode_IS_ASCII(args[0])) {
        *n = PyUnicode_GET_LENGTH(args[0]);
        return (const char *)PyUnicode_1BYTE_DATA(args[0]);
    }
    return *owned = typeset_ascii(args[0], args[1], n);
}

/* plain(text, typographic) -> (low, joined, b64) | None: normalisation.plain_bytes() of a
 * text whose characters beyond ASCII are all keys of ``typographic`` (its _TYPOGRAPHIC:
 * code point -> what normalise() reads) and that has none of the pre-check's triggers, in
 * one pass; None when it may have one, and plain_bytes() decides in Python: a control
 * byte, a letter-spaced run (spaced_run, looked for when the text has "_" or the spacing
 * classes "wswswsw"), "rot1", "rot-1", "rot" + whitespace + "13", or a l33t trigger in
 * ``joined`` (has_leet_trigger, when a letter and a l33t character are neighbours).
 * ``low`` is the text's bytes lower-cased, ``joined`` the same without the separators "-",
 * "_", "." and "*" between two lower-case letters (_HYPHENATED); ``b64``: the text has a
 * run of 16 base64 characters with both cases, when the result stands only if
 * _decoded_blobs() finds no text in it (a run of one case never decodes to text). */
static PyObject *
plain(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t n;
    char *typeset;
    const char *s = ascii_text("plain", args, nargs, &n, &typeset);
    if (s == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *low = PyBytes_FromStringAndSize(NULL, n), *joined = NULL;
    if (low == NULL)
        goto done;
    char *out = PyBytes_AS_STRING(low);
    /* branch-free over the bytes: the byte's flags, the spacing classes of the last seven
     * bytes two bits each, the last three bytes lower-cased */
    unsigned flags = 0, before = 0, b64_cases = 0, classes = 0, last3 = 0;
    Py_ssize_t b64_run = 0, separators = 0;
    int control = 0, b64 = 0, leet = 0, spacing = 0, rot = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        flags = plain_flags[c];
        control |= (flags & P_CONTROL) != 0;
        unsigned in_run = (flags & P_B64) != 0;
        b64_run = (b64_run + 1) & -(Py_ssize_t)in_run;
        b64_cases = (b64_cases & -in_run) | (flags & (P_UPPER | P_LOWER));
        b64 |= (b64_run >= 16) & (b64_cases == (P_UPPER | P_LOWER));
        classes = (classes << 2 | (flags & P_CLASS)) & 0x3fff;
        spacing |= (classes == SPACED_CLASSES) | ((flags & P_CLASS) == P_UNDERSCORE);
        leet |= ((before & P_LETTER) != 0) & ((flags & P_LEET) != 0);
        leet |= ((before & P_LEET) != 0) & ((flags & P_LETTER) != 0);
        separators += (flags & P_JOINS) != 0;
        out[i] = (char)(c | ((flags & P_UPPER) << 3)); /* P_UPPER << 3 == 32 */
        last3 = (last3 << 8 | (unsigned char)out[i]) & 0xffffff;
        rot |= last3 == ('r' << 16 | 'o' << 8 | 't');
        before = flags;
    }
    if (control || (spacing && has_spaced_run(s, n)))
        goto undecided;
    for (Py_ssize_t i = 0; rot && i + 2 < n; i++) {
        if (out[i] != 'r' || out[i + 1] != 'o' || out[i + 2] != 't')
            continue;
        Py_ssize_t k = i + 3;
        if (k < n && out[k] == '1')
            goto undecided;
        if (k + 1 < n && out[k] == '-' && out[k + 1] == '1')
            goto undecided;
        while (k < n && (out[k] == ' ' || (out[k] >= '\t' && out[k] <= '\r')))
            k++;
        if (k > i + 3 && k + 1 < n && out[k] == '1' && out[k + 1] == '3')
            goto undecided;
    }
#define LOWER_AT(k) (out[k] >= 'a' && out[k] <= 'z')
#define JOINS(i)                                                                              \
    ((plain_flags[(unsigned char)out[i]] & P_JOINS) && i > 0 && i + 1 < n && LOWER_AT(i - 1) && \
     LOWER_AT(i + 1))
    Py_ssize_t kept = n;
    for (Py_ssize_t i = 0; separators > 0 && i < n; i++)
        kept -= JOINS(i);
    if (kept == n) {
        joined = low;
        Py_INCREF(joined);
    } else {
        joined = PyBytes_FromStringAndSize(NULL, kept);
        if (joined == NULL)
            goto undecided;
        char *j = PyBytes_AS_STRING(joined);
        for (Py_ssize_t i = 0, w = 0; i < n; i++) {
            if (!JOINS(i))
                j[w++] = out[i];
        }
    }
#undef LOWER_AT
#undef JOINS
    if (leet && has_leet_trigger(PyBytes_AS_STRING(joined), PyBytes_GET_SIZE(joined)))
        goto undecided;
    PyMem_Free(typeset);
    return Py_BuildValue("(NNO)", low, joined, b64 ? Py_True : Py_False);
undecided:
    Py_CLEAR(low);
    Py_CLEAR(joined);
done:
    PyMem_Free(typeset);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* model_text(text, typeset) -> str | None: model.model_text() of a text whose characters
 * beyond ASCII are all keys of ``typeset`` (normalisation's _TYPESET: code point -> what
 * normalise() reads): those characters written so, lower-cased, control characters
 * (model._CONTROL: those below a space but tab, line feed and carriage return, and DEL)
 * left out; None for any other text. */
static PyObject *
model_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t n;
    char *typeset;
    const char *s = ascii_text("model_text", args, nargs, &n, &typeset);
    if (s == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        kept += !(plain_flags[(unsigned char)s[i]] & P_CONTROL);
    PyObject *out = PyUnicode_New(kept, 127);
    if (out != NULL) {
        Py_UCS1 *o = PyUnicode_1BYTE_DATA(out);
        for (Py_ssize_t i = 0, w = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            if (!(plain_flags[c] & P_CONTROL))
                o[w++] = (Py_UCS1)(c | ((plain_flags[c] & P_UPPER) << 3));
        }
    }
    PyMem_Free(typeset);
    return out;
}

static PyMethodDef methods[] = {
    {"ascii_words", ascii_words, METH_O, "evidence.tokens_of() of one ASCII text."},
    {"spaced_run", spaced_run, METH_O, "Whether normalisation._SPACED matches the ASCII text."},
    {"copy_triggers", (PyCFunction)(void (*)(void))copy_triggers, METH_FASTCALL,
     "Whether normalisation.copies() may copy the ASCII text beyond its normal form."},
    {"plain", (PyCFunction)(void (*)(void))plain, METH_FASTCALL,
     "normalisation.plain_bytes() of a text without the pre-check's triggers."},
    {"model_text", (PyCFunction)(void (*)(void))model_text, METH_FASTCALL,
     "model.model_text() of ASCII or typeset text."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "The injection detector's hot loops, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    init_classes();
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&kernel_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
