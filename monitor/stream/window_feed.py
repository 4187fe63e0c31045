"""The scoring loop's side of windowing: per batch, the partial aggregates and the change
points of the per-event detectors (:mod:`monitor.windows.feed`, shared with ``ragmon
backtest``), and the Prometheus counters.

The per-event work is small (a dict of metric values, a dedupe check, list appends, the
change-point detectors); aggregation, histogram binning and counters are done once per
batch with numpy.
"""

from __future__ import annotations

from collections import Counter

from monitor.config import Settings
from monitor.events.scored_event import ScoredEvent
from monitor.metrics.monitor_metrics import MonitorMetrics
from monitor.windows.dedupe import SeenEvents
from monitor.windows.feed import PartialBatch, PartialFeed
from monitor.windows.partial import Partial, PartialBuilder, SeriesLabels, SourceRange

__all__ = ["SCORE_METRICS", "BatchFeed", "WindowFeed"]

SCORE_METRICS = (
    "quality.overall",
    "quality.retrieval_confidence",
    "quality.context_sufficiency",
    "quality.diversity_score",
    "quality.estimated_faithfulness",
    "context_quality.redundancy_ngram",
    "context_quality.redundancy_tfidf",
    "context_quality.unique_token_ratio",
    "grounding.claim_support_rate",
    "grounding.citation_validity_content",
    "safety.injection.score",
)
"""The [0, 1] scores that get a ``rag_monitor_score`` histogram."""


class WindowFeed(PartialFeed):
    """The pure :class:`~monitor.windows.feed.PartialFeed` plus the worker's metrics."""

    def __init__(
        self, settings: Settings, metrics: MonitorMetrics | None, seen: SeenEvents | None = None
    ) -> None:
        super().__init__(settings, seen)  # seen: the aggregating stage's (every worker's)
        self.metrics = metrics

    def batch(self) -> BatchFeed:
        return BatchFeed(self, PartialBuilder(self.pane_ms, self.labels, self.seen))


class BatchFeed(PartialBatch):
    """One batch (every partition in it), counted for Prometheus when it finishes."""

    feed: WindowFeed

    def __init__(self, feed: WindowFeed, builder: PartialBuilder) -> None:
        super().__init__(feed, builder)
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.crag: Counter[tuple[str, str]] = Counter()
        self.scoring_s: list[float] = []

    def add(self, scored: ScoredEvent) -> SeriesLabels | None:
        series = super().add(scored)
        if series is None:
            return None
        variant = series[0]
        self.outcomes[(scored.outcome or "unknown", variant)] += 1
        self.crag[(scored.crag.classification, variant)] += 1
        self.scoring_s.append(scored.scoring_us / 1e6)
        return series

    def finish(self, sources: list[SourceRange]) -> Partial:
        """The partial for this batch; counters and histograms are updated now."""
        partial = super().finish(sources)
        b = self.builder
        m = self.feed.metrics
        if m is None:
            return partial
        by_score: dict[tuple[str, str], list[float]] = {}
        for (_, variant, _t, _a, _e), columns in b.columns.items():
            for metric in SCORE_METRICS:
                values = columns.get(metric)
                if values:
                    by_score.setdefault((metric, variant), []).extend(values)
        for labels, values in by_score.items():
            m.scores.observe_many(labels, values)
        m.scoring_seconds.observe_many((), self.scoring_s)
        for (outcome, variant), n in self.outcomes.items():
            m.outcomes.labels(outcome=outcome, variant=variant).inc(n)
            m.events.labels(variant=variant).inc(n)
        for (classification, variant), n in self.crag.items():
            m.crag.labels(classification=classification, variant=variant).inc(n)
        for reason, n in self.dead_letters.items():
            m.dead_letters.labels(reason=reason).inc(n)
        if b.duplicates:
            m.duplicate_events.inc(b.duplicates)
        return partial
