"""Issue 11 findings 7 and 8 on the real worker: with a label hash key no raw label value,
and by default no query text, reaches the scores or partials topics or ``/metrics``."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path

import orjson
import pytest
from kafka_io import produce, read_until
from pydantic import SecretStr

from monitor.config import Settings
from monitor.stream.worker_process import start_worker, stop_process
from monitor.windows.labels import LabelPolicy

pytestmark = [pytest.mark.broker, pytest.mark.timeout(180)]

SECRET = "sk-live-4fQ9zT2mXw8Rb7Lk0PaN3sVe"
BIG = "v" * 250_000
RAW = ("tenant-acme", "app-support", "exp-rerank", "arm-a", "arm-b")


def events(n: int) -> list[tuple[bytes | None, bytes]]:
    out: list[tuple[bytes | None, bytes]] = []
    for i in range(n):
        event = {
            "schema_version": "1",
            "event_id": f"e{i}",
            "timestamp_ms": 1_795_353_600_000 + i,
            "tenant": RAW[0],
            "application": RAW[1],
            "experiment": RAW[2],
            "variant": RAW[3 + i % 2] if i % 10 else BIG,
            "query": {"text": f"What is the refund policy and does key {SECRET} still work?"},
            "chunks": [{"chunk_id": "c1", "content": "Refunds take 14 days.", "score": 0.5}],
        }
        out.append((None, orjson.dumps(event)))
    return out


def test_hashed_labels_and_no_query_text_leave_the_worker(
    stream_settings: Settings, tmp_path: Path
) -> None:
    key = SecretStr("a-label-hash-key-0123")
    s = stream_settings.model_copy(update={"label_hash_key": key})
    policy = LabelPolicy.from_settings(s)
    worker = start_worker(s, tmp_path / "worker.log")
    try:
        asyncio.run(produce(s, events(100)))
        got = asyncio.run(
            read_until(
                s,
                [s.scores_topic, s.partials_topic],
                lambda g: len(g[s.scores_topic]) >= 100 and len(g[s.partials_topic]) >= 1,
            )
        )
        assert len(got[s.scores_topic]) == 100, (tmp_path / "worker.log").read_text()[-3000:]
        url = f"http://127.0.0.1:{s.web_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            metrics = response.read()
    finally:
        stop_process(worker)
    texts = [r.value for r in got[s.scores_topic]] + [r.value for r in got[s.partials_topic]]
    texts.append(metrics)
    for text in texts:
        assert b"vvvvvvvv" not in text and SECRET.encode() not in text
        for raw in RAW:
            assert raw.encode() not in text
    variants = {orjson.loads(r.value)["variant"] for r in got[s.scores_topic]}
    assert variants == {policy.export("arm-a"), policy.export("arm-b"), "invalid"}
    assert len(metrics) < 200_000
    assert f'variant="{policy.export("arm-a")}"'.encode() in metrics
