"""The regression gate of ``ragmon eval --baseline REPORT.json``: compare a report with
its targets and a baseline report, metric by metric, and say whether it may ship.

One module per thing (pure: the only I/O is :func:`load_gate_config` reading its file):

* :mod:`~monitor.evaluation.gate.tolerance`: :class:`Tolerance`, the worsening a metric
  may show, and :func:`default_tolerance`;
* :mod:`~monitor.evaluation.gate.gate_config`: :class:`GateConfig` (targets, by default
  003's table; tolerance overrides; ``alpha``; the bootstrap's settings) and
  :func:`load_gate_config`;
* :mod:`~monitor.evaluation.gate.paired_tests`: exact McNemar, paired t, Welch and the
  paired bootstrap;
* :mod:`~monitor.evaluation.gate.comparison`: :func:`compare`, giving a
  :class:`GateResult` of :class:`GateRow`;
* :mod:`~monitor.evaluation.gate.render`: the result as a text or Markdown table with its
  verdict line;
* :mod:`~monitor.evaluation.gate.json_section`: the result as the JSON report's ``gate``.

>>> sorted(set(__all__) - set(globals())) == []
True
"""

from monitor.evaluation.gate.comparison import (
    FAILING_STATUSES,
    MIN_BOOTSTRAP_CASES,
    DerivedStatistic,
    GateResult,
    GateRow,
    GateStatus,
    GateTest,
    compare,
    min_mcnemar_p,
)
from monitor.evaluation.gate.gate_config import (
    GateConfig,
    GateConfigError,
    load_gate_config,
    parse_target,
)
from monitor.evaluation.gate.json_section import gate_section
from monitor.evaluation.gate.paired_tests import (
    mcnemar_exact,
    paired_bootstrap_p,
    paired_t,
    welch_p,
)
from monitor.evaluation.gate.render import (
    INTERESTING_STATUSES,
    render_gate_markdown,
    render_gate_table,
    verdict,
)
from monitor.evaluation.gate.tolerance import COUNT_LIKE_METRICS, Tolerance, default_tolerance

__all__ = [
    "COUNT_LIKE_METRICS",
    "FAILING_STATUSES",
    "INTERESTING_STATUSES",
    "MIN_BOOTSTRAP_CASES",
    "DerivedStatistic",
    "GateConfig",
    "GateConfigError",
    "GateResult",
    "GateRow",
    "GateStatus",
    "GateTest",
    "Tolerance",
    "compare",
    "default_tolerance",
    "gate_section",
    "load_gate_config",
    "mcnemar_exact",
    "min_mcnemar_p",
    "paired_bootstrap_p",
    "paired_t",
    "parse_target",
    "render_gate_markdown",
    "render_gate_table",
    "verdict",
    "welch_p",
]
