"""``ragmon eval`` end to end over the committed fixtures: each input format, the report
files and their numbers, the regression gate's exit codes, suites, bad input."""

from __future__ import annotations

import csv
import html
import json
import os
import subprocess
import sys
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest
from scipy import stats

from monitor.cli import main
from monitor.evaluation.datasets import load_dataset
from monitor.evaluation.results import EvalReport, load_report
from monitor.pipeline import score_event

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests/fixtures/evals"
RECORDED = FIXTURES / "recorded_events.jsonl"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def run_eval(tmp_path: Path, *args: str) -> tuple[int, EvalReport | None]:
    out = tmp_path / "reports"
    code = main(
        ["eval", *args, "--quiet", "--out-dir", str(out), "--traces-dir", str(tmp_path / "traces")]
    )
    reports = sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime) if out.exists() else []
    return code, (load_report(reports[-1]) if reports else None)


def expected_numbers(dataset: Path) -> dict[str, float]:
    """The report's key numbers, computed here from the stream scorer's raw output."""
    cases = load_dataset(dataset).cases
    scored = {c.case_id: score_event(c.labelled_event()) for c in cases}  # type: ignore[arg-type]
    retrieval = [scored[c.case_id].retrieval for c in cases if "retrieval" in c.perspectives]
    ndcg = [r["ndcg@5"] for r in retrieval if r is not None]
    safety = [c for c in cases if c.is_attack is not None]
    attack = [scored[c.case_id].safety.injection.score for c in safety if c.is_attack]  # type: ignore[union-attr]
    benign = [scored[c.case_id].safety.injection.score for c in safety if not c.is_attack]  # type: ignore[union-attr]
    auc = stats.mannwhitneyu(attack, benign).statistic / (len(attack) * len(benign))
    outcome = [
        scored[c.case_id].outcome == c.expected_outcome
        for c in cases
        if c.expected_outcome is not None
    ]
    support = [
        scored[c.case_id].grounding.claim_support_rate  # type: ignore[union-attr]
        for c in cases
        if "groundedness" in c.perspectives
        and scored[c.case_id].grounding is not None
        and scored[c.case_id].grounding.claim_support_rate is not None
    ]  # type: ignore[union-attr]
    totals = sorted(s.latency_ms["total"] for s in scored.values())
    return {
        "retrieval.ndcg@5": fmean(ndcg),
        "safety.injection.auc": auc,
        "pipeline.outcome_match": fmean(outcome),
        "grounding.claim_support_rate": fmean(support),
        "latency_ms.total.p50": float(stats.scoreatpercentile(totals, 50)),
        "cases": len(cases),
    }


