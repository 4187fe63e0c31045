"""Live mode of ``ragmon eval --target URL``: ask a running RAG service every case's
question and turn its replies into ``RagEvent`` s to score.

One module per thing:

* :mod:`.target_config`: :class:`TargetConfig` (the URL, the request template, the
  response map, headers, concurrency, timeouts, retries), checked when made;
* :mod:`.config_file`: :func:`load_target_config` reads it from a JSON file;
  :mod:`.errors`: :class:`TargetConfigError`, ``FILE:LINE: field FIELD: reason``;
* :mod:`.request_template`: the placeholders (``{{query}}``...) and the body of a case;
* :mod:`.response_map`: where the event's fields are in a reply;
* :mod:`.reply_event`: the ``RagEvent`` of a case from its reply;
* :mod:`.target_result`: :class:`TargetResult` (``ok``, ``empty``, ``error``, ``timeout``);
* :mod:`.client`: :func:`call_target`, the concurrent HTTP client with retries.

Nothing happens at import: modules only define things.
"""

from monitor.evaluation.target.client import call_target
from monitor.evaluation.target.config_file import load_target_config
from monitor.evaluation.target.errors import TargetConfigError
from monitor.evaluation.target.request_template import DEFAULT_REQUEST_TEMPLATE, PLACEHOLDERS
from monitor.evaluation.target.response_map import EVENT_PATHS
from monitor.evaluation.target.target_config import TargetConfig
from monitor.evaluation.target.target_result import TargetResult, TargetStatus

__all__ = [
    "DEFAULT_REQUEST_TEMPLATE",
    "EVENT_PATHS",
    "PLACEHOLDERS",
    "TargetConfig",
    "TargetConfigError",
    "TargetResult",
    "TargetStatus",
    "call_target",
    "load_target_config",
]
