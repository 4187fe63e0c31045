"""Spec 000's CRAG routing (``monitor.scoring.crag``), with JavaScript string semantics."""

from __future__ import annotations

import math

import pytest

from monitor.scoring.crag import (
    classify,
    decompose_query,
    decompose_spans,
    query_text,
    reformulate_query,
    reformulate_span,
)

QUERY = "What is the refund policy and how do I apply?"


# --------------------------------------------------------------------- classification


def test_exactly_correct_threshold_is_correct() -> None:
    r = classify(0.7, QUERY)
    assert r.classification == "correct"
    assert r.confidence == 0.7
    assert r.action.type == "use_retrieved"
    assert r.model_dump() == {
        "classification": "correct",
        "confidence": 0.7,
        "action": {"type": "use_retrieved"},
    }


def test_exactly_incorrect_threshold_is_incorrect() -> None:
    r = classify(0.3, "What is the refund policy?")
    assert r.classification == "incorrect"
    # 1 - 0.3 = 0.7 (exact in binary floating point too)
    assert r.confidence == pytest.approx(0.7, abs=1e-15)
    assert r.action.type == "supplemental_search"
    assert r.action.search_query is None  # no query text by default
    span = {"start": 5, "end": 25, "template": "{}"}
    assert r.model_dump() == {
        "classification": "incorrect",
        "confidence": r.confidence,
        "action": {"type": "supplemental_search", "search_query_span": span},
    }
    with_text = classify(0.3, "What is the refund policy?", include_text=True)
    assert with_text.action.search_query == "is the refund policy"
    assert with_text.model_dump()["action"] == {
        "type": "supplemental_search",
        "search_query_span": span,
        "search_query": "is the refund policy",
    }


@pytest.mark.parametrize(
    "overall", [0.3000001, 0.6999999, 0.5, math.nextafter(0.3, 1), math.nextafter(0.7, 0)]
)
def test_between_thresholds_is_ambiguous(overall: float) -> None:
    r = classify(overall, QUERY)
    assert r.classification == "ambiguous"
    assert r.confidence == overall
    assert r.action.type == "decompose_and_recompose"
    assert r.action.sub_queries is None  # no query text by default
    spans = [
        {"start": 0, "end": 25, "template": "{}"},
        {"start": 30, "end": 45, "template": "{}"},
    ]
    assert r.model_dump()["action"] == {"type": "decompose_and_recompose", "sub_query_spans": spans}
    with_text = classify(overall, QUERY, include_text=True)
    assert with_text.model_dump()["action"] == {
        "type": "decompose_and_recompose",
        "sub_query_spans": spans,
        "sub_queries": ["What is the refund policy", "how do I apply?"],
    }


@pytest.mark.parametrize(
    ("overall", "classification", "confidence"),
    [
        (1.0, "correct", 1.0),
        (0.95, "correct", 0.95),
        (0.0, "incorrect", 1.0),  # 1 - 0
        (0.25, "incorrect", 0.75),  # 1 - 0.25
        (-0.5, "incorrect", 1.5),  # 1 - (-0.5): no clamping in spec 000
    ],
)
def test_classification_and_confidence(
    overall: float, classification: str, confidence: float
) -> None:
    r = classify(overall, "q")
    assert r.classification == classification
    assert r.confidence == pytest.approx(confidence, abs=1e-15)


# --------------------------------------------------------------------- decomposition


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # "and" is kept by the split (capturing group) and dropped by the length filter
        (QUERY, ["What is the refund policy", "how do I apply?"]),
        # case-insensitive separators
        (
            "Tell me about pricing OR tell me about discounts",
            ["Tell me about pricing", "tell me about discounts"],
        ),
        (
            "Show the vacation policy ALSO the sick leave rules",
            ["Show the vacation policy", "the sick leave rules"],
        ),
        # "additionally" is 12 characters long: > 10, so the separator itself survives
        (
            "What is the refund policy additionally the shipping time",
            ["What is the refund policy", "additionally", "the shipping time"],
        ),
        (
            "What is the refund policy Additionally the shipping time",
            ["What is the refund policy", "Additionally", "the shipping time"],
        ),
        # several separators
        (
            "what is the refund policy and what is the shipping time or the return window",
            ["what is the refund policy", "what is the shipping time", "the return window"],
        ),
        # parts of 10 characters or fewer are dropped; 11 is kept
        ("abcdefghij and abcdefghijk", ["abcdefghijk"]),
        ("pricing and the refund policy details", ["the refund policy details"]),
        ("cats and dogs", []),
        ("and", []),
        # a separator at the start gives an empty first part
        ("And what about the refund policy", ["what about the refund policy"]),
        # punctuation is a word boundary (and stays in the part: only whitespace is trimmed)
        ("refund policy details,and shipping time", ["refund policy details,", "shipping time"]),
    ],
)
def test_compound_queries_are_split(query: str, expected: list[str]) -> None:
    assert decompose_query(query) == expected
    spans = decompose_spans(query)
    assert [query[s.start : s.end] for s in spans] == expected  # parts of the query
    assert {s.template for s in spans} <= {"{}"}


