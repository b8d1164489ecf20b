"""The six memory tools as one dispatch (SPEC §6). MCP, `lingshu call` and the panel all call
`dispatch`; every rule is applied here or in the module it names, never in a face."""

from __future__ import annotations

import contextlib
import heapq
import secrets
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import index, ledger
from .contexts import remember, resolve_context
from .durable import encode
from .eligibility import eligibility, is_current
from .errors import ColdBodyError, LingshuError
from .lookup import archived_in, find, ranked_usable
from .models import TOOL_INPUTS, ForgetInput, ReadInput, RouteInput, SaveInput, SearchInput, SuggestInput
from .recall import card_content, verdict_key
from .records import ID_RE, record_problem
from .routing import global_refusal
from .search import similarity, token_set
from .statuses import Status
from .store import BODY_BYTES, HARD_ACTIVE, SOFT_ACTIVE, LayerRef, Tx, iso, load, take_recovery_news, transact, utc_now
from .workspace import Workspace, open_workspace

WRITE_TOOLS = ("memory_save", "memory_suggest", "memory_forget")
MEMORY_OFF = ("Memory is off for this project, so nothing was read or written. "
              "Ask the user to switch it on in the panel; never switch it on yourself.")
VERSIONS_KEPT = 10
# Earlier versions share the layer file's 2 MiB with everything else: 46 records of 4 KB edited ten
# times used to fill it. Each record keeps at most this many bytes of history, oldest dropped first.
VERSIONS_BYTES = 12 * 1024
CONFLICTS_KEPT = 20
SIMILAR_TITLE = 0.6
SIMILAR_BODY = 0.8
# A body of fewer words is boilerplate ("See docs.", "TBD"): two notes that share it are not alike.
LOOKALIKE_BODY_WORDS = 4


class UnknownTool(Exception):
    """A tool name the dispatch does not have (a usage error, not a tool answer)."""


# ---------------------------------------------------------------- results


def _fail(status: Status, message: str, *, write: bool, rid: str = "", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"ok": False, "status": status, "message": message}
    if write:
        out.update(id=rid, committed=False)
    elif rid:
        out["id"] = rid
    out.update(extra)
    return out


# What each gate looks at: the verdict's `basis`. Its `evidence` names what it found there.
_BASIS = {
    "memory_switch": "the project's memory switch (lingshu settings)",
    "safety_scan": "the text of every field, read together as the card renders it",
    "scope": "the confirmed project roots and the note's device conditions",
    "topic_slot": "the current holder of the note's topic slot",
    "revision": "the revision sent against the revision on disk",
    "supersede": "the record to be replaced",
    "purge": "the record's status",
    "undo": "the record's revision and its earlier versions",
    "none": "the records already stored (same title and body)",
    "conflicts": "look-alike records: the same title, a similar body, the same topic slot",
    "suggestions": "the project's write mode, or a call of memory_suggest",
}


def _verdict(state: str, kind: str, message: str, evidence: list[str] | None) -> dict[str, Any]:
    """A gate's decision. A gate that could not see what it needs to decide says BLINDSPOT."""
    return {"state": state, "kind": kind, "basis": _BASIS.get(kind, kind), "evidence": list(evidence or []), "detail": message}


