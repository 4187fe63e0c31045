"""Counters of alert delivery, per endpoint ``name`` (never its URL), for health and metrics.

The delivery consumers (:mod:`monitor.stream.alert_delivery`) write them; the Prometheus
layer and the health endpoint read them. Counters only grow; gauges (``lag``,
``consecutive_failures``) are the latest value.

>>> from monitor.alerts.sender import SendResult
>>> stats = DeliveryStats()
>>> stats.record("oncall", SendResult("retry", "connect"))
>>> stats.record("oncall", SendResult("delivered", "ok", status=200))
>>> stats.record("oncall", SendResult("rejected", "http_4xx", status=400))
>>> stats.as_dict()["oncall"]
{'delivered': 1, 'rejected': 1, 'invalid': 0, 'failed_attempts': {'connect': 1}, \
'consecutive_failures': 0, 'lag': 0}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from monitor.alerts.sender import SendResult

__all__ = ["DeliveryStats"]


@dataclass
class DeliveryStats:
    """Counts keyed by endpoint name; ``failed`` is keyed by ``(endpoint name, reason)``.

    ``failed`` counts attempts that will be retried (reasons ``connect``, ``timeout``,
    ``network``, ``http_5xx``, ``http_429``, ``http_408``, ``bad_url``); ``rejected`` counts
    alerts an endpoint refused for good (any other 3xx/4xx), ``rejected_by_reason`` splits
    them; ``invalid`` counts records of the alerts topic that are not an ``Alert``.
    ``lag`` is how many records of the alerts topic the endpoint has not been sent yet.
    """

    delivered: Counter[str] = field(default_factory=Counter)
    failed: Counter[tuple[str, str]] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    rejected_by_reason: Counter[tuple[str, str]] = field(default_factory=Counter)
    invalid: Counter[str] = field(default_factory=Counter)
    consecutive_failures: dict[str, int] = field(default_factory=dict)
    lag: dict[str, int] = field(default_factory=dict)
    last_delivered_ms: dict[str, int] = field(default_factory=dict)

    def record(self, endpoint: str, result: SendResult, *, now_ms: int | None = None) -> None:
        """Count one attempt's ``result`` for the endpoint named ``endpoint``."""
        if result.outcome == "retry":
            self.failed[endpoint, result.reason] += 1
            self.consecutive_failures[endpoint] = self.consecutive_failures.get(endpoint, 0) + 1
            return
        self.consecutive_failures[endpoint] = 0
        if result.outcome == "delivered":
            self.delivered[endpoint] += 1
            if now_ms is not None:
                self.last_delivered_ms[endpoint] = now_ms
        else:
            self.rejected[endpoint] += 1
            self.rejected_by_reason[endpoint, result.reason] += 1

    def endpoints(self) -> list[str]:
        """Every endpoint name seen so far, sorted."""
        names = set(self.delivered) | set(self.rejected) | set(self.invalid) | set(self.lag)
        names |= {name for name, _ in self.failed} | set(self.consecutive_failures)
        return sorted(names)

    def as_dict(self) -> dict[str, dict[str, Any]]:
        """JSON-ready, one entry per endpoint name."""
        return {
            name: {
                "delivered": self.delivered[name],
                "rejected": self.rejected[name],
                "invalid": self.invalid[name],
                "failed_attempts": {
                    reason: count for (n, reason), count in sorted(self.failed.items()) if n == name
                },
                "consecutive_failures": self.consecutive_failures.get(name, 0),
                "lag": self.lag.get(name, 0),
            }
            for name in self.endpoints()
        }
