"""The single `memory {op, …}` tool (SPEC §14.3), speaking the protocol seed (dsh-memory 0.5.0)
exactly: its argument names (`node_id`, `content`), its answer forms key for key
(`protocol.SEED_FORMS`), `null` for a node that is not there. Every op runs through the same
dispatch as the six tools; this module only maps arguments in and answers out."""

from __future__ import annotations

from typing import Any

from .protocol import TOOL_FAULTS, derive_op
from .tools import dispatch

_NODE_FIELDS = ("title", "summary", "when", "kind", "layer", "revision", "updated", "conditions")
_NODE_OPTIONAL = ("validFrom", "validUntil", "supersedes", "supersededBy", "supersedeReason", "links")


def memory_op(args: Any, **where: Any) -> dict[str, Any] | None:
    """Run one verb. Without `op`, derive it and say so (`op`, `op_derived`, `hint`)."""
    if not isinstance(args, dict):
        return _refused("Arguments for memory must be a JSON object. Nothing was done.")
    raw = args.get("op")
    derived = raw in (None, "")
    op = derive_op(args) if derived else str(raw).strip().lower()
    rest = _lingshu_names({k: v for k, v in args.items() if k != "op"})
    if op == "route":
        answer: dict[str, Any] | None = _route(rest, where)
    elif op == "read":
        answer = _read(rest, where)
    elif op == "write":
        answer = _write(rest, where)
    elif op == "supersede":
        answer = _supersede(rest, where)
    elif op == "forget":
        answer = _forget(rest, where)
    else:
        return _refused(f"Unknown op '{op}'. Use one of route, read, write, supersede, forget.")
    if derived and answer is not None:
        note = f"No op was given, so '{op}' was derived from the arguments; pass op explicitly."
        answer = {**answer, "op": op, "op_derived": True, "hint": f"{answer['hint']} {note}" if answer.get("hint") else note}
    return answer


def is_fault(answer: dict[str, Any] | None) -> bool:
    """Whether the tool itself failed (bad call, busy lock), as opposed to a gate or an empty answer:
    an MCP client is told with `isError`."""
    return answer is not None and (answer.get("gate") in TOOL_FAULTS or answer.get("reason") in TOOL_FAULTS)


def _refused(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message, "reason": "invalid"}


def _lingshu_names(rest: dict[str, Any]) -> dict[str, Any]:
    if "node_id" in rest:
        rest.setdefault("id", rest.pop("node_id"))
    if "content" in rest:
        rest.setdefault("body", rest.pop("content"))
    return rest


# ---------------------------------------------------------------- route and read


