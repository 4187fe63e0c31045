"""Real Prometheus and Alertmanager processes (tests/promstack.py) on loopback: scraping,
querying, the deploy/ rules evaluated live, alerts reaching Alertmanager, and the
Alertmanager configuration's routing and inhibition."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from promstack import (
    alertmanager_server,
    exposition_server,
    prometheus_server,
    require_tools,
    webhook_sink,
)

__all__: list[str] = []

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
RULES_YML = ROOT / "deploy" / "prometheus" / "rules" / "ragmon.rules.yml"
ALERTMANAGER_YML = ROOT / "deploy" / "alertmanager" / "alertmanager.yml"

EXPOSITION = """\
# HELP rag_monitor_window_mean Mean of the last closed window.
# TYPE rag_monitor_window_mean gauge
rag_monitor_window_mean{metric="quality.overall",variant="control"} 0.5
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it has exited all the same.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _by_name(alerts: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(a["labels"]["alertname"], a["labels"].get("variant", "")): a for a in alerts}


def test_prometheus_scrapes_a_target_and_answers_queries(tmp_path: Path) -> None:
    require_tools("prometheus")
    with (
        exposition_server(EXPOSITION) as target,
        prometheus_server(tmp_path, [target], scrape_interval_s=0.5) as prom,
    ):
        assert prom.url.startswith("http://127.0.0.1:")
        targets = prom.wait_for_target_up(timeout_s=30)
        assert [t["labels"]["instance"] for t in targets] == [target]
        result = prom.query_until(
            'rag_monitor_window_mean{metric="quality.overall",variant="control"}'
        )
        assert len(result) == 1
        assert result[0]["metric"]["job"] == "ragmon"
        assert float(result[0]["value"][1]) == 0.5
        assert prom.query("scalar(vector(2))")[0]["value"][1] == "2"
        pid = prom.pid
    assert not _alive(pid)
    assert prom.log_path.exists() and prom.config_path.exists()


def test_alertmanager_accepts_an_alert_readable_by_api_and_amtool(tmp_path: Path) -> None:
    require_tools("alertmanager", "amtool")
    alert = {
        "labels": {
            "alertname": "RagmonQualityCritical",
            "severity": "critical",
            "metric": "quality.overall",
            "variant": "treatment",
        },
        "annotations": {"summary": "RAG quality of variant treatment is 0.30"},
    }
    with alertmanager_server(tmp_path) as am:
        assert am.url.startswith("http://127.0.0.1:")
        am.post_alerts([alert])
        [got] = am.wait_for_alerts()
        assert got["labels"] == alert["labels"]
        assert got["annotations"] == alert["annotations"]
        assert got["status"]["state"] == "active"
        [queried] = json.loads(am.amtool_query())
        assert queried["labels"] == alert["labels"]
        assert json.loads(am.amtool_query("variant=control")) == []
        pid = am.pid
    assert not _alive(pid)


def test_the_deploy_rules_run_live_and_their_alerts_reach_alertmanager(tmp_path: Path) -> None:
    """Prometheus evaluates deploy/prometheus/rules/ragmon.rules.yml on scraped series; an
    alert on its recording rule (no ``for``, so the test need not wait minutes) reaches
    Alertmanager through the ``alerting`` configuration."""
    require_tools("prometheus", "alertmanager", "amtool")
    exposition = "".join(
        f'rag_monitor_window_{kind}{{metric="quality.overall",variant="{variant}"}} {value}\n'
        for variant, mean, count in (("control", 0.8, 100), ("treatment", 0.3, 40))
        for kind, value in (("mean", mean), ("observations", count))
    )
    live_rule = tmp_path / "live.rules.yml"
    live_rule.write_text(
        json.dumps(
            {
                "groups": [
                    {
                        "name": "live",
                        "rules": [
                            {
                                "alert": "LiveQualityCritical",
                                "expr": "rag_monitor:quality_overall:window_mean < 0.4",
                                "labels": {"severity": "critical", "metric": "quality.overall"},
                            }
                        ],
                    }
                ]
            }
        )
    )
    with (
        exposition_server(exposition) as target,
        alertmanager_server(tmp_path) as am,
        prometheus_server(
            tmp_path,
            [target],
            scrape_interval_s=0.5,
            rule_files=[RULES_YML, live_rule],
            alertmanager_url=am.url,
        ) as prom,
    ):
        groups = {g["name"] for g in prom.rules()}
        assert {"ragmon.recording", "ragmon.alerts", "live"} <= groups
        prom.wait_for_target_up(timeout_s=30)
        result = prom.query_until("rag_monitor:quality_overall:window_mean", lambda r: len(r) == 2)
        means = {r["metric"]["variant"]: float(r["value"][1]) for r in result}
        assert means == pytest.approx({"control": 0.8, "treatment": 0.3})
        assert float(prom.query_until("rag_monitor:workers_up:sum")[0]["value"][1]) == 1.0
        [got] = am.wait_for_alerts(timeout_s=30)
        # the deploy rules do not page for quality (the worker does): only the live rule
        assert prom.query('ALERTS{alertname=~"RagmonQuality.*"}') == []
        assert got["labels"]["alertname"] == "LiveQualityCritical"
        assert got["labels"]["variant"] == "treatment"
        assert got["labels"]["severity"] == "critical"
        [queried] = json.loads(am.amtool_query("alertname=LiveQualityCritical"))
        assert queried["labels"]["variant"] == "treatment"


