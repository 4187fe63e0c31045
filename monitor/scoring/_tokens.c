/* The 003 scorers' tokens and their word trigrams (monitor/scoring/tokens.py), in C. Each
 * function gives exactly what its Python version gives:
 *
 * - tokens(text): tokenize(text), _TOKEN.findall(text.lower()) with
 *   _TOKEN = [^\W_]+(?:[.,'’-][^\W_]+)*: a token is a run of [A-Za-z0-9], extended over one
 *   of . , ' - ’ while another run follows. Texts whose characters beyond ASCII are all
 *   separators that lower-casing keeps (typeset quotes, dashes, ellipses, ...: real prose)
 *   are read here; for any other text it returns None and Python tokenises it;
 * - trigram_keys(tokens) and shared_trigrams(...): how many distinct word trigrams each
 *   pair of an event's texts shares, len(tokens.trigram_set(a) & tokens.trigram_set(b)),
 *   from compact sorted records instead of sets of strings (see Gram);
 * - distinct_tokens(token_lists): len(set().union(*token_lists)), context quality's
 *   unique token ratio, without building the set;
 * - word_count(text): len(text.split()), the event's context size in words;
 * - count_terms(counts, tokens, table): a text's content-term Counter from the term memo.
 *
 * Built by setup.py as monitor.scoring._tokens (optional: tokens.py falls back to Python). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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

/* Short ASCII tokens are shared: the same word in any text is one str object, found in a
 * table by its bytes (no allocation, and its str hash, once computed, serves every later
 * set and dict lookup of it). Open addressing over INTERN_SLOTS slots; when half of them
 * are used the table is emptied and fills again. A token's value never depends on it.
 * The slot comes from FNV-1a started at a key of the process (its str hash secret, as
 * every dict's) and mixed: tokens crafted to share a slot, which would make each look-up
 * walk all of them, cannot be computed ahead. */
enum { INTERN_SLOTS = 1 << 16, INTERN_MAX_CHARS = 24 };

static uint64_t intern_key; /* set by PyInit__tokens */

typedef struct {
    uint64_t hash;
    PyObject *token; /* NULL: a free slot */
} Interned;

static Interned *interned;
static Py_ssize_t interned_count;

static void
clear_interned(void)
{
    for (Py_ssize_t k = 0; interned != NULL && k < INTERN_SLOTS; k++)
        Py_CLEAR(interned[k].token);
    interned_count = 0;
}

/* The shared str of the lower-cased ASCII bytes s[0:n] (n <= INTERN_MAX_CHARS), a new
 * reference; NULL with an error set when memory runs out. */
