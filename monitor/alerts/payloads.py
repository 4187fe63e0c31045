"""The three delivery formats of an :class:`~monitor.alerts.alert.Alert` (DESIGN section 7).

* ``generic``: the Alert JSON itself, exactly as on ``rag.alerts.v1`` (signed by the sender).
* ``alertmanager``: a one-element JSON list for Alertmanager's ``POST /api/v2/alerts``.
  Labels identify the alert (the same for its firing and its resolved message, so
  Alertmanager matches them): ``alertname`` (``RagMonitor`` + the rule in CamelCase),
  ``severity``, ``type``, ``metric``, ``rule``, ``fingerprint`` and the ``variant``,
  ``tenant`` and ``application`` that are set. Values are always strings.
  ``startsAt`` is the alert's start. Alertmanager's convention, as Prometheus follows it:
  a firing alert carries ``endsAt`` a little in the future (send time +
  ``firing_ttl_ms``, :data:`DEFAULT_FIRING_TTL_MS` = 4 minutes unless the caller says
  otherwise), and the sender re-sends it while it fires
  (:mod:`monitor.stream.alert_delivery`, every ``alertmanager_resend_s``), so an alert
  whose sender died expires by itself; a resolved one carries ``endsAt`` = ``ends_at_ms``
  and, when known, a ``resolve_reason`` annotation (``recovered`` or ``quiet``).
  Annotations: ``summary`` (the alert's message), ``description`` (metric, value against
  threshold, window), ``runbook_url`` (``runbook_base_url`` + ``/`` + the alertname,
  :class:`AlertLinks`), ``dashboard_url`` and the diagnosis. ``generatorURL`` (the link
  Alertmanager shows as the alert's source) is the Grafana dashboard on the alert's window,
  metric and variant.
* ``slack``: an incoming-webhook message with a plain ``text`` line (no emoji), with
  ``&``, ``<`` and ``>`` escaped as Slack requires.

An incident's other conditions (``Alert.related``, :mod:`monitor.alerts.rules.incidents`)
travel in every format: the generic JSON has the list itself; Alertmanager gets them in
annotations only (``related_count`` and ``related``, one condition per line, at most
:data:`RELATED_LIMIT` of them and then ``... and N more``), so its labels stay the
low-cardinality identity of the incident; Slack adds the same lines after the advice.

Every string taken from an alert (labels come from event data) loses control characters
and lone surrogates before it is put in a payload or a terminal line.

>>> from monitor.alerts.alert import AlertLabels, AlertWindow, Diagnosis
>>> alert = Alert(fingerprint="f1", status="firing", type="threshold", severity="critical",
...     rule="critical_quality", message="Average quality score critically low",
...     metric="quality.overall", current_value=0.31, threshold=0.4,
...     labels=AlertLabels(variant="treatment"), window=AlertWindow(start_ms=0, end_ms=60_000),
...     starts_at_ms=60_000, diagnosis=Diagnosis(perspective="retrieval",
...     failing=["retrieval"], advice="check the retriever"))
>>> alert_line(alert)
'[FIRING] critical threshold quality.overall: current 0.31 < threshold 0.40 (variant=treatment)'
>>> import json
>>> [am] = json.loads(alertmanager_payload(alert))
>>> am["labels"]["alertname"], am["labels"]["variant"], am["startsAt"]
('RagMonitorCriticalQuality', 'treatment', '1970-01-01T00:01:00.000Z')
>>> [am] = json.loads(alertmanager_payload(alert, now_ms=120_000, firing_ttl_ms=240_000))
>>> am["endsAt"]  # sent at 2 min: expires at 6 min unless re-sent
'1970-01-01T00:06:00.000Z'
>>> json.loads(slack_payload(alert))["text"].split(" — ")[0]
'[FIRING] critical threshold quality.overall: current 0.31 &lt; threshold 0.40 (variant=treatment)'
>>> am["annotations"]["runbook_url"]
'https://runbooks.invalid/ragmon/RagMonitorCriticalQuality'
>>> am["generatorURL"]
'http://127.0.0.1:3000/d/ragmon-overview/ragmon?from=0&to=60000&var-metric=quality.overall&var-variant=treatment'
>>> from monitor.alerts.alert import RelatedCondition
>>> grouped = alert.model_copy(update={"related": [RelatedCondition(rule="degradation",
...     metric="quality.overall", severity="warning", labels=AlertLabels(),
...     current_value=0.55, threshold=0.68)]})
>>> related_lines(grouped)
['warning degradation quality.overall: current 0.55 < threshold 0.68 (whole traffic)']
>>> [am] = json.loads(alertmanager_payload(grouped))
>>> am["annotations"]["related_count"], am["annotations"]["related"] == related_lines(grouped)[0]
('1', True)
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote, urlencode

from monitor.alerts.alert import Alert, RelatedCondition
from monitor.alerts.endpoint import EndpointKind

__all__ = [
    "DEFAULT_DASHBOARD_URL",
    "DEFAULT_FIRING_TTL_MS",
    "DEFAULT_RUNBOOK_BASE_URL",
    "RELATED_LIMIT",
    "AlertLinks",
    "alert_line",
    "alertmanager_payload",
    "generic_payload",
    "payload_for",
    "related_lines",
    "rfc3339",
    "slack_payload",
]

RELATED_LIMIT = 20
"""The most related conditions spelled out in an Alertmanager annotation or a Slack text."""
DEFAULT_FIRING_TTL_MS = 240_000
DEFAULT_RUNBOOK_BASE_URL = "https://runbooks.invalid/ragmon"
"""A placeholder (``.invalid`` never resolves): set ``MONITOR_ALERT_RUNBOOK_BASE_URL``."""
DEFAULT_DASHBOARD_URL = "http://127.0.0.1:3000/d/ragmon-overview/ragmon"
"""The dashboard of deploy/grafana as docker-compose.yml publishes it."""


@dataclass(frozen=True)
class AlertLinks:
    """Where an Alertmanager alert points: its runbook (``runbook_base_url`` + ``/`` +
    alertname) and its source (the Grafana dashboard on the alert's window and series)."""

    runbook_base_url: str = DEFAULT_RUNBOOK_BASE_URL
    dashboard_url: str = DEFAULT_DASHBOARD_URL

    def runbook_url(self, alertname: str) -> str:
        return f"{self.runbook_base_url.rstrip('/')}/{quote(alertname, safe='')}"

    def generator_url(self, alert: Alert) -> str:
        """The dashboard from the window's start to its end (or the incident's end), with
        the alert's metric and variant selected."""
        end_ms = alert.window.end_ms
        if alert.ends_at_ms is not None:
            end_ms = max(end_ms, alert.ends_at_ms)
        query = {"from": str(alert.window.start_ms), "to": str(end_ms)}
        query["var-metric"] = _safe(alert.metric)
        if alert.labels.variant:
            query["var-variant"] = _safe(alert.labels.variant)
        separator = "&" if "?" in self.dashboard_url else "?"
        return self.dashboard_url + separator + urlencode(query, safe=":/")


_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_WORDS = re.compile(r"[A-Za-z0-9]+")


def _safe(text: str) -> str:
    """``text`` without control characters or lone surrogates (printable, valid UTF-8)."""
    valid = text.encode("utf-8", "replace").decode("utf-8")
    return _UNSAFE.sub(" ", valid)


def _number(value: float) -> str:
    """A short human form: ``0.31``, ``0.40``, ``0.012``, ``5234``."""
    if not math.isfinite(value):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:.0f}"
    if magnitude >= 0.1 or value == 0:
        return f"{value:.2f}"
    return f"{value:.2g}"


