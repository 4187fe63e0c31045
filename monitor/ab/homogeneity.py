"""Did the effect change during the experiment? A homogeneity test across windows.

The cumulative statistics answer "what is *the* effect", which presumes there is one. A
treatment that is better for a while and then worse (a model that degrades, a cache that
fills) has no single effect, and its cumulative verdict would be whatever the mix
happens to be. :class:`HomogeneityTest` watches for that:

- **blocks**: each look brings the cumulative summaries of both arms; what they hold
  beyond the previous block boundary (:func:`~monitor.ab.summary.subtract`) becomes a
  new block once both arms have ``min_samples`` values in it (a quiet window is carried
  into the next). A block keeps its span, counts and the two means, so its difference
  ``d_i = m_t,i - m_c,i``. At most ``max_blocks`` are kept: beyond that the adjacent
  pair with the fewest values is merged (coarser, never forgotten).
- **test** (:func:`homogeneity_p_value`): Cochran's ``Q = Σ w_i (d_i - d̄)²`` with ``w_i
  = 1 / V_i``, ``V_i = s_c² / n_c,i + s_t² / n_t,i`` (each arm's variance taken from its
  cumulative summary, the Bernoulli ``p (1 - p)`` for a rate, so that a block of few or
  constant values weighs right), chi-square with ``k - 1`` degrees of freedom when every
  block has the same effect; and the best split in two (below), much more powerful
  against one abrupt change; Bonferroni over the two.
- **peeking**: the test runs at every look, so its level is spent: the ``j``-th test
  rejects at ``p < α / (j (j + 1))``. These levels sum to ``α``, so the chance of ever
  reporting a change when the effect is constant stays below ``α`` however many windows
  are read (Bonferroni over looks; conservative).
- **where**: :meth:`HomogeneityTest.locate` splits the blocks in two where the
  difference between the before and after effects is most significant (the largest
  ``(d̄_before - d̄_after)² / (1 / W_before + 1 / W_after)``); the change is placed in the
  first block after the split, with the effects before and after.

>>> from monitor.ab.summary import Moments
>>> test = HomogeneityTest("mean", alpha=0.05)
>>> c, t = Moments(200, 0.70, 0.0225), Moments(200, 0.75, 0.0225)
>>> test.update(c, t, 0, 60_000) is None  # one block: nothing to compare yet
True
>>> c2, t2 = Moments(400, 0.70, 0.0225), Moments(400, 0.70, 0.03)  # treatment now -0.05
>>> change = test.update(c2, t2, 0, 120_000)
>>> change.detected_by, change.window_start_ms, change.window_end_ms
('homogeneity', 60000, 120000)
>>> round(change.difference_before, 3), round(change.difference_after, 3)
(0.05, -0.05)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from monitor.ab.distributions import chi2_sf
from monitor.ab.msprt import MetricKind
from monitor.ab.summary import EMPTY, Moments, Summary, subtract
from monitor.events.ab_result import EffectChange

__all__ = ["Block", "HomogeneityTest", "cochran_q", "homogeneity_p_value", "locate"]


@dataclass(frozen=True, slots=True)
class Block:
    """The values of both arms between two block boundaries."""

    start_ms: int
    end_ms: int
    control_count: int
    control_mean: float
    treatment_count: int
    treatment_mean: float

    @property
    def difference(self) -> float:
        return self.treatment_mean - self.control_mean

    def merged(self, other: Block) -> Block:
        """This block and the next one as one."""
        n_c = self.control_count + other.control_count
        n_t = self.treatment_count + other.treatment_count
        return Block(
            self.start_ms,
            other.end_ms,
            n_c,
            (self.control_count * self.control_mean + other.control_count * other.control_mean)
            / n_c,
            n_t,
            (
                self.treatment_count * self.treatment_mean
                + other.treatment_count * other.treatment_mean
            )
            / n_t,
        )


def _variances(kind: MetricKind, control: Summary, treatment: Summary) -> tuple[float, float]:
    """Each arm's per-value variance, from its cumulative summary."""
    if kind == "proportion":
        p_c = min(max(control.mean or 0.0, 0.0), 1.0)
        p_t = min(max(treatment.mean or 0.0, 0.0), 1.0)
        return p_c * (1.0 - p_c), p_t * (1.0 - p_t)
    return control.variance or 0.0, treatment.variance or 0.0


