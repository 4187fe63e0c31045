"""Counting a redelivered event once: the event ids already seen, per pane of event time.

Ids are kept as 64-bit hashes (blake2b) for the panes that can still receive events;
:meth:`SeenEvents.forget_before` drops older panes, so memory is bounded by the event
rate times the open horizon (window length plus allowed lateness).

>>> seen = SeenEvents()
>>> seen.add("e1", 0), seen.add("e1", 0), seen.add("e2", 0)
(True, False, True)
>>> seen.forget_before(60_000); seen.add("e1", 0)
True
"""

from __future__ import annotations

from hashlib import blake2b

__all__ = ["SeenEvents"]


class SeenEvents:
    def __init__(self) -> None:
        self._by_pane: dict[int, set[int]] = {}

    def add(self, event_id: str, pane_start_ms: int) -> bool:
        """Remember ``event_id``; False when it was already seen in that pane."""
        digest = int.from_bytes(blake2b(event_id.encode(), digest_size=8).digest(), "little")
        ids = self._by_pane.get(pane_start_ms)
        if ids is None:
            self._by_pane[pane_start_ms] = {digest}
            return True
        if digest in ids:
            return False
        ids.add(digest)
        return True

    def forget_before(self, pane_start_ms: int) -> None:
        """Drop every pane that starts before ``pane_start_ms``."""
        for start in [s for s in self._by_pane if s < pane_start_ms]:
            del self._by_pane[start]

    def __len__(self) -> int:
        return sum(len(ids) for ids in self._by_pane.values())
