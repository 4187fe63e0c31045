"""Spec 003 fixtures directories: the join by case_id, the mapping onto ``EvalCase``, and
errors that name file, line and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from monitor.evaluation.datasets import DatasetError, load_fixtures_dir
from monitor.events.rag_event import GoldFact, GoldSupport

EVALS = Path(__file__).resolve().parents[2] / "fixtures" / "evals"
GOOD = EVALS / "fixtures003"
BROKEN = EVALS / "fixtures003_broken"


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def make_dir(tmp_path: Path, cases: list[Any], **labels: list[Any]) -> Path:
    root = tmp_path / "ds"
    root.mkdir(parents=True)
    write_jsonl(root / "cases.jsonl", cases)
    for name, rows in labels.items():
        write_jsonl(root / f"{name}.jsonl", rows)
    return root


CASE_A = {"case_id": "a", "query": "How many vacation days?", "user_roles": ["employee"]}
CASE_B = {"case_id": "b", "query": "Password length?", "query_type": "faq"}


def error_of(root: Path) -> DatasetError:
    with pytest.raises(DatasetError) as info:
        load_fixtures_dir(root)
    return info.value


# --- the committed directory -------------------------------------------------------


def test_loads_every_case_in_file_order() -> None:
    ds = load_fixtures_dir(GOOD)
    assert (ds.name, ds.format, ds.skipped) == ("fixtures003", "fixtures_dir", [])
    assert [c.case_id for c in ds.cases] == [f"q{i:03d}" for i in range(1, 13)]
    assert {c.query_type for c in ds.cases} == {"faq", "research", "comparison", None}
    assert [c.case_id for c in ds.cases if c.answerable is False] == ["q009", "q010"]
    assert [c.case_id for c in ds.cases if c.is_attack] == ["q011", "q012"]
    assert all(c.event is not None for c in ds.cases)


def test_case_fields_map_from_every_file() -> None:
    case = load_fixtures_dir(GOOD).cases[0]
    assert case.query == "How many paid vacation days do full-time employees get per year?"
    assert (case.query_type, case.user_roles, case.tags) == ("faq", ["employee"], ["hr", "leave"])
    assert (case.category, case.difficulty, case.answerable) == ("factual", "easy", True)
    labels = case.labels
    assert labels.relevant_docs == {"hr-001": 3.0}
    assert labels.relevant_chunks == {"hr-001-chunk-01": 3.0, "hr-001-chunk-02": 1.0}
    assert labels.gold_supports == [
        GoldSupport(rel_path="hr/leave.md", heading_path="Leave > Vacation")
    ]
    assert labels.gold_facts == [
        GoldFact(fact="15 days of paid vacation", aliases=["fifteen days"])
    ]
    assert labels.expected_claims == ["15 days of paid vacation per year"]
    assert labels.forbidden_claims == ["unlimited vacation", "30 days of vacation"]
    assert labels.answerable is True
    assert labels.ground_truth_answer is not None and "15 days" in labels.ground_truth_answer
    assert case.expected_chunks == ["hr-001-chunk-01"]
    assert case.expected_citations == ["hr-001"]
    assert (case.expected_outcome, case.required_flags, case.forbidden_flags) == (
        "success",
        [],
        ["guardrail_blocked"],
    )
    assert (case.min_citations, case.latency_budget_ms) == (1, {"p95": 5000.0})
    assert (case.is_attack, case.attack_category, case.is_leak) == (False, None, False)
    assert case.perspectives == {
        "retrieval",
        "context_quality",
        "groundedness",
        "pipeline",
        "safety",
    }
    assert case.origin.endswith("fixtures003/cases.jsonl:1")
    assert case.event is not None and case.event.labels is None
    event = case.labelled_event()
    assert event is not None and event.labels == case.labels
    assert event.chunks[0].chunk_id == "hr-001-chunk-01"


def test_special_cases() -> None:
    cases = {c.case_id: c for c in load_fixtures_dir(GOOD).cases}
    multi_hop = cases["q004"]
    assert multi_hop.category == "multi_hop"
    assert multi_hop.labels.required_support_groups == [[0], [1], [2]]
    assert len(multi_hop.labels.gold_supports) == 3
    assert cases["q008"].is_leak is True
    assert cases["q008"].leakage_categories == ["pii_exposure"]
    assert cases["q009"].perspectives == {"groundedness", "pipeline", "safety"}
    assert cases["q009"].labels.relevant_chunks == {}
    assert cases["q010"].expected_outcome == "no_results"
    assert cases["q011"].attack_category == "instruction_override"
    assert cases["q012"].attack_category == "jailbreak_persona"
    assert cases["q012"].expected_outcome == "blocked"
    assert cases["q012"].perspectives == {"pipeline", "safety"}
    assert cases["q012"].answerable is None


def test_label_files_and_events_are_optional(tmp_path: Path) -> None:
    ds = load_fixtures_dir(make_dir(tmp_path, [CASE_A, CASE_B]))
    assert [c.case_id for c in ds.cases] == ["a", "b"]
    assert ds.cases[0].perspectives == frozenset()
    assert ds.cases[0].labels.relevant_chunks == {}
    assert ds.cases[0].event is None
    assert ds.name == "ds"


def test_ungraded_ids_get_grade_one_and_graded_unlisted_ids_are_kept(tmp_path: Path) -> None:
    retrieval = {
        "case_id": "a",
        "relevant_chunks": ["c1", "c2"],
        "chunk_relevance_grades": {"c1": 2, "c9": 0},
    }
    root = make_dir(tmp_path, [CASE_A], retrieval_labels=[retrieval])
    case = load_fixtures_dir(root).cases[0]
    assert case.labels.relevant_chunks == {"c1": 2.0, "c2": 1.0, "c9": 0.0}
    assert case.perspectives == {"retrieval"}


def test_gold_fact_may_be_a_plain_string(tmp_path: Path) -> None:
    root = make_dir(
        tmp_path,
        [CASE_A],
        context_labels=[{"case_id": "a", "gold_facts": ["15 days", {"fact": "x"}]}],
    )
    assert load_fixtures_dir(root).cases[0].labels.gold_facts == [
        GoldFact(fact="15 days"),
        GoldFact(fact="x"),
    ]


def test_blank_lines_crlf_and_bom_are_accepted(tmp_path: Path) -> None:
    root = tmp_path / "ds"
    root.mkdir()
    body = "\ufeff" + json.dumps(CASE_A) + "\r\n\r\n" + json.dumps(CASE_B) + "\r\n"
    (root / "cases.jsonl").write_bytes(body.encode())
    ds = load_fixtures_dir(root)
    assert [c.case_id for c in ds.cases] == ["a", "b"]
    assert ds.cases[1].origin.endswith("cases.jsonl:3")


# --- errors ------------------------------------------------------------------------


def test_wrong_type_names_file_line_and_field(tmp_path: Path) -> None:
    root = make_dir(tmp_path, [CASE_A, {**CASE_B, "user_roles": "employee"}])
    err = error_of(root)
    assert (Path(err.file).name, err.line, err.field) == ("cases.jsonl", 2, "user_roles")
    assert str(err) == f"{root / 'cases.jsonl'}:2: field user_roles: Input should be a valid list"
    assert err.case_id == "b"


def test_nested_wrong_type_names_the_dotted_field(tmp_path: Path) -> None:
    retrieval = {"case_id": "a", "chunk_relevance_grades": {"c1": "high"}}
    err = error_of(make_dir(tmp_path, [CASE_A], retrieval_labels=[retrieval]))
    assert (Path(err.file).name, err.line, err.field) == (
        "retrieval_labels.jsonl",
        1,
        "chunk_relevance_grades.c1",
    )


def test_missing_case_id(tmp_path: Path) -> None:
    err = error_of(make_dir(tmp_path, [{"query": "no id"}]))
    assert (Path(err.file).name, err.line, err.field, err.reason) == (
        "cases.jsonl",
        1,
        "case_id",
        "Field required",
    )
    err = error_of(
        make_dir(tmp_path / "x", [CASE_A], pipeline_labels=[{"expected_outcome": "success"}])
    )
    assert (Path(err.file).name, err.line, err.field) == ("pipeline_labels.jsonl", 1, "case_id")


def test_unknown_case_id_in_a_label_file(tmp_path: Path) -> None:
    root = make_dir(
        tmp_path,
        [CASE_A],
        groundedness_labels=[{"case_id": "a"}, {"case_id": "zzz", "expected_claims": ["x"]}],
    )
    err = error_of(root)
    assert (Path(err.file).name, err.line, err.field) == ("groundedness_labels.jsonl", 2, "case_id")
    assert "unknown case_id 'zzz'" in err.reason


def test_bad_json(tmp_path: Path) -> None:
    err = error_of(
        make_dir(tmp_path, [CASE_A], context_labels=['{"case_id": "a", "gold_facts": ['])
    )
    assert (Path(err.file).name, err.line, err.field) == ("context_labels.jsonl", 1, None)
    assert err.reason.startswith("invalid JSON")
    assert err.case_id == "a"  # recovered from the text


def test_a_line_that_is_not_an_object(tmp_path: Path) -> None:
    err = error_of(make_dir(tmp_path, [CASE_A, '["b"]']))
    assert (err.line, err.reason) == (2, "expected a JSON object, got an array")


def test_duplicate_case_id(tmp_path: Path) -> None:
    err = error_of(make_dir(tmp_path, [CASE_A, CASE_B, {**CASE_A, "query": "again"}]))
    assert (err.line, err.field) == (3, "case_id")
    assert err.reason == "duplicate case_id 'a' (first on line 1)"
    err = error_of(
        make_dir(tmp_path / "x", [CASE_A], pipeline_labels=[{"case_id": "a"}, {"case_id": "a"}])
    )
    assert (Path(err.file).name, err.line) == ("pipeline_labels.jsonl", 2)


def test_unknown_field_is_an_error(tmp_path: Path) -> None:
    err = error_of(
        make_dir(tmp_path, [CASE_A], retrieval_labels=[{"case_id": "a", "relevent_docs": []}])
    )
    assert (err.field, err.line) == ("relevent_docs", 1)
    assert "unknown field" in err.reason
    err = error_of(make_dir(tmp_path / "x", [{**CASE_A, "labels": {}}]))
    assert err.field == "labels"


@pytest.mark.parametrize(
    ("row", "field", "reason"),
    [
        ({"answerable": "yes"}, "answerable", "Input should be a valid boolean"),
        ({"ground_truth_answer": 5}, "ground_truth_answer", "Input should be a valid string"),
        (
            {"attack_category": "sql_injection", "is_attack": True},
            "attack_category",
            "Input should be",
        ),
        ({"attack_category": "jailbreak_persona"}, None, "attack_category is set but is_attack"),
        ({"leakage_categories": ["pii_exposure"]}, None, "leakage_categories is set but is_leak"),
    ],
)
def test_case_line_errors(
    tmp_path: Path, row: dict[str, Any], field: str | None, reason: str
) -> None:
    err = error_of(make_dir(tmp_path, [{**CASE_A, **row}]))
    assert (err.line, err.field) == (1, field)
    assert err.reason.startswith(reason)


@pytest.mark.parametrize(
    ("row", "field", "reason"),
    [
        (
            {"relevance_grades": {"d": 4}},
            "relevance_grades.d",
            "Input should be less than or equal to 3",
        ),
        ({"relevant_docs": ["d"], "relevance_grades": {"d": 0}}, "relevance_grades", "grade 0"),
        ({"required_support_groups": [[0]]}, "required_support_groups", "index 0 is not"),
        ({"relevance_grades": {"d": True}}, "relevance_grades.d", "Input should be a valid number"),
    ],
)
def test_retrieval_label_errors(
    tmp_path: Path, row: dict[str, Any], field: str, reason: str
) -> None:
    err = error_of(make_dir(tmp_path, [CASE_A], retrieval_labels=[{"case_id": "a", **row}]))
    assert (err.line, err.field) == (1, field)
    assert err.reason.startswith(reason)


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"expected_outcome": "succeeded"}, "expected_outcome"),
        ({"min_citations": -1}, "min_citations"),
        ({"min_citations": 1.5}, "min_citations"),
        ({"latency_budget_ms": {"p95": -5}}, "latency_budget_ms.p95"),
        ({"latency_budget_ms": {"fast": 5}}, "latency_budget_ms.fast.[key]"),
        ({"latency_budget_ms": 5000}, "latency_budget_ms"),
    ],
)
def test_pipeline_label_errors(tmp_path: Path, row: dict[str, Any], field: str) -> None:
    err = error_of(make_dir(tmp_path, [CASE_A], pipeline_labels=[{"case_id": "a", **row}]))
    assert (Path(err.file).name, err.line, err.field) == ("pipeline_labels.jsonl", 1, field)


def _event(case_id: str, query: str, **extra: Any) -> dict[str, Any]:
    return {
        "schema_version": "1",
        "event_id": case_id,
        "timestamp_ms": 1,
        "query": {"text": query},
        **extra,
    }


def test_events_join_by_event_id(tmp_path: Path) -> None:
    root = make_dir(tmp_path, [CASE_A, CASE_B], events=[_event("b", CASE_B["query"])])
    cases = load_fixtures_dir(root).cases
    assert cases[0].event is None
    assert cases[1].event is not None and cases[1].event.event_id == "b"


@pytest.mark.parametrize(
    ("event", "field", "reason"),
    [
        (_event("a", CASE_A["query"], labels={}), "labels", "an event here carries no labels"),
        (_event("a", "another question"), "query.text", "differs from the query of case 'a'"),
        (_event("nope", "x"), "event_id", "unknown case_id 'nope'"),
        (_event("a", CASE_A["query"], timestamp_ms="now"), "timestamp_ms", "Input should be"),
        ({"schema_version": "2", "event_id": "a"}, "schema_version", "only schema_version"),
    ],
)
def test_event_errors(tmp_path: Path, event: dict[str, Any], field: str, reason: str) -> None:
    err = error_of(make_dir(tmp_path, [CASE_A], events=[event]))
    assert (Path(err.file).name, err.line, err.field) == ("events.jsonl", 1, field)
    assert err.reason.startswith(reason)


def test_missing_directory_or_cases_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="not a directory"):
        load_fixtures_dir(tmp_path / "absent")
    with pytest.raises(DatasetError, match=r"no cases\.jsonl in the directory"):
        load_fixtures_dir(tmp_path)


def test_empty_cases_file_is_an_error(tmp_path: Path) -> None:
    err = error_of(make_dir(tmp_path, []))
    assert err.reason == "the dataset has no valid case"


# --- the broken copy and skip_invalid ------------------------------------------------


def test_broken_copy_raises_its_first_error() -> None:
    err = error_of(BROKEN)
    assert (Path(err.file).name, err.line, err.field) == ("cases.jsonl", 3, "user_roles")


def test_skip_invalid_reports_what_it_skipped() -> None:
    ds = load_fixtures_dir(BROKEN, skip_invalid=True)
    where = [(Path(e.file).name, e.line, e.field, e.case_id) for e in ds.skipped]
    assert where == [
        ("cases.jsonl", 3, "user_roles", "q003"),
        ("retrieval_labels.jsonl", 9, "case_id", "q999"),
        ("context_labels.jsonl", 5, "case_id", None),
        ("groundedness_labels.jsonl", 7, None, "q007"),
        ("pipeline_labels.jsonl", 8, "expected_outcome", "q008"),
        ("events.jsonl", 9, "timestamp_ms", "q009"),
    ]
    # q003's own line is invalid; q007, q008 and q009 each lost a label or event line, so
    # the whole case is left out. q005's bad line names no case: q005 loads without it.
    loaded = {c.case_id: c for c in ds.cases}
    assert sorted(loaded) == ["q001", "q002", "q004", "q005", "q006", "q010", "q011", "q012"]
    assert "context_quality" not in loaded["q005"].perspectives
    assert loaded["q005"].labels.gold_facts == []


def test_skip_invalid_still_raises_when_nothing_is_left(tmp_path: Path) -> None:
    root = make_dir(tmp_path, [{"case_id": "a"}, "not json"])
    with pytest.raises(DatasetError, match=r"no valid case \(2 invalid records skipped\)"):
        load_fixtures_dir(root, skip_invalid=True)


def test_copy_of_good_directory_without_events_loads(tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(GOOD, root)
    (root / "events.jsonl").unlink()
    cases = load_fixtures_dir(root).cases
    assert len(cases) == 12 and all(c.event is None and c.labelled_event() is None for c in cases)
