"""``ragmon replay``: produce a JSON-lines file of events to the events topic.

Lines are sent as they are, keyed by their ``event_id`` when one can be read, so a bad
line reaches the worker and its dead-letter topic exactly as a bad producer's would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from pathlib import Path

import orjson

from monitor.config import Settings
from monitor.stream.kafka import ensure_topics, new_producer
from monitor.stream.kafka_check import check_connection

__all__ = ["event_key", "produce_lines", "replay"]


def event_key(line: bytes) -> bytes | None:
    """The ``event_id`` of a JSON line, or ``None``.

    >>> event_key(b'{"event_id": "e-1"}'), event_key(b"oops")
    (b'e-1', None)
    """
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    event_id = value.get("event_id") if isinstance(value, dict) else None
    return event_id.encode() if isinstance(event_id, str) else None


async def produce_lines(
    settings: Settings, lines: Iterable[bytes], *, rate: float | None = None
) -> int:
    """Send every non-empty line; with ``rate``, at most that many per second."""
    producer = new_producer(settings, linger_ms=10)
    await producer.start()
    sent = 0
    started = time.monotonic()
    try:
        pending = []
        for raw in lines:
            line = raw.rstrip(b"\r\n")
            if not line:
                continue
            if rate:
                ahead_s = sent / rate - (time.monotonic() - started)
                if ahead_s > 0:
                    await asyncio.sleep(ahead_s)
            pending.append(await producer.send(settings.events_topic, line, key=event_key(line)))
            sent += 1
            if len(pending) >= 5000:
                await asyncio.gather(*pending)
                pending.clear()
        await asyncio.gather(*pending)
    finally:
        await producer.stop()
    return sent


def replay(settings: Settings, path: Path, *, rate: float | None = None) -> int:
    async def main() -> int:
        await check_connection(settings)
        await ensure_topics(settings)
        with path.open("rb") as lines:
            return await produce_lines(settings, lines, rate=rate)

    return asyncio.run(main())