@pytest.mark.parametrize("dataset", ["fixtures003", "recorded_events.jsonl"])
def test_recorded_formats_report_files_and_numbers(tmp_path: Path, dataset: str) -> None:
    code, report = run_eval(tmp_path, str(FIXTURES / dataset), "--save-trace")
    assert code == 0 and report is not None
    want = expected_numbers(FIXTURES / dataset)
    assert report.dataset.cases == report.dataset.evaluated == want["cases"]
    for metric_id, value in want.items():
        if metric_id != "cases":
            assert report.metrics[metric_id].value == pytest.approx(value, rel=1e-12), metric_id
    assert report.metrics["retrieval.ndcg@5"].target == "> 0.6"
    assert report.seed == 42 and report.versions["scorer"] == "1"
    stem = tmp_path / "reports" / f"eval_report_{report.timestamp}"
    markdown = stem.with_suffix(".md").read_text()
    assert f"{report.metrics['retrieval.ndcg@5'].value:.3f}" in markdown
    rows = list(csv.DictReader(Path(f"{stem}_cases.csv").read_text().splitlines()))
    assert [r["case_id"] for r in rows] == [c.case_id for c in report.cases]
    by_id = {r["case_id"]: r for r in rows}
    for case in report.cases:
        for metric_id, value in case.metrics.items():
            assert float(by_id[case.case_id][metric_id]) == pytest.approx(value)
    for plot in ("metrics", "scores", "breakdown", "latency"):
        assert Path(f"{stem}_{plot}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = stem.with_suffix(".html").read_text()
    assert page.count('src="data:image/png;base64,') == 4
    for case in report.failed_cases()[:3]:  # with their query and answer, escaped
        assert html.escape(case.query) in page
        if case.answer:
            assert html.escape(case.answer) in page
    failed = report.failed_cases()
    traces = sorted((tmp_path / "traces").glob("*.jsonl"))
    assert bool(failed) == bool(traces)
    traced = {json.loads(line)["case_id"] for t in traces for line in t.read_text().splitlines()}
    assert traced == {c.case_id for c in failed}
    for trace in traces:
        line = json.loads(trace.read_text().splitlines()[0])
        assert line["event"]["event_id"] == line["case_id"] and line["scored"] is not None


def test_breakdowns_and_answerable_split(tmp_path: Path) -> None:
    code, report = run_eval(tmp_path, str(FIXTURES / "fixtures003"))
    assert code == 0 and report is not None
    cases = load_dataset(FIXTURES / "fixtures003").cases
    assert set(report.breakdowns) == {"tag", "category", "difficulty", "query_type", "answerable"}
    unanswerable = [c.case_id for c in cases if c.answerable is False]
    assert report.breakdowns["answerable"]["unanswerable"].cases == len(unanswerable)
    for category in {c.category for c in cases if c.category}:
        members = [c for c in cases if c.category == category]
        assert report.breakdowns["category"][category].cases == len(members)
    abstention = report.metrics["abstention.accuracy"]
    assert abstention.n == len(unanswerable)


def test_perspective_selection_and_smoke_suite(tmp_path: Path) -> None:
    code, report = run_eval(tmp_path, str(RECORDED), "--perspective", "retrieval,safety")
    assert code == 0 and report is not None
    assert set(report.perspectives) == {"retrieval", "safety"}
    assert not any(m.startswith(("grounding.", "pipeline.pass")) for m in report.metrics)
    code, smoke = run_eval(tmp_path, str(RECORDED), "--suite", "smoke", "--seed", "7")
    assert code == 0 and smoke is not None
    assert 0 < smoke.dataset.evaluated < smoke.dataset.cases
    _, again = run_eval(tmp_path, str(RECORDED), "--suite", "smoke", "--seed", "7")
    assert again is not None
    assert [c.case_id for c in again.cases] == [c.case_id for c in smoke.cases]
    assert again.metrics == smoke.metrics  # NFR-2: same seed, same numbers


def degraded_copy(tmp_path: Path, n_copies: int, degrade: bool) -> Path:
    """The recorded fixture ``n_copies`` times; ``degrade`` reverses every ranking and drops
    the citations (retrieval and pipeline regress)."""
    lines = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    path = tmp_path / ("bad.jsonl" if degrade else "good.jsonl")
    with path.open("w") as out:
        for copy in range(n_copies):
            for event in lines:
                event = json.loads(json.dumps(event))
                event["event_id"] = f"{event['event_id']}-{copy}"
                if degrade:
                    event["chunks"] = event["chunks"][::-1]
                    if event.get("response"):
                        event["response"]["citations"] = []
                out.write(json.dumps(event) + "\n")
    return path


def test_baseline_gate_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = degraded_copy(tmp_path, 5, False), degraded_copy(tmp_path, 5, True)
    gate = tmp_path / "gate.json"  # targets the fixture meets, so only regressions fail
    gate.write_text(json.dumps({"targets": {"grounding.claim_support_rate": "> 0.5"}}))
    code, baseline = run_eval(tmp_path, str(good), "--output", "base", "--gate-config", str(gate))
    assert code == 0 and baseline is not None
    base_path = tmp_path / "reports/base.json"
    capsys.readouterr()
    code, _ = run_eval(
        tmp_path,
        str(good),
        "--baseline",
        str(base_path),
        "--gate-config",
        str(gate),
        "--output",
        "same",
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "GATE PASSED" in out
    code, _ = run_eval(
        tmp_path,
        str(bad),
        "--baseline",
        str(base_path),
        "--gate-config",
        str(gate),
        "--output",
        "worse",
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "GATE FAILED" in out
    regressed = [line for line in out.splitlines() if "REGRESSED" in line]
    assert any(line.startswith("retrieval.ndcg@5") for line in regressed), out
    assert any("mcnemar" in line or "paired_t" in line for line in regressed)
    assert "## Regression gate" in (tmp_path / "reports/worse.md").read_text()
    page = (tmp_path / "reports/worse.html").read_text()
    assert '<p class="verdict failed">GATE FAILED' in page
    assert '<tr class="failed"><td>retrieval.ndcg@5</td>' in page


def test_missed_target_fails_the_gate_without_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gate = tmp_path / "gate.json"
    gate.write_text(json.dumps({"targets": {"retrieval.ndcg@5": "> 0.99"}}))
    code, report = run_eval(tmp_path, str(RECORDED), "--gate", "--gate-config", str(gate))
    assert code == 1 and report is not None
    assert report.metrics["retrieval.ndcg@5"].meets_target is False
    assert "retrieval.ndcg@5" in capsys.readouterr().out
    code, _ = run_eval(tmp_path, str(RECORDED))  # no gate asked for: report only, exit 0
    assert code == 0


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--perspective", "retrieval,vibes"], "unknown perspective vibes"),
        (["--suite", "huge"], "invalid choice"),
        (["--judge-iterations", "-1"], "must be >= 0"),
        (["--baseline", "/nonexistent/base.json"], "/nonexistent/base.json"),
        (["--target-config", "x.json"], "--target-config needs --target"),
        (["--target", "ftp://host/x"], "--target"),
        (["--judge"], "--judge needs a model"),
        (["--output", "a/b"], "--output"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    code, report = run_eval(tmp_path, str(RECORDED), *args)
    assert code == 2 and report is None
    assert needle in one_error_line(capsys)


def test_invalid_dataset_stops_unless_skip_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = FIXTURES / "recorded_events_broken.jsonl"
    code, report = run_eval(tmp_path, str(broken))
    assert code == 2 and report is None
    line = one_error_line(capsys)
    assert "recorded_events_broken.jsonl:2: Invalid JSON" in line
    code, report = run_eval(tmp_path, str(broken), "--skip-invalid")
    assert code == 0 and report is not None
    assert report.dataset.skipped and report.dataset.evaluated < 12
    assert "skipped" in capsys.readouterr().out


def test_baseline_that_is_not_a_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"hello": 1}')
    code, _ = run_eval(tmp_path, str(RECORDED), "--baseline", str(bogus))
    assert code == 2
    assert "not an eval report" in one_error_line(capsys)


def test_a_dataset_without_responses_needs_a_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_eval(tmp_path, str(FIXTURES / "eval_dataset.json"))
    assert code == 2
    assert "--target URL" in one_error_line(capsys)


def test_the_installed_command_in_a_fresh_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "monitor",
            "eval",
            str(FIXTURES / "fixtures003"),
            "--quiet",
            "--no-plots",
            "--out-dir",
            str(tmp_path),
            "--output",
            "run",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")},
    )
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads((tmp_path / "run.json").read_text())
    assert data["dataset"]["format"] == "fixtures_dir" and len(data["cases"]) == 12
    assert not list(tmp_path.glob("*.png"))
