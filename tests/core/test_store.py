"""The durable store (SPEC §1–§3): real processes, real files, real locks — no mocked file system."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.durable import checksum_holds
from core.errors import LayerBroken
from core.store import load, read_cold, recover
from core.workspace import open_workspace
from tests.conftest import REPO, all_records, layer_file, read_layer, run_cli

CHILD = [sys.executable, "-m", "tests.core.writer_child"]


def _layer(home: Path, project: Path):  # type: ignore[no-untyped-def]
    ref = open_workspace(home, project).project_layer
    assert ref is not None
    return ref


def test_kill_at_random_moments_loses_nothing_that_was_reported(home: Path, project: Path) -> None:
    """SPEC §3.2, §3.3: SIGKILL at 50 random moments or more; every reported id survives, the checksum
    holds, no cold file is orphaned or missing. Kills go on past 50 until more than 50 writes were
    reported, so a slow machine (fewer writes per kill window) still tests as many."""
    open_workspace(home, project)  # confirm once, before the children race for settings
    rng = random.Random(1234)
    reported: dict[str, str] = {}
    for kill in range(200):
        if kill >= 50 and len(reported) > 50:
            break
        proc = subprocess.Popen([*CHILD, "crash", str(home), str(project)], stdout=subprocess.PIPE, text=True, cwd=REPO)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()
        deadline = time.time() + 20
        while not lines and time.time() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        reader.join(5)
        for line in lines:
            if not line.endswith("\n"):
                continue  # cut off by the kill: the child had not finished reporting it
            parts = line.split()
            if parts[0] in ("saved", "archived", "restored"):
                reported[parts[1]] = parts[0]
        ref = _layer(home, project)
        state = recover(ref)  # what the next writer (or doctor) does first: finish an interrupted intent
        if not ref.state_path.exists():
            assert not reported  # killed before its first write ever published: nothing to lose yet
            continue
        assert checksum_holds(json.loads(ref.state_path.read_bytes()))
        assert not (ref.dir / "intent.json").exists()
        records = all_records(home, project)
        for rid in reported:
            assert rid in records, f"{rid} was reported written but is gone"
        assert all(r["status"] == "active" for r in state["records"].values())
        archived = {rid for rid, r in records.items() if r["status"] == "archived"}
        for rid in archived:
            assert read_cold(ref, rid)["body"].startswith("body ")
        cold = {p.stem for p in ref.cold_dir.glob("*.json")} if ref.cold_dir.exists() else set()
        assert cold == archived, "cold files must match archived records exactly"
        assert not cold & set(state["records"]), "an archived record lives in the cold store only"
    assert len(reported) > 50


def test_four_processes_writing_at_once(home: Path, project: Path) -> None:
    """SPEC §3.1–§3.2: 4 processes × 50 writes to one layer: all 200 present, no generation twice."""
    open_workspace(home, project)
    procs = [subprocess.Popen([*CHILD, "concurrent", str(home), str(project), tag, "50"], stdout=subprocess.PIPE, text=True, cwd=REPO)
             for tag in ("a", "b", "c", "d")]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    rows = [line.split() for out in outputs for line in out.splitlines()]
    assert len(rows) == 200
    generations = [int(g) for _, g in rows]
    assert len(set(generations)) == 200
    state = read_layer(home, project)
    assert {rid for rid, _ in rows} <= set(state["records"])
    assert state["generation"] == max(generations)


def test_lock_held_too_long_answers_busy(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.1: a lock held by another process for over 500 ms gives `busy` with one next step."""
    ref = _layer(home, project)
    ref.dir.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys,time,fcntl; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(5)",
         str(ref.dir / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"  # type: ignore[union-attr]
        started = time.monotonic()
        r = mem.save("Deploy with make release", "make release pushes the image.")
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert r["status"] == "busy" and r["ok"] is False and r["committed"] is False
    assert r["message"] == "Another process is writing the project layer (%s) right now. Wait a moment and retry." % ref.project_id
    assert 0.45 < waited < 3
    # the lock died with its holder: the next write goes through
    assert mem.save("Deploy with make release", "make release pushes the image.")["committed"] is True


@pytest.mark.parametrize("damage", ["truncated", "garbage", "checksum"])
def test_corrupt_state_recovers_from_prev_and_is_quarantined(home: Path, project: Path, mem, damage: str) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.4: a bad state.json is kept as state.corrupt-<UTC>.json and the layer comes back from state.prev.json."""
    first = mem.save("Use tox", "tox -e py311")["id"]
    second = mem.save("Lint with ruff", "ruff check .")["id"]
    path = layer_file(home, project)
    raw = path.read_bytes()
    bad = {"truncated": raw[: len(raw) // 2], "garbage": b"\x00\xffnot json",
           "checksum": raw.replace(b"ruff check .", b"ruff check x")}[damage]
    path.write_bytes(bad)
    r = mem("memory_search", {"query": "tox"})
    assert [h["id"] for h in r["results"]] == [first]
    state = read_layer(home, project)
    assert checksum_holds(state)
    assert first in state["records"] and second not in state["records"]  # the previous generation
    copies = list(path.parent.glob("state.corrupt-*.json"))
    assert len(copies) == 1 and copies[0].read_bytes() == bad


def test_identical_corruption_is_kept_once(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.4: identical content is quarantined once."""
    mem.save("Use tox", "tox -e py311")
    mem.save("Lint with ruff", "ruff check .")
    path = layer_file(home, project)
    for _ in range(2):
        path.write_bytes(b"{broken")
        mem("memory_search", {"query": "tox"})
    assert len(list(path.parent.glob("state.corrupt-*.json"))) == 1


def test_both_files_bad_refuses_writes_and_doctor_names_the_steps(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.4: both bad → the layer stops taking writes, every answer says how to recover, doctor exits 1."""
    mem.save("Use tox", "tox -e py311")
    mem.save("Lint with ruff", "ruff check .")
    path = layer_file(home, project)
    path.write_bytes(b"garbage one")
    path.with_name("state.prev.json").write_bytes(b"garbage two")
    r = mem.save("Another", "text")
    assert r["ok"] is False and r["committed"] is False
    assert "lingshu doctor" in r["message"] and "unreadable" in r["message"]
    assert path.read_bytes() == b"garbage one"
    with pytest.raises(LayerBroken):
        load(_layer(home, project))
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1
    assert "NEEDS YOU" in doc.stdout and "step 1:" in doc.stdout and "lingshu doctor --reset project" in doc.stdout
    fixed = run_cli(home, "doctor", "--reset", "project", "--project", str(project), "--yes")
    assert fixed.returncode == 0, fixed.stderr
    assert run_cli(home, "doctor").returncode == 0
    assert mem.save("Another", "text")["committed"] is True


def test_cold_body_damage_is_reported_never_an_empty_body(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.4, §6.4: restore checks the cold body first: cold_corrupt / cold_missing."""
    a = mem.save("Use tox", "tox -e py311")["id"]
    b = mem.save("Lint with ruff", "ruff check .")["id"]
    assert mem("memory_forget", {"id": a})["committed"] is True
    assert mem("memory_forget", {"id": b})["committed"] is True
    cold = layer_file(home, project).parent / "cold"
    (cold / f"{a}.json").write_text('{"id": "%s", "body": "", "checksum": "sha256:0"}' % a)
    (cold / f"{b}.json").unlink()
    ra = mem("memory_forget", {"id": a, "action": "restore"})
    rb = mem("memory_forget", {"id": b, "action": "restore"})
    assert (ra["status"], ra["committed"]) == ("cold_corrupt", False)
    assert (rb["status"], rb["committed"]) == ("cold_missing", False)
    assert a not in read_layer(home, project)["records"] and b not in read_layer(home, project)["records"]
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "damaged" in doc.stdout and "missing" in doc.stdout


def _ro_bind(path: Path) -> bool:
    if os.geteuid() != 0:
        path.chmod(0o555)
        return True
    ok = subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True).returncode == 0
    return ok and subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], capture_output=True).returncode == 0


