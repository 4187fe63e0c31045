"""The gate as a text table and as Markdown: every row, the verdict line, the failing
metric names; ``only_interesting`` keeps what needs a look."""

from __future__ import annotations

import re

from test_eval_gate_comparison import NO_TARGETS, make_report, rate_report

from monitor.evaluation.gate import (
    GateConfig,
    GateResult,
    compare,
    render_gate_markdown,
    render_gate_table,
    verdict,
)


def _failing_result() -> GateResult:
    baseline = make_report(
        "1a2b3c4d",
        {
            "retrieval.mrr": 0.8,
            "retrieval.map": 0.6,
            "retrieval.ndcg@5": 0.7,
            "latency_ms.total.p95": 1000.0,
        },
    )
    current = make_report(
        "cur",
        {
            "retrieval.mrr": 0.7,
            "retrieval.map": 0.7,
            "retrieval.ndcg@5": 0.5,
            "latency_ms.total.p95": 1500.5,
        },
    )
    return compare(current, baseline, GateConfig())


def test_table_lists_every_row_and_the_verdict() -> None:
    result = _failing_result()
    text = render_gate_table(result)
    lines = text.splitlines()
    assert lines[0].split() == [
        "metric",
        "baseline",
        "current",
        "delta",
        "tolerance",
        "test",
        "p",
        "target",
        "status",
    ]
    assert set(lines[1]) <= {"-", " "}
    assert len(lines) == 2 + len(result.rows) + 1
    assert (
        lines[-1] == "GATE FAILED: 3 metrics regressed, 1 missed its target (baseline run 1a2b3c4d)"
    )
    by_metric = {line.split()[0]: line for line in lines[2:-1]}
    assert set(by_metric) == {
        "retrieval.mrr",
        "retrieval.map",
        "retrieval.ndcg@5",
        "latency_ms.total.p95",
    }
    assert by_metric["retrieval.mrr"].split()[1:] == [
        "0.8000",
        "0.7000",
        "-0.1000",
        "0.0200",
        "-",
        "-",
        "-",
        "REGRESSED",
    ]
    assert by_metric["retrieval.map"].split()[-1] == "improved"
    assert "> 0.6 (miss)" in by_metric["retrieval.ndcg@5"]
    assert by_metric["latency_ms.total.p95"].split()[1:5] == ["1000.0", "1500.5", "+500.5", "100.0"]
    header = lines[0].ljust(len(lines[1]))
    spans = [m.span() for m in re.finditer("-+", lines[1])]
    assert [header[a:b].strip() for a, b in spans] == lines[0].split()  # columns line up


def test_only_interesting_keeps_failed_and_notable_rows() -> None:
    result = _failing_result()
    interesting = render_gate_table(result, only_interesting=True)
    assert "retrieval.map" in interesting and "retrieval.mrr" in interesting
    ok = compare(
        make_report("c", {"retrieval.mrr": 0.8}),
        make_report("b", {"retrieval.mrr": 0.8}),
        NO_TARGETS,
    )
    lines = render_gate_table(ok, only_interesting=True).splitlines()
    assert len(lines) == 3 and lines[-1] == "GATE PASSED: 1 metric checked (baseline run b)"


def test_passed_verdict_counts_improved_and_not_significant() -> None:
    baseline = rate_report("base", "pipeline.outcome_match", [1] * 10, {"retrieval.mrr": 0.5})
    current = rate_report("cur", "pipeline.outcome_match", [1] * 9 + [0], {"retrieval.mrr": 0.6})
    result = compare(current, baseline, NO_TARGETS)
    assert not result.failed
    assert verdict(result) == (
        "GATE PASSED: 2 metrics checked, 1 improved, 1 worse but not significant (alpha 0.05) "
        "(baseline run base)"
    )
    table = render_gate_table(result)
    assert "worse_not_significant" in table and "mcnemar" in table and "1.000" in table


def test_missed_target_alone_and_no_baseline() -> None:
    result = compare(
        make_report("cur", {"pipeline.pass": 0.5, "retrieval.ndcg@5": 0.9}), None, GateConfig()
    )
    text = render_gate_table(result)
    assert text.splitlines()[-1] == "GATE FAILED: 1 metric missed its target (no baseline)"
    assert "pipeline.pass" in text and "MISSED_TARGET" in text


def test_markdown() -> None:
    result = _failing_result()
    markdown = render_gate_markdown(result)
    lines = markdown.splitlines()
    assert lines[0] == "## Regression gate"
    assert (
        lines[2]
        == "**GATE FAILED: 3 metrics regressed, 1 missed its target (baseline run 1a2b3c4d)**"
    )
    assert (
        lines[4]
        == "| metric | baseline | current | delta | tolerance | test | p | target | status |"
    )
    assert lines[5].startswith("| --- | ---: |")
    assert any(
        line.startswith("| `retrieval.mrr` | 0.8000 |") and "REGRESSED" in line for line in lines
    )
    assert len(lines) == 6 + len(result.rows)
    assert markdown.endswith("\n")


def test_dropped_and_too_few_cases_are_named_with_their_notes() -> None:
    baseline = rate_report("base", "pipeline.outcome_match", [1, 1, 1], {"retrieval.mrr": 0.5})
    current = rate_report("cur", "pipeline.outcome_match", [0, 0, 0])
    result = compare(current, baseline, NO_TARGETS)
    assert verdict(result) == (
        "GATE FAILED: 1 metric dropped (in the baseline, not in this run) (baseline run base)"
    )
    table = render_gate_table(result, only_interesting=True).splitlines()
    assert any(line.startswith("retrieval.mrr") and line.endswith("DROPPED") for line in table)
    assert any(line.endswith("too_few_cases") for line in table)
    assert "  retrieval.mrr: in the baseline, missing from this run" in table
    assert (
        "  pipeline.outcome_match: too few cases for a test: McNemar on 3 paired case(s) "
        "cannot reach p < 0.05; no target"
    ) in table
    markdown = render_gate_markdown(result)
    assert "- `retrieval.mrr`: in the baseline, missing from this run" in markdown
