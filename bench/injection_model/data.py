"""The labelled texts the injection model is trained, calibrated and evaluated on.

Sources (all written for ragmon, or public text shipped with CPython):

- ``bench/injection_model/corpus.py``: the template families (split by family);
- ``tests/fixtures/injection/dev.jsonl``: hand-written attacks and hard negatives
  (training); ``holdout.jsonl``, ``holdout2.jsonl``, ``holdout3.jsonl`` and
  ``chunks.jsonl``: hand-written, never trained on (holdout);
- the ``ragmon demo`` corpus (``monitor/demo/corpus.py``): policy chunks and the questions
  they answer (benign, training) and its injection payloads (training);
- CPython's documentation topics (``pydoc_data.topics``, as packed by
  ``bench/scenarios/corpus.py``): technical chunks full of "ignore", "override", "system",
  "instructions" and the questions made from them (benign); topics are split by name
  (every third topic, sorted, is holdout).

A row: ``text, label, category, family, mode ("query" | "chunk"), split``. A holdout text
that also occurs in training (the documentation repeats sentences across topics; two
fixtures share a line) is dropped from the holdout.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["FIXTURES", "load_rows"]

Row = dict[str, object]
FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "injection"


def _fixture(name: str, split: str) -> list[Row]:
    out: list[Row] = []
    with (FIXTURES / name).open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if not line.strip():
                continue
            r = json.loads(line)
            if "content" in r:  # chunks.jsonl
                category = "indirect" if r["label"] else "benign_document"
                out.append(_row(r["content"], r["label"], category, f"fx:{name}", "chunk", split))
            else:
                category = r.get("category") or "benign_fixture"
                family = f"fx:{name}:{category}:{n % 5}"
                out.append(_row(r["text"], r["label"], category, family, "query", split))
    return out


def _row(text: str, label: int, category: str, family: str, mode: str, split: str) -> Row:
    return {
        "text": text,
        "label": int(label),
        "category": category,
        "family": family,
        "mode": mode,
        "split": split,
    }


def _demo() -> list[Row]:
    from monitor.demo.corpus import CORPUS, INJECTION_PAYLOADS, NO_RESULT_QUERIES

    out: list[Row] = []
    for doc in CORPUS:
        for section in doc.sections:
            for chunk in section.chunks:
                out.append(
                    _row(chunk, 0, "benign_document", f"demo:{doc.document_id}", "chunk", "train")
                )
            for _, query in section.queries:
                out.append(
                    _row(query, 0, "benign_question", f"demo:{doc.document_id}", "query", "train")
                )
    out += [
        _row(q, 0, "benign_question", "demo:noresult", "query", "train") for q in NO_RESULT_QUERIES
    ]
    out += [
        _row(p, 1, "demo_payload", "demo:payload", "query", "train") for p in INJECTION_PAYLOADS
    ]
    return out


def _pydoc() -> list[Row]:
    from bench.scenarios.corpus import load_corpus

    corpus = load_corpus()
    names = sorted({c.document_id for c in corpus.chunks})
    holdout = set(names[2::3])
    out: list[Row] = []
    for c in corpus.chunks:
        split = "holdout" if c.document_id in holdout else "train"
        out.append(_row(c.content, 0, "benign_document", f"pydoc:{c.document_id}", "chunk", split))
    for q in corpus.questions[::3]:
        doc = corpus.chunks[q.gold].document_id
        split = "holdout" if doc in holdout else "train"
        out.append(_row(q.text, 0, "benign_question", f"pydoc:{doc}", "query", split))
    return out


def load_rows(seed: int = 17) -> list[Row]:
    """Every labelled row, with its split."""
    from bench.injection_model.corpus import rows

    out = list(rows(seed))
    out += _fixture("dev.jsonl", "train")
    for name in ("holdout.jsonl", "holdout2.jsonl", "holdout3.jsonl", "chunks.jsonl"):
        out += _fixture(name, "holdout")
    out += _demo()
    out += _pydoc()
    trained = {r["text"] for r in out if r["split"] == "train"}
    seen: set[object] = set()
    kept = []
    for r in out:  # a holdout text that is also a training text (or a repeat) is dropped
        if r["split"] == "holdout" and (r["text"] in trained or r["text"] in seen):
            continue
        seen.add(r["text"])
        kept.append(r)
    return kept
