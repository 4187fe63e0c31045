"""Spec 000's composite ``ContextQualityScore`` (``monitor.scoring.composite``).

Every expected value below is computed by hand from spec 000's TypeScript, with the
arithmetic written next to it; none is obtained by calling the code under test.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monitor.events import Chunk
from monitor.scoring import composite
from monitor.scoring.composite import (
    cached_lower,
    context_sufficiency,
    diversity_score,
    estimated_faithfulness,
    query_terms,
    retrieval_confidence,
    score_quality,
)

VERY_LOW = "Very low retrieval confidence. Consider rephrasing your query or adding more documents."
MODERATE = "Moderate retrieval confidence. Results may be incomplete."
LOW_DIVERSITY = "Low source diversity. Results are heavily concentrated in a single document."

_ABSENT = object()


def chunk(
    score: float = 0.0,
    *,
    rerank: float | None = None,
    doc: str | None = None,
    content: str = "",
    title: Any = _ABSENT,
) -> Chunk:
    metadata = {} if title is _ABSENT else {"section_title": title}
    return Chunk(
        document_id=doc, content=content, score=score, rerank_score=rerank, metadata=metadata
    )


def filler(n: int) -> str:
    """``n`` lower-case words without a digit: no factual indicator at all."""
    return " ".join(["word"] * n)


def approx(x: float) -> Any:
    return pytest.approx(x, abs=1e-12)


# --------------------------------------------------------------------- retrieval_confidence


def test_retrieval_confidence_without_chunks_is_zero() -> None:
    assert retrieval_confidence([]) == 0


def test_retrieval_confidence_mean_and_spread() -> None:
    chunks = [chunk(0.8), chunk(0.6)]
    # avg (0.8 + 0.6) / 2 = 0.7; spread 0.6 / 0.8 = 0.75; 0.7 * 0.7 + 0.3 * 0.75 = 0.715
    assert retrieval_confidence(chunks) == approx(0.715)


def test_retrieval_confidence_single_chunk_has_full_spread() -> None:
    # avg 0.6; spread 0.6 / 0.6 = 1; 0.7 * 0.6 + 0.3 * 1 = 0.72
    assert retrieval_confidence([chunk(0.6)]) == approx(0.72)


def test_rerank_score_takes_precedence_over_score() -> None:
    chunks = [chunk(0.2, rerank=0.9), chunk(0.9, rerank=0.6)]
    # scores [0.9, 0.6]: avg 0.75; spread 0.6 / 0.9 = 2/3; 0.7 * 0.75 + 0.3 * 2/3 = 0.525 + 0.2
    assert retrieval_confidence(chunks) == approx(0.725)


def test_rerank_score_zero_is_used_not_skipped() -> None:
    # JS `??` only skips null/undefined: a rerank score of 0.0 is a score.
    chunks = [chunk(0.9, rerank=0.0), chunk(0.5)]
    # scores [0.0, 0.5]: avg 0.25; top 0 -> spread 0; 0.7 * 0.25 + 0 = 0.175
    # (had 0.0 been skipped: [0.9, 0.5] -> 0.7 * 0.7 + 0.3 * 5/9 = 0.6567)
    assert retrieval_confidence(chunks) == approx(0.175)


def test_rerank_mixed_presence() -> None:
    chunks = [chunk(0.3, rerank=0.8), chunk(0.4)]
    # scores [0.8, 0.4]: avg 0.6; spread 0.5; 0.42 + 0.15 = 0.57
    assert retrieval_confidence(chunks) == approx(0.57)


def test_spread_is_zero_when_top_score_is_zero() -> None:
    # scores [0, 0]: avg 0; top 0 -> spread 0 (no division by zero) -> 0
    assert retrieval_confidence([chunk(0.0), chunk(0.0)]) == 0
    # scores [0, 0.6]: avg 0.3; spread 0 -> 0.7 * 0.3 = 0.21
    assert retrieval_confidence([chunk(0.0), chunk(0.6)]) == approx(0.21)


def test_spread_is_zero_when_top_score_is_negative() -> None:
    # scores [-0.4, 0.8]: avg 0.2; top < 0 -> spread 0; 0.7 * 0.2 = 0.14
    assert retrieval_confidence([chunk(-0.4), chunk(0.8)]) == approx(0.14)
    # reranker logits are used as given: [-1, -2]: avg -1.5; spread 0; 0.7 * -1.5 = -1.05
    assert retrieval_confidence([chunk(rerank=-1.0), chunk(rerank=-2.0)]) == approx(-1.05)


def test_scores_out_of_rank_order_follow_the_spec_formula() -> None:
    # Spec 000 assumes rank order; scores rising down the list give a spread above 1
    # and the port keeps the formula as written: [0.1, 0.9]: avg 0.5; spread 9;
    # 0.7 * 0.5 + 0.3 * 9 = 0.35 + 2.7 = 3.05 (outside [0, 1]: see the property test,
    # which keeps chunks in rank order).
    assert retrieval_confidence([chunk(0.1), chunk(0.9)]) == approx(3.05)


# --------------------------------------------------------------------- context_sufficiency


def test_query_terms_lowercase_split_drop_short_and_stop_words() -> None:
    # "what", "is", "the", "for" are stop words; terms keep trailing punctuation
    assert query_terms("What is the PTO policy for new hires?") == [
        "pto",
        "policy",
        "new",
        "hires?",
    ]
    # 2-character terms are dropped, 3-character ones kept
    assert query_terms("id ok go vpn") == ["vpn"]
    # leading/trailing whitespace gives empty pieces (JS split), which are dropped
    assert query_terms("  vacation \t policy  ") == ["vacation", "policy"]


def test_context_sufficiency_empty_context_is_zero() -> None:
    assert context_sufficiency("vacation policy", "", 100) == 0


@pytest.mark.parametrize("query", ["", "what is the", "an ox", "id ok go", "   "])
def test_context_sufficiency_without_query_terms_is_half(query: str) -> None:
    assert context_sufficiency(query, "some context", 100) == 0.5


def test_context_sufficiency_empty_context_wins_over_no_terms() -> None:
    # `if (!context.text) return 0` comes before the no-terms check
    assert context_sufficiency("what is the", "", 100) == 0


def test_context_sufficiency_substring_coverage() -> None:
    # term "pol" is a substring of "policy": covered 1/1; density min(50 / (1 * 50), 1) = 1
    # 0.6 * 1 + 0.4 * 1 = 1.0
    assert context_sufficiency("pol", "Our Policy", 50) == approx(1.0)


def test_context_sufficiency_trailing_punctuation_is_part_of_the_term() -> None:
    # terms ["vacation", "policy?"]; "policy?" is not in the context -> covered 1/2
    # density 10 / (2 * 50) = 0.1; 0.6 * 0.5 + 0.4 * 0.1 = 0.3 + 0.04 = 0.34
    assert context_sufficiency("vacation policy?", "The vacation policy is generous", 10) == (
        approx(0.34)
    )


def test_context_sufficiency_stop_words_and_short_terms_are_ignored() -> None:
    # terms [pto, policy, new, hires?]; context lower "pto: 20 days. new hires accrue."
    # covered pto, new -> 2/4 = 0.5; density 40 / (4 * 50) = 0.2
    # 0.6 * 0.5 + 0.4 * 0.2 = 0.3 + 0.08 = 0.38
    got = context_sufficiency(
        "What is the PTO policy for new hires?", "PTO: 20 days. New hires accrue.", 40
    )
    assert got == approx(0.38)


def test_context_sufficiency_density_is_capped_at_one() -> None:
    # covered 1/1; density min(1000 / 50, 1) = 1 -> 0.6 + 0.4 = 1.0
    assert context_sufficiency("vacation", "vacation", 1000) == approx(1.0)
    # covered 0/1; density min(500 / 50, 1) = 1 -> 0 + 0.4 = 0.4
    assert context_sufficiency("parking", "vacation", 500) == approx(0.4)


def test_context_sufficiency_zero_token_count() -> None:
    # covered 1/1, density 0 / 50 = 0 -> 0.6
    assert context_sufficiency("vacation", "vacation", 0) == approx(0.6)


def test_context_sufficiency_repeated_terms_count_twice() -> None:
    # terms ["policy", "policy"]: covered 2/2; density 50 / 100 = 0.5 -> 0.6 + 0.2 = 0.8
    assert context_sufficiency("policy policy", "policy", 50) == approx(0.8)


def test_context_sufficiency_uses_js_string_length() -> None:
    # "a😀" is 2 code points but 3 UTF-16 units: JS keeps it as a term (length > 2).
    # covered 1/1; density 50 / 50 = 1 -> 1.0 (dropping it would give 0.5)
    assert context_sufficiency("a😀", "xa😀x", 50) == approx(1.0)


def test_context_sufficiency_uses_js_whitespace() -> None:
    # U+001C is whitespace for Python's str.split but not for JS /\s+/: one term
    # "vacation\x1cpolicy", not covered; density 50 / 50 = 1 -> 0 + 0.4 = 0.4
    assert context_sufficiency("vacation\x1cpolicy", "vacation policy", 50) == approx(0.4)
    # U+00A0 is JS whitespace: terms [vacation, policy], both covered; density 100/100
    assert context_sufficiency("vacation\u00a0policy", "vacation policy", 100) == approx(1.0)


# --------------------------------------------------------------------- diversity_score


def test_diversity_zero_or_one_chunk_is_zero() -> None:
    assert diversity_score([]) == 0
    assert diversity_score([chunk(doc="a", title="X")]) == 0


def test_diversity_two_documents_no_titles() -> None:
    # docs {a, b} 2/2; sections fall back to doc ids {a, b} 2/2 -> 0.6 + 0.4 = 1.0
    assert diversity_score([chunk(doc="a"), chunk(doc="b")]) == approx(1.0)


def test_diversity_section_title_falls_back_to_document_id() -> None:
    chunks = [
        chunk(doc="a", title="X"),
        chunk(doc="a", title="Y"),
        chunk(doc="a"),
        chunk(doc="b"),
    ]
    # docs {a, b} 2/4 = 0.5 -> 0.3; sections {X, Y, a, b} 4/4 -> 0.4; total 0.7
    assert diversity_score(chunks) == approx(0.7)


def test_diversity_title_may_equal_another_chunks_document_id() -> None:
    # docs {a, b} 2/2 -> 0.6; sections {a (fallback), a (title)} 1/2 -> 0.2; total 0.8
    assert diversity_score([chunk(doc="a"), chunk(doc="b", title="a")]) == approx(0.8)


def test_diversity_empty_section_title_is_kept() -> None:
    # JS `??` keeps "": sections {""} 1/2 -> 0.2; docs {a, b} 2/2 -> 0.6; total 0.8
    # (falling back to the doc ids would give 1.0)
    assert diversity_score([chunk(doc="a", title=""), chunk(doc="b", title="")]) == approx(0.8)


def test_diversity_null_section_title_falls_back() -> None:
    # title null -> doc id "a": sections {a, S} 2/2 -> 0.4; docs {a} 1/2 -> 0.3; total 0.7
    assert diversity_score([chunk(doc="a", title=None), chunk(doc="a", title="S")]) == (approx(0.7))


def test_diversity_none_document_ids() -> None:
    # docs {None, a} 2/3 -> 0.6 * 2/3 = 0.4; sections {None, a} 2/3 -> 0.4 * 2/3 = 0.26667
    chunks = [chunk(doc=None), chunk(doc=None), chunk(doc="a")]
    assert diversity_score(chunks) == approx(0.4 + 0.8 / 3)
    # docs {None} 1/2 -> 0.3; sections {None} 1/2 -> 0.2; total 0.5
    assert diversity_score([chunk(), chunk()]) == approx(0.5)


def test_diversity_js_set_keeps_true_and_one_apart() -> None:
    # JS Set: true !== 1, so sections {true, 1} 2/2 -> 0.4; docs {a} 1/2 -> 0.3; total 0.7
    assert diversity_score([chunk(doc="a", title=True), chunk(doc="a", title=1)]) == (approx(0.7))
    # 1 and 1.0 are the same JS number: sections 1/2 -> 0.2; total 0.5
    assert diversity_score([chunk(doc="a", title=1), chunk(doc="a", title=1.0)]) == (approx(0.5))


def test_diversity_js_set_counts_nan_titles_once() -> None:
    # Two NaN titles (as parsed from JSON `NaN`: distinct float objects).
    # docs {a} 1/2 -> 0.3; sections {NaN} 1/2 -> 0.2; total 0.5 (a plain Python set: 0.7)
    chunks = [chunk(doc="a", title=float("nan")), chunk(doc="a", title=float("nan"))]
    assert diversity_score(chunks) == approx(0.5)


# --------------------------------------------------------------------- estimated_faithfulness


def test_faithfulness_without_chunks_is_zero() -> None:
    assert estimated_faithfulness([]) == 0


def test_faithfulness_numbers() -> None:
    content = "a 12 b 345 c 6789 " + filler(54)
    # numbers 12, 345, 6789 -> 3; no date, no proper noun; words 6 + 54 = 60
    # density (3 / (60 / 100)) * 0.1 = 5 * 0.1 = 0.5; confidence min(0.4 * 1.5, 1) = 0.6
    # 0.4 * 0.5 + 0.6 * 0.6 = 0.2 + 0.36 = 0.56
    assert estimated_faithfulness([chunk(0.4, content=content)]) == approx(0.56)


@pytest.mark.parametrize("date", ["2024-03-05", "2024/03/05"])
def test_faithfulness_iso_date_counts_twice(date: str) -> None:
    content = f"Released {date} " + filler(118)
    # numbers 2024, 03, 05 -> 3; dates 1 (x2); proper nouns "Released" -> 1; words 120
    # density ((3 + 2 + 1) / 1.2) * 0.1 = 0.5; confidence min(0.75, 1) = 0.75
    # 0.4 * 0.5 + 0.6 * 0.75 = 0.2 + 0.45 = 0.65
    assert estimated_faithfulness([chunk(0.5, content=content)]) == approx(0.65)


@pytest.mark.parametrize("date", ["March 5, 2024", "March 5 2024"])
def test_faithfulness_written_date_counts_twice(date: str) -> None:
    content = f"on {date} " + filler(96)
    # numbers 5, 2024 -> 2; dates 1 (x2); proper nouns "March" -> 1; words 4 + 96 = 100
    # density ((2 + 2 + 1) / 1) * 0.1 = 0.5; confidence min(0.2 * 1.5, 1) = 0.3
    # 0.4 * 0.5 + 0.6 * 0.3 = 0.2 + 0.18 = 0.38
    assert estimated_faithfulness([chunk(0.2, content=content)]) == approx(0.38)


def test_faithfulness_proper_nouns_runs_count_once() -> None:
    content = "Alice met Bob in New York " + filler(54)
    # proper nouns "Alice", "Bob", "New York" -> 3; words 6 + 54 = 60
    # density (3 / 0.6) * 0.1 = 0.5; confidence min(0.9, 1) = 0.9
    # 0.4 * 0.5 + 0.6 * 0.9 = 0.2 + 0.54 = 0.74
    assert estimated_faithfulness([chunk(0.6, content=content)]) == approx(0.74)


def test_faithfulness_proper_noun_edge_cases() -> None:
    content = "NASA McDonald I " + filler(37)
    # /[A-Z][a-z]+/: "NASA" 0, "McDonald" -> "Mc" + "Donald" = 2, "I" 0; words 40
    # density (2 / 0.4) * 0.1 = 0.5; confidence 0 -> 0.4 * 0.5 = 0.2
    assert estimated_faithfulness([chunk(0.0, content=content)]) == approx(0.2)


def test_faithfulness_top_score_confidence_is_capped() -> None:
    # no indicator -> density 0; confidence min(0.8 * 1.5 = 1.2, 1) = 1 -> 0.6
    assert estimated_faithfulness([chunk(0.8, content=filler(10))]) == approx(0.6)


def test_faithfulness_uses_first_chunks_score_not_rerank() -> None:
    # `chunks[0]?.score`: 0.4, not the rerank 0.9; confidence 0.6 -> 0.6 * 0.6 = 0.36
    chunks = [chunk(0.4, rerank=0.9, content=filler(10)), chunk(0.9, content=filler(10))]
    assert estimated_faithfulness(chunks) == approx(0.36)


def test_faithfulness_contents_are_joined_with_a_space() -> None:
    chunks = [
        chunk(0.2, content=filler(9) + " Alpha"),
        chunk(0.9, content="Beta " + filler(9)),
    ]
    # joined "... Alpha Beta ...": one proper-noun run "Alpha Beta"; words 20
    # density (1 / 0.2) * 0.1 = 0.5; confidence 0.2 * 1.5 = 0.3 -> 0.2 + 0.18 = 0.38
    assert estimated_faithfulness(chunks) == approx(0.38)


def test_faithfulness_density_is_capped_at_one() -> None:
    # "Employees get 15 days.": numbers 1, proper nouns 1, words 4
    # density (2 / 0.04) * 0.1 = 5 -> 1; confidence min(1.2, 1) = 1 -> 0.4 + 0.6 = 1.0
    assert estimated_faithfulness([chunk(0.8, content="Employees get 15 days.")]) == approx(1.0)


def test_faithfulness_empty_content() -> None:
    # "".split(/\s+/) is [""]: 1 word, 0 indicators -> density 0
    # confidence 0.5 * 1.5 = 0.75 -> 0.6 * 0.75 = 0.45
    assert estimated_faithfulness([chunk(0.5, content="")]) == approx(0.45)


# --------------------------------------------------------------------- overall and warnings


def test_overall_weights_real_input() -> None:
    chunks = [chunk(0.8, doc="a", content=filler(5)), chunk(0.4, doc="b", content=filler(5))]
    q = score_quality("vacation policy", chunks, "vacation rules", 50)
    # retrieval: avg 0.6, spread 0.5 -> 0.42 + 0.15 = 0.57
    assert q.retrieval_confidence == approx(0.57)
    # sufficiency: terms [vacation, policy], covered 1/2; density 50 / 100
    # 0.6 * 0.5 + 0.4 * 0.5 = 0.5
    assert q.context_sufficiency == approx(0.5)
    # diversity: docs 2/2, sections 2/2 -> 1.0
    assert q.diversity_score == approx(1.0)
    # faithfulness: no indicator -> 0; confidence min(1.2, 1) = 1 -> 0.6
    assert q.estimated_faithfulness == approx(0.6)
    # 0.3 * 0.57 + 0.3 * 0.5 + 0.15 * 1.0 + 0.25 * 0.6 = 0.171 + 0.15 + 0.15 + 0.15 = 0.621
    assert q.overall == approx(0.621)
    assert q.warning is None


def _fix_subscores(monkeypatch: pytest.MonkeyPatch, rc: float, cs: float, ds: float, ef: float):
    monkeypatch.setattr(composite, "retrieval_confidence", lambda chunks: rc)
    monkeypatch.setattr(composite, "context_sufficiency", lambda q, t, n, chunks: cs)
    monkeypatch.setattr(composite, "diversity_score", lambda chunks: ds)
    monkeypatch.setattr(composite, "estimated_faithfulness", lambda chunks: ef)


def test_overall_weights_each_subscore_distinctly(monkeypatch: pytest.MonkeyPatch) -> None:
    _fix_subscores(monkeypatch, 0.1, 0.2, 0.4, 0.8)
    q = score_quality("q", [], "", 0)
    # 0.3 * 0.1 + 0.3 * 0.2 + 0.15 * 0.4 + 0.25 * 0.8 = 0.03 + 0.06 + 0.06 + 0.2 = 0.35
    assert q.overall == approx(0.35)
    assert (q.retrieval_confidence, q.context_sufficiency) == (0.1, 0.2)
    assert (q.diversity_score, q.estimated_faithfulness) == (0.4, 0.8)


@pytest.mark.parametrize(
    ("subscores", "overall", "warning"),
    [
        # 0.3 * 0.99 = 0.297 < 0.3
        ((0.99, 0.0, 0.0, 0.0), 0.297, VERY_LOW),
        # 0.3 * 1 = 0.3: not < 0.3, but < 0.5
        ((1.0, 0.0, 0.0, 0.0), 0.3, MODERATE),
        # 0.3 * 1 + 0.25 * 0.8 = 0.3 + 0.2 = 0.5: not < 0.5; diversity 0 < 0.2
        ((1.0, 0.0, 0.0, 0.8), 0.5, LOW_DIVERSITY),
        # 0.3 + 0.3 + 0.15 * 0.2 = 0.63; diversity 0.2 is not < 0.2
        ((1.0, 1.0, 0.2, 0.0), 0.63, None),
        # 0.3 + 0.3 + 0.15 * 0.19 = 0.6285; diversity 0.19 < 0.2
        ((1.0, 1.0, 0.19, 0.0), 0.6285, LOW_DIVERSITY),
        # low diversity does not override the confidence warnings
        ((0.0, 1.0, 0.0, 0.0), 0.3, MODERATE),
        ((0.5, 0.0, 0.0, 0.0), 0.15, VERY_LOW),
    ],
)
def test_warning_thresholds(
    monkeypatch: pytest.MonkeyPatch,
    subscores: tuple[float, float, float, float],
    overall: float,
    warning: str | None,
) -> None:
    _fix_subscores(monkeypatch, *subscores)
    q = score_quality("q", [], "", 0)
    assert q.overall == approx(overall)
    assert q.warning == warning


def test_warnings_from_real_inputs() -> None:
    # no chunks, empty context: every sub-score 0 -> overall 0 -> very low
    q = score_quality("vacation policy", [], "", 0)
    assert (q.overall, q.warning) == (0, VERY_LOW)
    # no chunks, context covers "vacation", density 50 / 50: sufficiency 0.6 + 0.4 = 1.0
    # overall 0.3 * 1.0 = 0.3 exactly: not < 0.3 -> moderate
    q = score_quality("vacation", [], "vacation", 50)
    assert q.overall == 0.3
    assert q.warning == MODERATE
    # density 49 / 50 = 0.98: sufficiency 0.6 + 0.392 = 0.992; overall 0.2976 -> very low
    q = score_quality("vacation", [], "vacation", 49)
    assert q.overall == approx(0.2976)
    assert q.warning == VERY_LOW
    # one chunk, score 1: retrieval 0.7 + 0.3 = 1; no query term -> sufficiency 0.5;
    # diversity 0; faithfulness 0 * 0.4 + 1 * 0.6 = 0.6
    # overall 0.3 + 0.15 + 0 + 0.15 = 0.6 >= 0.5, diversity 0 < 0.2 -> low diversity
    q = score_quality("what is it", [chunk(1.0, doc="a", content=filler(3))], "text", 10)
    assert q.overall == approx(0.6)
    assert q.warning == LOW_DIVERSITY


# --------------------------------------------------------------------- properties

_scores = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
_titles = st.sampled_from([_ABSENT, None, "", "Leave", "Pay", 1, True])
_texts = st.text(max_size=60) | st.lists(
    st.sampled_from(
        ["Policy", "policy", "15", "2024-03-05", "March 5, 2024", "New York", "days", "the", ""]
    ),
    max_size=12,
).map(" ".join)


@st.composite
def _chunks(draw: st.DrawFn) -> list[Chunk]:
    items = draw(
        st.lists(
            st.builds(
                chunk,
                score=_scores,
                rerank=st.none() | _scores,
                doc=st.sampled_from([None, "a", "b", "c"]),
                content=_texts,
                title=_titles,
            ),
            max_size=8,
        )
    )
    # chunks are in rank order (DESIGN section 4): highest effective score first
    items.sort(key=lambda c: c.rerank_score if c.rerank_score is not None else c.score)
    items.reverse()
    return items


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    query=_texts,
    chunks=_chunks(),
    context=_texts,
    token_count=st.integers(min_value=0, max_value=100_000),
)
def test_every_subscore_is_in_unit_interval(
    query: str, chunks: list[Chunk], context: str, token_count: int
) -> None:
    q = score_quality(query, chunks, context, token_count)
    for name in (
        "overall",
        "retrieval_confidence",
        "context_sufficiency",
        "diversity_score",
        "estimated_faithfulness",
    ):
        value = getattr(q, name)
        assert 0.0 <= value <= 1.0, (name, value)
    weighted = (
        0.3 * q.retrieval_confidence
        + 0.3 * q.context_sufficiency
        + 0.15 * q.diversity_score
        + 0.25 * q.estimated_faithfulness
    )
    assert q.overall == pytest.approx(weighted, abs=1e-12)
    assert q.warning in (None, VERY_LOW, MODERATE, LOW_DIVERSITY)


def test_scoring_does_not_mutate_inputs() -> None:
    chunks = [
        Chunk(
            document_id="a",
            content="Employees get 15 days on March 5, 2024.",
            score=0.8,
            rerank_score=0.9,
            metadata={"section_title": "Leave", "tags": ["hr", {"k": [1, 2]}]},
        ),
        Chunk(document_id=None, content="", score=0.2, metadata={"section_title": None}),
        Chunk(document_id="b", content="x", score=0.1, metadata={}),
    ]
    chunk_list = list(chunks)
    dumps = copy.deepcopy([c.model_dump() for c in chunks])
    metadata_ids = [id(c.metadata) for c in chunks]
    query, context = "What is the vacation policy?", "Employees get 15 days."
    score_quality(query, chunks, context, 4)
    assert chunks == chunk_list
    assert all(a is b for a, b in zip(chunks, chunk_list, strict=True))
    assert [c.model_dump() for c in chunks] == dumps
    assert [id(c.metadata) for c in chunks] == metadata_ids
    assert (query, context) == ("What is the vacation policy?", "Employees get 15 days.")


def test_a_context_joined_from_chunks_is_lowered_through_the_cache() -> None:
    """The chunks lowered one by one through the chunk cache (hits included) give the
    same sufficiency as the joined context lowered whole, sigmas at the joins included."""
    contents = ["Policy ΟΔΟΣ", "Σ rules", "", "ΣΑΣ İstanbul \u212aelvin", "plain ascii text"]
    chunks = [Chunk(content=c) for c in contents]
    text = "\n\n".join(contents)
    for query in ("οδος rules", "σας i̇stanbul", "σ rules policy", "kelvin", "ascii"):
        whole = context_sufficiency(query, text, 40)
        for _ in range(2):  # a miss, then hits
            assert context_sufficiency(query, text, 40, chunks) == whole
    assert cached_lower("ΟΔΟΣ ΣΑΣ") == "οδος σας"
