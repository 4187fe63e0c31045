"""AlertBook: fire once, cooldown, re-notify, resolve, not resolved when not evaluated,
flapping, severity changes, deterministic replay."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from monitor.alerts.alert import Alert, AlertLabels, Diagnosis
from monitor.alerts.rules.alert_book import AlertBook
from monitor.alerts.rules.fingerprint import fingerprint
from monitor.drift.conditions import Condition, Severity
from monitor.drift.stats import SeriesKey

KEY: SeriesKey = ("treatment", "acme", None)
MIN = 60_000
CRIT = ("critical_quality", "quality.overall")
RATE = ("rate:outcome.no_results", "outcome.no_results")


def _low(value: float = 0.3, key: SeriesKey = KEY) -> Condition:
    return Condition(
        "critical_quality",
        "threshold",
        "critical",
        "quality.overall",
        key,
        value,
        0.4,
        "Average quality score critically low",
    )


def _rate(severity: Severity, value: float) -> Condition:
    return Condition(
        RATE[0],
        "threshold",
        severity,
        RATE[1],
        KEY,
        value,
        0.4 if severity == "critical" else 0.2,
        "Rate of outcome.no_results above its threshold",
    )


def _diag(condition: Condition) -> Diagnosis:
    return Diagnosis(perspective="retrieval", failing=["retrieval"], advice="check the retriever")


def _at(
    book: AlertBook,
    minute: int,
    conditions: Sequence[Condition],
    evaluated: Sequence[tuple[str, str]] = (CRIT,),
) -> list[Alert]:
    return book.evaluate(KEY, ((minute - 1) * MIN, minute * MIN), evaluated, conditions, _diag)


def test_fires_once_then_silent_within_the_cooldown() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    (alert,) = _at(book, 1, [_low()])
    assert alert.status == "firing"
    assert alert.fingerprint == fingerprint(*CRIT, KEY)
    assert alert.labels == AlertLabels(variant="treatment", tenant="acme", application=None)
    assert (alert.starts_at_ms, alert.ends_at_ms) == (MIN, None)
    assert (alert.window.start_ms, alert.window.end_ms) == (0, MIN)
    assert (alert.type, alert.severity, alert.rule, alert.metric) == (
        "threshold",
        "critical",
        "critical_quality",
        "quality.overall",
    )
    assert (alert.current_value, alert.threshold) == (0.3, 0.4)
    assert alert.diagnosis.perspective == "retrieval"
    for minute in range(2, 16):  # 14 minutes later: still within 15
        assert _at(book, minute, [_low(0.2)]) == []
    assert [a.fingerprint for a in book.firing()] == [alert.fingerprint]


def test_re_notifies_after_the_cooldown_with_the_same_identity() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    (first,) = _at(book, 1, [_low()])
    for minute in range(2, 16):
        _at(book, minute, [_low()])
    (again,) = _at(book, 16, [_low(0.25)])  # exactly 15 minutes after the notification
    assert again.status == "firing"
    assert (again.fingerprint, again.starts_at_ms) == (first.fingerprint, first.starts_at_ms)
    assert again.current_value == 0.25 and again.window.end_ms == 16 * MIN
    assert _at(book, 17, [_low()]) == []  # the cooldown restarts
    assert len(_at(book, 31, [_low()])) == 1


def test_zero_cooldown_notifies_every_window() -> None:
    book = AlertBook(cooldown_ms=0)
    assert [len(_at(book, m, [_low()])) for m in range(1, 5)] == [1, 1, 1, 1]


def test_resolves_when_the_condition_clears() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    (fired,) = _at(book, 1, [_low()])
    (resolved,) = _at(book, 3, [])
    assert resolved.status == "resolved"
    assert resolved.fingerprint == fired.fingerprint
    assert (resolved.starts_at_ms, resolved.ends_at_ms) == (MIN, 3 * MIN)
    assert resolved.window.end_ms == 3 * MIN
    assert book.firing() == []
    assert _at(book, 4, []) == []  # resolved once


def test_not_resolved_when_the_rule_was_not_evaluated() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    _at(book, 1, [_low()])
    assert _at(book, 2, [], evaluated=[]) == []  # e.g. too few events in the window
    assert _at(book, 3, [], evaluated=[RATE]) == []  # another rule
    assert len(book.firing()) == 1
    assert [a.status for a in _at(book, 4, [])] == ["resolved"]


def test_an_active_condition_counts_as_evaluated() -> None:
    book = AlertBook(cooldown_ms=0)
    assert [a.status for a in _at(book, 1, [_low()], evaluated=[])] == ["firing"]


def test_flapping_back_after_resolve_fires_again_at_once() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    _at(book, 1, [_low()])
    _at(book, 2, [])
    (again,) = _at(book, 3, [_low()])
    assert again.status == "firing" and again.starts_at_ms == 3 * MIN


def test_an_escalation_re_notifies_at_once_a_de_escalation_with_the_cooldown() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    ev = [RATE]
    assert [a.severity for a in _at(book, 1, [_rate("warning", 0.3)], ev)] == ["warning"]
    assert _at(book, 2, [_rate("warning", 0.35)], ev) == []
    (up,) = _at(book, 3, [_rate("critical", 0.5)], ev)
    assert (up.severity, up.threshold, up.starts_at_ms) == ("critical", 0.4, MIN)
    # hovering at twice the threshold: no flapping between severities
    for minute in range(4, 18):
        severity: Severity = "warning" if minute % 2 else "critical"
        assert _at(book, minute, [_rate(severity, 0.4)], ev) == []
    (down,) = _at(book, 19, [_rate("warning", 0.3)], ev)  # cooldown since minute 3
    assert (down.severity, down.starts_at_ms) == ("warning", MIN)
    (resolved,) = _at(book, 20, [], ev)
    assert (resolved.status, resolved.severity) == ("resolved", "warning")
    assert resolved.resolve_reason == "recovered"


def test_hysteresis_only_a_clear_pair_resolves() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    assert [a.status for a in _at(book, 1, [_low()])] == ["firing"]

    def at(minute: int, cleared: Sequence[tuple[str, str]]) -> list[Alert]:
        window = ((minute - 1) * MIN, minute * MIN)
        return book.evaluate(KEY, window, [CRIT], [], _diag, cleared=cleared)

    # evaluated, not active, not clear (between the firing and the resolving threshold)
    assert at(2, []) == [] and at(3, []) == []
    assert [a.fingerprint for a in book.firing()] == [fingerprint(*CRIT, KEY)]
    (resolved,) = at(4, [CRIT])
    assert (resolved.status, resolved.ends_at_ms, resolved.resolve_reason) == (
        "resolved",
        4 * MIN,
        "recovered",
    )
    assert (resolved.window.start_ms, resolved.window.end_ms) == (3 * MIN, 4 * MIN)
    assert book.firing() == []


def test_a_quiet_series_resolves_with_a_reason() -> None:
    book = AlertBook(cooldown_ms=15 * MIN, quiet_resolve_windows=5)
    (fired,) = _at(book, 1, [_low()])
    assert _at(book, 2, [], evaluated=[]) == []  # present, too few events: not evaluated
    for minute in range(2, 6):  # 4 windows without an evaluation
        assert book.close_window(((minute - 1) * MIN, minute * MIN)) == []
    (quiet,) = book.close_window((5 * MIN, 6 * MIN))  # the 5th
    assert (quiet.status, quiet.resolve_reason, quiet.fingerprint) == (
        "resolved",
        "quiet",
        fired.fingerprint,
    )
    assert (quiet.ends_at_ms, quiet.window.start_ms, quiet.window.end_ms) == (
        6 * MIN,
        5 * MIN,
        6 * MIN,
    )
    assert (quiet.current_value, quiet.starts_at_ms) == (fired.current_value, MIN)
    assert book.firing() == [] and book.close_window((6 * MIN, 7 * MIN)) == []


def test_an_evaluation_keeps_a_firing_alert_from_going_quiet() -> None:
    book = AlertBook(cooldown_ms=15 * MIN, quiet_resolve_windows=2)
    _at(book, 1, [_low()])
    for minute in range(2, 10):  # evaluated every window, neither active nor clear
        book.evaluate(KEY, ((minute - 1) * MIN, minute * MIN), [CRIT], [], _diag, cleared=[])
        assert book.close_window(((minute - 1) * MIN, minute * MIN)) == []
    assert len(book.firing()) == 1
    assert AlertBook(cooldown_ms=0).close_window((0, MIN)) == []  # 0: never quiet
    with pytest.raises(ValueError):
        AlertBook(cooldown_ms=0, quiet_resolve_windows=-1)


def test_duplicate_or_older_windows_change_nothing() -> None:
    book = AlertBook(cooldown_ms=0)
    _at(book, 5, [_low()])
    assert _at(book, 5, [_low()]) == []
    assert _at(book, 4, []) == []  # an older window cannot resolve it
    assert len(book.firing()) == 1


def test_series_are_independent_and_foreign_conditions_rejected() -> None:
    book = AlertBook(cooldown_ms=15 * MIN)
    other: SeriesKey = (None, None, None)
    a = _at(book, 1, [_low()])
    b = book.evaluate(other, (0, MIN), [CRIT], [_low(key=other)], _diag)
    assert a[0].fingerprint != b[0].fingerprint
    assert b[0].labels == AlertLabels()
    with pytest.raises(ValueError):
        book.evaluate(other, (MIN, 2 * MIN), [CRIT], [_low()], _diag)


def test_last_condition_for_a_pair_counts() -> None:
    book = AlertBook(cooldown_ms=0)
    (alert,) = _at(book, 1, [_low(0.1), _low(0.2)])
    assert alert.current_value == 0.2


def test_diagnosis_is_computed_only_for_notifications() -> None:
    calls: list[Condition] = []

    def counting(condition: Condition) -> Diagnosis:
        calls.append(condition)
        return _diag(condition)

    book = AlertBook(cooldown_ms=15 * MIN)
    for minute in range(1, 10):
        book.evaluate(KEY, ((minute - 1) * MIN, minute * MIN), [CRIT], [_low()], counting)
    assert len(calls) == 1


def test_replay_gives_the_same_alerts() -> None:
    script: list[tuple[int, list[Condition], list[tuple[str, str]]]] = []
    for minute in range(1, 60):
        conds: list[Condition] = []
        if minute % 7 in (1, 2, 3):
            conds.append(_low(0.3 - minute / 1000))
        if minute % 11 < 5:
            conds.append(_rate("critical" if minute % 3 else "warning", 0.5))
        evaluated = [CRIT] if minute % 5 else [CRIT, RATE]
        script.append((minute, conds, evaluated))

    def run() -> list[str]:
        book = AlertBook(cooldown_ms=4 * MIN)
        out: list[str] = []
        for minute, conds, evaluated in script:
            out += [a.model_dump_json() for a in _at(book, minute, conds, evaluated)]
        return out

    first = run()
    assert first == run()
    assert any('"resolved"' in a for a in first) and any('"firing"' in a for a in first)


def test_negative_cooldown_is_rejected() -> None:
    with pytest.raises(ValueError):
        AlertBook(cooldown_ms=-1)
