"""Literals: one Hyperscan pass gives what a substring test per string gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.scoring.injection.indirect import _DISCUSSION_LITERALS, discusses_attacks
from monitor.scoring.injection.literals import Literals

_STRINGS = ("scam", "phishing", "report it", "be careful")
_TEXT = st.lists(
    st.sampled_from(
        ["sca", "m", "scam", "phish", "ing", "report", " it", " ", "be", "careful", "é", "\u2019"]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_any_in_is_a_substring_test(text: str) -> None:
    found = Literals(_STRINGS).any_in(text)
    assert found == any(s in text for s in _STRINGS)


def test_without_hyperscan_the_same_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    words = Literals(_STRINGS)
    monkeypatch.setattr(words, "_database", lambda: None)
    assert words.any_in("a phishing page") and not words.any_in("fine")


def test_strings_must_be_ascii() -> None:
    with pytest.raises(ValueError):
        Literals(["caf\u00e9"])
    with pytest.raises(ValueError):
        Literals([""])


def test_the_discussion_check_reads_every_literal() -> None:
    for literal in _DISCUSSION_LITERALS:
        assert Literals(_DISCUSSION_LITERALS).any_in(f"x {literal} y")
    assert discusses_attacks("please report such messages to security")
    assert not discusses_attacks("the scampi were fresh")
