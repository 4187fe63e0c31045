"""``ragmon backtest``'s engine: recorded events through the worker's path, in event time.

The path is the worker's, module for module: :func:`monitor.pipeline.process` (decode and
score; bad input is a dead letter), :class:`~monitor.windows.feed.PartialFeed` (the
batch's partial: panes, change points, dedupe), the partial's JSON round trip (what the
partials topic carries), and :class:`~monitor.decider.Decider` (merge, watermark, close,
decide). Only the broker is missing, so the source is one synthetic partition
(:data:`SOURCE_TOPIC`, partition 0) read in event-time order:

- the event time is not checked against a clock (the events are recorded, so old:
  ``max_event_age_ms`` and ``max_event_ahead_ms`` do not apply, as in ``ragmon score``);
- events are sorted by ``timestamp_ms`` (stable: ties keep the input order); a line that
  has no readable ``timestamp_ms`` (a dead letter) takes the time of the line before it
  in the input (the first known time when it is the first), as it would take the Kafka
  timestamp of its neighbours in the topic; as in the worker, a dead letter is counted
  in ``pipeline.dead_letter`` at that time but never moves the watermark;
- every ``batch_events`` records (default ``batch_max_events``) make one partial, whose
  source range is the records' offsets; merging it moves the watermark to the partition's
  newest event time, as the store's ``_progress`` does for a partition with no backlog;
  windows close when ``end + allowed_lateness_ms <= watermark`` and are decided at once;
- at the end of the input the watermark moves past every window, so all open windows close
  (the worker closes them after ``window_idle_close_s`` of quiet).

Every alert the decisions carry is a notification the worker would produce to the alerts
topic (firing and resolved), in the same order.

>>> from monitor.config import Settings
>>> import orjson
>>> lines = [orjson.dumps({"schema_version": "1", "event_id": f"e{i}",
...     "timestamp_ms": 1_000 * i, "query": {"text": "q"}}) for i in range(30, 0, -1)]
>>> bt = Backtest(Settings(changepoint_metrics=[]))
>>> alerts = list(bt.alerts(lines + [b"not json"]))
>>> [a.rule for a in alerts][:1], {a.status for a in alerts}
(['critical_quality'], {'firing'})
>>> s = bt.summary
>>> s.events, s.scored, sum(s.dead_letters.values()), s.windows_closed["tumbling"]
(31, 30, 1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import orjson

from monitor.alerts.alert import Alert
from monitor.decider import Decider, Decision
from monitor.errors import EventError
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import process
from monitor.windows.feed import PartialFeed
from monitor.windows.partial import Partial, SourceRange

if TYPE_CHECKING:  # pydantic-settings imports asyncio: a pure module only names the type
    from monitor.config import Settings

__all__ = ["SOURCE_TOPIC", "Backtest", "BacktestSummary", "Scorer", "event_time_order"]

SOURCE_TOPIC = "backtest"
"""The synthetic source topic of every partial (one partition, 0)."""


@dataclass(slots=True)
class BacktestSummary:
    """What a backtest read and decided (``ragmon backtest`` prints it on stderr)."""

    events: int = 0
    """Records read (scored events and dead letters)."""
    scored: int = 0
    dead_letters: Counter[str] = field(default_factory=Counter)
    """By reason (``invalid_json``, ``missing_field``, ...)."""
    duplicates: int = 0
    """Events whose ``event_id`` was counted lately (counted once)."""
    windows_closed: Counter[str] = field(default_factory=Counter)
    """By kind: ``tumbling``, ``hopping``."""
    notifications: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """By (rule, severity, status)."""
    first_ms: int | None = None
    last_ms: int | None = None

    def lines(self) -> list[str]:
        """The summary as text lines.

        >>> s = BacktestSummary(events=3, scored=2, first_ms=0, last_ms=7_200_000)
        >>> s.dead_letters["invalid_json"] += 1
        >>> s.notifications[("degradation", "warning", "firing")] += 2
        >>> print("\\n".join(s.lines()))
        events: 3 (scored 2, dead letters 1: invalid_json 1, duplicates 0) over 2.00 h of event time
        windows closed: 0 tumbling, 0 hopping
        notifications: 2 (firing 2, resolved 0)
          degradation  warning  firing 2
        """
        dead = sum(self.dead_letters.values())
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(self.dead_letters.items()))
        span = ""
        if self.first_ms is not None and self.last_ms is not None:
            span = f" over {(self.last_ms - self.first_ms) / 3_600_000:.2f} h of event time"
        by_status = Counter[str]()
        for (_, _, status), n in self.notifications.items():
            by_status[status] += n
        out = [
            f"events: {self.events} (scored {self.scored}, dead letters {dead}"
            + (f": {reasons}" if reasons else "")
            + f", duplicates {self.duplicates}){span}",
            f"windows closed: {self.windows_closed['tumbling']} tumbling, "
            f"{self.windows_closed['hopping']} hopping",
            f"notifications: {sum(self.notifications.values())} "
            f"(firing {by_status['firing']}, resolved {by_status['resolved']})",
        ]
        width = max((len(rule) for rule, _, _ in self.notifications), default=0)
        for (rule, severity, status), n in sorted(self.notifications.items()):
            out.append(f"  {rule:<{width}}  {severity:<8} {status} {n}")
        return out


def _timestamp(line: bytes) -> int | None:
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    ts = data.get("timestamp_ms") if isinstance(data, dict) else None
    return ts if isinstance(ts, int) and not isinstance(ts, bool) else None


def event_time_order(lines: Iterable[bytes]) -> list[tuple[int, bytes]]:
    """``(event time, line)`` sorted by event time (stable); blank lines are skipped, and a
    line without a readable ``timestamp_ms`` takes the time of the line before it.

    >>> event_time_order([b'{"timestamp_ms": 5}', b"oops", b"  ", b'{"timestamp_ms": 2}'])
    [(2, b'{"timestamp_ms": 2}'), (5, b'{"timestamp_ms": 5}'), (5, b'oops')]
    """
    found: list[tuple[int | None, bytes]] = []
    for line in lines:
        body = line.rstrip(b"\r\n")
        if body.strip():
            found.append((_timestamp(body), body))
    first = next((ts for ts, _ in found if ts is not None), 0)
    out: list[tuple[int, bytes]] = []
    last = first
    for ts, body in found:
        last = last if ts is None else ts
        out.append((last, body))
    out.sort(key=lambda item: item[0])
    return out


class Scorer:
    """:func:`monitor.pipeline.process` over a batch of payloads, with the worker's
    settings (no event-time bounds); ``map`` may be replaced to score in parallel."""

    def __init__(self, settings: Settings) -> None:
        self.max_bytes = settings.max_event_bytes
        self.include_query_text = settings.scores_include_query_text
        self.score_scales = settings.score_scales

    def __call__(self, payload: bytes) -> ScoredEvent | EventError:
        return process(
            payload,
            max_bytes=self.max_bytes,
            include_query_text=self.include_query_text,
            score_scales=self.score_scales,
        )

    def map(self, payloads: Sequence[bytes]) -> Sequence[ScoredEvent | EventError]:
        return [self(p) for p in payloads]


class Backtest:
    """One backtest: feed it records, read the decisions (or just the alerts).

    ``batch_events`` records make one partial (default: ``settings.batch_max_events``).
    :meth:`alerts` and :meth:`decisions` sort their input; :meth:`decide_ordered` takes
    ``(event time, payload)`` already in event-time order and streams it (no sort, so no
    need to hold the input in memory).
    """

    def __init__(
        self, settings: Settings, *, batch_events: int | None = None, scorer: Scorer | None = None
    ) -> None:
        self.settings = settings
        self.batch_events = batch_events or settings.batch_max_events
        self.scorer = scorer or Scorer(settings)
        self.feed = PartialFeed(settings)
        self.decider = Decider(settings)
        self.summary = BacktestSummary()
        self._offset = 0

    def alerts(self, lines: Iterable[bytes]) -> Iterator[Alert]:
        """Every notification, in the order the worker would produce them."""
        for decision in self.decisions(lines):
            yield from decision.alerts

    def decisions(self, lines: Iterable[bytes]) -> Iterator[Decision]:
        """Every closed window (tumbling and hopping) with its alerts and A/B results."""
        return self.decide_ordered(event_time_order(lines))

    def decide_ordered(self, records: Iterable[tuple[int, bytes]]) -> Iterator[Decision]:
        """Like :meth:`decisions`, for records already in event-time order; the open
        windows close at the end."""
        batch: list[tuple[int, bytes]] = []
        for record in records:
            batch.append(record)
            if len(batch) >= self.batch_events:
                yield from self._step(batch)
                batch = []
        if batch:
            yield from self._step(batch)
        yield from self.close()

    def close(self) -> Iterator[Decision]:
        """Move the watermark past every window: all open windows close."""
        last = self.summary.last_ms
        if last is None:
            return
        s = self.settings
        longest = max(s.tumbling_window_ms, s.hopping_window_ms)
        self.decider.advance(last + s.allowed_lateness_ms + longest + self.feed.pane_ms)
        yield from self._decided()

    def _step(self, records: list[tuple[int, bytes]]) -> Iterator[Decision]:
        part = self.feed.batch()
        summary = self.summary
        newest: int | None = None
        results = self.scorer.map([payload for _, payload in records])
        for (kafka_ms, _), result in zip(records, results, strict=True):
            if isinstance(result, EventError):  # never moves the partition's event time
                part.add_dead_letter(result.reason, kafka_ms)
            else:
                summary.scored += 1
                part.add(result)
                ts = result.timestamp_ms
                newest = ts if newest is None else max(newest, ts)
            if summary.first_ms is None:
                summary.first_ms = kafka_ms
            summary.last_ms = (
                kafka_ms if summary.last_ms is None else max(summary.last_ms, kafka_ms)
            )
        first = self._offset
        self._offset += len(records)
        source = SourceRange(SOURCE_TOPIC, 0, first, self._offset - 1, newest, self._offset)
        summary.events += len(records)
        summary.dead_letters.update(part.dead_letters)
        summary.duplicates += part.builder.duplicates
        partial = Partial.from_json(part.finish([source]).to_json())  # as the topic carries it
        self.decider.merge(partial)
        yield from self._decided()

    def _decided(self) -> Iterator[Decision]:
        for decision in self.decider.decide():
            self.summary.windows_closed[decision.window.kind] += 1
            for alert in decision.alerts:
                self.summary.notifications[(alert.rule, alert.severity, alert.status)] += 1
            yield decision