def _gate(status: Status, gate: str, message: str, hint: str, *, rid: str = "", state: str = "REJECT",
          evidence: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A gate stopped the write on purpose: `ok: true, committed: false`; retrying gives the same answer."""
    if status == "needs_context":
        state = "BLINDSPOT"  # the gate lacks what it needs to decide (no project, no task), not a judgement of the text
    return {
        "ok": True,
        "id": rid,
        "committed": False,
        "status": status,
        "gate": gate,
        "error": message,
        "message": message,
        "hint": hint,
        "verdict": _verdict(state, gate, message, evidence),
        **extra,
    }


def _short_circuit(status: Status, moved_to: str, message: str, hint: str, *, rid: str = "", state: str = "DEFER",
                   evidence: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out = {
        "ok": True,
        "id": rid,
        "committed": False,
        "status": status,
        "moved_to": moved_to,
        "hint": hint,
        "verdict": _verdict(state, moved_to, message, evidence),
        **extra,
    }
    if status != "ok" or message:
        out["message"] = message
    return out


def _now() -> str:
    return iso(utc_now())


def new_id() -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    return "mem_" + "".join(secrets.choice(alphabet) for _ in range(16))


def _cond_key(conditions: list[dict[str, str]] | None) -> frozenset[tuple[str, str]]:
    return frozenset((c["key"], c["value"].strip().lower()) for c in conditions or [])



# ---------------------------------------------------------------- memory_search


def _hit(rec: dict[str, Any], layer: str, score: float, history: bool) -> dict[str, Any]:
    hit = {
        "id": rec["id"],
        "title": rec.get("title", ""),
        "summary": rec.get("summary", ""),
        "when": rec.get("when", ""),
        "layer": layer,
        "kind": rec.get("kind", "note"),
        "updated": rec.get("updated", ""),
        "score": round(score, 4),
    }
    if history:
        for key in ("supersededBy", "supersedes", "validUntil"):
            if rec.get(key):
                hit[key] = rec[key]
    return hit


def _registered(ws: Workspace, key: str, value: str) -> bool:
    return any(index.registered(ref, key, value) for ref in ws.layers())


def memory_search(ws: Workspace, inp: SearchInput, actor: str = "agent") -> dict[str, Any]:
    if not ws.memory_on:
        return _disabled(write=False)
    task = {"taskKind": inp.taskKind, "seriesId": inp.seriesId}
    ctx = resolve_context(ws, inp.contextId, task)
    meta: dict[str, Any] = {"query": inp.query, "layers": [r.kind for r in ws.layers()]}
    for key in ("taskKind", "seriesId"):
        value = task[key]
        if value and not _registered(ws, key, value):
            return {
                "ok": True, "status": "ok", "results": [], "meta": meta, "reasonCode": "no_match",
                "message": f"No memory is registered for {key} '{value}'. Nothing to use for it yet; go ahead without memory.",
            }
    usable, held = ranked_usable(ws, inp.query, ctx, "search", history=inp.history, scope=inp.scope, want=inp.limit)
    if not usable:
        if held:
            code = "applicability_unresolved" if all(h != "not_applicable" for h in held) else "not_applicable"
            msg = (
                "There is related memory, but its conditions are not confirmed for this task. Describe the current task (or pass taskKind), then search again."
                if code == "applicability_unresolved"
                else "There is related memory, but it clearly does not apply to the current task. Do not retry; carry on without it."
            )
            return {"ok": True, "status": "ok", "results": [], "meta": meta, "reasonCode": code, "message": msg}
        return {"ok": True, "status": "ok", "results": [], "meta": meta, "reasonCode": "no_match",
                "message": "Nothing in memory matches. Go ahead without it; save what you learn with memory_save."}
    hits = [_hit(rec, layer, score, inp.history) for score, rec, layer in usable][: inp.limit]
    left = ledger.remaining(ws, ctx)
    if inp.budget_tokens is not None:
        return _pack(ws, ctx, hits, inp.budget_tokens, left, meta)
    kept: list[dict[str, Any]] = []
    used = 0
    for hit in hits:
        size = len(encode(hit))
        if used + size > left["searchBytes"] or len(kept) >= left["searchEntries"]:
            break
        kept.append(hit)
        used += size
    if not kept:
        return _fail("budget_exhausted", "This turn's search budget is spent. Use what you already found; search again next turn.", write=False, results=[], meta=meta)
    meta["returned"] = len(kept)
    meta["cut"] = len(hits) - len(kept)
    if inp.taskKind or inp.seriesId:
        # The reads that follow reuse this task by passing meta.contextId (issue 14).
        with contextlib.suppress(LingshuError):
            meta["contextId"] = remember(ws, ctx)
    ledger.record(
        ws, ctx, usage={"searchEntries": len(kept), "searchBytes": used},
        cite=[{**ledger.cite_entry("hits", {"id": h["id"], "title": h["title"], "updated": h["updated"]}, h["layer"], ws), "excerpt": h["summary"]} for h in kept],
    )
    return {"ok": True, "status": "ok", "results": kept, "meta": meta}


def _pack(ws: Workspace, ctx: dict[str, Any], hits: list[dict[str, Any]], budget: int, left: dict[str, int], meta: dict[str, Any]) -> dict[str, Any]:
    """The `read.pack` form: whole hits that fit `budget` tokens (4 bytes a token), never cut."""
    pack: list[dict[str, Any]] = []
    skipped, used = 0, 0
    cap = min(budget * 4, left["searchBytes"])
    for hit in hits:
        size = len(encode(hit))
        if used + size > cap or len(pack) >= left["searchEntries"]:
            skipped += 1
            continue
        pack.append(hit)
        used += size
    if not pack:
        return _fail("budget_exhausted", "Nothing fits in that token budget or this turn's search budget. Raise budget_tokens or search next turn.", write=False, results=[], meta=meta)
    ledger.record(ws, ctx, usage={"searchEntries": len(pack), "searchBytes": used},
                  cite=[ledger.cite_entry("hits", {"id": h["id"], "title": h["title"], "updated": h["updated"]}, h["layer"], ws) for h in pack])
    recent = sorted(pack, key=lambda h: h["updated"], reverse=True)[:3]
    return {"ok": True, "status": "ok", "pack": pack, "tokens_used": (used + 3) // 4, "budget": budget,
            "skipped": skipped, "recent": [h["id"] for h in recent], "meta": meta}


# ---------------------------------------------------------------- memory_read


NEEDS_TASK = ("This memory's conditions are not confirmed yet: describe the current task first "
              "(memory_read takes taskKind, seriesId and phase), then read.")


def memory_read(ws: Workspace, inp: ReadInput, actor: str = "agent") -> dict[str, Any]:
    if not ws.memory_on:
        return _disabled(write=False)
    ctx = resolve_context(ws, inp.contextId, {"taskKind": inp.taskKind, "seriesId": inp.seriesId, "phase": inp.phase})
    found = find(ws, inp.id)
    rec = found[1] if found else None
    gate = eligibility(rec, ctx, "read", _now())
    if not gate.ok:
        if gate.state == "needs_context":
            msg = NEEDS_TASK
        elif gate.state == "not_applicable":
            msg = "This memory clearly does not apply to the current task. Do not retry; carry on without it."
        else:
            msg = "No usable memory has that id (it may have been archived or removed). Do not retry; a person can restore it in the panel."
        return _fail(gate.state, msg, write=False, rid=inp.id)
    assert found and rec
    ref = found[0]
    if inp.view == "links":
        links = []
        for link in rec.get("links") or []:
            target = find(ws, link["target"])
            if target and eligibility(target[1], ctx, "read", _now()).ok:
                links.append({**link, "title": target[1].get("title", ""), "layer": target[0].kind})
        return {"ok": True, "status": "ok", "id": rec["id"], "view": "links", "links": links, **_node_fields(rec, ref)}
    left = ledger.remaining(ws, ctx)
    size = len(rec.get("body", "").encode("utf-8"))
    if left["bodies"] < 1 or size > left["bodyBytes"]:
        return _fail("budget_exhausted", "This turn's reading budget is spent. Work with what you have read; read it next turn.", write=False, rid=inp.id)
    index.touch(ref, rec["id"], _now())  # bookkeeping: publishes nothing (SPEC §3.6)
    ledger.record(ws, ctx, usage={"bodies": 1, "bodyBytes": size},
                  cite=[{**ledger.cite_entry("read", rec, ref.kind, ws), "excerpt": rec.get("body", "")[:160]}])
    return {"ok": True, "status": "ok", "id": rec["id"], "view": "body", **_node_fields(rec, ref)}


def _node_fields(rec: dict[str, Any], ref: LayerRef) -> dict[str, Any]:
    out = {
        "title": rec.get("title", ""),
        "summary": rec.get("summary", ""),
        "when": rec.get("when", ""),
        "body": rec.get("body", ""),
        "layer": ref.kind,
        "kind": rec.get("kind", "note"),
        "updated": rec.get("updated", ""),
        "revision": rec.get("revision", 1),
        "conditions": rec.get("conditions") or [],
    }
    for key in ("validFrom", "validUntil", "supersededBy", "supersedes", "supersedeReason", "reviewState"):
        if rec.get(key):
            out[key] = rec[key]
    return out


# ---------------------------------------------------------------- memory_save


def _disabled(*, write: bool) -> dict[str, Any]:
    msg = MEMORY_OFF
    if write:
        return _gate("memory_disabled", "memory_switch", msg, "Tell the user memory is off; do not retry.", needsScope=True,
                     evidence=["enabled: false"])
    return _fail("memory_disabled", msg, write=False)


def _text_fields(inp: SaveInput) -> dict[str, str]:
    fields = {"title": inp.title or "", "summary": inp.summary or "", "when": inp.when or "", "body": inp.body or ""}
    for i, cond in enumerate(inp.conditions or []):
        fields[f"condition {cond.key} (#{i + 1})"] = cond.value
    return fields


def _precheck(ws: Workspace, inp: SaveInput) -> dict[str, Any] | None:
    """Gates every write passes first: the switch, the safety scan, the body limit (SPEC §6.3.1–2)."""
    if not ws.memory_on:
        return _disabled(write=True)
    # The size limit first: a 50 MB body is refused at once, never scanned.
    if inp.body is not None and len(inp.body.encode("utf-8", "surrogatepass")) > BODY_BYTES:
        n = len(inp.body.encode("utf-8", "surrogatepass"))
        return _fail("invalid", f"The body is {n} bytes; the limit is {BODY_BYTES}. Nothing was written and nothing was cut: split it into several records or shorten it, then save again.", write=True, rid=inp.id or "")
    # Imported on the first write: compiling the scan's patterns costs ~0.35 s, which `lingshu mcp`
    # would otherwise pay before it can list its tools.
    from .scan import scan_fields

    finding = scan_fields(_text_fields(inp))
    if finding:
        return _gate("unsafe", "safety_scan", finding.message(), "Rewrite the named field as the message says, then save again.", rid=inp.id or "",
                     field=finding.field, evidence=[f"{finding.field}: {finding.kind}", *([finding.where] if finding.where else [])])
    return None


def _unusable(rec: dict[str, Any]) -> dict[str, Any] | None:
    """The record check every path applies, on the record about to be written."""
    problem = record_problem(rec)
    if problem is None:
        return None
    return _fail("invalid", f"The record would not be usable ({problem}). Nothing was written; fix that field and save again.", write=True, rid=rec.get("id", ""))


def _target_layer(ws: Workspace, inp: SaveInput) -> tuple[LayerRef | None, dict[str, Any]]:
    """Where a new record goes. `scope` is a proposal; local details stay in the project (SPEC §6.3.5)."""
    scope = inp.scope or "project"
    extra: dict[str, Any] = {}
    conds = [c.model_dump() for c in inp.conditions or []]
    if scope == "global":
        detail = global_refusal(" ".join(_text_fields(inp).values()), conds)
        if detail:
            if ws.project_layer is None:
                return None, {"needsScope": True, "detail": detail}
            extra["routedTo"] = "project"
            extra["routedBecause"] = f"it names a local detail ({detail}) and has no device condition"
            return ws.project_layer, extra
        return ws.global_layer, extra
    return ws.project_layer, extra


def _no_project(detail: str | None = None) -> dict[str, Any]:
    if detail:
        msg = (f"This names a local detail ({detail}), so it cannot go to the global layer without a device condition "
               "(machine, targetOs, runtime or shell), and no project is confirmed to keep it in.")
        hint = "Add a device condition, or confirm the project with `lingshu project confirm PATH`."
    else:
        msg = "No project is confirmed here, so there is no project layer to write to."
        hint = "Confirm the project root (`lingshu project confirm PATH`), or save with scope: \"global\"."
    return _gate("needs_context", "scope", msg, hint, needsScope=True,
                 evidence=[f"local detail: {detail}" if detail else "no confirmed project root for this folder"])


def _slot_holder(state: dict[str, Any], rec: dict[str, Any]) -> dict[str, Any] | None:
    """Another current record in `rec`'s topic slot, if any (a slot holds one winner)."""
    slot = rec.get("topicKey")
    if not slot:
        return None
    now = _now()
    return next((r for r in state["records"].values() if r["id"] != rec["id"] and r.get("status") == "active"
                 and r.get("topicKey") == slot and is_current(r, now)), None)


def _version_of(rec: dict[str, Any], reason: str) -> dict[str, Any]:
    return {k: rec.get(k, "") for k in ("title", "summary", "body", "when")} | {
        "revision": rec.get("revision", 1), "time": _now(), "reason": reason, "from": rec["id"],
    }


def _keep_versions(rec: dict[str, Any], versions: list[dict[str, Any]]) -> None:
    """Set `rec`'s earlier versions, newest first, within the count and the byte budget; count
    what was trimmed so the panel can say so."""
    kept: list[dict[str, Any]] = []
    used = 0
    for version in versions[:VERSIONS_KEPT]:
        size = len(encode(version))
        if kept and used + size > VERSIONS_BYTES:
            break
        kept.append(version)
        used += size
    trimmed = len(versions) - len(kept)
    rec["versions"] = kept
    if trimmed:
        rec["versionsTrimmed"] = int(rec.get("versionsTrimmed", 0)) + trimmed


def _new_record(ws: Workspace, ref: LayerRef, inp: SaveInput, actor: str) -> dict[str, Any]:
    now = _now()
    conds = [c.model_dump() for c in inp.conditions or []]
    rec: dict[str, Any] = {
        "id": new_id(),
        "title": inp.title,
        "summary": inp.summary or "",
        "when": inp.when or "",
        "body": inp.body or "",
        "kind": inp.kind or "note",
        "conditions": conds,
        "applicability": inp.applicability or ("conditional" if conds else "all_in_scope"),
        "status": "active",
        "origin": {"user": "user", "suggestion": "suggestion", "import": "import"}.get(actor, "agent"),
        # Imported notes were never reviewed here: they are never injected until a person says so (SPEC §5.4).
        "reviewState": "legacy_unreviewed" if actor == "import" else "reviewed",
        "revision": 1,
        "created": now,
        "updated": now,
        "validFrom": now,
        "readCount": 0,
        "versions": [],
        "links": [],
    }
    if inp.topicKey:
        rec["topicKey"] = inp.topicKey
    if ref.kind == "project":
        rec["ownerProjectId"] = ref.project_id
    return rec


def _candidates(state: dict[str, Any], ref: LayerRef, inp: SaveInput, exclude: str | None = None) -> tuple[str | None, list[dict[str, Any]]]:
    """(id of an identical current record, up to two look-alike candidates with reasons). The
    index names the records worth comparing; the comparison itself is on the layer's records."""
    now = _now()
    conds = _cond_key([c.model_dump() for c in inp.conditions or []])
    title = (inp.title or "").strip().casefold()
    found: list[tuple[float, dict[str, Any], str]] = []
    ids = index.lookalike_ids(ref, inp.title or "", inp.body or "", inp.topicKey, title_at=SIMILAR_TITLE, body_at=SIMILAR_BODY)
    for rid in sorted(ids):
        rec = state["records"].get(rid)
        if rec is None or rec.get("status") != "active" or rec["id"] == exclude or not is_current(rec, now):
            continue
        if inp.topicKey and rec.get("topicKey") == inp.topicKey:
            found.append((2.0, rec, "same_topic_slot"))
            continue
        if _cond_key(rec.get("conditions")) != conds:
            continue  # same title with other conditions is another record (seed rule)
        same_title = rec.get("title", "").strip().casefold() == title
        if same_title and rec.get("body", "") == (inp.body or "") and rec.get("summary", "") == (inp.summary or "") and rec.get("when", "") == (inp.when or ""):
            return rec["id"], []
        t_sim = 1.0 if same_title else similarity(rec.get("title", ""), inp.title or "", at_least=SIMILAR_TITLE)
        b_sim = (similarity(rec.get("body", ""), inp.body, at_least=SIMILAR_BODY)
                 if inp.body and len(token_set(inp.body)) >= LOOKALIKE_BODY_WORDS else 0.0)
        if t_sim >= SIMILAR_TITLE or b_sim >= SIMILAR_BODY:
            found.append((max(t_sim, b_sim), rec, "similar_title"))
    found.sort(key=lambda t: -t[0])
    cands = []
    for _, rec, reason in found[:2]:
        first = (rec.get("body", "").strip().splitlines() or [""])[0][:120]
        cands.append({"id": rec["id"], "title": rec.get("title", ""), "updated": rec.get("updated", ""),
                      "when": rec.get("when", ""), "firstLine": first, "conditions": rec.get("conditions") or [], "reason": reason})
    return None, cands


def _queue_conflict(state: dict[str, Any], ref: LayerRef, inp: SaveInput, cands: list[dict[str, Any]]) -> None:
    proposal = inp.model_dump(exclude_none=True, exclude={"contextId", "resolution", "id", "revision"})
    key = (inp.title or "").strip().casefold()
    queue = [c for c in state["conflicts"] if c.get("key") != key]
    queue.append({"key": key, "title": inp.title, "layer": ref.kind, "proposal": proposal,
                  "candidates": [{k: c[k] for k in ("id", "title", "conditions", "reason")} for c in cands], "time": _now()})
    state["conflicts"] = queue[-CONFLICTS_KEPT:]


def _drop_conflicts(state: dict[str, Any], *, title: str | None = None, candidate: str | None = None) -> None:
    key = title.strip().casefold() if title else None
    state["conflicts"] = [
        c for c in state["conflicts"]
        if not (key and c.get("key") == key) and not (candidate and any(x["id"] == candidate for x in c.get("candidates", [])))
    ]


def _make_room(state: dict[str, Any], tx: Tx, ref: LayerRef, *, keep: str | None = None, adding: int = 1) -> list[str]:
    """At the hard limit, archive the least recently read active records so that `adding` more
    fit (SPEC §3.5). One pass over the layer: ordered once, however many must go."""
    records = state["records"]
    over = sum(1 for r in records.values() if r.get("status") == "active") + adding - HARD_ACTIVE
    if keep is not None and records.get(keep, {}).get("status") != "active":
        over += 1  # the record kept in place is not counted above, yet it stays
    if over <= 0:
        return []
    reads = index.last_reads(ref)
    # Last use: the later of the bookkeeping's last read and the file's (older files), else created.
    last_use = [(max(reads.get(rid) or "", r.get("lastRead") or "") or r.get("created", ""), rid)
                for rid, r in records.items() if r.get("status") == "active" and rid != keep]
    now = _now()
    return [tx.archive(state, rid, "make_room", now).get("title", "") for _, rid in heapq.nsmallest(over, last_use)]


# A body longer than this, without a summary, will not fit a recall card whole (SPEC §11.4).
LONG_BODY = 600


def _committed(rec: dict[str, Any], ref: LayerRef, state: dict[str, Any], *, whole_card_scanned: bool = False, **extra: Any) -> dict[str, Any]:
    if whole_card_scanned:
        # The scan has just passed every field the card shows: recall need not scan it again.
        index.set_verdict(ref, verdict_key(card_content(rec)), rec["id"], None)
    active = sum(1 for r in state["records"].values() if r.get("status") == "active")
    out: dict[str, Any] = {"ok": True, "id": rec["id"], "committed": True, "status": "ok", "revision": rec["revision"],
                           "layer": ref.kind, "pendingConflicts": len(state["conflicts"])}
    warnings = list(extra.pop("warnings", []))
    body = str(rec.get("body") or "")
    if not rec.get("summary") and len(body.encode("utf-8")) > LONG_BODY:
        warnings.append(f"The body is {len(body.encode('utf-8'))} bytes with no summary: recall cards show only its leading "
                        "sentences. Add a one-line summary (memory_save with this id and summary).")
    if active > SOFT_ACTIVE:
        warnings.append(f"The {ref.kind} layer holds {active} active records, over the soft limit of {SOFT_ACTIVE}; archive what you no longer need.")
    archived = extra.pop("archived", [])
    if archived:
        out["archived"] = archived
        warnings.extend(f"archived «{t}» to make room" for t in archived)
    if warnings:
        out["warnings"] = warnings
    out.update(extra)
    return out


def _with_pending(ws: Workspace, result: dict[str, Any]) -> dict[str, Any]:
    """Every save result carries the conflicts queue length (SPEC §6.3.7), refusals included."""
    if "pendingConflicts" in result:
        return result
    ref = ws.layer(result.get("layer") or "project") or ws.global_layer
    try:
        return {**result, "pendingConflicts": len(load(ref)["conflicts"])}
    except LingshuError:
        return result


def memory_save(ws: Workspace, inp: SaveInput, actor: str = "agent") -> dict[str, Any]:
    return _with_pending(ws, _save(ws, inp, actor))


def _save(ws: Workspace, inp: SaveInput, actor: str) -> dict[str, Any]:
    stop = _precheck(ws, inp)
    if stop:
        return stop
    # Everything that can fail is settled before the transaction: a `committed` answer tells the truth.
    ctx = resolve_context(ws, inp.contextId)
    if inp.id:
        result = _update(ws, inp, actor)
    else:
        if not inp.title or inp.body is None:
            return _fail("invalid", "A new record needs both title and body. Add the missing one, or pass id to update an existing record.", write=True)
        if actor == "agent" and ws.write_mode == "review":
            return _suggest(ws, inp, actor, review=True)
        result = _supersede(ws, inp, actor) if inp.supersedes else _create(ws, inp, actor)
    if result.get("committed"):
        found = find(ws, result["id"])
        if found:
            if actor != "user":  # SPEC §9: citations are what the agent did or was shown, not the person's edits
                ledger.record(ws, ctx, cite=[ledger.cite_entry("updated", found[1], found[0].kind, ws)])
    return result


def _create(ws: Workspace, inp: SaveInput, actor: str) -> dict[str, Any]:
    ref, routing = _target_layer(ws, inp)
    if ref is None:
        return _no_project(routing.get("detail"))

    def change(state: dict[str, Any], tx: Tx) -> dict[str, Any]:
        rec = _new_record(ws, ref, inp, actor)
        stop = _unusable(rec)  # before anything else in the transaction: a refused save changes nothing
        if stop:
            return stop
        dup, cands = _candidates(state, ref, inp)
        if dup:
            return _short_circuit("ok", "none", "", f"Already remembered as {dup}; to change it, save with that id.", rid=dup, state="ACCEPT",
                                  dup_of=dup, pendingConflicts=len(state["conflicts"]), evidence=[dup])
        if cands and inp.resolution == "distinct" and any(c["reason"] == "same_topic_slot" for c in cands):
            slot = next(c for c in cands if c["reason"] == "same_topic_slot")
            return _gate("conflict", "topic_slot", f"The topic slot '{inp.topicKey}' already has a current record («{slot['title']}»); a slot holds one.",
                         "Update it with its id, or replace it with supersedes.", candidates=cands, pendingConflicts=len(state["conflicts"]),
                         evidence=[slot["id"]])
        if cands and inp.resolution != "distinct":
            _queue_conflict(state, ref, inp, cands)
            msg = "Not saved: it looks like " + " and ".join(f"«{c['title']}» ({'same topic slot' if c['reason'] == 'same_topic_slot' else 'similar'})" for c in cands) + "."
            return _short_circuit("needs_resolution", "conflicts", msg,
                                  "If it is the same thing, save again with that record's id; if it is different, save again with resolution: \"distinct\".",
                                  needsResolution=True, candidates=cands, pendingConflicts=len(state["conflicts"]),
                                  evidence=[f"{c['id']} ({c['reason']})" for c in cands])
        _drop_conflicts(state, title=inp.title)
        archived = _make_room(state, tx, ref)
        state["records"][rec["id"]] = rec
        return {"rec": rec, "archived": archived}

    value, state = transact(ref, change)
    if "rec" not in value:
        return value
    return _committed(value["rec"], ref, state, whole_card_scanned=True, archived=value["archived"], **routing)


def _update(ws: Workspace, inp: SaveInput, actor: str) -> dict[str, Any]:
    assert inp.id
    found = find(ws, inp.id)
    if not found or found[1].get("status") == "purged":
        return _fail("gone", "No memory has that id. Do not retry; search for the record you meant.", write=True, rid=inp.id)
    ref = found[0]
    if found[1].get("ownerProjectId") and found[1]["ownerProjectId"] != ws.project_id:
        return _fail("gone", "No memory has that id in this project. Do not retry.", write=True, rid=inp.id)
    if inp.scope and inp.scope != ref.kind:
        return _fail("invalid", f"This record lives in the {ref.kind} layer; saving by id cannot move it. Move it in the panel (m) instead.", write=True, rid=inp.id)
    given = inp.model_dump(exclude_unset=True, exclude={"id", "revision", "contextId", "scope", "resolution", "supersedes"})

    def change(state: dict[str, Any], tx: Tx) -> dict[str, Any]:
        rec = state["records"].get(inp.id) or archived_in(ref, inp.id or "")
        if not rec or rec.get("status") == "purged":
            return _fail("gone", "No memory has that id. Do not retry; search for the record you meant.", write=True, rid=inp.id or "")
        if rec.get("status") == "archived":
            return _fail("gone", "That record is archived. Restore it first (memory_forget with action \"restore\", or in the panel), then update it.", write=True, rid=rec["id"])
        if inp.revision is not None and inp.revision != rec.get("revision"):
            return _gate("conflict", "revision", f"The record changed since you read it (you have revision {inp.revision}, it is at {rec.get('revision')}).",
                         "Read it again, then save your change on top of the new revision.", rid=rec["id"], pendingConflicts=len(state["conflicts"]),
                         evidence=[f"sent revision {inp.revision}", f"revision on disk {rec.get('revision')}"])
        new = dict(rec)
        for key, value in given.items():
            if value is None and key in ("title", "body"):
                continue  # a title or body cannot be cleared, only replaced
            new[key] = value if value is not None else ("" if key in ("summary", "when") else None)
            if new[key] is None:
                new.pop(key)
        if "conditions" in given:
            new["conditions"] = given["conditions"] or []
            if "applicability" not in given:
                new["applicability"] = "conditional" if new["conditions"] else "all_in_scope"
        stop = _unusable(new)
        if stop:
            return stop
        replaced = bool(rec.get("supersededBy"))
        slot = new.get("topicKey")
        if slot and (replaced or given.get("topicKey")):
            holder = _slot_holder(state, new)
            if holder:
                return _gate("conflict", "topic_slot", f"The topic slot '{slot}' already has a current record («{holder.get('title', '')}»); a slot holds one.",
                             "Replace that record with supersedes, or leave the slot out.", rid=rec["id"], pendingConflicts=len(state["conflicts"]))
        if all(new.get(k) == rec.get(k) for k in given) and not replaced:
            return _short_circuit("ok", "none", "", "Nothing changed: the record already says this.", rid=rec["id"], state="ACCEPT",
                                  pendingConflicts=len(state["conflicts"]))
        if replaced:
            successor = state["records"].get(rec["supersededBy"])
            if successor and successor.get("supersedes") == rec["id"]:
                successor = tx.edit(state, successor["id"])
                successor.pop("supersedes", None)
                successor["links"] = [l for l in successor.get("links", []) if l.get("target") != rec["id"]]
            for key in ("supersededBy", "validUntil", "supersedeReason"):
                new.pop(key, None)
            new["links"] = [l for l in new.get("links", []) if l.get("rel") != "supersededBy"]
        _keep_versions(new, [_version_of(rec, "updated"), *rec.get("versions", [])])
        new["revision"] = rec.get("revision", 1) + 1
        new["updated"] = _now()
        state["records"][rec["id"]] = new
        _drop_conflicts(state, candidate=rec["id"])
        return {"rec": new}

    value, state = transact(ref, change)
    if "rec" not in value:
        return value
    return _committed(value["rec"], ref, state)


def _supersede(ws: Workspace, inp: SaveInput, actor: str) -> dict[str, Any]:
    assert inp.supersedes
    found = find(ws, inp.supersedes)
    if not found or found[1].get("status") != "active":
        return _fail("gone", "The record to replace does not exist or is archived. Do not retry; search for the current one.", write=True)
    ref = found[0]
    if inp.scope and inp.scope != ref.kind:
        return _gate("conflict", "supersede", f"A record can only be replaced within its own layer; this one is in the {ref.kind} layer.",
                     "Drop scope (or set it to the old record's layer) and save again.")
    old_id = inp.supersedes

    def change(state: dict[str, Any], tx: Tx) -> dict[str, Any]:
        old = state["records"].get(old_id)
        if not old or old.get("status") != "active":
            return _fail("gone", "The record to replace does not exist or is archived. Do not retry; search for the current one.", write=True)
        if old.get("supersededBy"):
            return _gate("conflict", "supersede", "That record was already replaced by another one.",
                         "Replace the current record instead (search with history: true to see the chain).", pendingConflicts=len(state["conflicts"]))
        topic = inp.topicKey or old.get("topicKey")
        probe = inp.model_copy(update={"topicKey": topic})
        dup, cands = _candidates(state, ref, probe, exclude=old_id)
        cands = [c for c in cands if c["reason"] == "same_topic_slot"]
        if cands and inp.resolution != "distinct":
            return _gate("conflict", "topic_slot", f"The topic slot '{topic}' already has another current record («{cands[0]['title']}»).",
                         "Replace that record instead, or choose another topicKey.", candidates=cands, pendingConflicts=len(state["conflicts"]))
        rec = _new_record(ws, ref, probe, actor)
        stop = _unusable(rec)  # a refused save changes nothing: checked before room is made
        if stop:
            return stop
        archived = _make_room(state, tx, ref, keep=old_id)
        now = rec["created"]
        old = tx.edit(state, old_id)
        rec["supersedes"] = old_id
        rec["links"] = [{"rel": "supersedes", "target": old_id}]
        _keep_versions(rec, [_version_of(old, "superseded"), *old.get("versions", [])])
        old["supersededBy"] = rec["id"]
        old["validUntil"] = now
        old["supersedeReason"] = "user_replaced"
        old["revision"] = old.get("revision", 1) + 1
        old["updated"] = now
        old["links"] = [*old.get("links", []), {"rel": "supersededBy", "target": rec["id"]}]
        state["records"][rec["id"]] = rec
        _drop_conflicts(state, candidate=old_id)
        return {"rec": rec, "archived": archived}

    value, state = transact(ref, change)
    if "rec" not in value:
        return value
    return _committed(value["rec"], ref, state, whole_card_scanned=True, archived=value["archived"], supersedes=old_id)


# ---------------------------------------------------------------- memory_suggest


def _suggest(ws: Workspace, inp: SaveInput, actor: str, *, review: bool) -> dict[str, Any]:
    ref, routing = _target_layer(ws, inp)
    if ref is None:
        return _no_project(routing.get("detail"))

    def change(state: dict[str, Any], tx: Tx) -> int:
        proposal = inp.model_dump(exclude_none=True, exclude={"contextId", "revision"})
        key = (inp.title or "").strip().casefold()
        state["suggestions"] = [s for s in state["suggestions"] if s.get("key") != key]
        state["suggestions"].append({"id": "sug_" + secrets.token_hex(6), "key": key, "title": inp.title, "proposal": proposal,
                                     "origin": actor, "created": _now()})
        return len(state["conflicts"])

    pending, _ = transact(ref, change)
    why = "This project is in review mode: " if review else ""
    return _short_circuit("pending_review", "suggestions", why + "the proposal waits in the panel's suggestions until the user keeps it.",
                          "Tell the user it awaits their keep in the panel; do not save it again.", pendingConflicts=pending, **routing)


def memory_suggest(ws: Workspace, inp: SuggestInput, actor: str = "agent") -> dict[str, Any]:
    stop = _precheck(ws, inp)
    if stop:
        return stop
    if inp.id or inp.supersedes:
        return _fail("invalid", "A suggestion is a new record: drop id and supersedes, or use memory_save to change a record.", write=True)
    if not inp.title or inp.body is None:
        return _fail("invalid", "A suggestion needs both title and body. Add the missing one and suggest again.", write=True)
    return _suggest(ws, inp, actor, review=False)


# ---------------------------------------------------------------- memory_forget


def memory_forget(ws: Workspace, inp: ForgetInput, actor: str = "agent") -> dict[str, Any]:
    if not ws.memory_on:
        return _disabled(write=True)
    ctx = resolve_context(ws, inp.contextId)  # settled before the transaction, like every save
    found = find(ws, inp.id)
    if not found or found[1].get("status") == "purged" or (found[1].get("ownerProjectId") not in (None, ws.project_id)):
        return _fail("gone", "No memory has that id (it may have been purged). Do not retry.", write=True, rid=inp.id, action=inp.action)
    ref = found[0]
    action = inp.action

    def change(state: dict[str, Any], tx: Tx) -> dict[str, Any]:
        rec = state["records"].get(inp.id) or archived_in(ref, inp.id)
        if not rec or rec.get("status") == "purged":
            return _fail("gone", "No memory has that id (it may have been purged). Do not retry.", write=True, rid=inp.id, action=action)
        status = rec.get("status")
        if action == "archive":
            if status == "archived":
                return _fail("gone", "That record is already archived. Restore it in the panel if you need it.", write=True, rid=rec["id"], action=action)
            stub = tx.archive(state, rec["id"], "by_user" if actor == "user" else "by_agent", _now())
            return {"rec": stub, "extra": {"action": "archive", "tombstone": False}}
        if action == "restore":
            if status != "archived":
                return _short_circuit("ok", "none", "", "Already active: nothing to restore.", rid=rec["id"], state="ACCEPT",
                                      action=action, pendingConflicts=len(state["conflicts"]))
            holder = _slot_holder(state, rec)
            if holder:
                return _gate("conflict", "topic_slot", f"The topic slot '{rec['topicKey']}' is now held by «{holder.get('title', '')}»; a slot holds one current record.",
                             "Archive or replace that record first, then restore this one.", rid=rec["id"], action=action)
            archived = _make_room(state, tx, ref)
            rec = tx.restore(state, rec["id"])
            rec["revision"] = rec.get("revision", 1) + 1
            rec["updated"] = _now()
            return {"rec": rec, "extra": {"action": "restore", "forced": False, **({"archived": archived} if archived else {})}}
        if action == "purge":
            if status == "active" and not inp.force:
                return _gate("conflict", "purge", "Purging removes the record for good; it is still active.",
                             "Archive it instead, or purge with force: true if the user asked for it gone.", rid=rec["id"], action=action)
            tx.purge(state, rec["id"])
            # In a chain A → purged → C the chain closes over the gap: A stays replaced, by C. Only
            # a purged record that was the current one gives its predecessor back.
            successor = rec.get("supersededBy") if rec.get("supersededBy") in state["records"] else None
            predecessor = rec.get("supersedes") if rec.get("supersedes") in state["records"] else None
            slot_taken: list[str] = []
            for other in list(state["records"].values()):
                if other.get("supersededBy") == rec["id"]:
                    other = tx.edit(state, other["id"])
                    if successor:
                        other["supersededBy"] = successor
                    else:
                        for key in ("supersededBy", "validUntil", "supersedeReason"):
                            other.pop(key, None)
                    other["links"] = [({**link, "target": successor} if link.get("target") == rec["id"] else link)
                                      for link in other.get("links", []) if link.get("target") != rec["id"] or successor]
                    if not successor and _slot_holder(state, other):
                        # Given back, it would be a second current record in a slot another took while its
                        # successor sat archived (a slot holds one winner): it goes to the archive instead.
                        slot_taken.append(tx.archive(state, other["id"], "slot_taken", _now()).get("title", ""))
                        continue
                if other.get("supersedes") == rec["id"]:
                    other = tx.edit(state, other["id"])
                    _forget_predecessor(other, rec["id"])
                    if predecessor:
                        other["supersedes"] = predecessor
                        other["links"] = [*other.get("links", []), {"rel": "supersedes", "target": predecessor}]
            _drop_conflicts(state, candidate=rec["id"])
            tomb = {"id": rec["id"], "status": "purged", "revision": rec.get("revision", 1) + 1, "updated": _now()}
            return {"rec": tomb, "extra": {"action": "purge", "tombstone": True, **({"archived": slot_taken} if slot_taken else {})}}
        # undo
        if inp.revision is None or inp.revision != rec.get("revision"):
            return _gate("conflict", "undo", f"Undo names a revision exactly: the record is at revision {rec.get('revision')}, not {inp.revision}.",
                         "Read the record and undo with its current revision.", rid=rec["id"], action=action)
        if status != "active":
            return _fail("invalid", "Undo works on active records; restore this one first.", write=True, rid=rec["id"], action=action)
        if not rec.get("versions"):
            return _fail("invalid", "There is no earlier version of this record to go back to.", write=True, rid=rec["id"], action=action)
        rec = tx.edit(state, rec["id"])
        prev = rec["versions"][0]
        for key in ("title", "summary", "body", "when"):
            rec[key] = prev.get(key, "")
        rec["versions"] = rec["versions"][1:]
        rec["revision"] = rec.get("revision", 1) + 1
        rec["updated"] = _now()
        return {"rec": rec, "extra": {"action": "undo"}}

    try:
        value, state = transact(ref, change)
    except ColdBodyError as err:
        return _fail(err.status, err.message, write=True, rid=inp.id, action=action)
    if "rec" not in value:
        return value
    rec = value["rec"]
    out = {"ok": True, "id": rec["id"], "committed": True, "status": "ok", "revision": rec["revision"], "layer": ref.kind,
           "pendingConflicts": len(state["conflicts"]), **value["extra"]}
    if action == "purge":
        _scrub_copies(ws, ref, rec["id"])
        return out
    if actor != "user":  # SPEC §9: the person's archive, restore and undo are not the agent's citations
        ledger.record(ws, ctx, cite=[ledger.cite_entry("updated", rec if rec.get("title") else {**rec, "title": found[1].get("title", "")}, ref.kind, ws)])
    return out


def _forget_predecessor(successor: dict[str, Any], rid: str) -> None:
    """A purged record's text also lives in the record that replaced it: the version saved when it
    was superseded and the purged record's own versions after it. They go, so undo cannot bring
    the purged text back."""
    versions = successor.get("versions", [])
    cut = next((i for i, v in enumerate(versions) if v.get("from") == rid or v.get("reason") == "superseded"), len(versions))
    successor["versions"] = versions[:cut]
    successor.pop("supersedes", None)
    successor["links"] = [link for link in successor.get("links", []) if link.get("target") != rid]


def _scrub_copies(ws: Workspace, ref: LayerRef, rid: str) -> None:
    """After a purge is published: publish once more so `state.prev.json` no longer holds the
    record, merge it out of the index, and drop its citations from the ledger."""
    with contextlib.suppress(LingshuError):
        transact(ref, lambda _state, _tx: None, force=True)
    index.scrub(ref)
    with contextlib.suppress(LingshuError):
        ledger.forget_record(ws, rid)


# ---------------------------------------------------------------- memory_route

_CAPABILITIES = [
    (("remember", "save", "note", "记住", "记下", "保存"), "memory_save"),
    (("forget", "remove", "delete", "archive", "忘记", "删除", "归档"), "memory_forget"),
    (("suggest", "propose", "建议"), "memory_suggest"),
]


def memory_route(ws: Workspace, inp: RouteInput, actor: str = "agent") -> dict[str, Any]:
    """Names the knowledge and tools that fit an intent; executes nothing."""
    if not ws.memory_on:
        return _fail("memory_disabled", MEMORY_OFF,
                     write=False, knowledge=[], meta={})
    ctx = resolve_context(ws, inp.contextId)
    usable, _ = ranked_usable(ws, inp.intent, ctx, "search")
    knowledge = [{"id": r["id"], "title": r.get("title", ""), "layer": layer, "kind": r.get("kind", "note")} for _, r, layer in usable[:5]]
    low = inp.intent.lower()
    caps = [tool for words, tool in _CAPABILITIES if any(w in low for w in words)]
    caps += [t for t in ("memory_search", "memory_read") if t not in caps]
    if knowledge:
        ledger.record(ws, ctx, cite=[ledger.cite_entry("hits", r, layer, ws) for _, r, layer in usable[:5]])
    return {"ok": True, "status": "ok", "knowledge": knowledge, "suggested_capabilities": caps,
            "meta": {"intent": inp.intent, "matched": len(usable)},
            "note": "Nothing was executed. Read a record with memory_read before relying on it."}


# ---------------------------------------------------------------- dispatch

TOOLS = {
    "memory_search": memory_search,
    "memory_read": memory_read,
    "memory_save": memory_save,
    "memory_forget": memory_forget,
    "memory_suggest": memory_suggest,
    "memory_route": memory_route,
}


def explain_validation(tool: str, err: ValidationError) -> str:
    parts = []
    unknown = False
    for e in err.errors()[:3]:
        where = ".".join(str(p) for p in e["loc"]) or "arguments"
        msg = e["msg"].removeprefix("Value error, ")
        if e["type"] == "extra_forbidden":
            import difflib  # (only a bad call pays for it)

            near = difflib.get_close_matches(str(e["loc"][-1]), TOOL_INPUTS[tool].model_fields, n=1) if tool in TOOL_INPUTS and e["loc"] else []
            msg = "is not an argument of " + tool + (f" (did you mean {near[0]}?)" if near else "")
            unknown = True
        parts.append(f"{where}: {msg}")
    # (a name the tool does not take is answered with the names it does: "content" for memory_save's body)
    takes = f" {tool} takes {', '.join(TOOL_INPUTS[tool].model_fields)}." if unknown and tool in TOOL_INPUTS else ""
    return f"Invalid input for {tool}: " + "; ".join(parts) + "." + takes + " Nothing was done; fix the input and call again."


def dispatch(
    tool: str,
    args: Any,
    *,
    home: Path | str | None = None,
    project: Path | str | None = None,
    cwd: str | None = None,
    actor: str = "agent",
    workspace: Workspace | None = None,
) -> dict[str, Any]:
    """Run one tool. Never raises for anything a caller did: every outcome is a result object."""
    if tool not in TOOLS:
        raise UnknownTool(tool)
    write = tool in WRITE_TOOLS
    if not isinstance(args, dict):
        return _fail("invalid", f"Arguments for {tool} must be a JSON object. Nothing was done.", write=write)
    try:
        inp = TOOL_INPUTS[tool].model_validate(args)
    except ValidationError as err:
        # Echo the id only when it is one: a made-up id can hold text a terminal would act on.
        rid = args.get("id") if isinstance(args.get("id"), str) and ID_RE.match(args["id"]) else ""
        return _fail("invalid", explain_validation(tool, err), write=write, rid=rid)
    try:
        ws = workspace or open_workspace(home, project, cwd)
        result = TOOLS[tool](ws, inp, actor)  # type: ignore[operator]
    except LingshuError as err:
        return _fail(err.status, err.message, write=write, rid=getattr(inp, "id", "") or "")
    # An unsafe answer names what this attempt got wrong: each attempt gets its own guidance.
    if result.get("message") and result.get("status") not in ("ok", "needs_resolution", "pending_review", "unsafe"):
        try:
            ctx = resolve_context(ws, getattr(inp, "contextId", None))
        except LingshuError:
            ctx = None
        said = ledger.say_once(ws, ctx, result["status"], result["message"]) if ctx else result["message"]
        if said != result["message"]:
            result = {**result, "message": said}
            if "error" in result:
                result["error"] = said
    news = [line for ref in ws.layers() if (line := take_recovery_news(ref))]
    return {**result, "recovered": " ".join(news)} if news else result
