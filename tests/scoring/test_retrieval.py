"""Retrieval metrics (``monitor.scoring.retrieval``): graded (002, 003 A) and anchors (004).

Every expected value below is computed by hand, with the arithmetic written next to it;
none is obtained by calling the code under test. Constants used throughout:
``log2(3) = 1.5849625``, so ``1 / log2(3) = 0.6309298`` and ``3 / log2(3) = 1.8927893``;
``1 / log2(4) = 0.5``; ``1 / log2(5) = 0.4306766``; gains ``2^3 - 1 = 7``, ``2^2 - 1 = 3``,
``2^1 - 1 = 1``. The property tests at the end compare with a straightforward
reimplementation written here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.events import Chunk, Labels, Response
from monitor.scoring.retrieval import (
    KS,
    heading_components,
    normalise_heading,
    score_retrieval,
)

GRADED_KEYS = {
    "level",
    "mrr",
    "map",
    *(f"{m}@{k}" for m in ("precision", "recall", "f1", "ndcg") for k in KS),
}
ANCHOR_KEYS = {"attribution_hit", *(f"recall_any@{k}" for k in KS)}
RECALL_ALL_KEYS = {f"recall_all@{k}" for k in KS}


def approx(x: float) -> Any:
    return pytest.approx(x, abs=1e-9)


def ch(
    chunk_id: str | None = None,
    doc: str | None = None,
    *,
    rel: str | None = None,
    heading: Any = None,
    content: str = "",
) -> Chunk:
    metadata: dict[str, Any] = {}
    if rel is not None:
        metadata["rel_path"] = rel
    if heading is not None:
        metadata["heading_path"] = heading
    return Chunk(chunk_id=chunk_id, document_id=doc, content=content, metadata=metadata)


def ids(*chunk_ids: str | None) -> list[Chunk]:
    return [ch(c) for c in chunk_ids]


def graded(chunks: list[Chunk], grades: Mapping[str, float], **labels: Any) -> dict[str, Any]:
    result = score_retrieval(chunks, None, Labels(relevant_chunks=dict(grades), **labels))
    assert result is not None
    return result


def gold(rel: str, heading: str = "", snippets: list[str] | None = None) -> dict[str, Any]:
    return {"rel_path": rel, "heading_path": heading, "snippets": snippets or []}


def anchored(
    chunks: list[Chunk],
    supports: list[dict[str, Any]],
    response: Response | None = None,
    **labels: Any,
) -> dict[str, Any]:
    result = score_retrieval(chunks, response, Labels(gold_supports=supports, **labels))
    assert result is not None
    return result


# ------------------------------------------------------------------------- None and keys


def test_no_labels_is_none() -> None:
    assert score_retrieval(ids("a"), None, None) is None
    assert score_retrieval(ids("a"), Response(citations=[{"chunk_id": "a"}]), None) is None


def test_no_relevant_item_judged_is_none() -> None:
    assert score_retrieval(ids("a", "b"), None, Labels()) is None
    assert score_retrieval([], None, Labels(answerable=True, gold_facts=[{"fact": "x"}])) is None


def test_all_grades_zero_or_negative_is_none() -> None:
    labels = Labels(relevant_chunks={"a": 0, "b": 0.0}, relevant_docs={"d": 0, "e": -1})
    assert score_retrieval([ch("a", "d"), ch("b", "e")], None, labels) is None


def test_non_finite_grades_are_not_relevant() -> None:
    labels = Labels(relevant_chunks={"a": math.nan, "b": math.inf, "c": -math.inf})
    assert score_retrieval(ids("a", "b", "c"), None, labels) is None
    # with one finite grade beside them, |R| = 1: recall@1 = 1 / 1
    result = graded(ids("a", "b", "c", "d"), {"a": math.nan, "b": math.inf, "d": 2})
    assert result["recall@5"] == 1.0 and result["mrr"] == 0.25  # d at rank 4: 1 / 4


def test_keys_of_a_full_result() -> None:
    labels = Labels(
        relevant_chunks={"a": 1},
        gold_supports=[gold("x.md")],
        required_support_groups=[[0]],
    )
    result = score_retrieval(ids("a"), None, labels)
    assert result is not None
    assert set(result) == GRADED_KEYS | ANCHOR_KEYS | RECALL_ALL_KEYS
    assert "scope_miss" not in result  # 004 section 4 needs the folder selection


def test_graded_keys_only_without_gold_supports() -> None:
    assert set(graded(ids("a"), {"a": 1})) == GRADED_KEYS


def test_anchor_keys_only_without_relevant_items() -> None:
    result = anchored(ids("a"), [gold("x.md")], relevant_chunks={"a": 0})
    assert set(result) == ANCHOR_KEYS
    assert "level" not in result


def test_empty_ranking() -> None:
    # nothing retrieved, 2 relevant: every hit count is 0
    result = graded([], {"a": 3, "b": 1})
    for k in KS:
        assert result[f"precision@{k}"] == 0.0
        assert result[f"recall@{k}"] == 0.0
        assert result[f"f1@{k}"] == 0.0
        assert result[f"ndcg@{k}"] == 0.0
    assert result["mrr"] == 0.0 and result["map"] == 0.0


def test_labels_are_not_mutated_and_results_repeat() -> None:
    labels = Labels(relevant_chunks={"a": 3, "b": 1}, gold_supports=[gold("x.md")])
    before = labels.model_dump()
    first = score_retrieval(ids("a", "a", "b"), None, labels)
    second = score_retrieval(ids("a", "a", "b"), None, labels)
    assert first == second
    assert labels.model_dump() == before


# -------------------------------------------------------------------- graded: nDCG & co


def test_graded_ndcg_ideal_order() -> None:
    # grades 3, 2, 0, 1 in rank order; R = {a: 3, b: 2, d: 1}, |R| = 3, ideal 3, 2, 1
    result = graded(ids("a", "b", "c", "d"), {"a": 3, "b": 2, "c": 0, "d": 1})
    assert result["level"] == "chunk"
    # IDCG@1 = 7; DCG@1 = 7
    assert result["ndcg@1"] == 1.0
    # DCG@3 = 7/1 + 3/log2(3) + 0 = 8.8927893; IDCG@3 = 7 + 1.8927893 + 1/2 = 9.3927893
    assert result["ndcg@3"] == approx(0.946767676127)  # 8.8927893 / 9.3927893
    # DCG@5 = 8.8927893 + 1/log2(5) = 9.3234658; IDCG@5 = IDCG@3 (only 3 relevant)
    assert result["ndcg@5"] == approx(0.992619504175)  # 9.3234658 / 9.3927893
    assert result["ndcg@10"] == approx(0.992619504175)  # nothing more after rank 4
    # hits: ranks 1, 2, 4
    assert result["precision@1"] == 1.0  # 1 / 1
    assert result["precision@3"] == approx(2 / 3)  # 2 hits / 3
    assert result["precision@5"] == approx(0.6)  # 3 / 5
    assert result["precision@10"] == approx(0.3)  # 3 / 10
    assert result["recall@1"] == approx(1 / 3)
    assert result["recall@3"] == approx(2 / 3)
    assert result["recall@5"] == 1.0 and result["recall@10"] == 1.0
    assert result["f1@1"] == approx(0.5)  # 2 * 1 * 1/3 / (4/3)
    assert result["f1@3"] == approx(2 / 3)  # P = R = 2/3
    assert result["f1@5"] == approx(0.75)  # 2 * 0.6 * 1 / 1.6
    assert result["f1@10"] == approx(0.461538461538)  # 2 * 0.3 * 1 / 1.3
    assert result["mrr"] == 1.0
    assert result["map"] == approx(2.75 / 3)  # (1/1 + 2/2 + 3/4) / 3 = 0.9166667


def test_graded_ndcg_reversed_order() -> None:
    # rank order d (1), c (0), b (2), a (3); IDCG as above = 9.3927893
    result = graded(ids("d", "c", "b", "a"), {"a": 3, "b": 2, "c": 0, "d": 1})
    assert result["ndcg@1"] == approx(1 / 7)  # DCG@1 = 1; IDCG@1 = 7
    # DCG@3 = 1/1 + 0 + 3/log2(4) = 2.5
    assert result["ndcg@3"] == approx(0.266161619366)  # 2.5 / 9.3927893
    # DCG@5 = 2.5 + 7/log2(5) = 2.5 + 3.0147359 = 5.5147359
    assert result["ndcg@5"] == approx(0.587124415703)  # 5.5147359 / 9.3927893
    assert result["mrr"] == 1.0
    assert result["map"] == approx((1 + 2 / 3 + 3 / 4) / 3)  # hits at 1, 3, 4: 0.8055556


def test_ties_in_grades() -> None:
    # three relevant items of grade 2 (gain 3); the first rank is irrelevant
    # DCG@3 = 0 + 3/log2(3) + 3/log2(4) = 1.8927893 + 1.5 = 3.3927893
    # IDCG@3 = 3 + 1.8927893 + 1.5 = 6.3927893
    grades = {"a": 2, "b": 2, "c": 2}
    result = graded(ids("x", "a", "b"), grades)
    assert result["ndcg@3"] == approx(0.530721273977)  # 3.3927893 / 6.3927893
    assert result["ndcg@1"] == 0.0
    assert result["mrr"] == 0.5  # first hit at rank 2
    # swapping two items of the same grade changes nothing
    assert graded(ids("x", "b", "a"), grades) == result
    assert graded(ids("x", "c", "b"), grades) == result


def test_duplicate_chunk_counts_once_at_its_first_rank() -> None:
    # a (grade 3) at ranks 1 and 2, b (grade 1) at rank 3; R = {a, b}
    result = graded(ids("a", "a", "b"), {"a": 3, "b": 1})
    # rank 2 occupies its place but gains nothing: DCG@3 = 7/1 + 0 + 1/log2(4) = 7.5
    # IDCG@3 = 7/1 + 1/log2(3) = 7.6309298
    assert result["ndcg@3"] == approx(0.982842227907)  # 7.5 / 7.6309298
    assert result["precision@3"] == approx(2 / 3)  # 2 hits (not 3) / 3
    assert result["recall@3"] == 1.0  # 2 / 2
    assert result["map"] == approx((1 / 1 + 2 / 3) / 2)  # hits at ranks 1, 3: 0.8333333
    assert result["precision@1"] == 1.0 and result["mrr"] == 1.0


def test_k_beyond_the_ranking() -> None:
    # 2 chunks, one relevant (grade 1) at rank 1
    result = graded(ids("a", "x"), {"a": 1})
    assert result["precision@3"] == approx(1 / 3)  # 1 / 3, not 1 / 2
    assert result["precision@5"] == approx(0.2)  # 1 / 5
    assert result["precision@10"] == approx(0.1)  # 1 / 10
    assert result["recall@10"] == 1.0
    assert result["f1@10"] == approx(0.181818181818)  # 2 * 0.1 * 1 / 1.1
    assert result["ndcg@10"] == 1.0  # DCG = IDCG = 1 / log2(2) = 1


def test_map_divides_by_all_relevant_including_unretrieved() -> None:
    # 4 relevant, 2 retrieved at ranks 2 and 4: AP = (1/2 + 2/4) / 4 = 0.25
    result = graded(ids("x", "a", "y", "b"), {"a": 1, "b": 1, "c": 1, "d": 1})
    assert result["map"] == approx(0.25)
    assert result["recall@10"] == approx(0.5)  # 2 / 4
    # IDCG@5 counts the 4 unretrieved-or-not grades: 1 + 1/log2(3) + 1/2 + 1/log2(5)
    # = 2.5616063; DCG@5 = 1/log2(3) + 1/log2(5) = 1.0616063
    assert result["ndcg@5"] == approx(1.0616063116 / 2.5616063116)


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        (["a", "x", "y"], 1.0),  # 1 / 1
        (["x", "a", "y"], 0.5),  # 1 / 2
        (["x", "y", "z", "a"], 0.25),  # 1 / 4
        (["x", "y", "z", "w", "v", "u", "t", "s", "r", "q", "p", "b"], 1 / 12),  # past rank 10
        (["x", "y"], 0.0),  # no relevant retrieved
    ],
)
def test_mrr(ranking: list[str], expected: float) -> None:
    assert graded(ids(*ranking), {"a": 1, "b": 2})["mrr"] == approx(expected)


def test_nothing_relevant_retrieved_gives_zeros() -> None:
    result = graded(ids("x", "y"), {"a": 2})
    assert result["mrr"] == 0.0 and result["map"] == 0.0
    assert result["ndcg@10"] == 0.0 and result["f1@10"] == 0.0 and result["precision@1"] == 0.0


def test_none_ids_never_match() -> None:
    # chunk ids None at ranks 1 and 2; a at rank 3
    result = graded(ids(None, None, "a"), {"a": 1})
    assert result["mrr"] == approx(1 / 3)
    # doc level: a chunk without document_id is a rank that never matches
    labels = Labels(relevant_docs={"d": 1})
    doc_result = score_retrieval([ch("c1", None), ch("c2", "d")], None, labels)
    assert doc_result is not None and doc_result["mrr"] == 0.5


def test_chunk_level_is_preferred_over_doc_level() -> None:
    chunks = [ch("c1", "d1"), ch("c2", "d2")]
    labels = Labels(relevant_chunks={"c2": 1}, relevant_docs={"d1": 1})
    result = score_retrieval(chunks, None, labels)
    assert result is not None
    assert result["level"] == "chunk" and result["mrr"] == 0.5  # c2 at rank 2


def test_doc_level_fallback_with_several_chunks_of_one_document() -> None:
    # relevant_chunks has no grade > 0: doc level. Ranking of documents: d1, d1, d2, d4
    chunks = [ch("c1", "d1"), ch("c2", "d1"), ch("c3", "d2"), ch("c4", "d4")]
    labels = Labels(relevant_chunks={"c1": 0}, relevant_docs={"d1": 2, "d2": 1, "d3": 3})
    result = score_retrieval(chunks, None, labels)
    assert result is not None
    assert result["level"] == "doc"
    # R = {d1: 2, d2: 1, d3: 3}; hits at ranks 1 (d1) and 3 (d2); rank 2 (d1 again) gains 0
    assert result["precision@1"] == 1.0
    assert result["precision@3"] == approx(2 / 3)
    assert result["precision@5"] == approx(0.4)  # 2 / 5
    assert result["recall@5"] == approx(2 / 3)  # d3 is never retrieved
    assert result["mrr"] == 1.0
    assert result["map"] == approx((1 / 1 + 2 / 3) / 3)  # 0.5555556
    # DCG@5 = (2^2 - 1)/1 + (2^1 - 1)/log2(4) = 3.5; IDCG@5 = 7 + 3/log2(3) + 1/2 = 9.3927893
    assert result["ndcg@5"] == approx(0.372626267113)  # 3.5 / 9.3927893
    assert result["ndcg@1"] == approx(3 / 7)  # DCG@1 = 3; IDCG@1 = 7


def test_fractional_and_huge_grades() -> None:
    # grade 0.5: gain 2^0.5 - 1 = 0.4142136; one relevant item at rank 2
    result = graded(ids("x", "a"), {"a": 0.5})
    assert result["ndcg@3"] == approx(1 / math.log2(3))  # (g / log2(3)) / (g / 1)
    # grade 2000 would overflow 2^2000; it must not: a at rank 1, b (grade 1) at rank 2
    huge = graded(ids("a", "b"), {"a": 2000, "b": 1})
    assert huge["ndcg@1"] == 1.0 and huge["ndcg@10"] == 1.0  # the ideal order
    swapped = graded(ids("b", "a"), {"a": 2000, "b": 1})
    # DCG@3 = 1 + 2^2000 / log2(3) against IDCG@3 = 2^2000 + 1 / log2(3): ratio 1 / log2(3)
    assert swapped["ndcg@3"] == approx(1 / math.log2(3))
    assert swapped["ndcg@1"] == 0.0  # 1 / 2^2000 underflows relative to the ideal
    tiny = graded(ids("a"), {"a": 1e-300})
    assert tiny["ndcg@1"] == 1.0 and tiny["precision@1"] == 1.0


# -------------------------------------------------------------------------------- anchors


def test_heading_normalisation() -> None:
    assert heading_components(" Leave>Vacation ") == ("Leave", "Vacation")
    assert heading_components("Leave  >  Vacation >Carry-over") == (
        "Leave",
        "Vacation",
        "Carry-over",
    )
    assert heading_components("\tLeave \n>\u00a0 Annual   leave >> ") == ("Leave", "Annual leave")
    assert heading_components("") == () and heading_components(" > > ") == ()
    assert heading_components(None) == () and heading_components(["Leave"]) == ()
    assert normalise_heading(" Leave>Vacation ") == "Leave > Vacation"


@pytest.mark.parametrize(
    ("gold_heading", "chunk_heading", "matches"),
    [
        (" Leave>Vacation ", "Leave > Vacation > Carry-over", True),  # prefix, spacing
        ("Leave > Vacation", "Leave>Vacation", True),  # equal after normalisation
        ("Leave>  Vacation", " Leave\t>\nVacation > x ", True),  # tabs and newlines
        ("Leave", "Leave > Vacation", True),  # one whole component
        ("Leave", "Leaves", False),  # not a whole component
        ("Leave", "Leaves > Vacation", False),
        ("Leave > Vacation", "Leave > Vacations", False),
        ("Leave > Vacation > Carry-over", "Leave > Vacation", False),  # gold is deeper
        ("Leave > Vacation", "Vacation", False),  # not a prefix
        ("Leave", "leave", False),  # case-sensitive
        ("", "Anything > at all", True),  # empty gold: any heading of the file
        ("", None, True),  # ... even a missing one
        (" > ", "Leave", True),  # a gold of only delimiters is empty
        ("Leave", None, False),  # a missing chunk heading matches only an empty gold
    ],
)
def test_anchor_heading_prefix(gold_heading: str, chunk_heading: str | None, matches: bool) -> None:
    chunks = [ch("c", rel="hr/leave.md", heading=chunk_heading)]
    result = anchored(chunks, [gold("hr/leave.md", gold_heading)])
    assert result["recall_any@1"] == int(matches)


def test_anchor_rel_path_must_be_equal() -> None:
    supports = [gold("hr/leave.md", "Leave")]
    assert anchored([ch("c", rel="hr/Leave.md", heading="Leave")], supports)["recall_any@10"] == 0
    assert anchored([ch("c", rel="leave.md", heading="Leave")], supports)["recall_any@10"] == 0
    assert anchored([ch("c", heading="Leave")], supports)["recall_any@10"] == 0  # no rel_path
    assert anchored([ch("c", rel="hr/leave.md", heading="Leave")], supports)["recall_any@1"] == 1


def test_recall_any_at_k() -> None:
    # the only matching chunk is at rank 4
    chunks = [ch(f"x{i}", rel="other.md", heading="Leave") for i in range(3)]
    chunks.append(ch("hit", rel="hr/leave.md", heading="Leave > Vacation"))
    result = anchored(chunks, [gold("hr/leave.md", "Leave")])
    assert [result[f"recall_any@{k}"] for k in KS] == [0, 0, 1, 1]
    assert anchored([], [gold("hr/leave.md")])["recall_any@10"] == 0


def test_snippet_requirement() -> None:
    supports = [gold("hr/leave.md", "Leave", ["Fifteen  days", "unused"])]
    hit = ch("c", rel="hr/leave.md", heading="Leave", content="Staff get FIFTEEN\n days of leave.")
    miss = ch("c", rel="hr/leave.md", heading="Leave", content="Staff get 15 days of leave.")
    split_word = ch("c", rel="hr/leave.md", heading="Leave", content="fifteen daysoff")
    assert anchored([hit], supports)["recall_any@1"] == 1  # case and whitespace ignored
    assert anchored([miss], supports)["recall_any@1"] == 0  # heading alone is not enough
    assert anchored([split_word], supports)["recall_any@1"] == 1  # substring, as in 004
    # an empty snippet list, or snippets that normalise to "", require nothing
    assert anchored([miss], [gold("hr/leave.md", "Leave", [" ", ""])])["recall_any@1"] == 1
    assert anchored([miss], [gold("hr/leave.md", "Leave")])["recall_any@1"] == 1


def test_snippet_found_only_after_whitespace_normalisation() -> None:
    # "a b c" is not in "x a\t\tb  c y" before normalisation, but is after
    chunk = ch("c", rel="f.md", content="x A\t\tb  C y")
    assert anchored([chunk], [gold("f.md", "", ["a b c"])])["recall_any@1"] == 1
    assert anchored([chunk], [gold("f.md", "", ["a b d"])])["recall_any@1"] == 0


def test_recall_all_over_groups() -> None:
    supports = [gold("a.md"), gold("b.md"), gold("c.md")]
    chunks = [
        ch("1", rel="a.md"),  # matches support 0
        ch("2", rel="z.md"),
        ch("3", rel="z.md"),
        ch("4", rel="c.md"),  # matches support 2
    ]
    # group [0] satisfied from rank 1; group [1, 2] from rank 4 (support 2)
    result = anchored(chunks, supports, required_support_groups=[[0], [1, 2]])
    assert [result[f"recall_all@{k}"] for k in KS] == [0, 0, 1, 1]
    assert [result[f"recall_any@{k}"] for k in KS] == [1, 1, 1, 1]
    # a group whose supports are never retrieved keeps recall_all at 0
    never = anchored(chunks, supports, required_support_groups=[[0], [1]])
    assert [never[f"recall_all@{k}"] for k in KS] == [0, 0, 0, 0]


def test_recall_all_ignores_malformed_entries() -> None:
    supports = [gold("a.md"), gold("b.md")]
    chunks = [ch("1", rel="a.md")]
    # valid groups: [0] (from [0, "1", True, -1, 7, 1.0]); everything else is dropped,
    # [True] included (a bool is not an index: read as 1 it would be unsatisfied)
    groups = [[0, "1", True, -1, 7, 1.0], [True], "x", 5, [], ["0"], None, {"a": 1}]
    result = anchored(chunks, supports, required_support_groups=groups)
    assert result["recall_all@1"] == 1  # only [0], and support 0 is at rank 1
    # [1] is valid and unsatisfied
    result = anchored(chunks, supports, required_support_groups=[*groups, [1]])
    assert result["recall_all@10"] == 0
    # no valid group at all: no recall_all key
    assert set(anchored(chunks, supports, required_support_groups=[[5], "x"])) == ANCHOR_KEYS
    assert set(anchored(chunks, supports)) == ANCHOR_KEYS


def test_attribution_via_chunk_id() -> None:
    chunks = [ch("c1", "d1", rel="x.md"), ch("c2", "d1", rel="hr/leave.md", heading="Leave")]
    supports = [gold("hr/leave.md", "Leave")]
    cites = Response(citations=[{"chunk_id": "c2"}])
    assert anchored(chunks, supports, cites)["attribution_hit"] == 1
    # c1 is retrieved and does not match: the citation resolves to it alone, not to d1
    c1 = Response(citations=[{"chunk_id": "c1", "document_id": "d1"}])
    assert anchored(chunks, supports, c1)["attribution_hit"] == 0
    # any of several citations may hit
    both = Response(citations=[{"chunk_id": "c1"}, {"chunk_id": "c2"}])
    assert anchored(chunks, supports, both)["attribution_hit"] == 1


def test_attribution_via_document_id() -> None:
    chunks = [ch("c1", "d1", rel="x.md"), ch("c2", "d1", rel="hr/leave.md", heading="Leave")]
    supports = [gold("hr/leave.md", "Leave")]
    # d1 resolves to c1 and c2; c2 matches
    assert (
        anchored(chunks, supports, Response(citations=[{"document_id": "d1"}]))["attribution_hit"]
        == 1
    )
    # an unretrieved chunk_id falls back to its document_id
    fallback = Response(citations=[{"chunk_id": "gone", "document_id": "d1"}])
    assert anchored(chunks, supports, fallback)["attribution_hit"] == 1
    # a document that was not retrieved resolves to nothing
    other = Response(citations=[{"document_id": "d9"}, {"chunk_id": "gone"}, {}])
    assert anchored(chunks, supports, other)["attribution_hit"] == 0


def test_attribution_counts_chunks_past_rank_ten() -> None:
    chunks = [ch(f"x{i}", "dx", rel="x.md") for i in range(11)]
    chunks.append(ch("late", "dl", rel="hr/leave.md"))  # rank 12
    supports = [gold("hr/leave.md")]
    result = anchored(chunks, supports, Response(citations=[{"chunk_id": "late"}]))
    assert result["attribution_hit"] == 1 and result["recall_any@10"] == 0
    by_doc = anchored(chunks, supports, Response(citations=[{"document_id": "dl"}]))
    assert by_doc["attribution_hit"] == 1


def test_attribution_none_cases() -> None:
    chunks = [ch("c", "d", rel="hr/leave.md")]
    supports = [gold("hr/leave.md")]
    cites = Response(citations=[{"chunk_id": "c"}])
    assert anchored(chunks, supports, None)["attribution_hit"] is None  # no response
    assert anchored(chunks, supports, Response(text="x"))["attribution_hit"] is None  # no cites
    unanswerable = anchored(chunks, supports, cites, answerable=False)
    assert unanswerable["attribution_hit"] is None  # 004: answerable questions only
    assert anchored(chunks, supports, cites, answerable=True)["attribution_hit"] == 1
    assert anchored(chunks, supports, cites)["attribution_hit"] == 1  # unknown: computed
    # without gold supports there is no attribution key at all
    assert "attribution_hit" not in graded(ids("c"), {"c": 1})


def test_non_string_metadata_never_matches() -> None:
    chunk = Chunk(chunk_id="c", metadata={"rel_path": ["hr/leave.md"], "heading_path": 3})
    assert anchored([chunk], [gold("hr/leave.md")])["recall_any@1"] == 0
    chunk = Chunk(chunk_id="c", metadata={"rel_path": "hr/leave.md", "heading_path": 3})
    assert anchored([chunk], [gold("hr/leave.md")])["recall_any@1"] == 1  # empty gold
    assert anchored([chunk], [gold("hr/leave.md", "Leave")])["recall_any@1"] == 0


# ------------------------------------------------- against a straightforward reimplementation


def reference(ranking: list[str | None], grades: dict[str, float]) -> dict[str, float]:
    """The textbook definitions, written independently of the module."""
    relevant = {key: g for key, g in grades.items() if g > 0}
    rels: list[float] = []
    seen: set[str] = set()
    for ident in ranking:
        if ident is not None and ident in relevant and ident not in seen:
            seen.add(ident)
            rels.append(relevant[ident])
        else:
            rels.append(0.0)
    out: dict[str, float] = {}
    ideal = sorted(relevant.values(), reverse=True)
    for k in KS:
        hits = sum(1 for r in rels[:k] if r > 0)
        p, r = hits / k, hits / len(relevant)
        out[f"precision@{k}"] = p
        out[f"recall@{k}"] = r
        out[f"f1@{k}"] = 2 * p * r / (p + r) if p + r else 0.0
        dcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(rels[:k]))
        idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal[:k]))
        out[f"ndcg@{k}"] = dcg / idcg
    first = next((i for i, r in enumerate(rels, 1) if r > 0), None)
    out["mrr"] = 1 / first if first else 0.0
    precisions = [sum(1 for x in rels[:i] if x > 0) / i for i, r in enumerate(rels, 1) if r > 0]
    out["map"] = sum(precisions) / len(relevant)
    return out


ALPHABET = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]
GRADE = st.one_of(
    st.integers(min_value=-1, max_value=3),
    st.floats(min_value=0.01, max_value=6.0),  # the reference's 2^g - 1 is exact enough here
)


@settings(max_examples=300, deadline=None)
@given(
    ranking=st.lists(st.one_of(st.none(), st.sampled_from(ALPHABET)), max_size=14),
    grades=st.dictionaries(st.sampled_from(ALPHABET), GRADE, min_size=1, max_size=8),
)
def test_graded_metrics_match_the_reference(
    ranking: list[str | None], grades: dict[str, float]
) -> None:
    result = score_retrieval(ids(*ranking), None, Labels(relevant_chunks=grades))
    if not any(g > 0 for g in grades.values()):
        assert result is None
        return
    assert result is not None
    expected = reference(ranking, grades)
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        got = result[key]
        assert isinstance(got, float) and 0.0 <= got <= 1.0


@settings(max_examples=200, deadline=None)
@given(
    docs=st.lists(st.one_of(st.none(), st.sampled_from(ALPHABET[:5])), max_size=12),
    grades=st.dictionaries(
        st.sampled_from(ALPHABET[:6]), st.integers(min_value=1, max_value=3), min_size=1
    ),
)
def test_doc_level_matches_the_reference(docs: list[str | None], grades: dict[str, int]) -> None:
    chunks = [ch(f"c{i}", doc) for i, doc in enumerate(docs)]
    result = score_retrieval(chunks, None, Labels(relevant_docs=dict(grades)))
    assert result is not None and result["level"] == "doc"
    for key, value in reference(docs, dict(grades)).items():
        assert result[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key


def naive_components(heading: str) -> tuple[str, ...]:
    parts = (re.sub(r"\s+", " ", part).strip() for part in heading.split(">"))
    return tuple(p for p in parts if p)


HEADING = st.text(alphabet="ab >\t\n\u00a0", max_size=16)


@settings(max_examples=500, deadline=None)
@given(HEADING)
def test_heading_components_match_the_definition(heading: str) -> None:
    assert heading_components(heading) == naive_components(heading)


@settings(max_examples=300, deadline=None)
@given(
    chunk_headings=st.lists(st.tuples(st.sampled_from(["f.md", "g.md"]), HEADING), max_size=12),
    gold_headings=st.lists(st.tuples(st.sampled_from(["f.md", "h.md"]), HEADING), min_size=1),
)
def test_recall_any_matches_a_naive_prefix_check(
    chunk_headings: list[tuple[str, str]], gold_headings: list[tuple[str, str]]
) -> None:
    chunks = [ch(f"c{i}", rel=rel, heading=h) for i, (rel, h) in enumerate(chunk_headings)]
    result = anchored(chunks, [gold(rel, h) for rel, h in gold_headings])

    def matches(rel: str, heading: str) -> bool:
        mine = naive_components(heading)
        return any(
            rel == g_rel and mine[: len(naive_components(g_h))] == naive_components(g_h)
            for g_rel, g_h in gold_headings
        )

    for k in KS:
        expected = any(matches(rel, h) for rel, h in chunk_headings[:k])
        assert result[f"recall_any@{k}"] == int(expected)


def naive_text(text: str) -> str:
    return re.sub(r"\s+", " ", text.casefold()).strip()


TEXT = st.text(alphabet="aAbB \t\n\u00a0", max_size=20)


@settings(max_examples=500, deadline=None)
@given(content=TEXT, snippets=st.lists(TEXT, min_size=1, max_size=3))
def test_snippet_match_is_a_normalised_substring(content: str, snippets: list[str]) -> None:
    chunk = ch("c", rel="f.md", content=content)
    result = anchored([chunk], [gold("f.md", "", snippets)])
    wanted = [naive_text(s) for s in snippets if naive_text(s)]
    expected = not wanted or any(s in naive_text(content) for s in wanted)
    assert result["recall_any@1"] == int(expected)
