"""One incident, one page: the decider groups the conditions of a closed window that share a
cause (roll-ups, sub-scores, rules on one metric) into one notification naming the most
specific series, lists the rest, keeps one fingerprint while it lasts and resolves once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from monitor.alerts.alert import Alert, AlertWindow, Diagnosis
from monitor.alerts.rules import IncidentBook, alert_labels, explaining_series, fingerprint
from monitor.config import Settings
from monitor.decider import Decider
from monitor.drift.stats import SeriesKey
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
    alert_cooldown_ms=100 * WINDOW_MS,
)
HEALTHY = {
    "quality.overall": 0.8,
    "quality.retrieval_confidence": 0.8,
    "quality.context_sufficiency": 0.8,
    "quality.diversity_score": 0.6,
    "quality.estimated_faithfulness": 0.8,
    "pipeline.dead_letter": 0.0,
    "safety.injection.blocked": 0.0,
}
BROKEN = {
    **HEALTHY,
    "quality.overall": 0.3,
    "quality.retrieval_confidence": 0.2,
    "quality.context_sufficiency": 0.3,
    "quality.estimated_faithfulness": 0.2,
}
ALL: SeriesKey = (None, None, None)


def window_of(index: int, arms: Mapping[str, Mapping[str, float]], n: int = 50) -> Partial:
    """``n`` events per variant in tumbling window ``index``, with that variant's values."""
    b = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
    for variant, values in arms.items():
        for i in range(n):
            ts = index * WINDOW_MS + i * 10
            b.add_event(f"{variant}-{index}-{i}", ts, (variant, "acme", "bot", "none"), values)
    return b.build([SourceRange("events", 0, index * 1000, index * 1000 + 999)])


def run(
    decider: Decider, windows: list[Mapping[str, Mapping[str, float]]], n: int = 50
) -> list[list[Alert]]:
    """Notifications per closed tumbling window."""
    out = []
    for index, arms in enumerate(windows):
        decider.merge(window_of(index, arms, n))
        decider.advance((index + 1) * WINDOW_MS)
        out += [d.alerts for d in decider.decide() if d.window.kind == "tumbling"]
    return out


def key_of(alert: Alert) -> SeriesKey:
    return (alert.labels.variant, alert.labels.tenant, alert.labels.application)


LEARN = [{"control": HEALTHY, "treatment": HEALTHY}] * 3


def test_only_treatment_degraded_is_one_page_naming_treatment_with_the_rollups_related() -> None:
    per_window = run(Decider(SETTINGS), [*LEARN, {"control": HEALTHY, "treatment": BROKEN}])
    assert per_window[:3] == [[], [], []]
    [page] = per_window[3]
    assert page.status == "firing"
    assert key_of(page) == ("treatment", None, None)
    assert (page.rule, page.metric) == ("critical_quality", "quality.overall")
    assert page.fingerprint == fingerprint("critical_quality", "quality.overall", key_of(page))
    related = {(r.rule, r.metric, (r.labels.variant, r.labels.tenant, r.labels.application))
               for r in page.related}  # fmt: skip
    for rollup in (ALL, (None, "acme", None), (None, None, "bot")):
        assert ("degradation", "quality.overall", rollup) in related
    assert ("degradation", "quality.retrieval_confidence", ("treatment", None, None)) in related
    assert not any(v == "control" for _, _, (v, _, _) in related)
    assert page.diagnosis.perspective == "retrieval"


def test_everything_degraded_is_one_page_for_the_whole_traffic() -> None:
    per_window = run(Decider(SETTINGS), [*LEARN, {"control": BROKEN, "treatment": BROKEN}])
    [page] = per_window[3]
    assert key_of(page) == ALL
    assert page.rule == "critical_quality" and page.severity == "critical"
    variants = {r.labels.variant for r in page.related}
    assert {"control", "treatment"} <= variants
    # every roll-up x every sub-score x every rule: all in the one page
    assert len(page.related) >= 5 * 4


