"""The three delivery formats."""

from __future__ import annotations

import json
import re
from typing import Any

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis, RelatedCondition
from monitor.alerts.payloads import (
    DEFAULT_FIRING_TTL_MS,
    RELATED_LIMIT,
    AlertLinks,
    alert_line,
    alertmanager_payload,
    generic_payload,
    payload_for,
    slack_payload,
)

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")  # Alertmanager / Prometheus label names


def make_alert(**changes: Any) -> Alert:
    fields: dict[str, Any] = {
        "fingerprint": "9f2c1a",
        "status": "firing",
        "type": "threshold",
        "severity": "critical",
        "rule": "critical_quality",
        "message": "Average quality score critically low",
        "metric": "quality.overall",
        "current_value": 0.31,
        "threshold": 0.4,
        "labels": AlertLabels(variant="treatment"),
        "window": AlertWindow(start_ms=1_700_000_000_000, end_ms=1_700_000_060_000),
        "starts_at_ms": 1_700_000_060_000,
        "diagnosis": Diagnosis(
            perspective="retrieval",
            failing=["retrieval"],
            healthy=["safety"],
            advice="check the retriever",
        ),
    }
    return Alert(**(fields | changes))


def assert_postable_alerts(payload: Any) -> None:
    """What Alertmanager 0.25's ``POST /api/v2/alerts`` accepts (openapi ``postableAlerts``
    plus ``types.Alert.Validate``)."""
    assert isinstance(payload, list) and payload
    for alert in payload:
        assert set(alert) <= {"labels", "annotations", "startsAt", "endsAt", "generatorURL"}
        labels, annotations = alert["labels"], alert.get("annotations", {})
        assert labels, "at least one label pair required"
        for name, value in [*labels.items(), *annotations.items()]:
            assert LABEL_NAME.match(name), name
            assert isinstance(value, str)
            value.encode("utf-8")  # valid UTF-8 (no lone surrogates)
        assert all(labels.values()), "empty label values mean 'no label'"
        assert RFC3339.match(alert["startsAt"])
        if "endsAt" in alert:
            assert RFC3339.match(alert["endsAt"])
            assert alert["endsAt"] >= alert["startsAt"], "start time must be before end time"


def test_generic_is_the_alert_json() -> None:
    alert = make_alert()
    body = generic_payload(alert)
    assert body == alert.model_dump_json().encode()
    assert Alert.model_validate_json(body) == alert
    assert payload_for("generic", alert) == body


def test_alertmanager_firing() -> None:
    payload = json.loads(alertmanager_payload(make_alert(), now_ms=1_700_000_100_000))
    assert_postable_alerts(payload)
    [am] = payload
    assert am["labels"] == {
        "alertname": "RagMonitorCriticalQuality",
        "severity": "critical",
        "type": "threshold",
        "metric": "quality.overall",
        "rule": "critical_quality",
        "fingerprint": "9f2c1a",
        "variant": "treatment",
    }
    assert am["annotations"]["summary"] == "Average quality score critically low"
    assert am["annotations"]["diagnosis"] == "check the retriever"
    assert am["annotations"]["perspective"] == "retrieval"
    assert "0.31 < threshold 0.40" in am["annotations"]["description"]
    assert am["startsAt"] == "2023-11-14T22:14:20.000Z"
    # Alertmanager's convention: a firing alert ends a little after it was sent (4 min
    # by default) unless re-sent, so the alerts of a stopped worker expire by themselves
    assert DEFAULT_FIRING_TTL_MS == 240_000
    assert am["endsAt"] == "2023-11-14T22:19:00.000Z"  # sent at 22:15:00
    assert "resolve_reason" not in am["annotations"]
    # links: the runbook per alertname, the source as the dashboard on the alert's window
    assert am["annotations"]["runbook_url"] == (
        "https://runbooks.invalid/ragmon/RagMonitorCriticalQuality"
    )
    assert (
        am["generatorURL"]
        == am["annotations"]["dashboard_url"]
        == (
            "http://127.0.0.1:3000/d/ragmon-overview/ragmon?from=1700000000000&to=1700000060000"
            "&var-metric=quality.overall&var-variant=treatment"
        )
    )


def test_alertmanager_links_follow_the_configured_urls() -> None:
    links = AlertLinks("https://wiki.example/runbooks/", "https://grafana.example/d/x?orgId=2")
    alert = make_alert(labels=AlertLabels(tenant="acme"), ends_at_ms=1_700_000_300_000)
    [am] = json.loads(alertmanager_payload(alert, links=links))
    assert am["annotations"]["runbook_url"] == (
        "https://wiki.example/runbooks/RagMonitorCriticalQuality"
    )
    # no variant: no var-variant; the range reaches the incident's end
    assert am["generatorURL"] == (
        "https://grafana.example/d/x?orgId=2&from=1700000000000&to=1700000300000"
        "&var-metric=quality.overall"
    )
    assert am["annotations"]["summary"] and am["annotations"]["description"]


def test_alertmanager_firing_ends_at_the_send_time_plus_the_ttl() -> None:
    alert = make_alert()
    [first] = json.loads(payload_for("alertmanager", alert, now_ms=1_700_000_100_000))
    [again] = json.loads(
        payload_for("alertmanager", alert, now_ms=1_700_000_160_000, firing_ttl_ms=5_000)
    )
    assert (first["endsAt"], again["endsAt"]) == (
        "2023-11-14T22:19:00.000Z",
        "2023-11-14T22:16:05.000Z",
    )
    assert first["labels"] == again["labels"] and first["startsAt"] == again["startsAt"]
    # the wall clock by default: never the far future any more
    [now] = json.loads(alertmanager_payload(alert))
    assert now["endsAt"] < "2100"
    # never before it starts (an alert from the future, a skewed clock)
    [early] = json.loads(alertmanager_payload(alert, now_ms=0))
    assert early["endsAt"] > early["startsAt"]


