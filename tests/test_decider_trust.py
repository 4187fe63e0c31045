"""Pages on-call can trust (issue 12, parts 2 and 3), through the Decider as the worker runs
it, on its condition alerts (one per rule, metric and series, before they are grouped into
incidents): healthy low traffic (3 events/min, 60 s windows) never pages over 6 hours while a real
drop at that rate still pages within a bounded number of windows; a rate hovering at its
threshold does not flap; a series that goes quiet resolves with a reason."""

from __future__ import annotations

import random
from collections.abc import Callable

from monitor.alerts.alert import Alert, AlertLabels
from monitor.config import Settings
from monitor.decider import Decider
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap
from monitor.windows.partial import PartialBuilder, SeriesLabels, SourceRange

WINDOW_MS = 60_000
Q = "quality.overall"
LEAK = "safety.leakage.detected"
SETTINGS = Settings(tumbling_window_ms=WINDOW_MS, hopping_step_ms=WINDOW_MS, allowed_lateness_ms=0)

Values = Callable[[random.Random, int], dict[str, float]]
"""A healthy or faulty event's metric values, given the window index."""


def _beta(rng: random.Random, mean: float, sd: float) -> float:
    """A value in [0, 1] with roughly this mean and spread."""
    k = mean * (1 - mean) / (sd * sd) - 1
    return rng.betavariate(mean * k, (1 - mean) * k)


def healthy(rng: random.Random, index: int) -> dict[str, float]:
    overall = _beta(rng, 0.75, 0.15)
    return {
        Q: overall,
        "quality.retrieval_confidence": _beta(rng, 0.7, 0.2),
        "quality.context_sufficiency": float(rng.random() < 0.8),  # a 0/1 score
        "quality.diversity_score": _beta(rng, 0.6, 0.15),
        "quality.estimated_faithfulness": _beta(rng, 0.7, 0.2),
        "safety.injection.blocked": float(rng.random() < 0.01),
        LEAK: float(rng.random() < 0.002),
        "outcome.no_results": float(rng.random() < 0.05),
        "outcome.abstained": float(rng.random() < 0.1),
        "pipeline.dead_letter": 0.0,
        "latency_ms.total": rng.lognormvariate(6.7, 0.5),  # median ~800 ms
    }


def broken_retrieval(rng: random.Random, index: int) -> dict[str, float]:
    values = healthy(rng, index)
    values[Q] = _beta(rng, 0.3, 0.1)
    values["quality.retrieval_confidence"] = _beta(rng, 0.15, 0.1)
    values["outcome.no_results"] = float(rng.random() < 0.3)
    return values


SERIES: list[SeriesLabels] = [
    (variant, tenant, "bot", "none") for variant in ("control", "treatment") for tenant in "ab"
]


def simulate(
    per_minute: float,
    phases: list[tuple[int, Values]],
    *,
    seed: int = 1,
    series: list[SeriesLabels] = SERIES,
    settings: Settings = SETTINGS,
) -> list[tuple[int, Alert]]:
    """Poisson traffic at ``per_minute`` events per minute (spread over ``series``) through
    a Decider; ``phases`` are (windows, values); the alerts with their window index."""
    rng = random.Random(seed)
    decider = Decider(settings)
    out: list[tuple[int, Alert]] = []
    index = offset = 0
    for windows, values in phases:
        for _ in range(windows):
            builder = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
            t = index * WINDOW_MS + rng.expovariate(per_minute) * WINDOW_MS
            n = 0
            while t < (index + 1) * WINDOW_MS:
                labels = rng.choice(series)
                builder.add_event(f"e{offset + n}", int(t), labels, values(rng, index))
                n += 1
                t += rng.expovariate(per_minute) * WINDOW_MS
            if n:
                decider.merge(builder.build([SourceRange("events", 0, offset, offset + n - 1)]))
                offset += n
            decider.advance((index + 1) * WINDOW_MS)
            # the condition alerts (rule, metric, series): what evidence and hysteresis act
            # on; the incident notifications built from them are tested in
            # tests/alerts/test_rules_incidents.py
            out += [(index, a) for d in decider.decide() for a in d.conditions]
            index += 1
    return out


def test_six_hours_of_healthy_low_traffic_never_pages() -> None:
    for seed in (1, 2):
        alerts = simulate(3.0, [(360, healthy)], seed=seed)
        assert [(i, a.rule, a.metric, a.labels) for i, a in alerts] == []


def test_one_event_in_a_window_does_not_page_four_times() -> None:
    settings = Settings(tumbling_window_ms=WINDOW_MS, allowed_lateness_ms=0)

    def awful(rng: random.Random, index: int) -> dict[str, float]:
        return healthy(rng, index) | {Q: 0.0}

    decider = Decider(settings)
    builder = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
    builder.add_event("one", 1_000, SERIES[0], awful(random.Random(0), 0))
    decider.merge(builder.build([SourceRange("events", 0, 0, 0)]))
    decider.advance(WINDOW_MS)
    assert [a for d in decider.decide() for a in d.alerts] == []


