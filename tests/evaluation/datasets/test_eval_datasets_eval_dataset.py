"""Spec 002 ``EvalDataset`` JSON files: mapping onto ``EvalCase`` and errors at the line of
the offending query or field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.evaluation.datasets import DatasetError, EvalDataset, EvalQuery, load_eval_dataset

EVALS = Path(__file__).resolve().parents[2] / "fixtures" / "evals"
GOOD = EVALS / "eval_dataset.json"
BROKEN = EVALS / "eval_dataset_broken.json"

QUERY = {"query_id": "q1", "question": "What is the capital of France?"}


def write(tmp_path: Path, document: Any, *, indent: int | None = 2) -> Path:
    path = tmp_path / "ds.json"
    path.write_text(json.dumps(document, indent=indent))
    return path


def dataset(*queries: Any, **top: Any) -> dict[str, Any]:
    return {"name": "tiny", **top, "queries": list(queries)}


def error_of(path: Path) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        load_eval_dataset(path)
    return info.value


def test_loads_the_committed_dataset() -> None:
    ds = load_eval_dataset(GOOD)
    assert (ds.name, ds.format, ds.version, ds.skipped) == (
        "northwind-policies-002",
        "eval_dataset",
        "1.0",
        [],
    )
    assert ds.description == "Northwind policy questions (spec 002 format)"
    assert [c.case_id for c in ds.cases] == ["q001", "q003", "q005", "q006", "q008", "q010"]
    first = ds.cases[0]
    assert first.query == "How many paid vacation days do full-time employees get per year?"
    assert first.labels.relevant_docs == {"hr-001": 3.0}  # graded by metadata.relevance_grades
    assert first.labels.ground_truth_answer is not None
    assert (first.query_type, first.category, first.difficulty, first.tags) == (
        "faq",
        "factual",
        "easy",
        ["hr", "leave"],
    )
    assert first.answerable is True and first.labels.answerable is True
    assert first.metadata["relevance_grades"] == {"hr-001": 3}
    assert first.perspectives == {"retrieval"}
    assert first.event is None
    assert first.origin == f"{GOOD}:6"  # the line of the query's "{"
    unanswerable = ds.cases[-1]
    assert (unanswerable.answerable, unanswerable.labels.relevant_docs) == (False, {})
    assert unanswerable.perspectives == frozenset()


def test_binary_relevance_without_grades(tmp_path: Path) -> None:
    query = {**QUERY, "relevant_doc_ids": ["doc_1", "doc_5"], "metadata": {"category": "geo"}}
    case = load_eval_dataset(write(tmp_path, dataset(query))).cases[0]
    assert case.labels.relevant_docs == {"doc_1": 1.0, "doc_5": 1.0}
    assert case.category == "geo"
    assert case.metadata == {"category": "geo"}


def test_metadata_fills_pipeline_and_safety_expectations(tmp_path: Path) -> None:
    metadata = {
        "is_attack": True,
        "attack_category": "prompt_extraction",
        "expected_outcome": "blocked",
        "required_flags": ["guardrail_blocked"],
        "note": "kept as is",
    }
    case = load_eval_dataset(write(tmp_path, dataset({**QUERY, "metadata": metadata}))).cases[0]
    assert (case.is_attack, case.attack_category, case.expected_outcome) == (
        True,
        "prompt_extraction",
        "blocked",
    )
    assert case.required_flags == ["guardrail_blocked"]
    assert case.perspectives == {"safety", "pipeline"}
    assert case.metadata["note"] == "kept as is"


def test_the_spec_models_round_trip(tmp_path: Path) -> None:
    model = EvalDataset(name="m", queries=[EvalQuery(query_id="a", question="b?")])
    path = tmp_path / "m.json"
    path.write_text(model.model_dump_json(indent=2))
    ds = load_eval_dataset(path)
    assert (ds.name, ds.version, [c.case_id for c in ds.cases]) == ("m", "1.0", ["a"])


# --- errors ------------------------------------------------------------------------


def test_broken_copy_raises_at_the_line_of_the_field() -> None:
    err = error_of(BROKEN)
    lines = BROKEN.read_text().splitlines()
    assert err.field == "queries.1.question"
    assert err.line is not None and lines[err.line - 1].strip() == '"question": 42,'
    assert err.case_id == "q003"
    assert str(err).startswith(f"{BROKEN}:{err.line}: field queries.1.question: ")


def test_skip_invalid_reports_what_it_skipped() -> None:
    ds = load_eval_dataset(BROKEN, skip_invalid=True)
    assert [c.case_id for c in ds.cases] == ["q001", "q005", "q008", "q010"]
    assert [(e.field, e.case_id) for e in ds.skipped] == [
        ("queries.1.question", "q003"),
        ("queries.3.query_id", None),
    ]
    lines = BROKEN.read_text().splitlines()
    missing = ds.skipped[1]
    assert missing.line is not None and lines[missing.line - 1].strip() == "{"
    assert missing.reason == "Field required"


def test_bad_json_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "name": "x",\n  "queries": [\n    {"query_id": "a",}\n  ]\n}\n')
    err = error_of(path)
    assert (err.line, err.field) == (4, None)
    assert err.reason.startswith("invalid JSON")


@pytest.mark.parametrize(
    ("document", "field", "line"),
    [
        ({"queries": []}, "name", 1),
        ({"name": "x", "queries": {}}, "queries", 3),
        ({"name": "x", "version": 2, "queries": []}, "version", 3),
        ({"name": "x", "queries": [], "extra": 1}, "extra", 4),
    ],
)
def test_file_level_errors_always_raise(
    tmp_path: Path, document: dict[str, Any], field: str, line: int
) -> None:
    path = write(tmp_path, document)
    for skip in (False, True):
        with pytest.raises(DatasetError) as info:
            load_eval_dataset(path, skip_invalid=skip)
        assert (info.value.field, info.value.line) == (field, line)


def test_not_an_object(tmp_path: Path) -> None:
    assert error_of(write(tmp_path, [QUERY])).reason == "expected a JSON object (an EvalDataset)"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({**QUERY, "relevant_doc_ids": "doc_1"}, "queries.1.relevant_doc_ids"),
        ({**QUERY, "metadata": {"tags": "geo"}}, "queries.1.metadata.tags"),
        ({**QUERY, "metadata": {"answerable": "no"}}, "queries.1.metadata.answerable"),
        (
            {**QUERY, "metadata": {"relevance_grades": {"d": 7}}},
            "queries.1.metadata.relevance_grades.d",
        ),
        (
            {**QUERY, "relevant_doc_ids": ["d"], "metadata": {"relevance_grades": {"d": 0}}},
            "queries.1.metadata.relevance_grades",
        ),
        ({**QUERY, "relevant_docs": ["d"]}, "queries.1.relevant_docs"),
        ("just a string", "queries.1"),
    ],
)
def test_query_errors_name_the_path_and_line(tmp_path: Path, query: Any, field: str) -> None:
    path = write(tmp_path, dataset({"query_id": "q0", "question": "ok?"}, query))
    err = error_of(path)
    assert err.field == field
    lines = path.read_text().splitlines()
    last = field.split(".")[-1]
    assert err.line is not None
    if last.isdigit():
        assert lines[err.line - 1].strip().startswith(('"just', "{"))
    else:
        assert lines[err.line - 1].strip().startswith(f'"{last}"')


def test_line_is_exact_on_a_one_line_file(tmp_path: Path) -> None:
    path = write(tmp_path, dataset(QUERY, {**QUERY, "query_id": 3}), indent=None)
    err = error_of(path)
    assert (err.line, err.field) == (1, "queries.1.query_id")


def test_duplicate_query_id(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, dataset(QUERY, QUERY)))
    assert err.field == "queries.1.query_id"
    assert err.reason == "duplicate query_id 'q1' (first on line 4)"


def test_empty_dataset_is_an_error(tmp_path: Path) -> None:
    assert error_of(write(tmp_path, dataset())).reason == "the dataset has no valid case"


def test_missing_file(tmp_path: Path) -> None:
    err = error_of(tmp_path / "absent.json")
    assert err.line is None and err.reason.startswith("cannot read")
