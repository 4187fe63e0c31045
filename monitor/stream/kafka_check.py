"""Before a command works with Kafka, one connection to a bootstrap server with the
configured TLS and SASL: what fails (an untrusted certificate, a hostname mismatch, wrong
credentials, a mechanism the broker does not offer, an unreachable address) becomes one
``BrokerError`` line, where the clients themselves would only log "Unable to bootstrap".
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from typing import Any

from aiokafka import errors
from aiokafka.conn import create_conn
from aiokafka.protocol.metadata import MetadataRequest

from monitor.config import Settings
from monitor.errors import BrokerError, MonitorError
from monitor.stream.kafka_security import security_options

__all__ = ["bootstrap_hosts", "check_connection", "describe_failure"]


def bootstrap_hosts(bootstrap_servers: str) -> list[tuple[str, int]]:
    """``host:port`` pairs (port 9092 when left out; IPv6 in brackets).

    >>> bootstrap_hosts("a:9093, [::1]:9094,b")
    [('a', 9093), ('::1', 9094), ('b', 9092)]
    """
    out = []
    for item in bootstrap_servers.split(","):
        item = item.strip()
        if not item:
            continue
        if item.startswith("["):
            host, _, port = item[1:].partition("]")
            port = port.removeprefix(":")
        elif item.count(":") == 1:
            host, port = item.split(":")
        else:
            host, port = item, ""
        out.append((host, int(port) if port.isdigit() else 9092))
    return out


def describe_failure(exc: BaseException, settings: Settings) -> str:
    """Why a connection failed, as a short phrase that holds no secret."""
    protocol, mechanism = settings.kafka_security_protocol, settings.kafka_sasl_mechanism
    if isinstance(exc, ssl.SSLCertVerificationError):
        message = exc.verify_message or exc.reason or "verification failed"
        if "hostname" in message.lower() or "ip address mismatch" in message.lower():
            return (
                f"TLS: the broker's certificate does not name this host ({message}; "
                "MONITOR_KAFKA_SSL_CHECK_HOSTNAME=false skips that check)"
            )
        return (
            f"TLS: the broker's certificate is not trusted ({message}; "
            "set MONITOR_KAFKA_SSL_CAFILE to the CA that signed it)"
        )
    if isinstance(exc, ssl.SSLError):
        return f"TLS handshake failed ({exc.reason or exc})"
    if isinstance(exc, errors.SaslAuthenticationFailed):
        who = f" as {settings.kafka_sasl_username}" if mechanism != "OAUTHBEARER" else ""
        return f"SASL {mechanism} authentication{who} failed: the broker rejected the credentials"
    if isinstance(exc, errors.UnsupportedSaslMechanismError):
        return f"SASL: the broker does not offer {mechanism}"
    if isinstance(exc, errors.IllegalSaslStateError):
        return f"SASL {mechanism}: the broker ended the exchange ({exc})"
    if isinstance(exc, MonitorError):  # a token command or file that failed
        return str(exc)
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return f"no answer within the timeout ({protocol}: is it the broker's {protocol} port?)"
    if isinstance(exc, errors.KafkaConnectionError | ConnectionError | OSError):
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        reason = reason.removeprefix(f"{type(exc).__name__}: ")
        if "closed" not in reason:
            return f"cannot connect ({reason})"
        if protocol.startswith("SASL"):
            hint = f"does it offer {mechanism}?"
        elif protocol == "SSL" and settings.kafka_ssl_certfile is None:
            hint = "does it require a client certificate? see MONITOR_KAFKA_SSL_CERTFILE"
        elif protocol == "PLAINTEXT":
            hint = "a TLS or SASL listener? MONITOR_KAFKA_SECURITY_PROTOCOL is PLAINTEXT"
        else:
            hint = ""
        if hint:
            return f"the broker closed the connection ({reason}; {hint})"
        return f"the broker closed the connection ({reason})"
    if protocol.startswith("SASL"):  # a malformed or unexpected answer to the SASL exchange
        return f"SASL {mechanism} authentication failed (unexpected answer: {type(exc).__name__})"
    return f"{type(exc).__name__}: {exc}"


def _refused(exc: BaseException, settings: Settings) -> str:
    """Why a broker that accepted the connection would not answer a metadata request."""
    protocol = settings.kafka_security_protocol
    if not protocol.startswith("SASL"):
        return (
            f"the broker closed the connection at the first request (does it require SASL? "
            f"MONITOR_KAFKA_SECURITY_PROTOCOL is {protocol})"
        )
    return f"the broker would not answer after the login ({describe_failure(exc, settings)})"


async def check_connection(settings: Settings) -> None:
    """Connect to the bootstrap servers in turn until one accepts the connection, TLS and
    SASL included; raise ``BrokerError`` with the reason of the first failure otherwise."""
    options: dict[str, Any] = security_options(settings)
    hosts = bootstrap_hosts(settings.bootstrap_servers)
    if not hosts:
        raise BrokerError("MONITOR_BOOTSTRAP_SERVERS is empty")
    timeout_s = settings.kafka_connect_timeout_s
    first: str | None = None
    quiet = logging.getLogger("aiokafka.conn")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # the one line below says it
    try:
        for host, port in hosts:
            try:
                conn = await asyncio.wait_for(
                    create_conn(host, port, request_timeout_ms=int(timeout_s * 1000), **options),
                    timeout_s,
                )
            except Exception as exc:
                if first is None:
                    first = f"{host}:{port}: {describe_failure(exc, settings)}"
                continue
            try:  # connected (and logged in): does the broker serve this client?
                await asyncio.wait_for(conn.send(MetadataRequest([])), timeout_s)
            except Exception as exc:
                if first is None:
                    first = f"{host}:{port}: {_refused(exc, settings)}"
                continue
            finally:
                conn.close()
            return
    finally:
        quiet.setLevel(level)
    protocol = settings.kafka_security_protocol
    raise BrokerError(f"cannot use Kafka at {first} [{protocol}]")
