"""Issue 11 finding 7, end to end without a broker: the label values of scored events go
through the window feed, the partial, the decider (windows, alerts, A/B results) and the
metrics; none of them may carry a 250 KB value, and with a hash key none a raw one."""

from __future__ import annotations

import re
from typing import Any

import orjson
from prometheus_client import CollectorRegistry, generate_latest

from monitor.config import Settings
from monitor.decider import Decider
from monitor.events.scored_event import ScoredEvent
from monitor.metrics.monitor_metrics import MonitorMetrics
from monitor.pipeline import process
from monitor.stream.aggregation import AggregationStage
from monitor.stream.window_feed import WindowFeed
from monitor.windows.labels import LabelPolicy
from monitor.windows.partial import Partial, SourceRange
from monitor.windows.summary import window_summary

BIG = "v" * 250_000
WINDOW_MS = 10_000
BASE = {
    "tumbling_window_ms": WINDOW_MS,
    "hopping_window_ms": 3 * WINDOW_MS,
    "hopping_step_ms": WINDOW_MS,
    "allowed_lateness_ms": 0,
    "changepoint_metrics": [],
}


def scored(i: int, **labels: str) -> ScoredEvent:
    event = {
        "schema_version": "1",
        "event_id": f"e{i}",
        "timestamp_ms": 1_000 + 10 * i,
        "query": {"text": "what is the refund policy"},
        **labels,
    }
    result = process(orjson.dumps(event), max_bytes=2_000_000)
    assert isinstance(result, ScoredEvent)
    return result


def run(settings: Settings, events: list[ScoredEvent]) -> tuple[Partial, list[bytes], str]:
    """The worker's path for one batch: the partial, every message the decider's decisions
    produce (alerts, A/B results, window summaries) and the ``/metrics`` text."""
    registry = CollectorRegistry()
    metrics = MonitorMetrics(
        registry, settings.max_label_values, LabelPolicy.from_settings(settings)
    )
    batch = WindowFeed(settings, metrics).batch()
    for event in events:
        batch.add(event)
    partial = batch.finish([SourceRange("rag.events.v1", 0, 0, len(events) - 1)])
    decider = Decider(settings)
    decider.merge(Partial.from_json(partial.to_json()))
    decider.advance(10 * WINDOW_MS)
    stage = AggregationStage(settings, decider, None, metrics)  # type: ignore[arg-type]
    out: list[bytes] = []
    decisions = decider.decide()
    assert any(d.alerts for d in decisions) and any(d.ab_results for d in decisions)
    for d in decisions:
        out += [a.model_dump_json().encode() for a in d.alerts]
        out += [r.model_dump_json().encode() for r in d.ab_results]
        out.append(orjson.dumps(window_summary(d.window)))
        if d.window.kind == "tumbling":
            stage._set_gauges(d)
        for r in d.ab_results:
            stage._set_ab_gauges(r)
    return partial, out, generate_latest(registry).decode()


def test_huge_label_values_become_invalid_in_windows_alerts_and_metrics() -> None:
    events = [
        scored(i, variant=f"{i % 2}{BIG}", tenant=f"{i % 25}{BIG}", experiment="exp-1")
        for i in range(200)
    ]
    partial, messages, metrics = run(Settings(**BASE), events)
    raw = partial.to_json()
    assert len(raw) < 200_000
    assert {key[1:3] for key in partial.panes} == {("invalid", "invalid")}
    assert all(b"vvvv" not in m for m in messages)
    assert sum(len(m) for m in messages) < 1_000_000
    assert "vvvv" not in metrics and len(metrics) < 200_000
    assert 'rag_monitor_events_total{variant="invalid"} 200.0' in metrics


def test_with_a_hash_key_no_raw_label_value_leaves_the_worker() -> None:
    names = {"tenant": "acme-corp", "application": "support-bot", "experiment": "reranker-v2"}
    events = [scored(i, variant=("arm-a", "arm-b")[i % 2], **names) for i in range(200)]
    settings = Settings(**BASE, label_hash_key="a-label-hash-key-0123")
    partial, messages, metrics = run(settings, events)
    policy = LabelPolicy.from_settings(settings)
    texts: list[Any] = [partial.to_json().decode(), metrics, *(m.decode() for m in messages)]
    for text in texts:
        for raw in (*names.values(), "arm-a", "arm-b"):
            assert raw not in text
    assert policy.export("arm-b") in metrics
    assert any(policy.export("acme-corp") in m.decode() for m in messages)
    assert any(policy.export("reranker-v2") in m.decode() for m in messages)
    # the A/B gauges: one verdict at 1 per comparison, the guardrail flags (the identical
    # events here have no variance: no confidence sequence, "too little data")
    current = re.findall(
        r'rag_monitor_ab_verdict\{[^}]*metric="quality.overall"[^}]*\} 1.0', metrics
    )
    assert len(current) == 1
    assert 'metric="latency_ms.total"' in "".join(
        line for line in metrics.splitlines() if line.startswith("rag_monitor_ab_guardrail_worse")
    )
