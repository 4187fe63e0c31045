"""``wait_until``: poll a condition from a test until it holds or a deadline passes;
``sigkill_when``: crash a child process at a chosen moment."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable

__all__ = ["sigkill_when", "wait_until"]


def wait_until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Return once ``condition()`` is true; ``AssertionError`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"condition not met within {timeout_s} s"
        time.sleep(0.01)


def sigkill_when(child: subprocess.Popen[bytes], condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds while ``child`` still runs, then SIGKILL it (a
    crash, no clean-up). The child must be started with ``stderr=PIPE``: its output is
    shown if it exited first. The child is reaped and its pipe closed in every case."""
    try:
        wait_until(lambda: condition() or child.poll() is not None)
        assert child.poll() is None, child.stderr.read().decode() if child.stderr else ""
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stderr:
            child.stderr.close()
