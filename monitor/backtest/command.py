"""``ragmon backtest FILE``: what that traffic would have paged.

Reads ``RagEvent`` JSON lines from FILE (``-``: stdin), in any order, runs them through
:class:`~monitor.backtest.engine.Backtest` and writes every alert notification (the
``Alert`` JSON of DESIGN section 7, firing and resolved) as one JSON line to ``out`` in the
order the worker would have produced them, then the summary to ``err``.
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

from monitor.backtest.engine import Backtest
from monitor.backtest.parallel import ParallelScorer
from monitor.errors import FileError

if TYPE_CHECKING:
    from monitor.config import Settings

__all__ = ["run_backtest"]


def _read_lines(path: Path | None) -> list[bytes]:
    if path is None:
        return sys.stdin.buffer.read().splitlines()
    try:
        return path.read_bytes().splitlines()
    except OSError as exc:
        raise FileError(str(path), None, None, exc.strerror or type(exc).__name__) from None


def run_backtest(
    path: Path | None, settings: Settings, out: IO[bytes], err: IO[str], jobs: int = 1
) -> int:
    """Backtest the events of ``path`` (None: stdin), scoring in ``jobs`` processes; 0 when
    it ran, dead letters or not."""
    started = time.perf_counter()
    lines = _read_lines(path)
    with ParallelScorer(settings, jobs) if jobs > 1 else contextlib.nullcontext() as scorer:
        backtest = Backtest(settings, scorer=scorer)
        for alert in backtest.alerts(lines):
            out.write(alert.model_dump_json().encode() + b"\n")
    out.flush()
    elapsed = time.perf_counter() - started
    summary = backtest.summary
    print(f"ragmon backtest: {path or 'stdin'}", file=err)
    for line in summary.lines():
        print(line, file=err)
    rate = summary.events / elapsed if elapsed > 0 else 0.0
    print(f"took {elapsed:.1f} s ({rate:,.0f} events/s)", file=err)
    return 0
