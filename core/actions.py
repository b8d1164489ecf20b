"""What a person does in the panel, as core calls: keep, ignore, archive, restore, move, undo,
remove, decide a conflict, switch memory on. Each goes through the same dispatch and gates as
the agent's tools (SPEC §13.5); none touches learning state or the recall budget."""

from __future__ import annotations

from typing import Any

from .errors import LingshuError
from .lookup import find
from .routing import global_refusal
from .settings import set_project_setting
from .store import LayerRef, Tx, iso, load, transact, utc_now
from .tools import dispatch
from .workspace import Workspace


def _call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return dispatch(tool, args, workspace=ws, actor="user")


def _off(ws: Workspace) -> dict[str, Any] | None:
    if not ws.memory_on:
        return {"ok": False, "status": "memory_disabled", "message": "Memory is off for this project: switch it on first (o)."}
    return None


def _drop_from_queue(ref: LayerRef, key: str, which: str, match: str) -> None:
    def change(state: dict[str, Any], tx: Tx) -> None:
        state[key] = [item for item in state[key] if item.get(which) != match]

    transact(ref, change)


def keep_suggestion(ws: Workspace, layer: str, suggestion_id: str) -> dict[str, Any]:
    """Keep (保留): write the proposal at once as the person's save, then take the row away."""
    if (stop := _off(ws)) is not None:
        return stop
    ref = ws.layer(layer)
    item = next((s for s in _state(ref)["suggestions"] if s["id"] == suggestion_id), None) if ref else None
    if not item or not ref:
        return {"ok": False, "status": "gone", "message": "That suggestion is no longer there (kept or ignored elsewhere)."}
    proposal = {k: v for k, v in item["proposal"].items() if k not in ("id", "revision", "contextId")}
    proposal["scope"] = layer
    result = _call(ws, "memory_save", proposal)
    if result.get("committed") or result.get("dup_of"):
        _drop_from_queue(ref, "suggestions", "id", suggestion_id)
    return result


def ignore_suggestion(ws: Workspace, layer: str, suggestion_id: str) -> dict[str, Any]:
    if (stop := _off(ws)) is not None:
        return stop
    ref = ws.layer(layer)
    if ref is None:
        return {"ok": False, "status": "gone", "message": "That layer is not available."}
    item = next((x for x in _state(ref)["suggestions"] if x.get("id") == suggestion_id), None)
    if item is None:
        return {"ok": False, "status": "gone", "message": "That suggestion is no longer there (kept or ignored elsewhere)."}
    _drop_from_queue(ref, "suggestions", "id", suggestion_id)
    return {"ok": True, "status": "ok", "item": item}


def decide_conflict(ws: Workspace, layer: str, key: str, decision: str) -> dict[str, Any]:
    """save as new · replace candidate 1 or 2 · discard; the item leaves the queue at once."""
    if (stop := _off(ws)) is not None:
        return stop
    ref = ws.layer(layer)
    item = next((c for c in _state(ref)["conflicts"] if c.get("key") == key), None) if ref else None
    if not item or not ref:
        return {"ok": False, "status": "gone", "message": "That conflict was already decided."}
    proposal = {k: v for k, v in item["proposal"].items() if k not in ("id", "revision", "contextId", "resolution")}
    if decision == "discard":
        _drop_from_queue(ref, "conflicts", "key", key)
        return {"ok": True, "status": "ok", "item": item}
    if decision == "new":
        result = _call(ws, "memory_save", {**proposal, "resolution": "distinct"})
    else:
        index = int(decision.removeprefix("replace")) - 1
        if index >= len(item["candidates"]):
            return {"ok": False, "status": "invalid", "message": "There is no such candidate."}
        target = item["candidates"][index]["id"]
        proposal.pop("scope", None)
        result = _call(ws, "memory_save", {**proposal, "id": target})
    if result.get("committed"):
        _drop_from_queue(ref, "conflicts", "key", key)
    return {**result, "item": item}


def requeue(ws: Workspace, layer: str, which: str, item: dict[str, Any]) -> dict[str, Any]:
    """Put an ignored suggestion or a decided conflict back in its queue as it was (the panel's
    undo). An item with the same id or key already there (the agent proposed it again) stays."""
    if (stop := _off(ws)) is not None:
        return stop
    ref = ws.layer(layer)
    if ref is None:
        return {"ok": False, "status": "gone", "message": "That layer is not available."}
    match = "id" if which == "suggestions" else "key"

    def change(state: dict[str, Any], tx: Tx) -> None:
        if not any(x.get(match) == item.get(match) for x in state[which]):
            state[which].append(item)

    transact(ref, change)
    return {"ok": True, "status": "ok"}


def undo_decision(ws: Workspace, layer: str, decision: str, result: dict[str, Any]) -> dict[str, Any]:
    """Take back a conflict decision: the note saved as new is archived, a replaced note gets its
    earlier text back as a new revision (both stay in its history), and the proposal returns to
    the queue. A replaced note the agent changed since is left alone (`conflict`). `result` is
    what `decide_conflict` answered; its `item` is the conflict as it was queued."""
    if decision == "new" and result.get("id"):
        taken = archive(ws, result["id"])
    elif decision.startswith("replace") and result.get("id"):
        taken = _previous_text(ws, result["id"], int(result.get("revision", 0)))
    else:
        taken = {"ok": True, "status": "ok"}
    if not taken.get("ok"):
        return taken
    return requeue(ws, layer, "conflicts", result["item"])


