"""A Prometheus histogram fed a batch at a time.

``prometheus_client.Histogram.observe`` takes a lock per value; the worker scores
thousands of events a second, each with a dozen scores, so it bins a whole batch with one
numpy call per label set and exposes the cumulative counts through a custom collector.

>>> from prometheus_client import CollectorRegistry, generate_latest
>>> registry = CollectorRegistry()
>>> h = BulkHistogram("demo_score", "A score.", ("metric",), (0.5, 1.0), registry)
>>> h.observe_many(("q",), [0.2, 0.7, 0.9, 3.0])
>>> print(generate_latest(registry).decode().splitlines()[2:5])
['demo_score_bucket{le="0.5",metric="q"} 1.0', 'demo_score_bucket{le="1.0",metric="q"} 3.0', 'demo_score_bucket{le="+Inf",metric="q"} 4.0']
"""  # noqa: E501

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import numpy as np
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector, CollectorRegistry

__all__ = ["BulkHistogram"]


class BulkHistogram(Collector):
    def __init__(
        self,
        name: str,
        documentation: str,
        labelnames: Sequence[str],
        buckets: Sequence[float],
        registry: CollectorRegistry,
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.labelnames = tuple(labelnames)
        self.bounds = np.asarray(sorted(buckets), dtype=np.float64)
        self._counts: dict[tuple[str, ...], np.ndarray] = {}
        self._sums: dict[tuple[str, ...], float] = {}
        self._lock = threading.Lock()
        registry.register(self)

    def observe_many(self, labels: tuple[str, ...], values: Sequence[float] | np.ndarray) -> None:
        arr = np.asarray(values, dtype=np.float64)
        if arr.size == 0:
            return
        # bucket i counts values <= bounds[i]; the last slot is +Inf
        binned = np.bincount(
            np.searchsorted(self.bounds, arr, side="left"), minlength=len(self.bounds) + 1
        )
        total = float(arr.sum())
        with self._lock:
            counts = self._counts.get(labels)
            if counts is None:
                self._counts[labels] = binned.astype(np.int64)
                self._sums[labels] = total
            else:
                counts += binned
                self._sums[labels] += total

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)
        with self._lock:
            items = [(k, v.cumsum(), self._sums[k]) for k, v in self._counts.items()]
        for labels, cumulative, total in items:
            buckets = [(_le(b), float(c)) for b, c in zip(self.bounds, cumulative, strict=False)]
            buckets.append(("+Inf", float(cumulative[-1])))
            family.add_metric(list(labels), buckets, total)
        yield family

    def describe(self) -> Iterator[HistogramMetricFamily]:
        yield HistogramMetricFamily(self.name, self.documentation, labels=self.labelnames)


def _le(bound: float) -> str:
    return repr(float(bound))
