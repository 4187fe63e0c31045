"""The deployment configuration in deploy/ and docker-compose.yml, checked by the tools that
consume it: promtool (config, rules, rule unit tests), amtool (config, routing), and PromQL
metric names of the rules and the Grafana dashboard against DESIGN section 9."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from promstack import require_tools

from monitor.alerts.endpoint import AlertEndpoint

__all__ = [
    "RAGMON_METRICS",
    "dashboard_exprs",
    "dashboard_problems",
    "known_series_names",
    "load_yaml",
    "promql_metric_names",
    "recording_rule_names",
    "substitute_variables",
]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROMETHEUS_YML = DEPLOY / "prometheus" / "prometheus.yml"
RULES_YML = DEPLOY / "prometheus" / "rules" / "ragmon.rules.yml"
RULES_TEST_YML = DEPLOY / "prometheus" / "rules" / "ragmon.rules.test.yml"
ALERTMANAGER_YML = DEPLOY / "alertmanager" / "alertmanager.yml"
DASHBOARD_JSON = DEPLOY / "grafana" / "dashboards" / "ragmon.json"
GRAFANA_DATASOURCES = DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yml"
GRAFANA_DASHBOARDS = DEPLOY / "grafana" / "provisioning" / "dashboards" / "ragmon.yml"
COMPOSE_YML = ROOT / "docker-compose.yml"

# What the worker exposes (DESIGN section 9): name -> type.
RAGMON_METRICS: dict[str, str] = {
    "rag_monitor_events_total": "counter",
    "rag_monitor_ab_difference": "gauge",
    "rag_monitor_ab_always_valid_p_value": "gauge",
    "rag_monitor_ab_confidence_sequence_low": "gauge",
    "rag_monitor_ab_confidence_sequence_high": "gauge",
    "rag_monitor_ab_verdict": "gauge",
    "rag_monitor_ab_guardrail_worse": "gauge",
    "rag_monitor_ab_latency_difference_seconds": "gauge",
    "rag_monitor_outcomes_total": "counter",
    "rag_monitor_crag_total": "counter",
    "rag_monitor_dead_letters_total": "counter",
    "rag_monitor_score": "histogram",
    "rag_monitor_window_mean": "gauge",
    "rag_monitor_window_p95": "gauge",
    "rag_monitor_window_observations": "gauge",
    "rag_monitor_window_latency_mean_seconds": "gauge",
    "rag_monitor_window_latency_p95_seconds": "gauge",
    "rag_monitor_window_end_timestamp_seconds": "gauge",
    "rag_monitor_baseline": "gauge",
    "rag_monitor_latency_baseline_seconds": "gauge",
    "rag_monitor_late_events_total": "counter",
    "rag_monitor_duplicate_events_total": "counter",
    "rag_monitor_alerts_total": "counter",
    "rag_monitor_webhook_deliveries_total": "counter",
    "rag_monitor_webhook_failures_total": "counter",
    "rag_monitor_scoring_seconds": "histogram",
    "rag_monitor_consumer_lag": "gauge",
}
# Series Prometheus itself adds to every scrape; allowed in rules, not in the dashboard
# (which reads them through recording rules).
SCRAPE_SERIES = frozenset({"up"})


# --- YAML ---------------------------------------------------------------------------------


def load_yaml(path: Path) -> Any:
    """Parse a YAML file with PyYAML; without it in this environment, with a system Python
    that has it; without either, skip the calling test."""
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        pass
    else:
        return yaml.safe_load(path.read_text())
    script = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)"
    for python in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if not Path(python).exists():
            continue
        done = subprocess.run(
            [python, "-c", script, str(path)], capture_output=True, text=True, check=False
        )
        if done.returncode == 0:
            return json.loads(done.stdout)
        if "No module named 'yaml'" not in done.stderr:
            raise AssertionError(f"{path} is not valid YAML:\n{done.stderr}")
    pytest.skip("no YAML parser: PyYAML is neither in the venv nor in a system python3")


# --- PromQL metric names ------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
_MATCHERS = re.compile(r"\{[^{}]*\}")
_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_GROUPING = re.compile(
    r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)", re.IGNORECASE
)
_IDENT = re.compile(r"(?<![\w:.$])([A-Za-z_:][\w:]*)(\s*\()?")
_KEYWORDS = frozenset(
    {
        "and",
        "or",
        "unless",
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
        "bool",
        "offset",
        "inf",
        "nan",
        "atan2",
    }
)


def promql_metric_names(expr: str) -> set[str]:
    """The metric names an expression selects: identifiers that are not functions,
    aggregations, keywords, label names, strings, durations or numbers. A selector by
    ``__name__`` counts as the name ``__name__`` (so a check against a list rejects it)."""
    names: set[str] = set()
    if "__name__" in expr:
        names.add("__name__")
    text = _STRING.sub('""', expr)
    text = _MATCHERS.sub("{}", text)
    previous = None
    while previous != text:  # subqueries nest brackets
        previous, text = text, _BRACKETS.sub("[]", text)
    text = _GROUPING.sub(" ", text)  # `sum by (le) (x)` -> `sum   (x)`
    for match in _IDENT.finditer(text):
        ident, call = match.group(1), match.group(2)
        if call or ident.lower() in _KEYWORDS:
            continue
        names.add(ident)
    return names


def recording_rule_names(rules_text: str) -> set[str]:
    """The ``record:`` names of a rules file."""
    return set(re.findall(r"^\s*-?\s*record:\s*[\"']?([\w:]+)", rules_text, re.MULTILINE))


def known_series_names(recording: Iterable[str] = ()) -> set[str]:
    """Every series name the worker exposes (histograms as ``_bucket``/``_sum``/``_count``)
    plus ``recording``."""
    names = set(recording)
    for name, kind in RAGMON_METRICS.items():
        if kind == "histogram":
            names.update(f"{name}{suffix}" for suffix in ("_bucket", "_sum", "_count"))
        else:
            names.add(name)
    return names


# --- The dashboard ------------------------------------------------------------------------

_GRAFANA_VAR = re.compile(r"\$(?:\{(\w+)(?::\w+)?\}|(\w+))")
_GRAFANA_BUILTINS = {
    "__rate_interval": "5m",
    "__interval": "1m",
    "__range": "1h",
    "__range_s": "3600",
    "__interval_ms": "60000",
}


def _walk_panels(panels: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for panel in panels:
        yield panel
        yield from _walk_panels(panel.get("panels", ()))


def dashboard_exprs(dashboard: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(where, expr)`` of every panel target and every query variable."""
    found: list[tuple[str, str]] = []
    for panel in _walk_panels(dashboard.get("panels", ())):
        for target in panel.get("targets", ()):
            if "expr" in target:
                found.append(
                    (f"panel {panel.get('title')!r} {target.get('refId')}", target["expr"])
                )
    for var in dashboard.get("templating", {}).get("list", ()):
        if var.get("type") != "query":
            continue
        query = var.get("query")
        text = query.get("query", "") if isinstance(query, Mapping) else str(query or "")
        inner = re.fullmatch(r"\s*label_values\((.*),\s*\w+\s*\)\s*", text)
        found.append((f"variable {var.get('name')!r}", inner.group(1) if inner else text))
    return found


