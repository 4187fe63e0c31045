"""``ragmon eval --gate`` fails when it must (issue 14): a dead service, metrics of the
baseline missing from the run, unanswerable questions answered anyway with no label but
``answerable: false``; the JSON report carries the gate and the ranking depths."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from monitor.cli import main
from monitor.evaluation.results import EvalReport, load_report

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests/fixtures/evals"
RECORDED = FIXTURES / "recorded_events.jsonl"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def run_eval(tmp_path: Path, name: str, *args: str) -> tuple[int, EvalReport]:
    out = tmp_path / "reports"
    code = main(["eval", *args, "--quiet", "--no-plots", "--out-dir", str(out), "--output", name])
    return code, load_report(out / f"{name}.json")


def closed_loopback_port() -> int:
    """A loopback port nothing listens on (bound, then released: connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_a_dead_target_fails_the_gate_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{closed_loopback_port()}/query"
    code, report = run_eval(
        tmp_path,
        "dead",
        str(FIXTURES / "fixtures003"),
        "--target",
        url,
        "--target-config",
        str(_fast_target_config(tmp_path)),
        "--gate",
    )
    out = capsys.readouterr().out
    assert code == 1, out
    assert report.metrics["operational.error_rate"].value == 1.0
    assert report.gate is not None and report.gate.passed is False
    rows = {row.metric: row for row in report.gate.rows}
    error_rate = rows["operational.error_rate"]
    assert (error_rate.status, error_rate.failed, error_rate.target) == (
        "missed_target",
        True,
        "<= 0.05",
    )
    ndcg = rows["retrieval.ndcg@5"]
    assert (ndcg.status, ndcg.failed, ndcg.current) == ("unevaluated", True, None)
    assert ndcg.note is not None and "retrieval case(s) failed" in ndcg.note
    assert "UNEVALUATED" in out and "MISSED_TARGET" in out
    assert out.splitlines()[-1].startswith("GATE FAILED: 1 metric missed its target, ")
    assert "could not be evaluated (their cases failed)" in out.splitlines()[-1]


def _fast_target_config(tmp_path: Path) -> Path:
    path = tmp_path / "target.json"
    path.write_text(json.dumps({"timeout_s": 2.0, "max_retries": 0}))
    return path


def test_metrics_of_the_baseline_missing_from_the_run_fail_as_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_eval(tmp_path, "base", str(RECORDED))
    assert code == 0
    base = tmp_path / "reports/base.json"
    code, report = run_eval(
        tmp_path, "narrow", str(RECORDED), "--perspective", "safety", "--baseline", str(base)
    )
    out = capsys.readouterr().out
    assert code == 1, out
    assert report.gate is not None and not report.gate.passed
    dropped = {row.metric for row in report.gate.rows if row.status == "dropped"}
    assert {"retrieval.ndcg@5", "retrieval.mrr", "pipeline.pass"} <= dropped
    assert all(row.failed for row in report.gate.rows if row.status == "dropped")
    assert "DROPPED" in out and "dropped (in the baseline, not in this run)" in out


def unanswerable_events(path: Path, *, abstain: bool, n: int = 3) -> Path:
    """``n`` recorded events labelled ``answerable: false`` and nothing else; the service
    abstains or answers anyway."""
    with path.open("w") as out:
        for i in range(n):
            text = "I could not find this in the documents." if abstain else "It is 42 days [1]."
            event: dict[str, Any] = {
                "schema_version": "1",
                "event_id": f"u{i}",
                "timestamp_ms": 1767225600000 + i,
                "query": {"text": f"What is the parking policy on Mars base {i}?"},
                "chunks": [
                    {
                        "chunk_id": f"c{i}",
                        "document_id": "hr-001",
                        "content": "Full-time employees receive 15 days of paid vacation.",
                        "score": 0.4,
                    }
                ],
                "response": {
                    "text": text,
                    "abstained": abstain,
                    "citations": [] if abstain else [{"document_id": "hr-001"}],
                },
                "labels": {"answerable": False},
            }
            out.write(json.dumps(event) + "\n")
    return path


def test_unanswerables_answered_anyway_fail_cases_and_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = unanswerable_events(tmp_path / "abstains.jsonl", abstain=True)
    bad = unanswerable_events(tmp_path / "answers.jsonl", abstain=False)
    code, baseline = run_eval(tmp_path, "base", str(good), "--gate")
    assert code == 0, capsys.readouterr().out
    assert baseline.failed_cases() == []
    assert baseline.gate is not None and baseline.gate.passed
    code, report = run_eval(
        tmp_path, "worse", str(bad), "--baseline", str(tmp_path / "reports/base.json")
    )
    out = capsys.readouterr().out
    assert code == 1, out
    assert "failed cases: 3 of 3" in out
    assert [case.failed_perspectives() for case in report.failed_cases()] == [["abstention"]] * 3
    assert report.cases[0].failures == ["abstention: answered an unanswerable question"]
    assert report.gate is not None
    rows = {row.metric: row for row in report.gate.rows}
    for metric_id in ("abstention.accuracy", "abstention.hallucination_rate"):
        row = rows[metric_id]
        # McNemar on 3 pairs cannot reach p < 0.05: the gate says so and uses the target
        assert (row.status, row.failed, row.test, row.p_value) == (
            "missed_target",
            True,
            "mcnemar",
            0.25,
        )
        assert row.note is not None and row.note.startswith("too few cases for a test")
    assert "too few cases for a test: McNemar on 3 paired case(s)" in out
    # without a baseline, the default targets fail it too
    code, alone = run_eval(tmp_path, "alone", str(bad), "--gate")
    out = capsys.readouterr().out
    assert code == 1, out
    assert alone.gate is not None
    missed = {row.metric for row in alone.gate.rows if row.status == "missed_target"}
    assert missed == {"abstention.accuracy", "abstention.hallucination_rate"}


def test_the_json_report_holds_the_gate_and_the_ranking_depths(tmp_path: Path) -> None:
    gate = tmp_path / "gate.json"
    gate.write_text(json.dumps({"targets": {"grounding.claim_support_rate": "> 0.5"}}))
    code, plain = run_eval(tmp_path, "plain", str(RECORDED))
    assert code == 0 and plain.gate is None
    raw = json.loads((tmp_path / "reports/plain.json").read_text())
    assert raw["gate"] is None
    assert raw["metrics"]["retrieval.ndcg@5"]["depth"] == 5
    mrr = raw["metrics"]["retrieval.mrr"]
    assert mrr["depth"] is not None and mrr["depth_min"] is not None
    assert mrr["depth"] >= mrr["depth_min"] >= 1
    assert raw["metrics"]["pipeline.pass"]["depth"] is None
    markdown = (tmp_path / "reports/plain.md").read_text()
    depth = (
        mrr["depth"] if mrr["depth"] == mrr["depth_min"] else f"{mrr['depth_min']}-{mrr['depth']}"
    )
    assert f"`retrieval.mrr@{depth}`" in markdown

    code, _ = run_eval(tmp_path, "gated", str(RECORDED), "--gate-config", str(gate), "--gate")
    assert code == 0
    section = json.loads((tmp_path / "reports/gated.json").read_text())["gate"]
    assert section["passed"] is True and section["baseline"] is None
    assert section["verdict"].startswith("GATE PASSED")
    assert {"metric", "baseline", "current", "delta", "test", "p_value", "status", "failed"} <= set(
        section["rows"][0]
    )

    base = tmp_path / "reports/plain.json"
    code, _ = run_eval(
        tmp_path, "compared", str(RECORDED), "--gate-config", str(gate), "--baseline", str(base)
    )
    assert code == 0
    section = json.loads((tmp_path / "reports/compared.json").read_text())["gate"]
    assert section["passed"] is True
    assert section["baseline"] == {"run_id": plain.run_id, "path": str(base)}
    ndcg = next(row for row in section["rows"] if row["metric"] == "retrieval.ndcg@5")
    assert ndcg["baseline"] == ndcg["current"] == plain.metrics["retrieval.ndcg@5"].value
    assert (ndcg["status"], ndcg["delta"]) == ("ok", 0.0)
    # a report carrying a gate is itself a valid baseline
    code, _ = run_eval(
        tmp_path,
        "again",
        str(RECORDED),
        "--gate-config",
        str(gate),
        "--baseline",
        str(tmp_path / "reports/compared.json"),
    )
    assert code == 0


def bm25_events(path: Path) -> Path:
    """The recorded fixture with BM25-like scores (x 15), no declared scale."""
    with path.open("w") as out:
        for line in RECORDED.read_text().splitlines():
            event = json.loads(line)
            for chunk in event.get("chunks", []):
                chunk["score"] = round(chunk.get("score", 0.0) * 15.0, 3)
                chunk.pop("rerank_score", None)
            out.write(json.dumps(event) + "\n")
    return path


def test_undeclared_score_scales_are_a_line_of_the_report_and_a_setting_fixes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bm25_events(tmp_path / "bm25.jsonl")
    code, raw = run_eval(tmp_path, "raw", str(data))
    out = capsys.readouterr().out
    assert code == 0
    warned = [c for c in raw.cases if "score_warning" in c.signals]
    assert warned, "BM25 scores with no declared scale must warn"
    line = next(line for line in out.splitlines() if line.startswith("score scale warning"))
    assert line.startswith(f"score scale warning on {len(warned)} of {len(raw.cases)} cases (")
    assert "no scale declared" in line
    assert "| Score scales | score scale warning on" in (tmp_path / "reports/raw.md").read_text()
    quality = raw.metrics["quality.overall"].value
    assert quality is not None and quality > 1.0  # spec 000 on raw BM25: out of its range

    monkeypatch.setenv("MONITOR_SCORE_SCALE", "bm25")
    code, fixed = run_eval(tmp_path, "fixed", str(data))
    out = capsys.readouterr().out
    assert code == 0 and "score scale warning" not in out
    assert fixed.config["score_scale"] == "bm25"
    assert not any("score_warning" in c.signals for c in fixed.cases)
    quality = fixed.metrics["quality.overall"].value
    assert quality is not None and 0.0 <= quality <= 1.0