def test_a_real_drop_at_low_traffic_pages_within_a_bounded_span_and_resolves() -> None:
    start, length, after = 240, 30, 40  # baselines are learned in the first 4 hours
    for seed in (1, 2, 3):
        alerts = simulate(
            3.0, [(start, healthy), (length, broken_retrieval), (after, healthy)], seed=seed
        )
        assert all(i >= start for i, _ in alerts), "a page before the drop"
        whole = [(i, a) for i, a in alerts if a.labels == AlertLabels()]
        firing = [(i, a.rule) for i, a in whole if a.status == "firing"]
        # about 3 events per window, 20 needed: the span fills with the incident quickly
        assert firing[0][0] - start <= 6
        critical = [i for i, rule in firing if rule == "critical_quality"]
        assert critical and critical[0] - start <= 10
        # every page resolves after the recovery, as recovered
        fired = {a.fingerprint for _, a in alerts if a.status == "firing"}
        resolved = {a.fingerprint: (i, a) for i, a in alerts if a.status == "resolved"}
        assert fired == set(resolved)
        for i, alert in resolved.values():
            assert i >= start + length
            if alert.labels == AlertLabels():
                assert alert.resolve_reason == "recovered"
                assert i - (start + length) <= 10  # the span leaves the incident behind
        # a low-traffic page names the span of windows it was evaluated on
        first = next(a for _, a in whole if a.status == "firing")
        assert first.window.end_ms - first.window.start_ms > WINDOW_MS


def test_a_leakage_rate_hovering_at_its_threshold_does_not_flap() -> None:
    """It used to fire 12 times and resolve 9 times in 100 s (every window the rate crossed
    0.01): now a page needs evidence, and once firing it needs 3 clear windows to resolve."""
    one: list[SeriesLabels] = [("control", "a", "bot", "none")]
    settings = Settings(
        tumbling_window_ms=WINDOW_MS,
        allowed_lateness_ms=0,
        changepoint_metrics=[],
        alert_cooldown_ms=3_600_000,
    )

    def leaking(rate: float) -> Values:
        def values(rng: random.Random, index: int) -> dict[str, float]:
            return {LEAK: float(rng.random() < rate)}

        return values

    def rate_alerts(phases: list[tuple[int, Values]], seed: int) -> list[tuple[int, str]]:
        alerts = simulate(300.0, phases, series=one, settings=settings, seed=seed)
        return [
            (i, a.status)
            for i, a in alerts
            if a.rule == f"rate:{LEAK}" and a.labels == AlertLabels()
        ]

    def no_flapping(timeline: list[tuple[int, str]], windows: int) -> None:
        statuses = [status for _, status in timeline]
        assert (
            statuses
            == ["firing", "resolved"] * (len(statuses) // 2) + statuses[len(statuses) // 2 * 2 :]
        )
        # a firing alert lasts at least alert_resolve_windows (3) windows, usually many more
        for (fired, _), (resolved, _) in zip(timeline[::2], timeline[1::2], strict=False):
            assert resolved - fired >= 3
        assert statuses.count("firing") <= 3  # the rule without evidence: ~25 per 100

    for seed in range(1, 6):
        # hovering alone (0.011 against 0.01, about 3 leaks in 300 events per window): the
        # exact bound rarely says "above 0.01" (it is, slightly), and a page then lasts
        hovering = rate_alerts([(100, leaking(0.011))], seed)
        no_flapping(hovering, 100)
        # a real leak pages at once; hovering afterwards keeps it firing rather than
        # flapping; it resolves once the rate is below 0.009 in 3 consecutive windows
        timeline = rate_alerts([(3, leaking(0.1)), (60, leaking(0.011)), (10, leaking(0.0))], seed)
        assert timeline[0] == (0, "firing") and timeline[-1][1] == "resolved"
        no_flapping(timeline, 73)


def test_a_series_that_goes_quiet_resolves_with_a_reason() -> None:
    settings = Settings(tumbling_window_ms=WINDOW_MS, allowed_lateness_ms=0)
    quiet_tenant: SeriesLabels = ("control", "b", "bot", "none")
    rng = random.Random(3)
    decider = Decider(settings)
    alerts: list[tuple[int, Alert]] = []
    for index in range(12):
        builder = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
        for i in range(100):
            builder.add_event(
                f"{index}-a-{i}", index * WINDOW_MS + i, SERIES[0], healthy(rng, index)
            )
        if index < 3:  # tenant b: broken for 3 windows, then no events at all
            for i in range(30):
                values = healthy(rng, index) | {Q: 0.1}
                builder.add_event(f"{index}-b-{i}", index * WINDOW_MS + i, quiet_tenant, values)
        decider.merge(builder.build([SourceRange("events", 0, index * 1000, index * 1000 + 999)]))
        decider.advance((index + 1) * WINDOW_MS)
        alerts += [(index, a) for d in decider.decide() for a in d.alerts]
    tenant_b = [
        (i, a) for i, a in alerts if a.labels.tenant == "b" and a.rule == "critical_quality"
    ]
    assert [(i, a.status, a.resolve_reason) for i, a in tenant_b] == [
        (0, "firing", None),
        (7, "resolved", "quiet"),  # last evaluated in window 2; 5 windows without it
    ]
    resolved = tenant_b[1][1]
    assert resolved.ends_at_ms == 8 * WINDOW_MS
    assert decider.alerts.firing() == []
