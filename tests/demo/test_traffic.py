"""Tests of the demo traffic generator (``monitor.demo.traffic``)."""

from __future__ import annotations

import itertools
import json
import re
import statistics
from typing import Any

import pytest

from monitor.demo.traffic import (
    INJECTION_PAYLOADS,
    MALFORMED_KINDS,
    TENANTS,
    TrafficGenerator,
)

CHUNK_ID = re.compile(r"^[a-z]+-\d{3}-child-\d{3}-\d{3}$")
ONE_MIB = 1024 * 1024


def _events(n: int, **kwargs: Any) -> list[dict[str, Any]]:
    gen = TrafficGenerator(**kwargs)
    return [gen.event() for _ in range(n)]


def _avg_rerank(event: dict[str, Any]) -> float:
    scores = [float(c["rerank_score"]) for c in event["chunks"]]
    return sum(scores) / len(scores)


def _is_injection(event: dict[str, Any]) -> bool:
    return any(p in event["query"]["text"] for p in INJECTION_PAYLOADS)


# A transcription of spec 000's CompositeQualityScorer, to check that the arms differ in
# the way the monitor's composite score sees them.
_STOP = frozenset(
    {
        "the", "is", "at", "which", "on", "a", "an", "and", "or", "but", "in", "with", "to",
        "for", "of", "not", "no", "can", "had", "has", "have", "it", "that", "this", "was",
        "are", "be", "been", "from", "do", "does", "did", "will", "would", "could", "should",
        "may", "what", "how", "when", "where", "who", "why",
    }
)  # fmt: skip


def _composite(event: dict[str, Any]) -> dict[str, float]:
    chunks = event["chunks"]
    scores = [c.get("rerank_score", c["score"]) for c in chunks]
    if scores:
        spread = scores[-1] / scores[0] if scores[0] > 0 else 0.0
        retrieval = sum(scores) / len(scores) * 0.7 + spread * 0.3
    else:
        retrieval = 0.0
    text = event["context"]["text"]
    terms = [t for t in event["query"]["text"].lower().split() if len(t) > 2 and t not in _STOP]
    if not text:
        sufficiency = 0.0
    elif not terms:
        sufficiency = 0.5
    else:
        coverage = sum(t in text.lower() for t in terms) / len(terms)
        density = min(event["context"]["token_count"] / (len(terms) * 50), 1.0)
        sufficiency = coverage * 0.6 + density * 0.4
    if len(chunks) <= 1:
        diversity = 0.0
    else:
        docs = len({c["document_id"] for c in chunks}) / len(chunks)
        sections = len({c["metadata"]["section_title"] for c in chunks}) / len(chunks)
        diversity = docs * 0.6 + sections * 0.4
    if chunks:
        content = " ".join(c["content"] for c in chunks)
        numbers = len(re.findall(r"\d+", content))
        dates = len(re.findall(r"\d{4}[-/]\d{2}[-/]\d{2}|\w+ \d{1,2},? \d{4}", content))
        nouns = len(re.findall(r"[A-Z][a-z]+(?:\s[A-Z][a-z]+)*", content))
        words = len(content.split())
        factual = min((numbers + dates * 2 + nouns) / (words / 100) * 0.1, 1.0)
        faithfulness = factual * 0.4 + min(chunks[0]["score"] * 1.5, 1.0) * 0.6
    else:
        faithfulness = 0.0
    overall = retrieval * 0.3 + sufficiency * 0.3 + diversity * 0.15 + faithfulness * 0.25
    return {
        "overall": overall,
        "retrieval": retrieval,
        "sufficiency": sufficiency,
        "diversity": diversity,
    }


def test_same_seed_same_sequence() -> None:
    a, b = TrafficGenerator(seed=11), TrafficGenerator(seed=11)
    assert [a.event() for _ in range(200)] == [b.event() for _ in range(200)]
    assert [a.malformed() for _ in range(20)] == [b.malformed() for _ in range(20)]
    assert list(a.messages(300)) == list(b.messages(300))
    assert _events(50, seed=11) != _events(50, seed=12)


