"""Claims: which sentences are claims (short answers included), their type (general,
inference, assertion) and the share of their terms the context must hold for each type to
be supported."""

from __future__ import annotations

import re

from monitor.scoring.tokens import stem

__all__ = [
    "ABOUT_ASSISTANT",
    "ASSERTION_SUPPORT",
    "FRAGMENT_WORDS",
    "GENERAL_WORDS",
    "INFERENCE_SUPPORT",
    "INFERENCE_WORDS",
    "MAX_SHORT_ANSWER_WORDS",
    "MIN_CLAIM_TERMS",
    "NOT_CLAIM_TERMS",
    "NOT_SHORT_ANSWERS",
    "about_assistant",
    "claim_type",
    "number_item",
    "short_answer",
]

ASSERTION_SUPPORT = 0.7
INFERENCE_SUPPORT = 0.5
MIN_CLAIM_TERMS = 2
MAX_SHORT_ANSWER_WORDS = 8

GENERAL_WORDS = frozenset({"generally", "typically", "usually", "commonly", "often"})
INFERENCE_WORDS = frozenset(
    {"may", "might", "could", "possibly", "perhaps", "likely", "probably", "suggests", "appears"}
)

#: terms that are type indicators, not content
_INDICATOR_TERMS = frozenset(stem(w) for w in GENERAL_WORDS | INFERENCE_WORDS)
#: first words of a sentence about the assistant itself ("I could not find ...")
ABOUT_ASSISTANT = frozenset(
    {"i", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "i'll", "i’ll", "sorry"}
)
#: not claim terms: type indicators, and the words of "15 percent" / "15 per cent"
NOT_CLAIM_TERMS = _INDICATOR_TERMS | {"percent", "pct", "per", "cent"}
#: one-word sentences that answer nothing the context could hold ("Yes.", "Thanks!")
NOT_SHORT_ANSWERS = frozenset(
    stem(w)
    for w in (
        "yes", "yeah", "yep", "no", "nope", "sure", "certainly", "absolutely", "indeed",
        "okay", "ok", "thanks", "thank", "welcome", "please", "hello", "hi", "hey", "great",
        "done", "correct", "right", "exactly", "note", "summary", "answer", "sources",
        "source", "references", "reference", "citations", "citation", "details", "steps",
    )
)  # fmt: skip
#: the words a one-term fragment may have besides its term ("In Lourdes.", "The 1850s.")
FRAGMENT_WORDS = frozenset(
    {"the", "a", "an", "in", "on", "at", "of", "by", "to", "from", "for", "about", "around",
     "approximately", "roughly", "nearly", "over", "under", "since", "until", "and", "or"}
)  # fmt: skip
_FIRST_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def about_assistant(sub: str, first: str) -> bool:
    """Whether ``sub``'s first word, as written, is ``first`` (``İstanbul`` lower-cases to
    tokens ``i``, ``stanbul``: it is no ``I``)."""
    word = _FIRST_WORD.search(sub)
    return word is not None and word.group().lower() == first


def claim_type(words: list[str]) -> str:
    """``general``, ``inference`` or ``assertion``, from the sentence's words."""
    present = set(words)
    if not present.isdisjoint(GENERAL_WORDS):
        return "general"
    if "general" in present or "rule" in present:
        for i in range(len(words) - 1):
            if words[i] == "in" and words[i + 1] == "general":
                return "general"
            if words[i] == "as" and words[i + 1] == "a" and words[i + 2 : i + 3] == ["rule"]:
                return "general"
    if not present.isdisjoint(INFERENCE_WORDS):
        return "inference"
    return "assertion"


def short_answer(terms: set[str], numbers: int, words: list[str], term_list: list[str]) -> bool:
    """Whether a sentence with fewer than ``MIN_CLAIM_TERMS`` terms still states an answer
    (a claim): it has at most ``MAX_SHORT_ANSWER_WORDS`` words, and a number (``"2 [1]."``,
    ``"In 1858."``), or it is a fragment made of one term that is not a conversational
    word and, around it, only the articles and prepositions of :data:`FRAGMENT_WORDS`
    (``"Bernadette."``, ``"In Lourdes."``; not ``"Yes."``, nor the clause ``"It is
    good."``). ``words`` are the sentence's tokens and ``term_list`` their terms (``""``
    for none).

    >>> short_answer(set(), 1, ["2"], [""]), short_answer({"lourde"}, 0, ["in", "lourdes"],
    ...     ["", "lourde"])
    (True, True)
    >>> short_answer({"thank"}, 0, ["thanks"], ["thank"])
    False
    >>> short_answer({"good"}, 0, ["it", "is", "good"], ["", "", "good"])
    False
    >>> short_answer(set(), 1, ["2"] * 9, [""] * 9)  # no fragment: 9 words
    False
    """
    if len(words) > MAX_SHORT_ANSWER_WORDS:
        return False
    if numbers:
        return True
    if len(terms) != 1 or terms <= NOT_SHORT_ANSWERS:
        return False
    return all(term or word in FRAGMENT_WORDS for word, term in zip(words, term_list, strict=True))


def number_item(key: str) -> str:
    """A number key as an item of a claim, beside its terms (a term never starts with
    ``#``): the citation check wants a claim's numbers in the cited chunk as well."""
    return "#" + key
