"""``wait_for_broker``: a bounded wait until the configured Kafka broker answers.

``ragmon worker`` and ``ragmon replay`` call it before they start, so a broker that is
down (or a wrong ``MONITOR_BOOTSTRAP_SERVERS``) is one line and exit code 2 after
``MONITOR_BROKER_WAIT_S`` seconds, not a page of client logs and a traceback; a broker
that is still starting (a compose stack) is waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator

from aiokafka.client import AIOKafkaClient
from aiokafka.errors import KafkaConnectionError, KafkaError

from monitor.config import Settings
from monitor.errors import BrokerError
from monitor.stream.kafka import client_options

__all__ = ["check_broker", "wait_for_broker"]

_RETRY_S = 0.5


@contextlib.contextmanager
def _quiet_clients() -> Iterator[None]:
    """The Kafka client logs every refused connection at ERROR; while probing, a refusal
    is expected, so those lines are held back (the caller reports the outcome once)."""
    logger = logging.getLogger("aiokafka")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


async def wait_for_broker(settings: Settings, timeout_s: float | None = None) -> None:
    """Return once a broker of ``settings.bootstrap_servers`` answers a metadata request;
    raise :class:`BrokerError` (one line) when none did within ``timeout_s`` (default
    ``settings.broker_wait_s``; 0 tries once)."""
    wait_s = settings.broker_wait_s if timeout_s is None else timeout_s
    deadline = time.monotonic() + wait_s
    last = "no answer"
    with _quiet_clients():
        while True:
            remaining_s = deadline - time.monotonic()
            client = AIOKafkaClient(**client_options(settings), request_timeout_ms=5_000)
            try:
                await asyncio.wait_for(client.bootstrap(), timeout=max(1.0, remaining_s))
                return
            except (KafkaError, OSError, TimeoutError) as exc:
                last = (
                    "cannot connect"
                    if isinstance(exc, KafkaConnectionError | OSError)
                    else "no answer"
                    if isinstance(exc, TimeoutError)
                    else " ".join(str(exc).split()) or type(exc).__name__
                )
            finally:
                with contextlib.suppress(Exception):
                    await client.close()
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