def test_events_are_well_formed() -> None:
    events = _events(1500, seed=3)
    ids = [e["event_id"] for e in events]
    assert len(set(ids)) == len(ids)
    stamps = [e["timestamp_ms"] for e in events]
    assert stamps[0] == 1_795_353_600_000
    assert all(isinstance(t, int) for t in stamps)
    assert all(b - a == 5 for a, b in itertools.pairwise(stamps))
    assert {e["tenant"] for e in events} == set(TENANTS)
    assert {e["application"] for e in events} == {"support-bot", "search"}
    sizes = []
    for e in events:
        assert e["schema_version"] == "1"
        assert isinstance(e["event_id"], str) and e["event_id"]
        assert e["experiment"] == "reranker-v2"
        assert e["variant"] in ("control", "treatment")
        query = e["query"]
        assert isinstance(query["text"], str) and query["text"]
        assert query["type"] in ("faq", "research", "comparison")
        assert query["user_roles"] and all(isinstance(r, str) for r in query["user_roles"])

        chunks = e["chunks"]
        assert len(chunks) == 0 or 3 <= len(chunks) <= 6
        for c in chunks:
            assert CHUNK_ID.match(c["chunk_id"])
            assert c["chunk_id"].startswith(c["document_id"] + "-child-")
            assert isinstance(c["content"], str) and c["content"]
            for key in ("score", "rerank_score"):
                assert isinstance(c[key], float) and 0.0 <= c[key] <= 1.0
            meta = c["metadata"]
            assert meta["section_title"] and meta["rel_path"].endswith(".md")
            assert meta["heading_path"].endswith(" > " + meta["section_title"])
        for key in ("score", "rerank_score"):
            values = [c[key] for c in chunks]
            assert values == sorted(values, reverse=True)

        context = e["context"]
        assert context["text"] == "\n\n".join(c["content"] for c in chunks)
        assert context["token_count"] == len(context["text"].split())

        response = e["response"]
        assert isinstance(response["text"], str) and response["text"]
        assert isinstance(response["abstained"], bool)
        assert isinstance(response["confidence"], float) and 0 <= response["confidence"] <= 1
        assert isinstance(response["policy_flags"], list)
        chunk_ids = {c["chunk_id"]: c["document_id"] for c in chunks}
        assert len(response["citations"]) <= 2
        for citation in response["citations"]:
            assert chunk_ids[citation["chunk_id"]] == citation["document_id"]
        if response["abstained"]:
            assert response["text"].startswith("I could not find")
            assert response["citations"] == []

        latency = e["latency_ms"]
        parts = ("retrieve", "generate", "guardrail_input", "guardrail_output")
        assert all(isinstance(latency[p], int) and latency[p] >= 0 for p in parts)
        assert latency["total"] >= sum(latency[p] for p in parts)
        assert latency["retrieve"] > 0

        raw = json.dumps(e, separators=(",", ":"))
        assert json.loads(raw) == e
        sizes.append(len(raw.encode()))
    assert 1000 <= statistics.mean(sizes) <= 3000
    assert max(sizes) < 4500


def test_citation_counts_and_abstentions() -> None:
    events = [e for e in _events(2000, seed=4, injection_rate=0.0) if e["chunks"]]
    counts = [len(e["response"]["citations"]) for e in events]
    assert set(counts) == {0, 1, 2}
    assert sum(c in (1, 2) for c in counts) / len(counts) > 0.8
    abstained = sum(e["response"]["abstained"] for e in events) / len(events)
    assert 0.005 < abstained < 0.08


def test_both_variants_present_about_half_each() -> None:
    events = _events(2000, seed=5)
    share = sum(e["variant"] == "treatment" for e in events) / len(events)
    assert 0.45 < share < 0.55


