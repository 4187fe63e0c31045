"""The compiled kernel of the injection detector, when it was built.

``_kernel.c`` (built by ``setup.py`` when the package is installed; optional) holds the
loops that dominated the detector's time on ASCII text:

- ``Table``: the model's logit (:func:`.model.logit`; Python: :func:`.model.python_logit`);
- ``ascii_words``: the word set of the pattern stage (:func:`.evidence.tokens_of`;
  Python: :func:`.evidence.python_words`);
- ``spaced_run`` and ``copy_triggers``: whether :func:`.normalisation.copies` can make a
  letter-spacing copy, or any copy (Python: the checks they stand in front of);
- ``plain``: :func:`.normalisation.plain_bytes` of a text without any of its triggers
  (Python: the rest of that function, which also runs when the text may have one).

Each gives what its Python version gives, which runs when :data:`KERNEL` is None (a
machine without a C compiler) and for other text; ``tests/scoring/test_injection_kernel.py``
compares the two.
"""

from __future__ import annotations

__all__ = ["KERNEL"]

try:
    from monitor.scoring.injection import _kernel as KERNEL
except ImportError:  # pragma: no cover - built wherever the tests run
    KERNEL = None  # type: ignore[assignment]