def substitute_variables(expr: str, dashboard: Mapping[str, Any]) -> str:
    """``expr`` with Grafana variables replaced by plausible values, so PromQL tools parse
    it; an undefined variable raises ``KeyError``."""
    values = dict(_GRAFANA_BUILTINS)
    for var in dashboard.get("templating", {}).get("list", ()):
        current = var.get("current", {}).get("value")
        multi = var.get("multi") or var.get("includeAll") or not isinstance(current, str)
        values[var["name"]] = ".*" if multi else current

    def one(match: re.Match[str]) -> str:
        return values[match.group(1) or match.group(2)]

    return _GRAFANA_VAR.sub(one, expr)


def dashboard_problems(dashboard: Mapping[str, Any], allowed: set[str]) -> list[str]:
    """Every expression that selects a name outside ``allowed`` or uses an undefined
    variable, and every panel or target not on the ``${datasource}`` variable."""
    problems: list[str] = []
    for where, expr in dashboard_exprs(dashboard):
        unknown = promql_metric_names(expr) - allowed
        if unknown:
            problems.append(f"{where}: unknown metric {sorted(unknown)} in {expr!r}")
        try:
            substitute_variables(expr, dashboard)
        except KeyError as exc:
            problems.append(f"{where}: undefined variable {exc} in {expr!r}")
    for panel in _walk_panels(dashboard.get("panels", ())):
        if panel.get("type") == "row":
            continue
        sources = [panel.get("datasource"), *(t.get("datasource") for t in panel["targets"])]
        if any((s or {}).get("uid") != "${datasource}" for s in sources):
            problems.append(f"panel {panel.get('title')!r}: data source is not ${{datasource}}")
    return problems


