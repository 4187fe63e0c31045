"""``render_console``: the terminal summary."""

from __future__ import annotations

from test_eval_reports_writer import make_report

from monitor.evaluation.reports import render_console


def test_summary_lines() -> None:
    text = render_console(make_report())
    lines = text.splitlines()
    assert lines[0] == "ragmon eval  hr-faq (20261122_213052)  run abc12345"
    assert "targets (2/4 met)" in lines
    target_lines = {line.split()[1]: line for line in lines if line.startswith("  ")}
    assert target_lines["retrieval.ndcg@5"].split()[:4] == ["✗", "retrieval.ndcg@5", "0.550", ">"]
    assert target_lines["pipeline.pass"].startswith("  ✓ pipeline.pass")
    assert target_lines["safety.injection.auc"].split()[:3] == ["–", "safety.injection.auc", "n/a"]
    assert any(line.split()[:2] == ["retrieval", "2"] and "50.0%" in line for line in lines)
    assert "operational  errors 25.0%" in lines
    assert "latency total  p50 400.0 ms  p95 742.0 ms" in lines
    judge = next(line for line in lines if line.startswith("judge"))
    assert "model judge-model" in judge and "judge.faithfulness 3.500" in judge
    assert "skipped records: 1 (listed in the Markdown report)" in lines
    assert "\x1b" not in text
    assert "retrieval.mrr" not in text  # no target: only in the verbose listing


def test_verbose_lists_every_metric() -> None:
    report = make_report()
    text = render_console(report, verbose=True)
    for metric_id in report.metrics:
        assert metric_id in text
