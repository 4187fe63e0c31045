"""``EvalCase`` invariants, and its vocabularies against the scorers' own."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from monitor.evaluation.datasets import (
    ATTACK_CATEGORIES,
    LEAKAGE_KINDS,
    PERSPECTIVES,
    DatasetError,
    EvalCase,
    implied_perspectives,
)
from monitor.events.rag_event import Labels, RagEvent
from monitor.events.scored_event import Finding
from monitor.scoring.injection.common import CATEGORIES


def case(**values: Any) -> EvalCase:
    return EvalCase.model_validate({"case_id": "c", "query": "q?", "origin": "f:1", **values})


def test_vocabularies_match_the_scorers() -> None:
    assert ATTACK_CATEGORIES == CATEGORIES
    kinds = get_args(Finding.model_fields["kind"].annotation)
    assert sorted(LEAKAGE_KINDS.values()) == sorted(kinds)
    assert PERSPECTIVES == ("retrieval", "context_quality", "groundedness", "safety", "pipeline")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"answerable": True}, "answerable differs from labels.answerable"),
        ({"attack_category": "role_override", "is_attack": False}, "is_attack is not true"),
        ({"leakage_categories": ["secret_exposure"]}, "is_leak is not true"),
        (
            {
                "event": {
                    "schema_version": "1",
                    "event_id": "x",
                    "timestamp_ms": 1,
                    "query": {"text": "q?"},
                }
            },
            "event_id differs from case_id",
        ),
        (
            {
                "event": {
                    "schema_version": "1",
                    "event_id": "c",
                    "timestamp_ms": 1,
                    "query": {"text": "other"},
                }
            },
            "query.text differs",
        ),
        ({"latency_budget_ms": {"p0": 1}}, "String should match pattern"),
        ({"tags": "a"}, "Input should be a valid list"),
        ({"surprise": 1}, "Extra inputs are not permitted"),
    ],
)
def test_invariants(values: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        case(**values)


def test_frozen() -> None:
    with pytest.raises(ValidationError):
        case().query = "changed"  # type: ignore[misc]


def test_latency_budget_keys() -> None:
    budget = {"p50": 800, "p95": 5000, "p99.9": 9000, "p100": 10000, "max": 12000}
    assert case(latency_budget_ms=budget).latency_budget_ms == budget


def test_labelled_event_carries_the_case_labels() -> None:
    event = RagEvent.model_validate(
        {"schema_version": "1", "event_id": "c", "timestamp_ms": 1, "query": {"text": "q?"}}
    )
    labels = Labels(relevant_docs={"d": 2})
    labelled = case(event=event, labels=labels).labelled_event()
    assert labelled is not None and labelled.labels == labels
    assert event.labels is None  # the recorded event is not changed


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, set()),
        ({"labels": {"relevant_chunks": {"a": 0}}}, set()),  # judged, none relevant
        ({"labels": {"relevant_docs": {"a": 1}}}, {"retrieval"}),
        ({"labels": {"gold_supports": [{"rel_path": "a.md"}]}}, {"retrieval"}),
        ({"expected_chunks": ["a"]}, {"context_quality"}),
        ({"expected_citations": ["d"]}, {"groundedness"}),
        ({"is_leak": False}, {"safety"}),
        ({"min_citations": 0}, {"pipeline"}),
        ({"latency_budget_ms": {"p95": 1}}, {"pipeline"}),
    ],
)
def test_implied_perspectives(values: dict[str, Any], expected: set[str]) -> None:
    assert implied_perspectives(case(**values)) == expected


def test_dataset_error_message_forms() -> None:
    err = DatasetError("a.jsonl", 7, "query", "multi\nline   reason")
    assert str(err) == "a.jsonl:7: field query: multi line reason"
    assert (err.file, err.line, err.field, err.reason) == (
        "a.jsonl",
        7,
        "query",
        "multi line reason",
    )
    assert str(DatasetError("a.jsonl", 7, None, "bad")) == "a.jsonl:7: bad"


def test_dataset_error_pickles() -> None:
    err = DatasetError("a.jsonl", 7, "query", "bad", case_id="q1")
    back = pickle.loads(pickle.dumps(err))
    assert (str(back), back.line, back.field, back.case_id) == (str(err), 7, "query", "q1")


def test_the_package_is_pure() -> None:
    """No Kafka, HTTP, metrics or asyncio module is imported by the datasets package."""
    probe = (
        "import sys, monitor.evaluation.datasets\n"
        "bad = {'faust', 'aiokafka', 'httpx', 'prometheus_client', 'asyncio'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
