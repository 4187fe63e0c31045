"""Spec 000's CRAG routing (Corrective RAG, arXiv:2401.15884), ported exactly.

``correct`` when overall >= 0.7 (confidence = overall, action ``use_retrieved``);
``incorrect`` when overall <= 0.3 (confidence = 1 - overall, action
``supplemental_search`` with a reformulated query); ``ambiguous`` otherwise (confidence =
overall, action ``decompose_and_recompose`` with sub-queries).

>>> classify(0.7).classification, classify(0.3).classification, classify(0.5).classification
('correct', 'incorrect', 'ambiguous')
>>> classify(0.2, "What is the refund policy?").action.search_query
'is the refund policy'
>>> classify(0.5, "What is the refund policy and how do I apply?").action.sub_queries
['What is the refund policy', 'how do I apply?']
"""

from __future__ import annotations

import re

from monitor.events.construct import construct
from monitor.events.scored_event import CragAction, CragResult
from monitor.scoring.jstext import JS_WS, js_length, js_trim

__all__ = [
    "CORRECT_THRESHOLD",
    "INCORRECT_THRESHOLD",
    "classify",
    "decompose_query",
    "reformulate_query",
]

CORRECT_THRESHOLD = 0.7
INCORRECT_THRESHOLD = 0.3

_SPLIT = re.compile(r"\b(and|or|also|additionally)\b", re.IGNORECASE | re.ASCII)
_QUESTION_WORD = re.compile(
    r"\A(what|how|when|where|who|why|is|are|can|do|does)[" + re.escape(JS_WS) + "]+",
    re.IGNORECASE | re.ASCII,
)
_TRAILING_QMARK = re.compile(r"\?\Z")
_USE_RETRIEVED = CragAction(type="use_retrieved")


def decompose_query(query: str) -> list[str]:
    """Split a compound question on and/or/also/additionally (the separators are kept
    by the split, as in JavaScript, and then dropped by the length filter unless longer
    than 10 characters); otherwise three variant phrasings.

    >>> decompose_query("cats and dogs")
    []
    >>> decompose_query("vacation days?")
    ['vacation days?', 'What information exists about: vacation days?', \
'vacation days details and specifics']
    """
    parts = _SPLIT.split(query)
    if len(parts) > 1:
        trimmed = (js_trim(p) for p in parts)
        return [p for p in trimmed if js_length(p) > 10]
    return [
        query,
        f"What information exists about: {query}",
        _TRAILING_QMARK.sub("", query, count=1) + " details and specifics",
    ]


def reformulate_query(query: str) -> str:
    """Drop a leading question word and a trailing question mark.

    >>> reformulate_query("Does   the VPN work abroad?")
    'the VPN work abroad'
    """
    without_word = _QUESTION_WORD.sub("", query, count=1)
    return js_trim(_TRAILING_QMARK.sub("", without_word, count=1))


def classify(overall: float, query: str = "") -> CragResult:
    """Route a retrieval by its composite score ``overall``."""
    if overall >= CORRECT_THRESHOLD:
        return construct(
            CragResult, classification="correct", confidence=overall, action=_USE_RETRIEVED
        )
    if overall <= INCORRECT_THRESHOLD:
        action = construct(
            CragAction,
            type="supplemental_search",
            sub_queries=None,
            search_query=reformulate_query(query),
        )
        return construct(
            CragResult, classification="incorrect", confidence=1 - overall, action=action
        )
    action = construct(
        CragAction,
        type="decompose_and_recompose",
        sub_queries=decompose_query(query),
        search_query=None,
    )
    return construct(CragResult, classification="ambiguous", confidence=overall, action=action)
