"""``verbatim`` / ``verbatim_context``: long runs of answer words copied from the context."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.hits import Hit, hit

try:  # the runs of a words view in C (_verbatim.c, built by setup.py)
    from monitor.scoring.leakage import _verbatim as _KERNEL
except ImportError:  # pragma: no cover - built wherever the tests run
    _KERNEL = None  # type: ignore[assignment]

__all__ = ["MIN_VERBATIM_WORDS", "VERBATIM_GRAM", "find_verbatim", "words_view"]

#: A contiguous run of this many answer words found in the context is a verbatim leak.
MIN_VERBATIM_WORDS: Final = 40
#: Word n-gram size used to find and chain verbatim runs.
VERBATIM_GRAM: Final = 8

_WORD = re.compile(r"[^\W_]+")
_SEPARATORS = re.compile(r"[\W_]*+")
#: ASCII: letters lower-cased, digits kept, everything else a space.
_ASCII_WORDS: Final = bytes(
    c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256)
)
_ASCII_BYTES: Final = bytes(range(128))
_SPACES = re.compile(rb" *+")


def _seed_ascii(seed: list[bytes], ctx: bytes) -> bool | None:
    """Whether ``ctx`` (ASCII words lower-cased, everything else a space) contains
    ``seed`` as consecutive words, found from the occurrences of its longest word; ``None``
    when that word is too frequent to check cheaply."""
    word = max(seed, key=len)
    p = ctx.find(word)
    if p < 0:
        return False
    a = seed.index(word)
    n = len(ctx)
    seen = 0
    while p >= 0:
        seen += 1
        if seen > 8:
            return None
        end = p + len(word)
        if (p == 0 or ctx[p - 1] == 32) and (end == n or ctx[end] == 32):
            pos, ok = end, True
            for nxt in seed[a + 1 :]:  # following words, across any separators
                q = _SPACES.match(ctx, pos)
                q_end = q.end() if q else pos
                pos = q_end + len(nxt)
                if not ctx.startswith(nxt, q_end) or (pos < n and ctx[pos] != 32):
                    ok = False
                    break
            pos = p
            for prev in reversed(seed[:a]) if ok else ():  # preceding words
                lo = max(0, pos - 256)
                head = ctx[lo:pos].rstrip(b" ")
                if lo > 0 and len(head) < len(prev):
                    return None  # a very long gap or word: let the exact pass decide
                pos = lo + len(head) - len(prev)
                if not head.endswith(prev) or (pos > 0 and ctx[pos - 1] != 32):
                    ok = False
                    break
            if ok:
                return True
        p = ctx.find(word, p + 1)
    return False


def _seed_unicode(seed: list[str], ctx: str) -> bool | None:
    """:func:`_seed_ascii` for any text; ``ctx`` is the lower-cased context."""
    word = max(seed, key=len)
    p = ctx.find(word)
    if p < 0:
        return False
    a = seed.index(word)
    seen = 0
    while p >= 0:
        seen += 1
        if seen > 8:
            return None
        end = p + len(word)
        if not alnum_at(ctx, p - 1) and not alnum_at(ctx, end):
            pos, ok = end, True
            for nxt in seed[a + 1 :]:
                q = _SEPARATORS.match(ctx, pos)
                q_end = q.end() if q else pos
                pos = q_end + len(nxt)
                if not ctx.startswith(nxt, q_end) or alnum_at(ctx, pos):
                    ok = False
                    break
            pos = p
            for prev in reversed(seed[:a]) if ok else ():
                lo = max(0, pos - 256)
                i = pos - lo
                while i > 0 and not ctx[lo + i - 1].isalnum():
                    i -= 1
                if lo > 0 and i < len(prev):
                    return None  # a very long gap or word: let the exact pass decide
                pos = lo + i - len(prev)
                if pos < 0 or not ctx.startswith(prev, pos) or alnum_at(ctx, pos - 1):
                    ok = False
                    break
            if ok:
                return True
        p = ctx.find(word, p + 1)
    return False


def _grams(words: Sequence[object]) -> Iterator[tuple[object, ...]]:
    return zip(*(words[j:] for j in range(VERBATIM_GRAM)), strict=False)


_IN_ANSWER_RUN = re.compile(rb"\x01{%d,}" % VERBATIM_GRAM)


def _context_grams(
    answer: Sequence[object], ctx_words: Sequence[object]
) -> set[tuple[object, ...]]:
    """The context's VERBATIM_GRAM-grams that can be answer grams: those whose every word
    is an answer word (the others cannot match one, and building them was most of the cost
    on a long context)."""
    in_answer = bytes(map(set(answer).__contains__, ctx_words))
    grams: set[tuple[object, ...]] = set()
    for run in _IN_ANSWER_RUN.finditer(in_answer):
        grams.update(_grams(ctx_words[run.start() : run.end()]))
    return grams


def _copied_runs(answer: Sequence[object], ctx_words: Sequence[object]) -> list[tuple[int, int]]:
    """``[first, last]`` answer word indices of runs of at least MIN_VERBATIM_WORDS words
    whose every VERBATIM_GRAM-gram occurs in ``ctx_words``; runs that overlap are merged,
    so the runs are disjoint and ascending."""
    k = VERBATIM_GRAM
    grams = _context_grams(answer, ctx_words)
    hits = [g in grams for g in _grams(answer)]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(hits):
        if not hits[i]:
            i += 1
            continue
        j = i
        while j < len(hits) and hits[j]:
            j += 1
        last = j - 1 + k - 1
        if last - i + 1 >= MIN_VERBATIM_WORDS:
            if runs and i <= runs[-1][1]:  # two copied runs that share words: one finding
                runs[-1] = (runs[-1][0], last)
            else:
                runs.append((i, last))
        i = j
    return runs


def words_view(text: str) -> bytes | None:
    """``text`` one byte per character: ASCII letters lower-cased, digits kept, everything
    else a space; so its words (``split()``) are those of :data:`_WORD`, lower-cased. None
    when a character beyond ASCII is a letter or a digit (a word character that this view
    would split at). Typeset prose qualifies: its quotes and dashes are not word characters.

    >>> words_view("Don\u2019t  STOP-2")
    b'don t  stop 2'
    >>> words_view("caf\u00e9") is None
    True
    """
    if text.isascii():
        return text.encode().translate(_ASCII_WORDS)
    beyond = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    if any(map(str.isalnum, set(beyond.decode("utf-8", "surrogatepass")))):
        return None
    return text.encode("ascii", "replace").translate(_ASCII_WORDS)  # "?": not a word


def _runs_of_views(words_b: list[bytes], ctx_b: bytes) -> list[tuple[int, int]]:
    """:func:`_copied_runs` of the words of :func:`words_view`, once a seed of them is found
    in the context's view (none found: no runs)."""
    k = VERBATIM_GRAM
    norm_b = b""  # the normalised context, built only for a frequent seed word
    for i in range(0, len(words_b) - k + 1, MIN_VERBATIM_WORDS - k + 1):
        seed_b = words_b[i : i + k]
        found = _seed_ascii(seed_b, ctx_b) if not norm_b else None
        if found is None:
            norm_b = norm_b or b" " + b" ".join(ctx_b.split()) + b" "
            found = b" " + b" ".join(seed_b) + b" " in norm_b
        if found:
            return _copied_runs_of_view(words_b, ctx_b)
    return []


