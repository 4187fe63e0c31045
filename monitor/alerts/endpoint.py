"""Where alerts go: one ``AlertEndpoint`` per on-call destination (several at once).

``MONITOR_ALERT_ENDPOINTS`` holds a JSON list of them, for example
``[{"name": "oncall", "kind": "generic", "url": "https://hooks.example/ragmon"}]``.
``name`` is the low-cardinality label used in metrics and logs (never the URL, which may
hold a token); ``kind`` picks the payload format. Generic JSON payloads are signed with
``MONITOR_WEBHOOK_SECRET`` (a ``whsec_...`` secret) as Standard Webhooks prescribes
(headers ``webhook-id``, ``webhook-timestamp``, ``webhook-signature``).

>>> AlertEndpoint(name="am", kind="alertmanager", url="http://127.0.0.1:9093").kind
'alertmanager'
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AlertEndpoint", "EndpointKind"]

EndpointKind = Literal["generic", "alertmanager", "slack"]


class AlertEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z0-9_-]{1,32}$")
    kind: EndpointKind
    url: str
    timeout_s: float = Field(default=5.0, gt=0)
