"""The fast factual counters agree with spec 000's literal regexes on any text."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from monitor.scoring.factual import ClassMarks, count_dates, joined_counts

# The regexes exactly as spec 000 writes them, in JavaScript semantics.
JS_WS = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
NUMBER = re.compile(r"[0-9]+")
DATE = re.compile(r"[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}|\w+ [0-9]{1,2},? [0-9]{4}", re.ASCII)
PROPER_NOUN = re.compile(rf"[A-Z][a-z]+(?:{JS_WS}[A-Z][a-z]+)*")
SPLIT = re.compile(rf"{JS_WS}+")

# Text built from the pieces that matter: digits, separators, capitals, spaces, commas.
ALPHABET = "0123456789-/ ,aAbZz_\t\n\u00a0\ufeff\x1cé😀.Mq"
texts = st.text(alphabet=ALPHABET, max_size=80) | st.text(max_size=40)


@given(texts)
@settings(max_examples=3000, deadline=None)
@example("2024-01-05abc 5, 2020")
@example("x2024-01-05 5 2020 and On March 5, 2024")
@example("1 2 2024 2024/02/03 12345-01-01")
@example(" Ab Cd  Ef\u00a0Gh ")
def test_counts_match_literal_regexes(text: str) -> None:
    marks = ClassMarks(text)
    assert marks.numbers() == len(NUMBER.findall(text))
    assert marks.words() == len(SPLIT.split(text))
    assert marks.proper_nouns() == len(PROPER_NOUN.findall(text))
    assert marks.counts() == (marks.numbers(), marks.words(), marks.proper_nouns())
    assert count_dates(text, marks.marks) == len(DATE.findall(text))
    assert count_dates(text) == len(DATE.findall(text))


@given(texts)
@settings(max_examples=500, deadline=None)
def test_long_texts_count_the_same(text: str) -> None:
    """Texts of 2 KB and more count runs with arrays: the same counts."""
    long = text * (2100 // max(1, len(text)) + 1) if text else " " * 2100
    marks = ClassMarks(long)
    assert len(marks.marks) >= 2048
    assert marks.numbers() == len(NUMBER.findall(long))
    assert marks.words() == len(SPLIT.split(long))
    assert marks.counts() == (marks.numbers(), marks.words(), len(PROPER_NOUN.findall(long)))


@given(st.lists(texts, min_size=1, max_size=6))
@settings(max_examples=3000, deadline=None)
@example(["The New", "York office  ", " opened on May 1, 2020.", "Then"])
@example(["Ab", "Cd Ef", "Gh"])  # proper nouns continued across joins
@example(["x ", " y", "\u00a0", "z\t"])  # whitespace runs merging at joins
@example(["on May", "1, 2020"])  # a date across a join: no sum
def test_joined_counts_are_the_joined_texts_counts(parts: list[str]) -> None:
    """Summed from each text's counts (cache misses, then hits), or None: never
    different from the literal regexes on the texts joined by spaces."""
    text = " ".join(parts)
    literal = (
        len(NUMBER.findall(text)),
        len(DATE.findall(text)),
        len(PROPER_NOUN.findall(text)),
        len(SPLIT.split(text)),
    )
    for _ in range(2):
        got = joined_counts(parts)
        if got is None:  # only for an empty text or a later text that starts with a digit
            assert any(not p or p[0].isdigit() for p in parts[1:]) or not parts[0]
        else:
            assert got == literal


def test_the_run_counts_kernel_is_built() -> None:
    """``make test`` builds ``_marks.c`` (the counts above then come from it)."""
    from monitor.scoring import factual

    assert factual._MARKS is not None
    assert factual._MARKS.run_counts(b"UlwUlodddwwUUlll") == (1, 2, 2)