# --- Tools --------------------------------------------------------------------------------


def _run(argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{done.args} exited with {done.returncode}:\n{output}"
    return output


@pytest.fixture(scope="module")
def allowed_in_dashboard() -> set[str]:
    return known_series_names(recording_rule_names(RULES_YML.read_text()))


@pytest.fixture(scope="module")
def dashboard() -> dict[str, Any]:
    return dict(json.loads(DASHBOARD_JSON.read_text()))


def test_promtool_checks_the_prometheus_config_and_its_rule_files() -> None:
    promtool = require_tools("promtool")["promtool"]
    output = _ok(_run([promtool, "check", "config", str(PROMETHEUS_YML)]))
    assert "1 rule files found" in output, output


def test_promtool_checks_the_rules() -> None:
    promtool = require_tools("promtool")["promtool"]
    output = _ok(_run([promtool, "check", "rules", str(RULES_YML)]))
    count = len(re.findall(r"^\s*- (?:record|alert):", RULES_YML.read_text(), re.MULTILINE))
    assert f"SUCCESS: {count} rules found" in output, output


def test_promtool_unit_tests_of_the_alerting_rules_pass() -> None:
    promtool = require_tools("promtool")["promtool"]
    output = _ok(_run([promtool, "test", "rules", str(RULES_TEST_YML)]))
    assert "SUCCESS" in output, output
    text = RULES_TEST_YML.read_text()
    # The unit tests state alerts that fire and alerts that do not.
    assert len(re.findall(r"exp_alerts:\s*\n\s*- exp_labels:", text)) >= 2
    assert len(re.findall(r"exp_alerts: \[\]", text)) >= 1


def test_promtool_unit_tests_fail_on_a_wrong_expectation(tmp_path: Path) -> None:
    promtool = require_tools("promtool")["promtool"]
    shutil.copy(RULES_YML, tmp_path / RULES_YML.name)
    text = RULES_TEST_YML.read_text()
    wrong = text.replace("instance: worker-1:6066", "instance: worker-2:6066", 1)
    assert wrong != text
    (tmp_path / RULES_TEST_YML.name).write_text(wrong)
    done = _run([promtool, "test", "rules", RULES_TEST_YML.name], cwd=tmp_path)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "RagmonWorkerDown" in done.stdout + done.stderr


def test_amtool_checks_the_alertmanager_config() -> None:
    amtool = require_tools("amtool")["amtool"]
    output = _ok(_run([amtool, "check-config", str(ALERTMANAGER_YML)]))
    assert "SUCCESS" in output and "1 inhibit rules" in output, output


@pytest.mark.parametrize(
    ("labels", "receiver"),
    [
        (["severity=critical", "alertname=RagmonWorkerDown"], "oncall-critical"),
        (["severity=warning", "metric=quality.overall", "variant=control"], "oncall-default"),
        (["alertname=Unlabelled"], "oncall-default"),
    ],
)
def test_alertmanager_routes_by_severity(labels: list[str], receiver: str) -> None:
    amtool = require_tools("amtool")["amtool"]
    argv = [amtool, "config", "routes", "test", f"--config.file={ALERTMANAGER_YML}", *labels]
    assert _ok(_run(argv)).splitlines()[0].strip() == receiver


def test_rules_select_only_exposed_metrics() -> None:
    rules = load_yaml(RULES_YML)
    recording = recording_rule_names(RULES_YML.read_text())
    allowed = known_series_names(recording) | SCRAPE_SERIES
    exprs = [
        (r.get("record") or r["alert"], r["expr"]) for g in rules["groups"] for r in g["rules"]
    ]
    assert len(exprs) >= 15
    unknown = {name: promql_metric_names(expr) - allowed for name, expr in exprs}
    assert not {k: v for k, v in unknown.items() if v}
    for name in recording:
        assert re.fullmatch(r"rag_monitor:[a-z0-9_]+:[a-z0-9_]+", name), name


def test_alerting_rules_carry_severity_and_summary() -> None:
    rules = load_yaml(RULES_YML)
    alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
    names = {a["alert"] for a in alerts}
    for required in (
        "RagmonWorkerDown",
        "RagmonNoEventsScored",
        "RagmonConsumerLagHigh",
        "RagmonWebhookFailing",
        "RagmonWebhookEndpointDown",
    ):
        assert required in names
    for alert in alerts:
        assert alert["labels"]["severity"] in ("warning", "critical"), alert["alert"]
        assert alert["annotations"]["summary"] and alert["annotations"]["description"]
    # The worker pages for quality and dead letters itself (one notification per
    # incident): no rule here pages a second time for them; their recording rules stay
    # for the dashboard. Prometheus keeps what only it can see (a worker down, stuck
    # consumers, lag, failing deliveries, slow scoring).
    paging = [a["expr"] for a in alerts]
    assert not [e for e in paging if "quality" in e or "window_" in e or "dead_letter" in e]
    assert not [name for name in names if name.startswith(("RagmonQuality", "RagmonDeadLetter"))]
    # no alert here names a metric of the worker's own rules
    assert not [a["alert"] for a in alerts if "metric" in a["labels"]]


def test_promql_metric_names_extraction() -> None:
    expr = (
        'histogram_quantile(0.99, sum by (le, variant) (rate(rag_monitor_score_bucket{metric="a",'
        ' variant=~"$variant"}[$__rate_interval]))) / ignoring (outcome) group_left'
        " sum without (x) (rag_monitor:events:rate5m offset 5m) and on () vector(1)"
        " > bool 1e3 or max_over_time(rag_monitor_consumer_lag[10m:1m]) unless up == Inf"
    )
    assert promql_metric_names(expr) == {
        "rag_monitor_score_bucket",
        "rag_monitor:events:rate5m",
        "rag_monitor_consumer_lag",
        "up",
    }
    assert promql_metric_names('{__name__=~"rag_monitor_.*"}') == {"__name__"}


def test_the_metric_name_check_rejects_bad_expressions(allowed_in_dashboard: set[str]) -> None:
    bad = {
        "sum(rate(rag_monitor_event_total[5m]))": {"rag_monitor_event_total"},  # a typo
        "rag_monitor_score": {"rag_monitor_score"},  # a histogram has no bare series
        "rate(rag_monitor_events_total_bucket[5m])": {"rag_monitor_events_total_bucket"},
        'sum(up{job="ragmon"})': {"up"},  # only through rag_monitor:workers_up:sum
        "rag_monitor:not_a_rule:sum": {"rag_monitor:not_a_rule:sum"},
    }
    for expr, unknown in bad.items():
        assert promql_metric_names(expr) - allowed_in_dashboard == unknown, expr


def test_dashboard_check_fails_on_a_bad_panel(
    dashboard: dict[str, Any], allowed_in_dashboard: set[str]
) -> None:
    broken = json.loads(json.dumps(dashboard))
    panel = next(p for p in broken["panels"] if p.get("targets"))
    panel["targets"][0]["expr"] = "sum(rate(rag_monitor_scored_events_total[$__rate_interval]))"
    panel["targets"].append({"refId": "Z", "expr": "rag_monitor_consumer_lag{x=~'$nope'}"})
    problems = dashboard_problems(broken, allowed_in_dashboard)
    assert any("rag_monitor_scored_events_total" in p for p in problems), problems
    assert any("undefined variable 'nope'" in p for p in problems), problems
    assert any("data source" in p for p in problems), problems


def test_dashboard_uses_only_exposed_metrics_and_recording_rules(
    dashboard: dict[str, Any], allowed_in_dashboard: set[str]
) -> None:
    assert dashboard["schemaVersion"] >= 36
    assert dashboard_problems(dashboard, allowed_in_dashboard) == []
    exprs = [expr for _, expr in dashboard_exprs(dashboard)]
    used = set().union(*(promql_metric_names(e) for e in exprs))
    # Every family an operator looks for has a panel.
    for name in (
        "rag_monitor:quality_overall:window_mean",
        "rag_monitor_window_p95",
        "rag_monitor_score_bucket",
        "rag_monitor_crag_total",
        "rag_monitor_window_mean",
        "rag_monitor_dead_letters_total",
        "rag_monitor_alerts_total",
        "rag_monitor_webhook_failures_total",
        "rag_monitor_consumer_lag",
        "rag_monitor_scoring_seconds_bucket",
        "rag_monitor_window_latency_p95_seconds",
    ):
        assert name in used, name
    # latencies in seconds (their own gauges), and no roll-up series over the variants
    assert not [e for e in exprs if "latency_ms" in e or 'variant="all"' in e]
    assert any("histogram_quantile(0.99" in e and "scoring_seconds" in e for e in exprs)
    assert any('metric=~"safety' in e for e in exprs)


def test_dashboard_layout(dashboard: dict[str, Any]) -> None:
    panels = list(_walk_panels(dashboard["panels"]))
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids))
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        pos = panel["gridPos"]
        assert pos["x"] + pos["w"] <= 24, panel["title"]
        area = {
            (x, y)
            for x in range(pos["x"], pos["x"] + pos["w"])
            for y in range(pos["y"], pos["y"] + pos["h"])
        }
        assert not area & cells, f"panel {panel['title']!r} overlaps another"
        cells |= area
    names = {v["name"] for v in dashboard["templating"]["list"]}
    assert {"datasource", "variant", "metric"} <= names


