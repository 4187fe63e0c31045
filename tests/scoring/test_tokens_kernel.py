"""The compiled tokens and trigrams (``monitor/scoring/_tokens.c``) are what
:mod:`monitor.scoring.tokens` computes in Python."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.scoring import tokens
from monitor.scoring.tokens import python_tokens, tokenize, trigram_set

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


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_trigrams_are_the_python_trigrams(text: str) -> None:
    t = python_tokens(text)
    assert _KERNEL.trigrams(t) == frozenset(map(" ".join, zip(t, t[1:], t[2:], strict=False)))


def test_a_token_with_a_typeset_apostrophe_is_lower_cased() -> None:
    assert tokenize("DON\u2019T Stop\u2019 x-Ray.") == ["don\u2019t", "stop", "x-ray"]


def test_real_prose_is_read_in_c() -> None:
    """pydoc_data passages (ASCII, or typeset quotes and dashes): every one in C, with the
    Python tokens and trigrams."""
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
        assert trigram_set(found) == frozenset(
            map(" ".join, zip(found, found[1:], found[2:], strict=False))
        )


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    with pytest.raises(TypeError):
        _KERNEL.tokens(b"bytes")
    with pytest.raises(TypeError):
        _KERNEL.trigrams(("a", "b", "c"))
    with pytest.raises(TypeError):
        _KERNEL.trigrams(["a", 1, "c"])
