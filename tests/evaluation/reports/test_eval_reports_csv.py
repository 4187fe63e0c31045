"""The per-query CSV: one row per case, metrics, latency and judge columns."""

from __future__ import annotations

import csv
from pathlib import Path

from test_eval_reports_writer import make_report

from monitor.evaluation.reports import write_cases_csv


def test_one_row_per_case_with_its_values(tmp_path: Path) -> None:
    path = write_cases_csv(make_report(), tmp_path / "cases.csv")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or [])
        rows = list(reader)
    assert [r["case_id"] for r in rows] == ["q1", "q2", "q3", "q4"]
    assert header[:3] == ["case_id", "origin", "query"]
    metric_columns = [
        "grounding.claim_support_rate",
        "pipeline.pass",
        "quality.overall",
        "retrieval.ndcg@5",
        "safety.injection.detection_rate",
    ]
    latency_columns = ["latency_ms.retrieve", "latency_ms.generate", "latency_ms.total"]
    start = header.index("failures") + 1
    assert header[start : start + 8] == metric_columns + latency_columns
    q1, q2, q3, q4 = rows
    assert float(q1["retrieval.ndcg@5"]) == 0.9 and float(q2["retrieval.ndcg@5"]) == 0.2
    assert q1["safety.injection.detection_rate"] == "" and q4["retrieval.ndcg@5"] == ""
    assert (q1["tags"], q1["perspectives"], q1["answerable"]) == (
        "hr;faq",
        "retrieval;groundedness;pipeline",
        "true",
    )
    assert q2["query"] == "What is a|b?"
    assert (q2["failed_perspectives"], q2["failures"]) == (
        "retrieval",
        "retrieval: no relevant item in the top 5",
    )
    assert (q3["status"], q3["error"], q3["latency_ms.total"]) == (
        "error",
        "connection refused | reset",
        "",
    )
    assert float(q4["latency_ms.total"]) == 250.0 and q4["latency_ms.retrieve"] == ""
    assert q1["judge.faithfulness_completeness.faithfulness"] == "5"
    assert q2["judge.faithfulness_completeness.passed"] == "false"
    assert q4["judge.faithfulness_completeness.completeness"] == ""
