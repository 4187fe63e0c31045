"""Secured Kafka end to end: the worker, ``ragmon replay`` and the direct clients over TLS
with SASL (SCRAM-SHA-512, SCRAM-SHA-256, OAUTHBEARER) and over mutual TLS, and the one
line (exit 2) a wrong password, an untrusted CA or a hostname mismatch gives.

The embedded Tansu 0.6.0 serves neither TLS nor a successful SASL login (see
tests/secure_kafka.py for the evidence), so the broker is reached through a loopback
front that terminates TLS and runs the broker side of SASL; Tansu's own ``--authentication``
is exercised in the last test, where it rejects a SCRAM login.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from kafka_io import produce, read_until
from pydantic import SecretStr
from secure_kafka import SecuredKafka, secured_kafka

from bench.failover_scenarios import scenario_settings
from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
from monitor.stream.broker import EmbeddedBroker
from monitor.stream.replay import replay
from monitor.stream.worker_process import settings_env, start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

USER, PASSWORD, TOKEN = "ragmon", "correct horse battery staple", "test-bearer-token-1"


@pytest.fixture(scope="module")
def sasl_kafka(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecuredKafka]:
    """Tansu behind a TLS front (server certificate for localhost and 127.0.0.1) that
    requires a SCRAM or OAUTHBEARER login."""
    directory = tmp_path_factory.mktemp("sasl-kafka")
    with secured_kafka(directory, scram_users={USER: PASSWORD}, oauth_tokens={TOKEN}) as k:
        yield k


@pytest.fixture(scope="module")
def mtls_kafka(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecuredKafka]:
    """Tansu behind a TLS front that requires a client certificate; its own certificate
    names broker.test only, not the loopback address clients connect to."""
    directory = tmp_path_factory.mktemp("mtls-kafka")
    with secured_kafka(directory, server_names=("broker.test",), require_client_cert=True) as k:
        yield k


def _scram(kafka: SecuredKafka, mechanism: str = "SCRAM-SHA-512", **extra: Any) -> dict[str, Any]:
    return {
        "kafka_security_protocol": "SASL_SSL",
        "kafka_sasl_mechanism": mechanism,
        "kafka_sasl_username": USER,
        "kafka_sasl_password": SecretStr(PASSWORD),
        "kafka_ssl_cafile": kafka.pki.ca_file,
        **extra,
    }


def _settings(kafka: SecuredKafka, tmp_path: Path, security: dict[str, Any]) -> Settings:
    """Fresh topics on the secured broker (created over the secured connection), checked
    by the settings' own validation."""
    s = scenario_settings(
        kafka.bootstrap_servers,
        tmp_path,
        consumer_group=f"secured-{uuid.uuid4().hex[:8]}",
        max_event_age_ms=20 * 365 * 86_400_000,
        **security,
    )
    return Settings(**{name: getattr(s, name) for name in type(s).model_fields})