def _route(rest: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    if "query" in rest and "intent" not in rest:
        rest["intent"] = rest.pop("query")
    r = dispatch("memory_route", rest, **where)
    meta = {**(r.get("meta") or {}), "status": r.get("status")}
    if r.get("status") != "ok":
        return {"knowledge": [], "meta": {**meta, "message": r.get("message", "")}, "note": r.get("message", "")}
    return {"knowledge": r.get("knowledge", []), "meta": meta, "suggested_capabilities": r.get("suggested_capabilities", []),
            "note": r.get("note", "")}


def _read(rest: dict[str, Any], where: dict[str, Any]) -> dict[str, Any] | None:
    if rest.get("intent") and not rest.get("query"):
        rest["query"] = rest.pop("intent")
    if rest.get("id") and not rest.get("query"):
        return _node(dispatch("memory_read", rest, **where))
    r = dispatch("memory_search", rest, **where)
    meta = {**(r.get("meta") or {}), "status": r.get("status")}
    for key in ("reasonCode", "message"):
        if r.get(key):
            meta[key] = r[key]
    if rest.get("budget_tokens") is not None:
        return {"pack": r.get("pack", []), "tokens_used": r.get("tokens_used", 0), "budget": r.get("budget", rest.get("budget_tokens")),
                "skipped": r.get("skipped", []), "recent": r.get("recent", []), "meta": meta}
    return {"meta": meta, "results": r.get("results", [])}


def _node(r: dict[str, Any]) -> dict[str, Any] | None:
    """A record as the seed's node; null when there is none to give (missing, archived, foreign, not
    applicable, and also memory off or a spent budget: the six tools say which)."""
    if not r.get("ok") or r.get("status") != "ok":
        return None
    front = {k: r[k] for k in _NODE_FIELDS if k in r}
    front.update({k: r[k] for k in _NODE_OPTIONAL if k in r})
    body = str(r.get("body", ""))
    return {"id": r["id"], "path": f"lingshu://{r['layer']}/{r['id']}", "frontmatter": front, "content": body,
            "verification_state": "unreviewed" if r.get("reviewState") == "legacy_unreviewed" else "reviewed",
            "content_bytes": len(body.encode("utf-8"))}


# ---------------------------------------------------------------- write, supersede, forget


def _write(rest: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    if rest.get("body") and not rest.get("title") and not rest.get("id"):
        from .importing import title_from  # the seed writes content alone; a title is made from its first sentence

        rest["title"] = title_from(str(rest["body"])) or "Untitled note"
    tool = "memory_suggest" if rest.pop("suggest", False) else "memory_save"
    return _write_form(dispatch(tool, rest, **where))


def _write_form(r: dict[str, Any]) -> dict[str, Any]:
    trio = {"ok": bool(r.get("ok")), "id": r.get("id", ""), "committed": bool(r.get("committed"))}
    consistency = {k: r[k] for k in ("status", "revision", "layer", "pendingConflicts", "routedTo", "routedBecause", "warnings", "message",
                                     "candidates", "needsResolution") if k in r}
    if r.get("committed"):
        out = {**trio, "verdict": r.get("verdict") or _accepted(r), "consistency": consistency}
        if r.get("archived"):
            out["propagation"] = {"archived": r["archived"]}
        return out
    if r.get("moved_to"):
        out = {**trio, "moved_to": r["moved_to"], "verdict": r["verdict"], "hint": r.get("hint", ""), "consistency": consistency}
        if r.get("dup_of"):
            out["dup_of"] = r["dup_of"]
        return out
    if r.get("gate"):
        out = {**trio, "gate": r["gate"], "error": r.get("error") or r.get("message", ""), "hint": r.get("hint", ""), "verdict": r["verdict"]}
        missing = (["scope"] if r.get("needsScope") else []) + ([r["field"]] if r.get("field") else [])
        if missing:
            out["missing"] = missing
        return out
    # A tool fault (invalid call, busy lock, unreadable layer): the seed's hard-reject form, the status as the gate.
    message = r.get("message", "")
    return {**trio, "gate": r.get("status", "invalid"), "error": message,
            "hint": "The call itself failed, not a gate: fix what the error names, or retry when it says so.",
            "verdict": {"state": "REJECT", "kind": r.get("status", "invalid"), "basis": "the call's arguments and the store's state",
                        "evidence": [], "detail": message}}


def _accepted(r: dict[str, Any]) -> dict[str, Any]:
    return {"state": "ACCEPT", "kind": "write", "basis": "every write gate passed (memory switch, scope, safety scan, revision, look-alikes)",
            "evidence": [f"{r.get('layer', '')} layer revision {r.get('revision', '')}"], "detail": "saved"}


def _supersede(rest: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    old = rest.pop("id", None) or rest.get("supersedes")
    if rest.pop("superseded_by", None) and not rest.get("body"):
        return {"ok": False, "id": old or "", "superseded_by": None,
                "verdict": {"state": "REJECT", "kind": "supersede", "basis": "the call's arguments", "evidence": [],
                            "detail": "Lingshu replaces a record by writing its successor: pass node_id (the old record) and content "
                                      "(and a title) for the new one. Nothing was changed."}}
    if not old:
        return {"ok": False, "id": "", "superseded_by": None,
                "verdict": {"state": "REJECT", "kind": "supersede", "basis": "the call's arguments", "evidence": [],
                            "detail": "op supersede needs node_id: the id of the record to replace. Nothing was written."}}
    rest["supersedes"] = old
    w = _write({k: v for k, v in rest.items()}, where)
    out: dict[str, Any] = {"ok": w["ok"], "id": old, "superseded_by": w["id"] if w["committed"] else None,
                           "verdict": w.get("verdict") or {}}
    if w.get("propagation"):
        out["propagation"] = w["propagation"]
    return out


def _forget(rest: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    action = str(rest.get("action") or "archive")
    r = dispatch("memory_forget", rest, **where)
    if r.get("committed"):
        if action == "restore":
            return {"ok": True, "id": r["id"], "forced": bool(r.get("forced"))}
        return {"ok": True, "id": r["id"], "tombstone": bool(r.get("tombstone", action in ("archive", "purge")))}
    out = {"ok": False, "error": r.get("message") or r.get("error", ""), "reason": r.get("status", ""), "action": action}
    if r.get("hint"):
        out["hint_action"] = r["hint"]
    return out
