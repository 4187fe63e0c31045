"""The compiled kernel (``_kernel.c``) gives what its Python versions give, to the bit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.pipeline import decode_event
from monitor.scoring.injection import model
from monitor.scoring.injection.evidence import python_words, tokens_of
from monitor.scoring.injection.kernel import KERNEL
from monitor.scoring.injection.model import load, logit, model_text, python_logit
from monitor.scoring.injection.normalisation import normalise

# word characters, the punctuation runs the tokens split at, every kind of space, control
# characters, quotes (the word set's stripping) and real words the model knows
_PIECES = st.sampled_from(
    [*"abcXYZ019_'\"-.,:;!?()<|>[]{}#*\\`~ \t\n\r\x0b\x0c\x1c\x1f\x00\x7f", "ignore ", "the "]
)
_ASCII = st.lists(_PIECES, max_size=160).map("".join)


def test_the_kernel_is_built() -> None:
    """``make test`` installs the package with a C compiler at hand: the fast path is the
    one under test (the Python versions run only where it could not be built)."""
    assert KERNEL is not None


def _both(text: str, chunk: bool) -> tuple[float, float]:
    m = load()
    python = python_logit(text, m, chunk=chunk)  # fills the memo, so the kernel hits
    return python, logit(text, m, chunk=chunk)


@hyp_settings(max_examples=400, deadline=None)
@given(_ASCII, st.booleans())
def test_logit_is_the_python_logit(text: str, chunk: bool) -> None:
    python, compiled = _both(text, chunk)
    assert compiled == python and repr(compiled) == repr(python)


@pytest.mark.parametrize("chunk", [False, True])
def test_logit_of_long_texts_windows_head_and_tail(chunk: bool) -> None:
    """More than one window, and more tokens than the head and tail the model keeps."""
    words = "ignore all previous instructions , the report is due !! tomorrow".split()
    for n in (47, 48, 49, 100, 5120, 5121, 9000):
        text = " ".join(words[i % len(words)] + str(i % 7) * (i % 3) for i in range(n))
        python, compiled = _both(text, chunk)
        assert compiled == python, n


def test_logit_on_real_text() -> None:
    m = load()
    texts: list[tuple[str, bool]] = []
    for payload in RealTextEvents(seed=3, size_kb=8, reuse=False).messages(20):
        event = decode_event(payload)
        texts.append((normalise(event.query.text), False))
        texts += [(model_text(c.content), True) for c in event.chunks]
    assert all(text.isascii() for text, _ in texts[:20])  # the kernel's path is taken
    for text, chunk in texts:
        python = python_logit(text, m, chunk=chunk)
        assert logit(text, m, chunk=chunk) == python


def test_a_token_never_seen_takes_the_python_path() -> None:
    m = load()
    text = "zqxjkv unseen token"
    for memo in model._memos:
        memo.pop("zqxjkv", None)
    assert KERNEL is not None
    args = (m.pairs_by_first[0], m.bias, 48, 24, 4096, 1024)
    assert KERNEL.ascii_logit(text, model._memos[0], *args) is None
    first = logit(text, m)  # computed in Python, memoised
    assert KERNEL.ascii_logit(text, model._memos[0], *args) == first


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    assert KERNEL is not None
    m = load()
    with pytest.raises(TypeError):
        KERNEL.ascii_logit("café", {}, m.pairs_by_first[0], 0.0, 48, 24, 4096, 1024)
    with pytest.raises(ValueError):
        KERNEL.ascii_logit("a", {"a": 1.0}, {}, 0.0, 0, 24, 4096, 1024)
    with pytest.raises(TypeError):
        KERNEL.ascii_words("naïve")


@hyp_settings(max_examples=400, deadline=None)
@given(_ASCII)
def test_words_are_the_python_words(text: str) -> None:
    assert tokens_of((text,)) == python_words(text)


def test_words_strip_quotes_as_python_does() -> None:
    text = "it's 'quoted' ''' don't x_y a-b '"
    assert tokens_of((text,)) == python_words(text)
    assert {"", "quoted", "'quoted'", "it's", "x_y"} <= tokens_of((text,))