def test_dashboard_exprs_parse_as_promql(dashboard: dict[str, Any], tmp_path: Path) -> None:
    """Every panel expression (variables substituted) is valid PromQL for promtool."""
    promtool = require_tools("promtool")["promtool"]
    lines = ["groups:", "  - name: dashboard", "    rules:"]
    for i, (_, expr) in enumerate(dashboard_exprs(dashboard)):
        lines.append(f"      - record: dashboard:expr_{i}:check")
        lines.append(f"        expr: {json.dumps(substitute_variables(expr, dashboard))}")
    rules = tmp_path / "dashboard.rules.yml"
    rules.write_text("\n".join(lines) + "\n")
    _ok(_run([promtool, "check", "rules", str(rules)]))
    # ... and the check is real: a syntax error fails it.
    rules.write_text(
        rules.read_text() + '      - record: dashboard:broken\n        expr: "sum(("\n'
    )
    assert _run([promtool, "check", "rules", str(rules)]).returncode != 0


# --- docker-compose.yml and the files it mounts --------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return dict(load_yaml(COMPOSE_YML))


def _host(address: str) -> str:
    return urlsplit(address if "://" in address else f"//{address}").hostname or ""


def test_compose_defines_the_stack(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"kafka", "worker", "prometheus", "alertmanager", "grafana"} <= set(services)
    for name, service in services.items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} beyond loopback"
    worker = services["worker"]["environment"]
    assert worker["MONITOR_WEB_HOST"] == "0.0.0.0"  # reachable by Prometheus in the network
    configured = json.loads(worker["MONITOR_ALERT_ENDPOINTS"])
    endpoints = [AlertEndpoint.model_validate(e) for e in configured]
    assert [(e.kind, _host(e.url)) for e in endpoints] == [("alertmanager", "alertmanager")]


