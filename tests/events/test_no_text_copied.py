"""Issue 11 finding 8: the scored event copies no text out of the query or the response
(DESIGN section 5); CRAG's queries are offsets unless ``include_query_text`` asks."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from monitor.demo.traffic import TrafficGenerator
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import process
from monitor.scoring.crag import query_text

EMAIL = "alice.liddell@example.com"
API_KEY = "sk-live-4fQ9zT2mXw8Rb7Lk0PaN3sVe"
QUERIES = [
    f"What is the refund policy for {EMAIL} and how does key {API_KEY} get rotated?",
    f"Does my token {API_KEY} still work for {EMAIL}?",
    f"{EMAIL} {API_KEY}",
]
CHUNK = "Refunds are issued within 14 days. Keys are rotated every 90 days by the admin."


def event(query: str, score: float, **extra: Any) -> bytes:
    return orjson.dumps(
        {
            "schema_version": "1",
            "event_id": "e1",
            "timestamp_ms": 5,
            "query": {"text": query},
            "chunks": [
                {"chunk_id": "c1", "document_id": "d1", "content": CHUNK, "score": score},
                {"chunk_id": "c2", "document_id": "d2", "content": CHUNK[:40], "score": score},
            ],
            "response": {
                "text": f"Write to {EMAIL}; your key {API_KEY} was rotated 45 days ago.",
                "citations": [{"document_id": "d1"}],
            },
            **extra,
        }
    )


def fragments(text: str, width: int = 12) -> set[str]:
    return {text[i : i + width] for i in range(max(1, len(text) - width + 1))}


def scored(payload: bytes, **options: Any) -> ScoredEvent:
    result = process(payload, **options)
    assert isinstance(result, ScoredEvent)
    return result


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("score", [0.0, 0.5, 0.95])
def test_no_fragment_of_the_query_or_response_reaches_the_scored_event(
    query: str, score: float
) -> None:
    result = scored(event(query, score))
    body = result.model_dump_json()
    for secret in (EMAIL, API_KEY, "alice.liddell", "4fQ9zT2m"):
        assert secret not in body
    leaked = [f for f in fragments(query) if f in body]
    assert leaked == []
    action = result.crag.action
    assert action.sub_queries is None and action.search_query is None


def test_every_crag_class_is_covered() -> None:
    classes = {scored(event(q, s)).crag.classification for q in QUERIES for s in (0.0, 0.5, 0.95)}
    assert {"ambiguous", "incorrect"} <= classes


def test_the_spans_rebuild_spec_000s_queries_and_the_setting_adds_them() -> None:
    for q in QUERIES:
        for s in (0.0, 0.5):
            plain = scored(event(q, s)).crag.action
            full = scored(event(q, s), include_query_text=True).crag.action
            if full.search_query is not None:
                assert plain.search_query_span is not None
                assert query_text(q, plain.search_query_span) == full.search_query
                assert API_KEY in full.search_query
            if full.sub_queries is not None:
                assert plain.sub_query_spans is not None
                assert [query_text(q, x) for x in plain.sub_query_spans] == full.sub_queries


def test_demo_traffic_copies_no_query_text() -> None:
    gen = TrafficGenerator(seed=3, malformed_rate=0.0)
    for _ in range(300):
        raw = gen.event()
        body = scored(orjson.dumps(raw)).model_dump_json()
        query = raw["query"]["text"]
        assert [f for f in fragments(query, 16) if f in body] == []
