"""Shared fixtures. Tests that need Kafka start the embedded broker (Tansu) themselves,
once per session, and stop it at the end; each test gets its own topics and group."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from monitor.config import Settings
from monitor.stream.broker import EmbeddedBroker, free_port
from monitor.stream.kafka import ensure_topics

pytest_plugins = ["ab_fixtures"]  # the A/B tests' ``merge`` fixture


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    log = tmp_path_factory.mktemp("broker") / "broker.log"
    with EmbeddedBroker(log_path=log) as running:
        yield running


@pytest.fixture
def stream_settings(broker: EmbeddedBroker, tmp_path: Path) -> Settings:
    """Settings for one test: fresh topic names and group on the session's broker."""
    uid = uuid.uuid4().hex[:8]
    settings = Settings(
        bootstrap_servers=broker.bootstrap_servers,
        consumer_group=f"test-{uid}",
        events_topic=f"{uid}.rag.events.v1",
        scores_topic=f"{uid}.rag.scores.v1",
        dlq_topic=f"{uid}.rag.events.dlq.v1",
        alerts_topic=f"{uid}.rag.alerts.v1",
        ab_results_topic=f"{uid}.rag.ab-results.v1",
        partials_topic=f"{uid}.rag.window-partials.v1",
        windows_topic=f"{uid}.rag.windows.v1",
        web_port=free_port(),
        data_dir=tmp_path / "worker",
        session_timeout_s=6.0,
        heartbeat_interval_s=1.0,
        # the broker tests replay fixed event times (2023 onwards); the event-age limit
        # itself is tested in tests/stream/test_poison_broker.py
        max_event_age_ms=20 * 365 * 86_400_000,
    )
    asyncio.run(ensure_topics(settings))
    return settings
