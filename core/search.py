"""Text analysis and ranking for lexical search: English words and CJK bigrams, field weights, and
the bonuses BM25 alone does not give (every query term present, adjacent query terms).

The index itself lives in SQLite FTS5 next to each layer (`core/index.py`); it stores the text as
this module analyses it, so what counts as a word, and how hits are ordered, stays ours. See
`docs/search.md`.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[0-9a-z_]+(?:[.\-+#][0-9a-z_]+)*")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_STOP = frozenset(
    "a an and are as at be but by do does for from has have how i if in is it its me my no not of on or our "
    "so that the their then there these this to was we what when where which who why will with you your "
    "can should would could please".split()
)

# The index's columns, in order, with their BM25 weights.
FIELDS = ("title", "summary", "when", "body", "conditions")
FIELD_WEIGHTS = (3.0, 2.0, 1.0, 1.0, 1.0)
# A record that holds every query term, or two query terms side by side, outranks one that repeats a
# single term: BM25 alone scores "deploy deploy deploy" above "deploy staging" for "deploy staging".
ALL_TERMS_BONUS = 2.0
PHRASE_BONUS = 1.5


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


def query_terms(query: str) -> list[str]:
    """The distinct terms of a query, in their order."""
    return list(dict.fromkeys(tokens(query)))


def analysed(record: dict[str, Any]) -> tuple[str, ...]:
    """The record's fields as the index stores them: analysed terms, space-separated."""
    conds = " ".join(str(c.get("value", "")) for c in record.get("conditions") or [] if isinstance(c, dict))
    texts = [str(record.get(f) or "") for f in FIELDS[:-1]] + [conds]
    return tuple(" ".join(tokens(t)) for t in texts)


K1 = 1.2
B = 0.75


class Scorer:
    """Scores one query against index rows: Okapi BM25 over field-weighted term counts, with an idf
    that stays positive for terms most records share (log(1 + (N - n + 0.5) / (n + 0.5))), plus
    the all-terms and phrase bonuses."""

    def __init__(self, terms: list[str], df: dict[str, int], total: int, avg: float) -> None:
        self.terms = terms
        self.idf = {t: math.log(1 + (total - df.get(t, 1) + 0.5) / (df.get(t, 1) + 0.5)) for t in terms}
        self.avg = avg or 1.0
        self.pairs = [f" {a} {b} " for a, b in zip(terms, terms[1:])]

    def score(self, columns: tuple[str, ...], length: float) -> tuple[float, int, bool]:
        """(score, distinct query terms matched, title hit) from a row's analysed columns."""
        lists = [col.split() for col in columns]
        norm = K1 * (1 - B + B * length / self.avg)
        score = 0.0
        matched = 0
        for term in self.terms:
            f = sum(w * words.count(term) for w, words in zip(FIELD_WEIGHTS, lists))
            if f:
                matched += 1
                score += self.idf[term] * f * (K1 + 1) / (f + norm)
        title_hit = any(t in lists[0] for t in self.terms)
        if len(self.terms) > 1 and matched == len(self.terms):
            score += ALL_TERMS_BONUS
        if self.pairs and matched > 1 and any(p in f" {col} " for p in self.pairs for col in columns):
            score += PHRASE_BONUS
        return score, matched, title_hit


def fts_query(terms: list[str], column: str | None = None) -> str:
    """An FTS5 MATCH expression: any of the terms, each quoted, optionally in one column."""
    expr = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    return f"{{{column}}} : ({expr})" if column else expr


@lru_cache(maxsize=4096)
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
