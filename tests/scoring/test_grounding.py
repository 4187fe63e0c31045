"""Spec 003 C groundedness (``monitor.scoring.grounding``).

Expected values are worked out by hand from the module docstring's definitions, with the
arithmetic next to them; none is taken from the code under test.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.demo.traffic import TrafficGenerator
from monitor.events.rag_event import Chunk, Citation, Labels, Response
from monitor.events.scored_event import Grounding
from monitor.pipeline import decode_event
from monitor.scoring import grounding
from monitor.scoring.grounding import MAX_NUMBERS, number_key, score_grounding

HR = "Full-time employees receive 15 days of paid vacation per year."


def ground(
    answer: str,
    context: str | Sequence[str] = HR,
    *,
    citations: Sequence[dict[str, Any]] = (),
    labels: Labels | None = None,
) -> Grounding:
    contents = [context] if isinstance(context, str) else list(context)
    cs = [
        Chunk(chunk_id=f"c{i}", document_id=f"d{i}", content=text)
        for i, text in enumerate(contents)
    ]
    response = Response(text=answer, citations=[Citation(**c) for c in citations])
    result = score_grounding(response, cs, "\n\n".join(contents), labels)
    assert result is not None
    return result


def spans(g: Grounding) -> list[tuple[int, int]]:
    """Every ``[start, end)`` the section reports."""
    claims = [(c.start, c.end) for c in g.unsupported_claims]
    return claims + [(s.start, s.end) for s in g.numeric_fabrications]


def fabricated(answer: str, context: str | Sequence[str] = HR) -> list[str]:
    return [answer[s.start : s.end] for s in ground(answer, context).numeric_fabrications]


def unsupported(answer: str, context: str | Sequence[str] = HR) -> list[tuple[str, str]]:
    return [(answer[c.start : c.end], c.type) for c in ground(answer, context).unsupported_claims]


# ------------------------------------------------------------------------------ None cases


@pytest.mark.parametrize("text", ["", " ", "\n\t  \n"])
def test_blank_answer_is_none(text: str) -> None:
    assert score_grounding(Response(text=text), [], "", None) is None


def test_no_response_is_none() -> None:
    assert score_grounding(None, [Chunk(content=HR)], HR, Labels()) is None


def test_answer_without_claims() -> None:
    g = ground("Yes.")
    assert g.claims == 0
    assert g.claim_support_rate is None
    assert g.unsupported_claims == []
    assert g.numeric_fabrications == []
    assert g.citation_validity_form is None
    assert g.citation_validity_content is None
    assert g.expected_claims_recall is None
    assert g.forbidden_claims_found is None


# -------------------------------------------------------------------------- number keys


@pytest.mark.parametrize(
    ("part", "key"),
    [
        ("1,000", "1000"),
        ("1000", "1000"),
        ("1,000,000", "1000000"),
        ("3.50", "3.5"),
        ("3.5", "3.5"),
        ("2.00", "2"),
        ("007", "7"),
        ("0", "0"),
        ("0.50", "0.5"),
        ("15th", "15"),
        ("1st", "1"),
        ("2024", "2024"),
        ("1.2.3", "1.2.3"),
        ("v2", None),
        ("2fa", None),
    ],
)
def test_number_key(part: str, key: str | None) -> None:
    assert number_key(part) == key


# -------------------------------------------------------------------- numeric fabrication


def test_grouping_commas_are_normalised() -> None:
    # 003: "1,000" = "1000"
    context = "Reimbursement limit: 1000 dollars per claim."
    assert fabricated("The reimbursement limit is 1,000 dollars per claim.", context) == []
    assert fabricated("The limit is 1000 dollars.", "The limit is 1,000 dollars.") == []


@pytest.mark.parametrize("written", ["15 percent", "15 per cent", "15 %", "15 pct"])
def test_percent_forms_are_one_number(written: str) -> None:
    # 003: "15%" = "15 percent"
    assert fabricated("The company pays 15% of the premium.", f"The company pays {written}.") == []
    answer = f"The company pays {written} of the premium."
    assert fabricated(answer, "The company pays 15% of the premium.") == []


def test_percentage_is_not_the_bare_number() -> None:
    # "15%" has key "15%"; the context only has a plain 15
    assert fabricated("The company pays 15% of the premium.", "The company pays 15 dollars.") == [
        "15"
    ]


def test_fifteen_days_near_vacation() -> None:
    # 003: "15 days" searches for 15 near the answer's words. Anchors of the 15 in
    # "Employees get 15 days of vacation": employee, get, day, vacation
    near = "Vacation: employees receive 15 days per year."
    assert fabricated("Employees get 15 days of vacation.", near) == []
    # here the context's 15 stands among parking, space, reserved, visitor (window of 6
    # tokens: parking 15 spaces are reserved for visitors at), far from every anchor
    far = (
        "Parking: 15 spaces are reserved for visitors at the north entrance every weekday. "
        "Vacation is 20 days."
    )
    assert fabricated("Employees get 15 days of vacation.", far) == ["15"]


def test_near_means_within_six_tokens() -> None:
    # the answer's 15 has the single anchor "vacation" (x1 ... x6 are tokens, not terms)
    answer = "Vacation is 15."
    assert fabricated(answer, "15 x1 x2 x3 x4 x5 vacation") == []  # 6 tokens apart
    assert fabricated(answer, "15 x1 x2 x3 x4 x5 x6 vacation") == ["15"]  # 7 apart
    assert fabricated(answer, "vacation x1 x2 x3 x4 x5 15") == []  # before it works too


def test_near_runs_across_chunks() -> None:
    # context tokens: [... x5 vacation] [15 ...]: the 15 is 1 token after "vacation"
    assert fabricated("Vacation is 15.", ["x1 x2 x3 x4 x5 vacation", "15 y1 y2"]) == []


def test_number_without_anchors_only_has_to_occur() -> None:
    # "It is 15." has no term: the 15 only needs to be in the context
    assert fabricated("It is 15.", "Parking: 15 spaces.") == []
    assert fabricated("It is 16.", "Parking: 15 spaces.") == ["16"]


def test_currency_and_decimals() -> None:
    context = "Hotel rates are capped at 1200 per night; taxis cost 3.5 dollars per mile."
    answer = "Hotels cost $1,200.00 per night. Taxis cost $3.50 per mile."
    assert fabricated(answer, context) == []


def test_years_are_checked() -> None:
    answer = "In 2024 employees got vacation days."
    assert fabricated(answer, "In 2023 employees got vacation days.") == ["2024"]
    assert fabricated(answer, "In 2024 employees got vacation days.") == []


def test_spelled_out_numbers_in_the_context_count() -> None:
    assert fabricated("Employees get 15 days of vacation.", "Employees get fifteen days.") == []
    # in the answer a spelled-out number is a word, never checked
    assert fabricated("Employees get fifteen days of vacation.", "Nothing.") == []


def test_hyphenated_numbers() -> None:
    # "15-day": number 15 with the term "day" in the same token
    assert fabricated("A 15-day trial is offered.", "The trial lasts 15 days.") == []
    # a range: both ends are numbers
    assert fabricated("It takes 10-15 days.", "It takes 10 to 14 days.") == ["15"]


def test_bullets_and_citation_markers_are_not_numbers() -> None:
    answer = "1. Employees get vacation days [1].\n2) Managers approve requests [doc-7]."
    assert fabricated(answer, "Employees get vacation days. Managers approve requests.") == []


def test_fabrication_spans_point_into_the_answer() -> None:
    answer = "Hotels cost $250 per night (source: travel policy). Taxis cost 99 dollars."
    g = ground(answer, "Hotels cost 200 per night.")
    # "Hotels cost $" is 13 characters: 250 at [13, 16); "(source: travel policy)" is
    # [27, 50), then ". " 50-51, "Taxis " 52-57, "cost " 58-62: 99 at [63, 65)
    assert [(s.start, s.end) for s in g.numeric_fabrications] == [(13, 16), (63, 65)]
    assert [answer[s.start : s.end] for s in g.numeric_fabrications] == ["250", "99"]


def test_numbers_checked_are_capped() -> None:
    answer = " ".join(str(i) for i in range(1, MAX_NUMBERS + 50))
    # only the first MAX_NUMBERS numbers are looked at
    assert len(ground(answer, "nothing").numeric_fabrications) == MAX_NUMBERS


# --------------------------------------------------------------------------------- claims


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("is", "assertion"),
        ("must", "assertion"),
        ("will", "assertion"),
        ("may", "inference"),
        ("might", "inference"),
        ("could", "inference"),
        ("possibly", "inference"),
        ("perhaps", "inference"),
        ("likely", "inference"),
        ("probably", "inference"),
        ("suggests", "inference"),
        ("appears", "inference"),
    ],
)
def test_claim_type_by_indicator(word: str, kind: str) -> None:
    # the context shares nothing: every verified claim is unsupported
    answer = f"The reimbursement policy {word} cover international travel."
    assert unsupported(answer, "Unrelated text about laptops.") == [(answer[:-1], kind)]


@pytest.mark.parametrize(
    "answer",
    [
        "Employees generally receive annual bonuses.",
        "Employees typically receive annual bonuses.",
        "Employees usually receive annual bonuses.",
        "Employees commonly receive annual bonuses.",
        "Employees often receive annual bonuses.",
        "In general, employees receive annual bonuses.",
        "As a rule, employees receive annual bonuses.",
        "Bonuses may typically be paid annually.",  # general wins over inference
    ],
)
def test_general_claims_are_counted_not_verified(answer: str) -> None:
    g = ground(answer, "Unrelated text about laptops.")
    assert g.claims == 1
    assert g.claim_support_rate is None
    assert g.unsupported_claims == []


def test_general_phrases_need_their_words_together() -> None:
    # "general" and "rule" alone are not indicators, and they are terms: general, manager,
    # approve, rule, change; the context has general, manager, rule: 3 / 5 < 0.7
    answer = "The general manager approves each rule change."
    assert unsupported(answer, "General manager rules.") == [(answer[:-1], "assertion")]
    # with approve too: 4 / 5 >= 0.7
    assert unsupported(answer, "General manager approves rules.") == []


TEN = "alpha bravo charlie delta echo foxtrot golf hotel india juliet"


@pytest.mark.parametrize(
    ("known", "assertion_ok", "inference_ok"),
    [
        (10, True, True),
        (7, True, True),  # 7 / 10 = 0.7 >= 0.7
        (6, False, True),  # 0.6 < 0.7; >= 0.5
        (5, False, True),  # 0.5 >= 0.5
        (4, False, False),  # 0.4 < 0.5
        (0, False, False),
    ],
)
def test_support_thresholds(known: int, assertion_ok: bool, inference_ok: bool) -> None:
    words = TEN.split()
    context = " ".join(words[:known])
    # 10 distinct terms; "may" is an indicator, not a term
    assertion = ground(f"{TEN}.", context)
    inference = ground(f"{words[0]} may {' '.join(words[1:])}.", context)
    assert assertion.claim_support_rate == (1.0 if assertion_ok else 0.0)
    assert inference.claim_support_rate == (1.0 if inference_ok else 0.0)


def test_assertion_with_a_fabricated_number_is_unsupported() -> None:
    # all terms (employee, receive, day, paid, vacation) are in HR, but 20 is not
    assert unsupported("Employees receive 20 days of paid vacation.") == [
        ("Employees receive 20 days of paid vacation", "assertion")
    ]
    # an inference needs terms only
    assert unsupported("Employees may receive 20 days of paid vacation.") == []


def test_rate_counts_assertions_and_inferences() -> None:
    answer = (
        "Employees receive 15 days of paid vacation. "  # assertion, supported
        "Employees might receive stock options. "  # inference: employee, receive of
        # employee, receive, stock, option: 2 / 4 = 0.5, supported
        "Managers approve expensive international flights. "  # assertion, 0 / 5
        "Bonuses are usually paid in March."  # general: not in the rate
    )
    g = ground(answer)
    assert g.claims == 4
    # 2 supported of 3 verified
    assert g.claim_support_rate == pytest.approx(2 / 3)
    assert [(answer[c.start : c.end], c.type) for c in g.unsupported_claims] == [
        ("Managers approve expensive international flights", "assertion")
    ]


def test_a_claim_needs_two_terms() -> None:
    # "It is good": one term (good); "Vacation days": two (vacation, day)
    assert ground("It is good.").claims == 0
    assert ground("Vacation days.").claims == 1


LOURDES = (
    "It is a replica of the grotto at Lourdes, France where the Virgin Mary reputedly "
    "appeared to Saint Bernadette Soubirous in 1858."
)
TITLES = "The team won 2 titles in the 1990s."


@pytest.mark.parametrize(
    ("answer", "context", "supported", "content"),
    [
        ("2 [1].", TITLES, 1.0, 1.0),
        ("3 [1].", TITLES, 0.0, 0.0),  # a number the context lacks: fabricated
        ("Saint Bernadette Soubirous [1].", LOURDES, 1.0, 1.0),
        ("Bernadette [1].", LOURDES, 1.0, 1.0),
        ("In 1858 [1].", LOURDES, 1.0, 1.0),
        ("In Lourdes [1].", LOURDES, 1.0, 1.0),
        ("Paris [1].", LOURDES, 0.0, 0.0),
    ],
)
def test_short_answers_are_claims_checked_against_context_and_citation(
    answer: str, context: str, supported: float, content: float
) -> None:
    """Issue 14: a fragment stating an answer is a claim like any other; a correct and
    correctly cited one is supported and its citation content-valid (its number, or its
    term, is in the cited chunk); a wrong one is not."""
    g = ground(answer, context, citations=[{"document_id": "d0", "chunk_id": "c0"}])
    assert g.claims == 1
    assert g.claim_support_rate == supported
    assert (g.citation_validity_form, g.citation_validity_content) == (1.0, content)
    assert len(g.unsupported_claims) == (0 if supported else 1)


def test_a_short_answer_cited_to_the_wrong_chunk_is_content_invalid() -> None:
    g = ground("2 [1].", [LOURDES, TITLES], citations=[{"document_id": "d0", "chunk_id": "c0"}])
    assert (g.claims, g.claim_support_rate) == (1, 1.0)  # 2 is in the context (chunk c1)
    assert (g.citation_validity_form, g.citation_validity_content) == (1.0, 0.0)


@pytest.mark.parametrize(
    "answer", ["Yes.", "Thanks!", "Sure.", "It is good.", "Benefits:", "Details:\n- x"]
)
def test_conversational_words_clauses_and_headings_are_not_short_answers(answer: str) -> None:
    assert ground(answer, LOURDES).claims == 0


def test_questions_and_sentences_about_the_assistant_are_not_claims() -> None:
    answer = (
        "Do you mean the parental leave policy? "
        "I could not find any documents that answer this question. "
        "I'm unable to discuss salaries. Sorry, that topic is restricted."
    )
    g = ground(answer, "Unrelated text.")
    assert g.claims == 0
    assert g.claim_support_rate is None


def test_sentence_splitting() -> None:
    answer = (
        "Employees receive paid vacation; managers approve requests!\n"
        "- Interns receive stipends\n"
        '* Contractors invoice monthly." Remote staff travel quarterly?'
    )
    # claims: 4 (the question is not one); none supported by an unrelated context
    g = ground(answer, "Unrelated.")
    assert g.claims == 4
    assert [answer[c.start : c.end] for c in g.unsupported_claims] == [
        "Employees receive paid vacation",
        "managers approve requests",
        "Interns receive stipends",
        "Contractors invoice monthly",
    ]


def test_decimal_points_do_not_split_sentences() -> None:
    g = ground("Taxis cost 3.50 dollars per mile in Boston.", "Taxis cost 3.5 dollars per mile.")
    # one claim: taxi, cost, dollar, mile, boston (per is not counted): 4 / 5 >= 0.7
    assert g.claims == 1
    assert g.claim_support_rate == 1.0


def test_citation_markers_and_attributions_are_not_read() -> None:
    context = "Medical coverage begins on the first day of the month after your start date."
    answer = (
        "According to the Benefits Guide (Health Insurance): medical coverage begins on the "
        "first day of the month [1] (source: benefits.md)."
    )
    g = ground(answer, context)
    # terms: medical, coverage, begin, first, day, month: all in the context. Without the
    # attribution's benefit, guide, health, insurance the claim is supported.
    assert g.claims == 1
    assert g.claim_support_rate == 1.0
    unrelated = ground(answer, "Unrelated.")
    [claim] = unrelated.unsupported_claims
    # the span starts after the attribution and ends at the claim's last word
    assert (
        answer[claim.start : claim.end] == "medical coverage begins on the first day of the month"
    )


# ------------------------------------------------------------------------------ citations

TWO_DOCS = [
    "Full-time employees receive 15 days of paid vacation per year.",
    "Laptops are replaced every three years by the IT department.",
]
VACATION = "Employees receive 15 days of paid vacation."


@pytest.mark.parametrize(
    ("citation", "form", "content"),
    [
        ({"document_id": "d0", "chunk_id": "c0"}, 1.0, 1.0),  # the right chunk
        ({"chunk_id": "c0"}, 1.0, 1.0),  # chunk id alone
        ({"document_id": "d0"}, 1.0, 1.0),  # document alone: its chunks
        # form-valid, but the laptop chunk has none of the claim's terms
        ({"document_id": "d1", "chunk_id": "c1"}, 1.0, 0.0),
        ({"document_id": "d1"}, 1.0, 0.0),
        ({"document_id": "unknown"}, 0.0, 0.0),  # unknown document
        ({"chunk_id": "c9"}, 0.0, 0.0),  # unknown chunk
        ({"document_id": "d1", "chunk_id": "c0"}, 0.0, 0.0),  # chunk of another document
        ({}, 0.0, 0.0),  # names nothing
    ],
)
def test_single_citation(citation: dict[str, Any], form: float, content: float) -> None:
    g = ground(VACATION, TWO_DOCS, citations=[citation])
    assert (g.citation_validity_form, g.citation_validity_content) == (form, content)


def test_citation_fractions() -> None:
    citations = [
        {"document_id": "d0", "chunk_id": "c0"},  # form and content valid
        {"document_id": "d1", "chunk_id": "c1"},  # form valid only
        {"document_id": "x"},  # invalid
        {"document_id": "d1", "chunk_id": "c0"},  # invalid (chunk of another document)
    ]
    g = ground(VACATION, TWO_DOCS, citations=citations)
    # form 2 / 4; content 1 / 4 (form-invalid citations count as content-invalid)
    assert g.citation_validity_form == 0.5
    assert g.citation_validity_content == 0.25


def test_citation_content_needs_half_the_terms_of_one_claim() -> None:
    # claim terms: employee, receive, laptop, replacement (4); the cited laptop chunk has
    # laptop only (1 / 4 < 0.5), then laptop and employee (2 / 4 = 0.5)
    answer = "Employees receive laptop replacements."
    cite = [{"chunk_id": "c0"}]
    assert ground(answer, ["Laptops are cheap."], citations=cite).citation_validity_content == 0.0
    both = ["Laptops for employees are cheap."]
    assert ground(answer, both, citations=cite).citation_validity_content == 1.0


def test_citations_without_claims_are_not_content_valid() -> None:
    g = ground("Yes.", TWO_DOCS, citations=[{"chunk_id": "c0"}])
    assert (g.citation_validity_form, g.citation_validity_content) == (1.0, 0.0)


# --------------------------------------------------------------------------------- labels

# 003's example fixture
FIXTURE = Labels(
    expected_claims=["15 days paid vacation", "accrues monthly"],
    forbidden_claims=["unlimited vacation", "30 days"],
)


def labelled(answer: str, labels: Labels = FIXTURE) -> tuple[float | None, int | None]:
    g = ground(answer, labels=labels)
    return g.expected_claims_recall, g.forbidden_claims_found


def test_fixture_good_answer() -> None:
    # "15 days paid vacation": items day, paid, vacation, 15 all in the answer;
    # "accrues monthly": accrue, monthly in it; no forbidden claim
    answer = "Employees receive 15 days of paid vacation per year, and vacation accrues monthly."
    assert labelled(answer) == (1.0, 0)


def test_fixture_bad_answer() -> None:
    # expected: 2 / 4 items (day, vacation) = 0.5 < 0.7, and 0 / 2: recall 0
    # forbidden: "unlimited vacation" has both terms in the answer, "30 days" occurs as a
    # phrase: 2
    assert labelled("Vacation is unlimited, take 30 days.") == (0.0, 2)


def test_expected_claim_at_the_threshold() -> None:
    # items day, paid, vacation, 15; "paid" missing: 3 / 4 = 0.75 >= 0.7
    assert labelled("You get 15 days of vacation.")[0] == 0.5  # (1 + 0) / 2
    # and with a wrong number: day, paid, vacation of 4 items = 0.75 still
    assert labelled("You get 30 days of paid vacation.")[0] == 0.5
    # 2 / 4 = 0.5 < 0.7
    assert labelled("You get 30 days of vacation.")[0] == 0.0


def test_forbidden_claim_needs_every_number() -> None:
    # "30 days": term day present, number 30 absent
    assert labelled("You get 15 days.")[1] == 0
    # phrase match ignores case and punctuation
    assert labelled("Up to 30 DAYS!")[1] == 1
    # number normalised: "1,000 dollars" vs "1000 dollars"
    labels = Labels(forbidden_claims=["1,000 dollars bonus"])
    assert labelled("A bonus of 1000 dollars.", labels)[1] == 1


def test_labels_none_cases() -> None:
    assert labelled("Employees receive 15 days.", Labels()) == (None, None)
    assert ground("Employees receive 15 days.").expected_claims_recall is None
    only_expected = Labels(expected_claims=["15 days"])
    assert labelled("Employees receive 15 days.", only_expected) == (1.0, None)


# ------------------------------------------------------------------------- the section


def test_results_validate() -> None:
    answer = "Employees receive 30 days [1]. Managers approve flights."
    g = ground(answer, citations=[{"chunk_id": "c0"}], labels=FIXTURE)
    assert Grounding.model_validate(g.model_dump()) == g


def test_no_text_is_copied_out() -> None:
    secret = "Alice's password is hunter22."
    g = ground(secret, "Nothing here.", labels=FIXTURE)
    assert "hunter" not in orjson.dumps(g.model_dump()).decode()


def test_inputs_not_mutated_and_deterministic() -> None:
    cs = [Chunk(chunk_id="c0", document_id="d0", content=HR)]
    response = Response(
        text="Employees receive 20 days [1]. Vacation may accrue monthly.",
        citations=[Citation(chunk_id="c0")],
    )
    before = (response.model_dump(), [c.model_dump() for c in cs], FIXTURE.model_dump())
    first = score_grounding(response, cs, HR, FIXTURE)
    grounding.clear_caches()
    second = score_grounding(response, cs, HR, FIXTURE)  # cold memo
    third = score_grounding(response, cs, HR, FIXTURE)  # warm memo
    assert first == second == third
    assert (response.model_dump(), [c.model_dump() for c in cs], FIXTURE.model_dump()) == before


def test_explicit_context_and_joined_chunks_agree() -> None:
    # the context given as one text or as the chunks' join scores alike
    cs = [Chunk(chunk_id="c0", content="Vacation x1 x2"), Chunk(chunk_id="c1", content="15 y")]
    response = Response(text="Vacation is 15 days.")
    joined = score_grounding(response, cs, "Vacation x1 x2\n\n15 y", None)
    alone = score_grounding(response, [], "Vacation x1 x2\n\n15 y", None)
    assert joined == alone
    assert joined is not None and joined.numeric_fabrications == []


def test_unicode_offsets() -> None:
    # "İ" lower-cases to two characters; spans must still index the original text
    answer = "İstanbul office hires 99 engineers."
    g = ground(answer, "Unrelated.")
    assert [answer[s.start : s.end] for s in g.numeric_fabrications] == ["99"]
    [claim] = g.unsupported_claims
    assert answer[claim.start : claim.end] == "İstanbul office hires 99 engineers"


def test_generator_events() -> None:
    traffic = TrafficGenerator(seed=3)
    for _ in range(300):
        event = decode_event(orjson.dumps(traffic.event()))
        g = score_grounding(
            event.response, event.chunks, event.effective_context().text, event.labels
        )
        if event.response is None or not event.response.text.strip():
            assert g is None
            continue
        assert g is not None
        assert Grounding.model_validate(g.model_dump()) == g
        n = len(event.response.text)
        for span in spans(g):
            assert 0 <= span[0] < span[1] <= n


TEXT = st.lists(
    st.sampled_from([*"ab 15%,.;:?!-[]()\n$İ", "vacation ", "may ", "days ", "I ", "1. "]),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(answer=TEXT, context=TEXT)
def test_arbitrary_text(answer: str, context: str) -> None:
    g = score_grounding(
        Response(text=answer, citations=[Citation(chunk_id="c0")]),
        [Chunk(chunk_id="c0", content=context)],
        context,
        Labels(expected_claims=[context], forbidden_claims=[answer]),
    )
    if not answer.strip():
        assert g is None
        return
    assert g is not None
    for span in spans(g):
        assert 0 <= span[0] < span[1] <= len(answer)
    for value in (g.claim_support_rate, g.citation_validity_form, g.citation_validity_content):
        assert value is None or 0.0 <= value <= 1.0
    assert len(g.unsupported_claims) <= g.claims


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_counted_number_keys_match_located_ones(text: str) -> None:
    words = text.replace("a", "per ").replace("b", "cent ").replace("$", "pct ")
    located = grounding.TextAnalysis(words)
    counted = grounding.TextAnalysis(words)
    assert counted.number_keys() == located.numbers.keys() | located.spelled.keys()


# ------------------------------------------------------------------------------ big inputs

MB = 1_000_000


def timed(answer: str, contents: Sequence[str]) -> tuple[float, Grounding | None]:
    cs = [Chunk(chunk_id=f"c{i}", document_id=f"d{i}", content=c) for i, c in enumerate(contents)]
    labels = Labels(expected_claims=["term1 term2"], forbidden_claims=["1 day"])
    response = Response(text=answer, citations=[Citation(document_id="d0")])
    grounding.clear_caches()
    start = time.perf_counter()
    g = score_grounding(response, cs, "\n\n".join(contents), labels)
    return time.perf_counter() - start, g


def test_one_megabyte_sentence() -> None:
    answer = " ".join(f"term{i % 5000}" for i in range(MB // 9))[:MB] + "."
    elapsed, g = timed(answer, [answer[:5000]])
    assert elapsed < 1.0
    assert g is not None and g.claims == 1


def test_one_megabyte_of_digits() -> None:
    answer = "1," * (MB // 2) + "1"
    elapsed, g = timed(answer, ["1"])
    assert elapsed < 1.0
    # one token, one (500,001-digit) number that the context lacks
    assert g is not None
    assert [(s.start, s.end) for s in g.numeric_fabrications] == [(0, len(answer))]


def test_two_hundred_chunks_of_five_kilobytes() -> None:
    contents = [" ".join(f"w{(i * 7 + j) % 997}" for j in range(1200))[:5000] for i in range(200)]
    elapsed, g = timed("Words w1 w2 w3 are 15 words [1].", contents)
    assert elapsed < 1.0
    assert g is not None and g.citation_validity_form == 1.0


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("1 " * (MB // 2), "1 day"),  # half a million numbers
        ("." * MB + "x", "x"),
        ("[" * MB, "x"),
        ("(source:" * (MB // 8), "x"),
        ("1%" * (MB // 2), "1 percent"),
        ("1. \n" * (MB // 4), "x"),
        ("1-" * (MB // 2) + "1", "1"),
        ("Employees get vacation days. " * (MB // 29), "Employees get vacation days."),
        ("Employees get 1 vacation day.", "1 " * (MB // 2)),
        ("According to " * (MB // 13), "x"),
    ],
    ids=[
        "numbers",
        "dots",
        "brackets",
        "sources",
        "percents",
        "enumerators",
        "hyphens",
        "sentences",
        "numeric-context",
        "attributions",
    ],
)
def test_adversarial_megabyte(answer: str, context: str) -> None:
    elapsed, _ = timed(answer, [context])
    assert elapsed < 2.5  # backtracking would take minutes; 1 s failed under load on a slow day


# ------------------------------------------------------------------------------ term memo


def test_the_term_memo_gives_the_function_of_every_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Known and new tokens, a token too long to keep and a table that fills up: the same
    list as the function applied token by token, and each new token computed once."""
    from monitor.scoring.grounding import terms

    calls: list[str] = []

    def fn(token: str) -> str:
        calls.append(token)
        return token.upper()

    monkeypatch.setattr(terms, "_MEMO_SIZE", 6)
    memo = terms.TokenMemo(fn)
    long = "x" * (terms._MEMO_TOKEN_CHARS + 1)
    for tokens in (["a", "b", "a"], ["b", "c", long, "c"], ["a", long], ["d", "e", "f", "g"]):
        assert memo.map(tokens) == [t.upper() for t in tokens]
    assert calls.count("c") == 1 and calls.count("a") == 1  # "a" kept until the table filled
    assert calls.count(long) == 2  # never kept
    assert len(memo._table) <= 6
