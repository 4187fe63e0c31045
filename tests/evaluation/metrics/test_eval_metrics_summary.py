"""summarize and the ROC summaries: against scipy and hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from monitor.evaluation.metrics.catalogue import CATALOGUE, DEFAULT_TARGETS, Target
from monitor.evaluation.metrics.roc import roc_auc, tpr_at_fpr
from monitor.evaluation.metrics.summary import DERIVED, summarize
from monitor.evaluation.results import CaseResult


def test_auc_equals_mann_whitney_u_with_ties() -> None:
    rng = np.random.default_rng(3)
    scores = np.round(rng.random(300), 2)  # many ties
    labels = rng.random(300) < 0.3
    u = stats.mannwhitneyu(scores[labels], scores[~labels]).statistic
    expected = u / (labels.sum() * (~labels).sum())
    assert roc_auc(scores.tolist(), labels.tolist()) == pytest.approx(expected, abs=1e-12)


def test_tpr_at_fpr_brute_force() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        scores = np.round(rng.random(60), 1)
        labels = rng.random(60) < 0.5
        if labels.all() or not labels.any():
            continue
        for max_fpr in (0.0, 0.01, 0.05, 0.2, 1.0):
            best = 0.0
            for t in [*np.unique(scores), np.inf]:
                fpr = (scores[~labels] >= t).mean()
                if fpr <= max_fpr:
                    best = max(best, (scores[labels] >= t).mean())
            assert tpr_at_fpr(scores.tolist(), labels.tolist(), max_fpr) == pytest.approx(best)


def case(i: int, **kw: object) -> CaseResult:
    return CaseResult(case_id=f"q{i}", origin=f"f:{i}", query="q", **kw)  # type: ignore[arg-type]


def test_means_stderr_targets_and_missing_metrics() -> None:
    cases = [
        case(
            i,
            metrics={"retrieval.ndcg@5": v},
            passed={"retrieval": v > 0.5},
            perspectives=["retrieval"],
            category="factual" if i < 3 else "multi_hop",
        )
        for i, v in enumerate([0.2, 0.9, 1.0, 0.4])
    ]
    s = summarize(cases, perspectives=["retrieval"])
    ndcg = s.metrics["retrieval.ndcg@5"]
    assert ndcg.value == pytest.approx(0.625) and ndcg.n == 4
    assert ndcg.stderr == pytest.approx(np.std([0.2, 0.9, 1.0, 0.4], ddof=1) / 2)
    assert ndcg.target == "> 0.6" and ndcg.meets_target is True
    recall = s.metrics["retrieval.recall@5"]  # a target with no data: None, never 0
    assert recall.value is None and recall.n == 0 and recall.meets_target is None
    assert "safety.injection.auc" not in s.metrics  # not a selected perspective
    assert s.perspectives["retrieval"].pass_rate == 0.5
    assert s.perspectives["retrieval"].meets_targets is True
    by_category = s.breakdowns["category"]
    assert by_category["factual"].cases == 3
    assert by_category["multi_hop"].metrics["retrieval.ndcg@5"] == pytest.approx(0.4)


def test_safety_derived_and_breakdown_by_answerable() -> None:
    scores = [0.9, 0.8, 0.45, 0.1, 0.0, 0.2, 0.6]
    attack = [True, True, True, False, False, False, False]
    cases = [
        case(
            i,
            signals={"injection_score": s, "is_attack": a},
            answerable=not a,
            metrics={"safety.injection.detection_rate": float(s >= 0.4)} if a else {},
        )
        for i, (s, a) in enumerate(zip(scores, attack, strict=True))
    ]
    s = summarize(cases, perspectives=["safety"])
    assert s.metrics["safety.injection.auc"].value == pytest.approx(roc_auc(scores, attack))
    assert s.metrics["safety.injection.auc"].n == 7
    assert s.metrics["safety.injection.tpr@fpr_1pct"].value == pytest.approx(2 / 3)
    assert s.metrics["safety.injection.tpr@fpr_1pct"].meets_target is False
    assert s.metrics["safety.injection.detection_rate"].value == 1.0
    assert set(s.breakdowns["answerable"]) == {"answerable", "unanswerable"}


def test_latency_budget_is_a_percentile_over_cases() -> None:
    totals = [100.0] * 18 + [10_000.0] * 2
    cases = [
        case(i, latency_ms={"total": t}, signals={"latency_budget_ms": {"p95": 5000}})
        for i, t in enumerate(totals)
    ]
    met = DERIVED["pipeline.latency_budget_met"](cases)
    assert np.percentile(totals, 95) > 5000 and met == 0.0
    assert DERIVED["pipeline.latency_budget_met"](cases[:18]) == 1.0
    capped = [case(0, latency_ms={"total": 6000.0}, signals={"latency_budget_ms": {"max": 5000}})]
    assert DERIVED["pipeline.latency_budget_met"](capped) == 0.0
    assert DERIVED["latency_ms.total.p50"](cases) == 100.0


def test_catalogue_targets_are_003s_table() -> None:
    assert DEFAULT_TARGETS["retrieval.ndcg@5"] == Target(">", 0.6)
    assert DEFAULT_TARGETS["context_quality.redundancy_ngram"] == Target("<", 0.2)
    assert set(DEFAULT_TARGETS) <= set(CATALOGUE)
    assert all(CATALOGUE[m].kind == "derived" for m in DERIVED)
