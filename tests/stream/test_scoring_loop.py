"""``ScoringLoop`` with a fake consumer and producer: no single message stalls a batch."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from typing import Any

import orjson
import pytest
from aiokafka import ConsumerRecord, TopicPartition
from aiokafka.errors import KafkaConnectionError, MessageSizeTooLargeError

from monitor.config import Settings
from monitor.errors import EventError
from monitor.stream.scoring_loop import (
    RECORD_OVERHEAD_BYTES,
    Batch,
    LoopStats,
    ScoringLoop,
    dead_letter_for,
)
from monitor.stream.window_feed import WindowFeed

TOPIC = "rag.events.v1"
TP = TopicPartition(TOPIC, 0)
YEAR_MS = 365 * 86_400_000


def now_ms() -> int:
    return int(time.time() * 1000)


def event(event_id: str, timestamp_ms: int | None = None) -> bytes:
    return json.dumps(
        {
            "schema_version": "1",
            "event_id": event_id,
            "timestamp_ms": now_ms() if timestamp_ms is None else timestamp_ms,
            "query": {"text": "vacation policy?"},
            "chunks": [{"content": "15 days of vacation", "score": 0.8}],
        }
    ).encode()  # json, not orjson: 2**64 must be writable


def record(
    offset: int, value: bytes | None, key: bytes | None = None
) -> ConsumerRecord[bytes, bytes]:
    size = len(value or b"")
    return ConsumerRecord(TOPIC, 0, offset, now_ms(), 0, key, value, None, 0, size, ())


class FakeProducer:
    """Acknowledges every message except the scores keyed ``fail_key`` (rejected the way a
    broker rejects a record: the send's future fails), or every message when ``down``."""

    def __init__(self, fail_key: bytes | None = None, error: Exception | None = None) -> None:
        self.fail_key = fail_key
        self.error = error or MessageSizeTooLargeError()
        self.down = False
        self.delivered: list[tuple[str, bytes | None, bytes]] = []

    async def send(
        self, topic: str, value: bytes, key: bytes | None = None, partition: int | None = None
    ) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.down or (topic.endswith("scores") and key is not None and key == self.fail_key):
            future.set_exception(self.error)
        else:
            self.delivered.append((topic, key, value))
            future.set_result(None)
        return future

    def on(self, topic: str) -> list[Any]:
        return [orjson.loads(v) for t, _, v in self.delivered if t == topic]


class FakeConsumer:
    def __init__(self) -> None:
        self.committed: dict[TopicPartition, int] = {}

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        for tp, offset in offsets.items():
            assert offset > self.committed.get(tp, -1), "commits move forward"
            self.committed[tp] = offset

    def highwater(self, tp: TopicPartition) -> int | None:
        return None


def settings(**overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "scores_topic": "scores",
        "dlq_topic": "dlq",
        "partials_topic": "partials",
        "events_topic": TOPIC,
    }
    return Settings(**(base | overrides))


def loop_with(producer: FakeProducer, s: Settings, feed: bool = False) -> ScoringLoop:
    loop = ScoringLoop(
        s, LoopStats(), producer=producer, feed=WindowFeed(s, None) if feed else None
    )  # type: ignore[arg-type]
    loop.consumer = FakeConsumer()  # type: ignore[assignment]
    return loop


def batch_of(values: list[tuple[bytes | None, bytes | None]]) -> Batch:
    return {TP: [record(i, v, k) for i, (k, v) in enumerate(values)]}


def test_a_record_that_fails_its_batch_twice_is_found_and_dead_lettered() -> None:
    producer = FakeProducer(fail_key=b"poison")
    loop = loop_with(producer, settings(), feed=True)
    values = [(f"e{i}".encode(), event(f"e{i}")) for i in range(10)]
    values[6] = (b"poison", event("poison"))
    batch = batch_of(values)

    async def scenario() -> None:
        with pytest.raises(MessageSizeTooLargeError):  # the first failure is retried as is
            await loop._handle(batch)
        producer.delivered.clear()
        await loop._handle(batch)  # the second is split

    asyncio.run(scenario())
    letters = producer.on("dlq")
    assert [(x["offset"], x["error"]["reason"], x["error"]["stage"]) for x in letters] == [
        (6, "produce_failed", "produce")
    ]
    assert letters[0]["error"]["detail"] == "MessageSizeTooLargeError"
    assert base64.b64decode(letters[0]["payload_b64"]) == values[6][1]
    scored = [x["event_id"] for x in producer.on("scores")]
    # at least once (the attempts that failed sent some scores too); windows count once
    assert set(scored) == {f"e{i}" for i in range(10) if i != 6}
    partials = producer.on("partials")
    covered = sorted(o for p in partials for s in p["sources"] for o in range(s[2], s[3] + 1))
    assert covered == list(range(10))  # every offset in exactly one partial
    assert loop.consumer.committed == {TP: 10}  # type: ignore[union-attr]
    assert loop.stats.split_batches == 1
    assert loop.stats.dead_letters == {"produce_failed": 1}
    assert loop.stats.scored == 9


def test_a_broker_outage_is_retried_never_split() -> None:
    producer = FakeProducer(error=KafkaConnectionError())
    producer.down = True
    loop = loop_with(producer, settings())
    batch = batch_of([(b"e1", event("e1")), (b"e2", event("e2"))])

    async def scenario() -> None:
        for _ in range(3):
            with pytest.raises(KafkaConnectionError):
                await loop._handle(batch)
        producer.down = False
        await loop._handle(batch)

    asyncio.run(scenario())
    assert loop.stats.split_batches == 0
    assert producer.on("dlq") == []
    assert sorted(x["event_id"] for x in producer.on("scores")) == ["e1", "e2"]


def test_event_time_out_of_range_is_dead_lettered_and_never_reaches_a_partial() -> None:
    producer = FakeProducer()
    loop = loop_with(producer, settings(), feed=True)
    batch = batch_of(
        [
            (b"ahead", event("ahead", now_ms() + 10 * YEAR_MS)),
            (b"huge", event("huge", 2**64)),
            (b"old", event("old", now_ms() - 8 * 86_400_000)),
            (b"ok", event("ok")),
        ]
    )
    asyncio.run(loop._handle(batch))
    letters = producer.on("dlq")
    assert [x["error"]["reason"] for x in letters] == ["timestamp_out_of_range"] * 3
    assert {x["error"]["field"] for x in letters} == {"timestamp_ms"}
    assert [x["event_id"] for x in producer.on("scores")] == ["ok"]
    (partial,) = producer.on("partials")
    assert partial["max_timestamp_ms"] <= now_ms()
    assert all(s[4] <= now_ms() for s in partial["sources"])


def test_empty_value_is_empty_payload() -> None:
    producer = FakeProducer()
    loop = loop_with(producer, settings())
    asyncio.run(loop._handle(batch_of([(b"k", b""), (b"k2", None)])))
    assert [x["error"]["reason"] for x in producer.on("dlq")] == ["empty_payload"] * 2


def test_a_scored_event_too_large_for_the_topic_is_dead_lettered() -> None:
    producer = FakeProducer()
    s = settings(max_message_bytes=1_048_576, max_event_bytes=4_000_000)
    loop = loop_with(producer, s)
    big = "x" * 700_000  # in the key and in the value: over 1 MiB together
    asyncio.run(loop._handle(batch_of([(b"big", event(big)), (b"ok", event("ok"))])))
    (letter,) = producer.on("dlq")
    assert (letter["error"]["stage"], letter["error"]["reason"]) == ("produce", "result_too_large")
    assert [x["event_id"] for x in producer.on("scores")] == ["ok"]
    assert all(len(v) + len(k or b"") <= s.max_message_bytes for _, k, v in producer.delivered)


def test_a_dead_letter_too_large_for_the_topic_is_truncated() -> None:
    payload = b'{"schema_version": "2", "padding": "' + b"y" * 3_000_000 + b'"}'
    error = EventError("validate", "unsupported_schema_version", "schema_version", "only 1")
    value = dead_letter_for(record(7, payload, b"k"), error, max_bytes=1_048_576)
    assert len(value) + 1 + RECORD_OVERHEAD_BYTES <= 1_048_576
    letter = orjson.loads(value)
    assert letter["truncated"] is True
    assert letter["error"]["reason"] == "unsupported_schema_version"
    kept = base64.b64decode(letter["payload_b64"])
    assert payload.startswith(kept) and len(kept) > 700_000
    capped = orjson.loads(
        dead_letter_for(record(7, payload), error, max_bytes=16_777_216, max_payload_bytes=1000)
    )
    assert capped["truncated"] is True
    assert base64.b64decode(capped["payload_b64"]) == payload[:1000]
    whole = orjson.loads(dead_letter_for(record(7, b"{}"), error, max_bytes=1_048_576))
    assert whole["truncated"] is False and base64.b64decode(whole["payload_b64"]) == b"{}"


def test_a_dead_letter_with_a_huge_key_still_fits() -> None:
    error = EventError("decode", "invalid_json", None, "Invalid JSON")
    rec = record(1, b"z" * 900_000, b"k" * 900_000)
    loop = loop_with(FakeProducer(), settings(max_message_bytes=1_048_576))
    asyncio.run(loop._handle({TP: [rec]}))
    ((_, key, value),) = loop.producer.delivered  # type: ignore[union-attr]
    assert len(key or b"") + len(value) + RECORD_OVERHEAD_BYTES <= 1_048_576
    assert orjson.loads(value)["truncated"] is True
    del error
