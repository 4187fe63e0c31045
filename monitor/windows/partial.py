"""Partial window aggregates: what one worker saw in one batch.

A worker scores a batch, builds one :class:`Partial` (aggregates per pane of event time,
per capped label set and metric id, plus the change points its detectors found), writes
it to the internal partials topic, and only then commits the batch's offsets. The partial
carries the source offset range it covers in every partition of the batch, so the
aggregating stage can merge partials idempotently (ranges already merged are skipped) and
a restarted worker can resume after the last range already written (DESIGN section 6).

>>> b = PartialBuilder(pane_ms=60_000, labels=LabelCap(20), seen=SeenEvents())
>>> series = ("control", "acme", "bot", "reranker-v2")
>>> b.add_event("e1", 61_000, series, {"quality.overall": 0.5})
True
>>> b.add_event("e1", 61_000, series, {"quality.overall": 0.5})
False
>>> p = b.build([SourceRange("rag.events.v1", 0, 10, 11)])
>>> p.duplicates, p.panes[(60_000, *series)]["quality.overall"].count
(1, 1)
>>> p.seen == {60_000: [event_digest("e1")]}
True
>>> Partial.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from monitor.windows.aggregate import Aggregate
from monitor.windows.bounds import window_start
from monitor.windows.dedupe import SeenEvents, event_digest
from monitor.windows.labels import UNKNOWN, LabelCap
from monitor.windows.metric_ids import DEAD_LETTER

__all__ = ["PaneKey", "Partial", "PartialBuilder", "SeriesLabels", "SourceRange"]

SeriesLabels = tuple[str, str, str, str]
"""(variant, tenant, application, experiment), capped; ``none`` when the event has none."""
PaneKey = tuple[int, str, str, str, str]
"""(pane_start_ms, variant, tenant, application, experiment)."""


@dataclass(frozen=True, slots=True)
class SourceRange:
    """The source records a partial covers: ``[first_offset, last_offset]`` inclusive, the
    largest event time among them (the partition's progress, for the watermark), and the
    partition's high watermark when the batch was fetched (records after ``last_offset``
    not yet scored: a backlog, which holds the watermark however old its events are)."""

    topic: str
    partition: int
    first_offset: int
    last_offset: int
    max_timestamp_ms: int | None = None
    highwater: int | None = None

    @property
    def backlog(self) -> bool:
        """True when the partition had records after this range, not yet scored."""
        return self.highwater is not None and self.highwater > self.last_offset + 1


@dataclass(slots=True)
class Partial:
    sources: tuple[SourceRange, ...]
    panes: dict[PaneKey, dict[str, Aggregate]]
    max_timestamp_ms: int | None = None
    duplicates: int = 0
    change_points: list[dict[str, Any]] = field(default_factory=list)
    seen: dict[int, list[int]] = field(default_factory=dict)
    """pane start -> the hashes of the event ids counted in this partial (for dedupe by
    whichever worker holds the partition next)."""

    def to_json(self) -> bytes:
        return orjson.dumps(
            {
                "kind": "partial",
                "sources": [
                    [
                        s.topic,
                        s.partition,
                        s.first_offset,
                        s.last_offset,
                        s.max_timestamp_ms,
                        s.highwater,
                    ]
                    for s in self.sources
                ],
                "max_timestamp_ms": self.max_timestamp_ms,
                "duplicates": self.duplicates,
                "change_points": self.change_points,
                "seen": [[pane, digests] for pane, digests in self.seen.items()],
                "panes": [
                    [list(key), {m: agg.to_dict() for m, agg in metrics.items()}]
                    for key, metrics in self.panes.items()
                ],
            }
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Partial:
        panes: dict[PaneKey, dict[str, Aggregate]] = {}
        for key, metrics in data["panes"]:
            start, variant, tenant, application, experiment = key
            panes[(int(start), str(variant), str(tenant), str(application), str(experiment))] = {
                m: Aggregate.from_dict(agg) for m, agg in metrics.items()
            }
        return cls(
            sources=tuple(
                SourceRange(
                    str(s[0]),
                    int(s[1]),
                    int(s[2]),
                    int(s[3]),
                    s[4] if len(s) > 4 else None,
                    s[5] if len(s) > 5 else None,
                )
                for s in data["sources"]
            ),
            panes=panes,
            max_timestamp_ms=data["max_timestamp_ms"],
            duplicates=int(data["duplicates"]),
            change_points=list(data["change_points"]),
            seen={int(pane): [int(d) for d in digests] for pane, digests in data.get("seen", [])},
        )

    @classmethod
    def from_json(cls, raw: bytes) -> Partial:
        return cls.from_dict(orjson.loads(raw))


class PartialBuilder:
    """Collects one batch's values column-wise; :meth:`build` aggregates each column once.

    ``labels`` and ``seen`` outlive the batch (one per worker).
    """

    def __init__(self, pane_ms: int, labels: LabelCap, seen: SeenEvents) -> None:
        self.pane_ms = pane_ms
        self.labels = labels
        self.seen = seen
        self.columns: dict[PaneKey, dict[str, list[float]]] = {}
        self.max_timestamp_ms: int | None = None
        self.duplicates = 0
        self.change_points: list[dict[str, Any]] = []
        self.digests: dict[int, list[int]] = {}

    def series(
        self, variant: str | None, tenant: str | None, app: str | None, experiment: str | None
    ) -> SeriesLabels:
        cap = self.labels.value
        return (
            cap("variant", variant),
            cap("tenant", tenant),
            cap("application", app),
            cap("experiment", experiment),
        )

    def add_event(
        self, event_id: str, timestamp_ms: int, series: SeriesLabels, values: dict[str, float]
    ) -> bool:
        """Add one scored event's metric values; False (and nothing added) for a repeat."""
        pane = window_start(timestamp_ms, self.pane_ms)
        digest = event_digest(event_id)
        if not self.seen.add_digest(digest, pane):
            self.duplicates += 1
            return False
        self.digests.setdefault(pane, []).append(digest)
        self._add((pane, *series), values, timestamp_ms)
        return True

    def add_dead_letter(self, timestamp_ms: int) -> None:
        """A message that could not be decoded: counted in ``pipeline.dead_letter`` only,
        at its Kafka timestamp, under the ``unknown`` labels. The broker's clock is not the
        events' clock, so a dead letter does not move the partial's event time."""
        pane = window_start(timestamp_ms, self.pane_ms)
        self._add((pane, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN), {DEAD_LETTER: 1.0}, None)

    def _add(self, key: PaneKey, values: dict[str, float], timestamp_ms: int | None) -> None:
        columns = self.columns.get(key)
        if columns is None:
            columns = self.columns[key] = {}
        for metric, value in values.items():
            column = columns.get(metric)
            if column is None:
                columns[metric] = [value]
            else:
                column.append(value)
        if timestamp_ms is not None and (
            self.max_timestamp_ms is None or timestamp_ms > self.max_timestamp_ms
        ):
            self.max_timestamp_ms = timestamp_ms

    def build(self, sources: Iterable[SourceRange]) -> Partial:
        # every (pane, series, metric) column aggregated in one vectorised pass
        slots = [(key, metric) for key, cols in self.columns.items() for metric in cols]
        columns = [self.columns[key][metric] for key, metric in slots]
        values = np.fromiter(
            (v for column in columns for v in column),
            dtype=np.float64,
            count=sum(map(len, columns)),
        )
        groups = np.repeat(np.arange(len(columns), dtype=np.intp), [len(c) for c in columns])
        panes: dict[PaneKey, dict[str, Aggregate]] = {key: {} for key in self.columns}
        for (key, metric), agg in zip(
            slots, Aggregate.from_groups(values, groups, len(columns)), strict=True
        ):
            panes[key][metric] = agg
        return Partial(
            tuple(sources),
            panes,
            self.max_timestamp_ms,
            self.duplicates,
            self.change_points,
            self.digests,
        )
