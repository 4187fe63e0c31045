"""The compiled tokens and trigrams (``monitor/scoring/_tokens.c``) are what
:mod:`monitor.scoring.tokens` computes in Python."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.scoring import tokens
from monitor.scoring.context_quality import redundancy_ngram
from monitor.scoring.grounding.analysis import clear_caches
from monitor.scoring.tokens import (
    GRAM_BYTES,
    python_tokens,
    shared_trigrams,
    tokenize,
    trigram_keys,
    trigram_set,
)

_KERNEL = tokens._KERNEL
# token characters, joiners (ASCII and U+2019), separators (ASCII, typeset, no-break space,
# a symbol lower-casing changes), and what the kernel leaves to Python: letters and digits
# beyond ASCII, capitals whose lower case differs in length (U+0130) or by context (sigma)
_PIECES = st.sampled_from(
    [*"aZ09_.,'-", *" \t\n!?:;()\"/", *"\u2019\u2018\u201c\u201d\u2014\u2013\u2026\u00b0\u00a0",
     *"\u24b6", *"\u00e9\u00c9\u0130\u03a3\u03c2\u2160\u0663", "Don", "t "]
)  # fmt: skip
_TEXT = st.lists(_PIECES, max_size=80).map("".join)


def _left_to_python(text: str) -> bool:
    return any(ord(c) > 127 and c != "\u2019" and (c.isalnum() or c.lower() != c) for c in text)


def test_the_tokens_kernel_is_built() -> None:
    """``make test`` builds it (see ``test_injection_kernel.test_the_kernel_is_built``)."""
    assert _KERNEL is not None


@settings(max_examples=1000, deadline=None)
@given(_TEXT)
def test_tokens_are_the_python_tokens(text: str) -> None:
    found = _KERNEL.tokens(text)
    if _left_to_python(text):
        assert found is None
    else:
        assert found == python_tokens(text)
        assert [type(t) for t in found] == [str] * len(found)
    assert tokenize(text) == python_tokens(text)


def test_a_token_with_a_typeset_apostrophe_is_lower_cased() -> None:
    assert tokenize("DON\u2019T Stop\u2019 x-Ray.") == ["don\u2019t", "stop", "x-ray"]


def test_real_prose_is_read_in_c() -> None:
    """pydoc_data passages (ASCII, or typeset quotes and dashes): every one in C, with the
    Python tokens, and a trigram record for each distinct trigram."""
    texts = [
        c["content"]
        for reuse in (True, False)
        for e in RealTextEvents(seed=11, size_kb=8, reuse=reuse).events(40)
        for c in e["chunks"]
    ]
    assert any(not t.isascii() for t in texts)
    for text in texts:
        found = _KERNEL.tokens(text)
        assert found == python_tokens(text)
        keys = trigram_keys(found)
        assert keys is not None and len(keys) // GRAM_BYTES == len(trigram_set(found))


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    with pytest.raises(TypeError):
        _KERNEL.tokens(b"bytes")
    with pytest.raises(TypeError):
        _KERNEL.trigram_keys(("a", "b", "c"))
    with pytest.raises(TypeError):
        _KERNEL.trigram_keys(["a", 1, "c"])


class _Colliding(str):
    """A token whose hash is one of two values: nearly every trigram key collides, so
    only the kernel's check of the tokens themselves keeps the counts exact."""

    def __hash__(self) -> int:
        return len(self) % 2


_WORDS = st.lists(st.sampled_from(["a", "b", "cc", "dd", "e"]), max_size=40)


def _set_overlap(a: list[str], b: list[str]) -> int:
    return len(trigram_set([str(t) for t in a]) & trigram_set([str(t) for t in b]))


