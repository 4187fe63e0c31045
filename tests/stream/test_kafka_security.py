"""The Kafka security settings: validation, the TLS context and SASL options every client
gets, the faust credentials, and ``ragmon config`` masking the secrets."""

from __future__ import annotations

import json
import ssl
import sys
from pathlib import Path

import faust
import pytest
from secure_kafka import make_pki

from monitor.cli import main
from monitor.config import MASK, Settings, load_settings, masked
from monitor.errors import ConfigError
from monitor.stream.kafka import client_options
from monitor.stream.kafka_check import describe_failure
from monitor.stream.kafka_security import faust_credentials, security_options, ssl_context
from monitor.stream.oauth_token import OAuthTokenProvider


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "KAFKA_SASL_MECHANISM": "SCRAM-SHA-256"},
            "MONITOR_KAFKA_SASL_USERNAME is required with SCRAM-SHA-256",
        ),
        (
            {"KAFKA_SECURITY_PROTOCOL": "SASL_PLAINTEXT", "KAFKA_SASL_USERNAME": "u"},
            "MONITOR_KAFKA_SASL_PASSWORD is required with PLAIN",
        ),
        (
            {"KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "KAFKA_SASL_MECHANISM": "OAUTHBEARER"},
            "OAUTHBEARER needs exactly one of MONITOR_KAFKA_SASL_OAUTH_TOKEN_FILE and "
            "MONITOR_KAFKA_SASL_OAUTH_TOKEN_COMMAND",
        ),
        (
            {"KAFKA_SSL_CAFILE": "/etc/ca.pem"},
            "MONITOR_KAFKA_SSL_CAFILE is set but MONITOR_KAFKA_SECURITY_PROTOCOL is PLAINTEXT",
        ),
        (
            {"KAFKA_SECURITY_PROTOCOL": "SSL", "KAFKA_SSL_KEYFILE": "/k.pem"},
            "MONITOR_KAFKA_SSL_KEYFILE needs MONITOR_KAFKA_SSL_CERTFILE",
        ),
        (
            {"KAFKA_SASL_MECHANISM": "GSSAPI"},
            "MONITOR_KAFKA_SASL_MECHANISM: Input should be 'PLAIN', 'SCRAM-SHA-256', "
            "'SCRAM-SHA-512' or 'OAUTHBEARER'",
        ),
    ],
)
def test_incomplete_security_settings_are_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    message: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(f"MONITOR_{name}", value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(info.value) == message
    assert main(["config"]) == 2
    assert capsys.readouterr().err == f"ragmon: {message}\n"


def test_config_masks_the_kafka_secrets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secrets = {
        "KAFKA_SASL_PASSWORD": "sasl-pass-1",
        "KAFKA_SSL_KEY_PASSWORD": "key-pass-2",
        "KAFKA_SASL_OAUTH_TOKEN_COMMAND": "mint --client-secret cs-3",
    }
    monkeypatch.setenv("MONITOR_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
    monkeypatch.setenv("MONITOR_KAFKA_SASL_MECHANISM", "OAUTHBEARER")
    monkeypatch.setenv("MONITOR_KAFKA_SSL_CAFILE", "/etc/kafka/ca.pem")
    monkeypatch.setenv("MONITOR_KAFKA_SSL_CERTFILE", "/etc/kafka/client.pem")
    for name, value in secrets.items():
        monkeypatch.setenv(f"MONITOR_{name}", value)
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    cfg = json.loads(out)
    for name, value in secrets.items():
        assert cfg[name.lower()] == MASK
        assert value not in out
    assert cfg["kafka_ssl_cafile"] == "/etc/kafka/ca.pem"  # paths are no secret
    assert cfg["kafka_ssl_check_hostname"] is True


def test_security_options_per_protocol(tmp_path: Path) -> None:
    pki = make_pki(tmp_path)
    assert client_options(Settings(bootstrap_servers="k:9092")) == {
        "bootstrap_servers": "k:9092",
        "security_protocol": "PLAINTEXT",
    }
    sasl_plain = security_options(
        Settings(
            kafka_security_protocol="SASL_PLAINTEXT",
            kafka_sasl_username="u",
            kafka_sasl_password="p",
        )
    )
    assert sasl_plain == {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "PLAIN",
        "sasl_plain_username": "u",
        "sasl_plain_password": "p",
    }
    mtls = Settings(
        kafka_security_protocol="SSL",
        kafka_ssl_cafile=pki.ca_file,
        kafka_ssl_certfile=pki.client_cert,
        kafka_ssl_keyfile=pki.client_key,
        kafka_ssl_key_password=pki.key_password,
        kafka_ssl_check_hostname=False,
    )
    options = security_options(mtls)
    assert set(options) == {"security_protocol", "ssl_context"}
    context = options["ssl_context"]
    assert context.verify_mode == ssl.CERT_REQUIRED  # the chain is verified even so
    assert context.check_hostname is False
    assert [c["subject"] for c in context.get_ca_certs()] == [
        ((("commonName", "ragmon test CA"),),)
    ]
    token_file = tmp_path / "token"
    oauth = security_options(
        Settings(
            kafka_security_protocol="SASL_SSL",
            kafka_sasl_mechanism="OAUTHBEARER",
            kafka_sasl_oauth_token_file=token_file,
        )
    )
    assert oauth["sasl_mechanism"] == "OAUTHBEARER"
    assert isinstance(oauth["sasl_oauth_token_provider"], OAuthTokenProvider)
    assert oauth["sasl_oauth_token_provider"].file == token_file
    assert oauth["ssl_context"].check_hostname is True


def test_faust_gets_the_same_credentials(tmp_path: Path) -> None:
    pki = make_pki(tmp_path)
    scram = Settings(
        kafka_security_protocol="SASL_SSL",
        kafka_sasl_mechanism="SCRAM-SHA-512",
        kafka_sasl_username="u",
        kafka_sasl_password="p",
        kafka_ssl_cafile=pki.ca_file,
    )
    credentials = faust_credentials(scram)["broker_credentials"]
    assert isinstance(credentials, faust.SASLCredentials)
    assert (credentials.username, credentials.password) == ("u", "p")
    assert credentials.mechanism.value == "SCRAM-SHA-512"
    assert credentials.protocol.value == "SASL_SSL"
    assert isinstance(credentials.ssl_context, ssl.SSLContext)
    tls = faust_credentials(Settings(kafka_security_protocol="SSL"))["broker_credentials"]
    assert isinstance(tls, faust.SSLCredentials)
    oauth = faust_credentials(
        Settings(
            kafka_security_protocol="SASL_PLAINTEXT",
            kafka_sasl_mechanism="OAUTHBEARER",
            kafka_sasl_oauth_token_command=f"{sys.executable} -c 'print(1)'",
        )
    )["broker_credentials"]
    assert isinstance(oauth, faust.OAuthCredentials)
    assert isinstance(oauth.oauth_cb, OAuthTokenProvider)
    assert oauth.protocol.value == "SASL_PLAINTEXT"


def test_unusable_tls_files_are_one_line(tmp_path: Path) -> None:
    pki = make_pki(tmp_path)
    missing = Settings(kafka_security_protocol="SSL", kafka_ssl_cafile=tmp_path / "nope.pem")
    with pytest.raises(ConfigError, match=r"^MONITOR_KAFKA_SSL_CAFILE .*nope.pem: No such file"):
        ssl_context(missing)
    (tmp_path / "junk.pem").write_text("not a certificate")
    junk = Settings(kafka_security_protocol="SSL", kafka_ssl_cafile=tmp_path / "junk.pem")
    with pytest.raises(ConfigError, match=r"^MONITOR_KAFKA_SSL_CAFILE .*junk.pem: "):
        ssl_context(junk)
    no_password = Settings(
        kafka_security_protocol="SSL",
        kafka_ssl_certfile=pki.client_cert,
        kafka_ssl_keyfile=pki.client_key,
    )
    with pytest.raises(ConfigError, match="the key is encrypted: set MONITOR_KAFKA_SSL_KEY_PASS"):
        ssl_context(no_password)  # and no passphrase prompt on the terminal


def test_failures_are_described_without_secrets() -> None:
    s = Settings(kafka_security_protocol="SASL_SSL", kafka_sasl_mechanism="SCRAM-SHA-256",
                 kafka_sasl_username="svc", kafka_sasl_password="pw-secret")  # fmt: skip
    from aiokafka import errors

    text = describe_failure(errors.SaslAuthenticationFailed("bad"), s)
    assert text == "SASL SCRAM-SHA-256 authentication as svc failed: the broker rejected the " \
        "credentials"  # fmt: skip
    assert describe_failure(KeyError("v"), s) == (
        "SASL SCRAM-SHA-256 authentication failed (unexpected answer: KeyError)"
    )
    assert "does not offer SCRAM-SHA-256" in describe_failure(
        errors.UnsupportedSaslMechanismError("x"), s
    )
    assert describe_failure(TimeoutError(), s).startswith("no answer within the timeout")
    assert "pw-secret" not in masked(s).values()