def test_treatment_reranks_better_than_control() -> None:
    events = [e for e in _events(2000, seed=6) if e["chunks"]]
    by_arm = {
        arm: statistics.mean(_avg_rerank(e) for e in events if e["variant"] == arm)
        for arm in ("control", "treatment")
    }
    assert by_arm["treatment"] > by_arm["control"] + 0.1


def test_composite_quality_separates_the_arms() -> None:
    events = [e for e in _events(2000, seed=8, injection_rate=0.0) if e["chunks"]]
    means = {
        arm: {
            key: statistics.mean(_composite(e)[key] for e in events if e["variant"] == arm)
            for key in ("overall", "retrieval", "sufficiency", "diversity")
        }
        for arm in ("control", "treatment")
    }
    treatment, control = means["treatment"], means["control"]
    assert treatment["overall"] > control["overall"] + 0.08
    assert treatment["retrieval"] > control["retrieval"]
    assert treatment["sufficiency"] > control["sufficiency"]
    assert treatment["diversity"] > control["diversity"]


def test_queries_share_vocabulary_with_their_context() -> None:
    events = [
        e
        for e in _events(500, seed=9, injection_rate=0.0)
        if e["chunks"] and e["variant"] == "treatment"
    ]
    for e in events:
        words = set(re.findall(r"[a-z]{4,}", e["query"]["text"].lower())) - _STOP
        assert words & set(re.findall(r"[a-z]{4,}", e["context"]["text"].lower()))


@pytest.mark.parametrize(
    ("rate", "n", "low", "high"), [(0.03, 4000, 0.02, 0.04), (0.25, 2000, 0.22, 0.28)]
)
def test_injection_share_follows_the_rate(rate: float, n: int, low: float, high: float) -> None:
    gen = TrafficGenerator(seed=10, injection_rate=rate)
    events: list[dict[str, Any]] = [gen.event() for _ in range(n)]
    injections = [e for e in events if _is_injection(e)]
    assert low < len(injections) / n < high
    assert gen.stats["injections"] == len(injections)
    assert len({p for e in injections for p in INJECTION_PAYLOADS if p in e["query"]["text"]}) > 5
    blocked = [e for e in events if "guardrail_blocked" in e["response"]["policy_flags"]]
    assert blocked and all(_is_injection(e) for e in blocked)
    assert all(e["latency_ms"]["generate"] == 0 for e in blocked)


def test_no_injections_when_rate_is_zero() -> None:
    assert not any(_is_injection(e) for e in _events(1000, seed=10, injection_rate=0.0))


def test_no_results_traffic() -> None:
    events = _events(3000, seed=12)
    empty = [e for e in events if not e["chunks"]]
    assert 0.01 < len(empty) / len(events) < 0.03
    for e in empty:
        assert e["context"] == {"text": "", "token_count": 0}
        assert e["response"]["policy_flags"] == ["no_context"]
        assert e["response"]["abstained"] is True
        assert e["response"]["citations"] == []
    assert not any(e["chunks"] for e in events if "no_context" in e["response"]["policy_flags"])


