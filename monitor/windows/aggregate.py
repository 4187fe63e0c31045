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

**Many small groups at once.** :meth:`Aggregate.from_groups` builds one aggregate per
group id from a values array and a group-id array in a constant number of numpy calls (a
worker's batch holds hundreds of tiny pane/series/metric columns); each result agrees
with :meth:`Aggregate.from_array` on that group's values as a merge does: ``count``,
``minimum``, ``maximum`` and the sketch exactly, ``total`` and ``m2`` up to rounding.

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

import itertools
import math
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from monitor.windows.sketch import DEFAULT_RELATIVE_ACCURACY, ZERO_THRESHOLD, QuantileSketch

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

    @classmethod
    def from_groups(
        cls,
        values: npt.NDArray[np.float64],
        groups: npt.NDArray[np.intp],
        n_groups: int,
        relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY,
    ) -> list[Aggregate]:
        """One aggregate per group id ``0 .. n_groups - 1`` (an empty one for a group
        without values): ``values[i]`` belongs to group ``groups[i]``.

        The same as ``[Aggregate.from_array(values[groups == g]) for g in
        range(n_groups)]`` (same ``count``, ``minimum``, ``maximum`` and sketch, bucket
        for bucket), but computed for all groups together in a constant number of numpy
        calls plus a short Python loop building the ``n_groups`` results: ~150 µs for
        1,000 values in 60 groups, where 60 :meth:`from_array` calls take ~1.4 ms.
        ``total`` and ``m2`` (hence ``mean``, ``variance``) equal :meth:`from_array`'s up
        to floating-point rounding only, ~1e-15 relative (``np.bincount`` adds each
        group's values in order, :meth:`from_array` sums pairwise and takes a dot
        product), so ``==`` between the two may be False on those two fields.

        ``ValueError``, as :meth:`from_array`, if a value is not finite or a group's sums
        overflow; also if a group id is outside ``[0, n_groups)`` or the lengths differ.

        >>> values = np.array([3.0, 1.0, -2.0, 5.0])
        >>> groups = np.array([1, 0, 1, 1])
        >>> a, b, empty = Aggregate.from_groups(values, groups, 3)
        >>> (a.count, a.mean), (b.count, b.mean, b.minimum, b.maximum), empty.count
        ((1, 1.0), (3, 2.0, -2.0, 5.0), 0)
        >>> b.sketch == Aggregate.from_array(np.array([3.0, -2.0, 5.0])).sketch
        True
        >>> empty == Aggregate()
        True
        """
        x = np.asarray(values, dtype=np.float64).ravel()
        g = np.asarray(groups)
        if g.dtype.kind not in "iu":
            raise ValueError(f"group ids must be integers, got dtype {g.dtype}")
        g = g.astype(np.intp, copy=False).ravel()
        n = operator.index(n_groups)
        prototype = QuantileSketch(relative_accuracy)
        if g.size != x.size:
            raise ValueError(f"{x.size} values but {g.size} group ids")
        if n < 0:
            raise ValueError(f"n_groups must be >= 0, got {n}")
        if x.size == 0:
            return [cls(sketch=prototype._with_bins({}, {}, 0, 0)) for _ in range(n)]
        if int(g.min()) < 0 or int(g.max()) >= n:
            raise ValueError(f"group ids must be in [0, {n})")
        if not np.isfinite(x).all():
            raise ValueError("Aggregate accepts finite values only")

        # count, total and m2 (two passes: the group means, then the deviations)
        counts = np.bincount(g, minlength=n)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
            totals = np.bincount(g, weights=x, minlength=n)
            if not np.isfinite(totals).all():
                raise ValueError("Aggregate: the sum of the values overflows")
            deviations = x - (totals / np.maximum(counts, 1))[g]
            m2s = np.bincount(g, weights=deviations * deviations, minlength=n)
        if not np.isfinite(m2s).all():
            raise ValueError("Aggregate: the sum of squared deviations overflows")
        minima = np.full(n, math.inf)
        np.minimum.at(minima, g, x)
        maxima = np.full(n, -math.inf)
        np.maximum.at(maxima, g, x)

        # the sketches' buckets: ONE sort of (group, sign, key) codes for all groups
        magnitudes = np.abs(x)
        nonzero = magnitudes >= ZERO_THRESHOLD  # the sketch's zero bucket holds the rest
        g_nonzero = g[nonzero]
        zeros = counts - np.bincount(g_nonzero, minlength=n)
        if g_nonzero.size:
            # exactly QuantileSketch.add_many's key computation, so the same buckets
            keys = np.ceil(np.log(magnitudes[nonzero]) / prototype._log_gamma).astype(np.int64)
            slots = 2 * g_nonzero + (x[nonzero] < 0.0)  # (group, positive|negative store)
            slot_of_bucket, bucket_keys, bucket_counts = _buckets(slots, keys, 2 * n)
            store_sizes = np.bincount(slot_of_bucket, minlength=2 * n).reshape(n, 2).tolist()
            buckets = zip(bucket_keys.tolist(), bucket_counts.tolist(), strict=True)
        else:
            store_sizes = [[0, 0]] * n
            buckets = zip((), (), strict=True)

        # buckets are sorted by (group, store, key): each store takes the next ones
        out: list[Aggregate] = []
        for count, total, m2, low, high, zero, (n_pos, n_neg) in zip(
            counts.tolist(),
            totals.tolist(),
            m2s.tolist(),
            minima.tolist(),
            maxima.tolist(),
            zeros.tolist(),
            store_sizes,
            strict=True,
        ):
            positive = dict(itertools.islice(buckets, n_pos)) if n_pos else {}
            negative = dict(itertools.islice(buckets, n_neg)) if n_neg else {}
            sketch = prototype._with_bins(positive, negative, zero, count)
            out.append(cls(count, total, m2, low, high, sketch))
        return out

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


def _buckets(
    slots: npt.NDArray[np.intp], keys: npt.NDArray[np.int64], n_slots: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct ``(slot, key)`` pairs sorted by slot then key, as (slots, keys,
    counts): one ``np.unique`` over ``slot * span + key - low`` codes, or a lexsort when
    those codes would overflow int64 (tiny accuracies with extreme magnitudes)."""
    low = int(keys.min())
    span = int(keys.max()) - low + 1
    if n_slots * span <= 2**63 - 1:
        codes = slots.astype(np.int64) * span + (keys - low)
        unique, counts = np.unique(codes, return_counts=True)
        unique_slots = unique // span
        return unique_slots, unique - unique_slots * span + low, counts
    order = np.lexsort((keys, slots))
    sorted_slots, sorted_keys = slots[order].astype(np.int64), keys[order]
    first = np.empty(order.size, dtype=np.bool_)
    first[0] = True
    np.not_equal(sorted_slots[1:], sorted_slots[:-1], out=first[1:])
    first[1:] |= sorted_keys[1:] != sorted_keys[:-1]
    starts = np.flatnonzero(first)
    return sorted_slots[starts], sorted_keys[starts], np.diff(starts, append=order.size)
