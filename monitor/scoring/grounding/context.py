"""The context an answer is checked against: its terms, and the terms near each of its
numbers."""

from __future__ import annotations

from collections.abc import Sequence

from monitor.events.rag_event import Chunk
from monitor.scoring.grounding.analysis import analyse

__all__ = ["NEAR", "ContextAnalysis"]

#: tokens either side of a number within which its anchor terms are looked for
NEAR = 6


class ContextAnalysis:
    """The context: the chunks' analyses when it is their join (whose tokens are the chunks'
    tokens one after the other), else its own analysis."""

    __slots__ = ("_near", "_terms", "parts")

    def __init__(self, context_text: str, chunks: Sequence[Chunk]) -> None:
        contents = [c.content for c in chunks]
        if contents and context_text == "\n\n".join(contents):
            self.parts = [analyse(c) for c in contents]
        else:
            self.parts = [analyse(context_text)]
        self._terms: frozenset[str] | None = None
        self._near: dict[str, set[str] | None] = {}

    @property
    def terms(self) -> frozenset[str]:
        if self._terms is None:
            parts = self.parts
            self._terms = parts[0].terms.union(*(p.terms for p in parts[1:]))
        return self._terms

    def _window(self, k: int, first: int, last: int, into: set[str]) -> None:
        """Add the terms from ``NEAR`` tokens before token ``first`` to ``NEAR`` tokens after
        token ``last`` of part ``k`` to ``into``, running on into the neighbouring parts."""
        parts = self.parts
        terms = parts[k].term_list
        into.update(terms[max(0, first - NEAR) : last + NEAR + 1])
        need = NEAR - first  # tokens still wanted before the part
        i = k
        while need > 0 and i > 0:
            i -= 1
            before = parts[i].term_list
            into.update(before[max(0, len(before) - need) :])
            need -= len(before)
        need = last + NEAR + 1 - len(terms)  # tokens still wanted after the part
        i = k
        while need > 0 and i < len(parts) - 1:
            i += 1
            after = parts[i].term_list
            into.update(after[:need])
            need -= len(after)

    def near(self, key: str) -> set[str] | None:
        """The terms within ``NEAR`` tokens of any occurrence of number ``key``, None when
        it does not occur (computed once per key: linear in the context overall)."""
        if key in self._near:
            return self._near[key]
        found: set[str] | None = None
        for k, part in enumerate(self.parts):
            for index in (part.numbers, part.spelled):
                positions = index.get(key)
                if positions is None:
                    continue
                if found is None:
                    found = set()
                # positions ascend: windows that overlap are read as one slice
                first = last = positions[0]
                for p in positions[1:]:
                    if p - last > 2 * NEAR:
                        self._window(k, first, last, found)
                        first = p
                    last = p
                self._window(k, first, last, found)
        self._near[key] = found
        return found

    def supports_number(self, key: str, anchors: set[str]) -> bool:
        """Whether ``key`` occurs with one of ``anchors`` within ``NEAR`` tokens."""
        near = self.near(key)
        return near is not None and (not anchors or not anchors.isdisjoint(near))