static PyObject *
interned_token(const char *s, Py_ssize_t n)
{
    if (interned == NULL) {
        interned = PyMem_Calloc(INTERN_SLOTS, sizeof(Interned));
        if (interned == NULL)
            return PyErr_NoMemory();
    }
    uint64_t hash = intern_key; /* FNV-1a from the key, then murmur3's final mix */
    for (Py_ssize_t i = 0; i < n; i++)
        hash = (hash ^ (unsigned char)s[i]) * 1099511628211ULL;
    hash = (hash ^ (hash >> 33)) * 0xff51afd7ed558ccdULL;
    hash = (hash ^ (hash >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    hash ^= hash >> 33;
    size_t slot = (size_t)hash & (INTERN_SLOTS - 1);
    for (;; slot = (slot + 1) & (INTERN_SLOTS - 1)) {
        Interned *at = &interned[slot];
        if (at->token == NULL)
            break;
        if (at->hash == hash && PyUnicode_GET_LENGTH(at->token) == n &&
            memcmp(PyUnicode_1BYTE_DATA(at->token), s, (size_t)n) == 0) {
            Py_INCREF(at->token);
            return at->token;
        }
    }
    PyObject *token = PyUnicode_New(n, 127);
    if (token == NULL)
        return NULL;
    memcpy(PyUnicode_1BYTE_DATA(token), s, (size_t)n);
    if (interned_count >= INTERN_SLOTS / 2) {
        clear_interned(); /* the slot found above is free in an empty table too */
    }
    interned[slot].hash = hash;
    interned[slot].token = token;
    interned_count++;
    Py_INCREF(token);
    return token;
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
        PyObject *token;
        if (ascii && i - start <= INTERN_MAX_CHARS) { /* ASCII: class 1 and its joiners */
            char low[INTERN_MAX_CHARS];
            for (Py_ssize_t k = 0; k < i - start; k++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, start + k);
                low[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            }
            token = interned_token(low, i - start);
        }
        else {
            token = lowered(kind, data, start, i, ascii);
        }
        if (token == NULL || PyList_Append(out, token) < 0) {
            Py_XDECREF(token);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(token);
    }
    return out;
}

/* Trigram keys: the distinct word trigrams of a token list as sorted 16-byte records
 * (a 64-bit key mixed from the three tokens' str hashes, the position of the trigram's
 * first token, padding), one record per distinct trigram. Two texts share a trigram when
 * their records have equal keys and the three tokens are equal strings, which is checked:
 * a collision of keys never counts, so the count is exact. */
typedef struct {
    uint64_t key;
    uint32_t pos;
    uint32_t pad;
} Gram;

static inline int
gram_less(const Gram *a, const Gram *b)
{
    return a->key < b->key || (a->key == b->key && a->pos < b->pos);
}

/* Sort records by (key, pos), which are distinct: any correct sort gives the same order.
 * Quicksort (median of three) down to runs of 16, then insertion sort: inlined, about
 * three times quicker than qsort() and its comparison calls on a chunk's records. */
static void
sort_grams(Gram *g, Py_ssize_t n)
{
    while (n > 16) {
        Py_ssize_t mid = n / 2;
        if (gram_less(&g[mid], &g[0])) { Gram t = g[mid]; g[mid] = g[0]; g[0] = t; }
        if (gram_less(&g[n - 1], &g[0])) { Gram t = g[n - 1]; g[n - 1] = g[0]; g[0] = t; }
        if (gram_less(&g[n - 1], &g[mid])) { Gram t = g[n - 1]; g[n - 1] = g[mid]; g[mid] = t; }
        Gram pivot = g[mid];
        Py_ssize_t i = 0, j = n - 1;
        for (;;) {
            while (gram_less(&g[i], &pivot))
                i++;
            while (gram_less(&pivot, &g[j]))
                j--;
            if (i >= j)
                break;
            Gram t = g[i]; g[i] = g[j]; g[j] = t;
            i++;
            j--;
        }
        /* g[0..j] <= pivot <= g[j+1..n-1]: recurse into the smaller part, loop on the other */
        if (j + 1 < n - j - 1) {
            sort_grams(g, j + 1);
            g += j + 1;
            n -= j + 1;
        }
        else {
            sort_grams(g + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        Gram x = g[i];
        Py_ssize_t j = i;
        for (; j > 0 && gram_less(&x, &g[j - 1]); j--)
            g[j] = g[j - 1];
        g[j] = x;
    }
}

/* Whether the trigrams at ta[i] and tb[j] are the same strings: 1, 0, or -1 (error). */
static int
same_gram(PyObject *ta, Py_ssize_t i, PyObject *tb, Py_ssize_t j)
{
    for (int k = 0; k < 3; k++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(ta, i + k), PyList_GET_ITEM(tb, j + k),
                                          Py_EQ);
        if (eq <= 0)
            return eq;
    }
    return 1;
}

static int
token_list(PyObject *tokens)
{
    if (!PyList_Check(tokens)) {
        PyErr_SetString(PyExc_TypeError, "tokens must be a list of str");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tokens); k++) {
        if (!PyUnicode_Check(PyList_GET_ITEM(tokens, k))) {
            PyErr_SetString(PyExc_TypeError, "tokens must be a list of str");
            return -1;
        }
    }
    return 0;
}

/* trigram_keys(tokens) -> bytes: the records of tokens' distinct trigrams (see Gram). */
static PyObject *
trigram_keys(PyObject *module, PyObject *tokens)
{
    (void)module;
    if (token_list(tokens) < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(tokens), m = n > 2 ? n - 2 : 0;
    if (n > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many tokens");
        return NULL;
    }
    Gram *grams = PyMem_Malloc((size_t)(m ? m : 1) * sizeof(Gram));
    if (grams == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t k = 0; k < m; k++) {
        uint64_t h[3];
        for (int j = 0; j < 3; j++) {
            Py_hash_t hash = PyObject_Hash(PyList_GET_ITEM(tokens, k + j));
            if (hash == -1) {
                PyMem_Free(grams);
                return NULL;
            }
            h[j] = (uint64_t)hash;
        }
        uint64_t key = h[0] * 0x9E3779B97F4A7C15ULL;
        key = (key ^ (key >> 29) ^ h[1]) * 0xBF58476D1CE4E5B9ULL;
        key = (key ^ (key >> 32) ^ h[2]) * 0x94D049BB133111EBULL;
        grams[k] = (Gram){.key = key ^ (key >> 31), .pos = (uint32_t)k, .pad = 0};
    }
    sort_grams(grams, m);
    Py_ssize_t kept = 0;
    for (Py_ssize_t k = 0; k < m; k++) {
        /* a repeat of a trigram kept already (the kept records of this key precede it) */
        int repeat = 0;
        for (Py_ssize_t j = kept - 1; j >= 0 && grams[j].key == grams[k].key; j--) {
            int same = same_gram(tokens, grams[j].pos, tokens, grams[k].pos);
            if (same < 0) {
                PyMem_Free(grams);
                return NULL;
            }
            if (same) {
                repeat = 1;
                break;
            }
        }
        if (!repeat)
            grams[kept++] = grams[k];
    }
    PyObject *out = PyBytes_FromStringAndSize((const char *)grams, kept * (Py_ssize_t)sizeof(Gram));
    PyMem_Free(grams);
    return out;
}

static const Gram *
grams_of(PyObject *keys, PyObject *tokens, Py_ssize_t *count)
{
    if (!PyBytes_Check(keys) || PyBytes_GET_SIZE(keys) % (Py_ssize_t)sizeof(Gram)) {
        PyErr_SetString(PyExc_TypeError, "keys must be trigram_keys() bytes");
        return NULL;
    }
    if (token_list(tokens) < 0)
        return NULL;
    const Gram *grams = (const Gram *)PyBytes_AS_STRING(keys);
    *count = PyBytes_GET_SIZE(keys) / (Py_ssize_t)sizeof(Gram);
    for (Py_ssize_t k = 0; k < *count; k++) {
        if ((Py_ssize_t)grams[k].pos + 2 >= PyList_GET_SIZE(tokens)) {
            PyErr_SetString(PyExc_ValueError, "keys do not belong to these tokens");
            return NULL;
        }
    }
    return grams;
}

/* One record in shared_trigrams()'s table of an event's records (text UINT32_MAX: empty). */
typedef struct {
    uint64_t key;
    uint32_t text, pos;
} Kept;

/* shared_trigrams(keys, tokens) -> list[int]: for texts whose trigram_keys() are keys[i]
 * and tokens tokens[i], how many distinct trigrams each pair (i, j), i < j, shares
 * (len(G(i) & G(j))), pairs in order: (0, 1), (0, 2), ..., (n - 2, n - 1). Every record
 * goes once into one table of the event's records, where it meets the records of the
 * texts before it with its key (a text's records are distinct trigrams, so each shared
 * trigram is counted once per pair), instead of one merge of two texts' records per pair. */
static PyObject *
shared_trigrams(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyList_Check(args[0]) || !PyList_Check(args[1])
        || PyList_GET_SIZE(args[0]) != PyList_GET_SIZE(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shared_trigrams(keys: list, tokens: list), as long");
        return NULL;
    }
    PyObject *keys = args[0], *tokens = args[1];
    Py_ssize_t n = PyList_GET_SIZE(keys), records = 0, count = 0;
    if (n >= (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many texts");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (grams_of(PyList_GET_ITEM(keys, i), PyList_GET_ITEM(tokens, i), &count) == NULL)
            return NULL;
        records += count;
    }
    Py_ssize_t capacity = 16, n_pairs = n * (n - 1) / 2;
    while (capacity < 2 * records)
        capacity *= 2;
    Kept *table = PyMem_Malloc(sizeof(Kept) * (size_t)capacity);
    Py_ssize_t *common = PyMem_Calloc((size_t)(n_pairs ? n_pairs : 1), sizeof(Py_ssize_t));
    PyObject *result = NULL;
    if (table == NULL || common == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t s = 0; s < capacity; s++)
        table[s].text = UINT32_MAX;
    size_t mask = (size_t)capacity - 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *mine = PyList_GET_ITEM(tokens, i);
        const Gram *grams = grams_of(PyList_GET_ITEM(keys, i), mine, &count);
        /* read again, not kept from above: same_gram()'s comparisons may run a str
         * subclass's __eq__, which could change the lists */
        if (grams == NULL)
            goto done;
        for (Py_ssize_t k = 0; k < count; k++) {
            size_t s = (size_t)grams[k].key & mask;
            for (; table[s].text != UINT32_MAX; s = (s + 1) & mask) {
                Kept *other = &table[s];
                if (other->key != grams[k].key || other->text == (uint32_t)i)
                    continue;
                int same = same_gram(PyList_GET_ITEM(tokens, other->text), other->pos, mine,
                                     grams[k].pos);
                if (same < 0)
                    goto done;
                Py_ssize_t t = other->text;
                common[t * n - t * (t + 1) / 2 + i - t - 1] += same;
            }
            table[s] = (Kept){.key = grams[k].key, .text = (uint32_t)i, .pos = grams[k].pos};
        }
    }
    result = PyList_New(n_pairs);
    for (Py_ssize_t p = 0; result != NULL && p < n_pairs; p++) {
        PyObject *value = PyLong_FromSsize_t(common[p]);
        if (value == NULL)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, p, value);
    }
done:
    PyMem_Free(table);
    PyMem_Free(common);
    return result;
}

/* distinct_tokens(token_lists) -> int: len(set().union(*token_lists)) for lists of str,
 * from one open-addressing table of the tokens' hashes (kept by str) and the tokens,
 * compared by identity first (short tokens are shared objects) and then by value. */
static PyObject *
distinct_tokens(PyObject *module, PyObject *lists)
{
    (void)module;
    if (!PyList_Check(lists)) {
        PyErr_SetString(PyExc_TypeError, "distinct_tokens() needs a list of token lists");
        return NULL;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lists); i++) {
        if (token_list(PyList_GET_ITEM(lists, i)) < 0)
            return NULL;
        total += PyList_GET_SIZE(PyList_GET_ITEM(lists, i));
    }
    size_t capacity = 16;
    while (capacity < 2 * (size_t)total)
        capacity *= 2;
    PyObject **slots = PyMem_Calloc(capacity, sizeof(PyObject *));
    if (slots == NULL)
        return PyErr_NoMemory();
    Py_ssize_t distinct = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lists); i++) {
        PyObject *tokens = PyList_GET_ITEM(lists, i);
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tokens); k++) {
            PyObject *token = PyList_GET_ITEM(tokens, k);
            Py_hash_t hash = PyObject_Hash(token);
            if (hash == -1)
                goto error;
            size_t at = (size_t)hash & (capacity - 1);
            for (; slots[at] != NULL; at = (at + 1) & (capacity - 1)) {
                if (slots[at] == token)
                    break;
                if (PyObject_Hash(slots[at]) == hash) {
                    int eq = PyObject_RichCompareBool(slots[at], token, Py_EQ);
                    if (eq < 0)
                        goto error;
                    if (eq)
                        break;
                }
            }
            if (slots[at] == NULL) {
                slots[at] = token;
                distinct++;
            }
        }
    }
    PyMem_Free(slots);
    return PyLong_FromSsize_t(distinct);
