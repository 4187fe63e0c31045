"""``load_gate_config``: targets merged over, or replacing, 003's table; ``null`` removes
one; tolerance overrides keep the metric's defaults; every mistake names file and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.errors import MonitorError
from monitor.evaluation.gate import (
    GateConfig,
    GateConfigError,
    Tolerance,
    default_tolerance,
    load_gate_config,
    parse_target,
)
from monitor.evaluation.metrics.catalogue import CATALOGUE, DEFAULT_TARGETS, Target


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "gate.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    config = load_gate_config(write(tmp_path, {}))
    assert config == GateConfig()
    assert dict(config.targets) == DEFAULT_TARGETS
    assert (config.alpha, config.bootstrap_resamples, config.seed) == (0.05, 2000, 42)


def test_targets_merge_over_the_defaults_and_null_removes_one(tmp_path: Path) -> None:
    config = load_gate_config(
        write(
            tmp_path,
            {
                "targets": {
                    "retrieval.ndcg@5": "> 0.65",
                    "pipeline.pass": ">=0.95",
                    "safety.injection.auc": None,
                    "safety.injection.detection_rate.jailbreak_persona": "  >= 0.8 ",
                },
                "replace_default_targets": False,
                "alpha": 0.01,
                "bootstrap_resamples": 500,
                "seed": 7,
            },
        )
    )
    expected = dict(DEFAULT_TARGETS)
    expected.update(
        {
            "retrieval.ndcg@5": Target(">", 0.65),
            "pipeline.pass": Target(">=", 0.95),
            "safety.injection.detection_rate.jailbreak_persona": Target(">=", 0.8),
        }
    )
    del expected["safety.injection.auc"]
    assert dict(config.targets) == expected
    assert (config.alpha, config.bootstrap_resamples, config.seed) == (0.01, 500, 7)


def test_replace_default_targets(tmp_path: Path) -> None:
    config = load_gate_config(
        write(
            tmp_path,
            {
                "targets": {"retrieval.mrr": "> 0.5", "pipeline.pass": None},
                "replace_default_targets": True,
            },
        )
    )
    assert dict(config.targets) == {"retrieval.mrr": Target(">", 0.5)}


def test_tolerances_keep_the_fields_they_omit(tmp_path: Path) -> None:
    config = load_gate_config(
        write(
            tmp_path,
            {
                "tolerances": {
                    "retrieval.ndcg@5": {"absolute": 0.05},
                    "latency_ms.total.p95": {"relative": 0.2},
                    "judge.faithfulness": {"absolute": 0, "relative": 0.05},
                }
            },
        )
    )
    assert config.tolerance_for("retrieval.ndcg@5") == Tolerance(absolute=0.05)
    assert config.tolerance_for("latency_ms.total.p95") == Tolerance(absolute=0.0, relative=0.2)
    assert config.tolerance_for("judge.faithfulness") == Tolerance(absolute=0.0, relative=0.05)
    assert config.tolerance_for("retrieval.mrr") == Tolerance()


def test_default_tolerances() -> None:
    assert default_tolerance("latency_ms.generate.p50") == Tolerance(absolute=0.0, relative=0.1)
    for metric_id in (
        "grounding.unsupported_claims",
        "grounding.numeric_fabrications",
        "grounding.forbidden_claims_found",
        "context_quality.fact_dispersion",
        "judge.faithfulness",
        "judge.completeness",
        "judge.groundedness",
        "judge.correctness",
    ):
        assert default_tolerance(metric_id) == Tolerance(absolute=0.1), metric_id
    for metric_id in ("judge.fc_pass", "judge.gc_pass", "retrieval.ndcg@5", "pipeline.pass"):
        assert default_tolerance(metric_id) == Tolerance(), metric_id
    assert Tolerance(absolute=0.01, relative=0.1).allowed(0.05) == 0.01
    assert Tolerance(absolute=0.01, relative=0.1).allowed(-2.0) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="absolute"):
        Tolerance(absolute=-0.1)
    assert all(isinstance(default_tolerance(m), Tolerance) for m in CATALOGUE)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"targets": {"retrieval.ndcg@6": "> 0.6"}},
            r"field targets\.retrieval\.ndcg@6: unknown metric id",
        ),
        ({"tolerances": {"nope": {"absolute": 0.1}}}, r"field tolerances\.nope: unknown metric id"),
        (
            {"targets": {"retrieval.ndcg@5": "= 0.6"}},
            r"field targets\.retrieval\.ndcg@5: .*op one of",
        ),
        (
            {"targets": {"retrieval.ndcg@5": "> high"}},
            r"field targets\.retrieval\.ndcg@5: 'high' .*not a number",
        ),
        ({"targets": {"retrieval.ndcg@5": "> nan"}}, r"not a finite number"),
        (
            {"targets": {"retrieval.ndcg@5": 0.6}},
            r"field targets\.retrieval\.ndcg@5: must be a string",
        ),
        ({"targets": ["retrieval.ndcg@5"]}, r"field targets: must be an object"),
        (
            {"replace_default_targets": "yes"},
            r"field replace_default_targets: must be true or false",
        ),
        (
            {"tolerances": {"retrieval.mrr": 0.1}},
            r"field tolerances\.retrieval\.mrr: must be an object",
        ),
        (
            {"tolerances": {"retrieval.mrr": {"abs": 0.1}}},
            r"field tolerances\.retrieval\.mrr\.abs: unknown field",
        ),
        (
            {"tolerances": {"retrieval.mrr": {"absolute": -1}}},
            r"field tolerances\.retrieval\.mrr\.absolute: .*>= 0",
        ),
        ({"tolerances": {"retrieval.mrr": {"absolute": True}}}, r"must be a number, got a boolean"),
        ({"alpha": 1.5}, r"field alpha: must be in \(0, 1\)"),
        ({"alpha": 0}, r"field alpha: must be in \(0, 1\)"),
        ({"bootstrap_resamples": 0}, r"field bootstrap_resamples: must be >= 1"),
        ({"seed": 1.5}, r"field seed: must be an integer"),
        ({"target": {}}, r"field target: unknown field"),
        ([1, 2], r"field \(top level\): must be a JSON object, got an array"),
        ("{not json", r"field \(top level\): not valid JSON: .*line 1, column 2"),
    ],
)
def test_errors_name_the_file_and_the_field(tmp_path: Path, data: Any, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(GateConfigError, match=message) as info:
        load_gate_config(path)
    assert str(info.value).startswith(f"{path}: ")
    assert isinstance(info.value, MonitorError)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GateConfigError, match="cannot read the file"):
        load_gate_config(tmp_path / "absent.json")


def test_parse_target_and_config_checks() -> None:
    assert parse_target("<0.2") == Target("<", 0.2)
    assert str(parse_target(">= 1e-1")) == ">= 0.1"
    with pytest.raises(ValueError):
        parse_target("0.2")
    with pytest.raises(ValueError, match="alpha"):
        GateConfig(alpha=0.0)
    with pytest.raises(ValueError, match="bootstrap_resamples"):
        GateConfig(bootstrap_resamples=0)
