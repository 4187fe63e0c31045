"""``GateConfig``: the targets, tolerances and test settings of the regression gate, and
:func:`load_gate_config`, which reads them from a JSON file.

The file (every key optional)::

    {
      "targets": {"retrieval.ndcg@5": "> 0.6", "pipeline.pass": ">= 0.95",
                  "safety.injection.auc": null},
      "replace_default_targets": false,
      "tolerances": {"retrieval.ndcg@5": {"absolute": 0.05},
                     "latency_ms.total.p95": {"relative": 0.2}},
      "alpha": 0.05, "bootstrap_resamples": 2000, "seed": 42
    }

``targets`` are merged over 003's table (:data:`DEFAULT_TARGETS`) unless
``replace_default_targets`` is true; a target is ``"op value"`` with ``op`` one of ``>``,
``<``, ``>=``, ``<=``; ``null`` removes a default target. A tolerance gives ``absolute``
and/or ``relative``; a field it omits keeps the metric's default
(:func:`~monitor.evaluation.gate.tolerance.default_tolerance`). Every metric id must be in
the catalogue. A problem raises :class:`GateConfigError` as ``FILE: field F: reason``.

>>> import json, tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp) / "gate.json"
...     _ = path.write_text(json.dumps({"targets": {"pipeline.pass": ">= 0.95",
...         "safety.injection.auc": None},
...         "tolerances": {"latency_ms.total.p95": {"relative": 0.2}}}))
...     config = load_gate_config(path)
>>> str(config.targets["pipeline.pass"]), "safety.injection.auc" in config.targets
('>= 0.95', False)
>>> config.tolerance_for("latency_ms.total.p95"), config.tolerance_for("retrieval.mrr")
(Tolerance(absolute=0.0, relative=0.2), Tolerance(absolute=0.02, relative=0.0))
>>> parse_target("<= 0.2")
Target(op='<=', value=0.2)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from monitor.errors import FileError
from monitor.evaluation.gate.tolerance import Tolerance, default_tolerance
from monitor.evaluation.metrics.catalogue import CATALOGUE, DEFAULT_TARGETS, Target

__all__ = ["GateConfig", "GateConfigError", "load_gate_config", "parse_target"]

_TARGET = re.compile(r"\s*(>=|<=|>|<)\s*(\S+)\s*")
_KEYS = ("targets", "replace_default_targets", "tolerances", "alpha", "bootstrap_resamples", "seed")


class GateConfigError(FileError):
    """A gate configuration file that cannot be read or used."""


_Fail = Callable[[str, str], GateConfigError]


@dataclass(frozen=True, slots=True)
class GateConfig:
    """What the gate checks: ``targets`` (by default 003's table), per-metric tolerance
    overrides (:meth:`tolerance_for` falls back to the defaults), the significance level
    ``alpha`` and the paired bootstrap's ``bootstrap_resamples`` and ``seed``."""

    targets: Mapping[str, Target] = field(default_factory=lambda: dict(DEFAULT_TARGETS))
    tolerances: Mapping[str, Tolerance] = field(default_factory=dict)
    alpha: float = 0.05
    bootstrap_resamples: int = 2000
    seed: int = 42

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"GateConfig.alpha must be in (0, 1), got {self.alpha!r}")
        if self.bootstrap_resamples < 1:
            raise ValueError(
                f"GateConfig.bootstrap_resamples must be >= 1, got {self.bootstrap_resamples!r}"
            )

    def tolerance_for(self, metric_id: str) -> Tolerance:
        """The override of ``metric_id`` if any, else its default."""
        override = self.tolerances.get(metric_id)
        return override if override is not None else default_tolerance(metric_id)


def parse_target(text: str) -> Target:
    """``"op value"`` (``op`` one of ``> < >= <=``) as a :class:`Target`; ``ValueError``
    otherwise."""
    match = _TARGET.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not 'op value' with op one of >, <, >=, <=")
    try:
        value = float(match.group(2))
    except ValueError:
        raise ValueError(f"{match.group(2)!r} in {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{match.group(2)!r} in {text!r} is not a finite number")
    op = cast(Literal[">", "<", ">=", "<="], match.group(1))
    return Target(op, value)


def load_gate_config(path: Path) -> GateConfig:
    """Read a gate configuration JSON file (see the module docstring)."""

    def fail(where: str, reason: str) -> GateConfigError:
        return GateConfigError(str(path), None, where, reason)

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        reason = f"cannot read the file: {exc.strerror or exc}"
        raise GateConfigError(str(path), None, None, reason) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(
            "(top level)", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    if not isinstance(data, dict):
        raise fail("(top level)", f"must be a JSON object, got {_json_type(data)}")
    for key in data:
        if key not in _KEYS:
            raise fail(key, f"unknown field (known: {', '.join(_KEYS)})")

    replace = data.get("replace_default_targets", False)
    if not isinstance(replace, bool):
        raise fail("replace_default_targets", f"must be true or false, got {_json_type(replace)}")
    targets: dict[str, Target] = {} if replace else dict(DEFAULT_TARGETS)
    for metric_id, spec in _object(data, "targets", fail).items():
        where = f"targets.{metric_id}"
        _check_metric(metric_id, where, fail)
        if spec is None:
            targets.pop(metric_id, None)
        elif isinstance(spec, str):
            try:
                targets[metric_id] = parse_target(spec)
            except ValueError as exc:
                raise fail(where, str(exc)) from None
        else:
            raise fail(where, f"must be a string like '> 0.6' or null, got {_json_type(spec)}")

    tolerances: dict[str, Tolerance] = {}
    for metric_id, spec in _object(data, "tolerances", fail).items():
        where = f"tolerances.{metric_id}"
        _check_metric(metric_id, where, fail)
        if not isinstance(spec, dict):
            raise fail(
                where, f'must be an object like {{"absolute": 0.05}}, got {_json_type(spec)}'
            )
        default = default_tolerance(metric_id)
        fields = {"absolute": default.absolute, "relative": default.relative}
        for key, value in spec.items():
            if key not in fields:
                raise fail(f"{where}.{key}", "unknown field (known: absolute, relative)")
            fields[key] = _number(value, f"{where}.{key}", fail, minimum=0.0)
        tolerances[metric_id] = Tolerance(**fields)

    alpha = _number(data.get("alpha", 0.05), "alpha", fail, minimum=0.0)
    if not 0.0 < alpha < 1.0:
        raise fail("alpha", f"must be in (0, 1), got {alpha!r}")
    resamples = _integer(data.get("bootstrap_resamples", 2000), "bootstrap_resamples", fail)
    if resamples < 1:
        raise fail("bootstrap_resamples", f"must be >= 1, got {resamples}")
    seed = _integer(data.get("seed", 42), "seed", fail)
    return GateConfig(targets, tolerances, alpha, resamples, seed)


def _object(data: dict[str, Any], key: str, fail: _Fail) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise fail(key, f"must be an object keyed by metric id, got {_json_type(value)}")
    return value


def _check_metric(metric_id: str, where: str, fail: _Fail) -> None:
    if metric_id not in CATALOGUE:
        raise fail(where, f"unknown metric id {metric_id!r}")


def _number(value: Any, where: str, fail: _Fail, *, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(where, f"must be a number, got {_json_type(value)}")
    number = float(value)
    if not math.isfinite(number) or number < minimum:
        raise fail(where, f"must be a finite number >= {minimum:g}, got {value!r}")
    return number


def _integer(value: Any, where: str, fail: _Fail) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, f"must be an integer, got {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "an array"
    return "an object"