def test_read_only_home_gives_a_clear_error_and_keeps_the_old_generation(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.3: a write that cannot reach the disk names the path and the next step; nothing changes."""
    rid = mem.save("Use tox", "tox -e py311")["id"]
    before = layer_file(home, project).read_bytes()
    if not _ro_bind(home):
        pytest.skip("cannot make a read-only folder here (neither non-root nor bind mounts)")
    try:
        r = mem.save("Lint with ruff", "ruff check .")
        assert r["ok"] is False and r["committed"] is False and r["status"] == "invalid"
        assert str(home) in r["message"] and "previous generation is still in force" in r["message"]
        assert "writable" in r["message"]
        got = mem("memory_read", {"id": rid})  # reading still works
        assert got["body"] == "tox -e py311"
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(home)], check=False)
        else:
            home.chmod(0o755)
    assert layer_file(home, project).read_bytes() == before


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_write_failing_midway_keeps_the_old_generation(home: Path, project: Path, mem, monkeypatch, where: str) -> None:  # type: ignore[no-untyped-def]
    """SPEC §3.3: an OSError from the fsync or the rename: clear error naming the path, old generation intact."""
    mem.save("Use tox", "tox -e py311")
    before = layer_file(home, project).read_bytes()

    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, where, boom)
    r = mem.save("Lint with ruff", "ruff check .")
    monkeypatch.undo()
    assert r["ok"] is False and r["committed"] is False
    assert "No space left on device" in r["message"] and "state.json" in r["message"]
    assert layer_file(home, project).read_bytes() == before
    assert not [p for p in layer_file(home, project).parent.iterdir() if p.name.endswith(".tmp")]
    assert checksum_holds(read_layer(home, project))


def test_older_files_without_optional_fields_load(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §2, §8: a layer without queues and records without optional fields load and search as before."""
    from core.durable import encode, with_checksum

    ref = _layer(home, project)
    ref.dir.mkdir(parents=True)
    old = {"format": "lingshu-layer/1", "generation": 3, "records": {
        "mem_old000000000001": {"id": "mem_old000000000001", "title": "Old style note", "body": "still here", "status": "active"}}}
    ref.state_path.write_bytes(encode(with_checksum(old)))
    r = mem("memory_search", {"query": "old style"})
    assert [h["id"] for h in r["results"]] == ["mem_old000000000001"]
    assert mem("memory_read", {"id": "mem_old000000000001"})["body"] == "still here"


def test_project_comes_only_from_an_explicit_root(home: Path, project: Path, tmp_path: Path) -> None:
    """SPEC §1.3: no namespace from the current directory alone; a write without a project says what to do."""
    r = run_cli(home, "call", "memory_save", '{"title": "A note", "body": "text"}', cwd=project)
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["status"] == "needs_context" and out["needsScope"] is True and out["committed"] is False
    assert "lingshu project confirm" in out["hint"]
    assert not (home / "projects").exists()
    assert run_cli(home, "project", "confirm", str(project)).returncode == 0
    r = run_cli(home, "call", "memory_save", '{"title": "A note", "body": "text"}', cwd=project / ".")
    assert json.loads(r.stdout)["committed"] is True and json.loads(r.stdout)["layer"] == "project"


def test_memory_off_and_on_per_project(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §1.4: off is a permission change, not deletion."""
    rid = mem.save("Use tox", "tox -e py311")["id"]
    assert run_cli(home, "disable", "--project", str(project)).returncode == 0
    r = mem.save("Another", "text")
    assert (r["status"], r["committed"], r["id"], r["needsScope"]) == ("memory_disabled", False, "", True)
    assert mem("memory_search", {"query": "tox"})["status"] == "memory_disabled"
    assert mem("memory_read", {"id": rid})["status"] == "memory_disabled"
    assert rid in read_layer(home, project)["records"]
    assert run_cli(home, "enable", "--project", str(project)).returncode == 0
    assert mem("memory_read", {"id": rid})["body"] == "tox -e py311"


def test_layer_file_fits_the_record_model_and_doctor_names_a_bad_record(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """SPEC §2: every record the tools write fits the Record model; a hand-edited bad one is named by doctor."""
    from core.durable import encode, with_checksum
    from core.models import LayerFile

    rid = mem.save("Use tox", "tox -e py311", conditions=[{"key": "shell", "value": "bash"}], topicKey="test")["id"]
    mem.save("Use nox", "nox", supersedes=rid)
    mem("memory_forget", {"id": rid, "action": "purge", "force": True})
    LayerFile.model_validate(read_layer(home, project))
    assert run_cli(home, "doctor").returncode == 0
    state = read_layer(home, project)
    state["records"]["mem_handedit00001"] = {"id": "mem_handedit00001", "title": "x", "body": "y", "kind": "gossip"}
    layer_file(home, project).write_bytes(encode(with_checksum(state)))
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "Record mem_handedit00001 does not fit the record model (kind: must be one of" in doc.stdout
    assert (layer_file(home, project).parent / "quarantine" / "mem_handedit00001.json").exists()
    assert "mem_handedit00001" not in read_layer(home, project)["records"]


def test_doctor_names_broken_settings(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    mem.save("Use tox", "tox -e py311")
    (home / "settings.json").write_text('{"projects": {"x": {"root": "/r", "writeMode": "sometimes"}}}')
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "projects.x.writeMode: must be one of direct, review" in doc.stdout and "lingshu settings set" in doc.stdout


def test_readers_never_get_busy_while_a_cold_change_is_in_flight(home: Path, project: Path, mem) -> None:  # type: ignore[no-untyped-def]
    """Issue 12 / SPEC §3.1: while an archive, restore or purge holds the lock (intent.json present),
    searches, reads and recall read the last published generation; only writers wait."""
    rid = mem.save("Deploy with make release", "make release pushes the image.")["id"]
    ref = _layer(home, project)
    (ref.dir / "intent.json").write_text('{"generationBefore": 999, "createCold": [], "deleteCold": []}')
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys,time,fcntl; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)",
         str(ref.dir / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"  # type: ignore[union-attr]
        from core import store
        store._cache.clear()  # a fresh reader's view
        for _ in range(3):
            assert [h["id"] for h in mem("memory_search", {"query": "release"})["results"]] == [rid]
            assert mem("memory_read", {"id": rid})["status"] == "ok"
        hook = run_cli(home, "recall", "--format", "json", "--message", "how do we deploy a release?", "--project", str(project))
        assert hook.returncode == 0 and [c["id"] for c in json.loads(hook.stdout)["cards"]] == [rid], hook.stderr
        assert mem.save("Lint with ruff", "ruff check .")["status"] == "busy"  # a writer waits, and says so
    finally:
        holder.kill()
        holder.wait()
    assert mem.save("Lint with ruff", "ruff check .")["committed"] is True
    assert not (ref.dir / "intent.json").exists()  # the next writer finished the change


def test_a_reader_that_sees_the_first_generation_appear_reads_it_without_the_lock(
        home: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC §3.1: a reader that found no layer file, and then the history a writer's first publish
    left (its index), reads that first generation instead of waiting for the lock that a queue of
    writers holds. The interleaving (publish between the reader's stat and its history check) is
    forced here; it is what gave one `busy` answer in a CI run of the 8-writer test."""
    from core import store

    ref = _layer(home, project)
    real_has_history = store._has_history
    holder: list[subprocess.Popen[str]] = []

    def publish_then_look(r):  # type: ignore[no-untyped-def]
        if not holder:
            first = subprocess.run([*CHILD, "crash", str(home), str(project), "1"], capture_output=True, text=True, cwd=REPO, timeout=60)
            assert first.stdout.startswith("ready\nsaved"), first.stderr
            proc = subprocess.Popen(
                [sys.executable, "-c", "import sys,time,fcntl; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)",
                 str(ref.dir / ".lock")], stdout=subprocess.PIPE, text=True)
            holder.append(proc)
            assert proc.stdout.readline().strip() == "held"  # type: ignore[union-attr]
        return real_has_history(r)

    monkeypatch.setattr(store, "_has_history", publish_then_look)
    store._cache.clear()
    assert not ref.state_path.exists()
    try:
        state = load(ref)  # before the fix: recover() under the held lock, then `busy`
    finally:
        for proc in holder:
            proc.kill()
            proc.wait()
    assert holder and [r["title"] for r in state["records"].values()][0].startswith("crash note 1 ")


def test_readers_get_no_busy_answer_while_8_writers_archive_and_restore(home: Path, project: Path, tmp_path: Path) -> None:
    """Issue 12 / SPEC §3.1: 4 reader processes (search, read, recall) beside 8 writer processes
    that save, archive and restore: the readers never get `busy`; only writers wait."""
    open_workspace(home, project)
    stop = tmp_path / "stop"
    readers = [subprocess.Popen([*CHILD, "reader", str(home), str(project), str(stop)], stdout=subprocess.PIPE, text=True, cwd=REPO)
               for _ in range(4)]
    writers = [subprocess.Popen([*CHILD, "crash", str(home), str(project), "12"], stdout=subprocess.PIPE, text=True, cwd=REPO)
               for _ in range(8)]
    saved = [line.split()[1] for w in writers for line in w.communicate(timeout=300)[0].splitlines() if line.startswith("saved")]
    stop.write_text("")
    seen = [r.communicate(timeout=120)[0] for r in readers]
    assert 0 < len(saved) <= 8 * 12  # a writer that got busy moves on: only writers wait
    assert all("busy" not in line and "ok=" in line for line in seen), seen
    assert set(saved) <= set(all_records(home, project))
