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
   two training texts; weights under :data:`MIN_WEIGHT` are dropped.
4. Out-of-fold logits (5 folds, grouped by family so a family is never in its own
   training fold) are combined with the pattern score by a two-feature logistic fit per
   mode (queries; chunks); each mode's threshold is the combined probability that 1 % of
   its benign out-of-fold texts exceed. The detector blocks when the rescaled combination
   reaches 0.5, or when the pattern score by itself reaches a level chosen with the
   threshold so that both together block 1 % of the benign out-of-fold texts (the level
   that blocks the most attacks within that budget).

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
OUT = Path(__file__).resolve().parents[2] / "monitor" / "scoring" / "injection" / "model.npz"

Row = dict[str, object]


def text_windows(text: str) -> list[list[str]]:
    """The feature lists of a text's windows (as :func:`model.logit` scores them)."""
    toks = m.tokens(normalise(text))
    if not toks:
        return [[]]
    per_pos = [m.token_features(t) for t in toks]
    for i in range(len(toks) - 1):
        per_pos[i] = [*per_pos[i], f"b:{toks[i]} {toks[i + 1]}"]
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


class Trainer:
    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = rows
        self.wins = [text_windows(str(r["text"])) for r in rows]
        df: dict[str, int] = {}
        for wins in self.wins:
            for f in {f for win in wins for f in win}:
                df[f] = df.get(f, 0) + 1
        self.vocab = {f: i for i, f in enumerate(sorted(f for f, c in df.items() if c >= 2))}

    def _matrix(
        self, idx: Sequence[int], chosen: dict[int, int] | None
    ) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
        data, cols, indptr, ys, ws = [], [], [0], [], []
        for i in idx:
            wins = self.wins[i]
            label = int(self.rows[i]["label"])  # type: ignore[call-overload]
            if label == 1 and len(wins) > 1 and chosen is not None:
                items = [(wins[chosen[i]], 1.0)]
            elif label == 1:
                items = [(win, 1.0 / len(wins)) for win in wins]
            else:
                items = [(win, 1.0 / math.sqrt(len(wins))) for win in wins]
            for win, weight in items:
                counts: dict[int, float] = {}
                for f in win:
                    j = self.vocab.get(f)
                    if j is not None:
                        counts[j] = counts.get(j, 0.0) + 1.0
                cols.extend(counts)
                data.extend(counts.values())
                indptr.append(len(cols))
                ys.append(label)
                ws.append(weight)
        x = sparse.csr_matrix((data, cols, indptr), shape=(len(ys), len(self.vocab)))
        return x, np.array(ys, float), np.array(ws, float)

    def train(self, idx: Sequence[int]) -> tuple[np.ndarray, float]:
        x, y, w = self._matrix(idx, None)
        theta = _fit(x, y, w, L2)
        chosen = {}
        for i in idx:
            if int(self.rows[i]["label"]) == 1 and len(self.wins[i]) > 1:  # type: ignore[call-overload]
                chosen[i] = int(np.argmax(self._window_logits(i, theta)))
        x, y, w = self._matrix(idx, chosen)
        theta = _fit(x, y, w, L2)
        return theta[:-1], float(theta[-1])

    def _window_logits(self, i: int, theta: np.ndarray) -> list[float]:
        out = []
        for win in self.wins[i]:
            out.append(sum(theta[self.vocab[f]] for f in win if f in self.vocab) + theta[-1])
        return out

    def text_logit(self, i: int, weights: np.ndarray, bias: float) -> float:
        theta = np.append(weights, bias)
        return max(self._window_logits(i, theta))


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = [r for r in load_rows(args.seed) if r["split"] == "train"]
    trainer = Trainer(rows)
    print(f"{len(rows)} training texts, {len(trainer.vocab)} features")
    oof = np.zeros(len(rows))
    folds = [_fold(str(r["family"])) for r in rows]
    for k in range(FOLDS):
        train_idx = [i for i, f in enumerate(folds) if f != k]
        test_idx = [i for i, f in enumerate(folds) if f == k]
        weights, bias = trainer.train(train_idx)
        for i in test_idx:
            oof[i] = trainer.text_logit(i, weights, bias)
        print(f"fold {k}: {len(test_idx)} texts")
    patterns = np.array(pattern_scores(rows))
    labels = np.array([int(r["label"]) for r in rows], float)  # type: ignore[call-overload]
    params = {}
    for mode in ("query", "chunk"):
        sel = np.array([r["mode"] == mode for r in rows])
        params[mode] = _stack(oof[sel], patterns[sel], labels[sel])
        print(mode, "combination (model, pattern, intercept, threshold, level):", params[mode])
    weights, bias = trainer.train(range(len(rows)))
    names = sorted(trainer.vocab, key=trainer.vocab.__getitem__)
    keep = [(n, float(weights[trainer.vocab[n]])) for n in names]
    keep = [(n, w) for n, w in keep if abs(w) >= MIN_WEIGHT]
    print(f"{len(keep)} features kept (|w| >= {MIN_WEIGHT})")
    blob = "\n".join(n for n, _ in keep).encode()
    np.savez_compressed(
        args.out,
        features=np.frombuffer(blob, dtype=np.uint8),
        weights=np.array([w for _, w in keep], dtype=np.float32),
        bias=np.array(bias),
        direct=np.array(params["query"]),
        indirect=np.array(params["chunk"]),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
