"""Change points on the per-event stream: river's ADWIN and Page-Hinkley per series.

:class:`ChangePointDetectors` keeps one ADWIN and one Page-Hinkley detector per series key
and metric, and is fed every event's metric values. Only changes for the worse are
reported (:mod:`monitor.drift.direction`): a drop for quality scores, a rise for latencies
and rates. Page-Hinkley runs one-sided (mode ``"down"`` or ``"up"``); ADWIN detects both
ways, so on a detection the mean of the part of its window it dropped (the values before
the change) is compared with the mean of the part it kept, and a change for the better is
ignored. After a detection river resets the detector on the next value, so detection
carries on from the change.

Each :class:`ChangePoint` carries ``reference`` (the mean before the change: the dropped
part of ADWIN's window, or the mean since Page-Hinkley's last reset) and ``value`` (the
recent level: an exponentially weighted mean of the metric with weight
``RECENT_WEIGHT`` = 0.05, i.e. about the last 20-40 events).

>>> import random
>>> rng = random.Random(7)
>>> detectors = ChangePointDetectors(DriftConfig())
>>> key = ("treatment", None, None)
>>> found = []
>>> for i in range(4000):
...     mean = 0.8 if i < 2000 else 0.5
...     x = min(1.0, max(0.0, rng.gauss(mean, 0.1)))
...     found += detectors.update(key, {"quality.overall": x}, timestamp_ms=i * 100)
>>> sorted({(cp.detector, cp.direction) for cp in found})
[('adwin', 'down'), ('page_hinkley', 'down')]
>>> first = min(found, key=lambda cp: cp.timestamp_ms)
>>> 200_000 <= first.timestamp_ms < 220_000, round(first.reference, 1)
(True, 0.8)
>>> ChangePoint.from_dict(first.to_dict()) == first
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from monitor.drift.config import DriftConfig
from monitor.drift.direction import Direction, worse_direction
from monitor.drift.stats import SeriesKey, key_labels

__all__ = ["RECENT_WEIGHT", "ChangePoint", "ChangePointDetectors", "Detector"]

Detector = Literal["adwin", "page_hinkley"]

RECENT_WEIGHT = 0.05
"""Weight of the newest value in the recent level reported as ``ChangePoint.value``."""


@dataclass(frozen=True)
class ChangePoint:
    """One detected change for the worse of ``metric`` in series ``key``."""

    metric: str
    key: SeriesKey
    detector: Detector
    timestamp_ms: int
    value: float
    reference: float
    direction: Direction

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the key as ``labels``, as in alerts)."""
        return {
            "metric": self.metric,
            "labels": key_labels(self.key),
            "detector": self.detector,
            "timestamp_ms": self.timestamp_ms,
            "value": self.value,
            "reference": self.reference,
            "direction": self.direction,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChangePoint:
        """Inverse of :meth:`to_dict`; raises ``ValueError`` on a malformed message."""
        try:
            labels = data["labels"]
            detector = data["detector"]
            direction = data["direction"]
            if detector not in ("adwin", "page_hinkley") or direction not in ("down", "up"):
                raise ValueError(f"bad detector or direction: {detector!r}, {direction!r}")
            key: SeriesKey = (labels["variant"], labels["tenant"], labels["application"])
            for label in key:
                if label is not None and not isinstance(label, str):
                    raise ValueError("labels must be strings or null")
            return cls(
                metric=str(data["metric"]),
                key=key,
                detector=detector,
                timestamp_ms=int(data["timestamp_ms"]),
                value=float(data["value"]),
                reference=float(data["reference"]),
                direction=direction,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed change point: {exc}") from exc


class _Series:
    """The detectors of one series and metric, with the running sums needed to tell the
    direction of a change. ``adwin_n``/``adwin_sum`` cover the values since ADWIN's last
    reset, which is exactly ADWIN's window until it detects (river's ADWIN only shrinks its
    window on a detection, and resets on the value after one)."""

    __slots__ = ("adwin", "adwin_n", "adwin_sum", "ph", "ph_n", "ph_sum", "recent")

    def __init__(self, adwin: Any, ph: Any, first: float) -> None:
        self.adwin = adwin
        self.ph = ph
        self.adwin_n = 0
        self.adwin_sum = 0.0
        self.ph_n = 0
        self.ph_sum = 0.0
        self.recent = first


class ChangePointDetectors:
    """ADWIN and Page-Hinkley per (series key, metric); one :meth:`update` per event.

    State is one pair of detectors per key and metric; keys are capped upstream (the
    label cap), and :meth:`forget` drops an evicted key.
    """

    def __init__(self, config: DriftConfig, metrics: Sequence[str] | None = None) -> None:
        # river is imported here, not at module level: importing it takes about a second,
        # and only the worker that runs the detectors needs it.
        from river.drift import ADWIN, PageHinkley

        self._config = config
        self._metrics = tuple(config.changepoint_metrics if metrics is None else metrics)
        self._down = {m: worse_direction(m) == "down" for m in self._metrics}
        self._adwin: Any = ADWIN
        self._page_hinkley: Any = PageHinkley
        self._series: dict[tuple[SeriesKey, str], _Series] = {}

    @property
    def metrics(self) -> tuple[str, ...]:
        return self._metrics

    def series_count(self) -> int:
        return len(self._series)

    def forget(self, key: SeriesKey) -> None:
        """Drop the detectors of ``key`` (for a series evicted by the label cap)."""
        for pair in [pair for pair in self._series if pair[0] == key]:
            del self._series[pair]

    def _new(self, metric: str, first: float) -> _Series:
        c = self._config
        adwin = self._adwin(delta=c.adwin_delta)
        ph = self._page_hinkley(
            min_instances=c.page_hinkley_min_instances,
            delta=c.page_hinkley_delta,
            threshold=c.page_hinkley_threshold_by_metric.get(metric, c.page_hinkley_threshold),
            mode="down" if self._down[metric] else "up",
        )
        return _Series(adwin, ph, first)

    def update(
        self, key: SeriesKey, values: Mapping[str, float], timestamp_ms: int
    ) -> list[ChangePoint]:
        """Feed one event's metric values; return the changes for the worse it revealed.

        Metrics the event lacks, and non-finite values, are skipped.
        """
        found: list[ChangePoint] = []
        for metric in self._metrics:
            x = values.get(metric)
            if x is None or not math.isfinite(x):
                continue
            s = self._series.get((key, metric))
            if s is None:
                s = self._series[(key, metric)] = self._new(metric, x)
            s.recent += RECENT_WEIGHT * (x - s.recent)

            adwin = s.adwin
            adwin.update(x)
            s.adwin_n += 1
            s.adwin_sum += x
            if adwin.drift_detected:
                kept_n = adwin.width
                dropped_n = s.adwin_n - kept_n
                if dropped_n > 0 and kept_n > 0:
                    before = (s.adwin_sum - adwin.total) / dropped_n
                    after = adwin.total / kept_n
                    if (after < before) if self._down[metric] else (after > before):
                        found.append(self._point(metric, key, "adwin", timestamp_ms, s, before))
                s.adwin_n = 0
                s.adwin_sum = 0.0

            ph = s.ph
            ph.update(x)
            s.ph_n += 1
            s.ph_sum += x
            if ph.drift_detected:
                before = s.ph_sum / s.ph_n
                found.append(self._point(metric, key, "page_hinkley", timestamp_ms, s, before))
                s.ph_n = 0
                s.ph_sum = 0.0
        return found

    def _point(
        self,
        metric: str,
        key: SeriesKey,
        detector: Detector,
        timestamp_ms: int,
        series: _Series,
        reference: float,
    ) -> ChangePoint:
        return ChangePoint(
            metric=metric,
            key=key,
            detector=detector,
            timestamp_ms=timestamp_ms,
            value=series.recent,
            reference=reference,
            direction="down" if self._down[metric] else "up",
        )
