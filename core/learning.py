"""Self-evolution (SPEC §12, issue 17), off by default: project rules learned from the person's own
corrections. One way only: the person's words in the prompt hook → feedback → candidate →
`pending` → an organizer → a rule record (origin `project_evolution`) whose learning state moves
`pending` → `trial` → `active`, or to `paused`. The assistant's own claims never become evidence:
feedback is only ever taken from the human prompt the hook receives.

The hook only appends (`note_feedback`, a spool entry, no analysis). Everything else runs in
`lingshu learn …`, the panel's Learning view, or a writer, under the project's learning lock."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

from . import spool
from .durable import encode, locked, read_json, small_sha256, write_atomic
from .store import LayerRef, Tx, iso, load, transact, utc_now
from .workspace import Workspace

TRIAL_TURNS = 5  # turns a trial rule must hold before it is active (setting learning.trialTurns)
TRIAL_DAYS = 7  # how long a trial lasts before it expires (setting learning.trialDays)
KEEP_RECEIPTS = 50
STATES = ("pending", "trial", "active", "paused", "rejected")

# ---------------------------------------------------------------- the hook's part: cheap, append only

# A correction or a standing instruction in the person's own words. English and Chinese.
_CORRECTION = re.compile(
    r"^\s*(no|nope|not that|wrong|actually)\b[,.!:]?|\b(always|never|from now on|going forward|in future|don't|do not|stop|"
    r"instead of|rather than|make sure to|remember to|please use|use\s+\S+\s+(here|instead)|prefer)\b"
    r"|(以后|今后|从现在开始|总是|永远|一律|不要|别再|别用|请用|改用|应该用|记得|不是.{1,12}而是|必须)", re.IGNORECASE)
_STANDING = re.compile(r"\b(always|never|from now on|going forward|in future)\b|(以后|今后|从现在开始|总是|永远|一律)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(never|don't|do not|not|no longer|stop|avoid|instead of|rather than)\b|(不要|别|不用|不是|避免|停止)", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])\s*|\n+")  # ".env" is not a sentence end


def feedback_text(prompt: str) -> str | None:
    """The sentences of a prompt that correct the agent or set a standing rule; None when none do.
    Questions are not instructions."""
    kept = [s.strip() for s in _SENTENCES.split(prompt or "") if s and s.strip()]
    hits = [s for s in kept if _CORRECTION.search(s) and not s.rstrip().endswith(("?", "？"))]
    text = " ".join(hits)[:300]
    return text or None


def note_feedback(ws: Workspace, ctx: dict[str, Any], prompt: str) -> bool:
    """The hook's only learning step: when learning is on for a confirmed project, append what the
    person said (with the session, the time and an excerpt). No lock, no analysis."""
    if not ws.project.get("experimental") or not ws.project_id or not ws.project.get("confirmed", True):
        return False
    text = feedback_text(prompt)
    if not text:
        return False
    spool.put(ws.home, f"feedback-{ws.project_id}", {
        "id": "fb_" + secrets.token_hex(6), "text": text, "excerpt": prompt[:200], "session": ctx.get("sessionId"),
        "time": iso(utc_now()), "source": "human_prompt", "projectId": ws.project_id}, keep=500)
    return True


# ---------------------------------------------------------------- the learning file


def _path(ref: LayerRef) -> Path:
    return ref.dir / "learning.json"


def read_book(ref: LayerRef) -> dict[str, Any]:
    """Feedback, candidates and organizer receipts of a project (rules are records of its layer)."""
    try:
        book = read_json(_path(ref))
    except (OSError, ValueError):
        book = None
    if not isinstance(book, dict):
        book = {}
    book.setdefault("seq", 0)
    for key in ("feedback", "candidates", "receipts"):
        if not isinstance(book.get(key), list):
            book[key] = []
    return book


def _write_book(ref: LayerRef, book: dict[str, Any]) -> None:
    book["receipts"] = book["receipts"][-KEEP_RECEIPTS:]
    book["feedback"] = book["feedback"][-1000:]
    write_atomic(_path(ref), encode(book))


def words(text: str) -> set[str]:
    """What a rule is about: its words of three letters or more and its Chinese characters, without
    the words every instruction has."""
    low = text.casefold()
    latin = {w for w in re.findall(r"[a-z0-9][a-z0-9_+-]*(?:\.[a-z0-9_+-]+)*", low) if len(w) >= 3} - _COMMON
    return latin | set(re.findall(r"[\u4e00-\u9fff]", low)) - _COMMON_ZH


_COMMON = frozenset("""always never use using used don't dont not the and for with this that here there from now on please instead
of rather than make sure remember prefer stop going forward future you your our just should must want wrong actually nope
into when what which are was were be been run runs before after""".split())
_COMMON_ZH = frozenset("以后今后从现在开始总是永远一律不要别再用请改应该记得是而必须的了在我你们这那个")


def spec_digest(text: str) -> str:
    return small_sha256(" ".join(sorted(words(text))).encode("utf-8")).hexdigest()[:16]


def rule_text(feedback: str) -> str:
    """The person's words as a rule: interjections off the front, a capital, a full stop."""
    text = re.sub(r"^\s*(no|nope|not that|wrong|actually|ok|okay|so|please)\b[\s,.!:]*", "", feedback.strip(), flags=re.IGNORECASE)
    text = re.sub(r"^\s*(不对|不是这样|错了)[，,。\s]*", "", text)
    text = text.strip() or feedback.strip()
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "。", "！")) else text + ("。" if re.search(r"[\u4e00-\u9fff]$", text) else ".")


