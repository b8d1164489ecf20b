"""What makes a stored record usable: the one check every path applies (issue 12, SPEC §2).

Plain Python, not the pydantic model: `load()` runs it on every record of a layer file it parses,
and `lingshu recall` must not import pydantic. The `Record` model calls it too, so a save, a JSON
import and a file written by hand meet the same rule.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from .conditions import CONDITION_KEYS, MAX_CONDITIONS

ID_RE = re.compile(r"^mem_[0-9a-z]{12,32}$")
STATUSES = ("active", "archived", "purged")
KINDS = ("convention", "method", "resource", "note")
APPLICABILITY = ("all_in_scope", "conditional", "unresolved")
TEXT_FIELDS = ("title", "summary", "when", "created", "updated")
DATE_FIELDS = ("validFrom", "validUntil")
# C0 controls but tab and newline, DEL, C1 controls: they can move a terminal's cursor or rewrite
# what a person sees (ESC sequences start with \x1b), so stored text never holds them.
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@lru_cache(maxsize=8192)
def _parse_time(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 time with a timezone (`2026-01-31T12:00:00Z`, `…+08:00`); None for anything else."""
    if not isinstance(value, str) or not 10 < len(value) < 40 or value[4:5] != "-":
        return None
    return _parse_time(value)


def control_problem(value: str) -> str | None:
    found = CONTROL_RE.search(value)
    if found is None:
        return None
    what = "a NUL byte" if found.group() == "\x00" else f"the terminal control character U+{ord(found.group()):04X}"
    return f"holds {what}; remove it (tab and newline are fine)"


def printable(text: str) -> str:
    """Text safe to print to a terminal: each control character shown as its code, never sent raw."""
    return CONTROL_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if CONTROL_RE.search(text) else text


def _condition_problem(conditions: Any) -> str | None:
    if not isinstance(conditions, list):
        return "must be a list of {key, value} objects"
    if len(conditions) > MAX_CONDITIONS:
        return f"holds {len(conditions)} conditions; at most {MAX_CONDITIONS}"
    for cond in conditions:
        if not isinstance(cond, dict) or not isinstance(cond.get("key"), str) or not isinstance(cond.get("value"), str):
            return "each condition must be an object with a string key and value"
        if cond["key"] not in CONDITION_KEYS:
            return f"'{cond['key']}' is not a registered condition key; use one of {', '.join(CONDITION_KEYS)}"
        if not cond["value"].strip():
            return f"the condition {cond['key']} has an empty value"
    return None


def record_problem(rec: Any, rid: str | None = None, *, scan_text: bool = True) -> str | None:
    """The first reason `rec` cannot be used, as "field: what is wrong"; None when it is sound.
    `scan_text=False` (loading a layer) skips the control-character scan of the texts: writes
    refuse them, and recall and export neutralise any a hand edit brought in (`printable`)."""
    if not isinstance(rec, dict):
        return "record: must be a JSON object"
    if not isinstance(rec.get("id"), str) or not ID_RE.match(rec["id"]):
        return "id: is not a memory id (mem_ followed by 12-32 lowercase letters or digits)"
    if rid is not None and rec["id"] != rid:
        return f"id: {rec['id']} is filed under {rid}"
    status = rec.get("status", "active")
    if status not in STATUSES:
        return f"status: must be one of {', '.join(STATUSES)}"
    for key in TEXT_FIELDS:
        if key in rec and not isinstance(rec[key], str):
            return f"{key}: must be text"
    if status == "purged":
        return None  # a tombstone of an older file: only its id matters
    if not str(rec.get("title", "")).strip():
        return "title: is empty or only whitespace; give the record a title"
    body = rec.get("body")
    if status == "active" and (not isinstance(body, str) or not body.strip()):
        return "body: is empty; an active record needs a body"
    if body is not None and not isinstance(body, str):
        return "body: must be text"
    for key in ("title", "summary", "when", "body") if scan_text else ():
        problem = control_problem(str(rec.get(key) or ""))
        if problem:
            return f"{key}: {problem}"
    if rec.get("kind", "note") not in KINDS:
        return f"kind: must be one of {', '.join(KINDS)}"
    if rec.get("topicKey") is not None and not isinstance(rec["topicKey"], str):
        return "topicKey: must be text or null"
    problem = _condition_problem(rec.get("conditions", []))
    if problem:
        return f"conditions: {problem}"
    applicability = rec.get("applicability", "all_in_scope")
    if applicability not in APPLICABILITY:
        return f"applicability: must be one of {', '.join(APPLICABILITY)}"
    if applicability == "conditional" and not rec.get("conditions"):
        return "applicability: is conditional but the record has no conditions; add one or use all_in_scope"
    revision = rec.get("revision", 1)
    if not isinstance(revision, int) or isinstance(revision, bool) or revision < 1:
        return "revision: must be a whole number of at least 1"
    for key in DATE_FIELDS:
        if rec.get(key) not in (None, "") and parse_time(rec[key]) is None:
            return f"{key}: {rec[key]!r} is not an ISO 8601 time with a timezone (e.g. 2026-01-31T12:00:00Z)"
    for key in ("versions", "links"):
        if not isinstance(rec.get(key, []), list) or not all(isinstance(v, dict) for v in rec.get(key, [])):
            return f"{key}: must be a list of objects"
    return None
