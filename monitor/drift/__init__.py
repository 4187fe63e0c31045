"""Baselines, window rules and change-point detectors (DESIGN section 6); pure.

- :mod:`~monitor.drift.stats`: the ``WindowStats`` protocol the rules read, ``SeriesKey``;
- :mod:`~monitor.drift.config`: ``DriftConfig``, every threshold;
- :mod:`~monitor.drift.baseline`: ``BaselineBook``, configured or learned baselines;
- :mod:`~monitor.drift.conditions`: spec 000's degradation and critical rules, rate and
  latency budgets, as ``Condition`` values per closed window;
- :mod:`~monitor.drift.changepoint`: ADWIN and Page-Hinkley (river) on the event stream;
- :mod:`~monitor.drift.direction`: which way is worse for each metric.

>>> DriftConfig().degradation_ratio
0.85
"""

from __future__ import annotations

from monitor.drift.baseline import Baseline, BaselineBook, BaselineSource
from monitor.drift.changepoint import ChangePoint, ChangePointDetectors, Detector
from monitor.drift.conditions import (
    Condition,
    ConditionType,
    RulePair,
    Severity,
    WindowEvaluation,
    change_point_condition,
    evaluate_window,
)
from monitor.drift.config import DriftConfig
from monitor.drift.direction import Direction, higher_is_better, worse_direction
from monitor.drift.stats import ALL_TRAFFIC, SeriesKey, WindowStats, key_labels

__all__ = [
    "ALL_TRAFFIC",
    "Baseline",
    "BaselineBook",
    "BaselineSource",
    "ChangePoint",
    "ChangePointDetectors",
    "Condition",
    "ConditionType",
    "Detector",
    "Direction",
    "DriftConfig",
    "RulePair",
    "SeriesKey",
    "Severity",
    "WindowEvaluation",
    "WindowStats",
    "change_point_condition",
    "evaluate_window",
    "higher_is_better",
    "key_labels",
    "worse_direction",
]