def _similar(a: set[str], b: set[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= 0.6


def contradicts(feedback: str, rule: str) -> bool:
    """A correction that says the opposite about the same thing: it shares what the rule is about,
    and one of the two is negated where the other is not ("use pnpm" / "don't use pnpm here")."""
    shared = words(feedback) & words(rule)
    return bool(shared) and bool(_NEGATION.search(feedback)) != bool(_NEGATION.search(rule))


# ---------------------------------------------------------------- feedback → candidates, and what feedback does to rules


def _rules(ref: LayerRef) -> list[dict[str, Any]]:
    return [r for r in load(ref)["records"].values() if r.get("origin") == "project_evolution" and r.get("status") == "active"]


def _notes(ref: LayerRef) -> list[dict[str, Any]]:
    """The project's ordinary current notes: a correction that repeats one confirms it, and is no new rule."""
    return [r for r in load(ref)["records"].values()
            if r.get("origin") != "project_evolution" and r.get("status") == "active" and not r.get("supersededBy")]


def fold_feedback(ws: Workspace, ref: LayerRef) -> dict[str, Any]:
    """Take the spooled feedback in: each entry becomes a candidate, or evidence for the candidate or
    rule it repeats, or a contradiction of the rule it opposes (a trial rule pauses; an active rule
    pauses only on a correction that is also standing or explicit). Counts turns for trial rules."""
    kind = f"feedback-{ref.project_id}"
    entries = spool.pending(ws.home, kind)
    with locked(ref.dir / ".learning.lock", what="the learning book"):
        book = read_book(ref)
        changes: dict[str, dict[str, Any]] = {}
        for _, fb in entries:
            if fb.get("source") != "human_prompt" or not isinstance(fb.get("text"), str):
                continue  # only the person's own words are evidence
            book["seq"] += 1
            fb = {**fb, "seq": book["seq"]}
            book["feedback"].append(fb)
            _apply_feedback(book, _rules(ref), _notes(ref), fb, changes)
        _write_book(ref, book)
    if changes:
        _update_rules(ref, changes)
    spool.drop(entries)
    return book


def _apply_feedback(book: dict[str, Any], rules: list[dict[str, Any]], notes: list[dict[str, Any]], fb: dict[str, Any],
                    changes: dict[str, dict[str, Any]]) -> None:
    text = fb["text"]
    mine = words(text)
    standing = bool(_STANDING.search(text))
    for rule in rules:
        learning = {**(rule.get("learning") or {}), **changes.get(rule["id"], {})}
        if learning.get("state") in ("rejected", None):
            continue
        if contradicts(text, rule["body"]):
            strong = standing or bool(_CORRECTION.match(text)) or bool(_NEGATION.search(text))
            if learning["state"] == "trial" or (learning["state"] == "active" and strong):
                changes[rule["id"]] = {**learning, "state": "paused", "pausedReason": f"the person said: «{text}»",
                                       "feedbackRevision": fb["seq"]}
            return
        if _similar(mine, words(rule["body"])):
            evidence = [*learning.get("evidence", []), fb["id"]]
            update = {**learning, "evidence": evidence, "feedbackRevision": fb["seq"]}
            if learning["state"] == "paused" and standing:
                # an explicit long-term rule from the person lifts a pause: a new trial
                update.update(state="trial", trialStartedAt=fb.get("time", iso(utc_now())), pausedReason="",
                              trialUntil=iso(utc_now() + timedelta(days=int(learning.get("trialDays", TRIAL_DAYS)))))
            changes[rule["id"]] = update
            return
    for note in notes:
        if _similar(mine, words(f"{note.get('title', '')} {note.get('body', '')}")):
            book.setdefault("noteEvidence", {}).setdefault(note["id"], []).append(fb["id"])
            return
    for cand in book["candidates"]:
        if cand["state"] == "pending" and _similar(mine, words(cand["text"])):
            cand["evidence"].append(fb["id"])
            cand["feedbackRevision"] = fb["seq"]
            return
    book["candidates"].append({"id": "cand_" + secrets.token_hex(5), "text": rule_text(text), "state": "pending",
                               "evidence": [fb["id"]], "created": fb.get("time", iso(utc_now())), "feedbackRevision": fb["seq"],
                               "specDigest": spec_digest(text)})


def _update_rules(ref: LayerRef, changes: dict[str, dict[str, Any]]) -> None:
    def change(state: dict[str, Any], tx: Tx) -> None:
        for rid, learning in changes.items():
            if rid in state["records"]:
                rec = tx.edit(state, rid)
                rec["learning"] = learning
                rec["revision"] = int(rec.get("revision", 1)) + 1
                rec["updated"] = iso(utc_now())

    transact(ref, change)


def turns_since(ws: Workspace, since: str) -> int:
    """Human messages in this project since `since` (the hook's turn list, which keeps the last 64)."""
    from .contexts import _load

    return sum(1 for c in _load(ws)["contexts"]
               if c.get("source") == "hook" and c.get("projectId") == ws.project_id and str(c.get("created", "")) > since)


def advance(ws: Workspace, ref: LayerRef, trial_turns: int = TRIAL_TURNS) -> list[str]:
    """A trial rule that held for `trial_turns` human messages with no contradiction becomes active;
    one past its expiry pauses. Returns the ids that changed."""
    now = utc_now()
    changes: dict[str, dict[str, Any]] = {}
    for rule in _rules(ref):
        learning = dict(rule.get("learning") or {})
        if learning.get("state") != "trial":
            continue
        if turns_since(ws, str(learning.get("trialStartedAt", ""))) >= trial_turns:
            changes[rule["id"]] = {**learning, "state": "active", "activatedAt": iso(now)}
        elif str(learning.get("trialUntil", "")) <= iso(now):
            changes[rule["id"]] = {**learning, "state": "paused", "pausedReason": "the trial expired before it held"}
    if changes:
        _update_rules(ref, changes)
    return list(changes)


# ---------------------------------------------------------------- organizers

Organizer = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]


def builtin_organizer(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rule-based organizer: no model. One rule per candidate, its text as the person said it,
    titled by its first words; a convention of the project."""
    out = []
    for cand in candidates:
        text = cand["text"]
        title = re.split(r"(?<=[.!?。！？；;,，])", text, maxsplit=1)[0].rstrip(".。!！;；,，")[:80]
        out.append({"candidate": cand["id"], "title": title or text[:80], "body": text, "kind": "convention"})
    return out


class ModelOrganizer:
    """The agent's own model as the organizer (MCP sampling): `ask` sends a prompt and returns the
    model's text. The prompt and the raw output are kept for the receipt (`transcript`), and the
    output must be a JSON list of results naming pending candidates, or the run fails."""

    KINDS = ("convention", "method", "resource", "note")

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask
        self.transcript: dict[str, str] = {}

    def prompt(self, candidates: list[dict[str, Any]]) -> str:
        lines = [
            "You organize a developer's own corrections into short project rules for a coding agent.",
            "For each candidate below, write one rule that says only what the developer said, as a fact about the project;",
            "add nothing, and never address an AI. Answer with JSON only: a list of objects",
            '{"candidate": ID, "title": "at most 8 words", "body": "the rule in one or two sentences", "kind": "convention"}.',
            "",
        ]
        for c in candidates:
            said = " / ".join(f"«{w}»" for w in c.get("said", [])[:3])
            lines.append(f"{c['id']}: {c['text']}" + (f"  (the developer's words: {said})" if said else ""))
        return "\n".join(lines)

    def __call__(self, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
        import json

        self.transcript["prompt"] = self.prompt(candidates)
        output = self.ask(self.transcript["prompt"])
        self.transcript["output"] = output
        match = re.search(r"\[.*\]", output, re.DOTALL)
        if not match:
            raise ValueError("the model's answer holds no JSON list")
        results = json.loads(match.group())
        ids = {c["id"] for c in candidates}
        if not isinstance(results, list) or not all(isinstance(r, dict) and r.get("candidate") in ids and isinstance(r.get("body"), str)
                                                    and isinstance(r.get("title"), str) for r in results):
            raise ValueError("the model's list does not name pending candidates with a title and a body")
        return [{**r, "kind": r.get("kind") if r.get("kind") in self.KINDS else "convention"} for r in results]


def organize(ws: Workspace, organizer: Organizer = builtin_organizer, *, name: str = "builtin",
             trial_days: int = TRIAL_DAYS) -> dict[str, Any]:
    """One organizer run over the pending candidates, with a receipt. Every result passes the safety
    scan and the record check before it counts; a result built on feedback older than a correction
    that came since is dropped (stale); a failed run leaves its receipt and no rule."""
    from .records import record_problem
    from .scan import scan_fields

    ref = _project_ref(ws)
    book = fold_feedback(ws, ref)
    seen = book["seq"]
    pending = _pending(book)
    receipt: dict[str, Any] = {"id": "rcpt_" + secrets.token_hex(5), "organizer": name, "started": iso(utc_now()),
                               "seenFeedback": seen, "candidates": [c["id"] for c in pending], "ok": True, "reason": "",
                               "committed": [], "kept": [], "stale": [], "refused": []}
    try:
        results = organizer(pending) if pending else []
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise ValueError("the organizer's output is not a list of results")
    except Exception as err:  # noqa: BLE001 - any organizer failure is a receipt, never a rule
        receipt.update(ok=False, reason=f"{type(err).__name__}: {err}", finished=iso(utc_now()),
                       **({"transcript": organizer.transcript} if getattr(organizer, "transcript", None) else {}))
        _add_receipt(ref, receipt)
        return receipt
    receipt["results"] = results
    if getattr(organizer, "transcript", None):
        receipt["transcript"] = organizer.transcript  # type: ignore[attr-defined]
    now = utc_now()
    with locked(ref.dir / ".learning.lock", what="the learning book"):
        book = read_book(ref)
        by_id = {c["id"]: c for c in book["candidates"]}
        existing = {(r.get("learning") or {}).get("specDigest"): r for r in _rules(ref)}
        new_records: list[dict[str, Any]] = []
        for result in results:
            cand = by_id.get(str(result.get("candidate", "")))
            if cand is None or cand["state"] != "pending":
                receipt["refused"].append({"candidate": result.get("candidate"), "why": "no such pending candidate"})
                continue
            if int(cand.get("feedbackRevision", 0)) > seen:
                receipt["stale"].append(cand["id"])  # a newer correction came in while it ran
                continue
            fields = {"title": str(result.get("title", "")), "body": str(result.get("body", ""))}
            finding = scan_fields(fields)
            digest = spec_digest(fields["body"])
            if finding:
                receipt["refused"].append({"candidate": cand["id"], "why": finding.message()})
                continue
            if digest in existing:  # an unchanged rule text keeps its state; the candidate is evidence for it
                cand["state"] = "merged"
                cand["rule"] = existing[digest]["id"]
                receipt["kept"].append(existing[digest]["id"])
                continue
            rec = _rule_record(ref, fields, str(result.get("kind") or "convention"), cand, digest, now, trial_days)
            problem = record_problem(rec)
            if problem:
                receipt["refused"].append({"candidate": cand["id"], "why": problem})
                continue
            cand["state"] = "organized"
            cand["rule"] = rec["id"]
            new_records.append(rec)
            receipt["committed"].append(rec["id"])

        def change(state: dict[str, Any], tx: Tx) -> None:
            for rec in new_records:
                state["records"][rec["id"]] = rec

        if new_records:
            transact(ref, change)
        receipt["finished"] = iso(utc_now())
        book["receipts"].append(receipt)
        _write_book(ref, book)
    return receipt


def _rule_record(ref: LayerRef, fields: dict[str, str], kind: str, cand: dict[str, Any], digest: str, now: Any,
                 trial_days: int) -> dict[str, Any]:
    from .tools import new_id

    stamp = iso(now)
    return {"id": new_id(), "title": fields["title"], "summary": "", "when": "", "body": fields["body"], "kind": kind,
            "conditions": [], "applicability": "all_in_scope", "status": "active", "origin": "project_evolution",
            "reviewState": "reviewed", "revision": 1, "created": stamp, "updated": stamp, "validFrom": stamp, "readCount": 0,
            "versions": [], "links": [], "ownerProjectId": ref.project_id,
            "learning": {"state": "pending", "specDigest": digest, "evidence": list(cand["evidence"]), "candidate": cand["id"],
                         "feedbackRevision": int(cand.get("feedbackRevision", 0)), "trialDays": trial_days}}


def pending_candidates(ws: Workspace) -> list[dict[str, Any]]:
    """The candidates an organizer run would take now (the noted feedback folded in first)."""
    ref = _project_ref(ws)
    return _pending(fold_feedback(ws, ref))


def _pending(book: dict[str, Any]) -> list[dict[str, Any]]:
    """The pending candidates, each with the person's words behind it (`said`), for an organizer."""
    said = {fb["id"]: fb.get("text", "") for fb in book["feedback"]}
    return [{**c, "said": [said[e] for e in c["evidence"] if e in said]} for c in book["candidates"] if c["state"] == "pending"]


def organize_answer(ws: Workspace, model_text: str | None) -> dict[str, Any]:
    """`memory_learn`'s answer: organize with what the agent's model said (None: it was not asked,
    for nothing waits or the client offers no sampling). Learning stays the person's switch."""
    if not ws.project.get("experimental") or not ws.project_id:
        return {"ok": True, "status": "ok", "organized": False,
                "message": "Learning is off for this project; only the person switches it on (lingshu settings set experimental true)."}
    if model_text is None:
        return {"ok": True, "status": "ok", "organized": False,
                "message": "Nothing to organize, or this client offers no sampling: the person can run `lingshu learn organize`."}
    receipt = organize(ws, ModelOrganizer(lambda _: model_text), name="model", trial_days=settings_of(ws)[1])
    committed = receipt.get("committed", [])
    return {"ok": receipt["ok"], "status": "ok" if receipt["ok"] else "invalid", "organized": receipt["ok"], "receipt": receipt["id"],
            "rules": committed,
            "message": (f"{len(committed)} rule(s) wait for the person's approval in the panel." if receipt["ok"]
                        else f"The model's answer could not be used ({receipt['reason']}); no rule changed.")}


def has_pending(ws: Workspace) -> bool:
    """Whether an organizer has anything to do: learning on, and candidates or unfolded feedback."""
    ref = ws.project_layer
    if not ws.project.get("experimental") or ref is None or not ws.project_id:
        return False
    if spool.pending(ws.home, f"feedback-{ref.project_id}"):
        return True
    return any(c["state"] == "pending" for c in read_book(ref)["candidates"])


def _add_receipt(ref: LayerRef, receipt: dict[str, Any]) -> None:
    with locked(ref.dir / ".learning.lock", what="the learning book"):
        book = read_book(ref)
        book["receipts"].append(receipt)
        _write_book(ref, book)


# ---------------------------------------------------------------- the person's keys

# (from states, to state) for each key; anything else is refused with the reason.
TRANSITIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "approve": (("pending", "paused"), "trial"),
    "promote": (("trial",), "active"),
    "pause": (("trial", "active"), "paused"),
    "reject": (("pending", "trial", "active", "paused"), "rejected"),
}


def steer(ws: Workspace, rid: str, key: str) -> dict[str, Any]:
    """The person moves a rule: approve (to trial), promote (to active), pause, reject. Only these,
    and only from the states that allow them."""
    ref = _project_ref(ws)
    froms, to = TRANSITIONS[key]
    rule = next((r for r in _rules(ref) if r["id"] == rid), None)
    if rule is None:
        return {"ok": False, "status": "gone", "message": f"No learned rule has the id {rid}. `lingshu learn status` lists them."}
    state = (rule.get("learning") or {}).get("state")
    if state not in froms:
        return {"ok": False, "status": "conflict",
                "message": f"A {state} rule cannot be {key}d: {key} works on {' or '.join(froms)} rules."}
    now = utc_now()

    def change(st: dict[str, Any], tx: Tx) -> None:
        rec = tx.edit(st, rid)
        learning = dict(rec.get("learning") or {})
        learning["state"] = to
        if to == "trial":
            days = int(learning.get("trialDays", TRIAL_DAYS))
            learning.update(trialUntil=iso(now + timedelta(days=days)), trialStartedAt=iso(now), pausedReason="")
        if to == "paused":
            learning["pausedReason"] = "paused by the person"
        learning["steeredBy"] = "person"
        rec["learning"] = learning
        rec["revision"] = int(rec.get("revision", 1)) + 1
        rec["updated"] = iso(now)
        if to == "rejected":
            tx.archive(st, rid, "by_user", iso(now))  # kept, recoverable, out of every path

    transact(ref, change)
    return {"ok": True, "status": "ok", "id": rid, "state": to}


def _project_ref(ws: Workspace) -> LayerRef:
    ref = ws.project_layer
    if ref is None or not ws.project_id:
        from .errors import NeedsContext

        raise NeedsContext("Learning works per confirmed project: confirm this folder first (`lingshu project confirm PATH`).")
    return ref


# ---------------------------------------------------------------- what the person sees


def settings_of(ws: Workspace) -> tuple[int, int]:
    """(trial turns, trial days) for this project: `lingshu settings set learning.trialTurns N`."""
    own = ws.project.get("learning") or {}
    return int(own.get("trialTurns", TRIAL_TURNS)), int(own.get("trialDays", TRIAL_DAYS))


def status(ws: Workspace) -> dict[str, Any]:
    """Learning on or off, the candidates with their evidence in the person's words, the rules with
    their state, and the last organizer receipts. Reads only."""
    ref = _project_ref(ws)
    book = read_book(ref)
    said = {fb["id"]: {"text": fb.get("text", ""), "time": fb.get("time", ""), "session": fb.get("session")} for fb in book["feedback"]}
    waiting = len(spool.pending(ws.home, f"feedback-{ref.project_id}"))
    rules = []
    for rec in _rules(ref):
        learning = rec.get("learning") or {}
        rules.append({"id": rec["id"], "state": learning.get("state"), "text": rec.get("body", ""), "title": rec.get("title", ""),
                      "evidence": [said.get(e, {"text": "(no longer kept)"}) for e in learning.get("evidence", [])],
                      "trialUntil": learning.get("trialUntil"), "pausedReason": learning.get("pausedReason", ""),
                      "specDigest": learning.get("specDigest")})
    candidates = [{"id": c["id"], "state": c["state"], "text": c["text"], "evidence": [said.get(e, {}) for e in c["evidence"]],
                   **({"rule": c["rule"]} if c.get("rule") else {})} for c in book["candidates"]]
    turns, days = settings_of(ws)
    confirmed = [{"id": rid, "evidence": [said.get(e, {}) for e in ids]} for rid, ids in (book.get("noteEvidence") or {}).items()]
    return {"ok": True, "status": "ok", "learning": bool(ws.project.get("experimental")), "projectId": ws.project_id,
            "trialTurns": turns, "trialDays": days, "unfoldedFeedback": waiting, "confirmedNotes": confirmed,
            "candidates": candidates, "rules": rules, "receipts": book["receipts"][-5:]}
