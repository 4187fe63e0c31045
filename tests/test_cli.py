"""``ragmon`` commands (``monitor.cli``), run in-process unless stdin is needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from monitor.cli import main
from monitor.events.schema import render, schema_documents

SECRET = "hunter2-Very-Secret-value"


def event(event_id: str) -> bytes:
    return json.dumps(
        {
            "schema_version": "1",
            "event_id": event_id,
            "timestamp_ms": 1_795_353_600_000,
            "query": {"text": "What is the vacation policy?"},
            "chunks": [{"document_id": "hr", "content": "Employees get 15 days.", "score": 0.8}],
        }
    ).encode()


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def _one_line_error(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------- score


def test_score_file_with_good_and_bad_lines(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\n".join([event("a"), b"{broken", event("b"), b"[]", event("c")]) + b"\n")
    assert main(["score", str(path)]) == 1
    out, err = capsysbinary.readouterr()
    lines = out.decode().splitlines()
    assert len(lines) == 5
    docs = [json.loads(line) for line in lines]
    assert [d.get("event_id") for d in docs] == ["a", None, "b", None, "c"]
    assert docs[1]["line"] == 2 and docs[1]["error"].startswith("decode/invalid_json")
    assert docs[3]["line"] == 4 and docs[3]["error"].startswith("validate/not_an_object")
    for d in (docs[0], docs[2], docs[4]):
        assert set(d["quality"]) >= {"overall", "retrieval_confidence", "warning"}
        assert d["crag"]["classification"] in {"correct", "ambiguous", "incorrect"}
    assert b"Traceback" not in err


def test_score_all_good_exits_zero(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\n".join(event(f"e{i}") for i in range(3)) + b"\n")
    assert main(["score", str(path)]) == 0
    out, _ = capsysbinary.readouterr()
    assert [json.loads(x)["event_id"] for x in out.decode().splitlines()] == ["e0", "e1", "e2"]


def _clean_subprocess_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.upper().startswith("MONITOR_")}


def test_score_from_stdin() -> None:
    data = event("s1") + b"\nnope\n" + event("s2") + b"\n"
    proc = subprocess.run(
        [sys.executable, "-m", "monitor", "score"],
        input=data,
        capture_output=True,
        timeout=60,
        env=_clean_subprocess_env(),
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0])["event_id"] == "s1"
    error = json.loads(lines[1])
    assert set(error) == {"line", "error"}
    assert error["line"] == 2
    assert error["error"].startswith("decode/invalid_json")
    assert json.loads(lines[2])["event_id"] == "s2"
    assert b"Traceback" not in proc.stderr


def test_score_from_stdin_all_good() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "monitor", "score"],
        input=event("only") + b"\n",
        capture_output=True,
        timeout=60,
        env=_clean_subprocess_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["event_id"] == "only"


# --------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--bogus"],
        ["frobnicate"],
        [],
        ["demo", "--duration", "-5"],
        ["demo", "--duration", "0"],
        ["demo", "--duration", "soon"],
        ["demo", "--rate", "-1"],
        ["replay"],
        ["replay", "/nonexistent/events.jsonl"],
        ["score", "/nonexistent/events.jsonl"],
        ["ab", "--experiment", "e", "--since", "yesterday"],
        ["ab", "--experiment", "e", "--since", "2026-13-45T10:00:00Z"],
        ["ab", "--experiment", "e", "--since", "0", "--scope", "hopping"],
        ["ab", "--experiment", "e", "--windows", "0"],
        ["ab", "--experiment", "e", "--windows", "3", "--metric", "no.such"],
    ],
)
def test_usage_errors_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    line = _one_line_error(err)
    assert line.startswith("ragmon")
    assert out == ""


def test_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.jsonl"
    assert main(["score", str(missing)]) == 2
    assert str(missing) in _one_line_error(capsys.readouterr().err)


def test_directory_is_not_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path)]) == 2
    _one_line_error(capsys.readouterr().err)


def test_bad_environment_value_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MONITOR_WEB_PORT", "abc")
    assert main(["config"]) == 2
    out, err = capsys.readouterr()
    line = _one_line_error(err)
    assert "MONITOR_WEB_PORT" in line
    assert out == ""


def test_bad_environment_value_exits_2_for_score_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(event("a") + b"\n")
    monkeypatch.setenv("MONITOR_MAX_EVENT_BYTES", "12")
    assert main(["score", str(path)]) == 2
    assert "MONITOR_MAX_EVENT_BYTES" in _one_line_error(capsys.readouterr().err)


# --------------------------------------------------------------------- config and schema


def _config(capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any]]:
    assert main(["config"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out, json.loads(out)


def test_config_masks_the_sasl_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MONITOR_KAFKA_SASL_PASSWORD", SECRET)
    monkeypatch.setenv("MONITOR_KAFKA_SASL_USERNAME", "svc-ragmon")
    monkeypatch.setenv("MONITOR_EVENTS_TOPIC", "custom.events")
    out, cfg = _config(capsys)
    assert SECRET not in out
    assert cfg["kafka_sasl_password"] == "**********"
    assert cfg["kafka_sasl_username"] == "svc-ragmon"
    assert cfg["events_topic"] == "custom.events"


def test_config_masks_url_credentials(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MONITOR_BOOTSTRAP_SERVERS", f"sasl://admin:{SECRET}@broker:9092")
    out, cfg = _config(capsys)
    assert SECRET not in out
    assert "admin" not in out
    assert cfg["bootstrap_servers"] == "sasl://**********@broker:9092"


def test_config_without_secret_prints_null(capsys: pytest.CaptureFixture[str]) -> None:
    _, cfg = _config(capsys)
    assert cfg["kafka_sasl_password"] is None
    assert cfg["events_topic"] == "rag.events.v1"


def test_schema_command_writes_the_committed_schemas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    docs = schema_documents()
    assert sorted(Path(p).name for p in printed) == sorted(docs)
    for name, schema in docs.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == render(schema)


def test_since_reads_iso_8601_and_epoch_ms() -> None:
    from monitor.cli import _epoch_ms

    assert _epoch_ms("1700000000000") == 1_700_000_000_000
    assert _epoch_ms("2023-11-14T22:13:20Z") == 1_700_000_000_000
    assert _epoch_ms("2023-11-14T22:13:20") == 1_700_000_000_000  # UTC without an offset
    assert _epoch_ms("2023-11-14T23:13:20+01:00") == 1_700_000_000_000


# --------------------------------------------------------------------- issue 14: user errors


def _run_cli(
    argv: list[str], env: dict[str, str] | None = None, stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    clean = {k: v for k, v in os.environ.items() if not k.upper().startswith("MONITOR_")}
    return subprocess.run(
        [sys.executable, "-m", "monitor", *argv],
        input=stdin,
        capture_output=True,
        env=clean | (env or {}),
        timeout=60,
        check=False,
    )


def test_schema_out_an_existing_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "schemas"
    existing.write_text("keep me")
    assert main(["schema", "--out", str(existing)]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert str(existing) in line and "not a directory" in line
    assert existing.read_text() == "keep me"


def test_schema_out_where_no_directory_can_be_made(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--out", "/proc/nope"]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert line.startswith("ragmon schema: cannot create /proc/nope")


def test_alert_endpoints_not_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MONITOR_ALERT_ENDPOINTS", "not json")
    assert main(["config"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "MONITOR_ALERT_ENDPOINTS: not valid JSON" in _one_line_error(err)


@pytest.mark.parametrize(
    ("name", "value", "unknown", "a_valid_id"),
    [
        ("MONITOR_BASELINES", '{"quality.overal": 0.7}', "'quality.overal'", "quality.overall"),
        ("MONITOR_RATE_THRESHOLDS", '{"nope.metric": 0.1}', "'nope.metric'", "outcome.abstained"),
        ("MONITOR_DEGRADATION_METRICS", '["quality.overall", "x.y"]', "'x.y'", "retrieval.mrr"),
    ],
)
def test_unknown_metric_ids_are_refused_with_the_valid_ones(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    unknown: str,
    a_valid_id: str,
) -> None:
    monkeypatch.setenv(name, value)
    assert main(["config"]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert line.startswith(f"ragmon: {name}: unknown metric id {unknown}; valid: ")
    assert a_valid_id in line.split("valid: ", 1)[1].split(", ")


def test_score_a_directory_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "/etc"]) == 2
    assert _one_line_error(capsys.readouterr().err) == (
        "ragmon score: /etc is a directory, not a JSON-lines file"
    )


def test_score_dash_reads_stdin() -> None:
    done = _run_cli(["score", "-"], stdin=event("from-stdin") + b"\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["event_id"] == "from-stdin"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from monitor import __version__

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"ragmon {__version__}"


def test_eval_without_a_dataset_says_what_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing to fall back on, wherever it runs
    assert main(["eval", "-q"]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert "needs a dataset" in line and "fixtures directory" in line
    assert "tests/" not in line
    assert list(tmp_path.iterdir()) == []


def test_eval_out_dir_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "reports"
    a_file.write_text("")
    dataset = Path(__file__).parent / "fixtures" / "evals" / "fixtures003"
    assert main(["eval", str(dataset), "-q", "--out-dir", str(a_file)]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert f"--out-dir {a_file} exists and is not a directory" in line


def test_judge_iterations_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    dataset = Path(__file__).parent / "fixtures" / "evals" / "fixtures003"
    assert main(["eval", str(dataset), "--judge-iterations", "0"]) == 2
    assert "--judge-iterations: must be >= 1" in _one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("command", ["replay", "worker"])
def test_broker_down_is_one_line_after_a_bounded_wait(tmp_path: Path, command: str) -> None:
    from monitor.stream.broker import free_port

    events = tmp_path / "events.jsonl"
    events.write_bytes(event("a") + b"\n")
    argv = ["replay", str(events)] if command == "replay" else ["worker"]
    env = {
        "MONITOR_BOOTSTRAP_SERVERS": f"127.0.0.1:{free_port()}",  # nothing listens there
        "MONITOR_BROKER_WAIT_S": "1",
        "MONITOR_DATA_DIR": str(tmp_path / "data"),
    }
    done = _run_cli(argv, env)
    assert done.returncode == 2
    assert done.stdout == b""
    line = _one_line_error(done.stderr.decode())
    address = env["MONITOR_BOOTSTRAP_SERVERS"]
    assert line.startswith(f"ragmon: no Kafka broker answered at {address}")
    assert "within 1 s" in line
