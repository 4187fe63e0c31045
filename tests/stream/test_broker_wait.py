"""``wait_for_broker``: a live broker answers at once; a dead address is one BrokerError."""

from __future__ import annotations

import asyncio

import pytest

from monitor.config import Settings
from monitor.errors import BrokerError
from monitor.stream.broker import EmbeddedBroker, free_port
from monitor.stream.broker_wait import check_broker, wait_for_broker


def test_a_running_broker_is_found(broker: EmbeddedBroker) -> None:
    check_broker(Settings(bootstrap_servers=broker.bootstrap_servers, broker_wait_s=5))


def test_nothing_listening_raises_one_line_after_the_wait() -> None:
    address = f"127.0.0.1:{free_port()}"
    settings = Settings(bootstrap_servers=address, broker_wait_s=0.5)
    with pytest.raises(BrokerError) as info:
        asyncio.run(wait_for_broker(settings))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"no Kafka broker answered at {address} within 0.5 s")
    assert message.endswith(": cannot connect")


def test_a_broker_that_starts_during_the_wait_is_found() -> None:
    port = free_port()
    settings = Settings(bootstrap_servers=f"127.0.0.1:{port}", broker_wait_s=30)

    async def scenario() -> None:
        waiting = asyncio.create_task(wait_for_broker(settings))
        await asyncio.sleep(1.0)
        assert not waiting.done()  # still waiting: nothing listens yet
        with EmbeddedBroker(port=port):
            await asyncio.wait_for(waiting, timeout=30)

    asyncio.run(scenario())
