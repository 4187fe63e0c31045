"""The scoring loop's side of windowing: per batch, the partial
aggregates, the change points of the per-event detectors, and the Prometheus counters.

The per-event work is small (a dict of metric values, a dedupe check, list appends, the
change-point detectors); aggregation, histogram binning and counters are done once per
batch with numpy.
"""

from __future__ import annotations

from collections import Counter

from monitor.config import Settings
from monitor.drift.changepoint import ChangePointDetectors
from monitor.drift.config import DriftConfig
from monitor.events.scored_event import ScoredEvent
from monitor.metrics.monitor_metrics import MonitorMetrics
from monitor.windows.bounds import pane_ms
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap, LabelPolicy
from monitor.windows.metric_ids import metric_values
from monitor.windows.partial import Partial, PartialBuilder, SourceRange

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


class WindowFeed:
    """State that outlives batches: label caps, the ids seen lately, the detectors."""

    def __init__(
        self, settings: Settings, metrics: MonitorMetrics | None, seen: SeenEvents | None = None
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.pane_ms = pane_ms(
            settings.tumbling_window_ms, settings.hopping_window_ms, settings.hopping_step_ms
        )
        self.labels = LabelCap(settings.max_label_values, LabelPolicy.from_settings(settings))
        self.detectors = ChangePointDetectors(DriftConfig.from_settings(settings))
        self.seen = SeenEvents() if seen is None else seen
        """The ids seen lately: the aggregating stage's, which holds every worker's."""
        self.dedupe_horizon_ms = settings.dedupe_horizon_ms + self.pane_ms

    def batch(self) -> BatchFeed:
        return BatchFeed(self, PartialBuilder(self.pane_ms, self.labels, self.seen))


class BatchFeed:
    """One batch (every partition in it)."""

    def __init__(self, feed: WindowFeed, builder: PartialBuilder) -> None:
        self.feed = feed
        self.builder = builder
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.crag: Counter[tuple[str, str]] = Counter()
        self.scoring_s: list[float] = []
        self.dead_letters: Counter[str] = Counter()

    def add(self, scored: ScoredEvent) -> None:
        b = self.builder
        series = b.series(scored.variant, scored.tenant, scored.application, scored.experiment)
        values = metric_values(scored)
        if not b.add_event(scored.event_id, scored.timestamp_ms, series, values):
            return
        variant = series[0]
        points = self.feed.detectors.update((variant, None, None), values, scored.timestamp_ms)
        if points:
            b.change_points.extend(p.to_dict() for p in points)
        self.outcomes[(scored.outcome or "unknown", variant)] += 1
        self.crag[(scored.crag.classification, variant)] += 1
        self.scoring_s.append(scored.scoring_us / 1e6)

    def add_dead_letter(self, reason: str, kafka_timestamp_ms: int) -> None:
        self.builder.add_dead_letter(kafka_timestamp_ms)
        self.dead_letters[reason] += 1

    def finish(self, sources: list[SourceRange]) -> Partial:
        """The partial for this batch; counters and histograms are updated now."""
        b = self.builder
        partial = b.build(sources)
        if b.max_timestamp_ms is not None:
            pane = b.max_timestamp_ms - self.feed.dedupe_horizon_ms
            b.seen.forget_before(pane - pane % self.feed.pane_ms)
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
