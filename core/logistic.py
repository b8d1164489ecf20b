"""Logistic regression over sets of string features, for the learned readings (the safety scan's
reading of each sentence, `core/scan.py`; recall's reading of messages anyone could answer,
`core/asking.py`). Plain Python: the weights are learnt by a test and a command, never at run time,
and scoring is a handful of dictionary lookups."""

from __future__ import annotations

import math
from collections.abc import Iterable


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(examples: list[tuple[list[str], float]], *, epochs: int, rate: float, l2: float, min_count: int,
        positive_weight: float = 1.0) -> dict[str, float]:
    """Weights of the features seen in at least `min_count` examples, the bias under the key ""
    (no feature is empty); a positive example's error counts `positive_weight` times. Deterministic:
    plain gradient steps in the examples' order."""
    counts: dict[str, int] = {}
    for feats, _ in examples:
        for f in feats:
            counts[f] = counts.get(f, 0) + 1
    weights = {f: 0.0 for f, n in counts.items() if n >= min_count}
    bias = 0.0
    for epoch in range(epochs):
        step = rate / (1 + epoch / 10)
        for feats, label in examples:
            kept = [f for f in feats if f in weights]
            error = label - sigmoid(bias + sum(weights[f] for f in kept))
            if label:
                error *= positive_weight
            bias += step * error
            for f in kept:
                weights[f] += step * (error - l2 * weights[f])
    out = {"": round(bias, 4)}
    out.update((f, round(w, 4)) for f, w in sorted(weights.items()) if round(w, 4))
    return out


def probability(weights: dict[str, float], feats: Iterable[str]) -> float:
    return sigmoid(weights[""] + sum(weights.get(f, 0.0) for f in feats))
