"""The chunk cache: hits return what a miss computes, the byte budget holds, LRU order."""

from __future__ import annotations

import tracemalloc

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.events.rag_event import Chunk
from monitor.pipeline import decode_event, score_event
from monitor.scoring.chunk_cache import ChunkCache, chunk_cache, configure_chunk_cache
from monitor.scoring.composite import cached_lower
from monitor.scoring.factual import cached_ascii_proxy, joined_counts
from monitor.scoring.families import _word_count
from monitor.scoring.grounding.analysis import TextAnalysis, analyse
from monitor.scoring.injection import score_indirect
from monitor.scoring.injection.model import logit, model_text


@pytest.fixture
def small_cache() -> object:
    before = chunk_cache()
    yield configure_chunk_cache(2_000_000)
    configure_chunk_cache(before.budget_bytes)


def _filled(a: TextAnalysis) -> tuple[object, ...]:
    return (
        a.tokens,
        a.hay,
        a.term_list,
        a.terms,
        a.numbers,
        a.spelled,
        a.phrase,
        dict(a.content_counts),
        a.trigrams,
        a.trigram_keys,
    )


def test_a_hit_returns_what_a_miss_computes(small_cache: ChunkCache) -> None:
    events = RealTextEvents(seed=5, size_kb=8, reuse=True).events(60)
    for e in events:
        for c in e["chunks"]:
            assert _filled(analyse(c["content"])) == _filled(TextAnalysis(c["content"]))
    assert small_cache.hits > 0 and small_cache.used_bytes <= small_cache.budget_bytes


def test_scores_are_the_same_with_a_cold_a_warm_and_no_cache() -> None:
    payloads = [orjson.dumps(e) for e in RealTextEvents(seed=6, size_kb=8, reuse=True).events(40)]
    before = chunk_cache()
    try:
        cold = [score_event(decode_event(p)).model_dump(exclude={"scoring_us"}) for p in payloads]
        warm = [score_event(decode_event(p)).model_dump(exclude={"scoring_us"}) for p in payloads]
        configure_chunk_cache(0)
        none = [score_event(decode_event(p)).model_dump(exclude={"scoring_us"}) for p in payloads]
    finally:
        configure_chunk_cache(before.budget_bytes)
    assert cold == warm == none


@given(st.lists(st.sampled_from([f"passage {i} " * (i + 1) for i in range(30)]), max_size=200))
@settings(max_examples=200, deadline=None)
def test_lru_within_budget(texts: list[str]) -> None:
    cache = ChunkCache(budget_bytes=ChunkCache.charge("passage 29 " * 30) * 4)
    recent: list[str] = []
    for t in texts:
        cache.entry(t)
        if t in recent:
            recent.remove(t)
        recent.append(t)
        assert cache.used_bytes == sum(map(ChunkCache.charge, cache.texts()))
        assert cache.used_bytes <= cache.budget_bytes
    kept = list(cache.texts())
    assert kept == recent[len(recent) - len(kept) :]  # the most recently used survive


def test_a_zero_budget_keeps_nothing() -> None:
    cache = ChunkCache(0)
    assert cache.entry("text") is None and len(cache) == 0
    with pytest.raises(ValueError):
        ChunkCache(-1)


def test_the_charge_bounds_real_memory() -> None:
    """Every part of the analysis, the indirect result, the lower-case form, the ASCII
    proxy and the word count computed, on real prose: the memory the cache holds stays
    under what it is charged."""
    texts = list(
        {
            c["content"]
            for e in RealTextEvents(seed=7, size_kb=32, reuse=False).events(30)
            for c in e["chunks"]
        }
    )
    cache = configure_chunk_cache(10**9)
    try:
        for t in texts:  # the model and the token memos (outside the cache) beforehand
            _filled(TextAnalysis(t))
            logit(model_text(t), chunk=True)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for t in [t.encode().decode() for t in texts]:  # fresh copies: the cache owns them
            _filled(analyse(t))
            score_indirect([Chunk(content=t)])
            cached_lower(t), cached_ascii_proxy(t), joined_counts([t]), _word_count(t)
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        assert len(cache) == len(texts)
        assert held <= cache.used_bytes, (held, cache.used_bytes)
        assert held >= cache.used_bytes / 4  # the bound is not loose to the point of useless
    finally:
        configure_chunk_cache(ChunkCache().budget_bytes)


def test_the_context_is_the_events_own() -> None:
    from monitor.scoring.families import ScoringInput

    for e in RealTextEvents(seed=8, size_kb=2, reuse=True).events(30):
        event = decode_event(orjson.dumps(e))
        assert ScoringInput.of(event).context == event.effective_context()
        assert ScoringInput.of(event).context == event.effective_context()  # cached counts


def test_context_quality_is_the_same_through_a_cache_that_evicts() -> None:
    from monitor.scoring.context_quality import score_context_quality

    before = chunk_cache()
    events = RealTextEvents(seed=9, size_kb=8, reuse=True).events(80)
    try:
        configure_chunk_cache(0)
        uncached = [
            score_context_quality([Chunk(content=c["content"]) for c in e["chunks"]], None)
            for e in events
        ]
        cache = configure_chunk_cache(3_000_000)  # small: entries are evicted
        for _ in range(2):
            cached = [
                score_context_quality([Chunk(content=c["content"]) for c in e["chunks"]], None)
                for e in events
            ]
            assert cached == uncached
        assert cache.hits and cache.used_bytes == sum(map(cache.charge, cache.texts()))
        assert (
            cache.used_bytes
            <= cache.budget_bytes
            < sum(map(cache.charge, {c["content"] for e in events for c in e["chunks"]}))
        )
    finally:
        configure_chunk_cache(before.budget_bytes)
