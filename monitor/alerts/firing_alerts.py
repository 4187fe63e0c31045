"""The firing alerts one Alertmanager endpoint holds, re-sent periodically.

Alertmanager's convention (Prometheus follows it): a client re-sends every alert that
still fires, each time with ``endsAt`` a little in the future, so that the alerts of a
client that died expire by themselves. :class:`FiringAlerts` is that client state for
one endpoint: :meth:`FiringAlerts.note` is called with every alert the endpoint accepted
(a firing one is held, by fingerprint, in its latest version; a resolved one is
forgotten), and :meth:`FiringAlerts.due` returns them all every ``resend_s`` seconds of
the caller's clock (wall or monotonic: delivery-side time, not event time).

>>> from monitor.alerts.alert import AlertLabels, AlertWindow, Diagnosis
>>> alert = Alert(fingerprint="f1", status="firing", type="threshold", severity="critical",
...     rule="critical_quality", message="m", metric="quality.overall", current_value=0.3,
...     threshold=0.4, labels=AlertLabels(), window=AlertWindow(start_ms=0, end_ms=60_000),
...     starts_at_ms=60_000, diagnosis=Diagnosis(perspective="retrieval",
...     failing=["retrieval"], advice="a"))
>>> held = FiringAlerts(resend_s=60.0, now_s=0.0)
>>> held.note(alert)
>>> held.due(now_s=30.0), [a.fingerprint for a in held.due(now_s=60.0)], held.due(now_s=61.0)
([], ['f1'], [])
>>> held.note(alert.model_copy(update={"status": "resolved", "ends_at_ms": 120_000}))
>>> held.due(now_s=500.0), len(held)
([], 0)
"""

from __future__ import annotations

from monitor.alerts.alert import Alert

__all__ = ["FiringAlerts"]


class FiringAlerts:
    """The latest version of every firing alert an endpoint accepted, and the re-send clock."""

    def __init__(self, resend_s: float, now_s: float) -> None:
        if resend_s <= 0:
            raise ValueError("resend_s must be > 0")
        self._resend_s = resend_s
        self._last_s = now_s
        self._alerts: dict[str, Alert] = {}

    def __len__(self) -> int:
        return len(self._alerts)

    def note(self, alert: Alert) -> None:
        """Hold a firing alert (replacing an older version); forget a resolved one."""
        if alert.status == "firing":
            self._alerts[alert.fingerprint] = alert
        else:
            self._alerts.pop(alert.fingerprint, None)

    def due(self, now_s: float) -> list[Alert]:
        """Every held alert (by fingerprint) once ``resend_s`` has passed since the last
        round; else nothing."""
        if now_s - self._last_s < self._resend_s:
            return []
        self._last_s = now_s
        return [self._alerts[fp] for fp in sorted(self._alerts)]
