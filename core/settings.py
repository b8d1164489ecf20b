"""`settings.json`: confirmed project roots and their switches (SPEC §1.3–§1.5)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .durable import encode, locked, read_json, with_checksum, checksum_holds, write_atomic
from .errors import InvalidInput
from .paths import project_id_for, settings_path

FORMAT = "lingshu-settings/1"
DEFAULT_PROJECT = {"enabled": True, "writeMode": "direct", "recallMode": "adaptive", "taskDefaults": {}}


def load_settings(home: Path) -> dict[str, Any]:
    path = settings_path(home)
    try:
        obj = read_json(path)
    except FileNotFoundError:
        return {"format": FORMAT, "projects": {}}
    except (OSError, ValueError):
        obj = None
    if not isinstance(obj, dict) or not isinstance(obj.get("projects"), dict) or (
        "checksum" in obj and not checksum_holds(obj)
    ):
        raise InvalidInput(
            f"{path} is unreadable. Move it aside and run `lingshu project confirm PATH` again for your projects."
        )
    return obj


def update_settings(home: Path, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    with locked(home / ".settings.lock", what="the settings"):
        obj = load_settings(home)
        change(obj)
        obj["format"] = FORMAT
        with_checksum(obj)
        write_atomic(settings_path(home), encode(obj))
        return obj


def project_entry(settings: dict[str, Any], project_id: str) -> dict[str, Any] | None:
    entry = settings["projects"].get(project_id)
    return {**DEFAULT_PROJECT, **entry} if entry else None


def confirm_project(home: Path, root: Path | str) -> str:
    """Record `root` as a confirmed project root; the explicit act of SPEC §1.3."""
    real = os.path.realpath(os.fspath(root))
    if not os.path.isdir(real):
        raise InvalidInput(f"{root} is not a folder. Give the root folder of your project.")
    pid = project_id_for(real)

    def change(obj: dict[str, Any]) -> None:
        entry = obj["projects"].setdefault(pid, dict(DEFAULT_PROJECT))
        entry["root"] = real
        entry["confirmed"] = True

    update_settings(home, change)
    return pid


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


def set_project_flag(home: Path, project_id: str, key: str, value: Any) -> None:
    def change(obj: dict[str, Any]) -> None:
        if project_id not in obj["projects"]:
            raise InvalidInput("That project is not confirmed. Run `lingshu project confirm PATH` first.")
        obj["projects"][project_id][key] = value

    update_settings(home, change)
