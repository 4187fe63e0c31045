"""Closed windows to alerts: 000's degradation rule against a learned baseline, resolve,
baselines frozen while degraded, and deterministic replay (what a restart relies on)."""

from __future__ import annotations

from monitor.alerts.alert import Alert
from monitor.config import Settings
from monitor.decider import Decider
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap
from monitor.windows.partial import Partial, PartialBuilder, SourceRange

WINDOW_MS = 10_000
SETTINGS = Settings(
    tumbling_window_ms=WINDOW_MS,
    hopping_window_ms=3 * WINDOW_MS,
    hopping_step_ms=WINDOW_MS,
    allowed_lateness_ms=0,
    baseline_min_events=100,
    baseline_min_windows=3,
    changepoint_metrics=[],
)


def window_of(index: int, quality: float, n: int = 50) -> Partial:
    """``n`` events per variant in tumbling window ``index``, all with ``quality``."""
    b = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
    for variant in ("control", "treatment"):
        for i in range(n):
            ts = index * WINDOW_MS + i * 10
            values = {"quality.overall": quality, "pipeline.dead_letter": 0.0}
            b.add_event(f"{variant}-{index}-{i}", ts, (variant, "acme", "bot", "none"), values)
    return b.build([SourceRange("events", 0, index * 1000, index * 1000 + 999)])


def run(decider: Decider, qualities: list[float]) -> list[list[Alert]]:
    """Alerts per closed tumbling window."""
    out = []
    for index, quality in enumerate(qualities):
        decider.merge(window_of(index, quality))
        decider.advance((index + 1) * WINDOW_MS)
        out += [d.alerts for d in decider.decide() if d.window.kind == "tumbling"]
    return out


def overall(alerts: list[Alert], rule: str) -> list[Alert]:
    return [
        a
        for a in alerts
        if a.rule == rule and a.labels.variant is None and a.labels.tenant is None
        and a.labels.application is None
    ]  # fmt: skip


def test_degradation_fires_against_the_learned_baseline_and_resolves() -> None:
    per_window = run(Decider(SETTINGS), [0.8, 0.8, 0.8, 0.5, 0.5, 0.8, 0.8, 0.8])
    assert per_window[:3] == [[], [], []]  # learning: three windows, 300 events
    [fired] = overall(per_window[3], "degradation")
    assert (fired.status, fired.type, fired.severity) == ("firing", "degradation", "warning")
    assert fired.message == "Quality score degraded from baseline"
    assert fired.current_value == 0.5 and abs(fired.threshold - 0.8 * 0.85) < 1e-12
    assert overall(per_window[4], "degradation") == []  # still firing, not re-notified
    # resolves after alert_resolve_windows (3) windows back above 0.68 x 1.1
    assert overall(per_window[5], "degradation") == overall(per_window[6], "degradation") == []
    [resolved] = overall(per_window[7], "degradation")
    assert resolved.status == "resolved" and resolved.fingerprint == fired.fingerprint
    assert resolved.ends_at_ms == 8 * WINDOW_MS and resolved.resolve_reason == "recovered"


def test_windows_of_few_events_are_evaluated_together() -> None:
    """5 events per variant and window (10 in all): the whole traffic is evaluated over the
    last two windows (20 events), each variant over the last four."""
    decider = Decider(SETTINGS)
    alerts = []
    for index in range(4):
        decider.merge(window_of(index, 0.2, n=5))
        decider.advance((index + 1) * WINDOW_MS)
        alerts.append([a for d in decider.decide() for a in d.conditions])
    assert alerts[0] == []  # 10 events: not enough for spec 000's rules
    [whole] = overall(alerts[1], "critical_quality")  # 20 events over two windows
    assert (whole.window.start_ms, whole.window.end_ms) == (0, 2 * WINDOW_MS)
    variant = [a for a in alerts[3] if a.labels.variant == "control" and a.labels.tenant is None]
    assert [(a.rule, a.window.start_ms, a.window.end_ms) for a in variant] == [
        ("critical_quality", 0, 4 * WINDOW_MS)
    ]


def test_critical_quality_is_000s_threshold_alert() -> None:
    per_window = run(Decider(SETTINGS), [0.39])
    [critical] = overall(per_window[0], "critical_quality")
    assert (critical.type, critical.severity, critical.threshold) == ("threshold", "critical", 0.4)
    assert critical.message == "Average quality score critically low"


def test_degraded_windows_do_not_lower_the_baseline() -> None:
    decider = Decider(SETTINGS)
    run(decider, [0.8, 0.8, 0.8] + [0.5] * 10)
    learned = decider.baseline((None, None, None), "quality.overall", 13 * WINDOW_MS)
    assert learned is not None and abs(learned - 0.8) < 1e-12


def test_replaying_the_same_partials_gives_the_same_alerts() -> None:
    qualities = [0.8, 0.8, 0.8, 0.5, 0.3, 0.8, 0.8]
    first = run(Decider(SETTINGS), qualities)
    again = run(Decider(SETTINGS), qualities)
    assert first == again and any(first)
