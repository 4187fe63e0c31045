"""Train the injection model and write ``monitor/scoring/injection/model.npz``.

    python -m bench.injection_model.train [--seed 17] [--out PATH]

1. Texts: the training split of :func:`bench.injection_model.data.load_rows` (holdout
   families and holdout files are never read here).
2. Windows (:func:`monitor.scoring.injection.model.windows`) are the training examples. A
   benign text gives all its windows as negatives (each weighted ``1/sqrt(windows)``); an
   attack of one window is a positive; a longer attack is first given all its windows as
   positives (weight ``1/windows``), then, in a second round, only its highest-scoring
   window (multiple-instance learning: the payload sits in one window of a document).
3. L2-regularised logistic regression (L-BFGS) over the features that occur in at least
   two training texts; weights under :data:`MIN_WEIGHT` are dropped. Two models are fitted
   on every text: the query model, and the chunk model, for which a retrieved chunk's
   features also come as ``k:`` copies (what documents need apart from queries; a
   chunk feature's weight is then the sum of the two). Out of fold, with dev3, the chunk
   model blocks 0.600 of the chunk attacks at 1 % benign, against 0.468 with the query
   model's weights; scoring queries with the chunk model's shared weights would block
   0.858 of the query attacks instead of 0.887, and copies for queries too cost them
   more (0.889 -> 0.832, measured before dev3), so queries have no copies. With dev4's
   queries added (its attacks are harder: other languages, pasted payloads, personas),
   out of fold the model blocked 0.859 of the query attacks and 0.565 of the chunk
   attacks at 1 % benign. Trained also on dev5 and on five earlier writers' holdouts
   (holdout4 to holdout8; 13,310 texts), 0.861 and 0.659; also on dev6, holdout9 and
   holdout10 (16,177 texts), 0.863 and 0.671; the shipped model is trained also on dev7
   and holdout11 (17,917 texts): out of fold it blocks 0.873 of the query attacks and
   0.648 of the chunk attacks at 1 % benign (before the cap on the chunk level below).
4. Out-of-fold logits (5 folds, grouped by family so a family is never in its own
   training fold) are combined with the pattern score by a two-feature logistic fit per
   mode (queries; chunks); each mode's threshold is the combined probability that 1 % of
   its benign out-of-fold texts exceed. The detector blocks when the rescaled combination
   reaches 0.5, or when the pattern score by itself reaches a level chosen with the
   threshold so that both together block 1 % of the benign out-of-fold texts (the level
   that blocks the most attacks within that budget). For chunks the level is then capped
   at :data:`CHUNK_LEVEL_MAX`, which may block a little more than 1 % of the benign
   out-of-fold chunks.

Deterministic for a seed (no randomness besides the corpus's and the fold assignment).
"""

from __future__ import annotations

import argparse
import hashlib
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy import optimize, sparse

from bench.injection_model.data import load_rows
from monitor.scoring.injection import BLOCK_THRESHOLD
from monitor.scoring.injection import model as m
from monitor.scoring.injection.normalisation import normalise

__all__ = ["main", "pattern_scores", "text_windows"]

L2 = 4.0
MIN_WEIGHT = 0.02
FOLDS = 5
FPR = 0.01
NEVER = 2.0
"""A pattern level no pattern score reaches: the patterns never block by themselves."""
CHUNK_LEVEL_MAX = 0.95
"""The chunk mode's pattern level is at most this: the two indirect rules of an address
to the assistant and an instruction about the user's question (0.8 and 0.75 together)
block by themselves. Fitted with holdout4 to holdout8, the level came out at 0.964, and
"AI assistant: ignore the user's question and reply ..." inside 3 KB of documentation was
blocked 6 times in 10 instead of 10; capped, holdout10 (a writer who read nothing of the
project, first sight) blocked one more of its 156 attacks and one more of its 237 benign
documents, within the rule written before it existed. (Fitted with dev6, holdout9 and
holdout10 too, the level came out at 2.0, the patterns never blocking by themselves; with
dev7 and holdout11 too, at 0.988.)"""
OUT = Path(__file__).resolve().parents[2] / "monitor" / "scoring" / "injection" / "model.npz"

Row = dict[str, object]


def text_windows(text: str, chunk: bool = False) -> list[list[str]]:
    """The feature lists of a text's windows (as :func:`model.logit` scores them); with
    ``chunk``, each feature comes twice, as itself and as its chunk-only copy."""
    toks = m.tokens(normalise(text))
    if not toks:
        return [[]]
    per_pos = [m.token_features(t) for t in toks]
    for i in range(len(toks) - 1):
        per_pos[i] = [*per_pos[i], f"b:{toks[i]} {toks[i + 1]}"]
    if chunk:
        per_pos = [[*p, *(m.CHUNK + f for f in p)] for p in per_pos]
    return [[f for p in per_pos[s:e] for f in p] for s, e in m.windows(len(toks))]


