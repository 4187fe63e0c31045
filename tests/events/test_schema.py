"""The committed JSON Schemas in ``schemas/`` match the models; models round-trip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.events import DeadLetter, RagEvent, ScoredEvent
from monitor.events.schema import render, schema_documents
from monitor.pipeline import process

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
REGENERATE = "run `ragmon schema` (it writes schemas/) and commit the result"

# The example event of DESIGN section 4.
SAMPLE: dict[str, Any] = {
    "schema_version": "1",
    "event_id": "3f1c0000-aaaa-bbbb-cccc-000000000001",
    "timestamp_ms": 1795353600000,
    "tenant": "acme",
    "application": "support-bot",
    "experiment": "reranker-v2",
    "variant": "treatment",
    "query": {"text": "What is the vacation policy?", "type": "faq", "user_roles": ["employee"]},
    "chunks": [
        {
            "chunk_id": "internal-001-child-002-001",
            "document_id": "internal-001",
            "content": "Employees get 15 days of vacation per year.",
            "score": 0.82,
            "rerank_score": 0.91,
            "metadata": {
                "section_title": "Leave",
                "rel_path": "hr/leave.md",
                "heading_path": "Leave > Vacation",
            },
        }
    ],
    "context": {"text": "Employees get 15 days of vacation per year.", "token_count": 812},
    "response": {
        "text": "You get 15 days.",
        "citations": [{"document_id": "internal-001", "chunk_id": "internal-001-child-002-001"}],
        "abstained": False,
        "confidence": 0.74,
        "policy_flags": [],
    },
    "latency_ms": {
        "retrieve": 120,
        "generate": 910,
        "guardrail_input": 3,
        "guardrail_output": 4,
        "total": 1080,
    },
    "labels": {
        "relevant_chunks": {"internal-001-child-002-001": 3},
        "relevant_docs": {"internal-001": 3},
        "gold_supports": [
            {"rel_path": "hr/leave.md", "heading_path": "Leave > Vacation", "snippets": []}
        ],
        "required_support_groups": [],
        "answerable": True,
        "gold_facts": [{"fact": "15 days vacation", "aliases": ["fifteen days"]}],
        "expected_claims": [],
        "forbidden_claims": [],
        "ground_truth_answer": None,
    },
    "score_scale": "cosine",
    "rerank_score_scale": "probability",
}


@pytest.mark.parametrize("name", sorted(schema_documents()))
def test_committed_schema_is_up_to_date(name: str) -> None:
    path = SCHEMAS / name
    expected = render(schema_documents()[name])
    assert path.is_file(), f"schemas/{name} is missing: {REGENERATE}"
    actual = path.read_text(encoding="utf-8")
    assert actual == expected, f"schemas/{name} differs from the models: {REGENERATE}"


def test_no_stale_schema_files() -> None:
    committed = sorted(p.name for p in SCHEMAS.glob("*.json"))
    assert committed == sorted(schema_documents()), (
        f"schemas/ holds {committed}, the models give {sorted(schema_documents())}: {REGENERATE}"
    )


def test_schemas_name_their_topic_and_required_fields() -> None:
    docs = schema_documents()
    assert "rag.events.v1" in docs["rag_event.v1.json"]["description"]
    assert "rag.scores.v1" in docs["scored_event.v1.json"]["description"]
    assert "rag.events.dlq.v1" in docs["dead_letter.v1.json"]["description"]
    required = set(docs["rag_event.v1.json"]["required"])
    assert required == {"schema_version", "event_id", "timestamp_ms", "query"}
    for name, doc in docs.items():
        assert doc["$id"].endswith(name)
        json.loads(render(doc))  # valid JSON


def test_rag_event_round_trip() -> None:
    event = RagEvent.model_validate(SAMPLE)
    again = RagEvent.model_validate_json(event.model_dump_json())
    assert again == event
    assert event.model_dump(mode="json") == {
        **SAMPLE,
        "latency_ms": {k: float(v) for k, v in SAMPLE["latency_ms"].items()},
    }


def test_scored_event_round_trip() -> None:
    scored = process(json.dumps(SAMPLE).encode())
    assert isinstance(scored, ScoredEvent)
    again = ScoredEvent.model_validate_json(scored.model_dump_json())
    assert again == scored
    data = json.loads(scored.model_dump_json())
    assert set(data) == set(ScoredEvent.model_fields)
    assert set(data["quality"]) == {
        "overall",
        "retrieval_confidence",
        "context_sufficiency",
        "diversity_score",
        "estimated_faithfulness",
        "warning",
    }
    assert data["outcome"] == "success"
    assert data["variant"] == "treatment"


def test_dead_letter_round_trip() -> None:
    err = process(b"{nope")
    assert not isinstance(err, ScoredEvent)
    letter = DeadLetter.model_validate(
        {
            "error": {
                "stage": err.stage,
                "reason": err.reason,
                "field": err.field,
                "detail": err.detail,
            },
            "topic": "rag.events.v1",
            "partition": 0,
            "offset": 42,
            "received_ms": 1795353600000,
            "payload_b64": "e25vcGU=",
        }
    )
    assert DeadLetter.model_validate_json(letter.model_dump_json()) == letter
