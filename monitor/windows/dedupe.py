"""Counting a redelivered event once: the event ids already seen, per pane of event time.

Ids are kept as 63-bit hashes (blake2b) for the panes that can still receive events;
:meth:`SeenEvents.forget_before` drops older panes, so memory is bounded by the event
rate times the open horizon (window length plus allowed lateness).

The hashes of every batch travel in its partial (``Partial.seen``), and every worker's
aggregating stage adds the ones it reads with :meth:`SeenEvents.add_digests`, so a
partition that moves to another worker keeps its memory of the ids it has seen.

>>> seen = SeenEvents()
>>> seen.add("e1", 0), seen.add("e1", 0), seen.add("e2", 0)
(True, False, True)
>>> seen.forget_before(60_000); seen.add("e1", 0)
True
>>> other = SeenEvents()
>>> other.add_digests(0, [event_digest("e2")]); other.add("e2", 0)
False
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import blake2b

__all__ = ["SeenEvents", "event_digest"]

_MASK_63 = (1 << 63) - 1


def event_digest(event_id: str) -> int:
    """A 63-bit hash of ``event_id`` (fits a signed 64-bit integer in any JSON reader)."""
    return int.from_bytes(blake2b(event_id.encode(), digest_size=8).digest(), "little") & _MASK_63


class SeenEvents:
    def __init__(self) -> None:
        self._by_pane: dict[int, set[int]] = {}

    def add(self, event_id: str, pane_start_ms: int) -> bool:
        """Remember ``event_id``; False when it was already seen in that pane."""
        return self.add_digest(event_digest(event_id), pane_start_ms)

    def add_digest(self, digest: int, pane_start_ms: int) -> bool:
        """Remember one hash; False when it was already seen in that pane."""
        ids = self._by_pane.get(pane_start_ms)
        if ids is None:
            self._by_pane[pane_start_ms] = {digest}
            return True
        if digest in ids:
            return False
        ids.add(digest)
        return True

    def add_digests(self, pane_start_ms: int, digests: Iterable[int]) -> None:
        """Remember hashes seen elsewhere (another worker's partial)."""
        self._by_pane.setdefault(pane_start_ms, set()).update(digests)

    def forget_before(self, pane_start_ms: int) -> None:
        """Drop every pane that starts before ``pane_start_ms``."""
        for start in [s for s in self._by_pane if s < pane_start_ms]:
            del self._by_pane[start]

    def __len__(self) -> int:
        return sum(len(ids) for ids in self._by_pane.values())
