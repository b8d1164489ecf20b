"""Lock-free appends for `lingshu recall` (SPEC §6.4: the hook must stay fast) and the citation ledger.

The hook opens a turn and records what it injected on every user message. Taking the bookkeeping
files' locks there would put the lock library's import and any wait on every message, so the hook
instead drops each change as its own small file, named so that names sort in time order. Readers
replay pending entries over the main file; the next writer that holds that file's lock folds them in
and removes them. Entries older than what the main file keeps are dropped by the hook itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from .durable import encode, random_hex, write_atomic


def _folder(home: Path, kind: str) -> Path:
    return home / "spool" / kind


def put(home: Path, kind: str, entry: dict[str, Any], *, keep: int) -> int:
    """Add one entry (atomic, not fsynced: this is bookkeeping the next message rebuilds), then
    drop entries beyond the newest `keep`, which the main file would not keep either. Returns how
    many entries wait to be folded."""
    folder = _folder(home, kind)
    write_atomic(folder / f"{time.time_ns():020d}-{random_hex(4)}.json", encode(entry), durable=False)
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    for name in names[:-keep]:
        with contextlib.suppress(OSError):
            os.unlink(folder / name)
    return min(len(names), keep)


def pending(home: Path, kind: str) -> list[tuple[Path, dict[str, Any]]]:
    """The entries not yet folded in, oldest first. A damaged entry is skipped (and removed by the fold)."""
    folder = _folder(home, kind)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return []
    out: list[tuple[Path, dict[str, Any]]] = []
    for name in names:
        path = folder / name
        try:
            entry = json.loads(path.read_bytes())
        except (OSError, ValueError):
            entry = None
        out.append((path, entry if isinstance(entry, dict) else {}))
    return out


def drop(entries: list[tuple[Path, dict[str, Any]]]) -> None:
    """After the main file that folds `entries` in is published."""
    for path, _ in entries:
        with contextlib.suppress(OSError):
            os.unlink(path)
