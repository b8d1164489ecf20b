"""What the panel shows, read from the store through the gate (SPEC §13). The panel renders
these plain structures and holds no rule of its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import index
from .eligibility import eligibility, is_current
from .errors import ColdBodyError, LingshuError
from .ledger import citation_groups, latest_turn
from .lookup import find
from .store import ASIDE, LayerRef, iso, load, quarantined_records, read_cold, recovery_message, recovery_notice, utc_now
from .workspace import Workspace

ROOMS: tuple[str, ...] = ("convention", "method", "resource", "note")
ROOM_TITLES = {"convention": "Habits & conventions", "method": "Methods & experience", "resource": "Materials & entry points", "note": "Other records"}
PAGE_SIZE = 24


@dataclass(frozen=True)
class Exhibit:
    """One record as a row of the palace: everything the panel may show, never the id as text."""

    id: str
    title: str
    layer: str
    kind: str
    updated: str
    revision: int
    unreviewed: bool = False
    text: str = ""  # title, summary, body and condition values, casefolded: what the panel's filter looks in
    archive_reason: str = ""  # by_user, by_agent or make_room (archived records only)
    archived_at: str = ""


@dataclass
class Snapshot:
    """Everything the panel shows at one moment."""

    project_id: str | None
    project_root: str | None
    memory_on: bool
    write_mode: str
    rooms: dict[str, list[Exhibit]] = field(default_factory=dict)
    archived: list[Exhibit] = field(default_factory=list)
    citations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    recall_why: str = ""
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # standing conditions a person should see (recovery, quarantine)
    excerpts: dict[str, str | None] = field(default_factory=dict)  # citation id -> what it says now (None: removed)
    generations: tuple[int, ...] = ()


# A panel refresh reads every record of both layers; the row of a record whose revision, status
# and time are unchanged is the same row, so it is built once (the filter text is most of the work).
_EXHIBITS: dict[tuple[str, str, int, str, str, str], Exhibit] = {}


def _exhibit(rec: dict[str, Any], layer: str) -> Exhibit:
    key = (layer, str(rec["id"]), int(rec.get("revision", 1)), str(rec.get("status", "")), str(rec.get("updated", "")),
           str(rec.get("reviewState", "")))
    hit = _EXHIBITS.get(key)
    if hit is None:
        if len(_EXHIBITS) > 50_000:
            _EXHIBITS.clear()
        hit = _EXHIBITS[key] = _build_exhibit(rec, layer)
    return hit


def _build_exhibit(rec: dict[str, Any], layer: str) -> Exhibit:
    kind = rec.get("kind") if rec.get("kind") in ROOMS else "note"
    conds = " ".join(str(c.get("value", "")) for c in rec.get("conditions") or [] if isinstance(c, dict))
    text = " ".join(str(rec.get(k) or "") for k in ("title", "summary", "when", "body")) + " " + conds
    return Exhibit(rec["id"], str(rec.get("title", "")), layer, str(kind), str(rec.get("updated", "")), int(rec.get("revision", 1)),
                   rec.get("reviewState") == "legacy_unreviewed", text.casefold(),
                   str(rec.get("archiveReason") or ""), str(rec.get("archivedAt") or ""))


def _candidate_now(ws: Workspace, cand: dict[str, Any]) -> dict[str, Any]:
    """A conflict candidate as it is now, with what a person needs to decide: body, room, layer, date."""
    try:
        found = find(ws, str(cand.get("id", "")))
    except LingshuError:
        found = None
    if not found:
        return {**cand, "body": "", "gone": True}
    ref, rec = found
    return {**cand, "body": str(rec.get("body", "")), "kind": rec.get("kind", "note"), "layer": ref.kind,
            "updated": rec.get("updated", ""), "title": rec.get("title", cand.get("title", ""))}


def _layer_notices(ref: LayerRef, state: dict[str, Any]) -> list[str]:
    out = []
    notice = recovery_notice(ref)
    if notice:
        out.append(recovery_message(ref, notice))
    bad = len(state.get(ASIDE) or {}) + len(quarantined_records(ref))
    if bad:
        out.append(f"{bad} record(s) of the {ref.label} do not fit the record model and were set aside; "
                   "`lingshu doctor` names them and says what to do.")
    return out


def snapshot(ws: Workspace) -> Snapshot:
    """Read both layers once; rooms hold current records, most recently updated first."""
    snap = Snapshot(ws.project_id, ws.project_root, ws.memory_on, ws.write_mode, rooms={r: [] for r in ROOMS})
    ctx = {"projectId": ws.project_id}
    now = iso(utc_now())
    seen: set[str] = set()
    gens = []
    for ref in ws.layers():
        try:
            state = load(ref)
        except LingshuError as err:
            snap.problems.append(err.message)
            continue
        gens.append(state["generation"])
        snap.notices += _layer_notices(ref, state)
        try:
            stubs = index.archived(ref)
        except LingshuError as err:
            snap.problems.append(err.message)
            stubs = []
        for rec in [*state["records"].values(), *stubs]:
            if rec["id"] in seen or not eligibility(rec, ctx, "panel", now).ok:
                continue
            seen.add(rec["id"])
            if rec.get("status") == "archived":
                snap.archived.append(_exhibit(rec, ref.kind))
            elif is_current(rec, now):
                ex = _exhibit(rec, ref.kind)
                snap.rooms[ex.kind].append(ex)
        snap.conflicts += [{**c, "layerKind": ref.kind, "candidates": [_candidate_now(ws, cand) for cand in c.get("candidates", [])]}
                           for c in state.get("conflicts", [])]
        snap.suggestions += [{**s, "layerKind": ref.kind} for s in state.get("suggestions", [])]
    for room in snap.rooms.values():
        room.sort(key=lambda e: (e.updated, e.id), reverse=True)
    snap.archived.sort(key=lambda e: (e.updated, e.id), reverse=True)
    turn = latest_turn(ws)
    snap.citations = citation_groups(turn)
    # Read here, in the loader's thread: the panel draws citations without touching a file.
    for rid in {c["id"] for items in snap.citations.values() for c in items}:
        try:
            snap.excerpts[rid] = citation_body(ws, rid)
        except LingshuError:
            snap.excerpts[rid] = None
    snap.recall_why = str(((turn or {}).get("recall") or {}).get("why", ""))
    snap.generations = tuple(gens)
    return snap


def detail(ws: Workspace, rid: str) -> dict[str, Any] | None:
    """A record's detail for a person: body (from cold storage when archived), conditions,
    validity, replacement chain by title, revisions, links by title."""
    found = find(ws, rid)
    if not found or not eligibility(found[1], {"projectId": ws.project_id}, "panel", iso(utc_now())).ok:
        return None
    ref, rec = found
    out = dict(rec)
    out["layer"] = ref.kind
    if rec.get("status") == "archived":
        try:
            cold = read_cold(ref, rid)
            out["body"], out["versions"] = cold["body"], cold["versions"]
        except ColdBodyError as err:
            out["body"], out["bodyProblem"] = "", err.message
    out["summaryStale"] = summary_stale(out)
    chain: list[tuple[str, str]] = []
    prev = rec.get("supersedes")
    if prev and (hit := find(ws, prev)):
        out["predecessor"] = {"id": prev, "title": hit[1].get("title", "")}
    while prev and len(chain) < 10:
        hit = find(ws, prev)
        if not hit:
            break
        chain.append(("replaces", hit[1].get("title", "(removed)")))
        prev = hit[1].get("supersedes")
    nxt = rec.get("supersededBy")
    if nxt:
        hit = find(ws, nxt)
        chain.insert(0, ("replaced by", hit[1].get("title", "(removed)") if hit else "(removed)"))
        if hit:
            out["successor"] = {"id": nxt, "title": hit[1].get("title", "")}
    out["chain"] = chain
    out["linkTitles"] = []
    for link in rec.get("links") or []:
        hit = find(ws, link.get("target", ""))
        if hit and hit[1].get("status") != "purged":
            out["linkTitles"].append((link.get("rel", ""), hit[1].get("title", "")))
    return out


def summary_stale(rec: dict[str, Any]) -> bool:
    """The body changed after the summary was last written: walking back through the versions
    that carry today's summary, one of them had another body."""
    summary = rec.get("summary")
    if not summary:
        return False
    for version in rec.get("versions") or []:
        if version.get("summary") != summary:
            return False
        if version.get("body") != rec.get("body"):
            return True
    return False


def citation_body(ws: Workspace, rid: str) -> str | None:
    """Opening a citation reads the current body; a record removed since shows as removed (None)."""
    found = find(ws, rid)
    if not found or found[1].get("status") != "active":
        return None
    return str(found[1].get("summary") or found[1].get("body", ""))
