"""The one error the judge raises on purpose.

>>> err = JudgeError("rejected", "HTTP 401 from the judge: invalid key", status=401)
>>> (err.reason, err.status, str(err))
('rejected', 401, 'rejected: HTTP 401 from the judge: invalid key')
>>> isinstance(err, MonitorError)
True
"""

from __future__ import annotations

from monitor.errors import MonitorError

__all__ = ["JudgeError"]


class JudgeError(MonitorError):
    """A judgement that could not be obtained.

    ``reason`` is a short snake_case code (low cardinality): ``rejected`` (a status that
    retrying would not fix: a wrong key, an unknown model, a rejected ``response_format``;
    ``status`` holds it), ``bad_url`` (the base URL cannot be used),
    ``retries_exhausted`` (connect, timeout, 5xx or 429 until ``max_retries`` ran out),
    ``invalid_output`` (not the JSON the rubric asks for, even after one corrective
    message), ``malformed_response`` (a 2xx answer that is not a chat completion).
    ``detail`` is a human sentence; it never holds the API key.
    """

    def __init__(self, reason: str, detail: str, *, status: int | None = None) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.status = status
