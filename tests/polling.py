"""``wait_until``: poll a condition from a test until it holds or a deadline passes."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["wait_until"]


def wait_until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Return once ``condition()`` is true; ``AssertionError`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"condition not met within {timeout_s} s"
        time.sleep(0.01)
