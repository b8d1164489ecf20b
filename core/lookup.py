"""Finding records across the two layers: by id, and by words through the eligibility gate.
Shared by the tools and by recall, so this module stays free of pydantic (recall's start-up)."""

from __future__ import annotations

from typing import Any

from .eligibility import eligibility
from .search import Index, rank
from .store import LayerRef, iso, load, utc_now
from .workspace import Workspace


def find(ws: Workspace, rid: str) -> tuple[LayerRef, dict[str, Any]] | None:
    """The record with this id, project layer first; a tombstone in one layer does not hide the other."""
    found = None
    for ref in ws.layers():
        rec = load(ref)["records"].get(rid)
        if rec is not None:
            if rec.get("status") != "purged":
                return ref, rec
            found = found or (ref, rec)
    return found


_index_cache: dict[tuple[str, int, str], Index] = {}


def layer_index(ref: LayerRef) -> tuple[dict[str, Any], Index]:
    """The layer and a search index over its active records, rebuilt only on a new generation."""
    state = load(ref)
    key = (str(ref.dir), int(state["generation"]), str(state.get("checksum", "")))
    idx = _index_cache.get(key)
    if idx is None:
        records = [r for r in state["records"].values() if r.get("status") == "active"]
        idx = Index(records)
        for old in [k for k in _index_cache if k[0] == str(ref.dir)]:
            del _index_cache[old]
        _index_cache[key] = idx
    return state, idx



def ranked_usable(
    ws: Workspace, query: str, ctx: dict[str, Any], purpose: str, *, history: bool = False, scope: str | None = None,
    want: int | None = None,
) -> tuple[list[tuple[float, dict[str, Any], str]], list[str]]:
    """Matches that pass the gate (best first, project winning on the same id), and the gate's
    reasons for matches it held back. Shared by search, route and recall."""
    now = iso(utc_now())
    seen: set[str] = set()
    usable: list[tuple[float, dict[str, Any], str]] = []
    held: list[str] = []
    for ref in ws.layers():
        if scope and ref.kind != scope:
            continue
        _, idx = layer_index(ref)
        found = 0
        for score, rec in rank(idx, query):
            if want is not None and found >= want:
                break  # enough usable matches from this layer; the rest cannot rank higher
            if rec["id"] in seen:
                continue
            seen.add(rec["id"])
            gate = eligibility(rec, ctx, purpose, now, history=history)  # type: ignore[arg-type]
            if gate.ok:
                usable.append((score, rec, ref.kind))
                found += 1
            elif gate.state != "gone":
                held.append(gate.reason if gate.reason == "applicability_unresolved" else gate.state)
    usable.sort(key=lambda t: -t[0])
    return usable, held


