"""Spec 002's ``EvalDataset`` JSON file: a named list of ``EvalQuery`` s.

The models are 002's, with strict types and no unknown fields (a misspelt
``relevant_doc_ids`` would otherwise lose the query's labels without a word); what 002
does not define goes in a query's free-form ``metadata``. A query becomes an ``EvalCase``
(the mapping is in :mod:`.case`): ``query_id`` -> ``case_id``, ``question`` -> ``query``,
``relevant_doc_ids`` -> ``labels.relevant_docs`` with grade 1 (002's binary relevance),
or the grades in ``metadata.relevance_grades`` (003 A's 0-3); ``ground_truth_answer`` ->
``labels.ground_truth_answer``; the metadata keys named like ``EvalCase`` fields
(:data:`METADATA_FIELDS`) fill those fields, and the whole ``metadata`` is kept. 002 files
carry no response, so ``event`` is ``None``. Errors give the line of the offending query
(or field) in the file and its path, such as ``queries.2.question``.

>>> query = EvalQuery(query_id="q1", question="What is the capital of France?",
...     relevant_doc_ids=["doc_1"], metadata={"category": "geography", "tags": ["geo"]})
>>> case = case_from_query("eval.json", 7, query)
>>> case.case_id, case.labels.relevant_docs, case.category, case.tags, case.origin
('q1', {'doc_1': 1.0}, 'geography', ['geo'], 'eval.json:7')
>>> sorted(case.perspectives)
['retrieval']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from monitor.evaluation.datasets.case import EvalCase, implied_perspectives, validated_case
from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.evaluation.datasets.invalid_records import InvalidRecords
from monitor.evaluation.datasets.json_lines import read_bytes, string_field
from monitor.evaluation.datasets.json_positions import line_of
from monitor.evaluation.datasets.label_records import RetrievalLabelsRecord
from monitor.evaluation.datasets.loaded_dataset import LoadedDataset
from monitor.evaluation.datasets.recorded_events import LABEL_EXTRAS

__all__ = ["METADATA_FIELDS", "EvalDataset", "EvalQuery", "case_from_query", "load_eval_dataset"]

METADATA_FIELDS = ("query_type", "user_roles", "answerable", *LABEL_EXTRAS)
"""``EvalCase`` fields read from a query's ``metadata`` keys of the same name."""

_STRICT = ConfigDict(frozen=True, strict=True, extra="forbid")


class EvalQuery(BaseModel):
    """A query in an evaluation dataset (002)."""

    model_config = _STRICT
    query_id: str = Field(min_length=1)
    question: str
    ground_truth_answer: str | None = None
    relevant_doc_ids: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


class EvalDataset(BaseModel):
    """Evaluation dataset with queries and ground truth (002)."""

    model_config = _STRICT
    name: str
    queries: list[EvalQuery]
    description: str | None = None
    version: str = "1.0"


_RENAME = {name: f"metadata.{name}" for name in METADATA_FIELDS} | {
    "labels.answerable": "metadata.answerable",
    "relevance_grades": "metadata.relevance_grades",
    "relevant_docs": "relevant_doc_ids",
}


def case_from_query(file: str, line: int, query: EvalQuery) -> EvalCase:
    """The case of one 002 query (read from ``file`` at ``line``)."""
    meta = query.metadata
    try:
        graded = RetrievalLabelsRecord.model_validate(
            {
                "case_id": query.query_id,
                "relevant_docs": query.relevant_doc_ids,
                "relevance_grades": meta.get("relevance_grades", {}),
            }
        )
        values: dict[str, Any] = {name: meta[name] for name in METADATA_FIELDS if name in meta}
        values.update(
            case_id=query.query_id,
            query=query.question,
            labels={
                "relevant_docs": graded.graded_docs(),
                "ground_truth_answer": query.ground_truth_answer,
                "answerable": meta.get("answerable"),
            },
            metadata=meta,
            origin=f"{file}:{line}",
        )
    except ValidationError as exc:  # a metadata value the graded labels cannot take
        raise DatasetError.from_validation(
            file, line, exc, rename=_RENAME, case_id=query.query_id
        ) from None
    case = validated_case(values, file, line, rename=_RENAME, case_id=query.query_id)
    return case.model_copy(update={"perspectives": implied_perspectives(case)})


def _at(text: str, error: DatasetError, prefix: tuple[str | int, ...] = ()) -> DatasetError:
    """``error`` placed at its field's line, its field prefixed by the record's path."""
    parts = [*prefix, *(error.field.split(".") if error.field else [])]
    field = ".".join(str(part) for part in parts) or None
    return DatasetError(
        error.file, line_of(text, parts), field, error.reason, case_id=error.case_id
    )


def load_eval_dataset(path: str | Path, *, skip_invalid: bool = False) -> LoadedDataset:
    """Load a 002 ``EvalDataset`` JSON file; the dataset is named by its ``name``. See
    :func:`monitor.evaluation.datasets.loader.load_dataset` for ``skip_invalid`` (a
    record is one query)."""
    file = str(path)
    data = read_bytes(Path(path)).removeprefix(b"\xef\xbb\xbf")
    try:
        top = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        reason = f"invalid JSON: {exc.msg} (column {exc.colno})"
        raise DatasetError(file, exc.lineno, None, reason) from None
    text = data.decode()
    if not isinstance(top, dict):
        raise DatasetError(file, 1, None, "expected a JSON object (an EvalDataset)")
    raw_queries = top.get("queries")
    try:
        header = EvalDataset.model_validate(
            {**top, "queries": []} if isinstance(raw_queries, list) else top
        )
    except ValidationError as exc:
        raise _at(text, DatasetError.from_validation(file, None, exc)) from None
    queries: list[Any] = raw_queries if isinstance(raw_queries, list) else []
    invalid = InvalidRecords(skip_invalid=skip_invalid)
    cases: list[EvalCase] = []
    first: dict[str, int] = {}
    for index, raw in enumerate(queries):
        prefix = ("queries", index)
        line = line_of(text, prefix)
        try:
            query = EvalQuery.model_validate(raw)
            case = case_from_query(file, line, query)
        except ValidationError as exc:
            error = DatasetError.from_validation(
                file, None, exc, case_id=string_field(raw, "query_id")
            )
            invalid.add(_at(text, error, prefix))
            continue
        except DatasetError as exc:
            invalid.add(_at(text, exc, prefix))
            continue
        if case.case_id in first:
            reason = f"duplicate query_id {case.case_id!r} (first on line {first[case.case_id]})"
            error = DatasetError(file, None, "query_id", reason, case_id=case.case_id)
            invalid.add(_at(text, error, prefix))
            continue
        first[case.case_id] = line
        cases.append(case)
    invalid.require_cases(file, len(cases))
    return LoadedDataset(
        header.name, "eval_dataset", cases, invalid.skipped, header.description, header.version
    )
