"""A child process for the crash and concurrency tests: writes in a loop through the real
dispatch and prints each id only after the write returned."""

from __future__ import annotations

import sys
import time

import core.scan  # noqa: F401  (loaded before "ready", as a server that has written once has it: the kills should land in writes, not in the first write's import)
from core.errors import Busy
from core.store import transact
from core.tools import dispatch
from core.workspace import open_workspace


def crash_loop(home: str, project: str, rounds: int = 0) -> None:
    """Saves, archives and restores (cold-file changes with an intent) until killed, or `rounds` saves."""
    print("ready", flush=True)
    i = 0
    last = None
    while not rounds or i < rounds:
        i += 1
        r = dispatch("memory_save", {"title": f"crash note {i} {time.time_ns()}", "body": f"body {i}", "resolution": "distinct"},
                     home=home, project=project)
        if r.get("committed"):
            print("saved", r["id"], flush=True)
            if last and i % 3 == 0:
                a = dispatch("memory_forget", {"id": last}, home=home, project=project)
                if a.get("committed"):
                    print("archived", last, flush=True)
                if i % 6 == 0:
                    b = dispatch("memory_forget", {"id": last, "action": "restore"}, home=home, project=project)
                    if b.get("committed"):
                        print("restored", last, flush=True)
            last = r["id"]


def concurrent(home: str, project: str, tag: str, count: int) -> None:
    ws = open_workspace(home, project)
    ref = ws.project_layer
    assert ref is not None
    done = 0
    while done < count:
        rid = f"mem_{tag}{done:04d}xxxxxxxxxx"[:20]

        def add(state, tx, rid=rid):  # type: ignore[no-untyped-def]
            state["records"][rid] = {"id": rid, "title": rid, "body": "x", "status": "active", "revision": 1}

        try:
            _, state = transact(ref, add)
        except Busy:
            time.sleep(0.01)  # the next step the busy answer gives: wait a moment and retry
            continue
        print(rid, state["generation"], flush=True)
        done += 1


def reader(home: str, project: str, stop: str) -> None:
    """Searches, reads and recalls until the `stop` file appears; prints every status it got."""
    from pathlib import Path

    from core.recall import recall

    seen: dict[str, int] = {}
    while not Path(stop).exists():
        # A busy answer is counted with the call that got it and what it said, for whoever must find out why.
        s = dispatch("memory_search", {"query": "crash note"}, home=home, project=project)
        key = s["status"] if s["status"] != "busy" else f"busy(search: {s.get('message', '')})"
        seen[key] = seen.get(key, 0) + 1
        for hit in s.get("results", [])[:2]:
            r = dispatch("memory_read", {"id": hit["id"]}, home=home, project=project)
            key = r["status"] if r["status"] != "busy" else f"busy(read: {r.get('message', '')})"
            seen[key] = seen.get(key, 0) + 1
        try:
            recall(open_workspace(home, project), "crash note body", session_id="reader")
            seen["recall"] = seen.get("recall", 0) + 1
        except Busy as err:
            key = f"busy(recall: {err.message})"
            seen[key] = seen.get(key, 0) + 1
    print(" ".join(f"{k}={v}" for k, v in sorted(seen.items())), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "crash":
        crash_loop(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    elif sys.argv[1] == "reader":
        reader(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        concurrent(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
