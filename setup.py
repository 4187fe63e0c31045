"""The one compiled part: the injection model's logit (``monitor/scoring/injection/_kernel.c``).

Everything else about the package is in ``pyproject.toml``. The extension is optional: when
it cannot be built, :mod:`monitor.scoring.injection.model` computes the same logit in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "monitor.scoring.injection._kernel",
            ["monitor/scoring/injection/_kernel.c"],
            optional=True,
        )
    ]
)
