"""What a closed window publishes, rendered once, and the windows a non-leader holds ready.

Every worker's aggregating stage closes the same windows in the same order (it replays the
same partials topic), but only the leader publishes them. A worker that is not leader keeps
each closed window's :class:`Publication` (its alerts, A/B results and summary, as Kafka
records) in :class:`PendingPublications`, for ``horizon_ms`` of event time; when it becomes
leader it publishes those the previous leader had not published yet, so a change of leader
loses no window (and publishes none twice).

Each record has an ``ident`` that names it across workers (an alert by fingerprint, status
and window; an A/B result by experiment and span; a summary by window), so the new leader
can tell which records of the last window the previous one managed to write.

>>> pending = PendingPublications(horizon_ms=120_000)
>>> for end in (60_000, 120_000, 180_000, 240_000):
...     summary = summary_record("w", "tumbling", end - 60_000, b"{}")
...     pending.add(Publication("tumbling", end - 60_000, end, [], summary))
>>> [p.end_ms for p in pending.take()]
[120000, 180000, 240000]
>>> pending.take()
[]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "PendingPublications",
    "Publication",
    "Record",
    "ab_ident",
    "alert_ident",
    "summary_record",
]


@dataclass(frozen=True, slots=True)
class Record:
    """One message to produce; ``partition`` None lets the key choose it."""

    topic: str
    key: bytes
    value: bytes
    ident: str
    partition: int | None = None
    counts: tuple[str, str, str] | None = None
    """An alert's (type, severity, status), for the alerts counter."""


def summary_record(topic: str, kind: str, start_ms: int, value: bytes) -> Record:
    """The window summary's record, keyed ``kind:start_ms`` on partition 0."""
    name = f"{kind}:{start_ms}"
    return Record(topic, name.encode(), value, f"window:{name}", partition=0)


@dataclass(frozen=True, slots=True)
class Publication:
    """Everything one closed window writes, in order: alerts and A/B results, then the
    summary (written last, so a window whose summary is in the topic is complete)."""

    kind: str
    start_ms: int
    end_ms: int
    results: list[Record]
    summary: Record

    @property
    def records(self) -> list[Record]:
        return [*self.results, self.summary]


class PendingPublications:
    """Closed windows not (known to be) published, oldest first, within ``horizon_ms`` of
    event time of the newest."""

    def __init__(self, horizon_ms: int) -> None:
        self.horizon_ms = horizon_ms
        self._items: deque[Publication] = deque()

    def add(self, publication: Publication) -> None:
        self._items.append(publication)
        oldest = publication.end_ms - self.horizon_ms
        while self._items and self._items[0].end_ms < oldest:
            self._items.popleft()

    def take(self) -> list[Publication]:
        """Every pending publication, which are then forgotten."""
        items = list(self._items)
        self._items.clear()
        return items

    def drain(self) -> Iterator[Publication]:
        """Each pending publication, oldest first; one is forgotten only when the next is
        asked for, so a publication whose writing is cut short stays pending.

        >>> pending = PendingPublications(horizon_ms=10**9)
        >>> for start in (0, 60_000):
        ...     pending.add(Publication("tumbling", start, start + 60_000, [],
        ...                             summary_record("w", "tumbling", start, b"{}")))
        >>> drained = pending.drain()
        >>> next(drained).start_ms, len(pending)
        (0, 2)
        >>> next(drained).start_ms, len(pending)
        (60000, 1)
        """
        while self._items:
            yield self._items[0]
            self._items.popleft()

    def __len__(self) -> int:
        return len(self._items)


def alert_ident(fingerprint: str, status: str, window_start_ms: int) -> str:
    """An alert's name across workers: one per condition, status and window."""
    return f"alert:{fingerprint}:{status}:{window_start_ms}"


def ab_ident(experiment: str, scope: str, start_ms: int, end_ms: int) -> str:
    """An A/B result's name across workers: one per experiment and span."""
    return f"ab:{experiment}:{scope}:{start_ms}:{end_ms}"
