"""Spec 000's CRAG routing (Corrective RAG, arXiv:2401.15884), ported exactly.

``correct`` when overall >= 0.7 (confidence = overall, action ``use_retrieved``);
``incorrect`` when overall <= 0.3 (confidence = 1 - overall, action
``supplemental_search`` with a reformulated query); ``ambiguous`` otherwise (confidence =
overall, action ``decompose_and_recompose`` with sub-queries).

Spec 000's reformulated query and sub-queries are parts of the query, or the query in a
fixed template; the scored event carries them as :class:`QuerySpan` offsets into
``query.text`` (``search_query_span``, ``sub_query_spans``), never the text itself
(DESIGN section 5: nothing secret is copied out). ``include_text=True`` (the worker's
``scores_include_query_text``) adds spec 000's texts too; :func:`query_text` rebuilds one.

>>> classify(0.7).classification, classify(0.3).classification, classify(0.5).classification
('correct', 'incorrect', 'ambiguous')
>>> query = "What is the refund policy?"
>>> span = classify(0.2, query).action.search_query_span
>>> span.start, span.end, query_text(query, span)
(5, 25, 'is the refund policy')
>>> classify(0.2, query).action.search_query is None
True
>>> compound = "What is the refund policy and how do I apply?"
>>> classify(0.5, compound, include_text=True).action.sub_queries
['What is the refund policy', 'how do I apply?']
"""

from __future__ import annotations

import re

from monitor.events.construct import construct
from monitor.events.scored_event import CragAction, CragResult, QuerySpan, QueryTemplate
from monitor.scoring.jstext import JS_WS, js_length

__all__ = [
    "CORRECT_THRESHOLD",
    "INCORRECT_THRESHOLD",
    "classify",
    "decompose_query",
    "decompose_spans",
    "query_text",
    "reformulate_query",
    "reformulate_span",
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
_TEMPLATES: tuple[QueryTemplate, ...] = (
    "{}",
    "What information exists about: {}",
    "{} details and specifics",
)


def _span(start: int, end: int, template: QueryTemplate = "{}") -> QuerySpan:
    return construct(QuerySpan, start=start, end=end, template=template)


def _trimmed(query: str, start: int, end: int) -> tuple[int, int]:
    """``query[start:end].trim()`` as offsets (JavaScript whitespace)."""
    while start < end and query[start] in JS_WS:
        start += 1
    while end > start and query[end - 1] in JS_WS:
        end -= 1
    return start, end


def query_text(query: str, span: QuerySpan) -> str:
    """The text ``span`` stands for in ``query``.

    >>> query_text("vacation days?", _span(0, 13, "{} details and specifics"))
    'vacation days details and specifics'
    """
    return span.template.replace("{}", query[span.start : span.end], 1)


def decompose_spans(query: str) -> list[QuerySpan]:
    """Split a compound question on and/or/also/additionally (the separators are kept
    by the split, as in JavaScript, and then dropped by the length filter unless longer
    than 10 characters); otherwise three variant phrasings of the whole query.

    >>> [(s.start, s.end) for s in decompose_spans("refund policy? and shipping time")]
    [(0, 14), (19, 32)]
    >>> [s.template for s in decompose_spans("vacation days?")][1]
    'What information exists about: {}'
    """
    matches = list(_SPLIT.finditer(query))
    if matches:
        bounds: list[tuple[int, int]] = []
        position = 0
        for match in matches:
            bounds += [(position, match.start()), (match.start(), match.end())]
            position = match.end()
        bounds.append((position, len(query)))
        spans = []
        for start, end in bounds:
            start, end = _trimmed(query, start, end)
            if js_length(query[start:end]) > 10:
                spans.append(_span(start, end))
        return spans
    n = len(query)
    stripped = n - 1 if query.endswith("?") else n
    return [
        _span(0, n, _TEMPLATES[0]),
        _span(0, n, _TEMPLATES[1]),
        _span(0, stripped, _TEMPLATES[2]),
    ]


def reformulate_span(query: str) -> QuerySpan:
    """Drop a leading question word and a trailing question mark, then trim.

    >>> reformulate_span("Does   the VPN work abroad?")
    QuerySpan(start=7, end=26, template='{}')
    """
    word = _QUESTION_WORD.match(query)
    start, end = (word.end() if word else 0), len(query)
    if end > start and query[end - 1] == "?":
        end -= 1
    return _span(*_trimmed(query, start, end))


def decompose_query(query: str) -> list[str]:
    """Spec 000's sub-queries as text (:func:`decompose_spans`).

    >>> decompose_query("cats and dogs")
    []
    >>> decompose_query("vacation days?")
    ['vacation days?', 'What information exists about: vacation days?', \
'vacation days details and specifics']
    """
    return [query_text(query, span) for span in decompose_spans(query)]


def reformulate_query(query: str) -> str:
    """Spec 000's search query as text (:func:`reformulate_span`).

    >>> reformulate_query("Does   the VPN work abroad?")
    'the VPN work abroad'
    """
    return query_text(query, reformulate_span(query))


def classify(overall: float, query: str = "", *, include_text: bool = False) -> CragResult:
    """Route a retrieval by its composite score ``overall``; the action's queries are
    offsets into ``query`` (and texts too with ``include_text``)."""
    if overall >= CORRECT_THRESHOLD:
        return construct(
            CragResult, classification="correct", confidence=overall, action=_USE_RETRIEVED
        )
    if overall <= INCORRECT_THRESHOLD:
        span = reformulate_span(query)
        action = construct(
            CragAction,
            type="supplemental_search",
            sub_query_spans=None,
            search_query_span=span,
            sub_queries=None,
            search_query=query_text(query, span) if include_text else None,
        )
        return construct(
            CragResult, classification="incorrect", confidence=1 - overall, action=action
        )
    spans = decompose_spans(query)
    action = construct(
        CragAction,
        type="decompose_and_recompose",
        sub_query_spans=spans,
        search_query_span=None,
        sub_queries=[query_text(query, s) for s in spans] if include_text else None,
        search_query=None,
    )
    return construct(CragResult, classification="ambiguous", confidence=overall, action=action)
