"""Abstention: the explicit field first, else the answer's opening (spec 004 section 8)."""

from __future__ import annotations

import pytest

from monitor.events import Response
from monitor.scoring.abstention import abstained, abstained_from_text

ABSTAINS = [
    "I couldn't find any information about the parking policy in the documents.",
    "I’m sorry, but I can’t answer that based on the provided context.",
    "Sorry. I was unable to locate a policy on pet insurance.",
    "Unfortunately, the provided documents do not mention the 2019 bonus scheme.",
    "There is no information about relocation bonuses in the knowledge base.",
    "I don't know.",
    "I do not have enough information to answer this question.",
    "No relevant information was found for your question.",
    "The context doesn't specify a deadline for that form.",
    "That topic is not covered in the provided documents.",
    "I must decline to answer questions about other employees' salaries.",
]
ANSWERS = [
    "Employees get 15 days of paid vacation per year.",
    "Employees get 15 days. I could not find the carry-over rule.",
    "You can't carry over more than 5 days into the next year.",
    "The VPN does not support split tunnelling; connect before opening the intranet.",
    "No receipts are needed for expenses under $25.",
    "There is no limit on the number of sick days, but a note is needed after 3 days.",
    "I recommend submitting the form before Friday.",
    "Unfortunately, flights above $1,000 need director approval.",
]


@pytest.mark.parametrize("text", ABSTAINS)
def test_refusal_and_no_support_phrasing_abstains(text: str) -> None:
    assert abstained_from_text(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_with_negations_do_not_abstain(text: str) -> None:
    assert not abstained_from_text(text)


def test_explicit_field_wins_over_text() -> None:
    assert abstained(Response(text="I don't know.", abstained=False)) is False
    assert abstained(Response(text="15 days.", abstained=True)) is True
    assert abstained(Response(text="I don't know.")) is True
    assert abstained(Response(text="   ")) is None
    assert abstained(None) is None


def test_one_megabyte_of_text_is_fast() -> None:
    import time

    text = "i " * 500_000
    started = time.perf_counter()
    abstained_from_text(text)
    abstained_from_text("no information " * 70_000)
    # a guard against catastrophic backtracking (quadratic: minutes), not a speed target
    # (that is `make bench`): a loaded 2-core CI machine took 0.57 s once
    assert time.perf_counter() - started < 5.0