def _variants(query: str, stripped: str) -> list[str]:
    return [
        query,
        f"What information exists about: {query}",
        f"{stripped} details and specifics",
    ]


@pytest.mark.parametrize(
    "query",
    [
        "android order tracking?",  # "and" inside "android", "or" inside "order"/"for"
        "information for Oregon sandbox orders?",
        "rock_and_roll playlist?",  # "_" is a word character: no boundary
        "bandwidth ordering coralso?",
    ],
)
def test_words_containing_separators_are_not_split(query: str) -> None:
    assert decompose_query(query) == _variants(query, query[:-1])


@pytest.mark.parametrize(
    ("query", "stripped"),
    [
        ("Vacation days?", "Vacation days"),
        ("vacation policy", "vacation policy"),
        ("Really??", "Really?"),  # only one trailing "?" is removed
        ("policy? ", "policy? "),  # "?" not at the very end: nothing removed
        ("policy?\n", "policy?\n"),  # JS `$` without the m flag: end of input only
        ("", ""),
    ],
)
def test_non_decomposable_query_gives_three_variants(query: str, stripped: str) -> None:
    assert decompose_query(query) == _variants(query, stripped)


def test_word_boundaries_are_ascii_as_in_javascript() -> None:
    # Without the `u` flag JS's \b and \w are ASCII: "é" is not a word character, so
    # "éandé" has boundaries around "and" and the query is split.
    assert decompose_query("vacation policyéandé sick leave rules") == [
        "vacation policyé",
        "é sick leave rules",
    ]


def test_parts_are_trimmed_with_javascript_whitespace() -> None:
    # String.prototype.trim strips U+FEFF (Python's str.strip does not)
    assert decompose_query("refund policy details\ufeff and shipping time\ufeff") == [
        "refund policy details",
        "shipping time",
    ]


def test_part_length_is_counted_in_utf16_units() -> None:
    # "abcdefghi😀" is 10 code points but 11 UTF-16 units: kept (> 10)
    # "abcdefgh😀" is 9 code points, 10 units: dropped
    assert decompose_query("abcdefghi😀 and abcdefgh😀") == ["abcdefghi😀"]


# --------------------------------------------------------------------- reformulation


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the refund policy?", "is the refund policy"),  # one word only
        ("how do I apply?", "do I apply"),
        ("Does   the VPN work abroad?", "the VPN work abroad"),
        ("WHERE is HQ?", "is HQ"),
        ("Can\u00a0I get a refund?", "I get a refund"),  # NBSP is JS whitespace
        ("Is it raining ?", "it raining"),  # "?" removed, then trimmed
        ("refund policy??", "refund policy?"),  # one trailing "?"
        ("Whatever happened?", "Whatever happened"),  # "what" must be a whole word
        ("What?", "What"),  # the word needs whitespace after it
        ("  What is X?  ", "What is X?"),  # ^ is the very start; "?" not at the end
        ("What is it?\n", "is it?"),  # `$` is the end of input: "?" stays, trim drops \n
        ("who", "who"),
        ("", ""),
    ],
)
def test_reformulate_query(query: str, expected: str) -> None:
    assert reformulate_query(query) == expected
    span = reformulate_span(query)
    assert query[span.start : span.end] == expected and span.template == "{}"
    assert classify(0.1, query, include_text=True).action.search_query == expected
    assert classify(0.1, query).action.search_query_span == span


@pytest.mark.parametrize(
    "query",
    ["Vacation days?", "Really??", "policy? ", "", "android order tracking?", "x\U0001f600?"],
)
def test_the_three_variants_are_templates_around_a_span(query: str) -> None:
    spans = decompose_spans(query)
    assert [query_text(query, s) for s in spans] == decompose_query(query)
    assert [s.template for s in spans] == [
        "{}",
        "What information exists about: {}",
        "{} details and specifics",
    ]
    assert spans[0].start == 0 and spans[0].end == len(query)
