"""``write_plots`` / ``metric_panels``: every metric drawn on an axis of its kind, nothing
dropped by a cap, no panel for a perspective the run did not select."""

from __future__ import annotations

from pathlib import Path

from test_eval_reports_writer import PNG_SIGNATURE, make_report

from monitor.evaluation.reports import write_plots
from monitor.evaluation.reports.plots import metric_panels
from monitor.evaluation.results import EvalReport, MetricValue


def _value(value: float | None, perspective: str, kind: str = "mean", *, better: bool = True):
    return MetricValue(
        value=value, n=4, perspective=perspective, kind=kind, higher_is_better=better
    )


def _wide_report(perspectives: list[str]) -> EvalReport:
    metrics = {
        f"retrieval.{name}@{k}": _value(0.5, "retrieval")
        for name in ("ndcg", "precision", "recall", "f1")
        for k in (1, 3, 5, 10)
    }
    metrics |= {
        "retrieval.recall_all@5": _value(0.0, "retrieval", "rate"),  # a zero
        "retrieval.mrr": _value(None, "retrieval"),  # n/a
        "quality.overall": _value(0.47, "context_quality"),
        "context_quality.redundancy_ngram": _value(0.02, "context_quality", better=False),
        "grounding.unsupported_claims": _value(1.5, "groundedness", better=False),
        "grounding.claim_support_rate": _value(0.8, "groundedness"),
        "safety.injection.auc": _value(0.9, "safety", "derived"),
        "operational.error_rate": _value(0.0, "operational", "rate", better=False),
        "latency_ms.total.p95": _value(2400.0, "pipeline", "derived", better=False),
        "latency_ms.total.p50": _value(1100.0, "pipeline", "derived", better=False),
    }
    report = make_report()
    return report.model_copy(update={"metrics": metrics, "config": {"perspectives": perspectives}})


def _drawn(panels: list[tuple[str, str, list[tuple[str, MetricValue]]]]) -> dict[str, str]:
    return {mid: kind for _, kind, metrics in panels for mid, _ in metrics}


def test_every_metric_is_in_a_panel_of_its_kind() -> None:
    all_five = ["retrieval", "context_quality", "groundedness", "safety", "pipeline"]
    report = _wide_report(all_five)
    panels, left_out = metric_panels(report)
    drawn = _drawn(panels)
    assert set(drawn) == set(report.metrics) and left_out == []  # 16 @k bars and more
    assert drawn["retrieval.ndcg@10"] == drawn["retrieval.precision@1"] == "rate"
    assert drawn["retrieval.mrr"] == "rate"  # n/a is drawn (hatched), not dropped
    assert drawn["grounding.unsupported_claims"] == "count"  # not on the 0-1 axis
    assert drawn["grounding.claim_support_rate"] == "rate"
    assert drawn["latency_ms.total.p95"] == "latency"
    titles = [title for title, _, _ in panels]
    assert "groundedness: rates and scores" in titles
    assert "groundedness: counts per case" in titles
    assert titles[-1] == "latency percentiles (ms)"


def test_a_perspective_the_run_did_not_select_has_no_panel() -> None:
    panels, left_out = metric_panels(_wide_report(["retrieval"]))
    titles = " ".join(title for title, _, _ in panels)
    assert "context_quality" not in titles and "groundedness" not in titles
    assert left_out == ["context_quality (2)", "groundedness (2)", "safety (1)", "pipeline (2)"]
    assert "operational: rates and scores" in titles  # always evaluated


def test_the_figures_draw_zero_na_counts_and_latencies(tmp_path: Path) -> None:
    paths = write_plots(_wide_report(["retrieval", "groundedness"]), tmp_path, "r")
    assert [p.name for p in paths] == ["r_metrics.png", "r_scores.png", "r_breakdown.png",
                                       "r_latency.png"]  # fmt: skip
    for path in paths:
        assert path.read_bytes().startswith(PNG_SIGNATURE)
