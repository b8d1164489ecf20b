"""`lingshu export`: Markdown grouped by palace room for people, or JSON of the records as stored,
which `lingshu import` reads back losslessly."""

from __future__ import annotations

import json
from typing import Any

from . import index
from .errors import ColdBodyError
from .eligibility import is_current
from .importing import EXPORT_FORMAT
from .records import printable
from .store import iso, load, read_cold, utc_now
from .views import ROOM_TITLES, ROOMS
from .workspace import Workspace


def export_json(ws: Workspace, scope: str | None = None) -> str:
    layers: dict[str, list[dict[str, Any]]] = {}
    for ref in ws.layers():
        if scope and ref.kind != scope:
            continue
        out = []
        records = {**{s["id"]: s for s in index.archived(ref)}, **load(ref)["records"]}
        for rid in sorted(records):
            rec = {k: v for k, v in records[rid].items() if k != "ownerProjectId"}  # the layer says whose it is
            if rec.get("status") == "purged":
                continue
            if rec.get("status") == "archived":
                try:
                    cold = read_cold(ref, rid)
                    rec["cold"] = {"body": cold["body"], "versions": cold["versions"]}
                except ColdBodyError as err:
                    rec["coldProblem"] = err.status
            out.append(rec)
        layers[ref.kind] = out
    # JSON escapes C0 itself; `printable` escapes DEL and C1 the same way, so the file stays lossless.
    return printable(json.dumps({"format": EXPORT_FORMAT, "layers": layers}, ensure_ascii=False, indent=2, sort_keys=True)) + "\n"


def export_markdown(ws: Workspace, scope: str | None = None) -> str:
    now = iso(utc_now())
    rooms: dict[str, list[tuple[dict[str, Any], str]]] = {room: [] for room in ROOMS}
    for ref in ws.layers():
        if scope and ref.kind != scope:
            continue
        for rec in load(ref)["records"].values():
            if rec.get("status") == "active" and is_current(rec, now):
                rooms[rec.get("kind") if rec.get("kind") in ROOMS else "note"].append((rec, ref.kind))
    lines = ["# Lingshu memory", ""]
    for room in ROOMS:
        lines += [f"## {ROOM_TITLES[room]}", ""]
        if not rooms[room]:
            lines += ["(empty)", ""]
        for rec, layer in sorted(rooms[room], key=lambda t: (t[0].get("title", "").lower(), t[0]["id"])):
            lines += [f"### {rec.get('title', '')}", ""]
            meta = [f"Layer: {layer}"]
            if rec.get("when"):
                meta.append(f"When: {rec['when']}")
            if rec.get("conditions"):
                meta.append("Conditions: " + ", ".join(f"{c['key']} = {c['value']}" for c in rec["conditions"]))
            if rec.get("reviewState") == "legacy_unreviewed":
                meta.append("Not yet reviewed")
            lines += [" · ".join(meta), "", str(rec.get("body", "")).strip(), ""]
    return printable("\n".join(lines).rstrip()) + "\n"
