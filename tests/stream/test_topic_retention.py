"""Topics are created with ``retention.ms`` from the settings (the embedded broker stores
and describes topic configurations); the partials topic must outlive what a restart reads."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from monitor.config import Settings, load_settings
from monitor.errors import ConfigError
from monitor.stream.kafka import client_options, ensure_topics

pytestmark = [pytest.mark.broker, pytest.mark.timeout(60)]

TOPIC_FIELDS = (
    "events_topic",
    "scores_topic",
    "dlq_topic",
    "alerts_topic",
    "ab_results_topic",
    "partials_topic",
    "windows_topic",
)


async def _retention_ms(settings: Settings) -> dict[str, str]:
    admin = AIOKafkaAdminClient(**client_options(settings))
    await admin.start()
    try:
        resources = [ConfigResource(ConfigResourceType.TOPIC, t) for t in settings.topics()]
        answers = await admin.describe_configs(resources)
    finally:
        await admin.close()
    found = {}
    for answer in answers:
        for resource in answer.resources:
            name, entries = resource[3], resource[4]
            for entry in entries:
                if entry[0] == "retention.ms":
                    found[name] = entry[1]
    return found


def test_topics_are_created_with_their_retention(stream_settings: Settings) -> None:
    prefix = f"retention-{uuid.uuid4().hex[:8]}."  # topics no fixture created yet
    names = {field: prefix + getattr(Settings(), field) for field in TOPIC_FIELDS}
    s = stream_settings.model_copy(
        update={
            **names,
            "topic_retention_ms": 3 * 86_400_000,
            "topic_retention_overrides_ms": {
                names["events_topic"]: 3_600_000,
                names["partials_topic"]: -1,
            },
        }
    )
    asyncio.run(ensure_topics(s))
    expected = {t: str(3 * 86_400_000) for t in s.topics()}
    expected[s.events_topic] = "3600000"
    expected[s.partials_topic] = "-1"
    assert asyncio.run(_retention_ms(s)) == expected


def test_retention_settings_are_checked() -> None:
    assert Settings().retention_ms("rag.events.v1") == 7 * 86_400_000
    with pytest.raises(ConfigError, match="is not a ragmon topic"):
        load_settings(topic_retention_overrides_ms={"rag.evnets.v1": 1000})
    # a worker restarting rebuilds a day of baselines from the partials topic
    with pytest.raises(ConfigError, match=r"rag\.window-partials\.v1"):
        load_settings(topic_retention_overrides_ms={"rag.window-partials.v1": 3_600_000})
    with pytest.raises(ConfigError, match="MONITOR_TOPIC_RETENTION_MS"):
        load_settings(topic_retention_ms=-2)
