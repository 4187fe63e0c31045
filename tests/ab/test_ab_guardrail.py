"""The one-sided always-valid guardrail test: its formula against numerical integration,
the running minimum, its verdicts, and the JSON state."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import integrate, stats

from monitor.ab.guardrail import GuardrailTest, verdict
from monitor.ab.msprt import one_sided_log_ratio
from monitor.ab.summary import Moments


def test_one_sided_ratio_is_the_half_normal_mixture() -> None:
    rng = np.random.default_rng(5)
    for _ in range(30):
        variance, mixing = float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.1, 3.0))
        x = float(rng.normal(0.0, 2.0))

        def integrand(delta: float, x: float = x, v: float = variance, m: float = mixing) -> float:
            ratio = math.exp((delta * x - 0.5 * delta * delta) / v)
            return 2.0 * stats.norm.pdf(delta, scale=math.sqrt(m)) * ratio

        expected, _ = integrate.quad(integrand, 0.0, np.inf)
        assert math.exp(one_sided_log_ratio(x, variance, mixing)) == pytest.approx(
            expected, rel=1e-7
        )


def test_running_minimum_and_margin() -> None:
    test = GuardrailTest("mean", tau2=0.1, alpha=0.05, margin=100.0)
    assert test.update(Moments(5, 800.0, 1e4), Moments(5, 900.0, 1e4)) is None  # too few
    first = test.update(Moments(200, 800.0, 4e4), Moments(200, 1000.0, 4e4))
    assert first is not None and first < 0.05
    later = test.update(Moments(400, 800.0, 4e4), Moments(400, 850.0, 4e4))
    assert later == first  # running minimum: a flag once raised stays
    assert test.looks == 2
    # the same difference below the margin is not flagged
    calm = GuardrailTest("mean", tau2=0.1, alpha=0.05, margin=300.0)
    p = calm.update(Moments(200, 800.0, 4e4), Moments(200, 1000.0, 4e4))
    assert p is not None and p > 0.5
    assert GuardrailTest.from_dict(json.loads(json.dumps(test.to_dict()))) == test
    with pytest.raises(ValueError):
        GuardrailTest(margin=math.inf)


def test_verdicts() -> None:
    assert verdict(None, 0.05, 1.0, None) == "insufficient_data"
    assert verdict(0.01, 0.05, 1.0, 5.0) == "worse_beyond_margin"
    assert verdict(0.5, 0.05, 1.0, 0.5) == "within_margin"
    assert verdict(0.5, 0.05, 1.0, 1.5) == "undecided"
