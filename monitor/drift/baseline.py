"""Baselines: a configured value per metric, or one learned from recent closed windows.

The learned baseline of a series and metric is the count-weighted mean of the closed
windows whose end lies in ``(now - horizon, now]``. It is trusted only when those windows
hold at least ``min_events`` events and there are at least ``min_windows`` of them; until
then :meth:`BaselineBook.baseline` returns ``None`` and the rules that need a baseline are
not evaluated. A configured baseline (``DriftConfig.baselines``) always wins.

The worker calls :meth:`BaselineBook.observe` for every closed tumbling window *after* the
rules have been evaluated on it, so a window is never compared with itself. Observing the
same window end twice (a replay) replaces the earlier entry. Windows older than the horizon
before the newest observed window are dropped, so memory per series and metric is bounded
by ``horizon / window length`` entries.

>>> config = DriftConfig(min_events=100, min_windows=2, horizon_ms=600_000)
>>> book = BaselineBook(config)
>>> key = (None, None, None)
>>> book.observe(key, "quality.overall", window_end_ms=60_000, count=60, mean=0.8)
>>> book.baseline(key, "quality.overall", now_ms=120_000) is None  # 60 events, 1 window
True
>>> book.observe(key, "quality.overall", window_end_ms=120_000, count=40, mean=0.7)
>>> book.baseline(key, "quality.overall", now_ms=180_000)
Baseline(value=0.76, events=100, windows=2, source='learned')
>>> book.baseline(key, "quality.overall", now_ms=700_000) is None  # first window expired
True
>>> BaselineBook(DriftConfig(baselines={"quality.overall": 0.9})).baseline(key,
...     "quality.overall", now_ms=0)
Baseline(value=0.9, events=0, windows=0, source='configured')
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Literal

from monitor.drift.config import DriftConfig
from monitor.drift.stats import SeriesKey

__all__ = ["Baseline", "BaselineBook", "BaselineSource"]

BaselineSource = Literal["configured", "learned"]


@dataclass(frozen=True)
class Baseline:
    """A trusted baseline. ``events`` and ``windows`` count the learned horizon (also shown
    for a configured baseline, for information)."""

    value: float
    events: int
    windows: int
    source: BaselineSource


class _History:
    """Closed windows of one series and metric, sorted by window end, with running sums."""

    __slots__ = ("counts", "ends", "events", "means", "weighted")

    def __init__(self) -> None:
        self.ends: list[int] = []
        self.counts: list[int] = []
        self.means: list[float] = []
        self.events = 0
        self.weighted = 0.0

    def put(self, end: int, count: int, mean: float) -> None:
        i = bisect.bisect_left(self.ends, end)
        if i < len(self.ends) and self.ends[i] == end:
            self._remove(i)
        self.ends.insert(i, end)
        self.counts.insert(i, count)
        self.means.insert(i, mean)
        self.events += count
        self.weighted += count * mean

    def prune(self, oldest_kept_end: int) -> None:
        """Drop every window that ends before ``oldest_kept_end``."""
        cut = bisect.bisect_left(self.ends, oldest_kept_end)
        if cut == 0:
            return
        del self.ends[:cut], self.counts[:cut], self.means[:cut]
        # Recompute rather than subtract, so rounding errors never accumulate.
        self.events = sum(self.counts)
        self.weighted = sum(c * m for c, m in zip(self.counts, self.means, strict=True))

    def _remove(self, i: int) -> None:
        del self.ends[i], self.counts[i], self.means[i]
        self.events = sum(self.counts)
        self.weighted = sum(c * m for c, m in zip(self.counts, self.means, strict=True))

    def between(self, low_exclusive: int, high_inclusive: int) -> tuple[int, float, int]:
        """``(events, count-weighted sum, windows)`` of the windows ending in the range."""
        ends = self.ends
        if not ends:
            return 0, 0.0, 0
        if ends[0] > low_exclusive and ends[-1] <= high_inclusive:
            return self.events, self.weighted, len(ends)
        lo = bisect.bisect_right(ends, low_exclusive)
        hi = bisect.bisect_right(ends, high_inclusive)
        counts, means = self.counts[lo:hi], self.means[lo:hi]
        weighted = sum(c * m for c, m in zip(counts, means, strict=True))
        return sum(counts), weighted, hi - lo


class BaselineBook:
    """Configured and learned baselines per series key and metric id."""

    def __init__(self, config: DriftConfig) -> None:
        self._config = config
        self._history: dict[tuple[SeriesKey, str], _History] = {}

    def observe(
        self, key: SeriesKey, metric: str, window_end_ms: int, count: int, mean: float
    ) -> None:
        """Record one closed window's count and mean (ignored when empty)."""
        if count <= 0 or mean != mean:  # empty window or NaN mean
            return
        history = self._history.get((key, metric))
        if history is None:
            history = self._history[(key, metric)] = _History()
        history.put(window_end_ms, count, mean)
        history.prune(history.ends[-1] - self._config.horizon_ms + 1)

    def baseline(self, key: SeriesKey, metric: str, now_ms: int) -> Baseline | None:
        """The baseline to compare a window ending at ``now_ms`` with, or ``None`` if there
        is no configured value and the learned one is not trusted yet."""
        config = self._config
        history = self._history.get((key, metric))
        if history is None:
            events, weighted, windows = 0, 0.0, 0
        else:
            events, weighted, windows = history.between(now_ms - config.horizon_ms, now_ms)
        configured = config.baselines.get(metric)
        if configured is not None:
            return Baseline(configured, events, windows, "configured")
        if events < config.min_events or windows < config.min_windows or events == 0:
            return None
        return Baseline(weighted / events, events, windows, "learned")

    def series_count(self) -> int:
        """How many (series, metric) histories are held."""
        return len(self._history)

    def forget(self, key: SeriesKey) -> None:
        """Drop every history of ``key`` (for a series evicted by the label cap)."""
        for pair in [pair for pair in self._history if pair[0] == key]:
            del self._history[pair]