def _weights(blocks: Sequence[Block], var_c: float, var_t: float) -> list[float] | None:
    weights = []
    for b in blocks:
        v = var_c / b.control_count + var_t / b.treatment_count
        if not v > 0.0:
            return None
        weights.append(1.0 / v)
    return weights


def cochran_q(blocks: Sequence[Block], var_c: float, var_t: float) -> float | None:
    """Cochran's Q of the blocks' differences (``None`` without a positive variance)."""
    weights = _weights(blocks, var_c, var_t)
    if weights is None or len(blocks) < 2:
        return None
    total = sum(weights)
    pooled = sum(w * b.difference for w, b in zip(weights, blocks, strict=True)) / total
    return sum(w * (b.difference - pooled) ** 2 for w, b in zip(weights, blocks, strict=True))


def locate(
    blocks: Sequence[Block], var_c: float, var_t: float
) -> tuple[int, float, float, float] | None:
    """``(i, d_before, d_after, z²)``: the split before block ``i`` that best separates
    the effects, with the weighted mean difference on each side and the split's statistic
    (``None`` for < 2 blocks)."""
    weights = _weights(blocks, var_c, var_t)
    if weights is None or len(blocks) < 2:
        return None
    best: tuple[float, int, float, float] | None = None
    for i in range(1, len(blocks)):
        w_before, w_after = sum(weights[:i]), sum(weights[i:])
        d_before = (
            sum(w * b.difference for w, b in zip(weights[:i], blocks[:i], strict=True)) / w_before
        )
        d_after = (
            sum(w * b.difference for w, b in zip(weights[i:], blocks[i:], strict=True)) / w_after
        )
        score = (d_before - d_after) ** 2 / (1.0 / w_before + 1.0 / w_after)
        if best is None or score > best[0]:
            best = (score, i, d_before, d_after)
    assert best is not None
    return best[1], best[2], best[3], best[0]


def homogeneity_p_value(blocks: Sequence[Block], var_c: float, var_t: float) -> float | None:
    """The p-value of "every block has the same effect": the smaller of Cochran's Q test
    (any pattern of change) and the best single split (one abrupt change, far more power
    against it: ``z² = (d̄_before - d̄_after)² / (1 / W_before + 1 / W_after)``, chi-square
    with 1 degree of freedom for a fixed split, Bonferroni over the ``k - 1`` splits),
    doubled (Bonferroni over the two). ``None`` when there is nothing to test."""
    q = cochran_q(blocks, var_c, var_t)
    split = locate(blocks, var_c, var_t)
    if q is None or split is None:
        return None
    k = len(blocks)
    p_q = chi2_sf(q, k - 1)
    p_split = min(1.0, (k - 1) * chi2_sf(split[3], 1))
    return min(1.0, 2.0 * min(p_q, p_split))


