"""Citation validity: form (the citation points at a retrieved chunk) and content (the
cited chunk backs a claim: half of its items, terms and ``#``-prefixed number keys)."""

from __future__ import annotations

from collections.abc import Sequence

from monitor.events.rag_event import Chunk, Citation
from monitor.scoring.grounding.analysis import analyse
from monitor.scoring.grounding.claims import number_item

__all__ = ["CITATION_CONTENT", "citation_validity"]

CITATION_CONTENT = 0.5


def citation_validity(
    citations: list[Citation], chunks: Sequence[Chunk], claim_terms: list[set[str]]
) -> tuple[float, float]:
    """``citation_validity_form`` and ``citation_validity_content``; each retrieved chunk is
    checked against the claims at most once."""
    by_chunk: dict[str, int] = {}
    by_doc: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        if c.chunk_id is not None:
            by_chunk.setdefault(c.chunk_id, i)
        if c.document_id is not None:
            by_doc.setdefault(c.document_id, []).append(i)
    backs: dict[int, bool] = {}  # chunk index: contains half the items of some claim
    numbered = any(item.startswith("#") for claim in claim_terms for item in claim)

    def backs_a_claim(i: int) -> bool:
        ok = backs.get(i)
        if ok is None:
            analysis = analyse(chunks[i].content)
            items: frozenset[str] | set[str] = analysis.terms
            if numbered:
                items = analysis.terms | {number_item(key) for key in analysis.number_keys()}
            ok = backs[i] = any(
                len(claim & items) >= CITATION_CONTENT * len(claim) for claim in claim_terms
            )
        return ok

    n_form = 0
    n_content = 0
    for citation in citations:
        if citation.chunk_id is not None:
            index = by_chunk.get(citation.chunk_id)
            if index is None:
                continue
            doc = chunks[index].document_id
            if citation.document_id is not None and doc is not None and doc != citation.document_id:
                continue
            cited = [index]
        elif citation.document_id is not None and citation.document_id in by_doc:
            cited = by_doc[citation.document_id]
        else:
            continue
        n_form += 1
        if any(backs_a_claim(i) for i in cited):
            n_content += 1
    return n_form / len(citations), n_content / len(citations)
