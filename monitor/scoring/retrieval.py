"""Retrieval metrics of a labelled event: graded (spec 002, 003 A) and anchor-based (004).

:func:`score_retrieval` returns ``None`` without labels, and ``None`` when the labels
judge no item relevant (no ``relevant_chunks`` or ``relevant_docs`` entry with a grade
> 0) and carry no ``gold_supports``. Otherwise a flat ``{metric id: value}`` map (the
``retrieval`` section of ``ScoredEvent``) with the keys below, ``K = (1, 3, 5, 10)``:
graded metrics are floats in [0, 1], anchor metrics the ints 1 or 0 (or ``None``).

**Graded metrics** (present only when some item is judged relevant):

- ``level``: ``"chunk"`` when ``labels.relevant_chunks`` has a grade > 0; the judged ids
  are then chunk ids and the ranking is ``[c.chunk_id for c in chunks]``. Otherwise
  ``"doc"``: ``labels.relevant_docs`` judges document ids and the ranking is
  ``[c.document_id for c in chunks]`` (several chunks of one document are several ranks).
- A grade is relevant when it is a finite number > 0; grades <= 0 (and NaN, ±inf) are not.
  ``R`` is the set of relevant judged ids, ``|R|`` its size, whether retrieved or not.
- Ranks start at 1. The item at rank ``i`` has ``rel_i`` = its grade when its id is in
  ``R`` and did not occur at an earlier rank, else 0: an id listed twice counts once, at
  its first rank, and its later occurrences still occupy their ranks. A ``None`` id never
  matches. ``hits@k`` = number of ranks ``i <= k`` with ``rel_i > 0``.
- ``precision@k = hits@k / k`` (divided by ``k`` even when fewer than ``k`` items were
  retrieved, as trec_eval does); ``recall@k = hits@k / |R|``;
  ``f1@k = 2 * P * R / (P + R)``, 0 when both are 0.
- ``ndcg@k = DCG@k / IDCG@k`` with ``gain(g) = 2^g - 1`` and ``DCG@k = sum over i <= k of
  gain(rel_i) / log2(i + 1)``; ``IDCG@k`` is the same sum over ALL relevant judged grades
  sorted descending (not only the retrieved ones), truncated at ``k``. Clamped to at most
  1 against rounding; 0 if IDCG underflows to 0 (grades below about 1e-323). Gains are
  computed so that huge grades cannot overflow: above a top grade of 1000 every gain is
  scaled by the same factor, which leaves the ratio unchanged.
- ``mrr = 1 / (rank of the first i with rel_i > 0)``, 0 when there is none.
- ``map = (sum over i with rel_i > 0 of hits@i / i) / |R|`` (trec_eval's average precision:
  unretrieved relevant items contribute 0 through the denominator).
- ``mrr`` and ``map`` use the whole ranking; the @k metrics only the top ``k``.

**Anchor metrics** (spec 004; present only when ``labels.gold_supports`` is non-empty):

- A heading path is normalised by splitting on ``">"``, stripping every part, collapsing
  inner whitespace runs to one space and dropping empty parts (its components; joined by
  ``" > "`` it is the normalised text). A missing or non-string heading has no component.
  Components compare case-sensitively (004 normalises spaces and delimiters, not case).
  Normalised headings are memoised (a bounded LRU cache): the result depends on the
  heading alone, so the scorer stays pure.
- A chunk matches a gold support when ``chunk.metadata["rel_path"] == support.rel_path``
  (exact), the support's heading components are a prefix of the chunk's on whole
  components (gold ``Leave`` matches ``Leave > Vacation`` but not ``Leaves``; an empty gold
  heading matches every heading of the file), and, when the support has non-empty
  snippets, the chunk's content contains at least one of them after both are
  whitespace-normalised (runs of whitespace -> one space, ends stripped) and case-folded.
  Snippets that normalise to ``""`` are ignored.
- ``recall_any@k``: 1 when some chunk in the top ``k`` matches some gold support, else 0.
- ``recall_all@k`` (only when ``labels.required_support_groups`` has a valid group): each
  group is a list of indices into ``gold_supports``; a group is satisfied at ``k`` when one
  of its supports matches a chunk in the top ``k``; 1 when every group is satisfied.
  Malformed entries are ignored: an index that is not an ``int`` (``bool`` included), is
  negative or is out of range is dropped from its group; a group that is not a list (or
  tuple), or has no valid index left, is dropped. Without a valid group the keys are absent.
- ``attribution_hit``: ``None`` without a response, without citations, or when
  ``labels.answerable`` is ``False`` (004 computes it for answerable questions only;
  unknown counts as answerable). Otherwise 1 when some citation resolves to a retrieved
  chunk (at any rank) that matches some gold support, else 0. A citation resolves to the
  retrieved chunks whose ``chunk_id`` equals its ``chunk_id``; when it has no
  ``chunk_id`` or none is retrieved, to the retrieved chunks whose ``document_id`` equals
  its ``document_id``; else to nothing.
- ``scope_miss`` (004 section 4) is not computed: it is defined only under
  ``folder_mode=on``/``on_with_fallback`` and needs the folders the selection kept, which
  the event does not carry (the retrieved chunks show what was retrieved, not what the
  scope excluded).

>>> from monitor.events import Chunk, Labels, Response
>>> chunks = [
...     Chunk(chunk_id="a", document_id="hr", content="Carry over 5 days.",
...           metadata={"rel_path": "hr/leave.md", "heading_path": "Leave>Vacation>Carry-over"}),
...     Chunk(chunk_id="b", document_id="it"),
...     Chunk(chunk_id="c", document_id="hr")]
>>> labels = Labels(relevant_chunks={"c": 3, "a": 1, "z": 2},
...     gold_supports=[{"rel_path": "hr/leave.md", "heading_path": " Leave > Vacation "}])
>>> m = score_retrieval(chunks, Response(citations=[{"document_id": "hr"}]), labels)
>>> m["level"], m["precision@3"], m["recall@3"], m["precision@10"], m["mrr"]
('chunk', 0.6666666666666666, 0.6666666666666666, 0.2, 1.0)
>>> round(m["map"], 4), round(m["ndcg@3"], 4), m["recall_any@1"], m["attribution_hit"]
(0.5556, 0.4791, 1, 1)
>>> "recall_all@1" in m, "scope_miss" in m
(False, False)

By hand: ``R = {c: 3, a: 1, z: 2}``, ``|R| = 3``; ``a`` (grade 1) is at rank 1, ``b`` is
not judged, ``c`` (grade 3) is at rank 3, ``z`` is not retrieved. precision@3 = 2 / 3,
recall@3 = 2 / 3, precision@10 = 2 / 10; mrr = 1 / 1; map = (1/1 + 2/3) / 3 = 0.5556;
DCG@3 = (2^1 - 1) / log2(2) + (2^3 - 1) / log2(4) = 1 + 3.5 = 4.5; IDCG@3 over the
grades 3, 2, 1 = 7 / 1 + 3 / log2(3) + 1 / log2(4) = 7 + 1.8928 + 0.5 = 9.3928;
ndcg@3 = 4.5 / 9.3928 = 0.4791. Chunk ``a``'s heading ``Leave > Vacation > Carry-over``
starts with the gold ``Leave > Vacation`` in the same file, so recall_any@1 = 1, and the
citation of document ``hr`` resolves to chunks ``a`` and ``c``, so attribution_hit = 1.

Without labels, or with nothing judged relevant and no gold support:

>>> score_retrieval(chunks, None, None) is None
True
>>> score_retrieval(chunks, None, Labels(relevant_chunks={"a": 0}, relevant_docs={"x": 0})) is None
True

With gold supports only, only the anchor metrics:

>>> gold_only = Labels(gold_supports=labels.gold_supports)
>>> score_retrieval(chunks, None, gold_only)  # doctest: +NORMALIZE_WHITESPACE
{'recall_any@1': 1, 'recall_any@3': 1, 'recall_any@5': 1, 'recall_any@10': 1,
 'attribution_hit': None}
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from monitor.events.rag_event import Chunk, GoldSupport, Labels, Response

__all__ = [
    "KS",
    "heading_components",
    "normalise_heading",
    "score_retrieval",
]

#: The cut-offs of every @k metric.
KS = (1, 3, 5, 10)
_KMAX = KS[-1]

_PRECISION = tuple(f"precision@{k}" for k in KS)
_RECALL = tuple(f"recall@{k}" for k in KS)
_F1 = tuple(f"f1@{k}" for k in KS)
_NDCG = tuple(f"ndcg@{k}" for k in KS)
_RECALL_ANY = tuple(f"recall_any@{k}" for k in KS)
_RECALL_ALL = tuple(f"recall_all@{k}" for k in KS)

#: ``1 / log2(rank + 1)`` for ranks 1 .. 10.
_DISCOUNT = tuple(1.0 / math.log2(rank + 1) for rank in range(1, _KMAX + 1))
_LN2 = math.log(2.0)
#: Above this top grade the gains are scaled by ``2^-(top - _MAX_EXPONENT)``.
_MAX_EXPONENT = 1000.0


def heading_components(heading: object) -> tuple[str, ...]:
    """The components of a heading path: split on ``>``, each stripped with inner
    whitespace collapsed, empty parts dropped. Not a string: no component.

    >>> heading_components(" Leave>Vacation  >  Carry   over > ")
    ('Leave', 'Vacation', 'Carry over')
    >>> heading_components(None)
    ()
    """
    if not isinstance(heading, str):
        return ()
    return _components(heading)


@functools.lru_cache(maxsize=4096)
def _components(heading: str) -> tuple[str, ...]:
    """:func:`heading_components` of a string, memoised: a corpus has few headings."""
    # Collapsing every whitespace run first leaves at most one space on each side of a
    # ">", so removing those equals stripping every part (the tests check the equivalence).
    parts = " ".join(heading.split()).replace(" >", ">").replace("> ", ">").split(">")
    if "" in parts:
        return tuple(p for p in parts if p)
    return tuple(parts)


def normalise_heading(heading: object) -> str:
    """The normalised heading path text: its components joined by ``" > "``.

    >>> normalise_heading(" Leave>Vacation ")
    'Leave > Vacation'
    """
    return " > ".join(heading_components(heading))


def _normalise_text(text: str) -> str:
    """Case-folded, whitespace runs collapsed to one space, ends stripped."""
    return " ".join(text.casefold().split())


def _relevant(judged: Mapping[str, float]) -> dict[str, float]:
    return {key: grade for key, grade in judged.items() if grade > 0 and grade != math.inf}


def _gain(grade: float, shift: float) -> float:
    """``2^grade - 1``, scaled by ``2^-shift`` (``shift`` > 0 only for huge grades)."""
    if shift:
        return math.pow(2.0, grade - shift) - math.pow(2.0, -shift)
    if grade < 1.0:
        return math.expm1(grade * _LN2)  # exact for tiny grades, where 2^g - 1 rounds to 0
    return math.pow(2.0, grade) - 1.0


def _graded(
    ids: Sequence[str | None], relevant: dict[str, float], out: dict[str, float | int | str | None]
) -> None:
    n_relevant = len(relevant)
    ideal = sorted(relevant.values(), reverse=True)
    top = ideal[0]
    shift = top - _MAX_EXPONENT if top > _MAX_EXPONENT else 0.0
    del ideal[_KMAX:]

    # Popping a relevant id at its first rank gives its later occurrences nothing.
    pop = relevant.pop
    hit_ranks: list[int] = []
    hit_grades: list[float] = []
    ap_sum = 0.0
    for rank, ident in enumerate(ids, 1):
        if ident is not None:
            grade = pop(ident, None)
            if grade is not None:
                hit_ranks.append(rank)
                hit_grades.append(grade)
                ap_sum += len(hit_ranks) / rank

    n_hits = len(hit_ranks)
    n_ideal = len(ideal)
    h = 0
    dcg = 0.0
    i = 0
    idcg = 0.0
    for j, k in enumerate(KS):
        while h < n_hits and hit_ranks[h] <= k:
            dcg += _gain(hit_grades[h], shift) * _DISCOUNT[hit_ranks[h] - 1]
            h += 1
        while i < n_ideal and i < k:
            idcg += _gain(ideal[i], shift) * _DISCOUNT[i]
            i += 1
        precision = h / k
        recall = h / n_relevant
        out[_PRECISION[j]] = precision
        out[_RECALL[j]] = recall
        out[_F1[j]] = 2 * precision * recall / (precision + recall) if h else 0.0
        out[_NDCG[j]] = min(dcg / idcg, 1.0) if idcg > 0 else 0.0
    out["mrr"] = 1.0 / hit_ranks[0] if hit_ranks else 0.0
    out["map"] = ap_sum / n_relevant


def _groups(raw: Sequence[Any], n_supports: int) -> list[int]:
    """Valid groups as bit masks over the gold supports."""
    masks = []
    for group in raw:
        if not isinstance(group, list | tuple):
            continue
        mask = 0
        for index in group:
            if type(index) is int and 0 <= index < n_supports:
                mask |= 1 << index
        if mask:
            masks.append(mask)
    return masks


#: One gold support prepared for matching: its index, heading components, normalised
#: snippets and, for each snippet, its words.
_Support = tuple[int, tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]


def _prepare(supports: Sequence[GoldSupport]) -> dict[str, list[_Support]]:
    """The gold supports by ``rel_path``."""
    by_path: dict[str, list[_Support]] = {}
    for index, support in enumerate(supports):
        snippets: list[tuple[str, tuple[str, ...]]] = []
        for raw in support.snippets:
            snippet = _normalise_text(raw)
            if snippet:
                snippets.append((snippet, tuple(snippet.split(" "))))
        prepared = (index, heading_components(support.heading_path), tuple(snippets))
        same_file = by_path.get(support.rel_path)
        if same_file is None:
            by_path[support.rel_path] = [prepared]
        else:
            same_file.append(prepared)
    return by_path


def _contains(content: str, snippets: tuple[tuple[str, tuple[str, ...]], ...]) -> bool:
    """Whether the normalised ``content`` contains one of the normalised ``snippets``."""
    folded = content.casefold()
    normalised: str | None = None
    for snippet, words in snippets:
        # A match in the merely case-folded text survives whitespace normalisation (a
        # snippet has single inner spaces between non-space characters), and a snippet
        # one of whose words is absent from the text cannot match (normalisation changes
        # whitespace only): both skip the costly normalisation of a long content.
        if snippet in folded:
            return True
        if all(w in folded for w in words):
            if normalised is None:
                normalised = " ".join(folded.split())
            if snippet in normalised:
                return True
    return False


def _mask(chunk: Chunk, by_path: dict[str, list[_Support]]) -> int:
    """The gold supports ``chunk`` matches, as a bit mask over their indices."""
    rel_path = chunk.metadata.get("rel_path")
    candidates = by_path.get(rel_path) if isinstance(rel_path, str) else None
    if not candidates:
        return 0
    mask = 0
    parts = heading_components(chunk.metadata.get("heading_path"))
    for index, gold, snippets in candidates:
        if parts[: len(gold)] == gold and (not snippets or _contains(chunk.content, snippets)):
            mask |= 1 << index
    return mask


def _attribution(
    chunks: Sequence[Chunk],
    masks: list[int],
    by_path: dict[str, list[_Support]],
    response: Response | None,
    labels: Labels,
) -> int | None:
    if response is None or not response.citations or labels.answerable is False:
        return None

    def matches(i: int) -> bool:
        if i < len(masks):
            return masks[i] != 0
        return _mask(chunks[i], by_path) != 0

    for citation in response.citations:
        resolved = False
        if citation.chunk_id is not None:
            for i, chunk in enumerate(chunks):
                if chunk.chunk_id == citation.chunk_id:
                    resolved = True
                    if matches(i):
                        return 1
        if not resolved and citation.document_id is not None:
            for i, chunk in enumerate(chunks):
                if chunk.document_id == citation.document_id and matches(i):
                    return 1
    return 0


def _anchored(
    chunks: Sequence[Chunk],
    response: Response | None,
    labels: Labels,
    out: dict[str, float | int | str | None],
) -> None:
    supports = labels.gold_supports
    by_path = _prepare(supports)
    masks = [_mask(chunk, by_path) for chunk in chunks[:_KMAX]]
    groups = _groups(labels.required_support_groups, len(supports))
    found = 0
    i = 0
    for j, k in enumerate(KS):
        while i < k and i < len(masks):
            found |= masks[i]
            i += 1
        out[_RECALL_ANY[j]] = 1 if found else 0
        if groups:
            satisfied = 1
            for group in groups:
                if not found & group:
                    satisfied = 0
                    break
            out[_RECALL_ALL[j]] = satisfied
    out["attribution_hit"] = _attribution(chunks, masks, by_path, response, labels)


def score_retrieval(
    chunks: Sequence[Chunk], response: Response | None, labels: Labels | None
) -> dict[str, float | int | str | None] | None:
    """The retrieval metrics of one event (see the module docstring), or ``None``."""
    if labels is None:
        return None
    relevant = _relevant(labels.relevant_chunks)
    level = "chunk"
    if not relevant:
        relevant = _relevant(labels.relevant_docs)
        level = "doc"
    if not relevant and not labels.gold_supports:
        return None
    out: dict[str, float | int | str | None] = {}
    if relevant:
        out["level"] = level
        ids = [c.chunk_id for c in chunks] if level == "chunk" else [c.document_id for c in chunks]
        _graded(ids, relevant, out)
    if labels.gold_supports:
        _anchored(chunks, response, labels, out)
    return out
