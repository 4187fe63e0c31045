"""Claims: which sentences are claims, their type (general, inference, assertion) and the
share of their terms the context must hold for each type to be supported."""

from __future__ import annotations

import re

from monitor.scoring.tokens import stem

__all__ = [
    "ABOUT_ASSISTANT",
    "ASSERTION_SUPPORT",
    "GENERAL_WORDS",
    "INFERENCE_SUPPORT",
    "INFERENCE_WORDS",
    "MIN_CLAIM_TERMS",
    "NOT_CLAIM_TERMS",
    "about_assistant",
    "claim_type",
]

ASSERTION_SUPPORT = 0.7
INFERENCE_SUPPORT = 0.5
MIN_CLAIM_TERMS = 2

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
