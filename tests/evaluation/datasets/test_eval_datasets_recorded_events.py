"""Recorded ``RagEvent`` lines with labels: validated as the worker does, one case each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.evaluation.datasets import (
    DatasetError,
    EvalCase,
    load_fixtures_dir,
    load_recorded_events,
)
from monitor.pipeline import DEFAULT_MAX_EVENT_BYTES

EVALS = Path(__file__).resolve().parents[2] / "fixtures" / "evals"
GOOD = EVALS / "recorded_events.jsonl"
BROKEN = EVALS / "recorded_events_broken.jsonl"


def event(event_id: str = "e1", **extra: Any) -> dict[str, Any]:
    return {
        "schema_version": "1",
        "event_id": event_id,
        "timestamp_ms": 1,
        "query": {"text": "How many vacation days?", "type": "faq", "user_roles": ["employee"]},
        "labels": {"relevant_docs": {"hr": 3}},
        **extra,
    }


def write(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def error_of(path: Path) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        load_recorded_events(path)
    return info.value


def test_loads_the_committed_events() -> None:
    ds = load_recorded_events(GOOD)
    assert (ds.name, ds.format, ds.skipped) == ("recorded_events", "recorded_events", [])
    assert [c.case_id for c in ds.cases] == [f"q{i:03d}" for i in range(1, 13)]
    first = ds.cases[0]
    assert first.event is not None and first.event.response is not None
    assert first.event.labels is not None  # the line as recorded, labels and all
    labelled = first.labelled_event()
    assert labelled is not None and labelled.labels == first.labels
    assert (first.query_type, first.user_roles, first.tags) == (
        "faq",
        ["employee"],
        ["hr", "leave"],
    )
    assert first.expected_outcome == "success" and first.latency_budget_ms == {"p95": 5000.0}
    assert first.labels.model_extra == {}  # case fields are taken out of the labels
    assert first.origin == f"{GOOD}:1"


def _comparable(case: EvalCase) -> dict[str, Any]:
    event = case.labelled_event()
    assert event is not None
    return {
        **case.model_dump(exclude={"origin", "event", "metadata"}),
        "event": event.model_dump(exclude={"labels"}),
    }


def test_same_cases_as_the_003_directory() -> None:
    """The generator writes one set of cases in both formats: the two loaders must agree
    on every field (the 003 perspectives come from which label files have a line, the
    recorded ones from the labels themselves)."""
    recorded = load_recorded_events(GOOD).cases
    fixtures = load_fixtures_dir(EVALS / "fixtures003").cases
    assert [_comparable(c) for c in recorded] == [_comparable(c) for c in fixtures]


def test_unknown_fields_are_kept_as_the_worker_keeps_them(tmp_path: Path) -> None:
    row = event(trace_id="t-1", labels={"relevant_docs": {"hr": 3}, "reviewer": "ana"})
    case = load_recorded_events(write(tmp_path, [row])).cases[0]
    assert case.labels.model_extra == {"reviewer": "ana"}
    assert case.event is not None and case.event.model_extra == {"trace_id": "t-1"}


def test_answerable_and_perspectives_come_from_the_labels(tmp_path: Path) -> None:
    row = event(labels={"answerable": False, "is_attack": False, "forbidden_claims": ["x"]})
    case = load_recorded_events(write(tmp_path, [row])).cases[0]
    assert case.answerable is False
    assert case.perspectives == {"safety", "groundedness"}


# --- errors ------------------------------------------------------------------------


def test_broken_copy_raises_its_first_error() -> None:
    err = error_of(BROKEN)
    assert (err.line, err.field) == (2, None)
    assert err.reason.startswith("Invalid JSON")


def test_skip_invalid_reports_what_it_skipped() -> None:
    ds = load_recorded_events(BROKEN, skip_invalid=True)
    assert [(e.line, e.field, e.case_id) for e in ds.skipped] == [
        (2, None, "q002"),
        (4, "labels.relevant_chunks.*", "q004"),  # the path shape, as in the DLQ
        (6, "labels", "q006"),
        (8, "event_id", "q007"),
        (10, "labels.expected_outcome", "q010"),
    ]
    assert ds.skipped[3].reason == "duplicate event_id 'q007' (first on line 7)"
    assert [c.case_id for c in ds.cases] == ["q001", "q003", "q005", "q007", "q009", "q011", "q012"]


@pytest.mark.parametrize(
    ("row", "field", "reason"),
    [
        (event(timestamp_ms="1"), "timestamp_ms", "Input should be a valid integer"),
        (event(event_id=""), "event_id", "String should have at least 1 character"),
        ({"schema_version": "1", "event_id": "e1", "timestamp_ms": 1}, "query", "Field required"),
        (event(labels=None), "labels", "the event carries no labels"),
        (event(labels={"tags": "hr"}), "labels.tags", "Input should be a valid list"),
        (event(labels={"min_citations": "1"}), "labels.min_citations", "Input should be"),
        (event(labels={"attack_category": "x"}), "labels.attack_category", "Input should be"),
        (event(labels={"answerable": 1}), "labels.answerable", "Input should be a valid boolean"),
        ([1, 2], None, "the event is not a JSON object"),
    ],
)
def test_line_errors(tmp_path: Path, row: Any, field: str | None, reason: str) -> None:
    err = error_of(write(tmp_path, [event("ok"), row]))
    assert (err.line, err.field) == (2, field)
    assert err.reason.startswith(reason), err.reason


def test_the_worker_size_limit_applies(tmp_path: Path) -> None:
    big = event(response={"text": "x" * DEFAULT_MAX_EVENT_BYTES})
    err = error_of(write(tmp_path, [big]))
    assert err.line == 1 and "exceeds" in err.reason


def test_empty_file_is_an_error(tmp_path: Path) -> None:
    assert error_of(write(tmp_path, [])).reason == "the dataset has no valid case"
