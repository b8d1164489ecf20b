"""The per-turn ledger: budgets (SPEC §6.5) and citations (SPEC §9), kept in `ledger.json`."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta, timezone
from typing import Any

from . import spool
from .durable import encode, locked, read_json, sweep_temps, write_atomic
from .errors import LingshuError
from .paths import ledger_path
from .store import iso, utc_now
from .workspace import Workspace

SEARCH_ENTRIES = 20
SEARCH_BYTES = 16 * 1024
BODIES = 8
BODY_BYTES = 32 * 1024
CALL_GROUP_IDLE = timedelta(minutes=5)
KEEP_TURNS = 20
CITATIONS_PER_TURN = 100
GROUPS = ("hits", "read", "updated")
EMPTY_USAGE = {"searchEntries": 0, "searchBytes": 0, "bodies": 0, "bodyBytes": 0}


def _load_main(ws: Workspace) -> dict[str, Any]:
    try:
        obj = read_json(ledger_path(ws.home))
    except (OSError, ValueError):
        return {"turns": []}
    return obj if isinstance(obj, dict) and isinstance(obj.get("turns"), list) else {"turns": []}


def _with_pending(ws: Workspace) -> tuple[dict[str, Any], list[tuple[Any, dict[str, Any]]]]:
    """The ledger file with what the recall hook left in the spool replayed over it."""
    obj = _load_main(ws)
    entries = spool.pending(ws.home, "ledger")
    for _, entry in entries:
        ctx = entry.get("ctx")
        if isinstance(ctx, dict) and isinstance(entry.get("now"), str):
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                _apply(obj, ctx, _parse_time(entry["now"]), entry.get("usage"), entry.get("cite"), entry.get("recall"))
    obj["turns"] = obj["turns"][-KEEP_TURNS:]
    return obj, entries


def load_ledger(ws: Workspace) -> dict[str, Any]:
    return _with_pending(ws)[0]


def _parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def _hooked(ctx: dict[str, Any]) -> bool:
    return bool(ctx.get("id")) and ctx.get("source") == "hook"


def _find_turn(obj: dict[str, Any], ctx: dict[str, Any], now: datetime) -> dict[str, Any] | None:
    for turn in reversed(obj["turns"]):
        if turn.get("projectId") != ctx.get("projectId"):
            continue
        if _hooked(ctx):
            if turn.get("contextId") == ctx["id"]:
                return turn
            continue
        if turn.get("source") == "calls":
            last = _parse_time(turn["last"])
            return turn if now - last <= CALL_GROUP_IDLE else None
        return None
    return None


def _find_or_open(obj: dict[str, Any], ctx: dict[str, Any], now: datetime) -> dict[str, Any]:
    turn = _find_turn(obj, ctx, now)
    if turn is None:
        turn = {
            "projectId": ctx.get("projectId"),
            "contextId": ctx.get("id") if _hooked(ctx) else None,
            "source": "hook" if _hooked(ctx) else "calls",
            "started": iso(now),
            "usage": dict(EMPTY_USAGE),
            "citations": [],
        }
        obj["turns"].append(turn)
    turn["last"] = iso(now)
    return turn


def remaining(ws: Workspace, ctx: dict[str, Any]) -> dict[str, int]:
    """What this turn may still spend. Without a hook each call is its own turn (SPEC §6.5)."""
    used = dict(EMPTY_USAGE)
    if _hooked(ctx):
        turn = _find_turn(load_ledger(ws), ctx, utc_now())
        if turn:
            used.update(turn.get("usage", {}))
    limits = turn_limits(ws)
    return {key: limits[key] - used[key] for key in EMPTY_USAGE}


def turn_limits(ws: Workspace) -> dict[str, int]:
    """The per-turn budgets of SPEC §6.5, or the project's own (`budgets` in settings.json)."""
    limits = {"searchEntries": SEARCH_ENTRIES, "searchBytes": SEARCH_BYTES, "bodies": BODIES, "bodyBytes": BODY_BYTES}
    custom = ws.project.get("budgets") or {}
    for key in limits:
        value = custom.get(key)
        if isinstance(value, int) and value > 0:
            limits[key] = value
    return limits


# Tool calls, like the hook, leave their ledger entries in the spool; the call that finds this many
# waiting folds them into ledger.json. Rewriting the whole ledger under its lock on every call cost
# more than a read itself (SPEC §6.5: reads and searches stay cheap).
FOLD_AT = 32


