"""The compiled verbatim runs (``monitor/scoring/leakage/_verbatim.c``) are what
:func:`monitor.scoring.leakage.verbatim._copied_runs` finds in Python."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.scoring.leakage import verbatim
from monitor.scoring.leakage.verbatim import (
    MIN_VERBATIM_WORDS,
    VERBATIM_GRAM,
    _copied_runs,
    words_view,
)

_KERNEL = verbatim._KERNEL
# few distinct words, so that grams repeat and runs form; whitespace of every kind
_WORD = st.sampled_from([b"a", b"b", b"c", b"dd", b"e1", b""])
_WORDS = st.lists(_WORD, max_size=120)
_SPACES = st.sampled_from([b" ", b"  ", b"\t", b"\n", b"\r\n", b"\x0b", b"\x0c"])


def _runs(answer: list[bytes], context: bytes, gram: int, min_words: int) -> object:
    assert _KERNEL is not None
    return _KERNEL.copied_runs(answer, context, gram, min_words)


def _python(answer: list[bytes], words: list[bytes], min_words: int) -> object:
    before = verbatim.MIN_VERBATIM_WORDS
    verbatim.MIN_VERBATIM_WORDS = min_words  # type: ignore[misc]
    try:
        return _copied_runs(answer, words)
    finally:
        verbatim.MIN_VERBATIM_WORDS = before  # type: ignore[misc]


def test_the_verbatim_kernel_is_built() -> None:
    assert _KERNEL is not None


@settings(max_examples=2000, deadline=None)
@given(
    answer=st.lists(_WORD, min_size=VERBATIM_GRAM, max_size=120),
    pieces=st.lists(
        st.tuples(_SPACES, st.integers(0, 120), st.integers(0, 60), _WORDS), max_size=6
    ),
    min_words=st.sampled_from([0, 1, VERBATIM_GRAM, VERBATIM_GRAM + 3, 20, MIN_VERBATIM_WORDS]),
)
def test_same_runs_as_python(
    answer: list[bytes], pieces: list[tuple[bytes, int, int, list[bytes]]], min_words: int
) -> None:
    """Contexts of slices of the answer (copied runs) and other words, any whitespace."""
    answer = [w for w in answer if w]  # the answer's words come from split(): never empty
    text = b"".join(
        space + b" ".join([*answer[start : start + length], *other])
        for space, start, length, other in pieces
    )
    found = _runs(answer, text, VERBATIM_GRAM, min_words)
    assert found == _python(answer, text.split(), min_words)


def test_same_runs_on_real_answers() -> None:
    """The answers of the real-text events quote their first chunk: long runs, found."""
    found = 0
    for event in RealTextEvents(seed=11, size_kb=8, reuse=False).events(200):
        answer = words_view(event["response"]["text"])
        context = words_view("\n\n".join(c["content"] for c in event["chunks"]))
        assert answer is not None and context is not None
        words = answer.split()
        expected = _copied_runs(words, context.split())
        assert _runs(words, context, VERBATIM_GRAM, MIN_VERBATIM_WORDS) == expected
        found += bool(expected)
    assert found > 20


def test_bad_arguments_raise() -> None:
    with pytest.raises(TypeError):
        _runs(["a"], b"a", 8, 40)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        _runs([b"a"], "a", 8, 40)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _runs([b"a"], b"a", 0, 40)
