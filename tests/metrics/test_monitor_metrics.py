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

STANDARD_PREFIXES = ("process_", "python_")
"""prometheus_client's process, platform and gc collectors."""


def _families(registry: CollectorRegistry) -> dict[str, str]:
    text = generate_latest(registry).decode()
    out = {}
    for family in text_string_to_metric_families(text):
        if family.name.endswith("_created"):  # client_python's creation times
            continue
        if family.name.startswith(STANDARD_PREFIXES):
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


def test_the_standard_process_collector_is_on_the_passed_registry() -> None:
    registry = CollectorRegistry()
    MonitorMetrics(registry)
    names = {f.name for f in text_string_to_metric_families(generate_latest(registry).decode())}
    assert {"process_cpu_seconds", "process_resident_memory_bytes", "python_info"} <= names
    assert "python_gc_collections" in names


def test_latencies_go_to_their_own_gauges_in_seconds() -> None:
    registry = CollectorRegistry()
    m = MonitorMetrics(registry)
    m.set_window("latency_ms.retrieve", "control", 30, 120.0, 480.0, 100.0)
    m.set_window("quality.overall", "control", 30, 0.7, 0.9, 0.75)
    value = registry.get_sample_value
    staged = {"stage": "retrieve", "variant": "control"}
    assert value("rag_monitor_window_latency_mean_seconds", staged) == 0.12
    assert value("rag_monitor_window_latency_p95_seconds", staged) == 0.48
    assert value("rag_monitor_latency_baseline_seconds", staged) == 0.1
    latency = {"metric": "latency_ms.retrieve", "variant": "control"}
    assert value("rag_monitor_window_observations", latency) == 30
    for gauge in ("rag_monitor_window_mean", "rag_monitor_window_p95", "rag_monitor_baseline"):
        assert value(gauge, latency) is None
    m.set_ab("exp", "latency_ms.total", "treatment", -250.0, 0.01)
    ab = {"experiment": "exp", "metric": "latency_ms.total", "variant": "treatment"}
    assert value("rag_monitor_ab_difference", ab) is None
    assert value("rag_monitor_ab_always_valid_p_value", ab) == 0.01
    staged_ab = {"experiment": "exp", "stage": "total", "variant": "treatment"}
    assert value("rag_monitor_ab_latency_difference_seconds", staged_ab) == -0.25
    quality = {"metric": "quality.overall", "variant": "control"}
    assert value("rag_monitor_window_mean", quality) == 0.7
    assert value("rag_monitor_window_p95", quality) == 0.9
    assert value("rag_monitor_baseline", quality) == 0.75


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