def test_compose_mounts_deploy_read_only(compose: dict[str, Any]) -> None:
    mounted: dict[str, dict[str, str]] = {}
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source, target, *mode = str(volume).split(":")
            if not source.startswith("./"):
                assert source in compose["volumes"], f"{name}: undeclared volume {source}"
                continue
            assert (ROOT / source).exists(), f"{name} mounts missing {source}"
            assert mode == ["ro"], f"{name} mounts {source} writable"
            mounted.setdefault(name, {})[target] = source
    assert mounted["prometheus"] == {"/etc/prometheus": "./deploy/prometheus"}
    assert mounted["alertmanager"] == {"/etc/alertmanager": "./deploy/alertmanager"}
    command = " ".join(compose["services"]["prometheus"]["command"])
    assert "--config.file=/etc/prometheus/prometheus.yml" in command
    command = " ".join(compose["services"]["alertmanager"]["command"])
    assert "--config.file=/etc/alertmanager/alertmanager.yml" in command
    assert "--cluster.listen-address=" in compose["services"]["alertmanager"]["command"]
    grafana = mounted["grafana"]
    assert grafana["/etc/grafana/provisioning"] == "./deploy/grafana/provisioning"
    provider = load_yaml(GRAFANA_DASHBOARDS)["providers"][0]
    assert grafana[provider["options"]["path"]] == "./deploy/grafana/dashboards"


