"""Request contexts: what is known about the current turn (SPEC §4.2, §4.4)."""

from __future__ import annotations

import os
from functools import lru_cache
import sys
from datetime import datetime, timedelta
from typing import Any

from . import spool
from .durable import encode, locked, random_hex, read_json, write_atomic
from .errors import NeedsContext
from .paths import contexts_path
from .records import parse_time
from .settings import TASK_FIELDS
from .store import iso, utc_now
from .workspace import Workspace

CONTEXT_TTL = timedelta(hours=12)
KEEP = 64


def _os_name() -> str:
    return {"win32": "windows", "cygwin": "windows"}.get(sys.platform, sys.platform.rstrip("0123456789"))


def _machine() -> str | None:
    # os.uname and sys.platform instead of the socket and platform modules: this runs at recall start-up.
    if hasattr(os, "uname"):
        return os.uname().nodename or None
    return os.environ.get("COMPUTERNAME") or None


def environment_facts(ws: Workspace, cwd: str | None = None) -> dict[str, Any]:
    shell = os.path.basename(os.environ.get("SHELL", "")) or None
    return {
        "projectId": ws.project_id,
        "projectRoot": ws.project_root,
        "cwd": os.path.realpath(cwd or ws.cwd),
        "os": _os_name(),
        "shell": shell,
        "machine": _machine(),
    }


# Processes that stand between an agent and what it runs (a hook command, a Bash tool call):
# looking through them finds the agent's own process, shared by its hook and its tool calls.
_LAUNCHERS = frozenset({"sh", "bash", "dash", "zsh", "fish", "ksh", "csh", "tcsh", "env", "timeout", "nice", "nohup", "xargs"})


@lru_cache(maxsize=1)
def agent_host() -> int:
    """The process this one works for: its parent, looking through shells and launchers (Linux's
    /proc; elsewhere the parent). The recall hook and the MCP server of one agent session share it,
    while another session is another process: this is how a tool call finds its own session's turn.
    A process's parent never changes: worked out once (every tool call asks)."""
    pid = os.getppid()
    for _ in range(4):
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return pid
        if name not in _LAUNCHERS or parent <= 1:
            return pid
        pid = parent
    return pid


def build_context(ws: Workspace, *, cwd: str | None = None, task: dict[str, Any] | None = None) -> dict[str, Any]:
    """A context for one call, built from the environment, the caller's task fields and the
    project's task defaults (a scope hint: they fill only what the caller left out)."""
    ctx = environment_facts(ws, cwd)
    defaults = ws.project.get("taskDefaults") or {}
    for key in TASK_FIELDS:
        value = (task or {}).get(key) or defaults.get(key)
        if value:
            ctx[key] = value
    ctx["experimental"] = bool(ws.project.get("experimental", False))
    return ctx


def _load_main(ws: Workspace) -> dict[str, Any]:
    try:
        obj = read_json(contexts_path(ws.home))
    except (OSError, ValueError):
        return {"contexts": [], "sessions": {}}
    if not isinstance(obj, dict) or not isinstance(obj.get("contexts"), list) or not isinstance(obj.get("sessions", {}), dict):
        return {"contexts": [], "sessions": {}}
    obj.setdefault("sessions", {})
    return obj


def _with_pending(ws: Workspace) -> tuple[dict[str, Any], list[tuple[Any, dict[str, Any]]]]:
    """`contexts.json` with the turns the hook opened since it was last written (`core/spool.py`)."""
    obj = _load_main(ws)
    entries = spool.pending(ws.home, "contexts")
    for _, ctx in entries:
        if isinstance(ctx.get("id"), str):
            obj["contexts"].append(ctx)
            if ctx.get("sessionId"):
                obj["sessions"][str(ctx["sessionId"])] = ctx["id"]
    obj["contexts"] = obj["contexts"][-KEEP:]
    obj["sessions"] = dict(list(obj["sessions"].items())[-KEEP:])
    return obj, entries


def _load(ws: Workspace) -> dict[str, Any]:
    return _with_pending(ws)[0]


def open_turn(ws: Workspace, *, session_id: str | None, cwd: str | None, task: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new human message: a new context with its own id, remembered for the session. Runs in
    the hook on every message, so it takes no lock: the context goes to the spool."""
    ctx = build_context(ws, cwd=cwd, task=task)
    ctx.update(id="ctx_" + random_hex(8), sessionId=session_id, created=iso(utc_now()), source="hook", host=agent_host())
    spool.put(ws.home, "contexts", ctx, keep=KEEP)
    return ctx


def remember(ws: Workspace, ctx: dict[str, Any]) -> str:
    """Keep a context a call built (a search that named its task) under a new id, so the reads
    that follow can pass that id instead of naming the task again."""
    kept = {**ctx, "id": "ctx_" + random_hex(8), "created": iso(utc_now()), "source": "search"}
    spool.put(ws.home, "contexts", kept, keep=KEEP)
    return str(kept["id"])


def fold(ws: Workspace) -> None:
    """Write the spooled contexts into `contexts.json` (a writer's chore, under its lock)."""
    if not spool.pending(ws.home, "contexts"):
        return  # nothing to fold: no lock taken
    with locked(ws.home / ".contexts.lock", what="the turn list"):
        obj, entries = _with_pending(ws)
        if not entries:
            return
        # Contexts are turn bookkeeping, rebuilt by the next message: atomic, but not fsynced.
        write_atomic(contexts_path(ws.home), encode(obj), durable=False)
        spool.drop(entries)


def _expired(ctx: dict[str, Any], now: datetime) -> bool:
    # Every tool call checks each kept turn: strptime cost 1 ms a call at forty turns.
    created = parse_time(ctx.get("created"))
    return created is None or now - created > CONTEXT_TTL


def resolve_context(ws: Workspace, context_id: str | None, task: dict[str, Any] | None = None) -> dict[str, Any]:
    """The context a tool call is checked against (SPEC §4.4). Without an id it is the latest turn
    of the caller's own session (the turn its agent's hook opened: same agent process), else the
    latest of this project; that is also how a continuation turn (no new human message) reuses it."""
    now = utc_now()
    if context_id:
        ctx = next((c for c in _load(ws)["contexts"] if c.get("id") == context_id), None)
        if ctx is None or _expired(ctx, now) or ctx.get("projectId") != ws.project_id:
            why = "unknown" if ctx is None else ("expired" if _expired(ctx, now) else "of another project")
            raise NeedsContext(
                f"The contextId you passed is {why}, so this turn cannot be checked. "
                "State the current task again, or call without contextId to use this turn's context."
            )
        ctx = dict(ctx)
    else:
        # A context a search kept is used by id only: it never becomes the turn's context.
        latest = [c for c in _load(ws)["contexts"]
                  if c.get("projectId") == ws.project_id and not _expired(c, now) and c.get("source") != "search"]
        host = agent_host()
        own = [c for c in latest if c.get("host") == host]
        ctx = dict((own or latest)[-1]) if latest else build_context(ws)
    for key in TASK_FIELDS:
        if task and task.get(key):
            ctx[key] = task[key]
    return ctx
