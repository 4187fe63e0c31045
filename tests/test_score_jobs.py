"""``ragmon score --jobs N`` writes exactly what one process writes, in input order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from bench.realtext import RealTextEvents
from monitor.score_jobs import BLOCK_LINES, score_lines_in_processes
from monitor.scoring.score_scale import UNDECLARED


def _lines(n: int) -> list[bytes]:
    lines = [orjson.dumps(e) for e in RealTextEvents(seed=11, size_kb=2, reuse=True).events(n)]
    lines[7] = b"not json"
    lines[BLOCK_LINES + 3] = b""
    return lines


def _strip_timing(line: bytes) -> bytes:
    record = orjson.loads(line)
    record.pop("scoring_us", None)
    return orjson.dumps(record)


def test_processes_give_the_lines_in_order() -> None:
    from monitor.pipeline import score_lines

    lines = _lines(3 * BLOCK_LINES + 17)
    one = list(score_lines(lines))
    many = list(score_lines_in_processes(lines, jobs=2, max_bytes=1 << 20, score_scales=UNDECLARED))
    assert [ok for _, ok in many] == [ok for _, ok in one]
    assert [_strip_timing(x) for x, _ in many] == [_strip_timing(x) for x, _ in one]
    assert orjson.loads(many[BLOCK_LINES + 3][0])["line"] == BLOCK_LINES + 4


def test_the_command_with_jobs(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\n".join(_lines(BLOCK_LINES + 40)) + b"\n")
    runs = [
        subprocess.run(
            [sys.executable, "-m", "monitor", "score", str(path), *args],
            capture_output=True,
            check=False,
        )
        for args in ([], ["--jobs", "2"])
    ]
    assert [r.returncode for r in runs] == [1, 1]  # a bad line: exit 1, as before
    one, two = (r.stdout.splitlines() for r in runs)
    assert [_strip_timing(x) for x in two] == [_strip_timing(x) for x in one]
    bad = subprocess.run(
        [sys.executable, "-m", "monitor", "score", str(path), "--jobs", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) <= 2