def test_configs_name_compose_services(compose: dict[str, Any]) -> None:
    services = set(compose["services"])
    prometheus = load_yaml(PROMETHEUS_YML)
    assert prometheus["rule_files"] == ["rules/ragmon.rules.yml"]
    ragmon = next(j for j in prometheus["scrape_configs"] if j["job_name"] == "ragmon")
    web_port = int(compose["services"]["worker"]["environment"]["MONITOR_WEB_PORT"])
    for sd in ragmon["dns_sd_configs"]:
        assert set(sd["names"]) <= services and sd["port"] == web_port
    targets = [
        t
        for job in prometheus["scrape_configs"]
        for sc in job.get("static_configs", [])
        for t in sc["targets"]
    ]
    targets += [
        t
        for am in prometheus["alerting"]["alertmanagers"]
        for sc in am["static_configs"]
        for t in sc["targets"]
    ]
    assert {_host(t) for t in targets} <= services | {"localhost"}
    alertmanager = load_yaml(ALERTMANAGER_YML)
    urls = [w["url"] for r in alertmanager["receivers"] for w in r.get("webhook_configs", [])]
    assert urls and {_host(u) for u in urls} <= services
    datasource = load_yaml(GRAFANA_DATASOURCES)["datasources"][0]
    assert datasource["type"] == "prometheus" and _host(datasource["url"]) in services


def test_the_webhook_sink_script_compiles(compose: dict[str, Any]) -> None:
    command = compose["services"]["webhook-sink"]["command"]
    assert command[:3] == ["python", "-u", "-c"]
    compile(command[3], "webhook-sink", "exec")


def test_compose_workers_scale_and_heal(compose: dict[str, Any]) -> None:
    """`--scale worker=3` can start (no fixed host port), the worker has a healthcheck on
    /healthz and a restart policy, Kafka keeps its data in a volume."""
    services = compose["services"]
    worker = services["worker"]
    for port in worker.get("ports", []):
        host_ip, host_port, container_port = str(port).split(":")
        assert (host_ip, host_port, container_port) == ("127.0.0.1", "", "6066"), port
    test = worker["healthcheck"]["test"]
    assert test[0] == "CMD" and "/healthz" in " ".join(test)
    compile(test[-1], "worker-healthcheck", "exec")  # the python -c script
    assert worker["healthcheck"]["start_period"]
    for name, service in services.items():
        assert service.get("restart") == "unless-stopped", name
    kafka = services["kafka"]
    data_dir = kafka["environment"]["KAFKA_LOG_DIRS"]
    assert f"kafka-data:{data_dir}" in kafka["volumes"]
    assert "kafka-data" in compose["volumes"]


def test_the_inhibit_rule_is_keyed_on_tenant() -> None:
    alertmanager = load_yaml(ALERTMANAGER_YML)
    [rule] = alertmanager["inhibit_rules"]
    assert {"metric", "variant", "tenant", "application"} <= set(rule["equal"])
    assert "tenant" in alertmanager["route"]["group_by"]


K8S = DEPLOY / "k8s"


def test_kubernetes_manifests_parse_and_probe_healthz() -> None:
    docs = {path.name: load_yaml(path) for path in sorted(K8S.glob("*.yaml"))}
    assert set(docs) == {"worker-deployment.yaml", "worker-service.yaml"}
    deployment, service = docs["worker-deployment.yaml"], docs["worker-service.yaml"]
    assert (deployment["apiVersion"], deployment["kind"]) == ("apps/v1", "Deployment")
    assert (service["apiVersion"], service["kind"]) == ("v1", "Service")
    spec = deployment["spec"]
    labels = spec["template"]["metadata"]["labels"]
    assert spec["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["clusterIP"] == "None"  # DNS lists every worker for scraping
    [container] = spec["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    env = {e["name"]: e for e in container["env"]}
    assert ports["web"] == int(env["MONITOR_WEB_PORT"]["value"]) == 6066
    assert env["MONITOR_WEB_HOST"]["value"] == "0.0.0.0"
    [svc_port] = service["spec"]["ports"]
    assert svc_port["targetPort"] == "web" and svc_port["port"] == 6066
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert (get["path"], get["port"]) == ("/healthz", "web"), probe
    # secrets come from a Secret, never a literal value in the manifest
    assert "value" not in env["MONITOR_WEBHOOK_SECRET"]
    assert env["MONITOR_WEBHOOK_SECRET"]["valueFrom"]["secretKeyRef"]["name"]
    # every MONITOR_* variable of the manifest is a setting the worker reads
    from monitor.config import Settings

    for name in env:
        assert name.removeprefix("MONITOR_").lower() in Settings.model_fields, name


def test_alerting_rules_link_their_runbook() -> None:
    rules = load_yaml(RULES_YML)
    alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
    for alert in alerts:
        url = alert["annotations"]["runbook_url"]
        assert urlsplit(url).scheme == "https" and url.endswith("/" + alert["alert"]), url
