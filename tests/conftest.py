"""Shared fixtures. Tests that need Kafka start the embedded broker (Tansu) themselves,
once per session, and stop it at the end; each test gets its own topics and group."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.failover_scenarios import scenario_settings
from monitor.config import Settings
from monitor.stream.broker import EmbeddedBroker

pytest_plugins = ["ab_fixtures"]  # the A/B tests' ``merge`` fixture


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    log = tmp_path_factory.mktemp("broker") / "broker.log"
    with EmbeddedBroker(log_path=log) as running:
        yield running


@pytest.fixture
def stream_settings(broker: EmbeddedBroker, tmp_path: Path) -> Settings:
    """Settings for one test: fresh topic names and group on the session's broker."""
    return scenario_settings(
        broker.bootstrap_servers,
        tmp_path,
        consumer_group=f"test-{uuid.uuid4().hex[:8]}",
        # the broker tests replay fixed event times (2023 onwards); the event-age limit
        # itself is tested in tests/stream/test_poison_broker.py
        max_event_age_ms=20 * 365 * 86_400_000,
    )
