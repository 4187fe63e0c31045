"""Chunk score scales (issue 14): each declared scale's mapping into [0, 1], spec 000's
composite computed on the normalised scores (and the raw one kept), the event's
declaration over the setting's, and the warning for undeclared out-of-range or
non-descending scores. Expected values are computed by hand next to each case."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor.events import Chunk, RagEvent
from monitor.pipeline import score_event
from monitor.scoring.composite import score_quality
from monitor.scoring.score_scale import (
    SCORE_SCALES,
    UNDECLARED,
    ScoreScales,
    normalise_score,
    normalised_chunks,
    scale_warning,
)

QUERY = "how many vacation days do employees get"
HR = "Full-time employees receive 15 days of paid vacation per year."
IT = "Laptops renew every 3 years."


def event(scores: list[float], reranks: list[float] | None = None, **extra: Any) -> RagEvent:
    chunks = []
    for i, (score, content) in enumerate(zip(scores, [HR, IT, HR, IT], strict=False)):
        chunk: dict[str, Any] = {"document_id": f"d{i}", "content": content, "score": score}
        if reranks is not None:
            chunk["rerank_score"] = reranks[i]
        chunks.append(chunk)
    return RagEvent.model_validate(
        {
            "schema_version": "1",
            "event_id": "e1",
            "timestamp_ms": 1,
            "query": {"text": QUERY},
            "chunks": chunks,
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("scale", "value", "expected"),
    [
        ("probability", 0.7, 0.7),
        ("probability", 1.2, 1.0),  # a probability above 1 is clamped
        ("cosine", 0.82, 0.82),  # spec 000's own reading: unchanged
        ("cosine", -0.3, 0.0),
        ("bm25", 10.0, 0.5),  # 10 / (10 + 10)
        ("bm25", 30.0, 0.75),  # 30 / 40
        ("bm25", 0.0, 0.0),
        ("logit", 0.0, 0.5),
        ("logit", math.log(3.0), 0.75),  # 1 / (1 + 1/3)
        ("logit", -800.0, 0.0),  # no overflow: e^-800 underflows to 0
        ("unknown", 4.0, 1.0),
        ("unknown", 0.3, 0.3),
    ],
)
def test_each_scale_maps_into_the_unit_interval(scale: Any, value: float, expected: float) -> None:
    assert normalise_score(value, scale) == pytest.approx(expected, abs=1e-15)


@given(st.sampled_from(SCORE_SCALES), st.floats(-1e6, 1e6))
def test_every_scale_lands_in_unit_interval_and_keeps_order(scale: Any, value: float) -> None:
    mapped = normalise_score(value, scale)
    assert 0.0 <= mapped <= 1.0
    assert normalise_score(value + 1.0, scale) >= mapped  # monotone: ranks stay ranks


def test_bm25_event_quality_is_spec_000_on_normalised_scores_and_raw_is_kept() -> None:
    raw = event([13.2, 7.5])
    declared = event([13.2, 7.5], score_scale="bm25")
    plain = score_event(raw)
    scored = score_event(declared)
    # 13.2 / 23.2 and 7.5 / 17.5: spec 000's composite exactly, on those scores
    by_hand = [
        Chunk(document_id="d0", content=HR, score=13.2 / 23.2),
        Chunk(document_id="d1", content=IT, score=7.5 / 17.5),
    ]
    context = declared.effective_context()
    expected = score_quality(QUERY, by_hand, context.text, context.token_count or 0)
    assert scored.quality == expected
    assert 0.0 <= scored.quality.overall <= 1.0
    assert plain.quality.overall > 1.0  # the "3.74": raw BM25 through spec 000
    assert scored.score_scale is not None
    assert scored.score_scale.score == "bm25" and scored.score_scale.rerank_score is None
    assert scored.score_scale.raw_overall == plain.quality.overall
    assert scored.warning is None
    assert plain.score_scale is None
    assert plain.warning is not None and plain.warning.startswith(
        "chunk scores outside [0, 1] (13.2) and no scale declared"
    )


def test_logit_rerank_scores_are_squashed_and_vector_scores_kept() -> None:
    e = event([0.81, 0.62], reranks=[2.0, -1.0], rerank_score_scale="logit", score_scale="cosine")
    scored = score_event(e)
    sigmoid = [1 / (1 + math.exp(-2.0)), 1 / (1 + math.exp(1.0))]
    by_hand = [
        Chunk(document_id="d0", content=HR, score=0.81, rerank_score=sigmoid[0]),
        Chunk(document_id="d1", content=IT, score=0.62, rerank_score=sigmoid[1]),
    ]
    context = e.effective_context()
    assert scored.quality == score_quality(QUERY, by_hand, context.text, context.token_count or 0)
    assert scored.score_scale is not None
    assert (scored.score_scale.score, scored.score_scale.rerank_score) == ("cosine", "logit")
    assert scored.warning is None


@pytest.mark.parametrize("scale", ["probability", "cosine"])
def test_a_declared_scale_that_needs_nothing_leaves_spec_000_untouched(scale: str) -> None:
    e = event([0.8, 0.6], score_scale=scale)
    scored = score_event(e)
    assert scored.quality == score_event(event([0.8, 0.6])).quality
    assert scored.score_scale is not None and scored.score_scale.raw_overall is None
    assert scored.warning is None


def test_unknown_scale_clamps_and_still_warns() -> None:
    scored = score_event(event([4.0, 2.0], score_scale="unknown"))
    assert scored.quality.overall <= 1.0
    assert scored.warning is not None
    assert "on the unknown scale were clamped into [0, 1]; declare the scale" in scored.warning


def test_the_setting_applies_to_events_that_declare_nothing_and_the_event_wins() -> None:
    setting = ScoreScales(score="bm25")
    by_setting = score_event(event([13.2, 7.5]), score_scales=setting)
    assert by_setting.score_scale is not None and by_setting.score_scale.score == "bm25"
    assert by_setting.quality == score_event(event([13.2, 7.5], score_scale="bm25")).quality
    own = score_event(event([2.0, 1.0], score_scale="logit"), score_scales=setting)
    assert own.score_scale is not None and own.score_scale.score == "logit"


def test_reranked_chunks_whose_vector_scores_do_not_descend_warn() -> None:
    # the "1.31": chunks reordered by a reranker whose scores the event lacks
    scored = score_event(event([0.3, 0.9]))
    assert scored.warning == (
        "chunk scores not descending in rank order (0.3 < 0.9 at rank 2): spec 000's "
        "retrieval confidence assumes they do"
    )
    # a declared scale does not excuse the order
    assert score_event(event([0.3, 0.9], score_scale="cosine")).warning is not None
    # with rerank scores that descend, the vector scores' order does not matter
    assert score_event(event([0.3, 0.9], reranks=[0.9, 0.2])).warning is None


def test_in_range_descending_scores_need_no_declaration() -> None:
    scored = score_event(event([0.9, 0.9, 0.4]))
    assert scored.warning is None and scored.score_scale is None
    assert scale_warning([], UNDECLARED) is None


def test_top_vector_score_out_of_range_warns_even_under_rerank_scores() -> None:
    chunks = [
        Chunk(content="a", score=12.0, rerank_score=0.9),
        Chunk(content="b", rerank_score=0.5),
    ]
    warning = scale_warning(chunks, UNDECLARED)
    assert warning is not None and warning.startswith("chunk scores outside [0, 1] (12)")
    assert scale_warning(chunks, ScoreScales(score="bm25")) is None


def test_nothing_to_normalise_returns_the_same_chunks() -> None:
    chunks = [Chunk(content="a", score=0.5)]
    assert normalised_chunks(chunks, UNDECLARED) is chunks
    assert normalised_chunks(chunks, ScoreScales(score="cosine")) is chunks


def test_an_unknown_scale_name_is_a_validation_error() -> None:
    with pytest.raises(ValueError, match="score_scale"):
        event([0.5], score_scale="tfidf")
