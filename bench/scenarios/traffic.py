"""Seeded ``RagEvent`` traffic over simulated time, healthy or with faults.

A RAG service answers questions about the Python language reference
(:mod:`bench.scenarios.corpus`). Arrivals are a Poisson process of ``events_per_s``;
tenants, applications and variants are drawn per event. Healthy traffic retrieves the
gold chunk (first 85 % of the time, else second) with its nearest neighbours, rerank and
vector scores descending in [0, 1]; the answer quotes the gold chunk's sentence (and
sometimes a second one) and cites the chunk(s) it quotes. In the background, as in real
traffic: 1 % of questions are out of scope (no chunks, the service abstains), 2 % of
answers abstain, 0.3 % of queries are injection attempts (most blocked).

A :class:`Fault` changes the events whose time falls in ``[start_ms, end_ms)``:

| kind | what changes | expected perspective |
|---|---|---|
| ``retrieval_broken`` | unrelated chunks, rerank scores 0.08-0.3; half the answers abstain, the rest answer from the wrong chunks | retrieval |
| ``reranker_disabled`` | no rerank scores; first-stage order (vector scores not descending, gold chunk at rank 3-5) with near-duplicate chunks | context_quality |
| ``generator_off_context`` | retrieval healthy; fluent answers taken from an unrelated passage, citing the retrieved chunks | groundedness |
| ``abstention_storm`` | 70 % of answerable questions get an abstention | groundedness |
| ``injection_wave`` | 30 % of queries are injection / jailbreak prompts (alone or after a question), 60 % of those blocked | safety |
| ``latency_regression`` | generation latency x3 | pipeline |
| ``leakage`` | 25 % of answers carry an email address or an API-key-shaped secret | safety |
| ``dead_letters`` | 15 % of messages are malformed | pipeline |

A disabled reranker changes what reaches the generator (near-duplicate chunks, the gold
chunk lower in the context) while the first-stage retrieval still finds the right
passages with healthy scores; without relevance labels the signals that move are the
context-quality ones (redundancy, diversity), and the context-quality advice is the one
that names reranking ("check chunking, deduplication and reranking of the retrieved
context"). Its expected perspective is therefore ``context_quality`` (it was
``retrieval`` when the suite was written; changed after the first run of the merged rules,
see the issue 12 note).

>>> t = ScenarioTraffic(seed=1, events_per_s=2.0, duration_ms=60_000)
>>> records = list(t.records())
>>> 80 <= len(records) <= 160, all(a[0] <= b[0] for a, b in zip(records, records[1:]))
(True, True)
>>> e = t.event(t.rng(0), 0, 1_000, ())
>>> e["schema_version"], e["response"]["citations"][0]["chunk_id"] == e["chunks"][0]["chunk_id"]
('1', True)
"""  # noqa: E501

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from bench.scenarios.corpus import Chunk, Corpus, Question, load_corpus
from bench.scenarios.prompts import (
    ABSTENTIONS,
    BLOCKED,
    INJECTIONS,
    LEAKS,
    MALFORMED,
    NO_RESULT_QUESTIONS,
)

__all__ = [
    "EXPECTED_PERSPECTIVE",
    "FAULT_KINDS",
    "START_MS",
    "Fault",
    "FaultKind",
    "ScenarioTraffic",
]

FaultKind = Literal[
    "retrieval_broken",
    "reranker_disabled",
    "generator_off_context",
    "abstention_storm",
    "injection_wave",
    "latency_regression",
    "leakage",
    "dead_letters",
]

EXPECTED_PERSPECTIVE: dict[FaultKind, str] = {
    "retrieval_broken": "retrieval",
    "reranker_disabled": "context_quality",
    "generator_off_context": "groundedness",
    "abstention_storm": "groundedness",
    "injection_wave": "safety",
    "latency_regression": "pipeline",
    "leakage": "safety",
    "dead_letters": "pipeline",
}
"""The perspective the first page of each fault should name (``alert.diagnosis``)."""

