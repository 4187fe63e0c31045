"""DriftConfig mirrors the Settings defaults and is read-only."""

from __future__ import annotations

import pytest

from monitor.config import Settings
from monitor.drift.config import DriftConfig


def test_defaults_mirror_settings() -> None:
    assert DriftConfig.from_settings(Settings()) == DriftConfig()


def test_from_settings_copies_overrides() -> None:
    settings = Settings(
        baselines={"quality.overall": 0.7},
        baseline_min_events=10,
        rate_thresholds={"outcome.no_results": 0.5},
        changepoint_metrics=["quality.overall", "latency_ms.total"],
        alert_cooldown_ms=0,
    )
    config = DriftConfig.from_settings(settings)
    assert config.baselines == {"quality.overall": 0.7}
    assert config.min_events == 10
    assert dict(config.rate_thresholds) == {"outcome.no_results": 0.5}
    assert config.changepoint_metrics == ("quality.overall", "latency_ms.total")
    assert config.cooldown_ms == 0


def test_mappings_are_copied_and_read_only() -> None:
    source = {"quality.overall": 0.8}
    config = DriftConfig(baselines=source)
    source["quality.overall"] = 0.1
    assert config.baselines["quality.overall"] == 0.8
    with pytest.raises(TypeError):
        config.rate_thresholds["x"] = 1.0  # type: ignore[index]


@pytest.mark.parametrize(
    "kwargs",
    [{"horizon_ms": 0}, {"degradation_ratio": 0.0}, {"min_windows": 0}, {"cooldown_ms": -1}],
)
def test_invalid_values_are_rejected(kwargs: dict[str, int | float]) -> None:
    with pytest.raises(ValueError):
        DriftConfig(**kwargs)  # type: ignore[arg-type]
