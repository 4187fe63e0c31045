"""The contract every scorer family keeps (issue 3): values in range, deterministic, no
mutation of the event, no exception on empty, Unicode-heavy or 1 MB inputs."""

from __future__ import annotations

import time
from typing import Any

import orjson
import pytest

from monitor.demo.traffic import TrafficGenerator
from monitor.events import RagEvent
from monitor.pipeline import decode_event, score_event
from monitor.scoring.families import FAMILIES, ScoringInput

UNIT_INTERVAL = (
    "overall",
    "retrieval_confidence",
    "context_sufficiency",
    "diversity_score",
    "estimated_faithfulness",
    "redundancy_ngram",
    "redundancy_tfidf",
    "unique_token_ratio",
    "claim_support_rate",
    "citation_validity_form",
    "citation_validity_content",
    "expected_claims_recall",
    "score",
    "confidence",
)
RETRIEVAL_PREFIXES = ("precision@", "recall@", "f1@", "ndcg@", "recall_any@", "recall_all@")


def _minimal(**extra: Any) -> RagEvent:
    return RagEvent.model_validate(
        {"schema_version": "1", "event_id": "e", "timestamp_ms": 0, "query": {"text": ""}} | extra
    )


def _events() -> dict[str, RagEvent]:
    gen = TrafficGenerator(seed=21, malformed_rate=0.0, injection_rate=0.2)
    events = {f"generated-{i}": decode_event(orjson.dumps(gen.event())) for i in range(40)}
    unicode_text = "Ünïcødé ☃ 日本語のテキスト 😀 \u200b\u202e ﬁ İstanbul ΣΑΣ e\u0301 " * 20
    labels = {
        "relevant_chunks": {"c1": 3, "c2": 0},
        "relevant_docs": {"d1": 2},
        "gold_supports": [{"rel_path": "a.md", "heading_path": "A > B", "snippets": ["x"]}],
        "required_support_groups": [[0]],
        "answerable": False,
        "gold_facts": [{"fact": "15 days", "aliases": ["fifteen days"]}],
        "expected_claims": ["15 days"],
        "forbidden_claims": ["30 days"],
    }
    chunk = {
        "chunk_id": "c1",
        "document_id": "d1",
        "content": unicode_text,
        "score": 0.5,
        "metadata": {"rel_path": "a.md", "heading_path": "A > B"},
    }
    big = "The policy grants 15 days of leave to employees in Berlin. " * 17_000  # ~1 MB
    events |= {
        "minimal": _minimal(),
        "empty-strings": _minimal(
            chunks=[{"content": ""}], response={"text": ""}, context={"text": ""}, labels={}
        ),
        "unicode": _minimal(
            query={"text": unicode_text},
            chunks=[chunk, chunk | {"chunk_id": "c2"}],
            response={"text": unicode_text, "citations": [{"chunk_id": "c1"}]},
            labels=labels,
        ),
        "one-megabyte": _minimal(
            query={"text": big[:20_000]},
            chunks=[
                {"chunk_id": f"c{i}", "document_id": "d1", "content": big[: 1_000_000 // 8]}
                for i in range(8)
            ],
            response={"text": big, "citations": [{"document_id": "d1"}]},
            labels=labels,
        ),
    }
    return events


EVENTS = _events()


def _check_ranges(value: Any, path: str, text_lengths: int) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _check_ranges(item, f"{path}.{key}", text_lengths)
            if isinstance(item, float) and (
                key in UNIT_INTERVAL or key.startswith(RETRIEVAL_PREFIXES) or key in ("mrr", "map")
            ):
                assert 0.0 <= item <= 1.0, f"{path}.{key} = {item}"
            if key in ("start", "end", "claims") or (
                key == "forbidden_claims_found" and item is not None
            ):
                assert isinstance(item, int) and 0 <= item <= text_lengths, f"{path}.{key} = {item}"
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_ranges(item, f"{path}[{i}]", text_lengths)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("name", sorted(EVENTS))
def test_family_contract(family: str, name: str) -> None:
    event = EVENTS[name]
    before = event.model_dump(mode="json")
    score = FAMILIES[family]
    started = time.perf_counter()
    first = score(ScoringInput.of(event))
    elapsed = time.perf_counter() - started
    second = score(ScoringInput.of(event))
    dump = {
        k: v.model_dump(mode="json") if hasattr(v, "model_dump") else v for k, v in first.items()
    }
    assert dump == {
        k: v.model_dump(mode="json") if hasattr(v, "model_dump") else v for k, v in second.items()
    }, "not deterministic"
    assert event.model_dump(mode="json") == before, "the event was mutated"
    longest = max(len(event.query.text), len(event.response.text) if event.response else 0)
    _check_ranges(dump, family, longest)
    assert elapsed < 1.0, f"{family} took {elapsed:.2f} s on {name}"


def test_scored_events_validate_against_their_model() -> None:
    for event in EVENTS.values():
        scored = score_event(event)
        again = type(scored).model_validate_json(scored.model_dump_json())
        assert again.model_dump() == scored.model_dump()


_SCORE_IN_CHILD = """
import sys, orjson
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
gen = TrafficGenerator(seed=31, malformed_rate=0.0, injection_rate=0.2)
out = []
for _ in range(300):
    d = score_event(decode_event(orjson.dumps(gen.event()))).model_dump(mode="json")
    d.pop("scoring_us")
    out.append(d)
sys.stdout.buffer.write(orjson.dumps(out))
"""


def test_scores_do_not_depend_on_the_process_hash_seed() -> None:
    """Workers are separate processes with their own PYTHONHASHSEED: set iteration order
    must never reach a result (it once changed the last digit of redundancy_tfidf)."""
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("1", "2", "3"):
        env = os.environ | {"PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _SCORE_IN_CHILD], env=env, capture_output=True, check=True
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1