def _comparison(alert: Alert | RelatedCondition) -> str:
    current, threshold = alert.current_value, alert.threshold
    op = "<" if current < threshold else ">" if current > threshold else "="
    return f"current {_number(current)} {op} threshold {_number(threshold)}"


def _label_pairs(alert: Alert | RelatedCondition) -> dict[str, str]:
    labels = alert.labels
    pairs = {"variant": labels.variant, "tenant": labels.tenant, "application": labels.application}
    return {k: _safe(v) for k, v in pairs.items() if v}  # "" would be no label at all


def rfc3339(timestamp_ms: int) -> str:
    """UTC RFC 3339 with milliseconds, as Alertmanager parses it.

    >>> rfc3339(1_700_000_000_123)
    '2023-11-14T22:13:20.123Z'
    """
    moment = datetime.fromtimestamp(timestamp_ms / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{timestamp_ms % 1000:03d}Z"


def alert_line(alert: Alert) -> str:
    """One plain-text line: status, severity, type, metric, value vs threshold, labels."""
    line = (
        f"[{alert.status.upper()}] {alert.severity} {alert.type} {_safe(alert.metric)}: "
        f"{_comparison(alert)}"
    )
    pairs = _label_pairs(alert)
    if pairs:
        line += " (" + ", ".join(f"{k}={v}" for k, v in pairs.items()) + ")"
    return line


def related_lines(alert: Alert, limit: int = RELATED_LIMIT) -> list[str]:
    """One line per related condition of the incident (at most ``limit``, then a count)."""
    lines = []
    for related in alert.related[:limit]:
        pairs = _label_pairs(related)
        series = ", ".join(f"{k}={v}" for k, v in pairs.items()) or "whole traffic"
        lines.append(
            f"{related.severity} {_safe(related.rule)} {_safe(related.metric)}: "
            f"{_comparison(related)} ({series})"
        )
    if len(alert.related) > limit:
        lines.append(f"... and {len(alert.related) - limit} more")
    return lines


def generic_payload(alert: Alert) -> bytes:
    """The Alert JSON, compact, exactly as the model serialises it."""
    return alert.model_dump_json().encode()


def _camel(name: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in _WORDS.findall(name))


def alertmanager_payload(
    alert: Alert,
    now_ms: int | None = None,
    firing_ttl_ms: int = DEFAULT_FIRING_TTL_MS,
    links: AlertLinks | None = None,
) -> bytes:
    """A JSON list with one ``PostableAlert`` for Alertmanager's ``POST /api/v2/alerts``;
    a firing alert ends at ``now_ms`` (default: the wall clock) + ``firing_ttl_ms``."""
    links = links or AlertLinks()
    labels = {
        "alertname": "RagMonitor" + (_camel(alert.rule) or _camel(alert.type)),
        "severity": alert.severity,
        "type": alert.type,
        "metric": _safe(alert.metric),
        "rule": _safe(alert.rule),
        "fingerprint": _safe(alert.fingerprint),
    } | _label_pairs(alert)
    diagnosis = alert.diagnosis
    annotations = {
        "summary": _safe(alert.message),
        "description": (
            f"{_safe(alert.metric)}: {_comparison(alert)} over the window "
            f"{rfc3339(alert.window.start_ms)} to {rfc3339(alert.window.end_ms)}"
        ),
        "runbook_url": links.runbook_url(labels["alertname"]),
        "dashboard_url": links.generator_url(alert),
        "diagnosis": _safe(diagnosis.advice),
        "perspective": diagnosis.perspective,
        "failing": ",".join(diagnosis.failing),
        "healthy": ",".join(diagnosis.healthy),
    }
    if alert.related:
        annotations["related_count"] = str(len(alert.related))
        annotations["related"] = "\n".join(related_lines(alert))
    if alert.resolve_reason is not None:
        annotations["resolve_reason"] = alert.resolve_reason
    if alert.status == "resolved":
        ends_at_ms = alert.ends_at_ms if alert.ends_at_ms is not None else alert.window.end_ms
        ends_at = rfc3339(max(ends_at_ms, alert.starts_at_ms))  # never before startsAt
    else:
        sent_ms = int(time.time() * 1000) if now_ms is None else now_ms
        ends_at = rfc3339(max(sent_ms + firing_ttl_ms, alert.starts_at_ms + 1))
    postable = {
        "labels": labels,
        "annotations": annotations,
        "startsAt": rfc3339(alert.starts_at_ms),
        "endsAt": ends_at,
        "generatorURL": links.generator_url(alert),
    }
    return json.dumps([postable], separators=(",", ":")).encode()


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_payload(alert: Alert) -> bytes:
    """A Slack incoming-webhook message: ``text`` = the alert line, message and diagnosis,
    then one line per related condition of the incident."""
    diagnosis = alert.diagnosis
    text = (
        f"{alert_line(alert)} — {_safe(alert.message)} — perspective {diagnosis.perspective}: "
        f"{_safe(diagnosis.advice)}"
    )
    if alert.related:
        text += f"\nAlso affected ({len(alert.related)}):\n" + "\n".join(
            f"- {line}" for line in related_lines(alert)
        )
    return json.dumps({"text": _slack_escape(text)}, separators=(",", ":")).encode()


def payload_for(
    kind: EndpointKind,
    alert: Alert,
    *,
    now_ms: int | None = None,
    firing_ttl_ms: int = DEFAULT_FIRING_TTL_MS,
    links: AlertLinks | None = None,
) -> bytes:
    """The body for an endpoint of ``kind`` (``generic``, ``alertmanager`` or ``slack``);
    ``now_ms`` and ``firing_ttl_ms`` make an Alertmanager firing alert's ``endsAt``,
    ``links`` its ``runbook_url`` and ``generatorURL``."""
    if kind == "alertmanager":
        return alertmanager_payload(alert, now_ms, firing_ttl_ms, links)
    if kind == "slack":
        return slack_payload(alert)
    if kind == "generic":
        return generic_payload(alert)
    raise ValueError(f"unknown endpoint kind {kind!r}")
