"""Spec 003 C groundedness of the answer: claim support, numeric fabrication, two-stage
citation validity, expected and forbidden claims.

Nothing is copied out of the event: claims and fabricated numbers are ``[start, end)``
character offsets into ``response.text``.

**Words.** Tokens are :func:`monitor.scoring.tokens.tokenize`'s (lower-cased), with every
``%`` read as the word ``percent``. A *term* is a content term as in
:mod:`monitor.scoring.tokens` (three or more characters, not a stop word, plural-stemmed)
of a token that does not start with a digit. A token that starts with a digit and has at
most 3 hyphens is split at them (``15-day``, ``10-15``): its numeric parts are numbers, and
its last non-numeric part is its term (``day``); with more hyphens (``1-800-555-0100-2``)
it is one token and, as it is not a number, neither number nor term.

**Numbers.** :func:`number_key` normalises a numeric token part: grouping commas are
dropped (``1,000`` = ``1000``; a comma is never a decimal mark), leading zeros and a
fraction's trailing zeros are dropped (``3.50`` = ``3.5``, ``2.0`` = ``2``), an ordinal
suffix is dropped (``15th`` = ``15``); a part with several dots (``1.2.3``) is kept as
written. A currency sign is not part of a token (``$1,200`` = ``1200``). A number whose
next token is ``percent`` (so also a ``%`` before the next word), ``pct`` or ``per cent``
is a percentage with key ``15%``: ``15%`` = ``15 %`` = ``15 percent`` = ``15 per cent``,
but ``15%`` is not ``15``. In haystacks (the context, chunks, the answer when labels are
matched) the words ``one`` ... ``twenty`` also count as 1 ... 20; in the answer they stay
words and are never checked (``one of the benefits`` is no fabrication). Years (``2024``)
and ordinals are checked like any number; a line-start enumerator (``1.``, ``2)``) is a
bullet, not a number.

**Sentences.** The answer is split after ``.``, ``!``, ``?`` or ``;`` followed by white
space or the end (closing quotes and brackets may come between), and at every newline, so
bullet lines are sentences of their own. Not read: citation markers (``[1]``, ``[doc-7]``,
``(source: ...)``, ``(see: ...)``), line-start enumerators, and a sentence's leading
attribution ``According to X:`` / ``Based on X,`` / ``As stated in X:`` (it names a
source and claims nothing about the topic). At most ``MAX_SENTENCES`` = 2000 sentences and
``MAX_NUMBERS`` = 1000 numbers of an answer are examined (bounding time and output); the
rest is not analysed.

**Claims.** A sentence is a claim unless it is a question (ends in ``?``), speaks of the
assistant (first word ``I``, ``I'm``, ``I've``, ``I'd``, ``I'll`` or ``Sorry``: abstentions
and refusals such as "I could not find ..." say nothing about the sources), or has fewer
than ``MIN_CLAIM_TERMS`` = 2 distinct terms, not counting the one-word type indicators
below nor ``percent``, ``pct``, ``per``, ``cent``, and is no short answer. A *short
answer* states an answer in at most ``claims.MAX_SHORT_ANSWER_WORDS`` = 8 words and does
not end with ``:`` (a lead-in or heading): it has a number read above (``2 [1].``, ``In
1858.``), or it is one term that is not a conversational word
(``claims.NOT_SHORT_ANSWERS``: not ``Yes.``, ``Thanks!``) with only articles and
prepositions around it (``claims.FRAGMENT_WORDS``: ``Bernadette.``, ``In Lourdes.``; not
the clause ``It is good.``). It is checked like any other claim: its
terms against the context, its numbers as numeric fabrications. A claim's span runs from
its first to its last read token. Type (003): ``general`` if it contains generally,
typically, usually, commonly, often, "in general" or "as a rule"; else ``inference`` if
it contains may, might, could, possibly, perhaps, likely, probably, suggests or appears;
else ``assertion`` (is, must, will, ...). Verification against the terms of the context
(``context_text``: the chunks joined when the event had no context):

- an assertion is supported when at least ``ASSERTION_SUPPORT`` = 0.7 of its distinct terms
  are context terms and none of its numbers is a numeric fabrication;
- an inference is supported when at least ``INFERENCE_SUPPORT`` = 0.5 of its terms are;
- a general claim is not verified: never unsupported, not in the rate.

``claims`` counts all claims, general ones included; ``claim_support_rate`` = supported /
(assertions + inferences), None when there are none; ``unsupported_claims`` gives the span
and type of each assertion or inference that is not supported.

**Numeric fabrication.** Every number of the answer read above is checked, in a claim or
not. Its *anchors* are the terms of the tokens within ``NEAR`` = 6 tokens of it in its
sentence (either side, its own token included, so ``day`` of ``15-day``). It is fabricated
when its key occurs nowhere in the context, or occurs only where none of its anchors is
within ``NEAR`` context tokens (003's "15 days": the context's 15 must stand near ``day``,
or near another word around the 15 in the answer, such as ``vacation``). A number without
anchors only has to occur. Context windows run over the context's tokens in order, across
sentence and chunk boundaries. ``numeric_fabrications`` are the spans of the numeric parts
(``15`` of ``15%``, ``1,200`` of ``$1,200``).

**Citations** (both None without citations):

- ``citation_validity_form``: the fraction of citations that point at a retrieved chunk:
  with a ``chunk_id``, a retrieved chunk has it and, when both name a document, the same
  ``document_id`` (a chunk id paired with another document is invalid); without one, a
  retrieved chunk has its ``document_id``. A citation with neither is invalid.
- ``citation_validity_content``: the fraction of citations that are form-valid *and* whose
  cited text (the chunk with that id, else each retrieved chunk of that document) contains
  at least ``CITATION_CONTENT`` = 0.5 of the items of at least one claim (any type): its
  terms and the keys of its numbers (so ``2 [1].`` needs a 2 in the cited chunk). The
  denominator is every citation: a form-invalid citation counts as content-invalid, so
  content <= form; an answer without claims has no content-valid citation.

**Labels.** A label wording's *items* are its terms and its numbers written in digits (its
spelled-out numbers stay words). The answer's are those of the sentences read above
(markers, bullets and attributions left out), ``one`` ... ``twenty`` counting as numbers.

- ``expected_claims_recall`` (None without ``expected_claims``): the fraction of expected
  claims that occur in the answer as a phrase (the same token sequence, so case,
  punctuation and spacing do not matter) or of whose items at least ``EXPECTED_RECALL`` =
  0.7 are the answer's.
- ``forbidden_claims_found`` (None without ``forbidden_claims``): how many forbidden claims
  occur as a phrase, or have every item (all terms, all numbers) in the answer. A negated
  mention ("vacation is not unlimited") counts too.

**Speed.** The analysis of a text (:class:`TextAnalysis`: tokens, terms, numbers) is
memoised for texts up to 16 KB, 1 M characters in all, and so is each token's term: the
chunks are analysed once for both context quality and grounding, and a chunk retrieved
again later costs a dictionary look-up. Results are the same with or without the memo.

**Modules.** :mod:`.sentences` (sentence ends, ignored spans, token offsets),
:mod:`.claims` (claim types and thresholds), :mod:`.numbers` (number keys, percentages),
:mod:`.terms` (the memoised term of a token), :mod:`.analysis` (:class:`TextAnalysis`, the
text memo), :mod:`.context` (context terms and number windows), :mod:`.citations`,
:mod:`.labels`; :func:`score_grounding` here reads the sentences and puts them together.

>>> from monitor.events import Chunk, Citation, Response
>>> chunks = [Chunk(chunk_id="hr-1", document_id="hr",
...                 content="Full-time employees receive 15 days of paid vacation per year.")]
>>> answer = Response(text="Employees receive 15 days of paid vacation [1]. "
...                        "Unused days are typically carried over. They get 30 sick days.",
...                   citations=[Citation(document_id="hr", chunk_id="hr-1")])
>>> g = score_grounding(answer, chunks, chunks[0].content, None)
>>> g.claims, g.claim_support_rate
(3, 0.5)
>>> [(c.start, c.end, c.type) for c in g.unsupported_claims]
[(88, 109, 'assertion')]
>>> answer.text[88:109]
'They get 30 sick days'
>>> [answer.text[s.start:s.end] for s in g.numeric_fabrications]
['30']
>>> g.citation_validity_form, g.citation_validity_content
(1.0, 1.0)

The first claim's terms employee, receive, day, paid, vacation are all in the context and
its 15 stands near ``day`` there; the second is general (``typically``); the third (terms
get, sick, day: ``they`` is a stop word) has 1 of 3 terms in the context, under 0.7, and a
30 the context lacks. 2 assertions, 1 supported: rate 0.5.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from monitor.events.construct import construct
from monitor.events.rag_event import Chunk, Labels, Response
from monitor.events.scored_event import ClaimSpan, Grounding, Span
from monitor.scoring.grounding.analysis import TextAnalysis, analyse, clear_caches
from monitor.scoring.grounding.citations import CITATION_CONTENT, citation_validity
from monitor.scoring.grounding.claims import (
    ABOUT_ASSISTANT,
    ASSERTION_SUPPORT,
    GENERAL_WORDS,
    INFERENCE_SUPPORT,
    INFERENCE_WORDS,
    MIN_CLAIM_TERMS,
    NOT_CLAIM_TERMS,
    about_assistant,
    claim_type,
    number_item,
    short_answer,
)
from monitor.scoring.grounding.context import NEAR, ContextAnalysis
from monitor.scoring.grounding.labels import EXPECTED_RECALL, label_scores
from monitor.scoring.grounding.numbers import (
    DIGITS,
    PERCENT_WORDS,
    SPELLED_NUMBERS,
    digit_parts,
    number_key,
    percent_after,
    with_percent_words,
)
from monitor.scoring.grounding.sentences import (
    ATTRIBUTION,
    SENTENCE_END,
    blank_ignored,
    token_offsets,
)
from monitor.scoring.grounding.terms import terms_of
from monitor.scoring.tokens import tokenize

__all__ = [
    "ASSERTION_SUPPORT",
    "CITATION_CONTENT",
    "EXPECTED_RECALL",
    "GENERAL_WORDS",
    "INFERENCE_SUPPORT",
    "INFERENCE_WORDS",
    "MAX_NUMBERS",
    "MAX_SENTENCES",
    "MIN_CLAIM_TERMS",
    "NEAR",
    "SPELLED_NUMBERS",
    "TextAnalysis",
    "analyse",
    "clear_caches",
    "number_key",
    "score_grounding",
]

#: sentences of an answer examined, and numbers checked; the rest is not analysed
MAX_SENTENCES = 2_000
MAX_NUMBERS = 1_000
_ASCII_DIGIT = re.compile(r"[0-9]")


def score_grounding(
    response: Response | None,
    chunks: Sequence[Chunk],
    context_text: str,
    labels: Labels | None,
) -> Grounding | None:
    """Spec 003 C for one event; None without a response or with a blank answer."""
    if response is None:
        return None
    text = response.text
    if not text or text.isspace():
        return None

    blanked = blank_ignored(text)
    ctx = ContextAnalysis(context_text, chunks)
    claims = 0
    verified = 0
    supported = 0
    unsupported: list[ClaimSpan] = []
    fabrications: list[Span] = []
    claim_terms: list[set[str]] = []
    numbers_left = MAX_NUMBERS
    wants_labels = labels is not None and bool(labels.expected_claims or labels.forbidden_claims)
    answer_words: list[str] | None = [] if wants_labels else None
    boundaries = SENTENCE_END.finditer(blanked)
    start = 0
    for _ in range(MAX_SENTENCES):
        a = start
        m = next(boundaries, None)
        if m is None:
            if a >= len(blanked):
                break
            end, terminator = len(blanked), ""
        else:
            end, terminator = m.end(), blanked[m.start()]
        start = end
        lead = ATTRIBUTION.match(blanked, a, end)
        if lead is not None:
            a = lead.end()
        sub = blanked[a:end]
        words = tokenize(with_percent_words(sub))
        if not words:
            continue
        if answer_words is not None:
            answer_words += words
        offsets: list[tuple[int, int]] | None = None
        term_list = terms_of(words)

        fabricated_here = False
        numbers_here: list[str] = []
        if numbers_left > 0 and _ASCII_DIGIT.search(sub) is not None:
            for p, t in enumerate(words):
                if t[0] not in DIGITS:
                    continue
                parts = digit_parts(t)
                if not parts:
                    continue
                if len(parts) > numbers_left:
                    parts = parts[:numbers_left]
                    if not parts:
                        break
                numbers_left -= len(parts)
                last = len(parts) - 1
                percent = parts[last][2] == len(t) and percent_after(words, p)
                anchors = set(term_list[max(0, p - NEAR) : p + NEAR + 1])
                anchors.discard("")
                anchors -= PERCENT_WORDS
                for j, (key, s, e) in enumerate(parts):
                    key = key + "%" if percent and j == last else key
                    numbers_here.append(key)
                    if not ctx.supports_number(key, anchors):
                        fabricated_here = True
                        if offsets is None:
                            offsets = token_offsets(sub, a)
                        tok_start = offsets[p][0]
                        fabrications.append(construct(Span, start=tok_start + s, end=tok_start + e))

        if terminator == "?" or (words[0] in ABOUT_ASSISTANT and about_assistant(sub, words[0])):
            continue
        terms = set(term_list)
        terms.discard("")
        terms -= NOT_CLAIM_TERMS
        if len(terms) < MIN_CLAIM_TERMS and (
            sub.rstrip().endswith(":")
            or not short_answer(terms, len(numbers_here), words, term_list)
        ):
            continue
        claims += 1
        claim_terms.append(terms | {number_item(key) for key in numbers_here})
        kind = claim_type(words)
        if kind == "general":
            continue
        verified += 1
        found = len(terms & ctx.terms)
        if kind == "assertion":
            ok = found >= ASSERTION_SUPPORT * len(terms) and not fabricated_here
        else:
            ok = found >= INFERENCE_SUPPORT * len(terms)
        if ok:
            supported += 1
        else:
            if offsets is None:
                offsets = token_offsets(sub, a)
            unsupported.append(
                construct(ClaimSpan, start=offsets[0][0], end=offsets[-1][1], type=kind)
            )

    form: float | None = None
    content: float | None = None
    if response.citations:
        form, content = citation_validity(response.citations, chunks, claim_terms)

    recall: float | None = None
    forbidden: int | None = None
    if labels is not None and answer_words is not None:
        recall, forbidden = label_scores(labels, TextAnalysis.of_hay(answer_words))

    return construct(
        Grounding,
        claims=claims,
        claim_support_rate=supported / verified if verified else None,
        unsupported_claims=unsupported,
        numeric_fabrications=fabrications,
        citation_validity_form=form,
        citation_validity_content=content,
        expected_claims_recall=recall,
        forbidden_claims_found=forbidden,
    )
