"""``construct`` builds the same models as pydantic's ``model_construct``."""

from __future__ import annotations

import orjson

from monitor.demo.traffic import TrafficGenerator
from monitor.events.construct import construct
from monitor.events.scored_event import CragAction, QualityScore, ScoredEvent
from monitor.pipeline import decode_event, score_event


def test_equals_model_construct_and_serialises_the_same() -> None:
    values = dict(
        overall=0.5,
        retrieval_confidence=0.4,
        context_sufficiency=0.3,
        diversity_score=0.2,
        estimated_faithfulness=0.1,
        warning=None,
    )
    fast, slow = construct(QualityScore, **values), QualityScore.model_construct(**values)
    assert fast == slow
    assert fast.model_dump_json() == slow.model_dump_json()
    assert fast.model_fields_set == slow.model_fields_set
    action = construct(CragAction, type="supplemental_search", sub_queries=None, search_query="x")
    assert action.model_dump() == {"type": "supplemental_search", "search_query": "x"}


def test_scored_events_survive_validation() -> None:
    gen = TrafficGenerator(seed=9, malformed_rate=0.0)
    for _ in range(200):
        scored = score_event(decode_event(orjson.dumps(gen.event())))
        again = ScoredEvent.model_validate_json(scored.model_dump_json())
        assert again == scored