def _cli(
    args: list[str], settings: Settings, timeout_s: float = 60
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")}
    env |= settings_env(settings)
    return subprocess.run(
        [sys.executable, "-m", "monitor", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The whole standard error of a command that failed as a user error."""
    assert result.returncode == 2, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    return lines[0]


def test_worker_scores_over_sasl_ssl_with_scram_sha_512(
    sasl_kafka: SecuredKafka, tmp_path: Path
) -> None:
    """``ragmon replay`` produces, the worker (faust app, scoring loop, aggregation) scores,
    every client logging in with SCRAM-SHA-512 over TLS; the scores equal the pure scorer's."""
    s = _settings(sasl_kafka, tmp_path, _scram(sasl_kafka))
    gen = TrafficGenerator(seed=5)
    events = [orjson.dumps(gen.event()) for _ in range(200)]
    events_file = tmp_path / "events.jsonl"
    events_file.write_bytes(b"\n".join(events) + b"\n")
    logins_before = len(sasl_kafka.front.logins)
    refused_before = sasl_kafka.front.refused

    worker = start_worker(s, tmp_path / "worker.log")
    try:
        result = _cli(["replay", str(events_file)], s)
        assert result.returncode == 0, result.stderr[-2000:]
        assert f"produced 200 events to {s.events_topic}" in result.stderr
        got = asyncio.run(
            read_until(
                s,
                [s.scores_topic, s.windows_topic],
                lambda g: len(g[s.scores_topic]) >= 200 and len(g[s.windows_topic]) > 0,
                timeout_s=120,
            )
        )
    finally:
        code = stop_process(worker)
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert len(got[s.scores_topic]) == 200, log[-3000:]
    assert got[s.windows_topic], log[-3000:]  # the aggregating stage published windows
    assert code == 0, log[-3000:]
    expected = {}
    for line in events:
        scored = score_event(decode_event(line)).model_dump(mode="json")
        scored.pop("scoring_us")
        expected[scored["event_id"]] = scored
    for record in got[s.scores_topic]:
        value = orjson.loads(record.value or b"{}")
        value.pop("scoring_us")
        assert value == expected[value["event_id"]]
    assert {orjson.loads(r.value or b"{}")["event_id"] for r in got[s.scores_topic]} == set(
        expected
    )
    logins = sasl_kafka.front.logins[logins_before:]
    assert logins and all(ok and mech == "SCRAM-SHA-512" for mech, ok in logins)
    # no client of the worker (faust's producer and consumer included) came without a login
    assert sasl_kafka.front.refused == refused_before
    assert PASSWORD not in log


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "OAUTHBEARER-file", "OAUTHBEARER-command"])
def test_round_trip_with_each_mechanism(
    sasl_kafka: SecuredKafka, tmp_path: Path, mechanism: str
) -> None:
    if mechanism == "SCRAM-SHA-256":
        security = _scram(sasl_kafka, "SCRAM-SHA-256")
    else:
        security = {
            "kafka_security_protocol": "SASL_SSL",
            "kafka_sasl_mechanism": "OAUTHBEARER",
            "kafka_ssl_cafile": sasl_kafka.pki.ca_file,
        }
        if mechanism.endswith("file"):
            token_file = tmp_path / "token"
            token_file.write_text(TOKEN + "\n")
            security["kafka_sasl_oauth_token_file"] = token_file
        else:
            command = f"{sys.executable} -c 'print(\"{TOKEN}\")'"
            security["kafka_sasl_oauth_token_command"] = SecretStr(command)
    s = _settings(sasl_kafka, tmp_path, security)
    logins_before = len(sasl_kafka.front.logins)
    lines = tmp_path / "lines.jsonl"
    lines.write_bytes(b"".join(b'{"event_id": "e-%d"}\n' % i for i in range(30)))
    assert replay(s, lines) == 30
    got = asyncio.run(
        read_until(s, [s.events_topic], lambda g: len(g[s.events_topic]) >= 30, timeout_s=30)
    )
    assert sorted(r.key for r in got[s.events_topic]) == sorted(b"e-%d" % i for i in range(30))
    wanted = mechanism.split("-file")[0].split("-command")[0]
    logins = sasl_kafka.front.logins[logins_before:]
    assert logins and all(ok and mech == wanted for mech, ok in logins)


def test_a_wrong_password_is_one_line_and_exit_2(sasl_kafka: SecuredKafka, tmp_path: Path) -> None:
    good = _settings(sasl_kafka, tmp_path, _scram(sasl_kafka))
    bad = good.model_copy(update={"kafka_sasl_password": SecretStr("not the password")})
    events_file = tmp_path / "events.jsonl"
    events_file.write_bytes(b'{"event_id": "e-1"}\n')
    for command in (["replay", str(events_file)], ["worker"], ["ab", "--experiment", "x"]):
        line = _one_line(_cli(command, bad))
        assert line == (
            f"ragmon: cannot use Kafka at {sasl_kafka.bootstrap_servers}: SASL SCRAM-SHA-512 "
            f"authentication as {USER} failed: the broker rejected the credentials [SASL_SSL]"
        )
        assert "not the password" not in line
    assert sasl_kafka.front.logins[-1] == ("SCRAM-SHA-512", False)
    # and an OAUTHBEARER token the broker does not accept
    token_file = tmp_path / "stale-token"
    token_file.write_text("expired-token")
    oauth = good.model_copy(
        update={
            "kafka_sasl_mechanism": "OAUTHBEARER",
            "kafka_sasl_oauth_token_file": token_file,
            "kafka_sasl_username": None,
            "kafka_sasl_password": None,
        }
    )
    line = _one_line(_cli(["replay", str(events_file)], oauth))
    assert line.endswith("SASL OAUTHBEARER authentication failed: the broker rejected the "
                         "credentials [SASL_SSL]")  # fmt: skip
    assert "expired-token" not in line


def test_an_untrusted_ca_is_one_line_and_exit_2(sasl_kafka: SecuredKafka, tmp_path: Path) -> None:
    good = _settings(sasl_kafka, tmp_path, _scram(sasl_kafka))
    events_file = tmp_path / "events.jsonl"
    events_file.write_bytes(b'{"event_id": "e-1"}\n')
    for cafile in (sasl_kafka.pki.other_ca_file, None):  # another CA; the system's bundle
        bad = good.model_copy(update={"kafka_ssl_cafile": cafile})
        for command in (["replay", str(events_file)], ["worker"]):
            line = _one_line(_cli(command, bad))
            assert line.startswith(f"ragmon: cannot use Kafka at {sasl_kafka.bootstrap_servers}: "
                                   "TLS: the broker's certificate is not trusted (")  # fmt: skip
            assert "MONITOR_KAFKA_SSL_CAFILE" in line


def test_mutual_tls_with_an_encrypted_key_and_hostname_verification(
    mtls_kafka: SecuredKafka, tmp_path: Path
) -> None:
    pki = mtls_kafka.pki
    security = {
        "kafka_security_protocol": "SSL",
        "kafka_ssl_cafile": pki.ca_file,
        "kafka_ssl_certfile": pki.client_cert,
        "kafka_ssl_keyfile": pki.client_key,
        "kafka_ssl_key_password": SecretStr(pki.key_password),
        # the broker's certificate names broker.test, the clients connect to 127.0.0.1
        "kafka_ssl_check_hostname": False,
    }
    s = _settings(mtls_kafka, tmp_path, security)
    asyncio.run(produce(s, [(b"k-%d" % i, b"v-%d" % i) for i in range(20)], s.events_topic))
    got = asyncio.run(
        read_until(s, [s.events_topic], lambda g: len(g[s.events_topic]) >= 20, timeout_s=30)
    )
    assert sorted(r.value for r in got[s.events_topic]) == sorted(b"v-%d" % i for i in range(20))

    events_file = tmp_path / "events.jsonl"
    events_file.write_bytes(b'{"event_id": "e-1"}\n')
    checked = s.model_copy(update={"kafka_ssl_check_hostname": True})
    line = _one_line(_cli(["replay", str(events_file)], checked))
    assert "TLS: the broker's certificate does not name this host (" in line
    assert "MONITOR_KAFKA_SSL_CHECK_HOSTNAME=false" in line

    no_client_cert = s.model_copy(
        update={
            "kafka_ssl_certfile": None,
            "kafka_ssl_keyfile": None,
            "kafka_ssl_key_password": None,
        }
    )
    line = _one_line(_cli(["replay", str(events_file)], no_client_cert))
    assert line.startswith(f"ragmon: cannot use Kafka at {mtls_kafka.bootstrap_servers}: ")
    assert "does it require a client certificate? see MONITOR_KAFKA_SSL_CERTFILE" in line

    wrong_key_password = s.model_copy(update={"kafka_ssl_key_password": SecretStr("nope")})
    line = _one_line(_cli(["replay", str(events_file)], wrong_key_password))
    assert "cannot decrypt the key (wrong MONITOR_KAFKA_SSL_KEY_PASSWORD?)" in line
    assert pki.key_password not in line


def test_tansu_authentication_rejects_a_scram_login_in_one_line(tmp_path: Path) -> None:
    """Tansu's own ``--authentication`` (SASL on the broker, no front): it offers SCRAM and
    every login fails (its memory storage keeps no credentials), which the CLI reports as
    one line; a plaintext client is refused as well."""
    with EmbeddedBroker(log_path=tmp_path / "broker.log", authentication=True) as broker:
        s = Settings(
            bootstrap_servers=broker.bootstrap_servers,
            kafka_security_protocol="SASL_PLAINTEXT",
            kafka_sasl_mechanism="SCRAM-SHA-512",
            kafka_sasl_username=USER,
            kafka_sasl_password=SecretStr(PASSWORD),
            kafka_connect_timeout_s=10,
        )
        events_file = tmp_path / "events.jsonl"
        events_file.write_bytes(b'{"event_id": "e-1"}\n')
        line = _one_line(_cli(["replay", str(events_file)], s))
        assert line.startswith(f"ragmon: cannot use Kafka at {broker.bootstrap_servers}: SASL "
                               "SCRAM-SHA-512 authentication failed")  # fmt: skip
        plain = Settings(bootstrap_servers=s.bootstrap_servers, kafka_connect_timeout_s=10)
        line = _one_line(_cli(["replay", str(events_file)], plain))
        assert line == (
            f"ragmon: cannot use Kafka at {broker.bootstrap_servers}: the broker closed the "
            "connection at the first request (does it require SASL? "
            "MONITOR_KAFKA_SECURITY_PROTOCOL is PLAINTEXT) [PLAINTEXT]"
        )
