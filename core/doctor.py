"""`lingshu doctor`: check every layer and say what, if anything, needs a person (SPEC §3.4)."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import index
from .durable import PRIVATE_DIR, PRIVATE_FILE, checksum_holds, encode, locked, sweep_temps, with_checksum, write_atomic
from .errors import ColdBodyError, LingshuError
from .paths import global_dir, project_dir
from .recall import card_content, verdict_key
from .settings import load_settings
from .store import (
    ASIDE,
    INTENT,
    LayerRef,
    empty_layer,
    load,
    quarantine,
    quarantined_records,
    read_cold,
    recover,
    recovery_message,
    recovery_notice,
    transact,
)


@dataclass
class LayerReport:
    ref: LayerRef
    generation: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    checksum_ok: bool = False
    prev_ok: bool | None = None
    quarantined: list[str] = field(default_factory=list)
    cold_checked: int = 0
    problems: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    @property
    def needs_person(self) -> bool:
        return bool(self.problems)

    def as_dict(self) -> dict[str, Any]:
        return {
            "layer": self.ref.kind, "projectId": self.ref.project_id, "dir": str(self.ref.dir), "generation": self.generation,
            "counts": self.counts, "checksumOk": self.checksum_ok, "prevOk": self.prev_ok, "quarantined": self.quarantined,
            "coldChecked": self.cold_checked, "problems": self.problems, "steps": self.steps,
        }


def _file_ok(path: Path) -> bool | None:
    try:
        obj = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return False
    return checksum_holds(obj)


def all_layers(home: Path) -> list[LayerRef]:
    refs = [LayerRef("global", global_dir(home))]
    try:
        projects = set(load_settings(home)["projects"])
    except LingshuError:
        projects = set()
    with contextlib.suppress(FileNotFoundError):
        projects |= {p.name for p in (home / "projects").iterdir() if p.is_dir()}
    refs += [LayerRef("project", project_dir(home, pid), pid) for pid in sorted(projects)]
    return refs


def check_layer(ref: LayerRef) -> LayerReport:
    rep = LayerReport(ref)
    rep.prev_ok = _file_ok(ref.prev_path)
    try:
        state = recover(ref) if (ref.dir / INTENT).exists() else load(ref)
    except LingshuError as err:
        rep.quarantined = sorted(p.name for p in ref.dir.glob("state.corrupt-*.json"))
        rep.problems.append(err.message)
        rep.steps += [
            f"Look at the quarantined copies in {ref.dir} (state.corrupt-*.json); if one is a good older generation, copy it over state.json.",
            f"Or run `lingshu doctor --reset {ref.kind}{' --project-id ' + ref.project_id if ref.project_id else ''}` to set the bad files aside and start this layer empty.",
        ]
        return rep
    rep.quarantined = sorted(p.name for p in ref.dir.glob("state.corrupt-*.json"))
    rep.generation = state["generation"]
    rep.checksum_ok = state["generation"] == 0 or _file_ok(ref.state_path) is True
    counts: dict[str, int] = {"active": 0, "archived": 0}
    for rec in state["records"].values():
        counts[rec.get("status", "active")] = counts.get(rec.get("status", "active"), 0) + 1
        if rec.get("status") == "archived":  # an older file's stub whose cold file could not be moved
            rep.cold_checked += 1
            try:
                read_cold(ref, rec["id"])
            except ColdBodyError as err:
                rep.problems.append(f"«{rec.get('title', '')}»: {err.message}")
    with contextlib.suppress(FileNotFoundError):
        for path in sorted(ref.cold_dir.glob("*.json")):
            rid = path.stem
            if rid in state["records"]:
                continue
            counts["archived"] += 1
            rep.cold_checked += 1
            try:
                read_cold(ref, rid)
            except ColdBodyError as err:
                rep.problems.append(f"archived record {rid}: {err.message}")
    with contextlib.suppress(LingshuError):
        for stub in index.archived(ref):
            if not (ref.cold_dir / f"{stub['id']}.json").exists():
                counts["archived"] += 1
                rep.problems.append(f"«{stub.get('title', '')}» (archived): the archived body of this record is missing "
                                    f"({ref.cold_dir / (stub['id'] + '.json')}). Recover the file from a backup, or purge the record.")
    if state.get(ASIDE):
        with contextlib.suppress(LingshuError):
            transact(ref, lambda _state, _tx: None)  # publishing moves them to the quarantine folder
    for item in quarantined_records(ref):
        rep.problems.append(f"Record {item.get('id')} does not fit the record model ({item.get('problem')}); it was taken out "
                            f"of the layer so the rest works, and is kept in {item['path']}.")
    if any(p.startswith("Record ") for p in rep.problems):
        rep.steps.append("Fix each quarantined record and bring it back with `lingshu import` (a JSON export), "
                         "or delete its file in the quarantine folder if it is not needed.")
    for key, rid, why in index.unsafe_cards(ref):
        rec = state["records"].get(rid)
        if rec is not None and verdict_key(card_content(rec)) == key:
            rep.problems.append(f"«{rec.get('title', '')}» ({rid}) fails the safety scan (it {why}); recall keeps it out. "
                                "Archive or purge it, or rewrite it in the panel.")
    notice = recovery_notice(ref)
    if notice:
        rep.problems.append(recovery_message(ref, notice))
        rep.steps.append("Once you have checked the layer, run `lingshu doctor --ack` to clear the notice.")
    counts["conflicts"] = len(state["conflicts"])
    counts["suggestions"] = len(state["suggestions"])
    rep.counts = counts
    if (ref.dir / INTENT).exists():
        rep.problems.append("An interrupted change is still pending and another process holds the layer; run `lingshu doctor` again in a moment.")
    if rep.quarantined and not rep.problems:
        rep.steps.append("Earlier unreadable files were set aside and the layer was restored from its previous generation; "
                         "the quarantined copies can be deleted once you have checked nothing is missing.")
    return rep


def sweep_home(home: Path) -> tuple[int, int, int]:
    """Remove every temp file a killed writer left anywhere in the home, and make what an older
    version created readable by its owner only: (temp files, their bytes, modes fixed)."""
    removed = size = fixed = 0
    folders = [home, *(p for p in home.rglob("*") if p.is_dir() and not p.is_symlink())]
    for folder in folders:
        n, b = sweep_temps(folder)
        removed, size = removed + n, size + b
    for path in [*folders, *(p for p in home.rglob("*") if p.is_file() and not p.is_symlink())]:
        want = PRIVATE_DIR if path.is_dir() else PRIVATE_FILE
        with contextlib.suppress(OSError):
            if path.stat().st_mode & 0o777 != want:
                os.chmod(path, want)
                fixed += 1
    return removed, size, fixed


def check_settings(home: Path) -> list[str]:
    """Problems with `settings.json`, each with what to do."""
    try:
        load_settings(home)
    except LingshuError as err:
        return [err.message]
    return []


def reset_layer(ref: LayerRef) -> Path | None:
    """Set the unreadable files aside (quarantined) and start the layer empty."""
    with locked(ref.dir / ".lock", what=f"the {ref.label}"):
        kept = None
        for path in (ref.state_path, ref.prev_path):
            with contextlib.suppress(FileNotFoundError):
                kept = quarantine(ref, path.read_bytes())
                path.unlink()
        state = empty_layer(ref)
        write_atomic(ref.state_path, encode(with_checksum(state)))
        return kept

