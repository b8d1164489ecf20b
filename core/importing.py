"""Bring agent memory files in: CLAUDE.md, AGENTS.md, MEMORY.md, .cursor/rules/*.mdc,
copilot-instructions.md and plain Markdown notes, or a `lingshu export --format json` file.

Markdown becomes proposals (a heading with text, or a top-level bullet, is one record) that go
through the same save path as every tool: dedup, the safety scan, limits. Every imported record is
`origin: import`, `reviewState: legacy_unreviewed`, so recall never injects it until reviewed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .records import record_problem
from .store import BODY_BYTES, HARD_ACTIVE, Tx, archived_record, load, transact
from .tools import MEMORY_OFF, dispatch
from .workspace import Workspace

EXPORT_FORMAT = "lingshu-export/1"
_KIND_WORDS = {
    "convention": ("convention", "style", "rule", "guideline", "standard", "do not", "don't", "always", "never", "规范", "约定", "习惯", "风格"),
    "method": ("command", "workflow", "how to", "testing", "test", "build", "deploy", "release", "debug", "setup", "method", "步骤", "流程", "命令", "方法"),
    "resource": ("architecture", "link", "resource", "doc", "reference", "structure", "entry", "overview", "资料", "入口", "架构", "文档"),
}
_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# The first sentence: a stop right after a word and before a new sentence (or the end), or a CJK
# stop. "ruff format ." and "20.11" and ".nvmrc" are not sentence ends.
_SENTENCE = re.compile(r"^(.+?(?:(?<=\S)[.!?](?=\s+[A-Z0-9\"'(\[]|\s*$)|[。！？]))")


def guess_kind(section: str, text: str = "") -> str:
    low = section.lower()
    for kind, words in _KIND_WORDS.items():
        if any(w in low for w in words):
            return kind
    low = text.lower()
    if low.startswith(("run ", "use `", "`")) or "`" in low[:40]:
        return "method"
    return "note"


def title_from(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = re.sub(r"[*_`]+", "", line).strip()
    m = _SENTENCE.match(line)
    title = (m.group(1) if m else line).rstrip(".。！？!?")
    return title if len(title) <= 80 else title[:79].rstrip() + "…"


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    """The simple YAML front matter of a `.mdc` rule (description, globs, alwaysApply) and the rest."""
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    meta: dict[str, Any] = {}
    key = None
    for line in text[3:end].splitlines():
        if re.match(r"^\s+-\s+", line) and key:
            meta.setdefault(key, [])
            if isinstance(meta[key], list):
                meta[key].append(line.split("-", 1)[1].strip().strip("'\""))
            continue
        if ":" in line:
            key, value = (part.strip() for part in line.split(":", 1))
            value = value.strip("'\"")
            meta[key] = [g.strip().strip("'\"") for g in value.strip("[]").split(",") if g.strip()] if key == "globs" and value else value
    return meta, text[end + 4 :].lstrip("\n")


def glob_to_prefix(glob: str) -> str | None:
    """`src/api/**` → `src/api`; anything that is not a plain folder prefix does not map cleanly."""
    m = re.match(r"^\.?/?([^*?\[\]{}!]+?)/(\*\*(/\*)?|\*\*/\*\.\w+|\*)$", glob.strip())
    return m.group(1).rstrip("/") if m else None


def parse_markdown(text: str, source: str) -> list[dict[str, Any]]:
    """Headings with text and top-level bullets, each with the section it stands in."""
    items: list[dict[str, Any]] = []
    headings: list[str] = []
    current: dict[str, Any] | None = None
    in_code = False

    def close() -> None:
        nonlocal current
        if current and current["body"].strip():
            items.append(current)
        current = None

    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_code = not in_code
            if current is not None:
                current["body"] += line + "\n"
            continue
        if not in_code and (h := _HEADING.match(line)):
            close()
            level = len(h.group(1))
            headings = headings[: level - 1] + [h.group(2).strip()]
            current = {"title": h.group(2).strip(), "body": "", "section": " / ".join(headings), "from": "heading"}
            continue
        if not in_code and (b := _BULLET.match(line)):
            if current is not None and current["from"] == "heading" and current["body"].strip():
                close()
            elif current is not None and current["from"] == "heading":
                current = None  # a heading that only holds bullets is a section, not a record
            else:
                close()
            current = {"title": title_from(b.group(1)), "body": b.group(1) + "\n", "section": " / ".join(headings), "from": "bullet"}
            continue
        if current is not None:
            if current["from"] == "bullet" and line and not line[0].isspace() and not in_code:
                close()  # a paragraph after a bullet list belongs to the heading, not the last bullet
                current = {"title": headings[-1] if headings else title_from(line), "body": line + "\n",
                           "section": " / ".join(headings), "from": "heading"}
            else:
                current["body"] += line + "\n"
        elif line.strip():
            current = {"title": headings[-1] if headings else title_from(line), "body": line + "\n",
                       "section": " / ".join(headings), "from": "heading"}
    close()
    stem = source.lower()
    for item in items:
        item["body"] = item["body"].strip()
        item["source"] = source
        item["intro"] = item["from"] == "heading" and item["title"].strip().lower() in (stem, stem.rsplit(".", 1)[0])
    return items


def plan_file(path: Path, scope: str) -> list[dict[str, Any]]:
    """What importing one file would write, with a reason on every item that will be skipped."""
    from .scan import scan_fields  # (compiled on first use: see core/tools.py)

    text = path.read_text(encoding="utf-8", errors="replace")
    meta, body = front_matter(text) if path.suffix == ".mdc" else ({}, text)
    items = parse_markdown(body, path.name)
    if path.suffix == ".mdc" and body.strip():
        # a Cursor rule is one rule: its description is the title, the whole text the body
        items = [{"title": meta.get("description") or title_from(body) or path.stem.replace("-", " "), "body": body.strip(),
                  "section": "rules", "from": "rule", "source": path.name}]
    conditions: list[dict[str, str]] = []
    applicability = "all_in_scope"
    unmapped: list[str] = []
    for glob in meta.get("globs") or []:
        prefix = glob_to_prefix(glob)
        if prefix:
            conditions.append({"key": "pathPrefix", "value": prefix})
        else:
            unmapped.append(glob)
    if unmapped:
        applicability, conditions = "unresolved", []
    plan = []
    for item in items:
        entry = {
            "source": item["source"], "title": item["title"], "body": item["body"],
            "kind": "convention" if path.suffix == ".mdc" else guess_kind(item["section"], item["body"]),
            "scope": scope, "conditions": conditions[:8], "applicability": applicability if not conditions else "conditional",
            "status": "new", "reason": f"globs not mapped to a path prefix: {', '.join(unmapped)}" if unmapped else "",
        }
        finding = scan_fields({"title": entry["title"], "body": entry["body"]})
        if finding:
            # say why, without echoing the secret or the injection back onto the screen
            entry.update(status="refused", reason=finding.message(), title="(withheld: " + finding.kind.split(" (")[0] + ")")
        elif item.get("intro"):
            entry.update(status="skip", reason="the file's own introduction, not a note")
        elif len(item["body"].encode("utf-8")) > BODY_BYTES:
            entry.update(status="skip", reason=f"over {BODY_BYTES} bytes: split it into smaller notes first")
        elif not item["title"].strip():
            entry.update(status="skip", reason="no title could be found")
        elif len(item["title"]) > 200:
            entry["title"] = item["title"][:199] + "…"
        plan.append(entry)
    return plan


def room_in(ws: Workspace, kind: str) -> int:
    """How many more active records the layer takes before its hard limit."""
    ref = ws.layer(kind)
    if ref is None:
        return HARD_ACTIVE
    return HARD_ACTIVE - sum(1 for r in load(ref)["records"].values() if r.get("status") == "active")


def full_message(kind: str, wanted: int) -> str:
    return (f"the {kind} layer is at its limit of {HARD_ACTIVE} active notes, so this one did not fit ({wanted} were to be imported). "
            "Nothing was archived to make room: archive notes you no longer need in the panel, then import again")


def apply_plan(ws: Workspace, plan: list[dict[str, Any]], progress: Callable[[int], None] = lambda _: None) -> list[dict[str, Any]]:
    """Write the plan through the save path; every item comes back with what happened to it.
    An import never pushes a layer past its hard limit: what does not fit is refused with the
    number that did, and nothing already remembered is archived to make room for it."""
    out = []
    room = {kind: room_in(ws, kind) for kind in ("project", "global")}
    wanted = {kind: sum(1 for i in plan if i["status"] == "new" and i["scope"] == kind) for kind in room}
    for n, item in enumerate(plan, 1):
        if item["status"] != "new":
            out.append(item)  # skipped or refused in the plan: listed with its reason, never silently dropped
            progress(n)
            continue
        if room[item["scope"]] <= 0:
            out.append({**item, "status": "refused", "reason": full_message(item["scope"], wanted[item["scope"]])})
            progress(n)
            continue
        args: dict[str, Any] = {"title": item["title"], "body": item["body"], "kind": item["kind"], "scope": item["scope"]}
        if item["conditions"]:
            args["conditions"] = item["conditions"]
        if item["applicability"] != "all_in_scope":
            args["applicability"] = item["applicability"]
        r = dispatch("memory_save", args, workspace=ws, actor="import")
        if r.get("committed"):
            room[r.get("layer", item["scope"])] -= 1
            out.append({**item, "status": "written", "layer": r.get("layer", item["scope"])})
        elif r.get("dup_of"):
            out.append({**item, "status": "skip", "reason": "already remembered (identical)"})
        elif r.get("status") == "needs_resolution":
            names = ", ".join(f"«{c['title']}»" for c in r.get("candidates", []))
            out.append({**item, "status": "skip", "reason": f"looks like {names}: waiting in the panel's conflicts"})
        else:
            out.append({**item, "status": "refused", "reason": r.get("message") or r.get("status", "")})
        progress(n)
    return out


def _import_problem(rec: Any) -> str | None:
    """The record check of every other path, on an exported record (its archived body lives
    under `cold`): one line naming the record and the field."""
    if not isinstance(rec, dict):
        return "not a record (a JSON object was expected)"
    cold = rec.get("cold")
    if cold is not None and (not isinstance(cold, dict) or not isinstance(cold.get("body", ""), str)):
        return f"record {rec.get('id')}: cold: must be an object with a text body"
    problem = record_problem({k: v for k, v in rec.items() if k != "cold"})
    return f"record {rec.get('id')}: {problem}" if problem else None


def import_json(ws: Workspace, data: dict[str, Any], *, dry_run: bool = False) -> list[dict[str, Any]]:
    """Restore records exactly as exported (ids, revisions, times, versions, archived bodies).
    Each still passes the safety scan; an id already present is left as it is. `dry_run` runs the
    very same decisions on a copy of each layer and writes nothing: it predicts the apply exactly."""
    from .scan import scan_fields  # (compiled on first use: see core/tools.py)

    if not ws.memory_on:
        # the same switch as every save: off is a permission change, so nothing is restored
        return [{"source": "json", "title": "Lingshu export", "status": "refused", "reason": MEMORY_OFF}]
    results = []
    layers = data.get("layers")
    for kind, records in (layers if isinstance(layers, dict) else {}).items():
        if kind not in ("project", "global"):
            results.append({"source": "json", "title": f"layer {kind!r}", "status": "refused", "reason": "not a layer (project or global)"})
            continue
        ref = ws.layer(kind)
        if ref is None:
            results.append({"source": "json", "title": f"the {kind} records", "status": "refused",
                            "reason": "no project is confirmed here; run `lingshu project confirm PATH` first"})
            continue
        accepted = []
        for rec in records if isinstance(records, list) else []:
            title = str(rec.get("title") or rec.get("id") or "") if isinstance(rec, dict) else ""
            problem = _import_problem(rec)
            if problem:
                results.append({"source": "json", "title": title, "status": "refused", "reason": problem})
                continue
            cold = rec.get("cold") or {}
            fields = {k: str(rec.get(k) or "") for k in ("title", "summary", "when", "body")}
            fields["archived body"] = str(cold.get("body", ""))
            finding = scan_fields(fields)
            if finding:
                results.append({"source": "json", "title": title, "status": "refused", "reason": finding.message()})
                continue
            accepted.append(rec)

        def change(state: dict[str, Any], tx: Tx, kind: str = kind, accepted: list[dict[str, Any]] = accepted) -> list[dict[str, Any]]:
            done = []
            room = HARD_ACTIVE - sum(1 for r in state["records"].values() if r.get("status") == "active")
            wanted = sum(1 for r in accepted if r.get("status", "active") == "active")
            for rec in accepted:
                rec = dict(rec)
                cold = rec.pop("cold", None)
                title = rec.get("title", "")
                if rec["id"] in state["records"] or archived_record(tx.ref, rec["id"]) is not None:
                    done.append({"source": "json", "title": title, "status": "skip", "reason": "already there (same id)"})
                    continue
                if rec.get("status") == "purged":
                    continue  # a purged record is gone; an older export's tombstone brings nothing back
                if kind == "project":
                    rec["ownerProjectId"] = ws.project_id
                if rec.get("status") == "archived":
                    if cold is None:
                        done.append({"source": "json", "title": title, "status": "refused", "reason": "archived, but the export holds no body for it"})
                        continue
                    rec.pop("body", None)
                    rec.pop("versions", None)
                    tx.put_archived(rec, cold.get("body", ""), cold.get("versions", []))
                elif room <= 0:
                    done.append({"source": "json", "title": title, "status": "refused", "reason": full_message(kind, wanted)})
                    continue
                else:
                    room -= 1
                    state["records"][rec["id"]] = rec
                done.append({"source": "json", "title": title, "status": "new" if dry_run else "written", "layer": kind,
                             "kind": rec.get("kind", "note")})
            return done

        if accepted and dry_run:
            current = load(ref)
            results.extend(change({**current, "records": dict(current["records"])}, Tx(ref)))
        elif accepted:
            done, _ = transact(ref, change)
            results.extend(done)
    return results


def predict(ws: Workspace, plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dry run of a Markdown plan, told as the apply would tell it: a note already remembered
    word for word is a skip, and what would not fit under the layer's limit is refused."""
    known: dict[str, set[tuple[str, str]]] = {}
    for kind in ("project", "global"):
        ref = ws.layer(kind)
        records = load(ref)["records"].values() if ref else []
        known[kind] = {(str(r.get("title", "")).strip().casefold(), str(r.get("body", "")).strip()) for r in records if r.get("status") == "active"}
    room = {kind: room_in(ws, kind) for kind in ("project", "global")}
    wanted = {kind: sum(1 for i in plan if i["status"] == "new" and i["scope"] == kind) for kind in room}
    out = []
    for item in plan:
        if item["status"] != "new":
            out.append(item)
        elif (item["title"].strip().casefold(), item["body"].strip()) in known[item["scope"]]:
            out.append({**item, "status": "skip", "reason": "already remembered (identical)"})
        elif room[item["scope"]] <= 0:
            out.append({**item, "status": "refused", "reason": full_message(item["scope"], wanted[item["scope"]])})
        else:
            room[item["scope"]] -= 1
            out.append(item)
    return out


def load_json_export(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT else None