error:
    PyMem_Free(slots);
    return NULL;
}

/* word_count(text) -> int: len(text.split()), the runs of characters that are not
 * whitespace (Py_UNICODE_ISSPACE, the test str.split() makes), without building them. */
static PyObject *
word_count(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "word_count() needs a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), words = 0;
    int in_word = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int space = Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i));
        words += !space && !in_word;
        in_word = !space;
    }
    return PyLong_FromSsize_t(words);
}

/* count_terms(counts, tokens, table) -> bool: add to the dict ``counts`` how
 * often each term occurs, the term of a token being table[token], "" for none (not
 * counted): Counter(map(table.__getitem__, tokens)) without "", in the same order.
 * False, with ``counts`` partly filled, when a token is not in ``table``. */
static PyObject *
count_terms(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyDict_Check(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "count_terms(counts: dict, tokens: list, table: dict)");
        return NULL;
    }
    PyObject *counts = args[0], *tokens = args[1], *table = args[2];
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tokens); k++) {
        PyObject *term = PyDict_GetItemWithError(table, PyList_GET_ITEM(tokens, k));
        if (term == NULL) {
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_FALSE;
        }
        if (!PyUnicode_Check(term)) {
            PyErr_SetString(PyExc_TypeError, "a term must be a str");
            return NULL;
        }
        if (PyUnicode_GET_LENGTH(term) == 0)
            continue;
        PyObject *seen = PyDict_GetItemWithError(counts, term);
        if (seen == NULL && PyErr_Occurred())
            return NULL;
        Py_ssize_t n = seen == NULL ? 0 : PyLong_AsSsize_t(seen);
        if (n == -1 && PyErr_Occurred())
            return NULL;
        PyObject *more = PyLong_FromSsize_t(n + 1);
        int failed = more == NULL || PyDict_SetItem(counts, term, more) < 0;
        Py_XDECREF(more);
        if (failed)
            return NULL;
    }
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"tokens", tokens, METH_O, "tokens.tokenize() of a text, or None (left to Python)."},
    {"trigram_keys", trigram_keys, METH_O, "The sorted records of a token list's trigrams."},
    {"shared_trigrams", (PyCFunction)(void (*)(void))shared_trigrams, METH_FASTCALL,
     "How many distinct trigrams each pair of texts shares (keys and tokens of each)."},
    {"distinct_tokens", distinct_tokens, METH_O, "len(set().union(*token_lists))."},
    {"word_count", word_count, METH_O, "len(text.split()), without the words."},
    {"count_terms", (PyCFunction)(void (*)(void))count_terms, METH_FASTCALL,
     "Count the terms of tokens (from a memo table) into a Counter."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef tokens_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tokens",
    .m_doc = "The 003 scorers' tokens and trigram records, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__tokens(void)
{
    init_classes();
    intern_key = (uint64_t)_Py_HashBytes("monitor.scoring._tokens", 23) ^ 1469598103934665603ULL;
    return PyModule_Create(&tokens_module);
}
