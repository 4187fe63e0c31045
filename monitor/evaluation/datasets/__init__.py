"""Offline evaluation datasets: three file formats in, one list of ``EvalCase`` out. Pure.

:func:`load_dataset` reads a spec 003 fixtures directory (``cases.jsonl`` and the
perspective label files joined by ``case_id``), a spec 002 ``EvalDataset`` JSON file, or
recorded ``RagEvent`` JSON lines with ``labels``, and returns a :class:`LoadedDataset`
of :class:`EvalCase` s whose ``labels`` are the stream's ``Labels``, so ``ragmon eval``
runs the stream's scorers on :meth:`EvalCase.labelled_event`. An invalid record raises
:class:`DatasetError` (``FILE:LINE: field FIELD: reason``) unless ``skip_invalid=True``.

One module per thing: :mod:`.case` (``EvalCase`` and which source field fills which
field), :mod:`.loaded_dataset`, :mod:`.dataset_error`, :mod:`.fixtures_dir` with
:mod:`.label_records`, :mod:`.eval_dataset`, :mod:`.recorded_events`, :mod:`.loader`;
:mod:`.json_lines`, :mod:`.json_positions` and :mod:`.invalid_records` are helpers.
"""

from monitor.evaluation.datasets.case import (
    ATTACK_CATEGORIES,
    LEAKAGE_KINDS,
    PERSPECTIVES,
    AttackCategory,
    EvalCase,
    LeakageCategory,
    Perspective,
    implied_perspectives,
)
from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.evaluation.datasets.eval_dataset import EvalDataset, EvalQuery, load_eval_dataset
from monitor.evaluation.datasets.fixtures_dir import load_fixtures_dir
from monitor.evaluation.datasets.loaded_dataset import DatasetFormat, LoadedDataset
from monitor.evaluation.datasets.loader import detect_format, load_dataset
from monitor.evaluation.datasets.recorded_events import load_recorded_events

__all__ = [
    "ATTACK_CATEGORIES",
    "LEAKAGE_KINDS",
    "PERSPECTIVES",
    "AttackCategory",
    "DatasetError",
    "DatasetFormat",
    "EvalCase",
    "EvalDataset",
    "EvalQuery",
    "LeakageCategory",
    "LoadedDataset",
    "Perspective",
    "detect_format",
    "implied_perspectives",
    "load_dataset",
    "load_eval_dataset",
    "load_fixtures_dir",
    "load_recorded_events",
]
