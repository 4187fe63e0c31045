"""``monitor.config``: ``MONITOR_*`` environment parsing, masking and one-line errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import SecretStr

from monitor.alerts.signing import new_secret
from monitor.config import MASK, Settings, load_settings, masked
from monitor.errors import ConfigError, MonitorError

SECRET = "s3cr3t-Value-Never-Printed"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("MONITOR_"):
            monkeypatch.delenv(name)


def test_defaults() -> None:
    s = load_settings()
    assert s.bootstrap_servers == "127.0.0.1:9092"
    assert s.topics() == [
        "rag.events.v1",
        "rag.scores.v1",
        "rag.events.dlq.v1",
        "rag.alerts.v1",
        "rag.ab-results.v1",
        "rag.window-partials.v1",
        "rag.windows.v1",
    ]
    assert s.web_host == "127.0.0.1"
    assert s.kafka_sasl_password is None


def test_environment_with_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MONITOR_BOOTSTRAP_SERVERS", "kafka-1:9092,kafka-2:9092")
    monkeypatch.setenv("MONITOR_EVENTS_TOPIC", "prod.rag.events")
    monkeypatch.setenv("MONITOR_WEB_PORT", "8080")
    monkeypatch.setenv("MONITOR_SESSION_TIMEOUT_S", "6.5")
    monkeypatch.setenv("MONITOR_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
    monkeypatch.setenv("MONITOR_KAFKA_SASL_USERNAME", "svc-ragmon")
    monkeypatch.setenv("MONITOR_KAFKA_SASL_PASSWORD", SECRET)
    monkeypatch.setenv("MONITOR_DATA_DIR", "/var/lib/ragmon")
    s = load_settings()
    assert s.bootstrap_servers == "kafka-1:9092,kafka-2:9092"
    assert s.events_topic == "prod.rag.events"
    assert s.web_port == 8080
    assert s.session_timeout_s == 6.5
    assert s.kafka_security_protocol == "SASL_SSL"
    assert isinstance(s.kafka_sasl_password, SecretStr)
    assert s.kafka_sasl_password.get_secret_value() == SECRET
    assert SECRET not in repr(s)
    assert s.data_dir == Path("/var/lib/ragmon")


def test_variables_without_the_prefix_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVENTS_TOPIC", "wrong")
    monkeypatch.setenv("WEB_PORT", "not-a-port")
    s = load_settings()
    assert s.events_topic == "rag.events.v1"
    assert s.web_port == 6066


def test_overrides_win_over_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MONITOR_EVENTS_TOPIC", "from-env")
    assert load_settings(events_topic="explicit").events_topic == "explicit"


def test_settings_are_frozen() -> None:
    s = load_settings()
    with pytest.raises(Exception):  # noqa: B017 (pydantic's ValidationError)
        s.web_port = 1  # type: ignore[misc]


# --------------------------------------------------------------------- masking


def test_masked_hides_secret_str() -> None:
    data = masked(Settings(kafka_sasl_password=SECRET))
    assert data["kafka_sasl_password"] == MASK
    assert SECRET not in repr(data)


def test_masked_keeps_absent_secret_as_none() -> None:
    assert masked(Settings())["kafka_sasl_password"] is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("sasl://user:pw@host", f"sasl://{MASK}@host"),
        ("sasl://user:pw@host:9092", f"sasl://{MASK}@host:9092"),
        ("https://token@host/path", f"https://{MASK}@host/path"),
        (
            "SASL_SSL://u:p1@h1:9092,SASL_SSL://u:p2@h2:9092",
            f"SASL_SSL://{MASK}@h1:9092,SASL_SSL://{MASK}@h2:9092",
        ),
        ("kafka-1:9092,kafka-2:9092", "kafka-1:9092,kafka-2:9092"),
        ("sasl://host:9092", "sasl://host:9092"),
    ],
)
def test_masked_hides_url_userinfo(value: str, expected: str) -> None:
    data = masked(Settings(bootstrap_servers=value))
    assert data["bootstrap_servers"] == expected


def test_masked_applies_to_every_string_field() -> None:
    data = masked(Settings(web_host="http://admin:pw@proxy", consumer_group="g"))
    assert data["web_host"] == f"http://{MASK}@proxy"
    assert data["consumer_group"] == "g"


def test_masked_hides_password_containing_at_sign() -> None:
    data = masked(Settings(bootstrap_servers="sasl://user:p@ss:word@host:9092"))
    assert "ss:word" not in data["bootstrap_servers"]


def test_masked_is_json_ready() -> None:
    data = masked(Settings(kafka_sasl_password=SECRET))
    assert data["data_dir"] == ".ragmon"
    assert all(isinstance(k, str) for k in data)


# --------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MONITOR_WEB_PORT", "abc"),
        ("MONITOR_WEB_PORT", "70000"),
        ("MONITOR_LOG_LEVEL", "chatty"),
        ("MONITOR_KAFKA_SECURITY_PROTOCOL", "TLS"),
        ("MONITOR_SESSION_TIMEOUT_S", "0"),
        ("MONITOR_MAX_EVENT_BYTES", "12"),
    ],
)
def test_load_settings_raises_config_error_in_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert isinstance(info.value, MonitorError)
    assert "\n" not in message
    assert message.startswith(f"{name}: ")
    assert info.value.__cause__ is None  # raised `from None`: no pydantic chain


def test_config_error_does_not_echo_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MONITOR_WEB_PORT", SECRET)
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert SECRET not in str(info.value)


def test_override_errors_name_the_environment_variable() -> None:
    with pytest.raises(ConfigError, match=r"^MONITOR_TOPIC_PARTITIONS: "):
        load_settings(topic_partitions=0)


def test_alert_trust_settings_defaults_and_the_firing_ttl_check() -> None:
    s = Settings()
    assert (s.min_window_events, s.rate_min_events, s.latency_min_events) == (20, 20, 20)
    assert (s.alert_confidence, s.alert_max_span_windows) == (0.99, 30)
    assert (s.alert_resolve_margin, s.alert_resolve_windows) == (0.1, 3)
    assert s.alert_quiet_resolve_windows == 5
    assert (s.alertmanager_resend_s, s.alertmanager_firing_ttl_s) == (60.0, 240.0)
    with pytest.raises(ConfigError, match="alertmanager_firing_ttl_s must be longer"):
        load_settings(alertmanager_resend_s=300.0)


def test_ab_guardrail_margins_override_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    from monitor.ab.analysis import DEFAULT_GUARDRAIL_MARGINS
    from monitor.decider import ab_config

    monkeypatch.setenv("MONITOR_AB_GUARDRAIL_MARGINS", '{"latency_ms.total": 250}')
    monkeypatch.setenv("MONITOR_AB_CHANGE_ALPHA", "0.005")
    config = ab_config(load_settings())
    assert config.guardrail_margins == DEFAULT_GUARDRAIL_MARGINS | {"latency_ms.total": 250.0}
    assert config.change_alpha == 0.005
    for bad in ('{"quality.nope": 1}', '{"outcome.abstained": -0.1}'):
        monkeypatch.setenv("MONITOR_AB_GUARDRAIL_MARGINS", bad)
        with pytest.raises(ConfigError) as info:
            load_settings()
        assert "ab_guardrail_margins" in str(info.value) and "\n" not in str(info.value)


def test_the_webhook_secret_must_be_a_standard_webhooks_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MONITOR_WEBHOOK_SECRET", SECRET)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith("MONITOR_WEBHOOK_SECRET:") and "\n" not in message
    assert "whsec_" in message and SECRET not in message
    good = new_secret()
    monkeypatch.setenv("MONITOR_WEBHOOK_SECRET", good)
    assert load_settings().webhook_secret == SecretStr(good)