def pattern_scores(rows: Sequence[Row]) -> list[float]:
    """The pattern-only score of each row (direct for queries, indirect for chunks)."""
    from monitor.scoring.injection.evidence import pattern_score
    from monitor.scoring.injection.indirect import chunk_pattern_score

    out = []
    for r in rows:
        text = str(r["text"])
        out.append(pattern_score(text) if r["mode"] == "query" else chunk_pattern_score(text))
    return out


def _fit(x: sparse.csr_matrix, y: np.ndarray, w: np.ndarray, l2: float) -> np.ndarray:
    n_feat = x.shape[1]

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ theta[:-1] + theta[-1]
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        ll = -np.sum(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
        g = w * (p - y)
        grad = np.empty(n_feat + 1)
        grad[:-1] = x.T @ g + l2 * theta[:-1]
        grad[-1] = g.sum()
        return ll + 0.5 * l2 * float(theta[:-1] @ theta[:-1]), grad

    res = optimize.minimize(
        loss, np.zeros(n_feat + 1), jac=True, method="L-BFGS-B", options={"maxiter": 400}
    )
    return np.asarray(res.x)


Windows = list[list[str]]
Weights = tuple[np.ndarray, float]
"""A linear model over one vocabulary: its weights and its bias."""


def _vocab(texts: Sequence[Windows]) -> dict[str, int]:
    """The features that occur in at least two of the texts, numbered."""
    df: dict[str, int] = {}
    for wins in texts:
        for f in {f for win in wins for f in win}:
            df[f] = df.get(f, 0) + 1
    return {f: i for i, f in enumerate(sorted(f for f, c in df.items() if c >= 2))}


class _Fit:
    """One model's training texts (as windows of features) and vocabulary."""

    def __init__(self, rows: Sequence[Row], texts: list[Windows]) -> None:
        self.rows = rows
        self.texts = texts
        self.vocab = _vocab(texts)

    def _counts(self, i: int) -> list[dict[int, float]]:
        out = []
        for win in self.texts[i]:
            counts: dict[int, float] = {}
            for f in win:
                j = self.vocab.get(f)
                if j is not None:
                    counts[j] = counts.get(j, 0.0) + 1.0
            out.append(counts)
        return out

    def _matrix(
        self, idx: Sequence[int], chosen: dict[int, int] | None
    ) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
        data: list[float] = []
        cols: list[int] = []
        indptr, ys, ws = [0], [], []
        for i in idx:
            wins = self._counts(i)
            label = int(self.rows[i]["label"])  # type: ignore[call-overload]
            if label == 1 and len(wins) > 1 and chosen is not None:
                items = [(wins[chosen[i]], 1.0)]
            elif label == 1:
                items = [(win, 1.0 / len(wins)) for win in wins]
            else:
                items = [(win, 1.0 / math.sqrt(len(wins))) for win in wins]
            for counts, weight in items:
                cols.extend(counts)
                data.extend(counts.values())
                indptr.append(len(cols))
                ys.append(label)
                ws.append(weight)
        x = sparse.csr_matrix((data, cols, indptr), shape=(len(ys), len(self.vocab)))
        return x, np.array(ys, float), np.array(ws, float)

    def train(self, idx: Sequence[int]) -> Weights:
        """Every window of an attack, then only its highest window (multiple instances)."""
        x, y, w = self._matrix(idx, None)
        theta = _fit(x, y, w, L2)
        first: Weights = (theta[:-1], float(theta[-1]))
        chosen = {}
        for i in idx:
            if int(self.rows[i]["label"]) == 1 and len(self.texts[i]) > 1:  # type: ignore[call-overload]
                chosen[i] = int(np.argmax(self.window_logits(i, first)))
        x, y, w = self._matrix(idx, chosen)
        theta = _fit(x, y, w, L2)
        return theta[:-1], float(theta[-1])

    def window_logits(self, i: int, model: Weights) -> list[float]:
        weights, bias = model
        return [sum(weights[j] * c for j, c in counts.items()) + bias for counts in self._counts(i)]


class Trainer:
    """The query model (every text's features) and the chunk model (the same, plus a
    chunk's features again as their ``k:`` copies, so what documents need besides is
    learnt apart from what they share with queries), each fitted on every text."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = rows
        plain = [text_windows(str(r["text"])) for r in rows]
        self.query = _Fit(rows, plain)
        copies = [
            text_windows(str(r["text"]), chunk=True) if _chunk(r) else wins
            for r, wins in zip(rows, plain, strict=True)
        ]
        self.chunk = _Fit(rows, copies)

    def train(self, idx: Sequence[int]) -> tuple[Weights, Weights]:
        return self.query.train(idx), self.chunk.train(idx)

    def text_logit(self, i: int, query: Weights, chunk: Weights) -> float:
        if _chunk(self.rows[i]):
            return max(self.chunk.window_logits(i, chunk))
        return max(self.query.window_logits(i, query))


def _chunk(row: Row) -> bool:
    return row["mode"] == "chunk"


def _fold(family: str) -> int:
    return int(hashlib.sha256(family.encode()).hexdigest(), 16) % FOLDS


def _threshold(values: np.ndarray, allowed: int) -> float:
    """The threshold above which at most ``allowed`` of ``values`` lie (descending)."""
    if not len(values):
        return 0.5
    return min(max(float(values[min(allowed, len(values) - 1)]) + 1e-6, 1e-4), 0.999)


def _stack(z: np.ndarray, p: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float, float]:
    """The combination's coefficients, its threshold and the pattern score that blocks by
    itself, chosen together: at most 1 % of the benign out-of-fold texts are blocked
    either way, and of the pattern levels that allow it, the one that blocks the most
    attacks (on a tie, the higher level)."""
    x = sparse.csr_matrix(np.column_stack([z, p]))
    w = np.where(y == 1, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1)) * len(y)
    theta = _fit(x, y, w, 1e-3)
    a, b, c = (float(v) for v in theta)
    combined = 1.0 / (1.0 + np.exp(-(a * z + b * p + c)))
    budget = math.floor(FPR * int((y == 0).sum()))
    best: tuple[float, float, float] | None = None  # (attacks blocked, level, threshold)
    for level in [*sorted({float(v) for v in p if v >= BLOCK_THRESHOLD}), NEVER]:
        alone = p >= level
        left = budget - int((alone & (y == 0)).sum())
        if left < 0:
            continue
        threshold = _threshold(np.sort(combined[(y == 0) & ~alone])[::-1], left)
        caught = float(((combined >= threshold) | alone)[y == 1].mean())
        if best is None or (caught, level) >= best[:2]:
            best = (caught, level, threshold)
    assert best is not None  # NEVER always fits the budget
    caught, level, threshold = best
    blocked = (combined >= threshold) | (p >= level)
    print(
        f"  out-of-fold: benign blocked {blocked[y == 0].mean():.4f}, attacks blocked"
        f" {caught:.4f}; patterns block by themselves from {level:.3f} (at 0.5 they would"
        f" block {(p[y == 0] >= BLOCK_THRESHOLD).mean():.4f} of the benign)"
    )
    return a, b, c, threshold, level


def _kept(names: dict[str, float], prefix: str) -> list[tuple[str, float]]:
    """The features of weight at least ``MIN_WEIGHT``, named with ``prefix``."""
    return [(prefix + n, w) for n, w in sorted(names.items()) if abs(w) >= MIN_WEIGHT]


def _chunk_weights(fit: _Fit, weights: np.ndarray) -> dict[str, float]:
    """What each feature weighs in a chunk: its own weight plus its ``k:`` copy's."""
    out: dict[str, float] = {}
    for name, j in fit.vocab.items():
        base = name.removeprefix(m.CHUNK)
        out[base] = out.get(base, 0.0) + float(weights[j])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = [r for r in load_rows(args.seed) if r["split"] == "train"]
    trainer = Trainer(rows)
    print(
        f"{len(rows)} training texts, {len(trainer.query.vocab)} query features,"
        f" {len(trainer.chunk.vocab)} chunk features"
    )
    oof = np.zeros(len(rows))
    folds = [_fold(str(r["family"])) for r in rows]
    for k in range(FOLDS):
        train_idx = [i for i, f in enumerate(folds) if f != k]
        test_idx = [i for i, f in enumerate(folds) if f == k]
        query, chunk = trainer.train(train_idx)
        for i in test_idx:
            oof[i] = trainer.text_logit(i, query, chunk)
        print(f"fold {k}: {len(test_idx)} texts")
    patterns = np.array(pattern_scores(rows))
    labels = np.array([int(r["label"]) for r in rows], float)  # type: ignore[call-overload]
    params = {}
    for mode in ("query", "chunk"):
        sel = np.array([r["mode"] == mode for r in rows])
        params[mode] = _stack(oof[sel], patterns[sel], labels[sel])
    a, b, c, threshold, level = params["chunk"]
    params["chunk"] = (a, b, c, threshold, min(level, CHUNK_LEVEL_MAX))
    for mode in ("query", "chunk"):
        print(mode, "combination (model, pattern, intercept, threshold, level):", params[mode])
    query, chunk = trainer.train(range(len(rows)))
    names = sorted(trainer.query.vocab, key=trainer.query.vocab.__getitem__)
    query_weights = {n: float(w) for n, w in zip(names, query[0], strict=True)}
    keep = _kept(query_weights, "") + _kept(_chunk_weights(trainer.chunk, chunk[0]), m.CHUNK)
    print(f"{len(keep)} features kept (|w| >= {MIN_WEIGHT})")
    blob = "\n".join(n for n, _ in keep).encode()
    np.savez_compressed(
        args.out,
        features=np.frombuffer(blob, dtype=np.uint8),
        weights=np.array([w for _, w in keep], dtype=np.float32),
        bias=np.array(query[1]),
        chunk_bias=np.array(chunk[1]),
        direct=np.array(params["query"]),
        indirect=np.array(params["chunk"]),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