def test_every_malformed_kind_is_invalid_in_its_own_way() -> None:
    gen = TrafficGenerator(seed=13)
    seen: list[str] = []
    for _ in range(2 * len(MALFORMED_KINDS)):
        kind, raw = gen.malformed_with_kind()
        seen.append(kind)
        assert isinstance(raw, bytes)
        if kind in ("not_json", "truncated_json"):
            with pytest.raises(ValueError):
                json.loads(raw)
            if kind == "truncated_json":
                assert raw.startswith(b'{"schema_version":"1"')
            continue
        doc = json.loads(raw)
        if kind == "json_array":
            assert isinstance(doc, list) and isinstance(doc[0], dict)
            assert doc[0]["schema_version"] == "1"
            continue
        assert isinstance(doc, dict)
        if kind == "missing_query_text":
            assert "text" not in doc["query"] and doc["event_id"]
        elif kind == "missing_event_id":
            assert "event_id" not in doc and doc["query"]["text"]
        elif kind == "wrong_type_timestamp":
            assert isinstance(doc["timestamp_ms"], str)
            with pytest.raises(ValueError):
                float(doc["timestamp_ms"])
        elif kind == "wrong_type_chunks":
            assert isinstance(doc["chunks"], str)
        elif kind == "schema_version_2":
            assert doc["schema_version"] == "2"
        elif kind == "oversized":
            assert len(raw) > ONE_MIB and len(raw) > gen.oversize_bytes
            assert doc["schema_version"] == "1" and doc["query"]["text"]
        else:  # pragma: no cover
            pytest.fail(f"unexpected kind {kind}")
        if kind != "missing_event_id":
            assert doc["event_id"]
        if kind != "oversized":
            assert len(raw) < 10_000
    assert seen == list(MALFORMED_KINDS) * 2
    assert gen.stats["malformed"] == 2 * len(MALFORMED_KINDS)
    assert gen.stats["events"] == 0


def test_malformed_cycles_and_oversize_is_configurable() -> None:
    gen = TrafficGenerator(seed=14, oversize_bytes=5_000)
    raws = [gen.malformed() for _ in range(len(MALFORMED_KINDS))]
    assert 5_000 < len(raws[MALFORMED_KINDS.index("oversized")]) < 6_000
    assert gen.malformed_with_kind()[0] == MALFORMED_KINDS[0]


def test_messages_mix_good_and_malformed() -> None:
    gen = TrafficGenerator(seed=15, malformed_rate=0.1)
    pairs = list(gen.messages(3000))
    assert len(pairs) == 3000
    bad = [value for key, value in pairs if key is None]
    assert 0.08 < len(bad) / len(pairs) < 0.12
    assert gen.stats["malformed"] == len(bad)
    for key, value in pairs:
        if key is None:
            continue
        event = json.loads(value)
        assert key == event["event_id"].encode()
        assert value == json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()
    assert all(
        key is not None for key, _ in TrafficGenerator(seed=15, malformed_rate=0).messages(500)
    )


def test_degrade_after_collapses_the_treatment_arm() -> None:
    gen = TrafficGenerator(seed=16, degrade_after=1000)
    events: list[dict[str, Any]] = [gen.event() for _ in range(3000)]
    assert gen.degraded
    before, after = events[:1000], events[1000:]

    def mean_rerank(batch: list[dict[str, Any]], arm: str) -> float:
        return statistics.mean(_avg_rerank(e) for e in batch if e["chunks"] and e["variant"] == arm)

    assert mean_rerank(before, "treatment") > 0.7
    assert mean_rerank(after, "treatment") < 0.35
    assert abs(mean_rerank(after, "control") - mean_rerank(before, "control")) < 0.05
    degraded = [e for e in after if e["chunks"] and e["variant"] == "treatment"]
    assert all(len({c["document_id"] for c in e["chunks"]}) == 1 for e in degraded)
    overall_after = statistics.mean(_composite(e)["overall"] for e in degraded)
    assert overall_after < 0.45

    healthy = TrafficGenerator(seed=16)
    assert [healthy.event() for _ in range(1000)] == before
    assert not healthy.degraded


def test_timestamps_follow_the_rate() -> None:
    gen = TrafficGenerator(seed=17, start_ms=1_000, events_per_s=3.0)
    stamps = [int(str(gen.event()["timestamp_ms"])) for _ in range(7)]
    assert stamps == [1000, 1333, 1666, 2000, 2333, 2666, 3000]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"events_per_s": 0.0},
        {"malformed_rate": 1.5},
        {"injection_rate": -0.1},
        {"degrade_after": -1},
        {"oversize_bytes": 0},
    ],
)
def test_bad_arguments_are_rejected(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        TrafficGenerator(**kwargs)
