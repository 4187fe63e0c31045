"""Build the scorers' lazily built tables now: the injection model's weights (about 0.7 s)
and the pre-check's anchor automaton (a few milliseconds).

Called before forking scoring processes (``ragmon score --jobs``, ``ragmon eval``), so the
children share the parent's tables instead of each building its own, and when a worker
starts, so its first event is not the one that waits.
"""

from __future__ import annotations

from monitor.scoring.injection.anchor_scan import scanner
from monitor.scoring.injection.model import load

__all__ = ["warm_up"]


def warm_up() -> None:
    """Load the injection model and compile the pre-check (each once per process)."""
    load()
    scanner()
