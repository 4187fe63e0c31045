"""The ``Alert`` message of ``rag.alerts.v1`` (DESIGN section 7).

``type``, ``severity``, ``message``, ``metric``, ``current_value`` and ``threshold`` are
spec 000's ``QualityAlert`` fields in snake_case. ``rule`` names the rule that fired and,
with ``metric`` and ``labels``, makes the ``fingerprint``. ``labels`` values are ``None``
when the alert is about every value of that label (a roll-up). A ``resolved`` alert says
why in ``resolve_reason`` (optional, ``None`` on firing ones): ``recovered`` (the value is
back past its threshold by the resolve margin) or ``quiet`` (the series had no events of
the rule's metric for ``alert_quiet_resolve_windows`` windows). No alert ever carries a
query, a response, an event id or any other text out of an event.

One notification stands for one incident (:mod:`monitor.alerts.rules.incidents`): its own
fields name the most specific series and the leading condition, and ``related`` lists the
other conditions of the same incident (other roll-ups, sub-scores, rules), each with its
rule, metric, series, value and threshold. ``related`` is empty for an incident of one
condition, and in every message of a worker that does not group (``alert_grouping``
False); older consumers that ignore it read the same alert as before.

>>> a = Alert(fingerprint="f", status="firing", type="threshold", severity="critical",
...           rule="critical_quality", message="Average quality score critically low",
...           metric="quality.overall", current_value=0.31, threshold=0.4,
...           labels=AlertLabels(variant="treatment"),
...           window=AlertWindow(start_ms=0, end_ms=60_000), starts_at_ms=60_000,
...           diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"],
...                               advice="check the retriever"))
>>> a.labels.tenant is None, a.ends_at_ms is None, a.related
(True, True, [])
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
    "RelatedCondition",
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


class RelatedCondition(BaseModel):
    """Another active condition of the same incident (a roll-up, a sub-score, a rule)."""

    model_config = _STRICT
    rule: str
    metric: str
    severity: Literal["warning", "critical"]
    labels: AlertLabels
    current_value: float
    threshold: float


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
    related: list[RelatedCondition] = []
    resolve_reason: ResolveReason | None = None