@settings(max_examples=500, deadline=None)
@given(st.lists(_WORDS, max_size=6), st.booleans())
def test_shared_trigrams_count_the_common_trigrams(texts: list[list[str]], collide: bool) -> None:
    """Every pair, in order, with the count of the two sets' intersection."""
    if collide:
        texts = [[_Colliding(t) for t in words] for words in texts]
    keys = [trigram_keys(words) for words in texts]
    for words, k in zip(texts, keys, strict=True):
        assert k is not None and len(k) // GRAM_BYTES == len(trigram_set([str(t) for t in words]))
    pairs = [(i, j) for i in range(len(texts) - 1) for j in range(i + 1, len(texts))]
    expected = [_set_overlap(texts[i], texts[j]) for i, j in pairs]
    assert shared_trigrams(keys, texts) == expected  # type: ignore[arg-type]


def test_overlap_on_real_text_is_the_set_overlap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Context quality's n-gram redundancy of real 8 and 32 KB events, with and without
    the kernel's trigram keys (which it then does not make)."""
    events = [
        [c["content"] for c in e["chunks"]][:20]
        for reuse, kb in ((True, 8), (False, 8), (False, 32))
        for e in RealTextEvents(seed=kb + 1, size_kb=kb, reuse=reuse).events(12)
    ]
    with_keys = [redundancy_ngram(texts) for texts in events]
    clear_caches()  # the cached analyses hold keys
    monkeypatch.setattr(tokens, "_KERNEL", None)
    assert [redundancy_ngram(texts) for texts in events] == with_keys


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=6), st.booleans())
def test_distinct_tokens_is_the_size_of_the_union(texts: list[list[str]], collide: bool) -> None:
    """Equal tokens that are different objects, and different tokens of equal hashes."""
    if collide:
        texts = [[_Colliding(t) for t in words] for words in texts]
    texts += [[t.upper().lower() for t in words] for words in texts]  # equal, not identical
    assert _KERNEL.distinct_tokens(texts) == len(set().union(*texts))


def test_keys_must_belong_to_their_tokens() -> None:
    keys = trigram_keys(["a", "b", "c", "d"])
    assert keys is not None
    with pytest.raises(ValueError):
        shared_trigrams([keys, keys], [["a", "b"], ["a", "b", "c", "d"]])
    with pytest.raises(TypeError):
        shared_trigrams([b"short", keys], [["a"], ["a", "b", "c", "d"]])
    with pytest.raises(TypeError):
        shared_trigrams([keys], [])


def test_short_ascii_tokens_are_shared_and_the_table_refills() -> None:
    """The same short word is one str object across texts; 70,000 distinct words (more
    than the table keeps, so it is emptied and refilled) still come out as themselves."""
    first = _KERNEL.tokens("Alpha beta-gamma don\u2019t alpha")
    again = _KERNEL.tokens("ALPHA beta-gamma")
    assert first == ["alpha", "beta-gamma", "don\u2019t", "alpha"]
    assert first[0] is first[3] is again[0] and first[1] is again[1]
    words = [f"w{i:05d}x" for i in range(70_000)]
    for start in range(0, len(words), 7_000):
        text = " ".join(w.upper() for w in words[start : start + 7_000])
        assert _KERNEL.tokens(text) == words[start : start + 7_000]
    long = "y" * 200
    assert _KERNEL.tokens(f"{long} {long}") == [long, long]


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from([*"ab \t\n\x0b\x1c\x85\u00a0\u2003\u3000z\u00e9"]), max_size=30
    )
)
def test_word_count_is_the_split_count(text: str) -> None:
    assert _KERNEL.word_count(text) == len(text.split())
    assert tokens.word_count(text) == len(text.split())


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=30))
def test_term_counts_are_the_counter_of_the_terms(words: list[str]) -> None:
    """The same counts in the same order as Counter() without "" ("e" has no term), or
    False when a token is not in the table ("d")."""
    table = {"a": "x", "b": "y", "c": "x", "e": ""}
    counts: Counter[str] = Counter()
    found = _KERNEL.count_terms(counts, words, table)
    assert found == ("d" not in words)
    if found:
        expected = Counter(map(table.__getitem__, words))
        del expected[""]
        assert list(counts.items()) == list(expected.items())
    with pytest.raises(TypeError):
        _KERNEL.count_terms(counts, tuple(words), table)