def _previous_text(ws: Workspace, rid: str, revision: int) -> dict[str, Any]:
    found = find(ws, rid)
    versions = found[1].get("versions") if found else None
    if not found or not versions:
        return {"ok": False, "status": "gone", "message": "That note has no earlier text to go back to."}
    prev = versions[0]
    return _call(ws, "memory_save", {"id": rid, "revision": revision,
                                     **{k: prev.get(k, "") for k in ("title", "summary", "body", "when")}})


def archive(ws: Workspace, rid: str) -> dict[str, Any]:
    return _call(ws, "memory_forget", {"id": rid, "action": "archive"})


def restore(ws: Workspace, rid: str) -> dict[str, Any]:
    return _call(ws, "memory_forget", {"id": rid, "action": "restore"})


def undo(ws: Workspace, rid: str, revision: int) -> dict[str, Any]:
    """Undo by id + the revision the person was looking at; a newer revision is a conflict, never a guess."""
    return _call(ws, "memory_forget", {"id": rid, "action": "undo", "revision": revision})


def remove(ws: Workspace, rid: str) -> dict[str, Any]:
    """Purge, after the panel's confirmation."""
    return _call(ws, "memory_forget", {"id": rid, "action": "purge", "force": True})


def move(ws: Workspace, rid: str, to: str) -> dict[str, Any]:
    """Move a record to the other layer, under the routing rules of SPEC §6.3.5. The copy lands
    first, then the original leaves, so a crash in between leaves two copies, never none."""
    if (stop := _off(ws)) is not None:
        return stop
    found = find(ws, rid)
    target = ws.layer(to)
    if not found or found[1].get("status") != "active":
        return {"ok": False, "status": "gone", "message": "Only active records can be moved; restore it first."}
    if target is None:
        return {"ok": False, "status": "needs_context", "message": "No project is confirmed, so there is no project layer to move to."}
    source, rec = found
    if source.kind == to:
        return {"ok": True, "status": "ok", "message": f"It is already in the {to} layer."}
    text = " ".join(str(rec.get(k, "")) for k in ("title", "summary", "when", "body"))
    if to == "global" and (detail := global_refusal(text, rec.get("conditions") or [])):
        return {"ok": False, "status": "needs_context",
                "message": f"It names a local detail ({detail}); add a device condition (machine, targetOs, runtime or shell) before moving it to global."}
    moved = dict(rec, revision=int(rec.get("revision", 1)) + 1, updated=iso(utc_now()))
    moved.pop("ownerProjectId", None)
    if to == "project":
        moved["ownerProjectId"] = ws.project_id

    def put(state: dict[str, Any], tx: Tx) -> None:
        state["records"][rid] = moved

    def take(state: dict[str, Any], tx: Tx) -> None:
        state["records"].pop(rid, None)

    try:
        transact(target, put)
        transact(source, take)
    except LingshuError as err:
        return {"ok": False, "status": err.status, "message": err.message}
    return {"ok": True, "status": "ok", "id": rid, "layer": to}


def mark_reviewed(ws: Workspace, rid: str, reviewed: bool = True) -> dict[str, Any]:
    """Mark an imported record reviewed (or, to undo that from the panel, unreviewed again)."""
    if (stop := _off(ws)) is not None:
        return stop
    found = find(ws, rid)
    if not found:
        return {"ok": False, "status": "gone", "message": "That record is gone."}

    def change(state: dict[str, Any], tx: Tx) -> None:
        if rid in state["records"]:
            r = tx.edit(state, rid)
            r["reviewState"] = "reviewed" if reviewed else "legacy_unreviewed"
            r["revision"] = int(r.get("revision", 1)) + 1
            r["updated"] = iso(utc_now())

    transact(found[0], change)
    return {"ok": True, "status": "ok"}


def confirm_here(ws: Workspace) -> dict[str, Any]:
    """The person confirms the folder the panel was opened in as a project root (SPEC §1.3)."""
    from .settings import confirm_project

    if ws.project_id:
        return {"ok": True, "status": "ok", "message": "This folder already belongs to a confirmed project."}
    pid = confirm_project(ws.home, ws.cwd)
    return {"ok": True, "status": "ok", "projectId": pid}


def set_memory(ws: Workspace, on: bool) -> dict[str, Any]:
    if not ws.project_id:
        return {"ok": False, "status": "needs_context", "message": "No project is confirmed here; the global layer is always on."}
    set_project_setting(ws.home, ws.project_id, "enabled", on)
    return {"ok": True, "status": "ok"}


def set_learning(ws: Workspace, on: bool) -> dict[str, Any]:
    """The person switches self-evolution for the project (issue 17); learned rules stay, hidden while off."""
    if (stop := _off(ws)) is not None:
        return stop
    if not ws.project_id:
        return {"ok": False, "status": "needs_context", "message": "Learning works per confirmed project: confirm this folder first (p)."}
    set_project_setting(ws.home, ws.project_id, "experimental", on)
    return {"ok": True, "status": "ok"}


def applies(rec: dict[str, Any] | None, what: str) -> bool | None:
    """Whether a person's action fits this record (no restore on an active one, no `v` on a reviewed
    one, nothing but reading on a replaced one); None for actions that do not depend on it."""
    if what not in ("archive", "restore", "move", "reviewed", "remove"):
        return None
    if rec is None or rec.get("supersededBy"):
        return False  # a replaced note is history: it is read, not changed
    status = rec.get("status", "active")
    if what == "restore":
        return status == "archived"
    if what == "remove":
        return status in ("active", "archived")
    if what == "reviewed":
        return status == "active" and rec.get("reviewState") == "legacy_unreviewed"
    return status == "active"


def _state(ref: LayerRef | None) -> dict[str, Any]:
    return load(ref) if ref else {"suggestions": [], "conflicts": []}