def test_sub_scores_and_critical_on_one_series_are_one_page_led_by_the_critical() -> None:
    decider = Decider(SETTINGS)
    per_window = run(decider, [*[{"solo": HEALTHY}] * 3, {"solo": BROKEN}])
    [page] = per_window[3]
    assert (page.rule, page.severity, key_of(page)) == ("critical_quality", "critical", ALL)
    assert page.message == "Average quality score critically low"
    metrics = {(r.rule, r.metric) for r in page.related}
    assert {
        ("degradation", "quality.overall"),
        ("degradation", "quality.retrieval_confidence"),
        ("degradation", "quality.context_sufficiency"),
        ("degradation", "quality.estimated_faithfulness"),
    } <= metrics


def test_the_incident_keeps_its_fingerprint_and_resolves_once() -> None:
    windows = [*LEARN, *[{"control": HEALTHY, "treatment": BROKEN}] * 3, *LEARN]
    per_window = run(Decider(SETTINGS), windows)
    sent = [a for alerts in per_window for a in alerts]
    assert [a.status for a in sent] == ["firing", "resolved"]
    firing, resolved = sent
    assert resolved.fingerprint == firing.fingerprint
    assert resolved.starts_at_ms == firing.starts_at_ms == 4 * WINDOW_MS
    # three healthy windows (alert_resolve_windows) before it resolves: no flapping
    assert resolved.ends_at_ms == 9 * WINDOW_MS
    assert per_window[8] == [resolved]
    assert resolved.resolve_reason == "recovered"


def test_a_severity_change_re_notifies_with_the_same_fingerprint() -> None:
    mild = {**HEALTHY, "quality.overall": 0.6}  # degraded (< 0.68), not critical
    windows = [*LEARN, {"solo": mild}, {"solo": BROKEN}, {"solo": BROKEN}]
    recovered = [{"solo": HEALTHY}] * 3  # alert_resolve_windows clear windows
    per_window = run(Decider(SETTINGS), [*[{"solo": HEALTHY}] * 3, *windows[3:], *recovered])
    sent = [(a.status, a.severity, a.rule, a.fingerprint) for w in per_window for a in w]
    fp = sent[0][3]
    assert sent == [
        ("firing", "warning", "degradation", fp),
        ("firing", "critical", "critical_quality", fp),
        ("resolved", "critical", "critical_quality", fp),
    ]


def test_a_window_of_one_event_does_not_page() -> None:
    # it used to fire four critical_quality alerts (whole traffic, tenant, app, variant)
    assert run(Decider(SETTINGS), [{"solo": {**HEALTHY, "quality.overall": 0.39}}], n=1) == [[]]


def test_a_critical_window_fires_one_notification_not_four() -> None:
    [[page]] = run(Decider(SETTINGS), [{"solo": {**HEALTHY, "quality.overall": 0.39}}], n=20)
    assert (page.rule, key_of(page)) == ("critical_quality", ALL)
    assert {key_of(r) for r in page.related} == {
        ("solo", None, None),
        (None, "acme", None),
        (None, None, "bot"),
    }


def test_without_grouping_every_condition_is_a_notification() -> None:
    settings = SETTINGS.model_copy(update={"alert_grouping": False})
    [[*alerts]] = run(Decider(settings), [{"solo": {**HEALTHY, "quality.overall": 0.39}}], n=20)
    assert len(alerts) == 4 and all(a.related == [] for a in alerts)


def test_a_safety_rate_is_its_own_page_and_wins_the_diagnosis_of_the_quality_page() -> None:
    wave = {**BROKEN, "safety.injection.blocked": 1.0}
    per_window = run(Decider(SETTINGS), [*LEARN, {"control": HEALTHY, "treatment": wave}])
    safety, quality = per_window[3]
    assert safety.rule == "rate:safety.injection.blocked"
    assert quality.metric == "quality.overall"
    assert safety.diagnosis.perspective == quality.diagnosis.perspective == "safety"


def test_the_condition_alerts_stay_available_on_the_decision() -> None:
    decider = Decider(SETTINGS)
    decider.merge(window_of(0, {"solo": {**HEALTHY, "quality.overall": 0.39}}, n=20))
    decider.advance(WINDOW_MS)
    [decision] = [d for d in decider.decide() if d.window.kind == "tumbling"]
    assert len(decision.alerts) == 1 and len(decision.conditions) == 4


