"""`settings.json`: confirmed project roots and their switches (SPEC §1.3–§1.5)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .durable import encode, locked, read_json, write_atomic
from .errors import InvalidInput
from .paths import project_id_for, settings_path

FORMAT = "lingshu-settings/1"
DEFAULT_PROJECT = {"enabled": True, "writeMode": "direct", "recallMode": "adaptive", "taskDefaults": {}}
TASK_FIELDS = ("taskKind", "seriesId", "phase", "artifactKey", "runtime")
BUDGET_KEYS = ("searchEntries", "searchBytes", "bodies", "bodyBytes")
CHOICES = {"writeMode": ("direct", "review"), "recallMode": ("adaptive", "tool")}
SWITCHES = ("enabled", "confirmed", "experimental")
# What a person may change with `lingshu settings set` (the rest is written by its own command).
# Self-evolution (issue 17): turns a trial rule must hold, days before a trial expires.
LEARNING_KEYS = ("trialTurns", "trialDays")
SETTABLE = ("enabled", "experimental", *CHOICES, *(f"budgets.{k}" for k in BUDGET_KEYS), *(f"taskDefaults.{k}" for k in TASK_FIELDS),
            *(f"learning.{k}" for k in LEARNING_KEYS))
PROJECT_KEYS = ("root", *SWITCHES, *CHOICES, "taskDefaults", "budgets", "learning")


def _entry_problem(pid: str, entry: Any) -> str | None:
    where = f"projects.{pid}"
    if not isinstance(entry, dict):
        return f"{where}: must be an object"
    for key, value in entry.items():
        if key not in PROJECT_KEYS:
            return f"{where}.{key}: is not a setting; the settings are {', '.join(PROJECT_KEYS)}"
        if key == "root" and not isinstance(value, str):
            return f"{where}.root: must be the project's folder"
        if key in SWITCHES and not isinstance(value, bool):
            return f"{where}.{key}: must be true or false"
        if key in CHOICES and value not in CHOICES[key]:
            return f"{where}.{key}: must be one of {', '.join(CHOICES[key])}"
        if key in ("taskDefaults", "budgets", "learning") and not isinstance(value, dict):
            return f"{where}.{key}: must be an object"
    for key, value in (entry.get("taskDefaults") or {}).items():
        if key not in TASK_FIELDS:
            return f"{where}.taskDefaults.{key}: is not a task field; use one of {', '.join(TASK_FIELDS)}"
        if not isinstance(value, str) or not value.strip():
            return f"{where}.taskDefaults.{key}: must be a word such as \"release\""
    for group, allowed in (("budgets", BUDGET_KEYS), ("learning", LEARNING_KEYS)):
        for key, value in (entry.get(group) or {}).items():
            if key not in allowed:
                return f"{where}.{group}.{key}: is not a setting; use one of {', '.join(allowed)}"
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                return f"{where}.{group}.{key}: must be a whole number of at least 1"
    return None


def settings_problem(obj: Any) -> str | None:
    """The first thing wrong with a settings object, naming the field and the valid values.
    Plain Python: `lingshu recall` reads the settings on every message; the model calls it too."""
    if not isinstance(obj, dict):
        return "the file must hold a JSON object"
    if not isinstance(obj.get("projects", {}), dict):
        return "projects: must be an object of project ids"
    for pid, entry in obj.get("projects", {}).items():
        problem = _entry_problem(pid, entry)
        if problem:
            return problem
    return None


def load_settings(home: Path) -> dict[str, Any]:
    """The settings, checked by their rule (not a checksum: people edit this file by hand)."""
    path = settings_path(home)
    try:
        obj = read_json(path)
    except FileNotFoundError:
        return {"format": FORMAT, "projects": {}}
    except (OSError, ValueError) as err:
        raise InvalidInput(
            f"{path} is not valid JSON ({err}). Fix it by hand, or move it aside and run "
            "`lingshu project confirm PATH` again for your projects."
        ) from None
    problem = settings_problem(obj)
    if problem:
        raise InvalidInput(f"{path} has a wrong setting: {problem}. Fix it (or use `lingshu settings set`), then retry.")
    obj.setdefault("projects", {})
    return obj


def update_settings(home: Path, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    with locked(home / ".settings.lock", what="the settings"):
        obj = load_settings(home)
        change(obj)
        problem = settings_problem(obj)
        if problem:
            raise InvalidInput(f"Not saved: {problem}.")
        obj["format"] = FORMAT
        obj.pop("checksum", None)  # older versions sealed the file, which refused every hand edit
        write_atomic(settings_path(home), encode(obj))
        return obj


def parse_setting(key: str, text: str) -> Any:
    """The value `lingshu settings set KEY TEXT` means, or InvalidInput naming the valid values."""
    if key not in SETTABLE:
        raise InvalidInput(f"'{key}' is not a setting you can set. Settable: {', '.join(SETTABLE)}.")
    if key in SWITCHES:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "on", "off", "yes", "no"):
            raise InvalidInput(f"{key} is on or off; got {text!r}.")
        return lowered in ("true", "on", "yes")
    if key in CHOICES:
        if text not in CHOICES[key]:
            raise InvalidInput(f"{key} must be one of {', '.join(CHOICES[key])}; got {text!r}.")
        return text
    if key.startswith(("budgets.", "learning.")):
        if not text.strip().isdigit() or int(text) < 1:
            raise InvalidInput(f"{key} must be a whole number of at least 1; got {text!r}.")
        return int(text)
    if not text.strip():
        raise InvalidInput(f"{key} needs a value such as \"release\"; `lingshu settings unset {key}` removes it.")
    return text.strip()


def set_project_setting(home: Path, project_id: str, key: str, value: Any) -> None:
    """Set (or, with value None, remove) one project setting; `budgets.x` reaches into the object."""
    def change(obj: dict[str, Any]) -> None:
        entry = obj["projects"].get(project_id)
        if entry is None:
            raise InvalidInput("That project is not confirmed. Run `lingshu project confirm PATH` first.")
        target, name = entry, key
        if "." in key:
            group, name = key.split(".", 1)
            target = entry.setdefault(group, {})
        if value is None:
            target.pop(name, None)
        else:
            target[name] = value

    update_settings(home, change)


def project_entry(settings: dict[str, Any], project_id: str) -> dict[str, Any] | None:
    entry = settings["projects"].get(project_id)
    return {**DEFAULT_PROJECT, **entry} if entry else None


def confirm_project(home: Path, root: Path | str) -> str:
    """Record `root` as a confirmed project root; the explicit act of SPEC §1.3."""
    real = os.path.realpath(os.fspath(root))
    if not os.path.isdir(real):
        raise InvalidInput(f"{root} is not a folder. Give the root folder of your project.")
    if os.path.dirname(real) == real or real == os.path.realpath(os.path.expanduser("~")):
        raise InvalidInput(
            f"{real} is too broad to be a project: every folder under it would share one memory. "
            "Confirm the root folder of one project instead (the folder that holds its .git)."
        )
    pid = project_id_for(real)

    def change(obj: dict[str, Any]) -> None:
        entry = obj["projects"].setdefault(pid, dict(DEFAULT_PROJECT))
        entry["root"] = real
        entry["confirmed"] = True

    update_settings(home, change)
    return pid


def forget_project(home: Path, root: Path | str) -> str:
    """Un-confirm a project root. Its layer stays on disk until the person purges it."""
    real = os.path.realpath(os.fspath(root))
    found: list[str] = []

    def change(obj: dict[str, Any]) -> None:
        for pid, entry in list(obj["projects"].items()):
            if entry.get("root") == real:
                del obj["projects"][pid]
                found.append(pid)
        if not found:
            raise InvalidInput(f"{real} is not a confirmed project root. `lingshu project show` names the project of a folder.")

    update_settings(home, change)
    return found[0]


def find_confirmed(settings: dict[str, Any], path: Path | str) -> str | None:
    """The confirmed project whose root holds `path` (the deepest one), if any."""
    real = os.path.realpath(os.fspath(path))
    best: tuple[int, str] | None = None
    for pid, entry in settings["projects"].items():
        root = entry.get("root")
        if not entry.get("confirmed") or not root:
            continue
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            if best is None or len(root) > best[0]:
                best = (len(root), pid)
    return best[1] if best else None
