"""The aggregating stage's state: partials merged into panes, windows closed by watermark.

Every configured window (tumbling, hopping) is a union of panes of ``pane_ms`` (the gcd of
the lengths), so one pane aggregate serves all of them. :meth:`WindowStore.merge` adds a
:class:`~monitor.windows.partial.Partial` unless its source ranges were merged already
(idempotent: a partial written twice, or re-read on restart, counts once). The watermark
is the event time of the slowest active source partition (see
:meth:`WindowStore._progress`), or a watermark message; a window ``[start, end)`` closes
when ``end + lateness <= watermark``. A pane that arrives for windows already closed is
counted as late for that window kind and not merged into it.

:meth:`WindowStore.close` returns the windows that closed, each with roll-ups: the whole
traffic ``(None, None, None)`` (dead letters included), and one per variant, per tenant
and per application (dead letters, labelled ``unknown``, excluded), plus the arms of
every experiment.

>>> from monitor.windows.aggregate import Aggregate
>>> from monitor.windows.partial import Partial, SourceRange
>>> store = WindowStore([WindowKind("tumbling", 10, 10)], lateness_ms=0)
>>> agg = Aggregate.of([0.5, 0.7])
>>> p = Partial((SourceRange("t", 0, 0, 1),), {(0, "a", "x", "y", "none"): {"q": agg}}, 9)
>>> store.merge(p), store.merge(p)
(True, False)
>>> store.close()
[]
>>> store.advance(10)
>>> [(w.start_ms, w.end_ms, w.series[(None, None, None)]["q"].count) for w in store.close()]
[(0, 10, 2)]
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from monitor.windows.aggregate import Aggregate
from monitor.windows.bounds import pane_ms as gcd_pane
from monitor.windows.bounds import window_start
from monitor.windows.labels import NONE, UNKNOWN
from monitor.windows.metric_ids import DEAD_LETTER
from monitor.windows.partial import PaneKey, Partial

__all__ = ["ClosedWindow", "RollupKey", "WindowKind", "WindowStore", "merge_metrics"]

RollupKey = tuple[str | None, str | None, str | None]
"""(variant, tenant, application); None means every value of that label."""


@dataclass(frozen=True, slots=True)
class WindowKind:
    """A named window family; tumbling when ``step_ms == size_ms``."""

    name: str
    size_ms: int
    step_ms: int

    def last_end(self, pane_start_ms: int) -> int:
        """The end of the last window that contains the pane starting at ``pane_start_ms``."""
        return window_start(pane_start_ms, self.step_ms) + self.size_ms


@dataclass(slots=True)
class ClosedWindow:
    kind: str
    start_ms: int
    end_ms: int
    series: dict[RollupKey, dict[str, Aggregate]]
    change_points: list[dict[str, Any]] = field(default_factory=list)
    experiments: dict[str, dict[str, dict[str, Aggregate]]] = field(default_factory=dict)
    """experiment -> variant (in first-seen order) -> metric id -> aggregate."""

    @property
    def events(self) -> int:
        """Scored events plus dead letters in the window."""
        total = self.series.get((None, None, None), {}).get(DEAD_LETTER)
        return 0 if total is None else total.count


@dataclass(slots=True)
class _KindState:
    kind: WindowKind
    panes: dict[PaneKey, dict[str, Aggregate]] = field(default_factory=dict)
    change_points: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    closed_upto_ms: int | None = None  # every window ending at or before this is closed
    late_events: int = 0

    def is_closed(self, pane_start_ms: int) -> bool:
        upto = self.closed_upto_ms
        return upto is not None and self.kind.last_end(pane_start_ms) <= upto


def merge_metrics(
    target: dict[str, Aggregate],
    source: Mapping[str, Aggregate],
    only: Container[str] | None = None,
) -> None:
    """Merge every aggregate of ``source`` (those in ``only``, if given) into ``target``,
    copying the ones ``target`` does not have yet (``source`` is never modified)."""
    for metric, agg in source.items():
        if only is not None and metric not in only:
            continue
        mine = target.get(metric)
        if mine is None:
            target[metric] = agg.copy()
        else:
            mine.merge_in(agg)


class WindowStore:
    def __init__(
        self, kinds: Sequence[WindowKind], lateness_ms: int, idle_partition_ms: int = 60_000
    ) -> None:
        if not kinds:
            raise ValueError("at least one window kind")
        self.kinds = {k.name: _KindState(k) for k in kinds}
        self.lateness_ms = lateness_ms
        self.pane_ms = gcd_pane(*(n for k in kinds for n in (k.size_ms, k.step_ms)))
        self.watermark_ms: int | None = None
        self.idle_partition_ms = idle_partition_ms
        self.partition_time: dict[tuple[str, int], int] = {}
        self.backlogged: set[tuple[str, int]] = set()
        self.expected: set[tuple[str, int]] = set()
        self.first_time_ms: int | None = None
        self.merged_upto: dict[tuple[str, int], int] = {}
        self.duplicates = 0
        self.overlaps = 0

    # -- input ---------------------------------------------------------------------------
    def merge(self, partial: Partial) -> bool:
        """Merge ``partial`` unless its source ranges are already merged; True if merged.

        A partial whose ranges are only partly merged cannot happen when workers resume
        after their last partial (as they do); should it happen anyway, it is merged and
        counted in ``overlaps``.
        """
        fresh = 0
        for src in partial.sources:
            done = self.merged_upto.get((src.topic, src.partition))
            if done is None or src.last_offset > done:
                fresh += 1
        if partial.sources and not fresh:
            return False
        if fresh < len(partial.sources):
            self.overlaps += 1
        for src in partial.sources:
            where = (src.topic, src.partition)
            self.merged_upto[where] = max(src.last_offset, self.merged_upto.get(where, -1))
        self.duplicates += partial.duplicates
        for state in self.kinds.values():
            for key, metrics in partial.panes.items():
                if state.is_closed(key[0]):
                    dead = metrics.get(DEAD_LETTER)
                    state.late_events += 0 if dead is None else dead.count
                    continue
                merge_metrics(state.panes.setdefault(key, {}), metrics)
            for point in partial.change_points:
                start = window_start(int(point["timestamp_ms"]), self.pane_ms)
                if not state.is_closed(start):
                    state.change_points.setdefault(start, []).append(point)
        self._progress(partial)
        return True

    def _progress(self, partial: Partial) -> None:
        """The watermark follows the slowest active source partition: a partition that
        lags (a backlog consumed unevenly) holds windows open instead of making its events
        late; one whose event time is more than ``idle_partition_ms`` behind the newest
        no longer holds them, unless its last partial reported a backlog (records not yet
        scored: a slow or stopped worker, not an idle partition)."""
        times = self.partition_time
        for src in partial.sources:
            where = (src.topic, src.partition)
            if src.backlog:
                self.backlogged.add(where)
            else:
                self.backlogged.discard(where)
            if src.max_timestamp_ms is not None:
                times[where] = max(src.max_timestamp_ms, times.get(where, src.max_timestamp_ms))
        if not times:
            if partial.max_timestamp_ms is not None:
                self.advance(partial.max_timestamp_ms)
            return
        if self.first_time_ms is None and partial.panes:
            self.first_time_ms = min(key[0] for key in partial.panes)  # its first pane
        # an expected partition not heard of yet counts as being at the first event time
        floor = [self.first_time_ms or 0] if self.expected - times.keys() else []
        newest = max(times.values())
        active = [t for t in [*times.values(), *floor] if t >= newest - self.idle_partition_ms]
        active += [times[where] for where in self.backlogged if where in times]
        self.advance(min(active))

    def expect(self, partitions: Iterable[tuple[str, int]]) -> None:
        """The source partitions that exist: until one has reported (or is idle, more than
        ``idle_partition_ms`` behind), it holds the watermark at the first event time."""
        self.expected = set(partitions)

    def advance(self, watermark_ms: int) -> None:
        """Move the watermark forward (never back)."""
        if self.watermark_ms is None or watermark_ms > self.watermark_ms:
            self.watermark_ms = watermark_ms

    @property
    def late_events(self) -> dict[str, int]:
        return {name: state.late_events for name, state in self.kinds.items()}

    # -- output --------------------------------------------------------------------------
    def close(self) -> list[ClosedWindow]:
        """Every window with data whose ``end + lateness <= watermark``, oldest first."""
        if self.watermark_ms is None:
            return []
        closed: list[ClosedWindow] = []
        limit = self.watermark_ms - self.lateness_ms
        for name, state in self.kinds.items():
            kind = state.kind
            starts: set[int] = set()
            for pane_start, *_ in state.panes:
                first = window_start(pane_start - kind.size_ms + kind.step_ms, kind.step_ms)
                starts.update(range(first, pane_start + 1, kind.step_ms))
            after = state.closed_upto_ms
            ends = sorted(
                s + kind.size_ms
                for s in starts
                if s + kind.size_ms <= limit and (after is None or s + kind.size_ms > after)
            )
            if not ends:
                continue
            for end in ends:
                closed.append(self._window(name, state, end - kind.size_ms, end))
            state.closed_upto_ms = max(ends[-1], state.closed_upto_ms or ends[-1])
            for key in [k for k in state.panes if state.is_closed(k[0])]:
                del state.panes[key]
            for start in [s for s in state.change_points if state.is_closed(s)]:
                del state.change_points[start]
        closed.sort(key=lambda w: (w.end_ms, w.kind))
        return closed

    def _window(self, name: str, state: _KindState, start: int, end: int) -> ClosedWindow:
        series: dict[RollupKey, dict[str, Aggregate]] = {}
        points: list[dict[str, Any]] = []
        experiments: dict[str, dict[str, dict[str, Aggregate]]] = {}
        for (pane, variant, tenant, app, experiment), metrics in state.panes.items():
            if not start <= pane < end:
                continue
            if experiment not in (NONE, UNKNOWN):
                merge_metrics(
                    experiments.setdefault(experiment, {}).setdefault(variant, {}), metrics
                )
            keys: Iterable[RollupKey]
            if variant == UNKNOWN:
                keys = ((None, None, None),)
            else:
                keys = ((None, None, None), (variant, None, None), (None, tenant, None))
                keys = (*keys, (None, None, app))
            for rollup in keys:
                merge_metrics(series.setdefault(rollup, {}), metrics)
        for pane, found in state.change_points.items():
            if start <= pane < end:
                points.extend(found)
        return ClosedWindow(name, start, end, series, points, experiments)
