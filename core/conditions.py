"""Applicability conditions and their three-valued evaluation (SPEC §4)."""

from __future__ import annotations

import os
from typing import Any

CONDITION_KEYS: tuple[str, ...] = (
    "targetOs",
    "shell",
    "runtime",
    "machine",
    "projectRoot",
    "pathPrefix",
    "artifactKey",
    "taskKind",
    "seriesId",
    "phase",
)
DEVICE_KEYS: tuple[str, ...] = ("machine", "targetOs", "runtime", "shell")
MAX_CONDITIONS = 8

# Where in a request context each condition key finds what is known now.
_CONTEXT_FIELD = {
    "targetOs": "os",
    "shell": "shell",
    "runtime": "runtime",
    "machine": "machine",
    "projectRoot": "projectRoot",
    "pathPrefix": "cwd",
    "artifactKey": "artifactKey",
    "taskKind": "taskKind",
    "seriesId": "seriesId",
    "phase": "phase",
}

_OS_ALIASES = {"macos": "darwin", "mac": "darwin", "osx": "darwin", "win": "windows", "win32": "windows"}


def _norm_os(value: str) -> str:
    v = value.strip().lower()
    return _OS_ALIASES.get(v, v)


def condition_state(key: str, value: str, context: dict[str, Any]) -> str:
    """`ok`, `not_applicable` or `needs_context` for one condition. Unknown is never `ok`."""
    known = context.get(_CONTEXT_FIELD[key])
    if known in (None, ""):
        return "needs_context"
    if key == "targetOs":
        return "ok" if _norm_os(str(known)) == _norm_os(value) else "not_applicable"
    if key == "pathPrefix":
        prefix = value
        if not os.path.isabs(prefix) and context.get("projectRoot"):
            prefix = os.path.join(context["projectRoot"], prefix)
        prefix = os.path.normpath(prefix)
        cwd = os.path.normpath(str(known))
        return "ok" if cwd == prefix or cwd.startswith(prefix.rstrip(os.sep) + os.sep) else "not_applicable"
    if key == "projectRoot":
        return "ok" if os.path.normpath(str(known)) == os.path.normpath(value) else "not_applicable"
    return "ok" if str(known).strip().lower() == value.strip().lower() else "not_applicable"


def conditions_state(conditions: list[dict[str, str]], context: dict[str, Any]) -> str:
    """A record is `not_applicable` if any condition is, else `needs_context` if any is, else `ok`."""
    states = [condition_state(c["key"], c["value"], context) for c in conditions]
    if "not_applicable" in states:
        return "not_applicable"
    if "needs_context" in states:
        return "needs_context"
    return "ok"


def has_device_condition(conditions: list[dict[str, str]]) -> bool:
    return any(c["key"] in DEVICE_KEYS for c in conditions)
