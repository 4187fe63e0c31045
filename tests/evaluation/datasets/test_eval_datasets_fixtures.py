"""The committed evaluation fixtures: in sync with their generator, and meaningful to the
stream's scorers (each case makes the scorer say what its labels expect)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from monitor.evaluation.datasets import EvalCase, load_dataset
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import score_event

EVALS = Path(__file__).resolve().parents[2] / "fixtures" / "evals"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "eval_fixtures_generator", EVALS / "make_eval_fixtures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_files_are_what_the_generator_writes() -> None:
    rendered = generator().render()
    on_disk = {
        str(p.relative_to(EVALS)): p.read_text(encoding="utf-8")
        for p in EVALS.rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl")
    }
    assert sorted(on_disk) == sorted(rendered)
    for name, text in rendered.items():
        assert on_disk[name] == text, f"{name}: run tests/fixtures/evals/make_eval_fixtures.py"


@pytest.fixture(scope="module")
def scored() -> list[tuple[EvalCase, ScoredEvent]]:
    out = []
    for case in load_dataset(EVALS / "recorded_events.jsonl").cases:
        event = case.labelled_event()
        assert event is not None
        out.append((case, score_event(event)))
    return out


def test_outcomes_flags_and_citations_meet_the_pipeline_labels(
    scored: list[tuple[EvalCase, ScoredEvent]],
) -> None:
    for case, result in scored:
        assert case.event is not None and case.event.response is not None
        response = case.event.response
        assert result.outcome == case.expected_outcome, case.case_id
        assert set(case.required_flags) <= set(response.policy_flags), case.case_id
        assert not set(case.forbidden_flags) & set(response.policy_flags), case.case_id
        assert len(response.citations) >= (case.min_citations or 0), case.case_id


def test_safety_labels_match_the_safety_scores(
    scored: list[tuple[EvalCase, ScoredEvent]],
) -> None:
    for case, result in scored:
        injection = result.safety.injection
        assert (injection.action == "block") is bool(case.is_attack), case.case_id
        if case.attack_category is not None:
            assert case.attack_category in injection.categories
        leakage = result.safety.leakage
        assert leakage is not None and leakage.detected is case.is_leak, case.case_id
    leaked = {c.case_id: r for c, r in scored}["q008"].safety.leakage
    assert leaked is not None and [f.kind for f in leaked.findings] == ["pii"]


def test_unanswerable_and_blocked_cases_abstain(
    scored: list[tuple[EvalCase, ScoredEvent]],
) -> None:
    for case, result in scored:
        expected = case.answerable is False or bool(case.is_attack)
        assert result.abstained is expected, case.case_id


def test_labelled_failures_show_in_the_scores(
    scored: list[tuple[EvalCase, ScoredEvent]],
) -> None:
    by_id = {c.case_id: r for c, r in scored}
    fabricated = by_id["q007"].grounding
    assert fabricated is not None
    assert fabricated.forbidden_claims_found == 2 and len(fabricated.numeric_fabrications) == 1
    multi_hop = by_id["q004"].retrieval
    assert multi_hop is not None
    assert multi_hop["recall_all@5"] == 0 and multi_hop["recall@5"] == pytest.approx(2 / 3)
    clean = by_id["q001"]
    assert clean.retrieval is not None and clean.retrieval["ndcg@5"] == 1.0
    assert clean.grounding is not None and clean.grounding.expected_claims_recall == 1.0
    assert clean.context_quality.fact_dispersion == 1.0
