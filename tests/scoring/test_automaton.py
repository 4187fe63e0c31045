"""The compiled multi-string matcher (``monitor/scoring/_automaton.c``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.scoring import _automaton


def test_the_automaton_finds_each_item_once_and_whole_words_only() -> None:
    words = [False, False, False, True, True]
    auto = _automaton.Automaton([b"he", b"she", b"hers", b"his", b"he"], words)
    assert sorted(auto.found(b"ushers")) == [0, 1, 2]  # overlapping matches, all found
    assert sorted(auto.found(b"he his", b"she")) == [0, 1, 3, 4]  # across the texts, once each
    assert auto.found(b"this hiss") == [] and auto.found(b"") == []
    assert sorted(auto.found(b"  he\t\n")) == [0, 4]  # at both ends
    assert _automaton.Automaton([b"a b"], [False]).found(b"xa \n\t bx") == [0]
    with pytest.raises(ValueError):
        _automaton.Automaton([b""], [False])
    with pytest.raises(ValueError):
        _automaton.Automaton([b"a"], [])
    with pytest.raises(TypeError):
        _automaton.Automaton([b"a"], [1])
    with pytest.raises(TypeError):
        auto.found("text")


_NEEDLE = st.text(alphabet="ab c\n", min_size=1, max_size=4)


@settings(max_examples=500, deadline=None)
@given(st.lists(_NEEDLE, min_size=1, max_size=6), st.text(alphabet="ab c\n\t", max_size=40))
def test_found_is_substring_search_in_the_collapsed_text(needles: list[str], text: str) -> None:
    collapsed = " ".join(text.split())
    expected = [i for i, n in enumerate(needles) if n in collapsed]
    items = [n.encode() for n in needles]
    assert (
        sorted(_automaton.Automaton(items, [False] * len(items)).found(text.encode())) == expected
    )
