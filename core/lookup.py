"""Finding records across the two layers: by id, and by words through the eligibility gate.
Shared by the tools and by recall, so this module stays free of pydantic (recall's start-up)."""

from __future__ import annotations

from typing import Any

from . import index, semantic
from .eligibility import eligibility
from .store import LayerRef, archived_record, iso, utc_now
from .workspace import Workspace



def find(ws: Workspace, rid: str) -> tuple[LayerRef, dict[str, Any]] | None:
    """The record with this id, project layer first: a live record from the layer's index, else an
    archived one from its cold file (without the body)."""
    for ref in ws.layers():
        rec = index.get(ref, rid)
        if rec is not None and rec.get("status") != "purged":
            return ref, rec
    for ref in ws.layers():
        stub = archived_in(ref, rid)
        if stub is not None:
            return ref, stub
    return None


def archived_in(ref: LayerRef, rid: str) -> dict[str, Any] | None:
    """An archived record of this layer without its body: from its cold file, or, when that file is
    damaged or lost, from the archive index (so restore can say `cold_corrupt` / `cold_missing`)."""
    return archived_record(ref, rid) or index.archived_stub(ref, rid)


def ranked_usable(
    ws: Workspace, query: str, ctx: dict[str, Any], purpose: str, *, history: bool = False, scope: str | None = None,
    want: int | None = None,
) -> tuple[list[tuple[float, dict[str, Any], str]], list[str]]:
    """Matches that pass the gate (best first, project winning on the same id), and the gate's
    reasons for matches it held back. Shared by search and route. Pages through the index until
    `want` usable matches are found in each layer."""
    now = iso(utc_now())
    seen: set[str] = set()
    usable: list[tuple[float, dict[str, Any], str]] = []
    held: list[str] = []
    layers = ws.layers()
    for ref in layers:
        if scope and ref.kind != scope:
            continue
        # (a word's commonness is the whole memory's, as in recall: the layers' scores are ranked together)
        peers = tuple(other for other in layers if other is not ref)
        found, offset = 0, 0
        size = min(60, max(20, 2 * (want or 30)))
        while want is None or found < want:
            page = index.search(ref, query, limit=size, offset=offset, peers=peers)
            for hit in page:
                score, rec = hit.score, hit.record
                if want is not None and found >= want:
                    break
                if rec["id"] in seen:
                    continue
                seen.add(rec["id"])
                gate = eligibility(rec, ctx, purpose, now, history=history)  # type: ignore[arg-type]
                if gate.ok:
                    usable.append((score, rec, ref.kind))
                    found += 1
                elif gate.state != "gone":
                    held.append(gate.reason if gate.reason == "applicability_unresolved" else gate.state)
            if len(page) < size:
                break
            offset += size
    near = semantic.Query(ws.home, query)
    if near.used:
        _add_near(ws, near, ctx, purpose, history, scope, seen, usable, held, now)
    usable.sort(key=lambda t: -t[0])
    return usable, held


def _add_near(ws: Workspace, near: semantic.Query, ctx: dict[str, Any], purpose: str, history: bool, scope: str | None,
              seen: set[str], usable: list[tuple[float, dict[str, Any], str]], held: list[str], now: str) -> None:
    """The semantic tier's part of a search: notes near the query in meaning join the lexical
    matches (through the same gate), and every match's score becomes its fused rank (RRF)."""
    floor = near.threshold("searchSimilarity", semantic.SEARCH_SIMILARITY)
    ranked: list[tuple[float, str]] = []
    for ref in ws.layers():
        if scope and ref.kind != scope:
            continue
        for sim, rid, revision in near.nearest(ref, floor=floor):
            ranked.append((sim, rid))
            if rid in seen:
                continue
            rec = index.get(ref, rid)
            if rec is None or int(rec.get("revision", 1)) != revision:
                continue  # a vector of an older revision says nothing about this one
            seen.add(rid)
            gate = eligibility(rec, ctx, purpose, now, history=history)  # type: ignore[arg-type]
            if gate.ok:
                usable.append((0.0, rec, ref.kind))
            elif gate.state != "gone":
                held.append(gate.reason if gate.reason == "applicability_unresolved" else gate.state)
    lexical = [rec["id"] for score, rec, _ in sorted(usable, key=lambda t: -t[0]) if score > 0]
    fused = semantic.fuse(lexical, [rid for _, rid in sorted(ranked, key=lambda t: -t[0])])
    usable[:] = [(round(fused.get(rec["id"], 0.0), 6), rec, layer) for _, rec, layer in usable]