def _copied_runs_of_view(words_b: list[bytes], ctx_b: bytes) -> list[tuple[int, int]]:
    """``_copied_runs(words_b, ctx_b.split())``, in C where it is built (no word object
    per context word).

    >>> ctx = b"  ".join([b"x y", b" ".join(b"w%d" % i for i in range(45)), b"z"])
    >>> words = [b"a", *(b"w%d" % i for i in range(45)), b"b"]
    >>> _copied_runs_of_view(words, ctx) == _copied_runs(words, ctx.split()) == [(1, 45)]
    True
    """
    if _KERNEL is None:
        return _copied_runs(words_b, ctx_b.split())
    return _KERNEL.copied_runs(words_b, ctx_b, VERBATIM_GRAM, MIN_VERBATIM_WORDS)


def _runs_of_text(text: str, context: str) -> list[tuple[int, int]]:
    """:func:`_runs_of_views` for any text (slower)."""
    k = VERBATIM_GRAM
    words = " ".join(_WORD.findall(text)).lower().split()
    if len(words) < MIN_VERBATIM_WORDS:
        return []
    ctx_lower = context.lower()
    norm = ""
    for i in range(0, len(words) - k + 1, MIN_VERBATIM_WORDS - k + 1):
        seed = words[i : i + k]
        found = _seed_unicode(seed, ctx_lower) if not norm else None
        if found is None:
            norm = norm or " " + " ".join(_WORD.findall(context)).lower() + " "
            found = " " + " ".join(seed) + " " in norm
        if found:
            return _copied_runs(words, " ".join(_WORD.findall(context)).lower().split())
    return []


def find_verbatim(text: str, context: str, out: list[Hit]) -> None:
    if not context:
        return
    text_b = words_view(text)
    if text_b is None:
        runs = _runs_of_text(text, context)
    else:
        words_b = text_b.split()
        if len(words_b) < MIN_VERBATIM_WORDS:
            return  # a short answer (the common case): too few words for a verbatim run
        ctx_b = words_view(context)
        runs = _runs_of_text(text, context) if ctx_b is None else _runs_of_views(words_b, ctx_b)
    words_iter = _WORD.finditer(text)
    at = 0  # index of the next word of words_iter
    for first, last in runs:
        first_word = next(islice(words_iter, first - at, None))
        last_word = next(islice(words_iter, last - first - 1, None)) if last > first else first_word
        start, end = first_word.start(), last_word.end()
        at = last + 1
        out.append(hit(start, end, "verbatim", "verbatim_context"))
