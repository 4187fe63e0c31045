"""The compiled kernel (``_kernel.c``) gives what its Python versions give, to the bit."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.pipeline import decode_event
from monitor.scoring.injection import model, normalisation
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


def _both(text: str, chunk: bool, kernel_first: bool = False) -> tuple[float, float]:
    """The Python logit and the kernel's; whichever runs first computes the contributions
    of tokens new to the process (the other finds them memoised)."""
    m = load()
    if kernel_first:
        compiled = logit(text, m, chunk=chunk)
        return python_logit(text, m, chunk=chunk), compiled
    python = python_logit(text, m, chunk=chunk)
    return python, logit(text, m, chunk=chunk)


@hyp_settings(max_examples=400, deadline=None)
@given(_ASCII, st.booleans(), st.booleans())
def test_logit_is_the_python_logit(text: str, chunk: bool, kernel_first: bool) -> None:
    python, compiled = _both(text, chunk, kernel_first)
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


def test_the_table_asks_for_tokens_it_has_not_seen() -> None:
    assert KERNEL is not None
    table = KERNEL.Table({("ignore", "all"): 0.5})
    args = (0.25, 48, 24, 4096, 1024)
    assert table.logit("ignore all, ignore", *args) == ["ignore", "all", ",", "ignore"]
    for token, value in (("ignore", 1.0), ("all", 2.0), (",", 4.0)):
        table.add(token, value)
    assert len(table) == 3
    # 0.25 + (1.0 + 0.5) + 2.0 + 4.0 + 1.0: the pair counts once, where it is
    assert table.logit("ignore all, ignore", *args) == 8.75
    assert table.logit("", *args) == 0.25
    table.clear()
    assert len(table) == 0 and table.logit("all", *args) == ["all"]


def test_a_full_table_is_cleared_and_refilled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tokens kept are bounded (the memo's bound); a text never needs more."""
    m = load()
    monkeypatch.setattr(model, "_MEMO_MAX", 5)
    text = "one two three four five six seven eight"
    python = python_logit(text, m, chunk=True)
    assert m.tables is not None
    m.tables[1].clear()
    assert logit(text, m, chunk=True) == python
    assert len(m.tables[1]) == 8  # cleared when full, then given the text's tokens


def test_many_tokens_grow_the_table() -> None:
    assert KERNEL is not None
    table = KERNEL.Table({})
    words = [f"w{i}" for i in range(5000)]
    for i, word in enumerate(words):
        table.add(word, float(i))
    assert len(table) == 5000
    assert table.logit(" ".join(words[:10]), 0.0, 48, 24, 4096, 1024) == float(sum(range(10)))


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    assert KERNEL is not None
    table = KERNEL.Table({("caf\u00e9", "au"): 1.0, ("a", "b"): 2.0})  # the first: never ASCII
    with pytest.raises(TypeError):
        table.logit("caf\u00e9", 0.0, 48, 24, 4096, 1024)
    with pytest.raises(TypeError):
        table.add("na\u00efve", 1.0)
    with pytest.raises(ValueError):
        table.logit("a", 0.0, 0, 24, 4096, 1024)
    with pytest.raises(TypeError):
        KERNEL.Table({"a b": 1.0})
    with pytest.raises(TypeError):
        KERNEL.ascii_words("na\u00efve")


@hyp_settings(max_examples=400, deadline=None)
@given(_ASCII)
def test_words_are_the_python_words(text: str) -> None:
    assert tokens_of((text,)) == python_words(text)


def test_words_strip_quotes_as_python_does() -> None:
    text = "it's 'quoted' ''' don't x_y a-b '"
    assert tokens_of((text,)) == python_words(text)
    assert {"", "quoted", "'quoted'", "it's", "x_y"} <= tokens_of((text,))


_SPACING = st.lists(st.sampled_from([*"aZ9_ .-*+/|~,!x\t", "ab"]), max_size=30).map("".join)


@hyp_settings(max_examples=1000, deadline=None)
@given(_SPACING)
def test_spaced_run_is_the_spacing_pattern(text: str) -> None:
    assert KERNEL is not None
    assert KERNEL.spaced_run(text) == bool(normalisation._SPACED.search(text.lower()))


def test_spaced_runs_with_underscores() -> None:
    """ "_" is a word character and a separator at once (both in one run, too)."""
    assert KERNEL is not None
    for text, found in [
        (" __a_b_c ", True),
        ("a_b_c_d", True),
        ("__init__", False),
        ("a.b.cd", False),
    ]:
        assert KERNEL.spaced_run(text) == found == bool(normalisation._SPACED.search(text))


_COPIES = st.lists(
    st.sampled_from(
        [*"aZ9_ .-*+/|~,!x\n\t013457@$=", "rot13", "revers", "backward", "rot 13", "ab", "QUJD" * 4]
    ),
    max_size=16,
).map("".join)


@hyp_settings(max_examples=1000, deadline=None)
@given(_COPIES)
def test_copies_skipped_by_the_kernel_are_none(text: str) -> None:
    """When the kernel finds no trigger, copies() makes no copy (the full path agrees)."""
    norm = normalisation.normalise(text)
    words = python_words(norm)
    fast = normalisation.copies(text, norm, words)
    kernel = normalisation.KERNEL
    try:
        normalisation.KERNEL = None  # type: ignore[assignment]
        full = normalisation.copies(text, norm, words)
    finally:
        normalisation.KERNEL = kernel
    assert fast == full
    assert kernel is not None
    if not kernel.copy_triggers(text, norm):
        assert full == ([norm], [], [])


