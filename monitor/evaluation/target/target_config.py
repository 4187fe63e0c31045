"""``TargetConfig``: the live RAG service of ``ragmon eval --target URL`` and how to ask it.

Every case is POSTed to ``url`` as the JSON ``request_template`` with the case's values
put in (:mod:`.request_template`), with ``headers`` (an ``Authorization`` header, say);
the reply's fields are found through ``response_map`` (:mod:`.response_map`; empty: the
reply is ``RagEvent``-shaped). At most ``concurrency`` requests are in flight; each attempt
may take ``timeout_s``; connection errors, timeouts, 408, 429 and 5xx are retried
``max_retries`` times after a full-jitter exponential backoff (``backoff_base_s`` doubling
up to ``backoff_max_s``) or the server's ``Retry-After``. Any other status is not retried.

The config is checked when made: a ``ValueError`` (an :class:`InvalidField`, which names
the field) with a one-line message. Header values and the URL's path and query never
appear in its ``repr`` (they may hold a token).

>>> config = TargetConfig("http://127.0.0.1:8000/query?key=s3cret",
...                       headers={"Authorization": "Bearer sk-1"})
>>> config
TargetConfig(url='http://127.0.0.1:8000/...', headers={'Authorization': '**********'}, concurrency=8, timeout_s=30.0, max_retries=2)
>>> config.origin, config.request_template["query"], config.response_map
('http://127.0.0.1:8000', '{{query}}', {})
>>> for bad in ({"url": "ftp://example.com/x"}, {"url": "http:///x"},
...             {"url": "http://h", "concurrency": 0},
...             {"url": "http://h", "request_template": {"q": "{{foo}}"}}):
...     try:
...         TargetConfig(**bad)
...     except ValueError as exc:
...         print(exc)
url: must be an http(s) URL with a host, got scheme 'ftp'
url: must be an http(s) URL with a host
concurrency: must be an integer >= 1
request_template.q: unknown placeholder {{foo}} (known: {{query}}, {{case_id}}, {{query_type}}, {{user_roles}})
"""  # noqa: E501

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from monitor.config import MASK
from monitor.evaluation.target.request_template import DEFAULT_REQUEST_TEMPLATE, template_problem
from monitor.evaluation.target.response_map import response_map_problem

__all__ = ["InvalidField", "TargetConfig", "url_origin"]

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP header name (RFC 9110)


class InvalidField(ValueError):
    """A config field that cannot be used: ``loc`` is its path (keys and list indices),
    the message ``FIELD: reason``."""

    def __init__(self, loc: tuple[str | int, ...], reason: str) -> None:
        self.loc = loc
        self.field = ".".join(str(part) for part in loc)
        self.reason = reason
        super().__init__(f"{self.field}: {reason}")


def url_origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``: what may be shown of it (no credentials, path
    or query).

    >>> url_origin("https://user:pw@rag.example.com:8443/v1/ask?token=x")
    'https://rag.example.com:8443'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def _url_problem(url: Any) -> str | None:
    if not isinstance(url, str):
        return "must be a string"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"must be an http(s) URL with a host, got scheme {parts.scheme!r}"
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return "must be an http(s) URL with a host, the port is not a number in 0-65535"
    if not parts.hostname:
        return "must be an http(s) URL with a host"
    if any(c.isspace() for c in url):
        return "must be an http(s) URL without white space"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


@dataclass(frozen=True, repr=False)
class TargetConfig:
    """See the module docstring."""

    url: str
    request_template: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_REQUEST_TEMPLATE))
    response_map: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    concurrency: int = 8
    timeout_s: float = 30.0
    max_retries: int = 2
    backoff_base_s: float = 0.2
    backoff_max_s: float = 5.0

    def __post_init__(self) -> None:
        if (problem := _url_problem(self.url)) is not None:
            raise InvalidField(("url",), problem)
        if not _is_int(self.concurrency) or self.concurrency < 1:
            raise InvalidField(("concurrency",), "must be an integer >= 1")
        if not _is_number(self.timeout_s) or self.timeout_s <= 0:
            raise InvalidField(("timeout_s",), "must be a number > 0 (seconds)")
        if not _is_int(self.max_retries) or self.max_retries < 0:
            raise InvalidField(("max_retries",), "must be an integer >= 0")
        for name in ("backoff_base_s", "backoff_max_s"):
            if not _is_number(getattr(self, name)) or getattr(self, name) < 0:
                raise InvalidField((name,), "must be a number >= 0 (seconds)")
        if (found := template_problem(self.request_template)) is not None:
            raise InvalidField(("request_template", *found[0]), found[1])
        if (mapped := response_map_problem(self.response_map)) is not None:
            raise InvalidField(("response_map", *mapped[0]), mapped[1])
        self._check_headers(self.headers)

    @staticmethod
    def _check_headers(headers: Any) -> None:
        if not isinstance(headers, Mapping):
            raise InvalidField(("headers",), "must be a JSON object")
        for name, value in headers.items():
            if not isinstance(name, str) or not _TOKEN.match(name):
                raise InvalidField(("headers", str(name)), "not a valid header name")
            if not isinstance(value, str):
                raise InvalidField(("headers", name), "must be a string")
            if any(c in value for c in "\r\n\0"):  # never quote the value
                raise InvalidField(("headers", name), "the value holds a line break")

    @property
    def origin(self) -> str:
        """``scheme://host[:port]`` of ``url``: what logs and messages may show of it."""
        return url_origin(self.url)

    def __repr__(self) -> str:
        shown = self.origin + ("/..." if self.url.rstrip("/") != self.origin else "")
        headers = dict.fromkeys(self.headers, MASK)
        return (
            f"TargetConfig(url={shown!r}, headers={headers!r}, "
            f"concurrency={self.concurrency}, timeout_s={self.timeout_s}, "
            f"max_retries={self.max_retries})"
        )

    __str__ = __repr__

    def mask(self, text: str) -> str:
        """``text`` with every header value replaced by ``**********`` (a last guard for
        messages built from what a server or a library said)."""
        for value in self.headers.values():
            if len(value) >= 4:
                text = text.replace(value, MASK)
                scheme, _, token = value.partition(" ")
                if token and len(token) >= 4 and scheme.isalpha():
                    text = text.replace(token, MASK)
        return text
