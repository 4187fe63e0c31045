"""Simulations: peeking after every window.

500 seeded experiments, each looked at after every one of 20 windows of 50 events per arm
(quality ~ N(0.7, 0.15²)), every look on the cumulative merged aggregates, as the worker
does. Under A/A the always-valid (mSPRT) test must reject at *any* look in fewer than
alpha of the experiments, while Welch's fixed-sample test read at every look rejects far
more often; with a true difference of 0.05 the always-valid test must find it, and its
confidence sequence must hold the true difference at every look. The same A/A check runs
on a 10 % rate with the two-proportion z-test as the naive reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from monitor.ab.msprt import DEFAULT_TAU2_MEAN, DEFAULT_TAU2_PROPORTION, SequentialTest
from monitor.ab.proportions import two_proportions
from monitor.ab.welch import welch
from monitor.windows.aggregate import Aggregate

EXPERIMENTS, WINDOWS, PER_WINDOW = 500, 20, 50
ALPHA = 0.05


@dataclass
class Peeking:
    always_valid: np.ndarray  # (experiments, windows): rejected at this look or before
    naive: np.ndarray  # the same for the fixed-sample test read at every look
    covered: np.ndarray  # (experiments,): the truth stayed in the confidence sequence
    naive_last_look: float  # the fixed-sample test read once, at the end


def _peek(
    values: np.ndarray, kind: str, tau2: float, truth: float, naive_every_look: bool = True
) -> Peeking:
    """``values``: (experiments, 2 arms, windows, events), arm 0 the control."""
    experiments, _, windows, events = values.shape
    groups = np.repeat(np.arange(experiments * 2 * windows), events)
    panes = Aggregate.from_groups(values.ravel(), groups, experiments * 2 * windows)
    always_valid = np.zeros((experiments, windows), dtype=bool)
    naive = np.zeros((experiments, windows), dtype=bool)
    covered = np.ones(experiments, dtype=bool)
    naive_last = 0
    fixed = welch if kind == "mean" else two_proportions
    for e in range(experiments):
        control, treatment = Aggregate(), Aggregate()
        test = SequentialTest(kind, tau2, ALPHA)  # type: ignore[arg-type]
        for w in range(windows):
            control.merge_in(panes[(2 * e) * windows + w])
            treatment.merge_in(panes[(2 * e + 1) * windows + w])
            result = test.update(control, treatment)
            always_valid[e, w] = result.p_value is not None and result.p_value < ALPHA
            if result.cs_low is not None and result.cs_high is not None:
                covered[e] &= result.cs_low <= truth <= result.cs_high
            if naive_every_look or w == windows - 1:
                classic = fixed(control, treatment)
                naive[e, w] = classic is not None and classic.p_value < ALPHA
        naive_last += naive[e, -1]
    return Peeking(
        np.logical_or.accumulate(always_valid, axis=1),
        np.logical_or.accumulate(naive, axis=1),
        covered,
        naive_last / experiments,
    )


def test_a_a_always_valid_stays_under_alpha_naive_does_not(
    record_property: pytest.RecordProperty,
) -> None:
    rng = np.random.default_rng(2024)
    values = rng.normal(0.7, 0.15, (EXPERIMENTS, 2, WINDOWS, PER_WINDOW))
    peeking = _peek(values, "mean", DEFAULT_TAU2_MEAN, truth=0.0)
    always_valid_fpr = float(peeking.always_valid[:, -1].mean())
    naive_fpr = float(peeking.naive[:, -1].mean())
    record_property("always_valid_fpr", always_valid_fpr)
    record_property("naive_fpr", naive_fpr)
    print(
        f"\nA/A means: always-valid FPR {always_valid_fpr:.3f}, naive Welch at every look "
        f"{naive_fpr:.3f}, Welch once at the end {peeking.naive_last_look:.3f}"
    )
    assert always_valid_fpr < ALPHA
    assert naive_fpr > 2 * ALPHA  # ~0.25 in theory for 20 looks
    assert float(peeking.covered.mean()) == pytest.approx(1.0 - always_valid_fpr)


def test_a_a_on_a_rate(record_property: pytest.RecordProperty) -> None:
    rng = np.random.default_rng(2025)
    values = (rng.uniform(size=(EXPERIMENTS, 2, WINDOWS, PER_WINDOW)) < 0.1).astype(np.float64)
    peeking = _peek(values, "proportion", DEFAULT_TAU2_PROPORTION, truth=0.0)
    always_valid_fpr = float(peeking.always_valid[:, -1].mean())
    naive_fpr = float(peeking.naive[:, -1].mean())
    record_property("always_valid_fpr_rate", always_valid_fpr)
    record_property("naive_fpr_rate", naive_fpr)
    print(f"\nA/A rate: always-valid FPR {always_valid_fpr:.3f}, naive z-test {naive_fpr:.3f}")
    assert always_valid_fpr < ALPHA
    assert naive_fpr > 2 * ALPHA


def test_power_against_a_difference_of_0_05(record_property: pytest.RecordProperty) -> None:
    rng = np.random.default_rng(2026)
    values = rng.normal(0.7, 0.15, (EXPERIMENTS, 2, WINDOWS, PER_WINDOW))
    values[:, 1] += 0.05
    peeking = _peek(values, "mean", DEFAULT_TAU2_MEAN, truth=0.05, naive_every_look=False)
    power = peeking.always_valid.mean(axis=0)
    first = np.where(peeking.always_valid.any(axis=1), peeking.always_valid.argmax(axis=1), -1)
    detected = first[first >= 0]
    record_property("power_by_look", [round(float(p), 3) for p in power])
    print(
        "\npower (difference 0.05, SD 0.15) by events per arm: "
        + ", ".join(f"{(w + 1) * PER_WINDOW}: {power[w]:.3f}" for w in (1, 3, 5, 9, 19))
        + f"; median detection at {(np.median(detected) + 1) * PER_WINDOW:.0f} events per arm"
        + f"; fixed-sample Welch at {WINDOWS * PER_WINDOW}: {peeking.naive_last_look:.3f}"
        + f"; sequence missed the truth in {1 - peeking.covered.mean():.3f}"
    )
    assert power[-1] > 0.99  # 1000 events per arm: a 0.33 SD effect is certain to show
    assert power[5] > 0.8  # 300 per arm already
    assert float(peeking.covered.mean()) > 1.0 - ALPHA