def record(
    ws: Workspace,
    ctx: dict[str, Any],
    *,
    usage: dict[str, int] | None = None,
    cite: list[dict[str, Any]] | None = None,
    recall: dict[str, Any] | None = None,
    spooled: bool = False,
) -> None:
    """Charge usage and add citations to this turn. Dedup by record within a group: earliest
    position, latest content (readers replay the spool in order, so they see the same). The ledger
    is display bookkeeping: atomic, not fsynced, and a ledger that cannot be written (read-only
    home, busy) never fails the tool call itself. Every entry goes to the spool first (see
    `core/spool.py`); `spooled`: the recall hook's way, which never folds (it takes no lock)."""
    try:
        entry = {"ctx": ctx, "usage": usage, "cite": cite, "recall": recall, "now": iso(utc_now())}
        waiting = spool.put(ws.home, "ledger", entry, keep=KEEP_TURNS * 4)
        if not spooled and waiting >= FOLD_AT:
            compact(ws)
    except LingshuError:
        pass  # a busy ledger folds next time: the entry waits in the spool


def _apply(
    obj: dict[str, Any],
    ctx: dict[str, Any],
    now: datetime,
    usage: dict[str, int] | None,
    cite: list[dict[str, Any]] | None,
    recall: dict[str, Any] | None,
) -> None:
    turn = _find_or_open(obj, ctx, now)
    if usage and _hooked(ctx):
        for key, value in usage.items():
            turn["usage"][key] = turn["usage"].get(key, 0) + value
    for item in cite or []:
        same = next((c for c in turn["citations"] if c["id"] == item["id"] and c["group"] == item["group"]), None)
        if same:
            same.update({k: v for k, v in item.items() if k != "position"})
        else:
            turn["citations"].append({**item, "position": len(turn["citations"])})
    if len(turn["citations"]) > CITATIONS_PER_TURN:
        turn["citations"] = turn["citations"][-CITATIONS_PER_TURN:]
    if recall is not None:
        turn["recall"] = recall


def compact(ws: Workspace) -> None:
    """Fold the spooled entries into `ledger.json` (and the hook's turns into `contexts.json`)."""
    from .contexts import fold

    with locked(ws.home / ".ledger.lock", what="the citation ledger"):
        obj, entries = _with_pending(ws)
        if entries:
            write_atomic(ledger_path(ws.home), encode(obj), durable=False)
            spool.drop(entries)
        sweep_temps(ws.home)
    fold(ws)


def forget_record(ws: Workspace, rid: str) -> None:
    """A purged record leaves the ledger too: its citations (title, excerpt) go from every turn,
    including what the recall hook left in the spool."""
    with locked(ws.home / ".ledger.lock", what="the citation ledger"):
        obj, entries = _with_pending(ws)
        for turn in obj["turns"]:
            turn["citations"] = [c for c in turn.get("citations", []) if c.get("id") != rid]
            if isinstance(turn.get("recall"), dict):
                turn["recall"]["cards"] = [c for c in turn["recall"].get("cards", []) if c != rid]
        write_atomic(ledger_path(ws.home), encode(obj), durable=False)
        spool.drop(entries)
        sweep_temps(ws.home)


def cite_entry(group: str, record: dict[str, Any], layer: str, ws: Workspace) -> dict[str, Any]:
    return {
        "group": group,
        "id": record["id"],
        "layer": layer,
        "title": record.get("title", ""),
        "updated": record.get("updated", ""),
        "scope": "global" if layer == "global" else (ws.project_id or "project"),
    }


def latest_turn(ws: Workspace) -> dict[str, Any] | None:
    turns = [t for t in load_ledger(ws)["turns"] if t.get("projectId") == ws.project_id]
    return turns[-1] if turns else None


def citation_groups(turn: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]]:
    """The three fixed groups, each in order of first appearance."""
    groups: dict[str, list[dict[str, Any]]] = {g: [] for g in GROUPS}
    for c in sorted((turn or {}).get("citations", []), key=lambda c: c["position"]):
        groups[c["group"]].append(c)
    return groups


def say_once(ws: Workspace, ctx: dict[str, Any], status: str, message: str) -> str:
    """One failure, one message per turn (SPEC §10): a line already said in this hooked turn is not
    repeated word for word; the agent gets a short pointer back to it instead."""
    if not _hooked(ctx):
        return message
    try:
        with locked(ws.home / ".ledger.lock", what="the citation ledger"):
            obj, entries = _with_pending(ws)
            turn = _find_or_open(obj, ctx, utc_now())
            said = turn.setdefault("said", [])
            if message in said:
                return f"Same answer as earlier in this turn ({status}): nothing changed since; do not retry this turn."
            said.append(message)
            obj["turns"] = obj["turns"][-KEEP_TURNS:]
            write_atomic(ledger_path(ws.home), encode(obj), durable=False)
            spool.drop(entries)
    except LingshuError:
        pass
    return message
