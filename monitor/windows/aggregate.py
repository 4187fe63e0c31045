"""A mergeable summary of one metric's values: count, sum, spread, min, max and quantiles.

:class:`Aggregate` keeps ``count``, ``total`` (the sum), ``m2`` (the sum of squared
deviations from the mean), ``minimum``, ``maximum`` and a :class:`QuantileSketch`.
Partials of a window (one per pane, worker or batch) merge into the window's aggregate
in any order and grouping.

**Why ``m2`` and not the sum of squares.** The variance from ``(sum_sq - sum**2 / n)``
cancels catastrophically when the spread is small next to the mean (latencies around
1000 ms with a spread of 1e-4: the difference of two ~1e9 numbers), and its rounding
then depends on the merge order. ``m2`` merges with Chan et al.'s pairwise update
``m2 = m2_a + m2_b + (mean_b - mean_a)**2 * n_a * n_b / n``, which stays accurate and is
never negative. :attr:`Aggregate.total_sq` is still available, derived from ``m2``.

**What merging preserves.** ``count``, ``minimum``, ``maximum`` and the sketch of a merge
are exactly those of one pass over all the values. ``total`` and ``m2`` (so ``mean``,
``variance``, ``total_sq``) equal the one-pass values up to floating-point rounding
(plain sums, not ``math.fsum``, for speed), which is why ``==`` on aggregates built in
different ways may be False while every statistic agrees to ~1e-15 relative.

Inputs must be finite (``ValueError`` otherwise), and so must the sums: values beyond
~1e150 in magnitude overflow ``m2`` and raise ``ValueError`` too.

>>> a = Aggregate.of([1.0, 2.0, 3.0])
>>> b = Aggregate.from_array(np.array([4.0, 5.0]))
>>> ab = a.merge(b)
>>> ab.count, ab.mean, ab.variance, ab.minimum, ab.maximum, round(ab.quantile(0.5), 3)
(5, 3.0, 2.5, 1.0, 5.0, 2.974)
>>> Aggregate().mean is None, Aggregate().to_dict()["min"] is None
(True, True)
>>> Aggregate.from_dict(ab.to_dict()) == ab
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from monitor.windows.sketch import DEFAULT_RELATIVE_ACCURACY, QuantileSketch

__all__ = ["Aggregate"]


@dataclass(slots=True)
class Aggregate:
    """One metric's values; ``Aggregate()`` is empty (``minimum=inf``, ``maximum=-inf``).

    ``==`` compares every field exactly (the sketch bucket-for-bucket).
    """

    count: int = 0
    total: float = 0.0
    m2: float = 0.0
    minimum: float = math.inf
    maximum: float = -math.inf
    sketch: QuantileSketch = field(default_factory=QuantileSketch)

    # ------------------------------------------------------------------ building

    @classmethod
    def of(
        cls, values: Iterable[float], relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY
    ) -> Aggregate:
        """The aggregate of any iterable of floats (the same as :meth:`from_array`)."""
        array = np.fromiter(values, dtype=np.float64)
        return cls.from_array(array, relative_accuracy)

    @classmethod
    def from_array(
        cls,
        values: npt.NDArray[np.float64],
        relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY,
    ) -> Aggregate:
        """The aggregate of an array's values (any shape), in a few vectorised passes."""
        x = np.asarray(values, dtype=np.float64).ravel()
        sketch = QuantileSketch(relative_accuracy)
        if x.size == 0:
            return cls(sketch=sketch)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
            total = float(x.sum())
            if not math.isfinite(total):
                _check_finite(x)
                raise ValueError("Aggregate: the sum of the values overflows")
            deviations = x - total / x.size
            m2 = float(np.dot(deviations, deviations))
        if not math.isfinite(m2):
            raise ValueError("Aggregate: the sum of squared deviations overflows")
        sketch.add_many(x)
        return cls(x.size, total, m2, float(x.min()), float(x.max()), sketch)

    def add(self, value: float) -> None:
        """Add one value (Welford's update); ``ValueError`` if it is not finite."""
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"Aggregate accepts finite values only, got {value!r}")
        count = self.count + 1
        total = self.total + x
        if not math.isfinite(total):
            raise ValueError("Aggregate: the sum of the values overflows")
        old_mean = self.total / self.count if self.count else 0.0
        m2 = self.m2 + (x - old_mean) * (x - total / count) if self.count else 0.0
        if not math.isfinite(m2):
            raise ValueError("Aggregate: the sum of squared deviations overflows")
        self.sketch.add(x)
        self.count, self.total, self.m2 = count, total, m2
        self.minimum = min(self.minimum, x)
        self.maximum = max(self.maximum, x)

    # ------------------------------------------------------------------ merging

    def merge(self, other: Aggregate) -> Aggregate:
        """A new aggregate of both operands' values; the operands are left untouched."""
        merged = self.copy()
        merged.merge_in(other)
        return merged

    def merge_in(self, other: Aggregate) -> None:
        """Add ``other``'s values to this aggregate; ``ValueError`` (and nothing changes)
        if the sketches' accuracies differ or the merged sums overflow."""
        if other.sketch.relative_accuracy != self.sketch.relative_accuracy:
            self.sketch.merge_in(other.sketch)  # raises the sketch's ValueError
        if other.count == 0:
            return
        if self.count == 0:
            count, total, m2 = other.count, other.total, other.m2
        else:
            count = self.count + other.count
            delta = other.total / other.count - self.total / self.count
            m2 = self.m2 + other.m2 + delta * delta * (self.count * other.count / count)
            total = self.total + other.total
            if not (math.isfinite(total) and math.isfinite(m2)):
                raise ValueError("Aggregate: merged sums overflow")
        self.sketch.merge_in(other.sketch)
        self.count, self.total, self.m2 = count, total, m2
        self.minimum = min(self.minimum, other.minimum)
        self.maximum = max(self.maximum, other.maximum)

    def copy(self) -> Aggregate:
        """An independent copy."""
        return Aggregate(
            self.count, self.total, self.m2, self.minimum, self.maximum, self.sketch.copy()
        )

    # ------------------------------------------------------------------ reading

    @property
    def total_sq(self) -> float:
        """The sum of squares, ``m2 + total**2 / count`` (0.0 when empty)."""
        return self.m2 + self.total * self.total / self.count if self.count else 0.0

    @property
    def mean(self) -> float | None:
        """The arithmetic mean; ``None`` when empty."""
        return self.total / self.count if self.count else None

    @property
    def variance(self) -> float | None:
        """The sample variance (divided by ``count - 1``); ``None`` below 2 values."""
        if self.count < 2:
            return None
        return max(self.m2, 0.0) / (self.count - 1)

    @property
    def stddev(self) -> float | None:
        """The sample standard deviation; ``None`` below 2 values."""
        variance = self.variance
        return None if variance is None else math.sqrt(variance)

    def quantile(self, q: float) -> float | None:
        """The sketch's estimate (see :meth:`QuantileSketch.quantile`) clamped to
        ``[minimum, maximum]``, which can only bring it closer; exactly ``minimum`` for
        ``q = 0`` and ``maximum`` for ``q = 1``; ``None`` when empty.

        >>> a = Aggregate.of([0.5, 0.7, 0.9])
        >>> a.quantile(0.0), a.quantile(1.0)
        (0.5, 0.9)
        """
        estimate = self.sketch.quantile(q)
        if estimate is None:
            return None
        if q == 0.0:
            return self.minimum
        if q == 1.0:
            return self.maximum
        return min(max(estimate, self.minimum), self.maximum)

    # ------------------------------------------------------------------ serialising

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (no inf or NaN: ``min``/``max`` are ``None`` when empty); the
        round trip through :meth:`from_dict` and JSON is exact."""
        empty = self.count == 0
        return {
            "count": self.count,
            "total": self.total,
            "m2": self.m2,
            "min": None if empty else self.minimum,
            "max": None if empty else self.maximum,
            "sketch": self.sketch.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Aggregate:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            count = int(data["count"])
            sketch = QuantileSketch.from_dict(data["sketch"])
            if count == 0:
                agg = cls(sketch=sketch)
            else:
                agg = cls(
                    count,
                    float(data["total"]),
                    float(data["m2"]),
                    float(data["min"]),
                    float(data["max"]),
                    sketch,
                )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed Aggregate data: {exc!r}") from exc
        if sketch.count != count:
            raise ValueError(
                f"malformed Aggregate data: count {count} but the sketch holds {sketch.count}"
            )
        return agg


def _check_finite(x: npt.NDArray[np.float64]) -> None:
    if not np.isfinite(x).all():
        raise ValueError("Aggregate accepts finite values only")
