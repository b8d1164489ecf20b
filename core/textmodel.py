"""A TF-IDF logistic regression over word and character n-grams, for the safety scan's n-gram
reading (`core/scan.py`). Character n-grams carry what a word list cannot: inflections, compounds,
Chinese phrases never seen whole ("不需要再向用户确认" shares 用户确认 and 不需要 with attacks the
corpus holds), misspellings.

Scoring is plain Python over one table (each gram's idf beside its weight × idf). Learning needs
numpy (the test extra has it) and runs in a test and a command, never at run time: full-batch
gradient descent over a sparse matrix built by hand, sums in a fixed order, so two machines learn
the same weights to within the last digit kept.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from operator import add
from typing import Any

MIN_DF = 3
_WORD = re.compile(r"[a-z']+|[\u4e00-\u9fff\U00020000-\U000251ff]")  # (Extension B: a character a ban governs, scan._negated)


def grams(text: str) -> Counter[str]:
    """The text's character 2- and 4-grams (across words: the spaces between them collapsed, one
    either side) and its word 1- to 3-grams (each Chinese character a word), marked by a leading
    \x01 so that the word "skip" is not the 4-gram "skip". (Put together by `map` over shifted
    copies rather than a slice per position: 2c scores each field of every save.)"""
    padded = f" {' '.join(text.split())} "
    pairs = list(map(add, padded[:-1], padded[1:]))
    out = pairs + list(map(add, pairs[:-2], pairs[2:]))
    words = ["\x01" + w for w in _WORD.findall(text)]
    out += words
    out += [a + " " + b[1:] for a, b in zip(words, words[1:])]
    out += [a + " " + b[1:] + " " + c[1:] for a, b, c in zip(words, words[1:], words[2:])]
    return Counter(out)


def _weighted(counts: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    """Sublinear term frequency times idf over the known grams, scaled to unit length."""
    values = {g: (1 + math.log(n)) * idf[g] for g, n in counts.items() if g in idf}
    norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
    return {g: v / norm for g, v in values.items()}


# The file form: the grams in order, then their numbers as one array of float32 (idf, weight × idf
# for each gram) in base64. Parsed from JSON as a list per gram, the 71,000 grams of the scan's model
# held ~28 MB in an MCP server that had saved a note (issue 16: the server's memory); loaded from this
# form, each gram's pair is one complex number, and they hold ~14 MB.
FORMAT = "lingshu-ngrams/2"


def dumps(model: dict[str, Any]) -> str:
    """`model` (as `learn` gives it) in the file form."""
    import base64
    import json
    from array import array

    numbers = array("f", (x for pair in model["grams"].values() for x in pair))
    if numbers.itemsize != 4:
        raise RuntimeError("this platform has no 4-byte float array")
    return json.dumps({"format": FORMAT, "bias": model["bias"], "grams": list(model["grams"]),
                       "numbers": base64.b64encode(numbers.tobytes()).decode("ascii")}, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> dict[str, Any]:
    """The model of a file written by `dumps`, each gram's (idf, weight × idf) one complex number."""
    import base64
    import json
    from array import array

    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"not an n-gram model of the form {FORMAT}")
    numbers = array("f")
    numbers.frombytes(base64.b64decode(data["numbers"]))
    pairs = iter(numbers)
    return {"bias": data["bias"], "grams": dict(zip(data["grams"], map(complex, pairs, pairs)))}


def score(model: dict[str, Any], text: str) -> float:
    """The log-odds that `text` belongs to the positive class. A gram seen once (most are) costs
    one lookup: the model keeps each gram's idf and weight × idf side by side (a pair as `learn`
    gives it, one complex number as `loads` does)."""
    table: dict[str, Any] = model["grams"]
    length = dot = 0.0
    counts = grams(text)
    for entry, n in zip(map(table.get, counts), counts.values()):
        if entry is None:
            continue
        idf, weighted = (entry.real, entry.imag) if type(entry) is complex else entry
        if n == 1:
            length += idf * idf
            dot += weighted
        else:
            tf = 1 + math.log(n)
            length += tf * tf * idf * idf
            dot += tf * weighted
    return model["bias"] + (dot / math.sqrt(length) if length else 0.0)


def learn(positive: Sequence[str], negative: Sequence[str], *, c: float = 16.0, steps: int = 400) -> dict[str, Any]:
    """Weights that minimise the classes' balanced log loss plus |w|² / 2c, by Nesterov-accelerated
    gradient descent. Features are the grams seen in at least MIN_DF texts; each is kept as
    [idf, weight × idf] (a gram whose weight rounds to zero still counts in a text's length)."""
    import numpy as np

    texts = [*positive, *negative]
    labels = np.array([1.0] * len(positive) + [0.0] * len(negative))
    counts = [grams(t) for t in texts]
    df = Counter(g for gs in counts for g in gs)
    vocab = sorted(g for g, k in df.items() if k >= MIN_DF)
    index = {g: i for i, g in enumerate(vocab)}
    idf = {g: math.log((1 + len(texts)) / (1 + df[g])) + 1 for g in vocab}
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    for r, gs in enumerate(counts):
        weighted = _weighted(gs, idf)
        rows.append(np.full(len(weighted), r, dtype=np.int64))
        cols.append(np.array([index[g] for g in weighted], dtype=np.int64))
        vals.append(np.array(list(weighted.values()), dtype=np.float64))
    row, col, val = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    n, d = len(texts), len(vocab)
    sample = np.where(labels == 1, n / (2 * labels.sum()), n / (2 * (n - labels.sum())))

    def gradient(w: np.ndarray, b: float) -> tuple[np.ndarray, float]:
        z = np.bincount(row, weights=val * w[col], minlength=n) + b
        error = sample * (1 / (1 + np.exp(-np.clip(z, -30, 30))) - labels)
        return np.bincount(col, weights=val * error[row], minlength=d) + w / c, float(error.sum())

    # The step is 1 / L, L bounding the loss's curvature: a quarter of the largest eigenvalue of
    # X'SX (by power iteration from a fixed start) plus the penalty's; the bias has its own.
    v = np.ones(d) / math.sqrt(d)
    for _ in range(30):
        xv = np.bincount(row, weights=val * v[col], minlength=n)
        v = np.bincount(col, weights=val * (sample * xv)[row], minlength=d)
        top = float(np.sqrt(np.sum(v * v)))
        v /= top
    rate = 1 / (0.25 * top * 1.05 + 1 / c)
    bias_rate = 1 / (0.25 * float(sample.sum()))
    w, b = np.zeros(d), 0.0
    prev_w, prev_b = w, b
    for step in range(1, steps + 1):
        momentum = (step - 1) / (step + 2)
        look_w, look_b = w + momentum * (w - prev_w), b + momentum * (b - prev_b)
        grad_w, grad_b = gradient(look_w, look_b)
        prev_w, prev_b = w, b
        w, b = look_w - rate * grad_w, look_b - bias_rate * grad_b
    return {"bias": round(b, 4),
            "grams": {g: [round(idf[g], 4), round(weight * idf[g], 4)] for g, weight in zip(vocab, w.tolist())}}
