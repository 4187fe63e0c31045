"""The alert state machine: which conditions fire, re-notify or resolve.

:meth:`AlertBook.evaluate` is called once per closed window of a series, with the
``(rule, metric)`` pairs evaluated on it, the active conditions and the clear pairs
(:func:`monitor.drift.conditions.evaluate_window`); :meth:`AlertBook.close_window` once per
closed tumbling window, after every series of it. Time is event time: the window end.

- An active condition that is not firing fires: a ``firing`` alert with
  ``starts_at_ms`` = window end. Its ``window`` is the closed window, or the span of
  trailing windows the rule was evaluated on (``Condition.span_start_ms`` to the end).
- An active condition that is already firing is silent, unless ``cooldown_ms`` has passed
  since its last notification (window end - last notification >= cooldown), or its
  severity changed (a rate escalating from warning to critical, or back); then it is
  re-notified: same fingerprint and ``starts_at_ms``, the new value, threshold, severity,
  message, window and diagnosis.
- A severity change of a firing alert: an escalation (warning to critical) is notified at
  once; a de-escalation only with the next re-notification due by the cooldown, so a rate
  hovering at twice its threshold does not flap between severities.
- A pair that is clear (its resolving condition holds: the value is back past the
  threshold by the resolve margin) in ``resolve_windows`` consecutive windows that
  evaluate it (default 1; a window in which it is evaluated and not clear, or active,
  starts the count again) resolves its firing alert: a ``resolved`` alert with
  ``ends_at_ms`` = window end, the window that cleared it and ``resolve_reason``
  ``recovered`` (the value, threshold and diagnosis are those of the last notification),
  and the alert is forgotten. A pair evaluated but neither active nor clear (between the
  firing and the resolving threshold) leaves its alert firing, silently: hysteresis.
  Without ``cleared`` (``None``), every evaluated pair that is not active is clear.
- A pair that was not evaluated (no baseline yet, too few events) leaves its alert firing,
  until :meth:`AlertBook.close_window` finds its series quiet for that rule: no events of
  its metric (``observed``) for ``quiet_resolve_windows`` windows, or events but too few to
  evaluate the rule for ``unevaluated_resolve_windows`` windows (window end - last such
  window end >= that many window lengths). Then it resolves with ``resolve_reason``
  ``quiet``, the closed window and ``ends_at_ms`` = its end. 0 turns either off.
- A condition that comes back after it resolved fires again at once, with a new
  ``starts_at_ms``: the cooldown only suppresses repeats of a still-firing alert.
- A window whose end is not after the last window seen for a firing alert (a duplicate or
  out-of-order window) changes nothing for that alert.
- Several conditions for one ``(rule, metric)`` in one call: the last one counts.

Nothing depends on the wall clock, on hashing order or on randomness, so replaying the same
calls into a new book gives the same alerts (the worker rebuilds its state by replay).

>>> from monitor.alerts.alert import Diagnosis
>>> from monitor.drift.conditions import Condition
>>> key = (None, None, None)
>>> low = Condition("critical_quality", "threshold", "critical", "quality.overall", key,
...                 0.3, 0.4, "Average quality score critically low")
>>> diag = lambda c: Diagnosis(perspective="retrieval", failing=["retrieval"], advice="x")
>>> pair = [("critical_quality", "quality.overall")]
>>> book = AlertBook(cooldown_ms=900_000)
>>> [a.status for a in book.evaluate(key, (0, 60_000), pair, [low], diag)]
['firing']
>>> book.evaluate(key, (60_000, 120_000), pair, [low], diag)  # within the cooldown
[]
>>> [(a.status, a.starts_at_ms, a.ends_at_ms, a.resolve_reason)
...  for a in book.evaluate(key, (120_000, 180_000), pair, [], diag, cleared=pair)]
[('resolved', 60000, 180000, 'recovered')]

A series that goes quiet:

>>> book = AlertBook(cooldown_ms=900_000, quiet_resolve_windows=2)
>>> [a.status for a in book.evaluate(key, (0, 60_000), pair, [low], diag)]
['firing']
>>> book.close_window((60_000, 120_000))  # one window without the series
[]
>>> [(a.status, a.ends_at_ms, a.resolve_reason) for a in book.close_window((120_000, 180_000))]
[('resolved', 180000, 'quiet')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis, ResolveReason
from monitor.alerts.rules.fingerprint import fingerprint
from monitor.drift.conditions import Condition, RulePair
from monitor.drift.stats import SeriesKey

__all__ = ["AlertBook", "alert_labels"]


def alert_labels(key: SeriesKey) -> AlertLabels:
    """The ``labels`` of an alert about series ``key``."""
    variant, tenant, application = key
    return AlertLabels(variant=variant, tenant=tenant, application=application)


_SEVERITY_RANK = {"warning": 0, "critical": 1}


@dataclass
class _Firing:
    alert: Alert  # the last notification
    notified_ms: int  # window end of the last notification
    seen_ms: int  # window end of the last window that evaluated it
    observed_ms: int  # window end of the last window with events of its metric
    evaluated_ms: int  # window end of the last window that evaluated it (never rewound)
    clear_streak: int = 0  # consecutive evaluating windows in which it was clear


class AlertBook:
    """Firing alerts by fingerprint, with the cooldown between re-notifications."""

    def __init__(
        self,
        cooldown_ms: int,
        quiet_resolve_windows: int = 0,
        unevaluated_resolve_windows: int = 0,
        resolve_windows: int = 1,
    ) -> None:
        if cooldown_ms < 0:
            raise ValueError("cooldown_ms must be >= 0")
        if resolve_windows < 1:
            raise ValueError("resolve_windows must be >= 1")
        self._resolve_windows = resolve_windows
        if min(quiet_resolve_windows, unevaluated_resolve_windows) < 0:
            raise ValueError("quiet_resolve_windows and unevaluated_resolve_windows must be >= 0")
        self._cooldown_ms = cooldown_ms
        self._quiet_resolve_windows = quiet_resolve_windows
        self._unevaluated_resolve_windows = unevaluated_resolve_windows
        self._firing: dict[str, _Firing] = {}

    @property
    def cooldown_ms(self) -> int:
        return self._cooldown_ms

    def firing(self) -> list[Alert]:
        """The last notification of every firing alert, by fingerprint."""
        return [self._firing[fp].alert for fp in sorted(self._firing)]

    def evaluate(
        self,
        key: SeriesKey,
        window: tuple[int, int],
        evaluated: Iterable[RulePair],
        conditions: Sequence[Condition],
        diagnosis_for: Callable[[Condition], Diagnosis],
        cleared: Iterable[RulePair] | None = None,
        observed: Iterable[RulePair] | None = None,
    ) -> list[Alert]:
        """The alerts to send for the window ``[start, end)`` of series ``key``.

        ``diagnosis_for`` is called only for the conditions that are notified. ``cleared``
        are the evaluated pairs whose resolving condition holds (``None``: every evaluated
        pair that is not active). ``observed`` are the pairs whose metric had events in the
        window (``None``: the evaluated ones). Raises ``ValueError`` when a condition
        belongs to another series.
        """
        start_ms, end_ms = window
        span = AlertWindow(start_ms=start_ms, end_ms=end_ms)
        labels = alert_labels(key)
        active: dict[RulePair, Condition] = {}
        for condition in conditions:
            if condition.key != key:
                raise ValueError(f"condition {condition.pair} is for {condition.key}, not {key}")
            active[condition.pair] = condition

        out: list[Alert] = []
        for (rule, metric), condition in active.items():
            fp = fingerprint(rule, metric, key)
            state = self._firing.get(fp)
            if state is None:
                alert = _alert(fp, condition, labels, span, end_ms, diagnosis_for(condition))
                self._firing[fp] = _Firing(alert, end_ms, end_ms, end_ms, end_ms)
                out.append(alert)
                continue
            if end_ms <= state.seen_ms:
                continue
            state.seen_ms, state.clear_streak = end_ms, 0
            due = end_ms - state.notified_ms >= self._cooldown_ms
            rank = _SEVERITY_RANK[condition.severity]
            if due or rank > _SEVERITY_RANK[state.alert.severity]:
                alert = _alert(
                    fp,
                    condition,
                    labels,
                    span,
                    state.alert.starts_at_ms,
                    diagnosis_for(condition),
                )
                state.alert, state.notified_ms = alert, end_ms
                out.append(alert)

        evaluated = list(dict.fromkeys(evaluated))
        for pair in [*evaluated, *(evaluated if observed is None else observed)]:
            state = self._firing.get(fingerprint(pair[0], pair[1], key))
            if state is not None:
                state.observed_ms = max(state.observed_ms, end_ms)
        for pair in evaluated:
            state = self._firing.get(fingerprint(pair[0], pair[1], key))
            if state is not None:
                state.evaluated_ms = max(state.evaluated_ms, end_ms)

        clear = None if cleared is None else set(cleared)
        for pair in evaluated:
            if pair in active:
                continue
            fp = fingerprint(pair[0], pair[1], key)
            state = self._firing.get(fp)
            if state is None or end_ms <= state.seen_ms:
                continue
            state.seen_ms = end_ms
            if clear is not None and pair not in clear:
                state.clear_streak = 0  # between the firing and the resolving threshold
                continue
            state.clear_streak += 1
            if state.clear_streak < self._resolve_windows:
                continue
            del self._firing[fp]
            out.append(_resolved(state.alert, span, end_ms, "recovered"))
        return out

    def close_window(self, window: tuple[int, int]) -> list[Alert]:
        """The ``quiet`` resolutions at the close of the tumbling window ``[start, end)``,
        by fingerprint: every firing alert whose series had no events of its metric for
        ``quiet_resolve_windows`` window lengths before ``end``, or did not evaluate its
        rule for ``unevaluated_resolve_windows`` window lengths."""
        start_ms, end_ms = window
        length = end_ms - start_ms
        quiet_ms = self._quiet_resolve_windows * length or None
        unevaluated_ms = self._unevaluated_resolve_windows * length or None
        span = AlertWindow(start_ms=start_ms, end_ms=end_ms)
        out: list[Alert] = []
        for fp in sorted(self._firing):
            state = self._firing[fp]
            if (quiet_ms is not None and end_ms - state.observed_ms >= quiet_ms) or (
                unevaluated_ms is not None and end_ms - state.evaluated_ms >= unevaluated_ms
            ):
                del self._firing[fp]
                out.append(_resolved(state.alert, span, end_ms, "quiet"))
        return out


def _resolved(alert: Alert, window: AlertWindow, end_ms: int, reason: ResolveReason) -> Alert:
    update = {"status": "resolved", "window": window, "ends_at_ms": end_ms}
    return alert.model_copy(update=update | {"resolve_reason": reason})


def _alert(
    fp: str,
    condition: Condition,
    labels: AlertLabels,
    window: AlertWindow,
    starts_at_ms: int,
    diagnosis: Diagnosis,
) -> Alert:
    if condition.span_start_ms is not None:  # evaluated over a span of trailing windows
        window = AlertWindow(start_ms=condition.span_start_ms, end_ms=window.end_ms)
    return Alert(
        fingerprint=fp,
        status="firing",
        type=condition.type,
        severity=condition.severity,
        rule=condition.rule,
        message=condition.message,
        metric=condition.metric,
        current_value=condition.current_value,
        threshold=condition.threshold,
        labels=labels,
        window=window,
        starts_at_ms=starts_at_ms,
        diagnosis=diagnosis,
    )