FAULT_KINDS: tuple[FaultKind, ...] = tuple(EXPECTED_PERSPECTIVE)

START_MS = 1_767_225_600_000
"""2026-01-01T00:00:00Z: the default start of simulated time (window-aligned)."""

_TENANTS = (("acme", 0.6), ("globex", 0.3), ("initech", 0.1))
_APPLICATIONS = (("docs-assistant", 0.7), ("ide-plugin", 0.3))
_VARIANTS = (("control", 0.5), ("treatment", 0.5))
_USERS = ("dana", "lee", "sam", "kim", "ari")


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    start_ms: int
    end_ms: int

    def active(self, timestamp_ms: int) -> bool:
        return self.start_ms <= timestamp_ms < self.end_ms


def _pick(rng: random.Random, weighted: Sequence[tuple[str, float]]) -> str:
    return rng.choices([v for v, _ in weighted], [w for _, w in weighted])[0]


def _descending(
    rng: random.Random, n: int, top: tuple[float, float], drop: tuple[float, float]
) -> list[float]:
    values = [rng.uniform(*top)]
    for _ in range(n - 1):
        values.append(max(0.01, values[-1] - rng.uniform(*drop)))
    return [round(min(1.0, v), 4) for v in values]


def _event_id(seed: int, index: int) -> str:
    digest = hashlib.sha256(f"scenario:{seed}:{index}".encode()).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


