"""``ragmon demo`` in a real terminal (tmux): Ctrl-C there sends SIGINT to the terminal's
whole foreground process group, so the broker and the worker must not be in it. The demo
stops everything within 5 s of the keypress, with no traceback and no flood of client
errors, and leaves no process behind."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.broker, pytest.mark.timeout(180)]

_SCORED = re.compile(r"scored\s+[1-9]\d*")
_FLOOD_MARKERS = ("Traceback", "NodeNotReadyError", "Future exception was never retrieved")


def _tmux(server: str, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", server, "-f", "/dev/null", *args],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    return done.stdout


def _screen(server: str) -> str:
    """The pane with its scroll-back (everything the demo printed)."""
    return _tmux(server, "capture-pane", "-p", "-J", "-S", "-", "-t", "demo")


def _visible(server: str) -> str:
    """What the terminal shows now (the demo redraws its table in place)."""
    return _tmux(server, "capture-pane", "-p", "-J", "-t", "demo")


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            with_children = [int(c) for c in (task / "children").read_text().split()]
            found += with_children
            todo += with_children
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a reparented child waits for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(what: str, condition: object, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"no {what} within {timeout_s} s"
        time.sleep(0.1)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by `make test`")
def test_ctrl_c_in_a_terminal_stops_the_demo_and_everything_it_started(tmp_path: Path) -> None:
    server = f"ragmon-test-{os.getpid()}"
    env = " ".join(
        f"{k}=''" for k in os.environ if k.startswith("MONITOR_")
    )  # the demo's own settings, whatever the test's environment says
    command = (
        f"cd {tmp_path} && exec env {env} TMPDIR={tmp_path} PYTHONPATH={Path.cwd()} "
        f"{sys.executable} -m monitor demo --rate 100 --refresh 1 --window 2"
    )
    _tmux(server, "new-session", "-d", "-s", "demo", "-x", "160", "-y", "50", command)
    try:
        _tmux(server, "set-option", "-t", "demo", "remain-on-exit", "on")
        _tmux(server, "set-option", "-t", "demo", "history-limit", "50000")
        demo_pid = int(_tmux(server, "display-message", "-p", "-t", "demo", "#{pane_pid}"))
        # running: the table is on screen, the worker scores events and windows close
        _wait_for("scored events", lambda: _SCORED.search(_visible(server)), 90)
        _wait_for("a closed window", lambda: "none closed yet" not in _visible(server), 60)
        _wait_for("broker and worker", lambda: len(_descendants(demo_pid)) >= 2, 30)
        children = _descendants(demo_pid)
        pressed = time.monotonic()
        _tmux(server, "send-keys", "-t", "demo", "C-c")
        dead = _tmux(server, "display-message", "-p", "-t", "demo", "#{pane_dead}")
        # the demo's exit, seen in /proc (tmux, its parent, may be slow to reap it)
        _wait_for("exit after Ctrl-C", lambda: not _running(demo_pid), 30)
        stopped_s = time.monotonic() - pressed
        print(f"the demo stopped {stopped_s:.2f} s after Ctrl-C")
        _wait_for("its last line", lambda: "demo finished" in _screen(server), 5)
        screen = _screen(server)
        assert dead.strip() == "0"  # it was running when the key was pressed
        assert stopped_s < 5.0, f"stopped {stopped_s:.1f} s after Ctrl-C\n{screen}"
        for marker in _FLOOD_MARKERS:
            assert marker not in screen, screen
        after = screen.rsplit("stopping ...", 1)
        assert len(after) == 2, screen
        tail = [
            line
            for line in after[1].splitlines()
            if line.strip() and not line.startswith("Pane is dead")
        ]
        # "demo finished" is printed only on the way to exit code 0
        assert len(tail) <= 3 and tail[-1].startswith("demo finished"), screen
        for pid in children:
            assert not _running(pid), f"process {pid} outlived the demo"
    finally:
        subprocess.run(
            ["tmux", "-L", server, "kill-server"], capture_output=True, timeout=10, check=False
        )