# --- the pure parts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("degraded", "traffic", "named"),
    [
        # one event: one value per label, all degraded: the whole traffic
        ([ALL, ("a", None, None), (None, "t", None)], {ALL: 1, ("a", None, None): 1}, ALL),
        # one of two variants, the other with events and fine: that variant
        (
            [ALL, ("b", None, None)],
            {ALL: 10, ("a", None, None): 5, ("b", None, None): 5},
            ("b", None, None),
        ),
        # the other variant had no event in the window: it does not clear anything
        ([ALL, ("b", None, None)], {ALL: 10, ("b", None, None): 10, ("a", None, None): 0}, ALL),
        # a variant and a tenant both localise: the one with fewer events
        (
            [ALL, ("b", None, None), (None, "t2", None)],
            {
                ALL: 10,
                ("a", None, None): 5,
                ("b", None, None): 5,
                (None, "t1", None): 7,
                (None, "t2", None): 3,
            },
            (None, "t2", None),
        ),
        # two tenants of three, the whole traffic not degraded: the one with most conditions
        (
            [(None, "t1", None), (None, "t2", None), (None, "t2", None)],
            {ALL: 10, (None, "t1", None): 3, (None, "t2", None): 3, (None, "t3", None): 4},
            (None, "t2", None),
        ),
    ],
)
def test_explaining_series(
    degraded: list[SeriesKey], traffic: dict[SeriesKey, int], named: SeriesKey
) -> None:
    assert explaining_series(degraded, traffic) == named


def _condition(rule: str, metric: str, key: SeriesKey, severity: str = "warning") -> Alert:
    return Alert(
        fingerprint=fingerprint(rule, metric, key),
        status="firing",
        type="threshold",
        severity=severity,  # type: ignore[arg-type]
        rule=rule,
        message="m",
        metric=metric,
        current_value=0.5,
        threshold=0.1,
        labels=alert_labels(key),
        window=AlertWindow(start_ms=0, end_ms=1),
        starts_at_ms=1,
        diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="a"),
    )


def _diag(key: SeriesKey, metrics: object, also: object = ()) -> Diagnosis:
    return Diagnosis(perspective="pipeline", failing=["pipeline"], advice="b")


def test_cooldown_re_notifies_and_an_out_of_order_window_changes_nothing() -> None:
    book = IncidentBook(cooldown_ms=30)
    lat = [_condition("latency_p95:total", "latency_ms.total", ALL)]
    assert len(book.update((0, 10), lat, {ALL: 5}, _diag)) == 1
    assert book.update((10, 20), lat, {ALL: 5}, _diag) == []
    assert book.update((0, 10), [], {ALL: 5}, _diag) == []  # a window already seen
    [again] = book.update((30, 40), lat, {ALL: 5}, _diag)  # 30 ms since the notification
    assert (again.starts_at_ms, again.window.end_ms) == (10, 40)
    assert [a.fingerprint for a in book.open()] == [again.fingerprint]
    [resolved] = book.update((40, 50), [], {ALL: 5}, _diag)
    assert resolved.status == "resolved" and book.open() == []
    assert book.update((50, 60), [], {ALL: 5}, _diag) == []


def test_classes_are_separate_incidents_sent_safety_pipeline_quality() -> None:
    book = IncidentBook(cooldown_ms=30)
    firing = [
        _condition("degradation", "quality.overall", ALL),
        _condition("latency_p95:total", "latency_ms.total", ALL),
        _condition("rate:safety.leakage.detected", "safety.leakage.detected", ALL, "critical"),
    ]
    seen: list[tuple[SeriesKey, list[str], list[str]]] = []

    def diag(key: SeriesKey, metrics: Sequence[str], also: Sequence[str]) -> Diagnosis:
        seen.append((key, list(metrics), list(also)))
        return _diag(key, metrics)

    out = book.update((0, 10), firing, {ALL: 5}, diag)
    assert [a.metric for a in out] == [
        "safety.leakage.detected",
        "latency_ms.total",
        "quality.overall",
    ]
    # the quality incident's diagnosis also sees the safety metric firing in the window
    assert seen[2] == (ALL, ["quality.overall"], ["safety.leakage.detected"])
    assert seen[1] == (ALL, ["latency_ms.total"], [])