class ScenarioTraffic:
    """``duration_ms`` of traffic from ``start_ms`` at ``events_per_s`` (Poisson), with
    ``faults``; the same seed gives the same records."""

    def __init__(
        self,
        seed: int,
        events_per_s: float,
        duration_ms: int,
        *,
        start_ms: int = START_MS,
        faults: Sequence[Fault] = (),
        corpus: Corpus | None = None,
    ) -> None:
        if events_per_s <= 0:
            raise ValueError("events_per_s must be positive")
        self.seed = seed
        self.events_per_s = events_per_s
        self.start_ms = start_ms
        self.duration_ms = duration_ms
        self.faults = tuple(faults)
        self.corpus = corpus or load_corpus()

    def rng(self, index: int) -> random.Random:
        """The random stream of event ``index`` (so a fault changes only its own events)."""
        return random.Random(f"{self.seed}:{index}")

    def records(self) -> Iterator[tuple[int, bytes]]:
        """``(event time, message)`` in event-time order: what the events topic holds."""
        arrivals = random.Random(f"{self.seed}:arrivals")
        t_ms = float(self.start_ms)
        end = self.start_ms + self.duration_ms
        index = 0
        while True:
            t_ms += arrivals.expovariate(self.events_per_s) * 1000.0
            ts = math.floor(t_ms)
            if ts >= end:
                return
            active = tuple(f.kind for f in self.faults if f.active(ts))
            rng = self.rng(index)
            if "dead_letters" in active and rng.random() < 0.15:
                yield ts, MALFORMED[index % len(MALFORMED)]
            else:
                yield ts, orjson.dumps(self.event(rng, index, ts, active))
            index += 1

    # ------------------------------------------------------------------ one event

    def event(
        self, rng: random.Random, index: int, timestamp_ms: int, faults: Sequence[str]
    ) -> dict[str, Any]:
        """Event ``index`` at ``timestamp_ms`` with the ``faults`` active then."""
        corpus = self.corpus
        roll = rng.random()
        injection_rate = 0.30 if "injection_wave" in faults else 0.003
        question: Question | None = None
        payload: str | None = None
        if roll < injection_rate:
            payload = rng.choice(INJECTIONS)
            if rng.random() < 0.5:
                question = rng.choice(corpus.questions)
                text = f"{question.text} {payload}"
            else:
                text = payload
        elif roll < injection_rate + 0.01:
            text = rng.choice(NO_RESULT_QUESTIONS)
        else:
            question = rng.choice(corpus.questions)
            text = question.text

        if question is None:
            chunks: list[Chunk] = [] if payload is None else self._unrelated(rng, None, 4)
            rerank = _descending(rng, len(chunks), (0.05, 0.2), (0.01, 0.04))
            vector = _descending(rng, len(chunks), (0.15, 0.35), (0.01, 0.04))
        elif "retrieval_broken" in faults:
            chunks = self._unrelated(rng, question, rng.choice((4, 5, 6)))
            rerank = _descending(rng, len(chunks), (0.08, 0.3), (0.01, 0.05))
            vector = _descending(rng, len(chunks), (0.2, 0.4), (0.01, 0.04))
        else:
            chunks = self._healthy(rng, question)
            rerank = _descending(rng, len(chunks), (0.72, 0.96), (0.03, 0.12))
            vector = _descending(rng, len(chunks), (0.6, 0.86), (0.01, 0.06))
        rerank_scores: list[float | None] = list(rerank)
        if "reranker_disabled" in faults and question is not None:
            chunks, vector = self._first_stage(rng, question, chunks)
            rerank_scores = [None] * len(chunks)

        blocked = payload is not None and rng.random() < 0.6
        response = self._respond(rng, question, chunks, rerank, faults, blocked, index)
        answer_tokens = len(str(response["text"]).split())
        latency = self._latency(rng, len(chunks), answer_tokens, blocked, faults)
        return {
            "schema_version": "1",
            "event_id": _event_id(self.seed, index),
            "timestamp_ms": timestamp_ms,
            "tenant": _pick(rng, _TENANTS),
            "application": _pick(rng, _APPLICATIONS),
            "variant": _pick(rng, _VARIANTS),
            "query": {"text": text, "type": "faq"},
            "chunks": [
                {
                    "chunk_id": c.chunk_id,
                    "document_id": c.document_id,
                    "content": c.content,
                    "score": vector[i],
                    **({} if rerank_scores[i] is None else {"rerank_score": rerank_scores[i]}),
                    "metadata": {"title": c.title},
                }
                for i, c in enumerate(chunks)
            ],
            "response": response,
            "latency_ms": latency,
        }

    def _healthy(self, rng: random.Random, question: Question) -> list[Chunk]:
        corpus = self.corpus
        k = rng.choices((4, 5, 6), (0.4, 0.4, 0.2))[0]
        near = list(corpus.neighbours[question.gold][:8])
        picked = sorted(rng.sample(range(len(near)), k - 1))
        others = [corpus.chunks[near[i]] for i in picked]
        gold = corpus.chunks[question.gold]
        if rng.random() < 0.85:
            return [gold, *others]
        return [others[0], gold, *others[1:]]

    def _unrelated(self, rng: random.Random, question: Question | None, k: int) -> list[Chunk]:
        corpus = self.corpus
        avoid: set[int] = set()
        if question is not None:
            avoid = {question.gold, *corpus.neighbours[question.gold]}
            gold_doc = corpus.chunks[question.gold].document_id
        picked: list[Chunk] = []
        while len(picked) < k:
            i = rng.randrange(len(corpus.chunks))
            chunk = corpus.chunks[i]
            if i in avoid or (question is not None and chunk.document_id == gold_doc):
                continue
            avoid.add(i)
            picked.append(chunk)
        return picked

    def _first_stage(
        self, rng: random.Random, question: Question, chunks: list[Chunk]
    ) -> tuple[list[Chunk], list[float]]:
        """What the first-stage retriever returns without the reranker: near-duplicates
        of the top neighbour on top, the gold chunk at rank 3-5, vector scores in its own
        (unsorted) order."""
        gold = self.corpus.chunks[question.gold]
        rest = [c for c in chunks if c is not gold]
        if not rest:
            rest = self._unrelated(rng, question, 2)
        top = rest[0]
        ranked = [top, top, *rest[1:3], *rest[:1]]  # the same passage indexed twice, and more
        ranked.insert(rng.randint(2, min(4, len(ranked))), gold)
        vector = [round(rng.uniform(0.35, 0.7), 4) for _ in ranked]
        return ranked, vector

    def _respond(
        self,
        rng: random.Random,
        question: Question | None,
        chunks: list[Chunk],
        rerank: list[float],
        faults: Sequence[str],
        blocked: bool,
        index: int,
    ) -> dict[str, Any]:
        def abstain(confidence: tuple[float, float] = (0.05, 0.3)) -> dict[str, Any]:
            return {
                "text": rng.choice(ABSTENTIONS),
                "citations": [],
                "abstained": True,
                "confidence": round(rng.uniform(*confidence), 3),
                "policy_flags": [],
            }

        if blocked:
            return {
                "text": BLOCKED,
                "citations": [],
                "abstained": False,
                "confidence": round(rng.uniform(0.05, 0.3), 3),
                "policy_flags": ["guardrail_blocked"],
            }
        if not chunks:
            return {**abstain((0.02, 0.15)), "policy_flags": ["no_context"]}
        abstain_p = 0.02
        if "abstention_storm" in faults:
            abstain_p = 0.7
        elif "retrieval_broken" in faults:
            abstain_p = 0.5
        if rng.random() < abstain_p:
            return abstain()

        gold = None if question is None else self.corpus.chunks[question.gold]
        if "generator_off_context" in faults:
            source = self._unrelated(rng, question, 1)[0]
            cited = chunks[: rng.choice((1, 2))]
        elif (
            gold is not None
            and gold in chunks
            and ("reranker_disabled" not in faults or rng.random() < 0.7)
        ):
            source, cited = gold, [gold]
        else:
            source, cited = chunks[0], [chunks[0]]
        sentences = list(source.sentences) or [" ".join(source.content.split()[:20]) + "."]
        if source is gold and question is not None:
            first = question.sentence
        else:
            first = rng.choice(sentences)
        said = [first]
        # more sentences, never one that follows the previous in the context: an answer
        # never copies 40 consecutive words of it (the leakage scorer's verbatim run)
        context = " ".join(" ".join(c.content for c in chunks).split())

        def follows(a: str, b: str) -> bool:
            return " ".join(f"{a} {b}".split()) in context

        if rng.random() < 0.4:
            second = rng.choice(sentences)
            if second != first and not follows(first, second):
                said.append(second)
            if rng.random() < 0.5 and len(chunks) > 1 and chunks[1].sentences:
                third = rng.choice(chunks[1].sentences)
                if third not in said and not follows(said[-1], third):
                    said.append(third)
                    cited = [*cited, chunks[1]] if chunks[1] not in cited else cited
        text = "According to the Python language reference: " + " ".join(said)
        if "leakage" in faults and rng.random() < 0.25:
            leak = rng.choice(LEAKS).format(user=rng.choice(_USERS), n=index % 97)
            text = f"{text} {leak}"
        confidence = min(0.99, max(0.05, rerank[0] * 0.9 + rng.uniform(-0.08, 0.08)))
        return {
            "text": text,
            "citations": [{"document_id": c.document_id, "chunk_id": c.chunk_id} for c in cited],
            "abstained": False,
            "confidence": round(confidence, 3),
            "policy_flags": [],
        }

    @staticmethod
    def _latency(
        rng: random.Random, n_chunks: int, tokens: int, blocked: bool, faults: Sequence[str]
    ) -> dict[str, int]:
        retrieve = int(rng.lognormvariate(math.log(60 + 8 * n_chunks), 0.3))
        if "reranker_disabled" not in faults:
            retrieve += int(rng.uniform(20, 45))  # the reranker
        guard_in = rng.randint(2, 7)
        generate = guard_out = 0
        if not blocked:
            generate = int(rng.lognormvariate(math.log(450 + 15 * tokens), 0.3))
            if "latency_regression" in faults:
                generate *= 3
            guard_out = rng.randint(2, 9)
        total = retrieve + generate + guard_in + guard_out + rng.randint(3, 20)
        return {
            "retrieve": retrieve,
            "generate": generate,
            "guardrail_input": guard_in,
            "guardrail_output": guard_out,
            "total": total,
        }
