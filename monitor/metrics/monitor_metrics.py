"""Every metric the worker exposes, by its DESIGN section 9 name, on a registry passed in.

| name | type | labels |
|---|---|---|
| ``rag_monitor_events_total`` | counter | variant |
| ``rag_monitor_outcomes_total`` | counter | outcome, variant |
| ``rag_monitor_crag_total`` | counter | classification, variant |
| ``rag_monitor_dead_letters_total`` | counter | reason |
| ``rag_monitor_score`` | histogram | metric, variant |
| ``rag_monitor_scoring_seconds`` | histogram | |
| ``rag_monitor_window_mean`` / ``_p95`` / ``_count`` | gauge | metric, variant (``all``: every variant) |
| ``rag_monitor_window_end_timestamp_seconds`` | gauge | |
| ``rag_monitor_baseline`` | gauge | metric, variant |
| ``rag_monitor_late_events_total``, ``rag_monitor_duplicate_events_total`` | counter | |
| ``rag_monitor_alerts_total`` | counter | type, severity, status |
| ``rag_monitor_webhook_deliveries_total`` | counter | endpoint |
| ``rag_monitor_webhook_failures_total`` | counter | endpoint, reason |
| ``rag_monitor_consumer_lag`` | gauge | partition |
| ``rag_monitor_ab_difference``, ``rag_monitor_ab_always_valid_p_value`` | gauge | experiment, metric, variant (cumulative) |
| ``rag_monitor_ab_confidence_sequence_low`` / ``_high`` | gauge | experiment, metric, variant (cumulative) |
| ``rag_monitor_ab_verdict`` | gauge, 1 for the current verdict, else 0 | experiment, metric, variant, verdict |
| ``rag_monitor_ab_guardrail_worse`` | gauge, 1 when worse beyond the margin | experiment, metric, variant |

Label values pass through a per-label cap (overflow becomes ``other``); metric ids,
outcomes and reasons are closed sets, variants come from the event and are capped. The
values reaching :meth:`MonitorMetrics.cap` already left the worker's
:class:`~monitor.windows.labels.LabelPolicy` (a closed window's labels); they are checked
again (too long or unsafe: ``invalid``; raw while hashing is on: hashed), never hashed twice.

>>> from prometheus_client import CollectorRegistry, generate_latest
>>> registry = CollectorRegistry()
>>> m = MonitorMetrics(registry, max_label_values=1)
>>> m.events.labels(variant=m.cap("variant", "control")).inc()
>>> m.events.labels(variant=m.cap("variant", "treatment")).inc()
>>> [l for l in generate_latest(registry).decode().splitlines() if l.startswith("rag_monitor_events_total")]
['rag_monitor_events_total{variant="control"} 1.0', 'rag_monitor_events_total{variant="other"} 1.0']
>>> m.cap("variant", "x" * 250_000)
'invalid'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import Counter, Gauge
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector, CollectorRegistry

from monitor.alerts.delivery_stats import DeliveryStats
from monitor.metrics.bulk_histogram import BulkHistogram
from monitor.windows.labels import LabelCap, LabelPolicy

__all__ = ["SCORE_BUCKETS", "SCORING_SECONDS_BUCKETS", "DeliveryCounts", "MonitorMetrics"]

SCORE_BUCKETS = tuple(round(0.05 * i, 2) for i in range(1, 21))
SCORING_SECONDS_BUCKETS = (5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 5e-2, 0.1)


class DeliveryCounts(Collector):
    """Webhook delivery counters, read at scrape time from the delivery consumers' stats:
    failures are retried attempts plus alerts an endpoint refused for good (4xx)."""

    def __init__(self, source: DeliveryStats | None = None) -> None:
        self.source = source

    def collect(self) -> Iterator[CounterMetricFamily]:
        delivered = CounterMetricFamily(
            "rag_monitor_webhook_deliveries",
            "Alerts delivered (2xx) per endpoint.",
            labels=("endpoint",),
        )
        failed = CounterMetricFamily(
            "rag_monitor_webhook_failures",
            "Failed delivery attempts per endpoint and reason.",
            labels=("endpoint", "reason"),
        )
        stats = self.source
        if stats is not None:
            for endpoint in stats.endpoints():
                delivered.add_metric([endpoint], float(stats.delivered[endpoint]))
            failures = stats.failed + stats.rejected_by_reason
            for (endpoint, reason), n in sorted(failures.items()):
                failed.add_metric([endpoint, reason], float(n))
        yield delivered
        yield failed


class MonitorMetrics:
    def __init__(
        self,
        registry: CollectorRegistry,
        max_label_values: int = 20,
        label_policy: LabelPolicy | None = None,
    ) -> None:
        self.registry = registry
        self._cap = LabelCap(max_label_values, label_policy, inputs="exported")
        ns = "rag_monitor"
        self.events = Counter(
            "events", "Events scored.", ("variant",), namespace=ns, registry=registry
        )
        self.outcomes = Counter(
            "outcomes", "Scored events by outcome.", ("outcome", "variant"), namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.crag = Counter(
            "crag", "CRAG classifications.", ("classification", "variant"), namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.dead_letters = Counter(
            "dead_letters", "Dead letters by reason.", ("reason",), namespace=ns, registry=registry
        )
        self.late_events = Counter(
            "late_events", "Events that arrived after their window closed.", namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.duplicate_events = Counter(
            "duplicate_events", "Redelivered events counted once.", namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.alerts = Counter(
            "alerts", "Alerts emitted.", ("type", "severity", "status"), namespace=ns,
            registry=registry,
        )  # fmt: skip
        labels = ("metric", "variant")
        self.window_mean = Gauge(
            "window_mean", "Mean of the last closed tumbling window.", labels, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.window_p95 = Gauge(
            "window_p95", "p95 of the last closed tumbling window.", labels, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.window_count = Gauge(
            "window_count", "Values in the last closed tumbling window.", labels, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.window_end = Gauge(
            "window_end_timestamp_seconds", "End of the last closed tumbling window.",
            namespace=ns, registry=registry,
        )  # fmt: skip
        self.baseline = Gauge(
            "baseline", "Baseline per metric and variant.", labels, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.consumer_lag = Gauge(
            "consumer_lag", "Events not yet consumed, per partition.", ("partition",),
            namespace=ns, registry=registry,
        )  # fmt: skip
        ab = ("experiment", "metric", "variant")
        self.ab_difference = Gauge(
            "ab_difference", "Treatment minus control, cumulative.", ab, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.ab_always_valid_p = Gauge(
            "ab_always_valid_p_value", "Always-valid (mSPRT) p-value, cumulative.", ab,
            namespace=ns, registry=registry,
        )  # fmt: skip
        self.ab_cs_low = Gauge(
            "ab_confidence_sequence_low", "Lower end of the always-valid 95% confidence "
            "sequence of treatment minus control, cumulative.", ab, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.ab_cs_high = Gauge(
            "ab_confidence_sequence_high", "Upper end of the always-valid 95% confidence "
            "sequence of treatment minus control, cumulative.", ab, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.ab_verdict = Gauge(
            "ab_verdict", "1 for the comparison's current verdict, 0 for the others.",
            (*ab, "verdict"), namespace=ns, registry=registry,
        )  # fmt: skip
        self.ab_guardrail_worse = Gauge(
            "ab_guardrail_worse", "1 when the treatment is worse than the control beyond the "
            "guardrail margin (one-sided always-valid test), else 0.", ab, namespace=ns,
            registry=registry,
        )  # fmt: skip
        self.scores = BulkHistogram(
            f"{ns}_score", "Scores per metric id and variant.", labels, SCORE_BUCKETS, registry
        )
        self.scoring_seconds = BulkHistogram(
            f"{ns}_scoring_seconds", "Time to score one event.", (), SCORING_SECONDS_BUCKETS,
            registry,
        )  # fmt: skip
        self.deliveries = DeliveryCounts()
        registry.register(self.deliveries)

    def cap(self, label: str, value: str | None) -> str:
        """The capped value of ``label`` (``none`` when missing)."""
        return self._cap.value(label, value)
