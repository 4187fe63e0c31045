"""A spec 003 fixtures directory: ``cases.jsonl`` and the perspective label files, joined
by ``case_id``.

Files (JSON lines; only ``cases.jsonl`` is required):

- ``cases.jsonl``: one case a line, ``case_id`` (unique) and ``query`` required;
  ``query_type``, ``user_roles`` as in 003, and the extensions ``tags``, ``category``,
  ``difficulty``, ``answerable``, ``ground_truth_answer`` (004, 002) and ``is_attack``,
  ``attack_category``, ``is_leak``, ``leakage_categories`` (003 E), ``metadata`` (free).
- ``retrieval_labels.jsonl``, ``context_labels.jsonl``, ``groundedness_labels.jsonl``,
  ``pipeline_labels.jsonl``: at most one line per case (see :mod:`.label_records`). A
  case is labelled for a perspective when that file has a line for it.
- ``events.jsonl`` (optional, an extension): the service's recorded response to each case,
  a ``RagEvent`` line (validated as the worker does) whose ``event_id`` is the case_id and
  whose ``query.text`` is the case's query. It carries no ``labels``: they come from the
  label files.

Unknown fields, a duplicate case_id in a file, and a label or event line whose case_id is
not in ``cases.jsonl`` are errors naming the file and line. Files are read in the order
above, so without ``skip_invalid`` the first error in that order is raised. With
``skip_invalid=True`` an invalid line is skipped; when the invalid line is a label or an
event line of a known case, that whole case is left out too (a case with half its labels
would quietly fall out of a metric), and label lines of a case whose own line was invalid
are ignored.

>>> sorted(LABEL_FILES)  # doctest: +NORMALIZE_WHITESPACE
['context_labels.jsonl', 'groundedness_labels.jsonl', 'pipeline_labels.jsonl',
 'retrieval_labels.jsonl']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from monitor.evaluation.datasets.case import EvalCase, Perspective, validated_case
from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.evaluation.datasets.invalid_records import InvalidRecords
from monitor.evaluation.datasets.json_lines import json_lines, parse_object, string_field
from monitor.evaluation.datasets.label_records import (
    ContextLabelsRecord,
    GroundednessLabelsRecord,
    LabelsRecord,
    PipelineLabelsRecord,
    RetrievalLabelsRecord,
)
from monitor.evaluation.datasets.loaded_dataset import LoadedDataset
from monitor.evaluation.datasets.recorded_events import decode_line
from monitor.events.rag_event import Labels, RagEvent

__all__ = ["CASES_FILE", "CASE_FIELDS", "EVENTS_FILE", "LABEL_FILES", "load_fixtures_dir"]

CASES_FILE = "cases.jsonl"
EVENTS_FILE = "events.jsonl"

CASE_FIELDS = frozenset(
    {
        "case_id",
        "query",
        "query_type",
        "user_roles",
        "tags",
        "category",
        "difficulty",
        "answerable",
        "ground_truth_answer",
        "is_attack",
        "attack_category",
        "is_leak",
        "leakage_categories",
        "metadata",
    }
)
"""The fields a ``cases.jsonl`` line may have."""

LABEL_FILES: dict[str, tuple[type[LabelsRecord], Perspective]] = {
    "retrieval_labels.jsonl": (RetrievalLabelsRecord, "retrieval"),
    "context_labels.jsonl": (ContextLabelsRecord, "context_quality"),
    "groundedness_labels.jsonl": (GroundednessLabelsRecord, "groundedness"),
    "pipeline_labels.jsonl": (PipelineLabelsRecord, "pipeline"),
}
"""Each label file, the model of its lines and the perspective it labels."""

_CASE_RENAME = {
    "labels.answerable": "answerable",
    "labels.ground_truth_answer": "ground_truth_answer",
}


def _case(file: str, line: int, obj: dict[str, Any]) -> EvalCase:
    case_id = string_field(obj, "case_id")
    unknown = sorted(set(obj) - CASE_FIELDS)
    if unknown:
        raise DatasetError(
            file,
            line,
            unknown[0],
            "unknown field (the format has no such field; a typo?)",
            case_id=case_id,
        )
    values = {key: value for key, value in obj.items() if key != "ground_truth_answer"}
    values["labels"] = {
        "answerable": obj.get("answerable"),
        "ground_truth_answer": obj.get("ground_truth_answer"),
    }
    values["origin"] = f"{file}:{line}"
    return validated_case(values, file, line, rename=_CASE_RENAME, case_id=case_id)


class _Join:
    """The cases read so far, and the labels and events joined to them."""

    def __init__(self, invalid: InvalidRecords) -> None:
        self.invalid = invalid
        self.cases: dict[str, tuple[EvalCase, int]] = {}
        self.invalid_cases: set[str] = set()  # case_ids whose cases.jsonl line was invalid
        self.dropped: set[str] = set()  # cases with an invalid label or event line
        self.labels: dict[str, dict[Perspective, BaseModel]] = {}
        self.events: dict[str, RagEvent] = {}

    def read_cases(self, path: Path) -> None:
        file = str(path)
        for line, raw in json_lines(path):
            try:
                obj = parse_object(file, line, raw, "case_id")
                case = _case(file, line, obj)
            except DatasetError as exc:
                if exc.case_id is not None:
                    self.invalid_cases.add(exc.case_id)
                self.invalid.add(exc)
                continue
            if case.case_id in self.cases:
                first = self.cases[case.case_id][1]
                self.invalid.add(_duplicate(file, line, "case_id", case.case_id, first))
                continue
            self.cases[case.case_id] = (case, line)

    def _target(self, file: str, line: int, field: str, case_id: str, seen: dict[str, int]) -> bool:
        """Whether a label or event line for ``case_id`` joins a case (else reported)."""
        if case_id in seen:
            self._drop(_duplicate(file, line, field, case_id, seen[case_id]))
            return False
        seen[case_id] = line
        if case_id in self.cases:
            return True
        if case_id not in self.invalid_cases:
            self.invalid.add(
                DatasetError(
                    file,
                    line,
                    field,
                    f"unknown case_id {case_id!r}: not in {CASES_FILE}",
                    case_id=case_id,
                )
            )
        return False

    def _drop(self, error: DatasetError) -> None:
        self.invalid.add(error)
        if error.case_id is not None:
            self.dropped.add(error.case_id)

    def read_labels(self, path: Path, model: type[LabelsRecord], perspective: Perspective) -> None:
        file = str(path)
        seen: dict[str, int] = {}
        for line, raw in json_lines(path):
            try:
                obj = parse_object(file, line, raw, "case_id")
            except DatasetError as exc:
                self._drop(exc)
                continue
            case_id = string_field(obj, "case_id")
            try:
                record = model.model_validate(obj)
            except ValidationError as exc:
                self._drop(DatasetError.from_validation(file, line, exc, case_id=case_id))
                continue
            if self._target(file, line, "case_id", record.case_id, seen):
                self.labels.setdefault(record.case_id, {})[perspective] = record

    def read_events(self, path: Path) -> None:
        file = str(path)
        seen: dict[str, int] = {}
        for line, raw in json_lines(path):
            try:
                event = decode_line(file, line, raw)
            except DatasetError as exc:
                self._drop(exc)
                continue
            if not self._target(file, line, "event_id", event.event_id, seen):
                continue
            case = self.cases[event.event_id][0]
            if event.labels is not None:
                reason = "an event here carries no labels: they come from the label files"
                self._drop(DatasetError(file, line, "labels", reason, case_id=case.case_id))
            elif event.query.text != case.query:
                reason = f"differs from the query of case {case.case_id!r} in {CASES_FILE}"
                self._drop(DatasetError(file, line, "query.text", reason, case_id=case.case_id))
            else:
                self.events[case.case_id] = event

    def joined(self) -> list[EvalCase]:
        out = []
        for case_id, (case, _) in self.cases.items():
            if case_id in self.dropped:
                continue
            out.append(_joined(case, self.labels.get(case_id, {}), self.events.get(case_id)))
        return out


def _duplicate(file: str, line: int, field: str, case_id: str, first: int) -> DatasetError:
    reason = f"duplicate case_id {case_id!r} (first on line {first})"
    return DatasetError(file, line, field, reason, case_id=case_id)


def _joined(
    case: EvalCase, parts: dict[Perspective, BaseModel], event: RagEvent | None
) -> EvalCase:
    labels: dict[str, Any] = {
        "answerable": case.labels.answerable,
        "ground_truth_answer": case.labels.ground_truth_answer,
    }
    update: dict[str, Any] = {"event": event}
    retrieval = parts.get("retrieval")
    if isinstance(retrieval, RetrievalLabelsRecord):
        labels.update(
            relevant_chunks=retrieval.graded_chunks(),
            relevant_docs=retrieval.graded_docs(),
            gold_supports=retrieval.gold_supports,
            required_support_groups=retrieval.required_support_groups,
        )
    context = parts.get("context_quality")
    if isinstance(context, ContextLabelsRecord):
        labels["gold_facts"] = context.facts()
        update["expected_chunks"] = context.expected_chunks
    grounded = parts.get("groundedness")
    if isinstance(grounded, GroundednessLabelsRecord):
        labels.update(
            expected_claims=grounded.expected_claims,
            forbidden_claims=grounded.forbidden_claims,
        )
        update["expected_citations"] = grounded.expected_citations
    pipeline = parts.get("pipeline")
    if isinstance(pipeline, PipelineLabelsRecord):
        update.update(pipeline.model_dump(exclude={"case_id"}))
    perspectives: set[Perspective] = set(parts)
    if case.is_attack is not None or case.is_leak is not None:
        perspectives.add("safety")
    update["labels"] = Labels(**labels)
    update["perspectives"] = frozenset(perspectives)
    return case.model_copy(update=update)


def load_fixtures_dir(path: str | Path, *, skip_invalid: bool = False) -> LoadedDataset:
    """Load a 003 fixtures directory; the dataset is named after the directory. See
    :func:`monitor.evaluation.datasets.loader.load_dataset` for ``skip_invalid``."""
    root = Path(path)
    if not root.is_dir():
        raise DatasetError(str(path), None, None, "not a directory")
    cases_file = root / CASES_FILE
    if not cases_file.is_file():
        raise DatasetError(str(path), None, None, f"no {CASES_FILE} in the directory")
    join = _Join(InvalidRecords(skip_invalid=skip_invalid))
    join.read_cases(cases_file)
    for name, (model, perspective) in LABEL_FILES.items():
        if (root / name).is_file():
            join.read_labels(root / name, model, perspective)
    if (root / EVENTS_FILE).is_file():
        join.read_events(root / EVENTS_FILE)
    cases = join.joined()
    join.invalid.require_cases(str(cases_file), len(cases))
    return LoadedDataset(root.resolve().name, "fixtures_dir", cases, join.invalid.skipped)
