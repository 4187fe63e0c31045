"""Gather the spans of each trace across Kafka messages until the trace is complete. Pure:
the caller passes its clock (``now_ms``) and says where each message came from.

A trace is complete when its root span (no parent) has arrived and no span of it has
arrived for ``grace_ms`` (children often end, and are exported, after their parent in
another batch); or, root or not, ``max_wait_ms`` after its first span. Memory is bounded:
at most ``max_traces`` traces wait (beyond, the oldest is completed at once) with at most
``max_spans_per_trace`` spans each (more are counted and dropped). The ids of the last
``remember_traces`` completed traces are remembered, so a span arriving after its trace
was completed is dropped (counted in ``late_spans``) rather than starting a fragment.

Every message's position (``Source``: topic, partition, offset) is kept with the traces
it fed, so the caller commits a partition only up to the first message that still feeds
a waiting trace (:meth:`TraceAssembler.lowest_pending_offsets`): after a crash those
messages are read again and no trace is lost.

>>> from monitor.events.otel.span import OtelSpan
>>> def span(sid, parent=None):
...     return OtelSpan("ab" * 16, sid, parent, "s", 0, 1)
>>> a = TraceAssembler(grace_ms=100, max_wait_ms=1_000)
>>> a.add([span("c" * 16, "r" * 16)], ("otlp_spans", 0, 7), now_ms=0)
[]
>>> a.due(now_ms=500), a.lowest_pending_offsets()
([], {('otlp_spans', 0): 7})
>>> a.add([span("r" * 16)], ("otlp_spans", 0, 8), now_ms=600)
[]
>>> a.due(now_ms=650)  # the root is there, but the grace period is not over
[]
>>> [(t.trace_id[:4], len(t.spans), t.root_seen, t.why) for t in a.due(now_ms=700)]
[('abab', 2, True, 'complete')]
>>> a.lowest_pending_offsets(), len(a)
({}, 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from monitor.events.otel.span import OtelSpan

__all__ = ["CompletedTrace", "Source", "TraceAssembler"]

Source = tuple[str, int, int]
"""Where a message came from: topic, partition, offset."""

Why = Literal["complete", "max_wait", "evicted", "flushed"]


@dataclass(frozen=True)
class CompletedTrace:
    trace_id: str
    spans: tuple[OtelSpan, ...]
    """In start order (ties: arrival order)."""
    sources: tuple[Source, ...]
    """Every message that held a span of the trace, in (topic, partition, offset) order."""
    root_seen: bool
    why: Why
    """``complete`` (root and grace period), ``max_wait``, ``evicted`` (too many traces
    waiting) or ``flushed``."""
    dropped_spans: int = 0


@dataclass
class _Pending:
    first_seen_ms: int
    last_seen_ms: int
    spans: dict[str, OtelSpan] = field(default_factory=dict)
    sources: set[Source] = field(default_factory=set)
    root_seen: bool = False
    dropped_spans: int = 0


class TraceAssembler:
    """The traces waiting for their spans, oldest first."""

    def __init__(
        self,
        *,
        grace_ms: int = 2_000,
        max_wait_ms: int = 30_000,
        max_traces: int = 10_000,
        max_spans_per_trace: int = 1_000,
        remember_traces: int = 10_000,
    ) -> None:
        if min(max_traces, max_spans_per_trace) < 1 or min(grace_ms, max_wait_ms) < 0:
            raise ValueError("limits must be positive and times non-negative")
        self.grace_ms = grace_ms
        self.max_wait_ms = max_wait_ms
        self.max_traces = max_traces
        self.max_spans_per_trace = max_spans_per_trace
        self._pending: dict[str, _Pending] = {}
        self._done: deque[str] = deque(maxlen=remember_traces)
        self._done_set: set[str] = set()
        self.late_spans = 0
        self.dropped_spans = 0

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, spans: Iterable[OtelSpan], source: Source, now_ms: int) -> list[CompletedTrace]:
        """Take one message's spans; returns the traces evicted to stay within
        ``max_traces`` (usually none)."""
        for span in spans:
            if span.trace_id in self._done_set:
                self.late_spans += 1
                continue
            pending = self._pending.get(span.trace_id)
            if pending is None:
                pending = self._pending[span.trace_id] = _Pending(now_ms, now_ms)
            pending.last_seen_ms = now_ms
            pending.sources.add(source)
            if span.span_id not in pending.spans and len(pending.spans) >= self.max_spans_per_trace:
                pending.dropped_spans += 1
                self.dropped_spans += 1
                continue
            pending.spans[span.span_id] = span  # a span exported twice is kept once
            pending.root_seen = pending.root_seen or span.is_root
        evicted = []
        while len(self._pending) > self.max_traces:
            oldest = next(iter(self._pending))
            evicted.append(self._complete(oldest, "evicted"))
        return evicted

    def due(self, now_ms: int) -> list[CompletedTrace]:
        """The traces complete at ``now_ms``, oldest first; they leave the assembler."""
        ready: list[tuple[str, Why]] = []
        for trace_id, p in self._pending.items():
            if p.root_seen and now_ms - p.last_seen_ms >= self.grace_ms:
                ready.append((trace_id, "complete"))
            elif now_ms - p.first_seen_ms >= self.max_wait_ms:
                ready.append((trace_id, "max_wait"))
        return [self._complete(trace_id, why) for trace_id, why in ready]

    def flush(self) -> list[CompletedTrace]:
        """Every waiting trace, complete or not (``ragmon`` offline tools, tests)."""
        return [self._complete(trace_id, "flushed") for trace_id in list(self._pending)]

    def clear(self) -> None:
        """Forget every waiting trace (their messages will be read again)."""
        self._pending.clear()

    def lowest_pending_offsets(self) -> dict[tuple[str, int], int]:
        """Per (topic, partition), the offset of the first message that feeds a waiting
        trace: the consumer may commit up to it, not past it."""
        lowest: dict[tuple[str, int], int] = {}
        for p in self._pending.values():
            for topic, partition, offset in p.sources:
                key = (topic, partition)
                if offset < lowest.get(key, offset + 1):
                    lowest[key] = offset
        return lowest

    def pending_sources(self) -> set[Source]:
        """Every message that feeds a waiting trace."""
        return {source for p in self._pending.values() for source in p.sources}

    def _complete(self, trace_id: str, why: Why) -> CompletedTrace:
        p = self._pending.pop(trace_id)
        if self._done.maxlen:
            if len(self._done) == self._done.maxlen:
                self._done_set.discard(self._done[0])
            self._done.append(trace_id)
            self._done_set.add(trace_id)
        order = {span_id: i for i, span_id in enumerate(p.spans)}
        spans = sorted(p.spans.values(), key=lambda s: (s.start_ns, order[s.span_id]))
        return CompletedTrace(
            trace_id=trace_id,
            spans=tuple(spans),
            sources=tuple(sorted(p.sources)),
            root_seen=p.root_seen,
            why=why,
            dropped_spans=p.dropped_spans,
        )