def test_alertmanager_resolved_has_the_same_labels() -> None:
    firing = make_alert()
    resolved = make_alert(status="resolved", ends_at_ms=1_700_000_360_500, current_value=0.7)
    [f] = json.loads(alertmanager_payload(firing))
    [r] = json.loads(alertmanager_payload(resolved))
    assert_postable_alerts([r])
    assert r["labels"] == f["labels"]
    assert r["endsAt"] == "2023-11-14T22:19:20.500Z"
    quiet = resolved.model_copy(update={"resolve_reason": "quiet"})
    [q] = json.loads(alertmanager_payload(quiet))
    assert q["annotations"]["resolve_reason"] == "quiet" and q["endsAt"] == r["endsAt"]


def test_alertmanager_resolved_never_ends_before_it_starts() -> None:
    alert = make_alert(status="resolved", ends_at_ms=1, starts_at_ms=1_700_000_060_000)
    [am] = json.loads(alertmanager_payload(alert))
    assert am["endsAt"] == am["startsAt"]


def test_alertmanager_labels_are_safe_strings() -> None:
    alert = make_alert(
        rule="rate.safety-leakage",
        labels=AlertLabels(variant="", tenant="acme\x1b[31m\n", application="bot\ud800"),
    )
    [am] = json.loads(alertmanager_payload(alert))
    assert_postable_alerts([am])
    assert am["labels"]["alertname"] == "RagMonitorRateSafetyLeakage"
    assert "variant" not in am["labels"]
    assert am["labels"]["tenant"] == "acme [31m "
    assert am["labels"]["application"] == "bot?"


def test_slack_has_plain_escaped_text() -> None:
    body = json.loads(slack_payload(make_alert()))
    text = body["text"]
    assert text.startswith("[FIRING] critical threshold quality.overall")
    assert "current 0.31 &lt; threshold 0.40 (variant=treatment)" in text
    assert "check the retriever" in text and "retrieval" in text
    assert "<" not in text and ">" not in text  # no Slack control sequences (<!channel>)


def test_slack_escapes_label_values() -> None:
    alert = make_alert(labels=AlertLabels(tenant="<!channel> & co"))
    text = json.loads(slack_payload(alert))["text"]
    assert "tenant=&lt;!channel&gt; &amp; co" in text


def test_resolved_line_and_rates() -> None:
    alert = make_alert(
        status="resolved",
        type="degradation",
        severity="warning",
        metric="safety.leakage.detected",
        current_value=0.004,
        threshold=0.01,
        labels=AlertLabels(),
        ends_at_ms=1_700_000_400_000,
    )
    assert alert_line(alert) == (
        "[RESOLVED] warning degradation safety.leakage.detected: current 0.004 < threshold 0.01"
    )
    assert " > threshold 5000" in alert_line(
        make_alert(metric="latency_ms.total", current_value=7400.0, threshold=5000.0)
    )


def grouped_alert(n: int) -> Alert:
    related = [
        RelatedCondition(
            rule="degradation",
            metric=f"quality.sub_{i}",
            severity="warning",
            labels=AlertLabels(tenant="acme") if i % 2 else AlertLabels(),
            current_value=0.5,
            threshold=0.68,
        )
        for i in range(n)
    ]
    return make_alert(related=related)


def test_the_generic_payload_carries_the_related_conditions() -> None:
    alert = grouped_alert(3)
    body = json.loads(generic_payload(alert))
    assert [r["metric"] for r in body["related"]] == [
        "quality.sub_0",
        "quality.sub_1",
        "quality.sub_2",
    ]
    assert body["related"][1]["labels"] == {"variant": None, "tenant": "acme", "application": None}
    assert Alert.model_validate(body) == alert
    assert json.loads(generic_payload(make_alert()))["related"] == []


def test_alertmanager_keeps_labels_low_cardinality_and_lists_related_in_annotations() -> None:
    alone, grouped = make_alert(), grouped_alert(25)
    [plain] = json.loads(alertmanager_payload(alone))
    [am] = json.loads(alertmanager_payload(grouped))
    assert_postable_alerts([am])
    assert am["labels"] == plain["labels"]  # the same identity, whatever is related
    assert "related" not in plain["annotations"]
    assert am["annotations"]["related_count"] == "25"
    lines = am["annotations"]["related"].split("\n")
    assert len(lines) == RELATED_LIMIT + 1 and lines[-1] == "... and 5 more"
    assert lines[0] == (
        "warning degradation quality.sub_0: current 0.50 < threshold 0.68 (whole traffic)"
    )
    assert lines[1].endswith("(tenant=acme)")


def test_slack_lists_the_related_conditions_after_the_advice() -> None:
    text = json.loads(slack_payload(grouped_alert(2)))["text"]
    head, also = text.split("\nAlso affected (2):\n")
    assert head.endswith("check the retriever")
    assert also.split("\n") == [
        "- warning degradation quality.sub_0: current 0.50 &lt; threshold 0.68 (whole traffic)",
        "- warning degradation quality.sub_1: current 0.50 &lt; threshold 0.68 (tenant=acme)",
    ]
