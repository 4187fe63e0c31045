"""``ragmon demo`` end to end: scored traffic, dead letters, closed windows and the alerts
its degraded treatment variant raises on screen, and Ctrl-C (SIGINT) stops the demo and
every process it started."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.broker, pytest.mark.timeout(180)]

_TOTALS = re.compile(r"scored\s+(\d+)\s+dead letters\s+(\d+)")
_QUALITY_ALERT = re.compile(r"\[FIRING\] \w+ \w+ quality\.\w+: .*variant=treatment")
_WINDOW = re.compile(r"\d\d:\d\d:\d\d-\d\d:\d\d:\d\d   control \d\.\d{3} \(\d+\)")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_demo_shows_scores_and_stops_everything_on_sigint(tmp_path: Path) -> None:
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        demo = subprocess.Popen(
            [
                *(sys.executable, "-m", "monitor", "demo", "--refresh", "2", "--rate", "200"),
                *("--window", "3", "--degrade-after", "15"),
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")},
        )
    try:
        deadline = time.monotonic() + 120
        scored = dead = 0
        alerted = False
        while time.monotonic() < deadline and not (scored > 0 and dead > 0 and alerted):
            time.sleep(1)
            text = out.read_text()
            totals = _TOTALS.findall(text)
            if totals:
                scored, dead = map(int, totals[-1])
            alerted = bool(_QUALITY_ALERT.search(text))
            assert demo.poll() is None, text
        text = out.read_text()
        assert scored > 0 and dead > 0, text
        assert "control" in text and "treatment" in text and "mean quality" in text
        assert _WINDOW.search(text), text
        # the treatment variant degrades after 15 s: its alert reaches the sink, signed
        assert alerted and "treatment DEGRADED" in text, text
        # the experiment's verdict: the arms differ a lot, so the confidence sequence
        # leaves 0 (a direction), or the degradation shows as a changed effect
        verdict = r"treatment (higher|lower)|effect changed during the experiment"
        sequence = r"(\[.*\]|n/a \(changed\))"
        line = rf"reranker-v2 treatment vs control: .* 95% CS {sequence} .* -> ({verdict})"
        assert re.search(line, text), text
        children = _children(demo.pid)
        assert len(children) == 2  # the broker and the worker
        demo.send_signal(signal.SIGINT)
        assert demo.wait(timeout=45) == 0, out.read_text()
        for pid in children:
            assert not _alive(pid), f"process {pid} outlived the demo"
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