def test_the_deploy_alertmanager_config_inhibits_and_routes(tmp_path: Path) -> None:
    """deploy/alertmanager/alertmanager.yml with its webhook receivers pointed at a loopback
    sink: a critical alert inhibits the warning for the same metric, variant and tenant only
    (tenant A's critical never silences tenant B's warning), and critical alerts reach the
    critical receiver."""
    require_tools("alertmanager", "amtool")
    with webhook_sink() as sink:
        text = ALERTMANAGER_YML.read_text()
        assert "http://webhook-sink:8080" in text
        config = tmp_path / "alertmanager.yml"
        # Same routes, receivers and inhibition; a shorter wait before the first notification.
        assert text.count("group_wait: 10s") == 1
        text = text.replace("group_wait: 10s", "group_wait: 1s")
        config.write_text(text.replace("http://webhook-sink:8080", sink.url))

        def alert(name: str, severity: str, **labels: str) -> dict[str, Any]:
            return {"labels": {"alertname": name, "severity": severity, **labels}}

        quality = {"metric": "quality.overall"}
        with alertmanager_server(tmp_path, config_file=config) as am:
            am.post_alerts(
                [
                    alert("RagMonitorCriticalQuality", "critical", variant="treatment", **quality),
                    alert("RagMonitorDegradation", "warning", variant="treatment", **quality),
                    alert("RagMonitorDegradation", "warning", variant="control", **quality),
                    alert("RagmonWorkerDown", "critical", instance="worker-1:6066"),
                    alert("RagmonConsumerLagHigh", "warning"),
                    # the same metric and variant in two tenants
                    alert(
                        "RagMonitorCriticalQuality",
                        "critical",
                        variant="canary",
                        tenant="acme",
                        **quality,
                    ),
                    alert(
                        "RagMonitorDegradation",
                        "warning",
                        variant="canary",
                        tenant="acme",
                        **quality,
                    ),
                    alert(
                        "RagMonitorQualityDrop",
                        "warning",
                        variant="canary",
                        tenant="globex",
                        **quality,
                    ),
                ]
            )

            def settled(got: list[dict[str, Any]]) -> bool:
                by_name = _by_name(got)
                return len(got) == 8 and all(
                    by_name[key]["status"]["state"] == "suppressed"
                    for key in (
                        ("RagMonitorDegradation", "treatment"),
                        ("RagMonitorDegradation", "canary"),
                    )
                )

            alerts = _by_name(am.wait_for_alerts(settled))
            states = {key: a["status"]["state"] for key, a in alerts.items()}
            assert states == {
                ("RagMonitorCriticalQuality", "treatment"): "active",
                ("RagMonitorDegradation", "treatment"): "suppressed",
                ("RagMonitorDegradation", "control"): "active",
                ("RagmonWorkerDown", ""): "active",
                # A critical alert without a metric label inhibits nothing.
                ("RagmonConsumerLagHigh", ""): "active",
                ("RagMonitorCriticalQuality", "canary"): "active",
                ("RagMonitorDegradation", "canary"): "suppressed",
                # tenant acme's critical does not silence tenant globex's warning
                ("RagMonitorQualityDrop", "canary"): "active",
            }
            # amtool shows what is not inhibited.
            shown = json.loads(am.amtool_query())
            assert len(shown) == 6
            assert ("RagMonitorDegradation", "treatment") not in _by_name(shown)
            # Critical alerts go to the critical receiver (warnings wait 30 s: not checked).
            received = sink.wait_for(
                lambda got: (
                    {
                        a["labels"]["alertname"]
                        for path, body in got
                        if path == "/alertmanager/critical"
                        for a in body["alerts"]
                    }
                    >= {"RagMonitorCriticalQuality", "RagmonWorkerDown"}
                ),
                timeout_s=40,
            )
            for path, body in received:
                assert path == "/alertmanager/critical", path
                assert body["receiver"] == "oncall-critical"
                assert {a["labels"]["severity"] for a in body["alerts"]} == {"critical"}


def test_servers_are_killed_when_the_test_fails(tmp_path: Path) -> None:
    """The process group is killed on the way out of a failing ``with`` block too."""
    require_tools("prometheus", "alertmanager")
    pids: list[int] = []
    with (
        pytest.raises(RuntimeError, match="boom"),
        alertmanager_server(tmp_path) as am,
        prometheus_server(tmp_path, ["127.0.0.1:9"]) as prom,
    ):
        pids += [am.pid, prom.pid]
        assert os.getpgid(prom.pid) == prom.pid  # its own process group
        assert os.getpgid(am.pid) == am.pid
        raise RuntimeError("boom")
    assert pids and not any(_alive(pid) for pid in pids)
    with pytest.raises(ProcessLookupError):
        os.killpg(pids[0], signal.SIGTERM)
