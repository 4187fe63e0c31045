"""Seeded generator of realistic ``RagEvent`` v1 traffic for ``ragmon demo``.

The generator simulates a RAG service answering employee questions about a small,
made-up corpus of company policy documents (leave, expenses, IT security, travel,
benefits, onboarding, remote work, acceptable use).  Every event is a JSON-ready
dict in the ``RagEvent`` v1 format of ``DESIGN.md`` section 4.

Traffic belongs to the ``reranker-v2`` experiment.  The ``treatment`` arm retrieves
better context than ``control`` in every way the composite quality score of spec
``000`` measures: higher rerank and vector scores, more distinct documents and
sections, and chunks that cover more of the query's terms.  With ``degrade_after``
the treatment arm collapses after that many events (low scores, all chunks from one
off-topic document), which makes the monitor's alerts fire.

A share of the queries are prompt-injection attempts, about 2 % find no context at
all, and :meth:`TrafficGenerator.malformed` produces the messages a dead-letter
topic exists for.  Everything is deterministic for a given seed and call sequence,
uses only the standard library and does no I/O.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from monitor.demo.corpus import (
    CORPUS,
    CROSS_QUERIES,
    INJECTION_PAYLOADS,
    NO_RESULT_QUERIES,
    Document,
    Section,
)
from monitor.scoring.composite import STOP_WORDS

__all__ = [
    "EXPERIMENT",
    "INJECTION_PAYLOADS",
    "MALFORMED_KINDS",
    "NO_RESULT_QUERIES",
    "TENANTS",
    "VARIANTS",
    "TrafficGenerator",
]

EXPERIMENT = "reranker-v2"
"""The experiment every generated event belongs to."""

VARIANTS: tuple[str, str] = ("control", "treatment")
"""The two arms of :data:`EXPERIMENT`."""

TENANTS: tuple[str, ...] = ("acme", "globex", "initech")
"""Tenants, from the busiest to the quietest."""

_TENANT_WEIGHTS: tuple[float, ...] = (0.6, 0.3, 0.1)
_APPLICATIONS: tuple[str, ...] = ("support-bot", "search")
_APPLICATION_WEIGHTS: tuple[float, ...] = (0.7, 0.3)
_USER_ROLES: tuple[tuple[str, ...], ...] = (
    ("employee",),
    ("employee", "manager"),
    ("contractor",),
    ("employee", "hr-admin"),
)
_USER_ROLE_WEIGHTS: tuple[float, ...] = (0.62, 0.2, 0.1, 0.08)

MALFORMED_KINDS: tuple[str, ...] = (
    "not_json",
    "truncated_json",
    "json_array",
    "missing_query_text",
    "missing_event_id",
    "wrong_type_timestamp",
    "wrong_type_chunks",
    "schema_version_2",
    "oversized",
)
"""Kinds of :meth:`TrafficGenerator.malformed` messages, in the order they cycle."""


@dataclass(frozen=True, slots=True, eq=False)
class _Chunk:
    document: Document
    section_no: int  # 1-based
    chunk_no: int  # 1-based
    content: str
    terms: frozenset[str]

    @property
    def chunk_id(self) -> str:
        return f"{self.document.document_id}-child-{self.section_no:03d}-{self.chunk_no:03d}"

    @property
    def section(self) -> Section:
        return self.document.sections[self.section_no - 1]


@dataclass(frozen=True, slots=True)
class _Query:
    type: str
    text: str
    targets: tuple[tuple[str, int], ...]  # (document_id, 1-based section number)


_WORD = re.compile(r"[a-z0-9$%]+(?:[.,'-][a-z0-9]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _terms(text: str) -> frozenset[str]:
    """Content words of ``text``: lowercase, without stop words or short words."""
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in STOP_WORDS)


def _first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text, maxsplit=1)[0]


def _dumps(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _uuid_like(*parts: object) -> str:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def _build_index() -> tuple[tuple[_Chunk, ...], tuple[_Query, ...]]:
    chunks: list[_Chunk] = []
    queries: list[_Query] = []
    for doc in CORPUS:
        for s_no, section in enumerate(doc.sections, start=1):
            for c_no, content in enumerate(section.chunks, start=1):
                chunks.append(_Chunk(doc, s_no, c_no, content, _terms(content)))
            for qtype, text in section.queries:
                queries.append(_Query(qtype, text, ((doc.document_id, s_no),)))
    by_title = {
        (doc.document_id, section.title): s_no
        for doc in CORPUS
        for s_no, section in enumerate(doc.sections, start=1)
    }
    for qtype, text, targets in CROSS_QUERIES:
        queries.append(_Query(qtype, text, tuple((d, by_title[(d, t)]) for d, t in targets)))
    return tuple(chunks), tuple(queries)


class TrafficGenerator:
    """Deterministic source of ``RagEvent`` v1 messages for the demo.

    ``seed`` fixes the whole sequence.  ``start_ms`` is the first event's timestamp and
    timestamps advance by ``1000 / events_per_s`` milliseconds per event.  About
    ``injection_rate`` of the queries are prompt-injection attempts and about
    ``no_results_rate`` find no context.  :meth:`messages` mixes in about
    ``malformed_rate`` malformed messages.  Once ``degrade_after`` events have been
    generated, the treatment arm's retrieval degrades sharply.

    >>> g = TrafficGenerator(seed=1)
    >>> e = g.event()
    >>> e["schema_version"], e["experiment"]
    ('1', 'reranker-v2')
    >>> e["variant"] in ("control", "treatment")
    True
    >>> TrafficGenerator(seed=1).event() == e
    True
    >>> g.event()["timestamp_ms"] - e["timestamp_ms"]
    5
    >>> g.malformed_with_kind()[0]
    'not_json'
    >>> key, value = next(TrafficGenerator(seed=1, malformed_rate=0.0).messages(1))
    >>> key == e["event_id"].encode()
    True
    >>> value.startswith(b'{"schema_version":"1"')
    True
    """

    MALFORMED_KINDS: tuple[str, ...] = MALFORMED_KINDS

    def __init__(
        self,
        seed: int = 7,
        *,
        start_ms: int = 1_795_353_600_000,
        events_per_s: float = 200.0,
        malformed_rate: float = 0.01,
        injection_rate: float = 0.03,
        degrade_after: int | None = None,
        no_results_rate: float = 0.02,
        oversize_bytes: int = 1_100_000,
    ) -> None:
        if events_per_s <= 0:
            raise ValueError("events_per_s must be positive")
        for name, rate in (
            ("malformed_rate", malformed_rate),
            ("injection_rate", injection_rate),
            ("no_results_rate", no_results_rate),
        ):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} must be within [0, 1]")
        if injection_rate + no_results_rate > 1.0:
            raise ValueError("injection_rate + no_results_rate must not exceed 1")
        if degrade_after is not None and degrade_after < 0:
            raise ValueError("degrade_after must be >= 0 or None")
        if oversize_bytes <= 0:
            raise ValueError("oversize_bytes must be positive")
        self.seed = seed
        self.start_ms = start_ms
        self.events_per_s = events_per_s
        self.malformed_rate = malformed_rate
        self.injection_rate = injection_rate
        self.no_results_rate = no_results_rate
        self.degrade_after = degrade_after
        self.oversize_bytes = oversize_bytes
        self._step_ms = 1000.0 / events_per_s
        self._rng = random.Random(f"{seed}:events")
        self._malformed_rng = random.Random(f"{seed}:malformed")
        self._mix_rng = random.Random(f"{seed}:mix")
        self._chunks, self._queries = _build_index()
        self._by_doc: dict[str, list[_Chunk]] = {}
        self._by_section: dict[tuple[str, int], list[_Chunk]] = {}
        for chunk in self._chunks:
            doc_id = chunk.document.document_id
            self._by_doc.setdefault(doc_id, []).append(chunk)
            self._by_section.setdefault((doc_id, chunk.section_no), []).append(chunk)
        self._doc_ids = tuple(self._by_doc)
        self._events = 0
        self._malformed = 0
        self._injections = 0
        self._no_results = 0

    # ------------------------------------------------------------------ public API

    @property
    def degraded(self) -> bool:
        """Whether the treatment arm has started degrading."""
        return self.degrade_after is not None and self._events >= self.degrade_after

    @property
    def stats(self) -> dict[str, int]:
        """Counts of what has been generated so far."""
        return {
            "events": self._events,
            "injections": self._injections,
            "no_results": self._no_results,
            "malformed": self._malformed,
        }

    def event(self) -> dict[str, object]:
        """The next well-formed ``RagEvent`` v1 as a JSON-ready dict."""
        rng = self._rng
        index = self._events
        treatment_degraded = self.degraded
        roll = rng.random()
        if roll < self.injection_rate:
            kind = "injection"
            self._injections += 1
        elif roll < self.injection_rate + self.no_results_rate:
            kind = "no_results"
            self._no_results += 1
        else:
            kind = "normal"
        event = self._build(
            rng,
            event_id=_uuid_like("ragmon-demo", self.seed, "event", index),
            timestamp_ms=self._timestamp(index),
            kind=kind,
            treatment_degraded=treatment_degraded,
        )
        self._events += 1
        return event

    def malformed_with_kind(self) -> tuple[str, bytes]:
        """The next malformed message and its kind (one of :data:`MALFORMED_KINDS`)."""
        number = self._malformed
        kind = MALFORMED_KINDS[number % len(MALFORMED_KINDS)]
        self._malformed += 1
        rng = self._malformed_rng
        base = self._build(
            rng,
            event_id=_uuid_like("ragmon-demo", self.seed, "malformed", number),
            timestamp_ms=self._timestamp(self._events),
            kind="normal",
            treatment_degraded=False,
        )
        return kind, self._corrupt(kind, base, number, rng)

    def malformed(self) -> bytes:
        """The next malformed message, cycling through :data:`MALFORMED_KINDS`."""
        return self.malformed_with_kind()[1]

    def messages(self, n: int) -> Iterator[tuple[bytes | None, bytes]]:
        """Yield ``n`` ``(key, value)`` pairs ready to produce to the events topic.

        Good events are keyed by their ``event_id``; malformed messages (about
        ``malformed_rate`` of them) have no key.
        """
        for _ in range(n):
            if self._mix_rng.random() < self.malformed_rate:
                yield None, self.malformed()
            else:
                event = self.event()
                yield str(event["event_id"]).encode("utf-8"), _dumps(event)

    # ------------------------------------------------------------------ internals

    def _timestamp(self, index: int) -> int:
        return self.start_ms + math.floor(index * self._step_ms)

    def _build(
        self,
        rng: random.Random,
        *,
        event_id: str,
        timestamp_ms: int,
        kind: str,
        treatment_degraded: bool,
    ) -> dict[str, Any]:
        variant = "treatment" if rng.random() < 0.5 else "control"
        tenant = rng.choices(TENANTS, _TENANT_WEIGHTS)[0]
        application = rng.choices(_APPLICATIONS, _APPLICATION_WEIGHTS)[0]
        roles = list(rng.choices(_USER_ROLES, _USER_ROLE_WEIGHTS)[0])

        mode = "degraded" if variant == "treatment" and treatment_degraded else variant
        payload: str | None = None
        if kind == "no_results":
            query = _Query(rng.choice(("faq", "research")), rng.choice(NO_RESULT_QUERIES), ())
            chunks: list[_Chunk] = []
        else:
            query = rng.choice(self._queries)
            if kind == "injection":
                payload = rng.choice(INJECTION_PAYLOADS)
                if rng.random() < 0.4:
                    query = _Query("faq", payload, ())
                else:
                    query = _Query(query.type, f"{query.text} {payload}", query.targets)
            chunks = self._retrieve(rng, query, mode)

        rerank, vector = self._scores(rng, len(chunks), mode, bool(query.targets))
        chunk_dicts = [
            {
                "chunk_id": c.chunk_id,
                "document_id": c.document.document_id,
                "content": c.content,
                "score": vector[i],
                "rerank_score": rerank[i],
                "metadata": {
                    "section_title": c.section.title,
                    "rel_path": c.document.rel_path,
                    "heading_path": f"{c.document.title} > {c.section.title}",
                },
            }
            for i, c in enumerate(chunks)
        ]
        context_text = "\n\n".join(c.content for c in chunks)

        blocked = payload is not None and rng.random() < 0.5
        response = self._respond(rng, chunks, rerank, mode, blocked=blocked)
        latency = self._latency(rng, variant, len(chunks), str(response["text"]), blocked)
        return {
            "schema_version": "1",
            "event_id": event_id,
            "timestamp_ms": timestamp_ms,
            "tenant": tenant,
            "application": application,
            "experiment": EXPERIMENT,
            "variant": variant,
            "query": {"text": query.text, "type": query.type, "user_roles": roles},
            "chunks": chunk_dicts,
            "context": {"text": context_text, "token_count": len(context_text.split())},
            "response": response,
            "latency_ms": latency,
        }

    def _retrieve(self, rng: random.Random, query: _Query, mode: str) -> list[_Chunk]:
        k = rng.choices((3, 4, 5, 6), (0.32, 0.36, 0.22, 0.1))[0]
        target_docs = {d for d, _ in query.targets}
        if mode == "degraded" or not query.targets:
            # Off-topic: everything from one unrelated document.
            other_docs = [d for d in self._doc_ids if d not in target_docs]
            pool = list(self._by_doc[rng.choice(other_docs)])
            rng.shuffle(pool)
            return pool[:k]

        qterms = _terms(query.text)

        def overlap(c: _Chunk) -> int:
            return len(qterms & c.terms)

        targets = [c for t in query.targets for c in self._by_section[t]]
        if mode == "treatment":
            picked: list[_Chunk] = []
            for t in query.targets:
                section = sorted(self._by_section[t], key=lambda c: (-overlap(c), rng.random()))
                picked.extend(section[:2])
            picked = picked[:k]
            rest = sorted(
                (c for c in self._chunks if c not in picked),
                key=lambda c: (-overlap(c), rng.random()),
            )
            for allow_same_doc, allow_same_section in ((False, False), (True, False), (True, True)):
                for c in rest:
                    if len(picked) >= k:
                        break
                    if c in picked:
                        continue
                    docs = {p.document.document_id for p in picked}
                    sections = {(p.document.document_id, p.section_no) for p in picked}
                    if not allow_same_doc and c.document.document_id in docs:
                        continue
                    if (
                        not allow_same_section
                        and (c.document.document_id, c.section_no) in sections
                    ):
                        continue
                    picked.append(c)
            return picked

        # control: an echo chamber around the primary document, often missing the answer.
        primary = query.targets[0][0]
        picked = [rng.choice(targets)] if rng.random() < 0.6 else []
        same_doc = [c for c in self._by_doc[primary] if c not in picked]
        rng.shuffle(same_doc)
        picked.extend(same_doc[: max(0, k - 1 - len(picked))])
        if rng.random() < 0.5:
            rng.shuffle(picked)
        others = [c for c in self._chunks if c.document.document_id != primary]
        while len(picked) < k:
            c = rng.choice(others if rng.random() < 0.5 else self._by_doc[primary])
            if c not in picked:
                picked.append(c)
        return picked

    @staticmethod
    def _scores(
        rng: random.Random, n: int, mode: str, on_topic: bool
    ) -> tuple[list[float], list[float]]:
        if n == 0:
            return [], []
        if mode == "degraded" or not on_topic:
            top_r, top_v, drop = rng.uniform(0.12, 0.35), rng.uniform(0.2, 0.4), (0.01, 0.05)
        elif mode == "treatment":
            top_r, top_v, drop = rng.uniform(0.8, 0.97), rng.uniform(0.72, 0.9), (0.01, 0.05)
        else:
            top_r, top_v, drop = rng.uniform(0.58, 0.82), rng.uniform(0.55, 0.75), (0.04, 0.12)

        def series(top: float) -> list[float]:
            values = [top]
            for _ in range(n - 1):
                values.append(max(0.01, values[-1] - rng.uniform(*drop)))
            return [round(min(1.0, v), 4) for v in values]

        return series(top_r), series(top_v)

    @staticmethod
    def _respond(
        rng: random.Random,
        chunks: list[_Chunk],
        rerank: list[float],
        mode: str,
        *,
        blocked: bool,
    ) -> dict[str, Any]:
        if not chunks:
            return {
                "text": "I could not find any documents that answer this question.",
                "citations": [],
                "abstained": True,
                "confidence": round(rng.uniform(0.02, 0.15), 3),
                "policy_flags": ["no_context"],
            }
        if blocked:
            return {
                "text": "I can't help with that request. I can answer questions about "
                "company policies.",
                "citations": [],
                "abstained": False,
                "confidence": round(rng.uniform(0.05, 0.3), 3),
                "policy_flags": ["guardrail_blocked"],
            }
        abstain_p = 0.15 if mode == "degraded" else 0.03
        top = chunks[0]
        if rng.random() < abstain_p:
            return {
                "text": f"I could not find a clear answer to that in the {top.document.title}.",
                "citations": [],
                "abstained": True,
                "confidence": round(rng.uniform(0.05, 0.3), 3),
                "policy_flags": [],
            }
        roll = rng.random()
        n_cite = 0 if roll < 0.06 else 1 if roll < 0.6 or len(chunks) < 2 else 2
        cited = chunks[:n_cite] if n_cite else []
        sentences = [_first_sentence(top.content)]
        if n_cite == 2 and _first_sentence(chunks[1].content) != sentences[0]:
            sentences.append(_first_sentence(chunks[1].content))
        lead = f"According to the {top.document.title} ({top.section.title}): "
        text = lead + " ".join(sentences)
        confidence = min(0.99, max(0.05, rerank[0] * 0.9 + rng.uniform(-0.08, 0.08)))
        return {
            "text": text,
            "citations": [
                {"document_id": c.document.document_id, "chunk_id": c.chunk_id} for c in cited
            ],
            "abstained": False,
            "confidence": round(confidence, 3),
            "policy_flags": [],
        }

    @staticmethod
    def _latency(
        rng: random.Random, variant: str, n_chunks: int, answer: str, blocked: bool
    ) -> dict[str, int]:
        retrieve = int(rng.lognormvariate(math.log(70 + 8 * n_chunks), 0.35))
        if variant == "treatment":
            retrieve += int(rng.uniform(20, 45))  # the second-stage reranker
        guardrail_input = rng.randint(2, 7)
        if blocked:
            generate, guardrail_output = 0, 0
        else:
            tokens = len(answer.split())
            generate = int(rng.lognormvariate(math.log(450 + 18 * tokens), 0.3))
            guardrail_output = rng.randint(2, 9)
        total = retrieve + generate + guardrail_input + guardrail_output + rng.randint(3, 25)
        return {
            "retrieve": retrieve,
            "generate": generate,
            "guardrail_input": guardrail_input,
            "guardrail_output": guardrail_output,
            "total": total,
        }

    def _corrupt(self, kind: str, event: dict[str, Any], number: int, rng: random.Random) -> bytes:
        if kind == "not_json":
            texts = (
                f"tenant={event['tenant']} query={event['query']['text']!r} status=ok",
                f"GET /v1/rag/events?id={event['event_id']} HTTP/1.1",
                f"<event id='{event['event_id']}'><query>{event['query']['text']}</query>",
                "Traceback (most recent call last): ValueError: cannot serialize event",
            )
            return texts[(number // len(MALFORMED_KINDS)) % len(texts)].encode("utf-8")
        if kind == "truncated_json":
            raw = _dumps(event)
            cut = rng.randint(len(raw) // 4, (3 * len(raw)) // 4)
            return raw[:cut]
        if kind == "json_array":
            return _dumps([event])
        if kind == "missing_query_text":
            del event["query"]["text"]
        elif kind == "missing_event_id":
            del event["event_id"]
        elif kind == "wrong_type_timestamp":
            event["timestamp_ms"] = rng.choice(("yesterday", "not-a-timestamp", "soon"))
        elif kind == "wrong_type_chunks":
            event["chunks"] = " ".join(str(c["content"]) for c in event["chunks"])
        elif kind == "schema_version_2":
            event["schema_version"] = "2"
        elif kind == "oversized":
            # A runaway chunk: the whole event stays valid JSON but exceeds the size limit.
            event.pop("context", None)
            chunk = event["chunks"][0]
            seed_text = str(chunk["content"]) + " "
            need = self.oversize_bytes - len(_dumps(event)) + 1
            chunk["content"] = seed_text * (need // len(seed_text) + 2)
        else:  # pragma: no cover - MALFORMED_KINDS is exhaustive
            raise AssertionError(kind)
        return _dumps(event)
