"""Scenario traffic for the alert-quality suite: ``RagEvent`` dicts built from real prose
(CPython's ``pydoc_data.topics``), healthy or with injected faults, in simulated time.

- :mod:`bench.scenarios.corpus`: the passages (chunks of 100-200 words) and questions;
- :mod:`bench.scenarios.prompts`: the texts of the faults (injection prompts, leaked
  secrets, abstentions), written for this project;
- :mod:`bench.scenarios.traffic`: the seeded traffic generator and its fault injectors;
- :mod:`bench.scenarios.suite`: the fault suite and the healthy runs through
  ``ragmon backtest``'s engine, and their report.

Pure: no I/O, nothing at import (the corpus is built on first use).
"""
