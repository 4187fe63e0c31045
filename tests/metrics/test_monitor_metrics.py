"""The worker's registry exposes exactly the names that deploy/ (rules, dashboard) use,
with their types, and caps label values."""

from __future__ import annotations

import sys
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from monitor.alerts.delivery_stats import DeliveryStats
from monitor.alerts.sender import SendResult
from monitor.metrics.monitor_metrics import MonitorMetrics

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
from test_configs import RAGMON_METRICS


def _families(registry: CollectorRegistry) -> dict[str, str]:
    text = generate_latest(registry).decode()
    out = {}
    for family in text_string_to_metric_families(text):
        if family.name.endswith("_created"):  # client_python's creation times
            continue
        name = family.name + ("_total" if family.type == "counter" else "")
        out[name] = family.type
    return out


def test_the_registry_matches_what_deploy_expects() -> None:
    registry = CollectorRegistry()
    m = MonitorMetrics(registry)
    stats = DeliveryStats()
    stats.record("oncall", SendResult("delivered", "ok", status=200))
    m.deliveries.source = stats
    assert _families(registry) == RAGMON_METRICS


def test_label_values_are_capped() -> None:
    registry = CollectorRegistry()
    m = MonitorMetrics(registry, max_label_values=2)
    for variant in ("a", "b", "c", "d"):
        m.events.labels(variant=m.cap("variant", variant)).inc()
    samples = [
        s.labels["variant"]
        for f in text_string_to_metric_families(generate_latest(registry).decode())
        if f.name == "rag_monitor_events"
        for s in f.samples
        if s.name == "rag_monitor_events_total"
    ]
    assert sorted(samples) == ["a", "b", "other"]
