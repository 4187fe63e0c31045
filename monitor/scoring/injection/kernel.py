"""The compiled kernel of the injection detector, when it was built.

``_kernel.c`` (built by ``setup.py`` when the package is installed; optional) holds the
two loops that dominate the detector's time on ASCII text: the model's logit and the word
set of the pattern stage. Each has a Python version with the same results, which runs
when :data:`KERNEL` is None (a machine without a C compiler) and for other text; the
tests compare the two.
"""

from __future__ import annotations

__all__ = ["KERNEL"]

try:
    from monitor.scoring.injection import _kernel as KERNEL
except ImportError:  # pragma: no cover - built wherever the tests run
    KERNEL = None  # type: ignore[assignment]
