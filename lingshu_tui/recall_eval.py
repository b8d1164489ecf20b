"""`lingshu bench --recall-set FILE`: recall quality on a labelled set (issue 15).

The set's notes go into a throwaway home through the normal save path (replacements with
`supersedes`, conditions as conditions, a `scope` of "global" into the global layer, topic slots as slots,
unreviewed notes as an import would write them); each prompt
then runs the real recall, as the hook would on a new message. Figures, per class and overall:
hit rate (answerable prompts whose note is among the cards), quiet rate (no-answer prompts with no
card), forbidden cards (replaced, unreviewed or, by the gate, inapplicable notes that came back: must be 0),
mean cards and bytes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = "lingshu-recall-set/1"


class SetError(Exception):
    """The file is not a recall set; the message says what is wrong."""


def load_set(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise SetError(f"cannot read {path}: {err.strerror or err}") from None
    except ValueError as err:
        raise SetError(f"{path} is not valid JSON ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SetError(f'{path} is not a recall set: it needs "format": "{FORMAT}", "notes" and "prompts"')
    keys = set()
    for i, note in enumerate(data.get("notes") or []):
        if not isinstance(note, dict) or not note.get("key") or not note.get("title") or not note.get("body"):
            raise SetError(f"note #{i + 1} needs key, title and body")
        keys.add(note["key"])
    for i, prompt in enumerate(data.get("prompts") or []):
        if not isinstance(prompt, dict) or not isinstance(prompt.get("text"), str):
            raise SetError(f"prompt #{i + 1} needs text")
        if prompt.get("expect") is not None and prompt["expect"] not in keys:
            raise SetError(f"prompt #{i + 1} expects note {prompt['expect']!r}, which the set does not hold")
    if not keys or not data.get("prompts"):
        raise SetError(f"{path} holds no notes or no prompts")
    return data


def _forbidden(ws: Any, ids: dict[str, str], notes: list[dict[str, Any]], cwd: str) -> set[str]:
    """The notes that must never come back: replaced and unreviewed ones, the members of a topic slot
    that holds more than one current note, and those whose conditions the gate finds not applicable
    here (a note for Linux is applicable when the set runs on Linux)."""
    from core.contexts import build_context
    from core.eligibility import eligibility
    from core.lookup import find
    from core.store import iso, utc_now

    out = {n["key"] for n in notes if n.get("replacedBy") or n.get("unreviewed")}
    # A topic slot with more than one current note is in conflict and stays out whole (SPEC §11.3).
    slots: dict[str, list[str]] = {}
    for n in notes:
        if n.get("topicKey") and n["key"] not in out:
            slots.setdefault(n["topicKey"], []).append(n["key"])
    out.update(key for members in slots.values() if len(members) > 1 for key in members)
    conditional = {n["key"] for n in notes if n.get("conditions")}
    ctx, now = build_context(ws, cwd=cwd), iso(utc_now())
    for rid, key in ids.items():
        if key in conditional:
            found = find(ws, rid)
            if found is None or not eligibility(found[1], ctx, "inject", now).ok:
                out.add(key)
    return out


def build(home: Path, project: Path, data: dict[str, Any], refused: list[str] | None = None) -> dict[str, str]:
    """Save the notes; returns record id → note key. A note the safety scan refuses stops the
    build, unless `refused` is given: then it is listed there (key: why) and the rest are saved,
    so a set is measured as a user would meet it (the refused note's prompts find nothing)."""
    from core.tools import dispatch

    ids: dict[str, str] = {}
    notes = data["notes"]
    # Predecessors first, so their successors can replace them.
    for note in sorted(notes, key=lambda n: not n.get("replacedBy")):
        args: dict[str, Any] = {"title": note["title"], "body": note["body"], "resolution": "distinct"}
        for key in ("summary", "when", "kind", "topicKey", "conditions", "scope"):
            if note.get(key):
                args[key] = note[key]
        if note.get("topicKey"):
            del args["resolution"]  # a second note for an occupied slot is queued as a conflict, as a user's would be
        predecessor = next((n["key"] for n in notes if n.get("replacedBy") == note["key"] and n["key"] in ids.values()), None)
        if predecessor:
            args["supersedes"] = next(rid for rid, key in ids.items() if key == predecessor)
        answer = dispatch("memory_save", args, home=home, project=project, actor="import" if note.get("unreviewed") else "user")
        if not answer.get("committed") and answer.get("needsResolution") and note.get("topicKey"):
            continue  # a second note for an occupied slot waits in the conflicts queue, and the slot stays out whole
        if not answer.get("committed"):
            if refused is not None and answer.get("status") == "unsafe":
                refused.append(f"{note['key']}: {answer.get('message')}")
                continue
            raise SetError(f"note {note['key']!r} was not saved: {answer.get('message') or answer.get('status')}")
        ids[answer["id"]] = note["key"]
    return ids


def evaluate(data: dict[str, Any], progress: Callable[[str], None] = lambda _: None, model: str | None = None) -> dict[str, Any]:
    """Run every prompt through the real recall; figures per class and overall. With `model` (a
    model2vec folder or hub name), the semantic tier is installed into the throwaway home first."""
    from core.recall import recall
    from core.workspace import open_workspace

    base = Path(tempfile.mkdtemp(prefix="lingshu-recall-eval-"))
    try:
        home, project = base / "home", base / "project"
        project.mkdir()
        if model:
            from core import semantic

            try:
                semantic.install(home, model, progress)
            except semantic.Unavailable as err:
                raise SetError(str(err)) from None
        progress(f"saving {len(data['notes'])} notes")
        refused: list[str] = []
        ids = build(home, project, data, refused)
        ws = open_workspace(home, project)
        forbidden = _forbidden(ws, ids, data["notes"], str(project))
        rows: dict[str, dict[str, float]] = {}
        progress(f"recalling for {len(data['prompts'])} prompts")
        misses: list[str] = []
        tiers: set[str] = set()
        for i, prompt in enumerate(data["prompts"]):
            text, report = recall(ws, prompt["text"], session_id=f"eval-{i}", cwd=str(project), deadline_ms=10_000)
            tiers.update(report["tiers"])
            keys = [ids.get(card["id"], "?") for card in report["cards"]]
            trap = prompt.get("judge") == "forbidden"  # a trap: only whether a forbidden note came back counts
            for cls in (prompt.get("class", "all"), "all"):
                row = rows.setdefault(cls, {"prompts": 0, "answerable": 0, "hits": 0, "no_answer": 0, "quiet": 0,
                                            "forbidden": 0, "cards": 0, "bytes": 0})
                row["prompts"] += 1
                row["cards"] += len(keys)
                row["bytes"] += len(text.encode("utf-8"))
                row["forbidden"] += sum(1 for k in keys if k in forbidden)
                if trap:
                    continue
                if prompt.get("expect"):
                    row["answerable"] += 1
                    row["hits"] += prompt["expect"] in keys
                else:
                    row["no_answer"] += 1
                    row["quiet"] += not keys
            if trap:
                if any(k in forbidden for k in keys):
                    misses.append(f"trap: {prompt['text']!r} recalled forbidden {keys}")
                continue
            ok = prompt["expect"] in keys if prompt.get("expect") else not keys
            if not ok:
                misses.append(f"{prompt.get('class', '')}: {prompt['text']!r} expected {prompt.get('expect')} got {keys}")
        out: dict[str, Any] = {"tiers": sorted(tiers), "classes": {}, "misses": misses, "refused": refused}
        for cls, row in rows.items():
            out["classes"][cls] = {
                "prompts": int(row["prompts"]),
                "hit_rate": round(row["hits"] / row["answerable"], 3) if row["answerable"] else None,
                "quiet_rate": round(row["quiet"] / row["no_answer"], 3) if row["no_answer"] else None,
                "forbidden_cards": int(row["forbidden"]),
                "mean_cards": round(row["cards"] / row["prompts"], 2),
                "mean_bytes": round(row["bytes"] / row["prompts"], 1),
            }
        return out
    finally:
        shutil.rmtree(base, ignore_errors=True)


def render(figures: dict[str, Any]) -> str:
    rows = [f"tiers: {' + '.join(figures.get('tiers') or ['lexical'])}", "","| class | prompts | hit rate | quiet rate | forbidden cards | mean cards | mean bytes |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    order = sorted(figures["classes"], key=lambda c: (c == "all", c))
    for cls in order:
        f = figures["classes"][cls]
        cell = lambda v: "—" if v is None else f"{100 * v:.1f} %"  # noqa: E731
        rows.append(f"| {cls} | {f['prompts']} | {cell(f['hit_rate'])} | {cell(f['quiet_rate'])} | {f['forbidden_cards']} | "
                    f"{f['mean_cards']} | {f['mean_bytes']} |")
    if figures.get("refused"):
        rows += ["", f"notes the safety scan refused ({len(figures['refused'])}; their prompts count as missed):",
                 *(f"  {line}" for line in figures["refused"])]
    return "\n".join(rows)
