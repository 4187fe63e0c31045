"""Every metric the worker exposes, by its DESIGN section 9 name, on a registry passed in.

| name | type | labels |
|---|---|---|
| ``rag_monitor_events_total`` | counter | variant |
| ``rag_monitor_outcomes_total`` | counter | outcome, variant |
| ``rag_monitor_crag_total`` | counter | classification, variant |
| ``rag_monitor_dead_letters_total`` | counter | reason |
| ``rag_monitor_score`` | histogram | metric, variant |
| ``rag_monitor_scoring_seconds`` | histogram | |
| ``rag_monitor_window_mean``, ``rag_monitor_window_p95`` | gauge | metric, variant (no ``latency_ms.*``) |
| ``rag_monitor_window_observations`` | gauge | metric, variant (every metric id) |
| ``rag_monitor_window_latency_mean_seconds`` / ``_p95_seconds`` | gauge | stage, variant |
| ``rag_monitor_window_end_timestamp_seconds`` | gauge | |
| ``rag_monitor_baseline`` | gauge | metric, variant (no ``latency_ms.*``) |
| ``rag_monitor_latency_baseline_seconds`` | gauge | stage, variant |
| ``rag_monitor_late_events_total``, ``rag_monitor_duplicate_events_total`` | counter | |
| ``rag_monitor_alerts_total`` | counter | type, severity, status |
| ``rag_monitor_webhook_deliveries_total`` | counter | endpoint |
| ``rag_monitor_webhook_failures_total`` | counter | endpoint, reason |
| ``rag_monitor_consumer_lag`` | gauge | partition |
| ``rag_monitor_ab_difference``, ``rag_monitor_ab_always_valid_p_value`` | gauge | experiment, metric, variant (cumulative; the difference not for ``latency_ms.*``) |
| ``rag_monitor_ab_confidence_sequence_low`` / ``_high`` | gauge | experiment, metric, variant (cumulative; not for ``latency_ms.*``) |
| ``rag_monitor_ab_verdict`` | gauge, 1 for the current verdict, else 0 | experiment, metric, variant, verdict |
| ``rag_monitor_ab_guardrail_worse`` | gauge, 1 when worse beyond the margin | experiment, metric, variant |
| ``rag_monitor_ab_latency_difference_seconds`` | gauge | experiment, stage, variant (cumulative) |
| ``process_*``, ``python_gc_*``, ``python_info`` | | prometheus_client's standard collectors |

Base units (Prometheus' convention): the window metric ids ``latency_ms.<stage>`` are
milliseconds in events, windows and alerts, but Prometheus gets them in seconds, in their
own ``rag_monitor_*latency*_seconds`` gauges (label ``stage``), never inside
``rag_monitor_window_mean``/``_p95``, ``rag_monitor_baseline`` or
``rag_monitor_ab_difference``, whose values are scores and rates (no unit).
``rag_monitor_window_observations`` (how many values the window mean stands on; it was
``rag_monitor_window_count``, a name Prometheus reserves for histograms) covers every
metric id, latencies included. There is no roll-up series over the variants (no
``variant="all"``): aggregate with PromQL (``sum by (metric)`` of mean times observations
over ``sum by (metric)`` of observations), so ``sum()`` never counts an event twice.
The output passes ``promtool check metrics`` (tests/metrics/test_promtool_lint.py).

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

from prometheus_client import (
    GC_COLLECTOR,
    Counter,
    Gauge,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector, CollectorRegistry

from monitor.alerts.delivery_stats import DeliveryStats
from monitor.metrics.bulk_histogram import BulkHistogram
from monitor.windows.labels import LabelCap, LabelPolicy

__all__ = [
    "LATENCY_PREFIX",
    "SCORE_BUCKETS",
    "SCORING_SECONDS_BUCKETS",
    "DeliveryCounts",
    "MonitorMetrics",
    "latency_stage",
]

LATENCY_PREFIX = "latency_ms."
"""Window metric ids in milliseconds: exported in seconds, in the latency gauges."""

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
        self.window_observations = Gauge(
            "window_observations", "Values in the last closed tumbling window.", labels,
            namespace=ns, registry=registry,
        )  # fmt: skip
        latency = ("stage", "variant")
        self.window_latency_mean = Gauge(
            "window_latency_mean_seconds", "Mean latency of the last closed tumbling window.",
            latency, namespace=ns, registry=registry,
        )  # fmt: skip
        self.window_latency_p95 = Gauge(
            "window_latency_p95_seconds", "p95 latency of the last closed tumbling window.",
            latency, namespace=ns, registry=registry,
        )  # fmt: skip
        self.latency_baseline = Gauge(
            "latency_baseline_seconds", "Baseline mean latency per stage and variant.", latency,
            namespace=ns, registry=registry,
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
        self.ab_latency_difference = Gauge(
            "ab_latency_difference_seconds", "Treatment minus control latency, cumulative.",
            ("experiment", "stage", "variant"), namespace=ns, registry=registry,
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
        # the standard process_* (CPU, memory, open files, start time), python_info and
        # python_gc_* series, on this registry rather than the global default one
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        if GC_COLLECTOR is not None:  # None on interpreters without gc statistics
            GCCollector(registry=registry)

    def set_window(
        self,
        metric: str,
        variant: str,
        observations: int,
        mean: float | None,
        p95: float | None,
        baseline: float | None,
    ) -> None:
        """The gauges of one metric id of a closed window (a latency in seconds).

        >>> from prometheus_client import CollectorRegistry
        >>> m = MonitorMetrics(CollectorRegistry())
        >>> m.set_window("latency_ms.total", "control", 40, 250.0, 900.0, None)
        >>> m.registry.get_sample_value(
        ...     "rag_monitor_window_latency_p95_seconds", {"stage": "total", "variant": "control"})
        0.9
        >>> m.registry.get_sample_value(
        ...     "rag_monitor_window_mean", {"metric": "latency_ms.total", "variant": "control"})
        """
        labels = {"metric": metric, "variant": variant}
        self.window_observations.labels(**labels).set(observations)
        stage = latency_stage(metric)
        if stage is not None:
            staged = {"stage": stage, "variant": variant}
            gauges = (self.window_latency_mean, self.window_latency_p95, self.latency_baseline)
            values = [None if v is None else v / 1000.0 for v in (mean, p95, baseline)]
            for gauge, value in zip(gauges, values, strict=True):
                if value is not None:
                    gauge.labels(**staged).set(value)
            return
        for gauge, value in ((self.window_mean, mean), (self.window_p95, p95)):
            if value is not None:
                gauge.labels(**labels).set(value)
        if baseline is not None:
            self.baseline.labels(**labels).set(baseline)

    def set_ab(
        self,
        experiment: str,
        metric: str,
        variant: str,
        difference: float | None,
        always_valid_p: float | None,
    ) -> None:
        """The cumulative A/B gauges of one comparison (a latency difference in seconds)."""
        labels = {"experiment": experiment, "metric": metric, "variant": variant}
        if always_valid_p is not None:
            self.ab_always_valid_p.labels(**labels).set(always_valid_p)
        if difference is None:
            return
        stage = latency_stage(metric)
        if stage is None:
            self.ab_difference.labels(**labels).set(difference)
        else:
            self.ab_latency_difference.labels(
                experiment=experiment, stage=stage, variant=variant
            ).set(difference / 1000.0)

    def cap(self, label: str, value: str | None) -> str:
        """The capped value of ``label`` (``none`` when missing)."""
        return self._cap.value(label, value)


def latency_stage(metric: str) -> str | None:
    """The stage of a ``latency_ms.<stage>`` metric id; ``None`` for any other id.

    >>> latency_stage("latency_ms.retrieve"), latency_stage("quality.overall")
    ('retrieve', None)
    """
    return metric[len(LATENCY_PREFIX) :] if metric.startswith(LATENCY_PREFIX) else None
