"""Containers the garbage collector need not look at (``monitor/scoring/_untracked.c``,
:func:`monitor.scoring.chunk_cache.untracked`)."""

from __future__ import annotations

import gc
from collections import Counter

import pytest

from bench.realtext import RealTextEvents
from monitor.scoring import chunk_cache
from monitor.scoring.chunk_cache import configure_chunk_cache, untracked
from monitor.scoring.grounding.analysis import TextAnalysis, analyse
from monitor.scoring.tokens import content_terms


class _Node:
    pass


def test_the_untracked_kernel_is_built() -> None:
    assert chunk_cache._untracked is not None


@pytest.mark.parametrize(
    "part",
    [
        ["a", "b", 1, 2.5, None, True, b"x"],
        ("a", ("b", 1)),
        {"a", "b"},
        frozenset({"a", 1}),
        {"a": 1, "b": 2.0},
        [],
    ],
)
def test_containers_of_atomic_items_are_untracked(part: object) -> None:
    if isinstance(part, tuple):
        part = tuple(list(part))  # a fresh tuple, tracked until a collection looks at it
    assert untracked(part) is part
    assert not gc.is_tracked(part)


@pytest.mark.parametrize(
    "part",
    [
        [["a"]],  # a list of a list: the inner one may gain a reference to the outer
        ("a", ["b"]),
        {"a": ["b"]},
        Counter(a=1),  # a subclass instance may hold more than its items
        [_Node()],
    ],
)
def test_containers_that_may_hold_a_cycle_stay_tracked(part: object) -> None:
    assert gc.is_tracked(part)
    assert untracked(part) is part
    assert gc.is_tracked(part)


def test_other_objects_are_returned_as_they_are() -> None:
    for part in ("text", 3, b"x", None):
        assert untracked(part) is part


def test_a_cycle_through_a_tracked_container_is_still_collected() -> None:
    inner: list[object] = []
    outer = untracked([inner])  # kept tracked: it holds a list
    inner.append(outer)
    del inner, outer
    assert gc.collect() >= 2


def test_analyses_are_out_of_the_collectors_sight() -> None:
    text = "Employees get 15% off, fifteen days and a 2-day trip. " * 3
    a = TextAnalysis(text)
    parts = [a.tokens, a.hay, a.term_list, a.terms, a.content_counts]
    assert not any(map(gc.is_tracked, parts))
    assert type(a.content_counts) is dict
    assert a.content_counts == Counter(content_terms(a.tokens))


def test_scoring_new_chunks_leaves_no_tracked_token_lists() -> None:
    configure_chunk_cache(64 << 20)
    try:
        events = RealTextEvents(seed=21, size_kb=8, reuse=False).events(20)
        contents = [c["content"] for e in events for c in e["chunks"]]
        analyses = [analyse(c) for c in contents]
        for a in analyses:
            _ = a.terms, a.content_counts, a.trigram_keys
        assert all(not gc.is_tracked(a.tokens) and not gc.is_tracked(a.terms) for a in analyses)
    finally:
        configure_chunk_cache(chunk_cache.DEFAULT_BUDGET_BYTES)