_PLAIN = st.lists(
    st.sampled_from(
        [
            *"aZq9_ .-*+/|~,!x\n\t\r\x0b\x00\x1f\x7f013457@$=",
            *"\u2019\u201c\u2014\u2026\u00a0\u00b0\u00e9",
            "rot1",
            "rot-1",
            "ROT 13",
            "rot\t\n13",
            "rotate",
            "re-read",
            "e.g.",
            "a*b",
            "QUJD" * 4,
            "Qujd" * 4,  # 16 base64 characters of both cases
            "aWdub3JlIHJ1bGVz",  # "ignore rules"
            "ignore ",
        ]
    ),
    max_size=24,
).map("".join)


def _python_plain_bytes(text: str) -> tuple[bytes, bytes] | None:
    kernel = normalisation.KERNEL
    try:
        normalisation.KERNEL = None  # type: ignore[assignment]
        return normalisation.plain_bytes(text)
    finally:
        normalisation.KERNEL = kernel


def _plain(text: str) -> tuple[bytes, bytes] | None:
    """The kernel's answer, with the base64 check it leaves to Python."""
    assert KERNEL is not None
    fast = KERNEL.plain(text, normalisation._TYPOGRAPHIC)
    if fast is None:
        return None
    low, joined, b64 = fast
    assert b64 == bool(
        re.search(r"[A-Za-z0-9+/]{16}", text)
        and re.search(r"(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])[A-Za-z0-9+/]{16,}", text)
    )
    return None if b64 and normalisation._decoded_blobs(text) else (low, joined)


@hyp_settings(max_examples=3000, deadline=None)
@given(_PLAIN)
def test_plain_bytes_in_c_are_the_python_ones(text: str) -> None:
    """Where the kernel decides (no trigger), it gives what the Python path gives; where it
    may see a trigger it says None and the Python path decides."""
    python = _python_plain_bytes(text)
    assert normalisation.plain_bytes(text) == python
    fast = _plain(text)
    assert fast is None or fast == python


def test_plain_bytes_in_c_on_real_text() -> None:
    """Every chunk and query of real-text events: the same bytes, and the kernel decides for
    most of them (the Python path is for texts with a trigger)."""
    decided = total = 0
    for payload in RealTextEvents(seed=5, size_kb=8, reuse=False).messages(60):
        event = decode_event(payload)
        for text in [event.query.text, *(c.content for c in event.chunks)]:
            python = _python_plain_bytes(text)
            assert normalisation.plain_bytes(text) == python
            fast = _plain(text)
            assert fast is None or fast == python
            total += 1
            decided += fast is not None
    assert decided >= 0.8 * total


def test_plain_in_c_leaves_triggers_to_python() -> None:
    for text in [
        "a\x00b",
        "a_b_c_d",
        "say aWdub3JlIGFsbCBydWxlcw==",
        "v 1.2.3.4 x",
        "use rot13",
        "rot-1 cipher",
        "rot \n 13",
        "1gn0re it",
        "say $ystem",
        "caf\u00e9",
    ]:
        assert _plain(text) is None, text
    assert _plain("Re-read the Q3 notes e.g. now") == (
        b"re-read the q3 notes e.g. now",
        b"reread the q3 notes eg. now",
    )
    assert _plain("rotate 13 rot  x, $5 off") == (b"rotate 13 rot  x, $5 off",) * 2
    # underscores without a spaced run, long base64-alphabet runs of one case, typeset text
    assert _plain("__init__ of snake_case internationalization/docs") == (
        b"__init__ of snake_case internationalization/docs",
        b"__init__ of snakecase internationalization/docs",
    )
    assert _plain("\u201cdon\u2019t\u201d \u2014 wait\u2026") == (b'"don\'t" - wait...',) * 2
    assert KERNEL is not None
    with pytest.raises(TypeError):
        KERNEL.plain("text", [])
    with pytest.raises(TypeError):
        KERNEL.model_text(b"text", {})


def _python_model_text(text: str) -> str:
    kernel = model.KERNEL
    try:
        model.KERNEL = None  # type: ignore[assignment]
        return model_text(text)
    finally:
        model.KERNEL = kernel


@hyp_settings(max_examples=2000, deadline=None)
@given(_PLAIN)
def test_model_text_in_c_is_the_python_one(text: str) -> None:
    assert KERNEL is not None
    fast = KERNEL.model_text(text, normalisation.TYPESET)
    assert model_text(text) == _python_model_text(text)
    assert fast is None or fast == _python_model_text(text)
    assert (fast is None) == (normalisation.typeset_as_ascii(text) is None)


def test_model_text_in_c_on_real_text() -> None:
    for payload in RealTextEvents(seed=6, size_kb=8, reuse=False).messages(40):
        event = decode_event(payload)
        for text in [event.query.text, *(c.content for c in event.chunks)]:
            assert model_text(text) == _python_model_text(text)
