"""The compiled parts (optional: where they cannot be built, the same results are computed
in Python, more slowly):

- ``monitor/scoring/injection/_kernel.c``: the injection detector's hot loops;
- ``monitor/scoring/_automaton.c``: many strings looked for in one pass (an Aho-Corasick
  automaton): the indirect pre-check's anchors;
- ``monitor/scoring/_tfidf.c``: context quality's TF-IDF redundancy over all pairs at once;
- ``monitor/scoring/_tokens.c``: the 003 scorers' tokens (of ASCII and typeset prose) and
  the trigram records context quality compares;
- ``monitor/scoring/_marks.c``: spec 000's run counts over character classes;
- ``monitor/scoring/leakage/_verbatim.c``: the answer's word runs copied from the context;
- ``monitor/scoring/_untracked.c``: the chunk cache's containers kept out of the garbage
  collector's sight.

All are compiled without floating-point contraction: a fused multiply-add rounds
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
            "monitor.scoring._automaton",
            ["monitor/scoring/_automaton.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring._tokens",
            ["monitor/scoring/_tokens.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring._marks",
            ["monitor/scoring/_marks.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring._tfidf",
            ["monitor/scoring/_tfidf.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring._untracked",
            ["monitor/scoring/_untracked.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "monitor.scoring.leakage._verbatim",
            ["monitor/scoring/leakage/_verbatim.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
    ]
)
