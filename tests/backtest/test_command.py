"""``ragmon backtest FILE``: notifications on stdout, the summary on stderr, usage errors in
one line with exit code 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from monitor.alerts.alert import Alert
from monitor.cli import main
from monitor.demo.traffic import TrafficGenerator

ENV = {
    "MONITOR_TUMBLING_WINDOW_MS": "10000",
    "MONITOR_HOPPING_WINDOW_MS": "30000",
    "MONITOR_HOPPING_STEP_MS": "10000",
    "MONITOR_BASELINES": '{"quality.overall": 0.6}',
}


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    gen = TrafficGenerator(seed=2, events_per_s=50.0, degrade_after=500)
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\n".join(value for _, value in gen.messages(1_500)) + b"\n")
    return path


def test_file_gives_alert_lines_and_a_summary(
    recorded: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["backtest", str(recorded)]) == 0
    out, err = capsysbinary.readouterr()
    alerts = [Alert.model_validate_json(line) for line in out.splitlines()]
    assert alerts and {a.status for a in alerts} <= {"firing", "resolved"}
    text = err.decode()
    assert "Traceback" not in text
    assert "events: 1500 (scored" in text
    assert "windows closed:" in text
    assert f"notifications: {len(alerts)} " in text
    for alert in alerts:  # the summary counts notifications by rule, severity and status
        assert f"{alert.rule} " in text


def test_stdin(recorded: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "monitor", "backtest", "-"],
        input=recorded.read_bytes(),
        capture_output=True,
        env={**os.environ, **ENV},
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert all(json.loads(line)["fingerprint"] for line in proc.stdout.splitlines())
    assert b"events: 1500" in proc.stderr


def test_missing_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backtest", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"ragmon backtest: no such file: {tmp_path / 'nope.jsonl'}"


def test_no_file_argument_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backtest"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_setting_is_one_line_and_exit_2(
    recorded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MONITOR_TUMBLING_WINDOW_MS", "soon")
    assert main(["backtest", str(recorded)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragmon: MONITOR_TUMBLING_WINDOW_MS") and len(err.splitlines()) == 1


def test_jobs_score_in_processes_with_the_same_output(
    recorded: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["backtest", str(recorded)]) == 0
    one, _ = capsysbinary.readouterr()
    assert main(["backtest", "--jobs", "2", str(recorded)]) == 0
    two, _ = capsysbinary.readouterr()
    assert one == two and one
