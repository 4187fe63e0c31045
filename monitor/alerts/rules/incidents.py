"""One incident, one page: the firing conditions of a closed window grouped into incidents.

The :class:`~monitor.alerts.rules.alert_book.AlertBook` keeps one alert per condition
(rule, metric, series), with its own fire / re-notify / resolve rules. One cause raises many
of them at once: the roll-ups (whole traffic, each variant, tenant and application) all hold
the same events, spec 000's composite falls with its sub-scores, and several rules watch one
metric. :class:`IncidentBook` runs after the alert book on every closed tumbling window, with
every condition alert still firing, and turns them into one notification per incident.

**Grouping.** Firing conditions share a cause when their metrics are of the same *cause
class* (:func:`cause_of`): ``safety`` (the safety perspective: injection, leakage, blocked
answers), ``pipeline`` (latencies, dead letters) or ``quality`` (everything else: spec
000's composite and sub-scores, CRAG, context quality, grounding, abstention, no results),
whatever their series and rule. Each class has at most one open incident.

**The series named.** An incident names the most specific series that explains it
(:func:`explaining_series`): among the single-label roll-ups with a condition, one value of
a label (``variant=treatment``) that is the only value of that label with a condition
while another value of the same label had events in the window and none (``control``
fine); of several such, the one with the fewest events in the window. Otherwise (every
variant degraded, a single value per label, one event in the window) it names the whole
traffic, or, when the whole traffic has no condition, the series with the most conditions.

**The notification.** Its fields (rule, type, message, metric, value, threshold, labels)
are those of its *leading* condition: the most severe; then on the series named; then by
rule (``critical_quality``, ``rate:*``, ``degradation``, ``latency_p95:*``, change points);
then by metric (``quality.overall`` first, then the order of ``METRIC_IDS``). Its severity
is therefore the highest of the incident. ``related`` lists every other condition of the
incident, sorted by series, rule and metric. The diagnosis is asked for the series named
with the metrics of the incident (and, for a quality incident, the safety metrics firing in
the same window: a safety rate that has risen with evidence wins the diagnosis).

**Lifecycle.** The first window of an incident sends a ``firing`` notification whose
fingerprint is the leading condition's; the incident keeps that fingerprint and
``starts_at_ms`` while any condition of its class fires. A later window is silent unless
the severity changed (re-notified at once) or ``cooldown_ms`` passed since the last
notification (re-notified with the current leading condition, related list and
diagnosis). The window in which no condition of the class fires any more (the alert book
resolved them all) sends one ``resolved`` notification: the last one with status
``resolved``, that window, and ``ends_at_ms`` = its end. A window that is not after the last
one seen changes nothing. Pure and deterministic, like the alert book: replaying the same
windows into a new book gives the same notifications.

>>> from monitor.alerts.alert import AlertWindow, Diagnosis
>>> from monitor.alerts.rules import alert_labels, fingerprint
>>> def firing(rule, metric, variant, tenant, value, severity="warning"):
...     key = (variant, tenant, None)
...     return Alert(fingerprint=fingerprint(rule, metric, key), status="firing",
...         type="degradation", severity=severity, rule=rule, message="m", metric=metric,
...         current_value=value, threshold=0.6, labels=alert_labels(key),
...         window=AlertWindow(start_ms=0, end_ms=60_000), starts_at_ms=60_000,
...         diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="a"))
>>> conditions = [firing("degradation", "quality.overall", None, None, 0.5),
...               firing("degradation", "quality.overall", "treatment", None, 0.3),
...               firing("degradation", "quality.overall", None, "acme", 0.5)]
>>> traffic = {(None, None, None): 100, ("treatment", None, None): 50,
...            ("control", None, None): 50, (None, "acme", None): 100}
>>> diag = lambda key, metrics, also: Diagnosis(perspective="retrieval", failing=["retrieval"],
...                                       advice="check the retriever")
>>> book = IncidentBook(cooldown_ms=900_000)
>>> [page] = book.update((0, 60_000), conditions, traffic, diag)
>>> page.status, page.labels.variant, [(r.labels.variant, r.labels.tenant) for r in page.related]
('firing', 'treatment', [(None, None), (None, 'acme')])
>>> book.update((60_000, 120_000), conditions, traffic, diag)  # still firing: silent
[]
>>> [(a.status, a.fingerprint == page.fingerprint, a.ends_at_ms)
...  for a in book.update((120_000, 180_000), [], traffic, diag)]
[('resolved', True, 180000)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from monitor.alerts.alert import Alert, AlertWindow, Diagnosis, RelatedCondition
from monitor.alerts.rules.diagnosis import perspective_of
from monitor.drift.stats import ALL_TRAFFIC, SeriesKey
from monitor.windows.metric_ids import METRIC_IDS

__all__ = [
    "CAUSE_CLASSES",
    "CauseClass",
    "IncidentBook",
    "cause_of",
    "explaining_series",
    "series_key",
]

CauseClass = Literal["safety", "pipeline", "quality"]
CAUSE_CLASSES: tuple[CauseClass, ...] = ("safety", "pipeline", "quality")
"""In the order their notifications of one window are sent."""

_SEVERITY_RANK = {"critical": 0, "warning": 1}


def cause_of(metric: str) -> CauseClass:
    """The cause class of a metric id.

    >>> cause_of("safety.injection.blocked"), cause_of("latency_ms.total")
    ('safety', 'pipeline')
    >>> cause_of("quality.retrieval_confidence"), cause_of("grounding.claim_support_rate")
    ('quality', 'quality')
    """
    perspective = perspective_of(metric)
    if perspective == "safety":
        return "safety"
    if perspective == "pipeline":
        return "pipeline"
    return "quality"


def series_key(alert: Alert | RelatedCondition) -> SeriesKey:
    """The series of an alert, as ``(variant, tenant, application)``."""
    labels = alert.labels
    return (labels.variant, labels.tenant, labels.application)


def _dimension(key: SeriesKey) -> int | None:
    """The label a single-label roll-up is about (0 variant, 1 tenant, 2 application)."""
    set_ = [i for i, value in enumerate(key) if value is not None]
    return set_[0] if len(set_) == 1 else None


def explaining_series(keys: Sequence[SeriesKey], traffic: Mapping[SeriesKey, int]) -> SeriesKey:
    """The most specific series that explains conditions on ``keys``.

    ``traffic`` maps each series of the window to its number of events.

    >>> t = {(None, None, None): 10, ("a", None, None): 6, ("b", None, None): 4}
    >>> explaining_series([(None, None, None), ("a", None, None)], t)
    ('a', None, None)
    >>> explaining_series([(None, None, None), ("a", None, None), ("b", None, None)], t)
    (None, None, None)
    """
    distinct = list(dict.fromkeys(keys))
    if len(distinct) == 1:
        return distinct[0]
    candidates: list[tuple[int, int, SeriesKey]] = []
    for dim in range(3):
        named = [k for k in distinct if _dimension(k) == dim]
        if len(named) != 1:
            continue
        healthy = [k for k in traffic if _dimension(k) == dim and k not in distinct]
        if any(traffic[k] > 0 for k in healthy):
            candidates.append((traffic.get(named[0], 0), dim, named[0]))
    if candidates:
        return min(candidates)[2]
    if ALL_TRAFFIC in distinct:
        return ALL_TRAFFIC
    counts = {k: keys.count(k) for k in distinct}
    return min(distinct, key=lambda k: (-counts[k], -traffic.get(k, 0), repr(k)))


def _rule_rank(rule: str) -> int:
    if rule == "critical_quality":
        return 0
    for rank, prefix in enumerate(("rate:", "degradation", "latency_p95:"), start=1):
        if rule.startswith(prefix):
            return rank
    return 4


def _metric_rank(metric: str) -> int:
    return METRIC_IDS.index(metric) if metric in METRIC_IDS else len(METRIC_IDS)


def _leading(members: Sequence[Alert], named: SeriesKey) -> Alert:
    return min(
        members,
        key=lambda a: (
            _SEVERITY_RANK[a.severity],
            series_key(a) != named,
            _rule_rank(a.rule),
            _metric_rank(a.metric),
            a.rule,
            a.metric,
            repr(series_key(a)),
        ),
    )


def _related(members: Sequence[Alert], lead: Alert) -> list[RelatedCondition]:
    others = [a for a in members if a.fingerprint != lead.fingerprint]
    others.sort(
        key=lambda a: (
            sum(v is not None for v in series_key(a)),
            repr(series_key(a)),
            _rule_rank(a.rule),
            _metric_rank(a.metric),
            a.rule,
            a.metric,
        )
    )
    return [
        RelatedCondition(
            rule=a.rule,
            metric=a.metric,
            severity=a.severity,
            labels=a.labels,
            current_value=a.current_value,
            threshold=a.threshold,
        )
        for a in others
    ]


@dataclass
class _Open:
    alert: Alert  # the last notification
    notified_ms: int
    seen_ms: int


DiagnosisFor = Callable[[SeriesKey, Sequence[str], Sequence[str]], Diagnosis]
"""``(series named, metrics of the incident, safety metrics firing elsewhere in the window)
-> Diagnosis``."""


class IncidentBook:
    """The open incident of each cause class, with the cooldown between re-notifications."""

    def __init__(self, cooldown_ms: int) -> None:
        if cooldown_ms < 0:
            raise ValueError("cooldown_ms must be >= 0")
        self._cooldown_ms = cooldown_ms
        self._open: dict[CauseClass, _Open] = {}

    def open(self) -> list[Alert]:
        """The last notification of every open incident, in class order."""
        return [self._open[c].alert for c in CAUSE_CLASSES if c in self._open]

    def update(
        self,
        window: tuple[int, int],
        firing: Sequence[Alert],
        traffic: Mapping[SeriesKey, int],
        diagnosis_for: DiagnosisFor,
        resolved: Sequence[Alert] = (),
    ) -> list[Alert]:
        """The notifications for the window ``[start, end)``.

        ``firing`` are the condition alerts firing after the alert book evaluated the
        window (:meth:`AlertBook.firing`); ``traffic`` the events per series in the window;
        ``resolved`` the condition alerts the window resolved, whose reasons give the
        incident's (``quiet`` when every one of its cause went quiet, else ``recovered``).
        """
        start_ms, end_ms = window
        span = AlertWindow(start_ms=start_ms, end_ms=end_ms)
        groups: dict[CauseClass, list[Alert]] = {}
        for alert in firing:
            if alert.status == "firing":
                groups.setdefault(cause_of(alert.metric), []).append(alert)
        safety = [a.metric for a in groups.get("safety", [])]

        out: list[Alert] = []
        for cause in CAUSE_CLASSES:
            members = groups.get(cause, [])
            state = self._open.get(cause)
            if state is not None and end_ms <= state.seen_ms:
                continue
            if not members:
                if state is not None:
                    del self._open[cause]
                    reasons = {a.resolve_reason for a in resolved if cause_of(a.metric) == cause}
                    update = {
                        "status": "resolved",
                        "window": span,
                        "ends_at_ms": end_ms,
                        "resolve_reason": "quiet" if reasons == {"quiet"} else "recovered",
                    }
                    out.append(state.alert.model_copy(update=update))
                continue
            named = explaining_series([series_key(a) for a in members], traffic)
            lead = _leading(members, named)
            if state is not None:
                state.seen_ms = end_ms
                due = end_ms - state.notified_ms >= self._cooldown_ms
                if not due and lead.severity == state.alert.severity:
                    continue
            metrics = list(dict.fromkeys([lead.metric, *(a.metric for a in members)]))
            also = list(dict.fromkeys(safety)) if cause == "quality" else []
            diagnosis = diagnosis_for(series_key(lead), metrics, also)
            fp, starts = (
                (lead.fingerprint, end_ms)
                if state is None
                else (state.alert.fingerprint, state.alert.starts_at_ms)
            )
            alert = lead.model_copy(
                update={
                    "fingerprint": fp,
                    "status": "firing",
                    "window": span,
                    "starts_at_ms": starts,
                    "ends_at_ms": None,
                    "diagnosis": diagnosis,
                    "related": _related(members, lead),
                }
            )
            if state is None:
                self._open[cause] = _Open(alert, end_ms, end_ms)
            else:
                state.alert, state.notified_ms = alert, end_ms
            out.append(alert)
        return out
