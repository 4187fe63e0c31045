"""``compare``: identical reports pass; regressions are tested (McNemar, paired t, Welch,
bootstrap) before they fail the gate; targets are checked with or without a baseline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from monitor.evaluation.gate import GateConfig, GateRow, Tolerance, compare
from monitor.evaluation.metrics.catalogue import CATALOGUE, Target
from monitor.evaluation.results import CaseResult, DatasetInfo, EvalReport, MetricValue


def make_case(
    case_id: str, metrics: Mapping[str, float] | None = None, **signals: float
) -> CaseResult:
    return CaseResult(
        case_id=case_id,
        origin=f"cases.jsonl:{case_id}",
        query="q?",
        metrics=dict(metrics or {}),
        signals=signals,
    )


def make_report(
    run_id: str,
    metrics: Mapping[str, float | None],
    cases: Sequence[CaseResult] = (),
) -> EvalReport:
    """A report whose aggregates are ``metrics`` (kind, perspective and direction from the
    catalogue) over ``cases``."""
    values = {}
    for metric_id, value in metrics.items():
        info = CATALOGUE[metric_id]
        n = sum(metric_id in case.metrics for case in cases) or len(cases)
        values[metric_id] = MetricValue(
            value=value,
            n=n,
            perspective=info.perspective,
            kind=info.kind,
            higher_is_better=info.higher_is_better,
        )
    return EvalReport(
        run_id=run_id,
        created_at="2025-01-01T00:00:00Z",
        timestamp="20250101T000000Z",
        duration_s=1.0,
        seed=0,
        dataset=DatasetInfo(
            name="unit",
            format="jsonl",
            path="cases.jsonl",
            sha256="0" * 64,
            cases=len(cases),
            evaluated=len(cases),
        ),
        config={},
        versions={},
        metrics=values,
        perspectives={},
        breakdowns={},
        cases=list(cases),
    )


def rate_report(
    run_id: str, metric_id: str, ones: Sequence[int], extra: Mapping[str, float] | None = None
) -> EvalReport:
    """A report of one rate metric with per-case 0/1 values ``ones`` (cases q0, q1, ...)."""
    cases = [make_case(f"q{i}", {metric_id: float(v)}) for i, v in enumerate(ones)]
    return make_report(run_id, {metric_id: sum(ones) / len(ones), **(extra or {})}, cases)


def mean_report(
    run_id: str, metric_id: str, values: Sequence[float], prefix: str = "q"
) -> EvalReport:
    cases = [make_case(f"{prefix}{i}", {metric_id: v}) for i, v in enumerate(values)]
    return make_report(run_id, {metric_id: sum(values) / len(values)}, cases)


def row(result_rows: Sequence[GateRow], metric_id: str) -> GateRow:
    (found,) = [r for r in result_rows if r.metric == metric_id]
    return found


NO_TARGETS = GateConfig(targets={})


def test_identical_reports_pass_with_every_row_ok() -> None:
    metrics = {
        "retrieval.ndcg@5": 0.7,
        "retrieval.recall@5": 0.8,
        "pipeline.pass": 0.95,
        "pipeline.outcome_match": 1.0,
        "context_quality.redundancy_ngram": 0.1,
        "latency_ms.total.p95": 1234.0,
        "safety.injection.auc": 0.9,
    }
    cases = [
        make_case(f"q{i}", {"pipeline.outcome_match": 1.0, "retrieval.ndcg@5": 0.7})
        for i in range(6)
    ]
    report = make_report("base", metrics, cases)
    result = compare(report, report, GateConfig())
    assert not result.failed and result.failures == []
    assert [r.status for r in result.rows] == ["ok"] * len(metrics)
    assert {r.metric for r in result.rows} == set(metrics)
    assert [(r.perspective, r.metric) for r in result.rows] == sorted(
        (r.perspective, r.metric) for r in result.rows
    )
    ndcg = row(result.rows, "retrieval.ndcg@5")
    assert (ndcg.delta, ndcg.tolerance, ndcg.target, ndcg.target_met, ndcg.n_paired) == (
        0.0,
        0.02,
        "> 0.6",
        True,
        6,
    )
    assert ndcg.test is None and ndcg.p_value is None
    assert row(result.rows, "latency_ms.total.p95").tolerance == pytest.approx(123.4)
    assert result.baseline_run_id == "base" and result.alpha == 0.05


def test_rate_drop_over_40_paired_cases_regresses_via_mcnemar() -> None:
    baseline = rate_report("base", "pipeline.outcome_match", [1] * 36 + [0] * 4)
    current = rate_report("cur", "pipeline.outcome_match", [1] * 20 + [0] * 20)
    result = compare(current, baseline, NO_TARGETS)
    r = row(result.rows, "pipeline.outcome_match")
    assert (r.baseline, r.current, r.status, r.test, r.n_paired, r.failed) == (
        0.9,
        0.5,
        "regressed",
        "mcnemar",
        40,
        True,
    )
    assert r.delta == pytest.approx(-0.4)
    assert r.p_value is not None and r.p_value < 0.05
    assert r.p_value == pytest.approx(2 / 2**16)
    assert result.failed and result.failures == [r]


def test_pipeline_pass_regression_that_also_misses_its_target_shows_regressed() -> None:
    baseline = rate_report("base", "pipeline.pass", [1] * 38 + [0] * 2)
    current = rate_report("cur", "pipeline.pass", [1] * 20 + [0] * 20)
    r = row(compare(current, baseline, GateConfig()).rows, "pipeline.pass")
    assert (r.status, r.failed, r.target, r.target_met) == ("regressed", True, "> 0.9", False)


def test_small_drop_over_10_cases_is_worse_but_not_significant() -> None:
    baseline = rate_report("base", "pipeline.outcome_match", [1] * 10)
    current = rate_report("cur", "pipeline.outcome_match", [1] * 9 + [0])
    result = compare(current, baseline, NO_TARGETS)
    r = row(result.rows, "pipeline.outcome_match")
    assert (r.status, r.test, r.p_value, r.failed, r.note) == (
        "worse_not_significant",
        "mcnemar",
        1.0,
        False,
        None,
    )
    assert not result.failed


def test_drop_over_4_cases_is_too_few_for_mcnemar_and_says_so() -> None:
    baseline = rate_report("base", "pipeline.outcome_match", [1, 1, 1, 1])
    current = rate_report("cur", "pipeline.outcome_match", [0, 0, 0, 0])
    result = compare(current, baseline, NO_TARGETS)
    r = row(result.rows, "pipeline.outcome_match")
    # every pair discordant the same way: p = 2 / 2^4 = 0.125, the smallest 4 pairs allow
    assert (r.status, r.test, r.p_value, r.failed) == ("too_few_cases", "mcnemar", 0.125, False)
    assert r.note == (
        "too few cases for a test: McNemar on 4 paired case(s) cannot reach p < 0.05; no target"
    )
    assert not result.failed


def test_three_unanswerables_abstaining_then_answering_fall_back_to_the_default_target() -> None:
    """The issue's case: abstention accuracy 1 -> 0 over 3 cases cannot be significant
    (McNemar's smallest p is 0.25), so the default targets decide, and both miss."""
    cases_before = [
        make_case(f"u{i}", {"abstention.accuracy": 1.0, "abstention.hallucination_rate": 0.0})
        for i in range(3)
    ]
    cases_after = [
        make_case(f"u{i}", {"abstention.accuracy": 0.0, "abstention.hallucination_rate": 1.0})
        for i in range(3)
    ]
    metrics = ("abstention.accuracy", "abstention.hallucination_rate")
    baseline = make_report("base", dict(zip(metrics, (1.0, 0.0), strict=True)), cases_before)
    current = make_report("cur", dict(zip(metrics, (0.0, 1.0), strict=True)), cases_after)
    result = compare(current, baseline, GateConfig())
    for metric_id, target in zip(metrics, (">= 0.8", "<= 0.2"), strict=True):
        r = row(result.rows, metric_id)
        assert (r.status, r.failed, r.test, r.p_value, r.target) == (
            "missed_target",
            True,
            "mcnemar",
            0.25,
            target,
        )
        assert r.note is not None and r.note.startswith("too few cases for a test")
        assert r.note.endswith("judged by its target")
    assert result.failed


def test_citation_form_validity_rising_is_not_an_improvement() -> None:
    baseline = mean_report("base", "grounding.citation_validity_form", [0.5] * 8)
    current = mean_report("cur", "grounding.citation_validity_form", [1.0] * 8)
    r = row(compare(current, baseline, NO_TARGETS).rows, "grounding.citation_validity_form")
    assert (r.status, r.failed) == ("ok", False)
    assert r.note == "higher is not better here: a rise is not an improvement"
    # a drop is still a regression
    r = row(compare(baseline, current, NO_TARGETS).rows, "grounding.citation_validity_form")
    assert (r.status, r.failed, r.test) == ("regressed", True, "paired_t")


def test_noisy_mean_drop_over_4_cases_uses_paired_t_and_is_not_significant() -> None:
    baseline = mean_report("base", "retrieval.mrr", [0.9, 0.5, 0.8, 0.6])
    current = mean_report("cur", "retrieval.mrr", [0.5, 0.6, 0.5, 0.7])
    r = row(compare(current, baseline, NO_TARGETS).rows, "retrieval.mrr")
    assert (r.test, r.status, r.failed, r.n_paired) == (
        "paired_t",
        "worse_not_significant",
        False,
        4,
    )
    assert r.p_value is not None and r.p_value >= 0.05


def test_mean_drop_without_per_case_values_regresses_without_a_test() -> None:
    baseline = make_report("base", {"retrieval.mrr": 0.8})
    current = make_report("cur", {"retrieval.mrr": 0.7})
    r = row(compare(current, baseline, NO_TARGETS).rows, "retrieval.mrr")
    assert (r.status, r.test, r.p_value, r.failed, r.n_paired) == ("regressed", None, None, True, 0)


def test_target_missed_without_a_baseline_fails() -> None:
    report = make_report(
        "cur", {"retrieval.ndcg@5": 0.55, "retrieval.recall@5": 0.9, "retrieval.mrr": 0.1}
    )
    result = compare(report, None, GateConfig())
    assert [(r.metric, r.status, r.failed) for r in result.rows] == [
        ("retrieval.ndcg@5", "missed_target", True),
        ("retrieval.recall@5", "ok", False),
    ]  # retrieval.mrr has no target and there is no baseline: no row
    assert result.failed and result.baseline_run_id is None
    assert row(result.rows, "retrieval.ndcg@5").tolerance is None


def test_target_metric_without_a_value_is_no_data_and_does_not_fail() -> None:
    result = compare(make_report("cur", {"safety.injection.auc": None}), None, GateConfig())
    assert [(r.metric, r.status, r.failed, r.target_met) for r in result.rows] == [
        ("safety.injection.auc", "no_data", False, None)
    ]


def test_target_whose_cases_all_failed_is_unevaluated_and_fails() -> None:
    failed = [
        CaseResult(
            case_id=f"q{i}",
            origin="x",
            query="q?",
            status="error",
            unscored=["retrieval", "abstention"],
            metrics={"operational.error_rate": 1.0},
        )
        for i in range(3)
    ]
    current = make_report(
        "cur",
        {"retrieval.ndcg@5": None, "safety.injection.auc": None, "operational.error_rate": 1.0},
        failed,
    )
    result = compare(current, None, GateConfig())
    got = {r.metric: (r.status, r.failed, r.note) for r in result.rows}
    assert got == {
        "retrieval.ndcg@5": (
            "unevaluated",
            True,
            "no value: the 3 retrieval case(s) failed (error or timeout)",
        ),
        # no safety case failed: the dataset has none, nothing to fail
        "safety.injection.auc": ("no_data", False, None),
        "operational.error_rate": ("missed_target", True, None),
    }


def test_lower_is_better_metric_rising_regresses_and_falling_improves() -> None:
    rng_values = [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    baseline = mean_report("base", "grounding.unsupported_claims", rng_values)
    worse = mean_report(
        "cur",
        "grounding.unsupported_claims",
        [v + 1.0 + 0.1 * (i % 3) for i, v in enumerate(rng_values)],
    )
    r = row(compare(worse, baseline, NO_TARGETS).rows, "grounding.unsupported_claims")
    assert (r.status, r.test, r.failed, r.tolerance) == ("regressed", "paired_t", True, 0.1)
    assert r.delta is not None and r.delta > 0 and r.p_value is not None and r.p_value < 1e-6
    r = row(compare(baseline, worse, NO_TARGETS).rows, "grounding.unsupported_claims")
    assert (r.status, r.test, r.failed) == ("improved", None, False)


def test_lower_is_better_rate_rising_regresses_via_mcnemar() -> None:
    baseline = rate_report("base", "operational.error_rate", [0] * 30)
    current = rate_report("cur", "operational.error_rate", [0] * 20 + [1] * 10)
    r = row(compare(current, baseline, NO_TARGETS).rows, "operational.error_rate")
    assert (r.status, r.test, r.failed) == ("regressed", "mcnemar", True)


def test_unpaired_cases_use_welch() -> None:
    baseline = mean_report("base", "retrieval.mrr", [0.8, 0.9, 0.85, 0.95, 0.9], prefix="a")
    current = mean_report("cur", "retrieval.mrr", [0.4, 0.5, 0.45, 0.55, 0.5], prefix="b")
    r = row(compare(current, baseline, NO_TARGETS).rows, "retrieval.mrr")
    assert (r.status, r.test, r.n_paired) == ("regressed", "welch", 0)
    assert r.p_value is not None and r.p_value < 0.001


def _auc_like(cases: Sequence[CaseResult]) -> float | None:
    scores = [c.signals["score"] for c in cases if "score" in c.signals]
    return sum(scores) / len(scores) if scores else None


def _derived_reports(drop: float, n: int = 20) -> tuple[EvalReport, EvalReport]:
    before = [0.9 + 0.02 * ((i * 7) % 5) for i in range(n)]
    after = [v - drop + 0.03 * ((i * 3) % 4 - 1.5) for i, v in enumerate(before)]
    old = make_report(
        "base",
        {"safety.injection.auc": sum(before) / n},
        [make_case(f"q{i}", score=v) for i, v in enumerate(before)],
    )
    new = make_report(
        "cur",
        {"safety.injection.auc": sum(after) / n},
        [make_case(f"q{i}", score=v) for i, v in enumerate(after)],
    )
    return old, new


def test_derived_metric_uses_the_paired_bootstrap_deterministically() -> None:
    old, new = _derived_reports(drop=0.1)
    config = GateConfig(targets={}, bootstrap_resamples=300, seed=3)
    derived = {"safety.injection.auc": _auc_like}
    r = row(compare(new, old, config, derived=derived).rows, "safety.injection.auc")
    assert (r.status, r.test, r.n_paired, r.failed) == ("regressed", "bootstrap", 20, True)
    assert r.p_value == 0.0
    old, new = _derived_reports(drop=0.03)
    first = row(compare(new, old, config, derived=derived).rows, "safety.injection.auc")
    again = row(compare(new, old, config, derived=derived).rows, "safety.injection.auc")
    assert first.test == "bootstrap" and first.p_value == again.p_value
    other_seed = GateConfig(targets={}, bootstrap_resamples=300, seed=4)
    assert (
        row(compare(new, old, other_seed, derived=derived).rows, "safety.injection.auc").test
        == "bootstrap"
    )


def test_derived_metric_without_a_function_or_enough_cases_has_no_test() -> None:
    old, new = _derived_reports(drop=0.1)
    r = row(compare(new, old, NO_TARGETS).rows, "safety.injection.auc")
    assert (r.status, r.test) == ("regressed", None)
    old, new = _derived_reports(drop=0.1, n=4)
    r = row(
        compare(new, old, NO_TARGETS, derived={"safety.injection.auc": _auc_like}).rows,
        "safety.injection.auc",
    )
    assert (r.status, r.test, r.n_paired) == ("regressed", None, 4)


def test_dropped_new_and_tolerance_boundaries() -> None:
    baseline = make_report(
        "base", {"retrieval.mrr": 0.8, "retrieval.map": 0.9, "pipeline.citations_ok": 0.90}
    )
    current = make_report(
        "cur", {"retrieval.mrr": None, "judge.faithfulness": 4.2, "pipeline.citations_ok": 0.88}
    )
    result = compare(current, baseline, NO_TARGETS)
    statuses = {r.metric: r.status for r in result.rows}
    assert statuses == {
        "retrieval.mrr": "dropped",
        "retrieval.map": "dropped",
        "judge.faithfulness": "new",
        "pipeline.citations_ok": "ok",  # 0.02 worse: at the tolerance, not beyond it
    }
    # a metric of the baseline missing from the run fails the gate
    assert [r.metric for r in result.failures] == ["retrieval.map", "retrieval.mrr"]
    assert {r.note for r in result.failures} == {"in the baseline, missing from this run"}


def test_tolerance_overrides_and_improvement() -> None:
    baseline = make_report("base", {"retrieval.mrr": 0.80})
    current = make_report("cur", {"retrieval.mrr": 0.76})
    assert row(compare(current, baseline, NO_TARGETS).rows, "retrieval.mrr").status == "regressed"
    loose = GateConfig(targets={}, tolerances={"retrieval.mrr": Tolerance(absolute=0.05)})
    assert row(compare(current, baseline, loose).rows, "retrieval.mrr").status == "ok"
    assert row(compare(baseline, current, NO_TARGETS).rows, "retrieval.mrr").status == "improved"


def test_improved_metric_that_misses_a_configured_target_fails() -> None:
    baseline = make_report("base", {"retrieval.mrr": 0.3})
    current = make_report("cur", {"retrieval.mrr": 0.5})
    config = GateConfig(targets={"retrieval.mrr": Target(">=", 0.6)})
    r = row(compare(current, baseline, config).rows, "retrieval.mrr")
    assert (r.status, r.failed, r.target, r.target_met) == ("missed_target", True, ">= 0.6", False)
