"""``ragmon eval --target``: a 002 EvalDataset asked of a live HTTP RAG service (the stub
in ``tests/rag_stub.py``), with failures, timeouts, retries and a custom reply shape."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from rag_stub import RagStub, retrieve

from monitor.cli import main
from monitor.evaluation.datasets import load_dataset
from monitor.evaluation.results import EvalReport, load_report

DATASET = Path(__file__).resolve().parents[2] / "fixtures/evals/eval_dataset.json"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def run(tmp_path: Path, url: str, config: dict[str, object]) -> tuple[int, EvalReport]:
    config_path = tmp_path / "target.json"
    config_path.write_text(json.dumps(config))
    code = main(
        [
            "eval",
            str(DATASET),
            "--target",
            url,
            "--target-config",
            str(config_path),
            "--quiet",
            "--no-plots",
            "--out-dir",
            str(tmp_path),
            "--output",
            "live",
        ]
    )
    return code, load_report(tmp_path / "live.json")


FAST = {"timeout_s": 0.5, "max_retries": 1, "backoff_base_s": 0.01, "backoff_max_s": 0.05}


def test_live_target_scores_answers_and_counts_failures(tmp_path: Path) -> None:
    cases = {c.case_id: c for c in load_dataset(DATASET).cases}
    with RagStub() as stub:
        stub.fail_for("business class", 503)  # every attempt fails: an error
        stub.slow(2.0, marker="401(k)")  # every attempt times out
        stub.fail_next(1)  # the first request fails once, then its retry succeeds
        code, report = run(tmp_path, f"{stub.url}/query", {**FAST, "concurrency": 3})
        assert stub.max_concurrent <= 3
        calls = {case_id: stub.calls(case_id=case_id) for case_id in cases}
    assert code == 0
    by_id = {c.case_id: c for c in report.cases}
    assert by_id["q006"].status == "error" and "HTTP 503 after 2 attempts" in by_id["q006"].error
    assert by_id["q008"].status == "timeout"
    assert calls["q006"] == calls["q008"] == 2  # one retry each
    assert sum(calls.values()) == len(cases) + 2 + 1  # + the retry after fail_next(1)
    assert report.metrics["operational.error_rate"].value == pytest.approx(2 / 6)
    assert report.metrics["operational.timeout_rate"].value == pytest.approx(1 / 6)
    assert report.config["target"]["url"].startswith("http://127.0.0.1:")
    assert "/query" not in json.dumps(report.config)
    answered = [c for c in report.cases if c.status == "ok"]
    assert len(answered) == 4
    for case in answered:  # MRR by hand from the stub's own ranking (doc level)
        relevant = cases[case.case_id].labels.relevant_docs
        if not relevant:
            continue
        ranking = [chunk["document_id"] for chunk in retrieve(cases[case.case_id].query)]
        rank = next((i for i, doc in enumerate(ranking, 1) if doc in relevant), None)
        assert case.metrics["retrieval.mrr"] == (1 / rank if rank else 0.0), case.case_id
    unanswerable = by_id["q010"]
    assert unanswerable.answerable is False
    assert unanswerable.metrics["abstention.accuracy"] == 1.0  # the stub abstains


def test_custom_request_template_and_response_map(tmp_path: Path) -> None:
    config = {
        **FAST,
        "request_template": {"question": "{{query}}", "id": "{{case_id}}"},
        "response_map": {
            "response.text": "data.0.answer",
            "response.citations": "data.0.sources",
            "chunks": "data.0.passages",
            "response.abstained": "abstained",
            "latency_ms.total": "timing.total_ms",
        },
    }
    with RagStub() as stub:
        code, report = run(tmp_path, f"{stub.url}/v2/ask", config)
        sent = stub.requests()
    assert code == 0
    assert {r.case_id for r in sent} == {c.case_id for c in report.cases}
    assert all(c.status == "ok" for c in report.cases)
    assert report.metrics["pipeline.pass"].value is None  # 002 has no pipeline labels
    assert report.metrics["retrieval.ndcg@5"].n == 5  # the 5 queries with relevant docs
    assert report.metrics["latency_ms.total.p50"].value is not None