@dataclass(slots=True)
class HomogeneityTest:
    """The homogeneity test of one metric's effect across an experiment's windows."""

    kind: MetricKind = "mean"
    alpha: float = 0.05
    min_samples: int = 10
    max_blocks: int = 64
    blocks: list[Block] = field(default_factory=list)
    boundary_control: Moments = EMPTY
    boundary_treatment: Moments = EMPTY
    boundary_ms: int | None = None
    tests: int = 0
    p_value: float | None = None
    change: EffectChange | None = None

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        if self.max_blocks < 2:
            raise ValueError(f"max_blocks must be >= 2, got {self.max_blocks!r}")

    def update(
        self, control: Summary, treatment: Summary, start_ms: int, end_ms: int
    ) -> EffectChange | None:
        """One look at the cumulative summaries (of ``[start_ms, end_ms)``); returns the
        change once detected (and from then on)."""
        if self.change is not None:
            return self.change
        new_c = subtract(control, self.boundary_control)
        new_t = subtract(treatment, self.boundary_treatment)
        if (
            new_c.count >= self.min_samples
            and new_t.count >= self.min_samples
            and new_c.mean is not None
            and new_t.mean is not None
        ):
            begin = start_ms if self.boundary_ms is None else self.boundary_ms
            self.blocks.append(
                Block(begin, end_ms, new_c.count, new_c.mean, new_t.count, new_t.mean)
            )
            self.boundary_control, self.boundary_treatment = (
                Moments.of(control),
                Moments.of(treatment),
            )
            self.boundary_ms = end_ms
            self._cap()
        if len(self.blocks) < 2:
            return None
        var_c, var_t = _variances(self.kind, control, treatment)
        p_value = homogeneity_p_value(self.blocks, var_c, var_t)
        if p_value is None:
            return None
        self.tests += 1
        self.p_value = p_value
        if p_value < self.alpha / (self.tests * (self.tests + 1)):
            self.change = self.locate(control, treatment, "homogeneity", end_ms, p_value)
        return self.change

    def locate(
        self,
        control: Summary,
        treatment: Summary,
        detected_by: str,
        detected_ms: int | None,
        p_value: float | None = None,
    ) -> EffectChange | None:
        """The change as located in the blocks so far (``None`` with fewer than two)."""
        var_c, var_t = _variances(self.kind, control, treatment)
        found = locate(self.blocks, var_c, var_t)
        if found is None:
            return None
        i, before, after, _ = found
        return EffectChange.model_validate(
            {
                "detected_by": detected_by,
                "detected_at_ms": detected_ms,
                "window_start_ms": self.blocks[i].start_ms,
                "window_end_ms": self.blocks[i].end_ms,
                "p_value": p_value,
                "difference_before": before,
                "difference_after": after,
            }
        )

    def _cap(self) -> None:
        while len(self.blocks) > self.max_blocks:
            sizes = [
                a.control_count + a.treatment_count + b.control_count + b.treatment_count
                for a, b in itertools.pairwise(self.blocks)
            ]
            i = sizes.index(min(sizes))
            self.blocks[i : i + 2] = [self.blocks[i].merged(self.blocks[i + 1])]

    # ------------------------------------------------------------------ serialising

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` restores an equal test."""
        return {
            "kind": self.kind,
            "alpha": self.alpha,
            "min_samples": self.min_samples,
            "max_blocks": self.max_blocks,
            "blocks": [
                [
                    b.start_ms,
                    b.end_ms,
                    b.control_count,
                    b.control_mean,
                    b.treatment_count,
                    b.treatment_mean,
                ]
                for b in self.blocks
            ],
            "boundary": [_moments(self.boundary_control), _moments(self.boundary_treatment)],
            "boundary_ms": self.boundary_ms,
            "tests": self.tests,
            "p_value": self.p_value,
            "change": None if self.change is None else self.change.model_dump(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HomogeneityTest:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            control, treatment = (Moments(int(n), m, v) for n, m, v in data["boundary"])
            change = data["change"]
            return cls(
                data["kind"],
                float(data["alpha"]),
                int(data["min_samples"]),
                int(data["max_blocks"]),
                [
                    Block(int(s), int(e), int(nc), float(mc), int(nt), float(mt))
                    for s, e, nc, mc, nt, mt in data["blocks"]
                ],
                control,
                treatment,
                None if data["boundary_ms"] is None else int(data["boundary_ms"]),
                int(data["tests"]),
                None if data["p_value"] is None else float(data["p_value"]),
                None if change is None else EffectChange.model_validate(change),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed HomogeneityTest data: {exc!r}") from exc


def _moments(m: Moments) -> list[Any]:
    return [m.count, m.mean, m.variance]
