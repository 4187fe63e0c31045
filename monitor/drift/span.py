"""Low-traffic series watched over longer spans: the trailing windows a rule is evaluated on.

A rule needs a minimum number of events (:meth:`DriftConfig.min_count`). A series whose
closed tumbling window holds fewer is not ignored: :meth:`SpanBook.observe` merges the
window with the series' previous windows, newest first, until the merged aggregate holds
the minimum (the shortest such run), looking back at most ``max_span_windows`` tumbling
windows in event time (windows in which the series had no events count as windows too).
A window that holds the minimum by itself is its own span, so a busy series is evaluated
window by window exactly as before. When even the longest span holds too few events, the
span returned holds them all and the rules skip it (too few events to say anything).

Spans overlap (each closed window starts a new one), so a low-traffic series is evaluated at
every window it appears in, and an incident enters the span as soon as it starts. Only the
metrics the rules read (:meth:`DriftConfig.span_metrics`) are kept; memory per series and
metric is bounded by ``max_span_windows`` aggregates. Pure and deterministic: a replay of
the same windows gives the same spans; a window that is not after the newest one held
replaces the windows it does not precede (a replay into a live book).

>>> from monitor.windows.aggregate import Aggregate
>>> book = SpanBook(DriftConfig(min_window_events=5, max_span_windows=3))
>>> key, q = (None, None, None), "quality.overall"
>>> [book.observe(key, (0, 60_000), {q: Aggregate.of([0.8, 0.8])})[q].windows]
[1]
>>> span = book.observe(key, (60_000, 120_000), {q: Aggregate.of([0.5, 0.5, 0.5])})[q]
>>> span.stats.count, span.start_ms, span.windows, round(span.stats.mean, 2)
(5, 0, 2, 0.62)
>>> span = book.observe(key, (240_000, 300_000), {q: Aggregate.of([0.1])})[q]
>>> span.stats.count, span.start_ms  # the windows ending by 120 s are out of the span
(1, 240000)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from monitor.drift.config import DriftConfig
from monitor.drift.stats import SeriesKey
from monitor.windows.aggregate import Aggregate

__all__ = ["Span", "SpanBook"]


@dataclass(frozen=True)
class Span:
    """The merged aggregate of one metric over ``[start_ms, end of the newest window)``,
    made of ``windows`` windows in which the series had events."""

    stats: Aggregate
    start_ms: int
    windows: int


class SpanBook:
    """The trailing windows of every series and rule metric, for spans across windows."""

    def __init__(self, config: DriftConfig) -> None:
        self._max_span_windows = config.max_span_windows
        self._min_count = {metric: config.min_count(metric) for metric in config.span_metrics()}
        self._history: dict[tuple[SeriesKey, str], deque[tuple[int, int, Aggregate]]] = {}

    def observe(
        self, key: SeriesKey, window: tuple[int, int], stats: Mapping[str, Aggregate]
    ) -> dict[str, Span]:
        """Record the closed window ``[start, end)`` of ``key``; the span of every rule
        metric with events in it (metrics without events in this window: none)."""
        start_ms, end_ms = window
        oldest_end = end_ms - self._max_span_windows * (end_ms - start_ms)
        out: dict[str, Span] = {}
        for metric, need in self._min_count.items():
            agg = stats.get(metric)
            if agg is None or agg.count == 0:
                continue
            if agg.count >= need:  # the window alone is enough
                self._history[(key, metric)] = deque([(start_ms, end_ms, agg)])
                out[metric] = Span(agg, start_ms, 1)
                continue
            history = self._history.setdefault((key, metric), deque())
            while history and history[-1][1] >= end_ms:  # replayed or out of order
                history.pop()
            while history and history[0][1] <= oldest_end:
                history.popleft()
            history.append((start_ms, end_ms, agg))
            merged, first, windows = agg.copy(), start_ms, 1
            for earlier_start, _, earlier in reversed(list(history)[:-1]):
                if merged.count >= need:
                    break
                merged.merge_in(earlier)
                first, windows = earlier_start, windows + 1
            out[metric] = Span(merged, first, windows)
        return out

    def expire(self, window: tuple[int, int]) -> None:
        """Forget the series whose newest window is out of any span ending at ``window``'s
        end (called once per closed tumbling window, so quiet series do not pile up)."""
        start_ms, end_ms = window
        oldest_end = end_ms - self._max_span_windows * (end_ms - start_ms)
        stale = [pair for pair, history in self._history.items() if history[-1][1] <= oldest_end]
        for pair in stale:
            del self._history[pair]

    def series_count(self) -> int:
        """How many (series, metric) histories are held."""
        return len(self._history)
