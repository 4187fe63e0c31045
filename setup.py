"""The compiled parts (optional: where they cannot be built, the same results are computed
in Python, more slowly):

- ``monitor/scoring/injection/_kernel.c``: the injection detector's hot loops;
- ``monitor/scoring/_tfidf.c``: context quality's TF-IDF pair loop.

Both are compiled without floating-point contraction: a fused multiply-add rounds
differently from Python's separate multiply and add. Everything else about the package is
in ``pyproject.toml``.
"""

from setuptools import Extension, setup

_FLAGS = ["-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "monitor.scoring.injection._kernel",
            ["monitor/scoring/injection/_kernel.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring._tfidf",
            ["monitor/scoring/_tfidf.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
    ]
)
