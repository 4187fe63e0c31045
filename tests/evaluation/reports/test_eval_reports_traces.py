"""``write_traces``: one JSONL file per failing perspective, one line per failed case."""

from __future__ import annotations

import json
from pathlib import Path

from test_eval_reports_writer import make_report

from monitor.evaluation.reports import write_traces


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_one_file_per_failing_perspective(tmp_path: Path) -> None:
    traces = {
        "q2": {"event": {"event_id": "q2", "query": {"text": "What is a|b?"}}, "scored": {"x": 1}},
        "q4": {"event": {"event_id": "q4"}},
    }
    paths = write_traces(make_report(), traces, tmp_path / "traces")
    assert [p.name for p in paths] == [
        "operational-abc12345.jsonl",
        "retrieval-abc12345.jsonl",
        "safety-abc12345.jsonl",
    ]
    operational, retrieval, safety = (_lines(p) for p in paths)
    assert [line["case_id"] for line in retrieval] == ["q2"]
    [q2] = retrieval
    assert q2 == {
        "case_id": "q2",
        "origin": "cases.jsonl:2",
        "perspective": "retrieval",
        "failures": ["retrieval: no relevant item in the top 5"],
        "status": "ok",
        "metrics": {"retrieval.ndcg@5": 0.2, "pipeline.pass": 1.0, "quality.overall": 0.4},
        "event": traces["q2"]["event"],
        "scored": {"x": 1},
        "judge": {
            "faithfulness_completeness": {
                "scores": {"faithfulness": 2, "completeness": 3},
                "passed": False,
            }
        },
    }
    [q3] = operational
    assert (q3["case_id"], q3["status"], q3["event"], q3["scored"]) == ("q3", "error", None, None)
    [q4] = safety
    assert (q4["perspective"], q4["event"], q4["scored"]) == ("safety", {"event_id": "q4"}, None)


def test_nothing_failed_writes_nothing(tmp_path: Path) -> None:
    report = make_report()
    passing = report.model_copy(update={"cases": [report.cases[0]]})
    assert write_traces(passing, {}, tmp_path / "traces") == []
    assert not (tmp_path / "traces").exists()
