"""The scenario modules' doctests (bench/ is outside pytest's doctest paths) and the
shape of their traffic."""

from __future__ import annotations

import doctest
import importlib

import orjson
import pytest

from bench.scenarios.traffic import FAULT_KINDS, Fault, ScenarioTraffic
from monitor.events.rag_event import RagEvent


@pytest.mark.parametrize(
    "name", ["bench.scenarios.corpus", "bench.scenarios.prompts", "bench.scenarios.traffic"]
)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_same_seed_same_traffic_and_valid_events() -> None:
    a = list(ScenarioTraffic(3, 1.0, 120_000).records())
    assert a == list(ScenarioTraffic(3, 1.0, 120_000).records())
    for _, payload in a:
        e = RagEvent.model_validate_json(payload)
        scores = [c.rerank_score for c in e.chunks]
        assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
        assert all(0.0 <= (s or 0.0) <= 1.0 for s in scores)


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_a_fault_changes_only_its_interval(kind: str) -> None:
    fault = Fault(kind, 1_767_225_660_000, 1_767_225_720_000)  # type: ignore[arg-type]
    healthy = dict(ScenarioTraffic(4, 2.0, 180_000).records())
    faulty = dict(ScenarioTraffic(4, 2.0, 180_000, faults=[fault]).records())
    assert healthy.keys() == faulty.keys()
    changed = [ts for ts in healthy if healthy[ts] != faulty[ts]]
    assert changed and all(fault.active(ts) for ts in changed)
    assert orjson.loads(healthy[min(healthy)])["schema_version"] == "1"
