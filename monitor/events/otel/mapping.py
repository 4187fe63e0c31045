"""One assembled trace to a :class:`~monitor.events.rag_event.RagEvent`. Pure.

Two attribute conventions are read (README, "OpenTelemetry traces in", has the full table):

- **OpenInference** (Arize Phoenix, OpenInference instrumentations): the span kind in
  ``openinference.span.kind`` (``RETRIEVER``, ``RERANKER``, ``LLM``, ``GUARDRAIL``, ...);
  ``input.value`` / ``output.value``; ``retrieval.documents.N.document.{id,content,score,
  metadata}``; ``reranker.output_documents.N.document.*``;
  ``llm.input_messages.N.message.{role,content}`` and ``llm.output_messages.*``;
  ``llm.model_name``, ``llm.provider``, ``llm.token_count.{prompt,completion,total}``.
- **OpenTelemetry GenAI** semantic conventions: ``gen_ai.operation.name`` (``retrieval``,
  ``chat``, ``text_completion``, ``generate_content``); ``gen_ai.retrieval.query.text``,
  ``gen_ai.retrieval.documents`` (JSON: ``id``, ``score``, ``content``);
  ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (JSON messages with ``parts``), also
  on a ``gen_ai.client.inference.operation.details`` span event; the older
  ``gen_ai.content.prompt`` / ``gen_ai.content.completion`` events (``gen_ai.prompt`` /
  ``gen_ai.completion``), ``gen_ai.user.message`` / ``gen_ai.choice`` events and the flattened
  ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*``; ``gen_ai.request.model``,
  ``gen_ai.response.model``, ``gen_ai.provider.name`` (``gen_ai.system``),
  ``gen_ai.usage.{input,output}_tokens`` (``prompt``/``completion`` before 1.27).

The trace id (hex) is the event id; the root span's start is the event time; latencies come
from span times (the union of the spans of each stage, so parallel spans are not counted
twice). A trace with neither a retriever nor an LLM span is ``not_a_rag_trace``, one whose
query cannot be found ``missing_query``: both raise :class:`~monitor.errors.EventError`.

>>> from monitor.events.otel.span import OtelSpan
>>> root = OtelSpan("ab" * 16, "01" * 8, None, "rag", 1_700_000_000_000_000_000,
...     1_700_000_001_200_000_000, {"openinference.span.kind": "CHAIN",
...     "input.value": "How many vacation days?", "output.value": "15 days."})
>>> retriever = OtelSpan("ab" * 16, "02" * 8, "01" * 8, "retrieve", 1_700_000_000_000_000_000,
...     1_700_000_000_300_000_000, {"openinference.span.kind": "RETRIEVER",
...     "retrieval.documents.0.document.id": "hr-1",
...     "retrieval.documents.0.document.content": "Employees get 15 days.",
...     "retrieval.documents.0.document.score": 0.8})
>>> event = map_trace([root, retriever])
>>> event.event_id == "ab" * 16, event.query.text, event.response.text
(True, 'How many vacation days?', '15 days.')
>>> [(c.chunk_id, c.score) for c in event.chunks], event.latency_ms.retrieve
([('hr-1', 0.8)], 300.0)
>>> map_trace([OtelSpan("ab" * 16, "01" * 8, None, "GET /healthz", 0, 1)])
Traceback (most recent call last):
monitor.errors.EventError: validate/not_a_rag_trace: the trace has no retriever, reranker \
or LLM span (OpenInference or gen_ai conventions)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from monitor.errors import EventError
from monitor.events.otel.span import OtelSpan, SpanEvent
from monitor.events.rag_event import RagEvent

__all__ = ["SpanKind", "map_trace", "span_kind"]

SpanKind = str
"""``retriever``, ``reranker``, ``llm``, ``guardrail``, ``embedding`` or ``other``."""

OI_KIND = "openinference.span.kind"
GEN_AI_OPERATION = "gen_ai.operation.name"
_LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
_GEN_AI_MODEL_HINTS = ("gen_ai.request.model", "gen_ai.provider.name", "gen_ai.system")
QUERY_KEYS = ("query", "question", "input", "query_str", "user_input", "prompt", "text")
ANSWER_KEYS = ("response", "answer", "output", "result", "text", "content", "completion")
DOCUMENT_ID_METADATA = ("document_id", "doc_id", "ref_doc_id")
"""Metadata keys of a retrieved document that name its document (``chunk_id`` is the
retrieved item's own id)."""
LABEL_ATTRIBUTES = {
    "tenant": "ragmon.tenant",
    "application": "ragmon.application",
    "experiment": "ragmon.experiment",
    "variant": "ragmon.variant",
}


@dataclass(frozen=True)
class _Message:
    role: str
    text: str


# -- values --------------------------------------------------------------------------------
def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _count(value: Any) -> int | None:
    number = _number(value)
    if number is None or not math.isfinite(number) or number < 0:
        return None
    return int(number)


def _json(value: Any) -> Any:
    """A structured value, or a JSON string parsed (``None`` when it is neither)."""
    if isinstance(value, list | dict):
        return value
    if isinstance(value, str) and value[:1] in ("[", "{", '"'):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return None


def _unwrap(value: Any, keys: Sequence[str], mime_type: Any = None) -> str | None:
    """The text in an ``input.value`` / ``output.value``: the value itself, or, when it is
    JSON, the string it holds or the first of ``keys`` of the object it holds."""
    text = _text(value)
    if text is None:
        return None
    parsed = _json(text) if mime_type == "application/json" or text[:1] in '{"' else None
    if parsed is None:
        return None if mime_type == "application/json" else text
    if isinstance(parsed, str):
        return _text(parsed)
    if isinstance(parsed, dict):
        for key in keys:
            found = _text(parsed.get(key))
            if found is not None:
                return found
    return None


def _indexed(attributes: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """Flattened list attributes (``prefix.N.rest``) as a list of ``{rest: value}`` in index
    order; a structured list (``prefix`` itself a list of objects) is read too."""
    by_index: dict[int, dict[str, Any]] = {}
    start = prefix + "."
    for key, value in attributes.items():
        if key.startswith(start):
            index, _, rest = key[len(start) :].partition(".")
            if rest and index.isdigit() and index.isascii():
                by_index.setdefault(int(index), {})[rest] = value
    items = [by_index[i] for i in sorted(by_index)]
    structured = attributes.get(prefix)
    if not items and isinstance(structured, list):
        items = [_flatten(item) for item in structured if isinstance(item, dict)]
    return items


def _flatten(node: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if isinstance(value, dict):
            out |= _flatten(value, f"{prefix}{key}.")
        else:
            out[f"{prefix}{key}"] = value
    return out


# -- span kinds ----------------------------------------------------------------------------
def span_kind(span: OtelSpan) -> SpanKind:
    """The RAG stage a span stands for.

    >>> span_kind(OtelSpan("ab" * 16, "01" * 8, None, "chat gpt-4o", 0, 1,
    ...     {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"}))
    'llm'
    """
    attributes = span.attributes
    kind = attributes.get(OI_KIND)
    kind = kind.upper() if isinstance(kind, str) else None
    operation = attributes.get(GEN_AI_OPERATION)
    if (
        kind == "RETRIEVER"
        or operation == "retrieval"
        or "gen_ai.retrieval.documents" in attributes
        or (kind is None and any(k.startswith("retrieval.documents") for k in attributes))
    ):
        return "retriever"
    if kind == "RERANKER":
        return "reranker"
    if kind == "LLM" or operation in _LLM_OPERATIONS:
        return "llm"
    if kind == "GUARDRAIL":
        return "guardrail"
    if kind == "EMBEDDING" or operation == "embeddings":
        return "embedding"
    if kind is None and operation is None and any(h in attributes for h in _GEN_AI_MODEL_HINTS):
        return "llm"
    return "other"


# -- documents -----------------------------------------------------------------------------
def _chunk(
    chunk_id: Any, content: Any, score: Any, metadata: Any, *, rerank: bool = False
) -> dict[str, Any]:
    meta = _json(metadata)
    meta = meta if isinstance(meta, dict) else {}
    cid = chunk_id if isinstance(chunk_id, str) and chunk_id else None
    doc = next((meta[k] for k in DOCUMENT_ID_METADATA if isinstance(meta.get(k), str)), cid)
    chunk: dict[str, Any] = {
        "chunk_id": cid,
        "document_id": doc,
        "content": content if isinstance(content, str) else "",
        "metadata": meta,
    }
    value = _number(score)
    if value is not None:
        chunk["rerank_score" if rerank else "score"] = value
    return chunk


def _documents(span: OtelSpan, prefix: str, *, rerank: bool = False) -> list[dict[str, Any]]:
    chunks = [
        _chunk(
            d.get("document.id"),
            d.get("document.content"),
            d.get("document.score"),
            d.get("document.metadata"),
            rerank=rerank,
        )
        for d in _indexed(span.attributes, prefix)
    ]
    if not chunks and not rerank:
        documents = _json(span.attributes.get("gen_ai.retrieval.documents"))
        for d in documents if isinstance(documents, list) else []:
            if isinstance(d, dict):
                content = d.get("content", d.get("text"))
                chunks.append(_chunk(d.get("id"), content, d.get("score"), d.get("metadata")))
    return chunks


def _chunks(retrievers: Sequence[OtelSpan], rerankers: Sequence[OtelSpan]) -> list[dict[str, Any]]:
    """Every retriever's documents in order; when a reranker reordered them, its output
    (with ``rerank_score``, and the retriever's ``score`` of the same id)."""
    retrieved = [c for span in retrievers for c in _documents(span, "retrieval.documents")]
    for span in reversed(rerankers):  # the last reranker decides the final order
        reranked = _documents(span, "reranker.output_documents", rerank=True)
        if reranked:
            scores = {c["chunk_id"]: c.get("score") for c in retrieved if c["chunk_id"]}
            for c in reranked:
                if scores.get(c["chunk_id"]) is not None:
                    c["score"] = scores[c["chunk_id"]]
            return reranked
    return retrieved


# -- messages ------------------------------------------------------------------------------
def _oi_messages(attributes: dict[str, Any], prefix: str) -> list[_Message]:
    messages = []
    for m in _indexed(attributes, prefix):
        text = _text(m.get("message.content"))
        if text is None:  # multi-part content: message.contents.N.message_content.text
            parts = [
                v
                for k, v in sorted(m.items())
                if k.startswith("message.contents.") and k.endswith(".message_content.text")
            ]
            text = "\n".join(p for p in parts if isinstance(p, str)) or None
        if text is not None:
            messages.append(_Message(str(m.get("message.role") or ""), text))
    return messages


def _gen_ai_messages(value: Any, default_role: str) -> list[_Message]:
    """``gen_ai.input.messages`` / ``output.messages`` (``parts``), or the older
    ``[{"role", "content"}]`` of ``gen_ai.prompt`` / ``gen_ai.completion``; plain text is
    one message."""
    parsed = _json(value)
    if parsed is None:
        text = _text(value)
        return [] if text is None else [_Message(default_role, text)]
    if isinstance(parsed, dict | str):
        parsed = [parsed]
    messages = []
    for m in parsed if isinstance(parsed, list) else []:
        if isinstance(m, str) and m.strip():
            messages.append(_Message(default_role, m))
            continue
        if not isinstance(m, dict):
            continue
        nested = m.get("message")
        inner: dict[str, Any] = nested if isinstance(nested, dict) else m
        texts = [inner.get("content")] if isinstance(inner.get("content"), str) else []
        for part in inner.get("parts") or []:
            if isinstance(part, dict) and part.get("type", "text") == "text":
                texts.append(part.get("content", part.get("text")))
        text = "\n".join(t for t in texts if isinstance(t, str) and t)
        if text.strip():
            messages.append(_Message(str(inner.get("role") or default_role), text))
    return messages


_INPUT_EVENTS = {"gen_ai.user.message": "user", "gen_ai.system.message": "system"}
_OUTPUT_EVENTS = {"gen_ai.choice": "assistant"}


def _event_messages(events: Iterable[SpanEvent], output: bool) -> list[_Message]:
    messages: list[_Message] = []
    for e in events:
        a = e.attributes
        if e.name == "gen_ai.client.inference.operation.details":
            key = "gen_ai.output.messages" if output else "gen_ai.input.messages"
            messages += _gen_ai_messages(a.get(key), "assistant" if output else "user")
        elif e.name == ("gen_ai.content.completion" if output else "gen_ai.content.prompt"):
            key = "gen_ai.completion" if output else "gen_ai.prompt"
            messages += _gen_ai_messages(a.get(key), "assistant" if output else "user")
        elif e.name in (_OUTPUT_EVENTS if output else _INPUT_EVENTS):
            role = (_OUTPUT_EVENTS if output else _INPUT_EVENTS)[e.name]
            body = a.get("gen_ai.event.content", a.get("content"))
            messages += _gen_ai_messages(body, role)
    return messages


def _messages(span: OtelSpan, output: bool) -> list[_Message]:
    """An LLM span's input (or output) messages, from whichever convention it uses."""
    a = span.attributes
    side = "output" if output else "input"
    role = "assistant" if output else "user"
    for found in (
        _oi_messages(a, f"llm.{side}_messages"),
        _gen_ai_messages(a.get(f"gen_ai.{side}.messages"), role),
        _event_messages(span.events, output),
        _gen_ai_messages(a.get("gen_ai.completion" if output else "gen_ai.prompt"), role),
        _oi_messages(
            {
                k.replace(".role", ".message.role").replace(".content", ".message.content"): v
                for k, v in a.items()
            },
            "gen_ai.completion" if output else "gen_ai.prompt",
        ),
    ):
        if found:
            return found
    if output:
        text = _unwrap(a.get("output.value"), ANSWER_KEYS, a.get("output.mime_type"))
        return [] if text is None else [_Message("assistant", text)]
    return []


def _last(messages: Sequence[_Message], role: str) -> str | None:
    for m in reversed(messages):
        if m.role == role or (role == "assistant" and m.role in ("", "model")):
            return m.text
    return None


# -- latency -------------------------------------------------------------------------------
def _union_ms(spans: Iterable[OtelSpan]) -> float | None:
    """Wall time covered by ``spans`` (overlaps counted once), in milliseconds."""
    intervals = sorted((s.start_ns, max(s.start_ns, s.end_ns)) for s in spans)
    if not intervals:
        return None
    total, (start, end) = 0, intervals[0]
    for s, e in intervals[1:]:
        if s > end:
            total, start, end = total + end - start, s, e
        else:
            end = max(end, e)
    return (total + end - start) / 1e6


# -- the event -----------------------------------------------------------------------------
def _depths(spans: Sequence[OtelSpan]) -> dict[str, int]:
    parent = {s.span_id: s.parent_span_id for s in spans}
    depths: dict[str, int] = {}
    for s in spans:
        depth, node, seen = 0, s.parent_span_id, {s.span_id}
        while node is not None and node in parent and node not in seen:
            seen.add(node)
            depth, node = depth + 1, parent[node]
        depths[s.span_id] = depth
    return depths


def _label(root: OtelSpan, name: str) -> str | None:
    key = LABEL_ATTRIBUTES[name]
    value = _text(root.attributes.get(key)) or _text(root.resource.get(key))
    if value is None and name == "application":
        value = _text(root.resource.get("service.name"))
    return value


def _generation(llms: Sequence[OtelSpan]) -> dict[str, Any] | None:
    """Model, provider and token counts over the trace's LLM calls (kept on the event as
    the extra field ``generation``)."""
    if not llms:
        return None
    model = provider = None
    tokens = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    seen = set()
    for span in llms:
        a = span.attributes
        model = (
            _text(a.get("llm.model_name"))
            or _text(a.get("gen_ai.response.model"))
            or _text(a.get("gen_ai.request.model"))
            or model
        )
        provider = (
            _text(a.get("llm.provider"))
            or _text(a.get("gen_ai.provider.name"))
            or _text(a.get("llm.system"))
            or _text(a.get("gen_ai.system"))
            or provider
        )
        counts = {
            "input_tokens": (
                "llm.token_count.prompt",
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.prompt_tokens",
            ),
            "output_tokens": (
                "llm.token_count.completion",
                "gen_ai.usage.output_tokens",
                "gen_ai.usage.completion_tokens",
            ),
            "total_tokens": ("llm.token_count.total", "gen_ai.usage.total_tokens"),
        }
        found = {}
        for name, keys in counts.items():
            value = next((c for c in (_count(a.get(k)) for k in keys) if c is not None), None)
            if value is not None:
                found[name] = value
        if "total_tokens" not in found and {"input_tokens", "output_tokens"} & set(found):
            found["total_tokens"] = found.get("input_tokens", 0) + found.get("output_tokens", 0)
        for name, value in found.items():
            tokens[name] += value
            seen.add(name)
    out: dict[str, Any] = {"calls": len(llms), "model": model, "provider": provider}
    out |= {name: tokens[name] for name in sorted(seen)}
    return out


def map_trace(spans: Sequence[OtelSpan]) -> RagEvent:
    """The ``RagEvent`` of one trace (all its spans), or ``EventError`` with the reason."""
    if not spans:
        raise EventError("validate", "not_a_rag_trace", None, "the trace has no spans")
    depths = _depths(spans)
    ordered = sorted(spans, key=lambda s: (depths[s.span_id], s.start_ns))
    root = next((s for s in ordered if s.is_root), ordered[0])
    kinds = {s.span_id: span_kind(s) for s in spans}

    def of(kind: str) -> list[OtelSpan]:
        return sorted((s for s in spans if kinds[s.span_id] == kind), key=lambda s: s.start_ns)

    retrievers, rerankers, llms, guards = (
        of("retriever"),
        of("reranker"),
        of("llm"),
        of("guardrail"),
    )
    if not (retrievers or rerankers or llms):
        raise EventError(
            "validate",
            "not_a_rag_trace",
            None,
            "the trace has no retriever, reranker or LLM span"
            " (OpenInference or gen_ai conventions)",
        )
    outer = [s for s in ordered if kinds[s.span_id] in ("other", "guardrail")]

    query = next(
        (
            q
            for s in outer
            if (
                q := _unwrap(
                    s.attributes.get("input.value"), QUERY_KEYS, s.attributes.get("input.mime_type")
                )
            )
        ),
        None,
    )
    for s in retrievers + rerankers:
        if query is None:
            a = s.attributes
            query = (
                _unwrap(a.get("input.value"), QUERY_KEYS, a.get("input.mime_type"))
                or _text(a.get("gen_ai.retrieval.query.text"))
                or _text(a.get("reranker.query"))
            )
    for s in llms:
        if query is None:
            query = _last(_messages(s, output=False), "user")
    if query is None:
        raise EventError(
            "validate",
            "missing_query",
            "query.text",
            "no span carries the query (input.value, gen_ai.retrieval.query.text or a user "
            "message of an LLM span)",
        )

    answer = next(
        (
            t
            for s in outer
            if (
                t := _unwrap(
                    s.attributes.get("output.value"),
                    ANSWER_KEYS,
                    s.attributes.get("output.mime_type"),
                )
            )
        ),
        None,
    )
    for s in sorted(llms, key=lambda s: s.end_ns, reverse=True):
        if answer is None:
            answer = _last(_messages(s, output=True), "assistant")

    first_llm_ns = llms[0].start_ns if llms else None
    latency: dict[str, float] = {}
    stages = {
        "retrieve": retrievers,
        "rerank": rerankers,
        "generate": llms,
        "guardrail_input": [g for g in guards if first_llm_ns is None or g.start_ns < first_llm_ns],
        "guardrail_output": [
            g for g in guards if first_llm_ns is not None and g.start_ns >= first_llm_ns
        ],
    }
    for name, stage in stages.items():
        value = _union_ms(stage)
        if value is not None:
            latency[name] = value
    if root.is_root:
        latency["total"] = root.duration_ms
    else:  # the root never came: the time the spans we have cover, end to end
        latency["total"] = (max(s.end_ns for s in spans) - min(s.start_ns for s in spans)) / 1e6

    body: dict[str, Any] = {
        "schema_version": "1",
        "event_id": root.trace_id,
        "timestamp_ms": (root.start_ns if root.is_root else min(s.start_ns for s in spans))
        // 1_000_000,
        "query": {"text": query},
        "chunks": _chunks(retrievers, rerankers),
        "latency_ms": latency,
        "otel": {"span_count": len(spans), "root_span": root.is_root},
    }
    for name in LABEL_ATTRIBUTES:
        label = _label(root, name)
        if label is not None:
            body[name] = label
    if answer is not None:
        body["response"] = {"text": answer}
    generation = _generation(llms)
    if generation is not None:
        body["generation"] = generation
    try:
        return RagEvent.model_validate(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join("*" if isinstance(p, int) else str(p) for p in first["loc"]) or None
        raise EventError("validate", "invalid_value", where, first["msg"]) from None
