"""``wait_for_broker``: a bounded wait until something listens at the bootstrap servers.

``ragmon worker`` and ``ragmon replay`` call it before they start, so a broker that is
down (or a wrong ``MONITOR_BOOTSTRAP_SERVERS``) is one line and exit code 2 after
``MONITOR_BROKER_WAIT_S`` seconds, not a page of client logs and a traceback; a broker
that is still starting (a compose stack) is waited for. Only the TCP connection is waited
for: once a server accepts it, :func:`~monitor.stream.kafka_check.check_connection` says at
once what is wrong with TLS or SASL (a wrong password is not worth waiting 30 s for).
"""

from __future__ import annotations

import asyncio
import time

from monitor.config import Settings
from monitor.errors import BrokerError
from monitor.stream.kafka_check import bootstrap_hosts

__all__ = ["check_broker", "wait_for_broker"]

_RETRY_S = 0.5
_CONNECT_S = 5.0


async def _listening(host: str, port: int, timeout_s: float) -> str | None:
    """None when ``host:port`` accepts a TCP connection, else why not."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout_s)
    except TimeoutError:
        return "no answer"
    except OSError:
        return "cannot connect"
    writer.close()
    return None


async def wait_for_broker(settings: Settings, timeout_s: float | None = None) -> None:
    """Return once one of ``settings.bootstrap_servers`` accepts a connection; raise
    :class:`BrokerError` (one line) when none did within ``timeout_s`` (default
    ``settings.broker_wait_s``; 0 tries once)."""
    wait_s = settings.broker_wait_s if timeout_s is None else timeout_s
    deadline = time.monotonic() + wait_s
    hosts = bootstrap_hosts(settings.bootstrap_servers)
    if not hosts:
        raise BrokerError("MONITOR_BOOTSTRAP_SERVERS is empty")
    last = "no answer"
    while True:
        remaining_s = deadline - time.monotonic()
        for host, port in hosts:
            why = await _listening(host, port, max(1.0, min(_CONNECT_S, remaining_s)))
            if why is None:
                return
            last = why
        remaining_s = deadline - time.monotonic()
        if remaining_s <= 0:
            break
        await asyncio.sleep(min(_RETRY_S, remaining_s))
    raise BrokerError(
        f"no Kafka broker answered at {settings.bootstrap_servers} within {wait_s:g} s "
        f"(MONITOR_BOOTSTRAP_SERVERS, MONITOR_BROKER_WAIT_S): {last}"
    )


def check_broker(settings: Settings) -> None:
    """:func:`wait_for_broker` from synchronous code, on a loop of its own that is closed
    afterwards (the caller's event loop, if any, is left alone)."""
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(wait_for_broker(settings))
    finally:
        loop.close()
