"""Scored events to partials, the same way in the worker and in ``ragmon backtest``.

:class:`PartialFeed` holds what outlives a batch (the label caps, the event ids seen lately,
the per-event change-point detectors); :meth:`PartialFeed.batch` starts one
:class:`PartialBatch`, which takes the batch's scored events and dead letters and builds
its :class:`~monitor.windows.partial.Partial`. Pure: the worker's
:class:`~monitor.stream.window_feed.WindowFeed` adds its Prometheus counters on top.

>>> from monitor.config import Settings
>>> from monitor.pipeline import process
>>> feed = PartialFeed(Settings(changepoint_metrics=[]))
>>> batch = feed.batch()
>>> scored = process(b'{"schema_version": "1", "event_id": "e1", "timestamp_ms": 61000,'
...                  b' "query": {"text": "refund policy"}}')
>>> batch.add(scored), batch.add(scored)
(('none', 'none', 'none', 'none'), None)
>>> batch.add_dead_letter("invalid_json", 62_000)
>>> p = batch.finish([SourceRange("rag.events.v1", 0, 0, 2, 62_000)])
>>> p.duplicates, p.max_timestamp_ms, sorted(k[0] for k in p.panes)
(1, 61000, [60000, 60000])
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from monitor.drift.changepoint import ChangePointDetectors
from monitor.drift.config import DriftConfig
from monitor.events.scored_event import ScoredEvent
from monitor.windows.bounds import pane_ms
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap, LabelPolicy
from monitor.windows.metric_ids import metric_values
from monitor.windows.partial import Partial, PartialBuilder, SeriesLabels, SourceRange

if TYPE_CHECKING:  # pydantic-settings imports asyncio: a pure module only names the type
    from monitor.config import Settings

__all__ = ["PartialBatch", "PartialFeed", "SourceRange"]


class PartialFeed:
    """State that outlives batches: label caps, the ids seen lately, the detectors.

    ``seen`` is shared with the aggregating stage in the worker (it holds every worker's
    event ids); by default the feed keeps its own.
    """

    def __init__(self, settings: Settings, seen: SeenEvents | None = None) -> None:
        self.settings = settings
        self.pane_ms = pane_ms(
            settings.tumbling_window_ms, settings.hopping_window_ms, settings.hopping_step_ms
        )
        self.labels = LabelCap(settings.max_label_values, LabelPolicy.from_settings(settings))
        self.detectors = ChangePointDetectors(DriftConfig.from_settings(settings))
        self.seen = SeenEvents() if seen is None else seen
        self.dedupe_horizon_ms = settings.dedupe_horizon_ms + self.pane_ms

    def batch(self) -> PartialBatch:
        return PartialBatch(self, PartialBuilder(self.pane_ms, self.labels, self.seen))


class PartialBatch:
    """One batch (every source partition in it)."""

    def __init__(self, feed: PartialFeed, builder: PartialBuilder) -> None:
        self.feed = feed
        self.builder = builder
        self.dead_letters: Counter[str] = Counter()
        """Dead letters of this batch by reason."""

    def add(self, scored: ScoredEvent) -> SeriesLabels | None:
        """Add one scored event and return its capped labels (variant, tenant,
        application, experiment); None (nothing added) when its id was counted lately."""
        b = self.builder
        series = b.series(scored.variant, scored.tenant, scored.application, scored.experiment)
        values = metric_values(scored)
        if not b.add_event(scored.event_id, scored.timestamp_ms, series, values):
            return None
        points = self.feed.detectors.update((series[0], None, None), values, scored.timestamp_ms)
        if points:
            b.change_points.extend(p.to_dict() for p in points)
        return series

    def add_dead_letter(self, reason: str, kafka_timestamp_ms: int) -> None:
        """A message that could not be decoded (``reason``), at its Kafka timestamp."""
        self.builder.add_dead_letter(kafka_timestamp_ms)
        self.dead_letters[reason] += 1

    def finish(self, sources: list[SourceRange]) -> Partial:
        """The partial for this batch; event ids older than the dedupe horizon are dropped."""
        b = self.builder
        partial = b.build(sources)
        if b.max_timestamp_ms is not None:
            pane = b.max_timestamp_ms - self.feed.dedupe_horizon_ms
            b.seen.forget_before(pane - pane % self.feed.pane_ms)
        return partial
