"""Recorded ``RagEvent`` JSON lines with ``labels``: each line one case, as the stream saw it.

Each line is validated exactly as the worker validates a Kafka message
(:func:`monitor.pipeline.decode_event`: strict types, the 1 MiB size limit, unknown fields
kept and ignored), so a file that loads here is a file ``ragmon score`` and
``ragmon replay`` accept. Its ``event_id`` is the case_id (unique in the file), and it
must carry ``labels`` (an event without ground truth is not an evaluation case). The case
fields that ``Labels`` does not declare are read from ``labels`` extras of the same name
(``tags``, ``category``, ``difficulty``, ``expected_chunks``, ``expected_citations``, the
pipeline and safety expectations; see :mod:`.case`) with ``EvalCase``'s strict types, and
are removed from ``EvalCase.labels``; other unknown label fields stay in ``labels``.
``perspectives`` are implied by the labels (:func:`.case.implied_perspectives`).

>>> line = (b'{"schema_version": "1", "event_id": "e1", "timestamp_ms": 1,'
...         b' "query": {"text": "Vacation days?", "type": "faq"},'
...         b' "labels": {"relevant_docs": {"hr": 3}, "tags": ["hr"], "expected_outcome": "success"}}')
>>> case = case_from_event("demo.jsonl", 1, decode_line("demo.jsonl", 1, line))
>>> case.case_id, case.query_type, case.tags, case.expected_outcome, sorted(case.perspectives)
('e1', 'faq', ['hr'], 'success', ['pipeline', 'retrieval'])
>>> case.labels.model_extra, case.event is not None
({}, True)
>>> decode_line("demo.jsonl", 2, b'{"schema_version": "1", "event_id": 5, "timestamp_ms": 1,'
...                                b' "query": {"text": "q"}}')
Traceback (most recent call last):
...
monitor.evaluation.datasets.dataset_error.DatasetError: demo.jsonl:2: field event_id: Input should be a valid string
"""  # noqa: E501

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from monitor.errors import EventError
from monitor.evaluation.datasets.case import EvalCase, implied_perspectives, validated_case
from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.evaluation.datasets.invalid_records import InvalidRecords
from monitor.evaluation.datasets.json_lines import json_lines, recover_field, string_field
from monitor.evaluation.datasets.loaded_dataset import LoadedDataset
from monitor.events.rag_event import Labels, RagEvent
from monitor.pipeline import decode_event

__all__ = ["LABEL_EXTRAS", "case_from_event", "decode_line", "load_recorded_events"]

LABEL_EXTRAS = (
    "tags",
    "category",
    "difficulty",
    "expected_chunks",
    "expected_citations",
    "expected_outcome",
    "required_flags",
    "forbidden_flags",
    "min_citations",
    "latency_budget_ms",
    "is_attack",
    "attack_category",
    "is_leak",
    "leakage_categories",
)
"""``EvalCase`` fields read from a recorded event's ``labels`` extras."""

_RENAME = {name: f"labels.{name}" for name in LABEL_EXTRAS}


def _event_id(raw: bytes) -> str | None:
    try:
        return string_field(orjson.loads(raw), "event_id")
    except orjson.JSONDecodeError:
        return recover_field(raw, "event_id")


def decode_line(file: str, line: int, raw: bytes) -> RagEvent:
    """One line as the worker reads it, or a ``DatasetError`` with the worker's field."""
    try:
        return decode_event(raw)
    except EventError as exc:
        raise DatasetError(file, line, exc.field, exc.detail, case_id=_event_id(raw)) from None


def case_from_event(file: str, line: int, event: RagEvent) -> EvalCase:
    """The case of one recorded, labelled event."""
    if event.labels is None:
        raise DatasetError(
            file, line, "labels", "the event carries no labels", case_id=event.event_id
        )
    extras = event.labels.model_extra or {}
    values: dict[str, Any] = {name: extras[name] for name in LABEL_EXTRAS if name in extras}
    labels = Labels.model_validate(event.labels.model_dump(exclude=set(LABEL_EXTRAS)))
    values.update(
        case_id=event.event_id,
        query=event.query.text,
        query_type=event.query.type,
        user_roles=event.query.user_roles,
        answerable=labels.answerable,
        labels=labels,
        origin=f"{file}:{line}",
        event=event,
    )
    case = validated_case(values, file, line, rename=_RENAME, case_id=event.event_id)
    return case.model_copy(update={"perspectives": implied_perspectives(case)})


def load_recorded_events(path: str | Path, *, skip_invalid: bool = False) -> LoadedDataset:
    """Load a JSON-lines file of labelled ``RagEvent`` s; the dataset is named after the
    file (its stem). See :func:`monitor.evaluation.datasets.loader.load_dataset` for
    ``skip_invalid``."""
    source = Path(path)
    file = str(path)
    invalid = InvalidRecords(skip_invalid=skip_invalid)
    cases: list[EvalCase] = []
    first_line: dict[str, int] = {}
    for line, raw in json_lines(source):
        try:
            case = case_from_event(file, line, decode_line(file, line, raw))
        except DatasetError as exc:
            invalid.add(exc)
            continue
        if case.case_id in first_line:
            invalid.add(
                DatasetError(
                    file,
                    line,
                    "event_id",
                    f"duplicate event_id {case.case_id!r} (first on line "
                    f"{first_line[case.case_id]})",
                    case_id=case.case_id,
                )
            )
            continue
        first_line[case.case_id] = line
        cases.append(case)
    invalid.require_cases(file, len(cases))
    return LoadedDataset(source.stem, "recorded_events", cases, invalid.skipped)
