"""``render_markdown``: the sections of the Markdown report."""

from __future__ import annotations

from test_eval_reports_writer import make_report

from monitor.evaluation.reports import render_markdown


def test_metrics_targets_and_values() -> None:
    text = render_markdown(make_report())
    assert text.startswith("# Evaluation report: hr-faq (20261122_213052)\n")
    # 95% CI: none without a standard error, for one case, or for a derived metric
    assert "| `retrieval.ndcg@5` | 0.550 | – | 2 | > 0.6 | ❌ |" in text
    assert "| `grounding.claim_support_rate` | 0.950 | – | 1 | > 0.85 | ✅ |" in text
    assert "| `safety.injection.auc` | n/a | – | 3 | > 0.85 | – |" in text
    assert "| `retrieval.mrr` | 0.625 | – | 2 | – | – |" in text
    # a rate: Wilson's interval (1 of 1 error in 4 cases -> 0.25 [0.0456, 0.699])
    assert "| `operational.error_rate` | 0.250 | [0.0456, 0.699] | 4 | – | – |" in text
    assert "| retrieval | 2 | 1 | 50.0% | ❌ |" in text  # perspective table


def test_run_summary_safety_latency_breakdowns() -> None:
    text = render_markdown(make_report())
    assert "| cases.jsonl:5 | invalid JSON |" in text  # the skipped record
    assert "| Seed | 7 |" in text and "| Suite | smoke |" in text
    assert "| jailbreak_persona | 0.250 | 0.500 | 1 |" in text  # block, detection rates
    assert "| total | 400.0 | 742.0 |" in text
    assert "| category | Cases | `pipeline.pass` | `retrieval.ndcg@5` |" in text
    assert "| hr | 1 | 1.000 | 0.900 |" in text
    assert "| a\\|b | 0 | n/a | n/a |" in text  # | escaped in a cell


def test_judge_section() -> None:
    text = render_markdown(make_report())
    assert "## Judge" in text
    assert "| model | judge-model |" in text
    assert "| mean.faithfulness | 3.500 |" in text
    assert "| faithfulness_completeness | fc.v1 |" in text  # prompt versions
    assert "| cost_usd | 0.0123 |" in text
    assert "| disagreement_rate | 0.125 |" in text
    report = make_report().model_copy(update={"judge": None})
    assert "## Judge" not in render_markdown(report)


def test_failed_cases_and_gate() -> None:
    text = render_markdown(make_report(), gate_markdown="## Regression gate\n\n**FAIL**")
    failed = text[text.index("## Failed cases") :]
    assert (
        "| q2 | cases.jsonl:2 | ok | retrieval | retrieval: no relevant item in the top 5 |"
        in failed
    )
    assert "| q3 | cases.jsonl:3 | error | – | connection refused \\| reset |" in failed
    assert "| q4 |" in failed and "| q1 |" not in failed
    assert text.endswith("\n## Regression gate\n\n**FAIL**\n")


def test_failed_cases_are_capped() -> None:
    report = make_report()
    q2 = report.cases[1]
    many = [q2.model_copy(update={"case_id": f"f{i:03d}"}) for i in range(60)]
    text = render_markdown(report.model_copy(update={"cases": many}))
    assert "| f049 |" in text and "| f050 |" not in text
    assert "… and 10 more" in text


def test_headline_metrics_show_confidence_intervals() -> None:
    report = make_report()
    metrics = dict(report.metrics)
    metrics["retrieval.ndcg@5"] = metrics["retrieval.ndcg@5"].model_copy(update={"stderr": 0.1})
    text = render_markdown(report.model_copy(update={"metrics": metrics}))
    headline = text.split("## Headline metrics", 1)[1].split("\n## ", 1)[0]
    assert "| Metric | Value | 95% CI | n | Better | Target | Met |" in headline
    # 0.55 ± 1.96 * 0.1
    assert "| `retrieval.ndcg@5` | 0.550 | [0.354, 0.746] | 2 | higher | > 0.6 | ❌ |" in headline
    assert "| `pipeline.pass` | 1.000 | [0.342, 1.000] | 2 | higher | > 0.9 | ✅ |" in headline
    assert "| `operational.error_rate` | 0.250 | [0.0456, 0.699] | 4 |" in headline
    assert "`retrieval.mrr`" not in headline  # no target, not a headline metric
    assert text.index("## Headline metrics") < text.index("## Metrics")
