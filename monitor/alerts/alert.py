"""The ``Alert`` message of ``rag.alerts.v1`` (DESIGN section 7).

``type``, ``severity``, ``message``, ``metric``, ``current_value`` and ``threshold`` are
spec 000's ``QualityAlert`` fields in snake_case. ``rule`` names the rule that fired and,
with ``metric`` and ``labels``, makes the ``fingerprint``. ``labels`` values are ``None``
when the alert is about every value of that label (a roll-up). A ``resolved`` alert says
why in ``resolve_reason`` (optional, ``None`` on firing ones): ``recovered`` (the value is
back past its threshold by the resolve margin) or ``quiet`` (the series had no events of
the rule's metric for ``alert_quiet_resolve_windows`` windows). No alert ever carries a
query, a response, an event id or any other text out of an event.

>>> a = Alert(fingerprint="f", status="firing", type="threshold", severity="critical",
...           rule="critical_quality", message="Average quality score critically low",
...           metric="quality.overall", current_value=0.31, threshold=0.4,
...           labels=AlertLabels(variant="treatment"),
...           window=AlertWindow(start_ms=0, end_ms=60_000), starts_at_ms=60_000,
...           diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"],
...                               advice="check the retriever"))
>>> a.labels.tenant is None, a.ends_at_ms is None
(True, True)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from monitor.windows.metric_ids import Perspective

__all__ = [
    "Alert",
    "AlertLabels",
    "AlertStatus",
    "AlertWindow",
    "Diagnosis",
    "Perspective",
    "ResolveReason",
]

AlertStatus = Literal["firing", "resolved"]
ResolveReason = Literal["recovered", "quiet"]

_STRICT = ConfigDict(extra="forbid", frozen=True)


class AlertLabels(BaseModel):
    model_config = _STRICT
    variant: str | None = None
    tenant: str | None = None
    application: str | None = None


class AlertWindow(BaseModel):
    """The closed window the condition was evaluated on, half-open ``[start_ms, end_ms)``."""

    model_config = _STRICT
    start_ms: int
    end_ms: int


class Diagnosis(BaseModel):
    """Which perspective (spec 003) is failing, which look healthy, and what to look at."""

    model_config = _STRICT
    perspective: Perspective
    failing: list[Perspective]
    healthy: list[Perspective] = []
    advice: str


class Alert(BaseModel):
    model_config = _STRICT
    fingerprint: str
    status: AlertStatus
    type: Literal["degradation", "anomaly", "threshold"]
    severity: Literal["warning", "critical"]
    rule: str
    message: str
    metric: str
    current_value: float
    threshold: float
    labels: AlertLabels
    window: AlertWindow
    starts_at_ms: int
    ends_at_ms: int | None = None
    diagnosis: Diagnosis
    resolve_reason: ResolveReason | None = None
