"""``ragmon eval --judge`` against the local chat-completions server (tests/chat_server.py):
verdicts in the report with their full judge input, the spot-check, and a killed run that
resumes without repeating a judge call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_server import ChatServer
from polling import sigkill_when, wait_until

from monitor.cli import main
from monitor.evaluation.results import load_report

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests/fixtures/evals/fixtures003"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as chat:
        yield chat


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def judge_env(server: ChatServer) -> dict[str, str]:
    return {
        "MONITOR_JUDGE_BASE_URL": server.url,
        "MONITOR_JUDGE_MODEL": "judge-a",
        "MONITOR_JUDGE_API_KEY": "sk-test-Secret-Key-123",
        "MONITOR_JUDGE_MAX_RETRIES": "0",
    }


def test_judged_run_stores_verdicts_inputs_and_reliability(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in judge_env(server).items():
        monkeypatch.setenv(name, value)
    code = main(
        [
            "eval",
            str(FIXTURES),
            "--judge",
            "--judge-spot-check",
            "3",
            "--quiet",
            "--no-plots",
            "--out-dir",
            str(tmp_path),
            "--output",
            "judged",
        ]
    )
    assert code == 0
    report = load_report(tmp_path / "judged.json")
    judge = report.judge
    assert judge is not None and judge["model"] == "judge-a" and judge["temperature"] == 0
    judged = judge["judged_cases"]
    assert 0 < judged < len(report.cases)  # refusals and blocked answers are not judged
    assert set(judge["rubrics"]) == {"faithfulness_completeness", "groundedness_correctness"}
    first = server.calls(model="judge-a")
    assert judge["new_calls"] == 2 * judged
    verdicts = judge["verdicts"]
    assert len(verdicts) == 2 * judged
    assert all(v["judge_input"]["request"]["temperature"] == 0 for v in verdicts)
    assert all(v["prompt_version"] and v["model"] == "judge-a" for v in verdicts)
    for rubric, entry in judge["rubrics"].items():
        assert entry["aggregate"]["n"] == judged, rubric
        reliability = judge["reliability"][rubric]
        assert reliability["spot_check_n"] == 3
        assert 0 <= reliability["disagreement_rate"] <= 1
    assert first == 2 * judged + 2 * 3  # every case per rubric, plus the spot-checks
    scores = [c.metrics["judge.faithfulness"] for c in report.cases if c.judge]
    assert len(scores) == judged
    assert report.metrics["judge.faithfulness"].value == pytest.approx(sum(scores) / judged)
    assert "sk-test-Secret-Key-123" not in (tmp_path / "judged.json").read_text()
    assert "sk-test-Secret-Key-123" not in (tmp_path / "judged.md").read_text()


def test_killed_run_resumes_without_repeating_judge_calls(
    server: ChatServer, tmp_path: Path
) -> None:
    progress = tmp_path / "progress"
    args = [
        sys.executable,
        "-m",
        "monitor",
        "eval",
        str(FIXTURES),
        "--judge",
        "--quiet",
        "--no-plots",
        "--out-dir",
        str(tmp_path),
        "--judge-progress",
        str(progress),
        "--output",
        "resumed",
    ]
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")},
        **judge_env(server),
        "MONITOR_JUDGE_CONCURRENCY": "1",
    }
    server.hold_after(5)  # five verdicts arrive, the sixth request hangs: the kill comes then
    child = subprocess.Popen(args, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    sigkill_when(child, lambda: server.held == 1)
    assert not (tmp_path / "resumed.json").exists()
    recorded = sum(len(f.read_text().splitlines()) for f in progress.glob("*.jsonl"))
    assert recorded == 5
    server.release()
    wait_until(lambda: server.calls() == 6)  # the held request is answered into the void
    before = Counter(json.dumps(r.body["messages"]) for r in server.requests())
    rerun = subprocess.run(
        args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert rerun.returncode == 0, rerun.stderr
    report = load_report(tmp_path / "resumed.json")
    assert report.judge is not None
    total = len(report.judge["verdicts"])
    assert report.judge["reused_verdicts"] == 5
    assert report.judge["new_calls"] == total - 5
    assert server.calls() == 6 + total - 5  # nothing judged before was asked again
    after = Counter(json.dumps(r.body["messages"]) for r in server.requests()) - before
    repeated = [msg for msg in after if before[msg]]
    assert len(repeated) <= 1  # only the request in flight at the kill, never a recorded one
    assert json.loads((tmp_path / "resumed.json").read_text())["judge"]["new_calls"] == total - 5
