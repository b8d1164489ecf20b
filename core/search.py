"""Lexical search over one or two layers: BM25 with field weights, English words and CJK bigrams.

Why not a library: the layers hold at most a thousand records each and change on every save, so an
index that lives in a file (SQLite FTS5) must be kept in step with the JSON store on every write —
a second source of truth. FTS5's own tokenizers also either split CJK text poorly (unicode61) or
need three characters (trigram), and two-character Chinese words are the common case. A small
in-memory BM25 over the parsed layer is rebuilt only when the layer's generation changes. See
`docs/search.md`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[0-9a-z_]+(?:[.\-+#][0-9a-z_]+)*")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_STOP = frozenset(
    "a an and are as at be but by do does for from has have how i if in is it its me my no not of on or our "
    "so that the their then there these this to was we what when where which who why will with you your "
    "can should would could please".split()
)

FIELD_WEIGHTS = {"title": 3.0, "summary": 2.0, "when": 1.0, "body": 1.0}
K1 = 1.2
B = 0.75


def tokens(text: str) -> list[str]:
    """English words (lowercased, stop words dropped) and CJK bigrams (a lone CJK char as itself)."""
    low = text.lower()
    out = [w for w in _WORD.findall(low) if w not in _STOP and len(w) > 1 or w.isdigit()]
    for run in _CJK.findall(low):
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


_terms_cache: dict[tuple[str, int, str], dict[str, float]] = {}


def _weighted_terms(record: dict[str, Any]) -> dict[str, float]:
    """A record's weighted term counts, kept per revision: after a write only changed records are
    tokenised again when the index is rebuilt."""
    key = (record["id"], int(record.get("revision", 1)), str(record.get("updated", "")))
    hit = _terms_cache.get(key)
    if hit is not None:
        return hit
    tf: dict[str, float] = {}
    for fld, weight in FIELD_WEIGHTS.items():
        for tok in tokens(str(record.get(fld) or "")):
            tf[tok] = tf.get(tok, 0.0) + weight
    if len(_terms_cache) > 20_000:
        _terms_cache.clear()
    _terms_cache[key] = tf
    return tf


class Index:
    """BM25 over a list of records; build once per layer generation."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.records = records
        self.tfs = [_weighted_terms(r) for r in records]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(records)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self.title_terms = [set(tokens(str(r.get("title") or ""))) for r in records]

    def score(self, query: str) -> list[tuple[float, int, int]]:
        """(score, matched distinct terms, position) for every record that matches a query term."""
        q = list(dict.fromkeys(tokens(query)))
        if not q:
            return []
        out = []
        for i, tf in enumerate(self.tfs):
            s = 0.0
            matched = 0
            norm = K1 * (1 - B + B * self.lengths[i] / (self.avg or 1.0))
            for term in q:
                f = tf.get(term)
                if f:
                    matched += 1
                    s += self.idf[term] * f * (K1 + 1) / (f + norm)
            if matched:
                out.append((round(s, 6), matched, i))
        return out

    def query_terms(self, query: str) -> list[str]:
        return list(dict.fromkeys(tokens(query)))


def rank(index: Index, query: str) -> list[tuple[float, dict[str, Any]]]:
    """Matches, best first; ties broken by newest update, then id, so the order is deterministic."""
    scored = index.score(query)
    recs = index.records
    # Stable sorts from the least to the most significant key: id, then newest update, then score.
    scored.sort(key=lambda t: recs[t[2]]["id"])
    scored.sort(key=lambda t: str(recs[t[2]].get("updated", "")), reverse=True)
    scored.sort(key=lambda t: t[0], reverse=True)
    return [(s, recs[i]) for s, _, i in scored]


@lru_cache(maxsize=8192)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def similarity(a: str, b: str, at_least: float = 0.0) -> float:
    """Jaccard overlap of the token sets: 1.0 for the same words, 0.0 for nothing in common.
    Below `at_least` the exact value does not matter, and sets whose sizes differ too much to
    reach it answer 0.0 without being intersected."""
    ta, tb = token_set(a), token_set(b)
    if not ta or not tb:
        return 1.0 if a.strip().lower() == b.strip().lower() else 0.0
    small, large = sorted((len(ta), len(tb)))
    if small < at_least * large:
        return 0.0
    return len(ta & tb) / len(ta | tb)
