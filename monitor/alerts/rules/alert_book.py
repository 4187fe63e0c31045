"""The alert state machine: which conditions fire, re-notify or resolve.

:meth:`AlertBook.evaluate` is called once per closed window of a series, with the
``(rule, metric)`` pairs evaluated on it and the active conditions
(:func:`monitor.drift.conditions.evaluate_window`). Time is event time: the window end.

- An active condition that is not firing fires: a ``firing`` alert with
  ``starts_at_ms`` = window end.
- An active condition that is already firing is silent, unless ``cooldown_ms`` has passed
  since its last notification (window end - last notification >= cooldown), or its
  severity changed (a rate escalating from warning to critical, or back); then it is
  re-notified: same fingerprint and ``starts_at_ms``, the new value, threshold, severity,
  message, window and diagnosis.
- An evaluated pair whose alert is firing but whose condition is not active resolves: a
  ``resolved`` alert with ``ends_at_ms`` = window end and the window that cleared it (the
  value, threshold and diagnosis are those of the last notification), and the alert is
  forgotten. A pair that was not evaluated (no baseline yet, too few events) leaves its
  alert firing.
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
>>> [(a.status, a.starts_at_ms, a.ends_at_ms) for a in book.evaluate(key, (120_000, 180_000),
...                                                                     pair, [], diag)]
[('resolved', 60000, 180000)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.alerts.rules.fingerprint import fingerprint
from monitor.drift.conditions import Condition, RulePair
from monitor.drift.stats import SeriesKey

__all__ = ["AlertBook", "alert_labels"]


def alert_labels(key: SeriesKey) -> AlertLabels:
    """The ``labels`` of an alert about series ``key``."""
    variant, tenant, application = key
    return AlertLabels(variant=variant, tenant=tenant, application=application)


@dataclass
class _Firing:
    alert: Alert  # the last notification
    notified_ms: int  # window end of the last notification
    seen_ms: int  # window end of the last window that evaluated it


class AlertBook:
    """Firing alerts by fingerprint, with the cooldown between re-notifications."""

    def __init__(self, cooldown_ms: int) -> None:
        if cooldown_ms < 0:
            raise ValueError("cooldown_ms must be >= 0")
        self._cooldown_ms = cooldown_ms
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
    ) -> list[Alert]:
        """The alerts to send for the window ``[start, end)`` of series ``key``.

        ``diagnosis_for`` is called only for the conditions that are notified.
        Raises ``ValueError`` when a condition belongs to another series.
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
                self._firing[fp] = _Firing(alert, end_ms, end_ms)
                out.append(alert)
                continue
            if end_ms <= state.seen_ms:
                continue
            state.seen_ms = end_ms
            due = end_ms - state.notified_ms >= self._cooldown_ms
            if due or condition.severity != state.alert.severity:
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

        for pair in dict.fromkeys(evaluated):
            if pair in active:
                continue
            fp = fingerprint(pair[0], pair[1], key)
            state = self._firing.get(fp)
            if state is None or end_ms <= state.seen_ms:
                continue
            del self._firing[fp]
            out.append(
                state.alert.model_copy(
                    update={"status": "resolved", "window": span, "ends_at_ms": end_ms}
                )
            )
        return out


def _alert(
    fp: str,
    condition: Condition,
    labels: AlertLabels,
    window: AlertWindow,
    starts_at_ms: int,
    diagnosis: Diagnosis,
) -> Alert:
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
