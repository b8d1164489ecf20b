"""The single `memory {op, …}` tool (SPEC §14.3): one entry over the same dispatch as the six tools."""

from __future__ import annotations

from typing import Any

from .protocol import derive_op
from .tools import dispatch


def memory_op(args: dict[str, Any], **where: Any) -> dict[str, Any]:
    """Run one verb. Without `op`, derive it from the arguments and say so in the answer."""
    if not isinstance(args, dict):
        return {"ok": False, "status": "invalid", "message": "Arguments for memory must be a JSON object. Nothing was done."}
    raw = args.get("op")
    derived = raw in (None, "")
    op = derive_op(args) if derived else str(raw).strip().lower()
    rest = {k: v for k, v in args.items() if k != "op"}
    if "content" in rest:
        rest.setdefault("body", rest.pop("content"))
    if op == "route":
        if "query" in rest and "intent" not in rest:
            rest["intent"] = rest.pop("query")
        result = dispatch("memory_route", rest, **where)
    elif op == "read":
        tool = "memory_read" if rest.get("id") and not rest.get("query") else "memory_search"
        result = dispatch(tool, rest, **where)
    elif op == "write":
        result = dispatch("memory_suggest" if rest.pop("suggest", False) else "memory_save", rest, **where)
    elif op == "supersede":
        if not rest.get("supersedes"):
            return {"ok": False, "id": "", "committed": False, "status": "invalid",
                    "message": "op supersede needs `supersedes`: the id of the record to replace. Nothing was written."}
        result = dispatch("memory_save", rest, **where)
    elif op == "forget":
        result = dispatch("memory_forget", rest, **where)
    else:
        return {"ok": False, "status": "invalid", "message": f"Unknown op '{op}'. Use one of route, read, write, supersede, forget."}
    if derived:
        note = f"No op was given, so '{op}' was derived from the arguments; pass op explicitly."
        result = {**result, "op": op, "op_derived": True, "hint": f"{result['hint']} {note}" if result.get("hint") else note}
    return result
