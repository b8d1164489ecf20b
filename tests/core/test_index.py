"""The layer file holds what is live, and the derived index follows it (issue 16, SPEC §3.5, §3.6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core import index
from core.durable import encode, with_checksum
from core.importing import import_json
from core.store import HARD_ACTIVE, load
from core.workspace import open_workspace
from tests.conftest import REPO, Memory, all_records, layer_file, read_layer

CRASH_AFTER_PUBLISH = """
import os, sys
from core import index
from core.tools import dispatch
# Die right after the layer file is published, before the index hears of it: a real crash point.
index.apply = lambda *a, **k: os._exit(9)
dispatch("memory_save", {"title": "Rotate the signing key", "body": "Rotate it with make rotate-key."},
         home=sys.argv[1], project=sys.argv[2])
"""


def _ref(home: Path, project: Path):  # type: ignore[no-untyped-def]
    ref = open_workspace(home, project).project_layer
    assert ref is not None
    return ref


def _hit_ids(mem: Memory, query: str) -> list[str]:
    return [h["id"] for h in mem("memory_search", {"query": query})["results"]]


def test_3_6_crash_between_publish_and_index_update_is_rebuilt(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: a crash after the publish leaves an index tagged with the old generation: it is
    detected as stale and rebuilt, so the saved record is found."""
    mem.save("Deploy with make release", "make release pushes the image.")
    child = subprocess.run([sys.executable, "-c", CRASH_AFTER_PUBLISH, str(home), str(project)], cwd=REPO, capture_output=True, text=True)
    assert child.returncode == 9, child.stderr
    state = read_layer(home, project)
    new = next(rid for rid, r in state["records"].items() if r["title"] == "Rotate the signing key")
    index.forget_connections()  # a fresh process's view
    assert _hit_ids(mem, "signing key") == [new]
    conn = index.current(_ref(home, project))
    assert conn.meta("tag") == state["checksum"]


def test_3_6_hand_edited_layer_file_rebuilds_the_index(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: a hand edit (another key order, pretty-printed, checksum redone) is the truth."""
    rid = mem.save("Use tox", "tox -e py311 runs the tests.")["id"]
    assert _hit_ids(mem, "tox") == [rid]
    path = layer_file(home, project)
    state = json.loads(path.read_text())
    state.pop("checksum")
    state["records"][rid]["title"] = "Use nox"
    state["records"][rid]["body"] = "nox -s tests runs the tests."
    state["generation"] += 1
    path.write_text(json.dumps(with_checksum(state), indent=2))
    assert _hit_ids(mem, "tox") == []
    assert _hit_ids(mem, "nox") == [rid]


def test_3_6_a_search_never_returns_what_the_layer_does_not_hold(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: records removed from the file by hand disappear from search at once."""
    keep = mem.save("Cache dir is .cache/build", "The build cache lives in .cache/build.")["id"]
    drop = mem.save("Cache warmup", "Warm the cache with make warm.", resolution="distinct")["id"]
    assert set(_hit_ids(mem, "cache")) == {keep, drop}
    path = layer_file(home, project)
    state = json.loads(path.read_text())
    del state["records"][drop]
    state.pop("checksum")
    state["generation"] += 1
    path.write_bytes(encode(with_checksum(state)))
    assert _hit_ids(mem, "cache") == [keep]
    assert mem("memory_read", {"id": drop})["status"] == "gone"


def test_3_6_a_lost_or_damaged_index_is_rebuilt(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: the index is derived data; without it (or with garbage in its place) search still works."""
    rid = mem.save("Use tox", "tox -e py311 runs the tests.")["id"]
    index.forget_connections()
    db = layer_file(home, project).parent / index.INDEX
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    assert _hit_ids(mem, "tox") == [rid]
    index.forget_connections()
    db.write_bytes(b"not a database at all" * 100)
    assert _hit_ids(mem, "tox") == [rid]


def test_3_5_archiving_frees_room_in_the_layer_file(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.5: archived records leave state.json, so the layer never refuses a save for its history.
    Bodies of 3 KB: the 1 MiB body limit stops the 350th save; archiving 100 makes room again."""
    body = "Step by step notes for the release. " * 85
    ids = []
    for i in range(400):
        r = mem.save(f"Release note number {i} zz{i}", f"{i} {body}", resolution="distinct")
        if not r["committed"]:
            break
        ids.append(r["id"])
    assert r["status"] == "invalid" and "1 MiB" in r["message"] and 300 < len(ids) < 400
    size_full = layer_file(home, project).stat().st_size
    for rid in ids[:100]:
        assert mem("memory_forget", {"id": rid})["committed"] is True
    assert layer_file(home, project).stat().st_size < size_full * 0.75
    assert not set(ids[:100]) & set(read_layer(home, project)["records"])
    assert mem.save("Release note after archiving", body, resolution="distinct")["committed"] is True
    assert all(all_records(home, project)[rid]["status"] == "archived" for rid in ids[:100])


def test_3_6_reads_publish_nothing(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: read counts are bookkeeping: the layer file is not rewritten by reads."""
    rid = mem.save("Use tox", "tox -e py311")["id"]
    path = layer_file(home, project)
    before = (path.stat().st_ino, path.read_bytes())
    for _ in range(5):
        assert mem("memory_read", {"id": rid})["status"] == "ok"
    assert (path.stat().st_ino, path.read_bytes()) == before
    assert index.read_counts(_ref(home, project), rid)[1] == 5


def test_3_5_older_files_with_archived_stubs_are_moved_out(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §2 (older files load as before): a layer written by the first version kept archived stubs
    and purge tombstones in state.json; they still work, and the next write moves them out."""
    ref = _ref(home, project)
    ref.dir.mkdir(parents=True)
    (ref.cold_dir).mkdir()
    live = {"id": "mem_live00000000", "title": "Use tox", "body": "tox -e py311", "status": "active", "revision": 1}
    stub = {"id": "mem_arch00000000", "title": "Old deploy notes", "status": "archived", "revision": 2,
            "archivedAt": "2026-01-01T00:00:00.000000Z"}
    tomb = {"id": "mem_gone00000000", "status": "purged", "revision": 3}
    (ref.cold_dir / "mem_arch00000000.json").write_bytes(
        encode(with_checksum({"id": "mem_arch00000000", "body": "deploy with fab", "versions": []})))
    records = {r["id"]: r for r in (live, stub, tomb)}
    ref.state_path.write_bytes(encode(with_checksum({"format": "lingshu-layer/1", "generation": 4, "records": records,
                                                     "conflicts": [], "suggestions": []})))
    assert mem("memory_read", {"id": "mem_arch00000000"})["status"] == "gone"
    assert mem("memory_read", {"id": "mem_gone00000000"})["status"] == "gone"
    assert mem.save("Lint with ruff", "ruff check .")["committed"] is True
    state = read_layer(home, project)
    assert set(state["records"]) == {"mem_live00000000", *[r for r in state["records"] if r != "mem_live00000000"]}
    assert "mem_arch00000000" not in state["records"] and "mem_gone00000000" not in state["records"]
    assert all_records(home, project)["mem_arch00000000"]["title"] == "Old deploy notes"
    restored = mem("memory_forget", {"id": "mem_arch00000000", "action": "restore"})
    assert restored["committed"] is True
    assert mem("memory_read", {"id": "mem_arch00000000"})["body"] == "deploy with fab"


def test_3_5_import_honours_the_hard_limit(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.5: an import never pushes a layer past 1,000 active notes and archives nothing to make
    room: what does not fit is refused with the number, and every refused note is listed."""
    mem.save("Use tox", "tox -e py311")
    ws = open_workspace(home, project)
    records = [{"id": f"mem_imp{i:09d}", "title": f"Imported note {i}", "body": f"body {i}", "status": "active", "revision": 1}
               for i in range(HARD_ACTIVE + 5)]
    results = import_json(ws, {"format": "lingshu-export/1", "layers": {"project": records}})
    written = [r for r in results if r["status"] == "written"]
    refused = [r for r in results if r["status"] == "refused"]
    assert len(written) == HARD_ACTIVE - 1 and len(refused) == 6
    assert all("limit of 1000" in r["reason"] and "1005 were to be imported" in r["reason"] for r in refused)
    state = load(ws.project_layer)  # type: ignore[arg-type]
    assert sum(r["status"] == "active" for r in state["records"].values()) == HARD_ACTIVE
    assert not (ws.project_layer.cold_dir).exists() or not list(ws.project_layer.cold_dir.iterdir())  # type: ignore[union-attr]


def test_3_5_hard_limit_archives_in_one_pass(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.5: a layer over its cap (an older file) is brought back under it by the next save,
    least recently read first, and the answer names what went."""
    ref = _ref(home, project)
    ref.dir.mkdir(parents=True)
    records = {f"mem_over{i:08d}": {"id": f"mem_over{i:08d}", "title": f"Note {i}", "body": "x", "status": "active", "revision": 1,
                                    "created": f"2026-01-01T00:00:{i % 60:02d}.{i:06d}Z"} for i in range(HARD_ACTIVE + 3)}
    ref.state_path.write_bytes(encode(with_checksum({"format": "lingshu-layer/1", "generation": 1, "records": records,
                                                     "conflicts": [], "suggestions": []})))
    r = mem.save("One more note", "fresh")
    assert r["committed"] is True and len(r["archived"]) == 4
    state = read_layer(home, project)
    assert sum(1 for x in state["records"].values() if x["status"] == "active") == HARD_ACTIVE
    assert os.path.exists(ref.cold_dir / "mem_over00000000.json")


def test_3_6_the_index_stays_whole_and_merged_over_many_generations(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: each write merges a little, so 300 updates of one note leave the full-text index
    at a few segments (without the merge: 12), whole, finding the note's current text and never an
    older revision's."""
    for k in range(30):
        mem.save(f"Note {k}", f"Body of note {k} about caches and queues.")
    rid = mem.save("Cache TTL", "The cart cache lives for 10 minutes.")["id"]
    for revision in range(1, 301):
        mem("memory_save", {"id": rid, "revision": revision, "title": "Cache TTL", "body": f"The cart cache lives for {revision} minutes, v{revision}."})
    ref = open_workspace(home, project).project_layer
    conn = index.current(ref)
    conn.db.execute("INSERT INTO fts(fts, rank) VALUES('integrity-check', 1)")  # raises on a damaged index
    assert conn.db.execute("SELECT count(DISTINCT segid) FROM fts_idx").fetchone()[0] <= 6
    assert [h.id for h in index.search(ref, "v300")] == [rid]
    assert index.search(ref, "v3") == []


def test_3_6_every_few_generations_the_index_is_merged_into_one_segment(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: each query term is looked up in every full-text segment, so every
    OPTIMIZE_EVERY-th generation merges them all; between, they pile up again, and a search finds
    the same notes either way."""
    ids = [mem.save(f"Note {k}", f"Body of note {k} about caches and queues.")["id"] for k in range(12)]
    ref = open_workspace(home, project).project_layer
    counts = {}
    for k in range(2 * index.OPTIMIZE_EVERY):
        mem.save(f"Queue note {k}", f"Queue depth alarm {k} for the cart service.")
        generation = read_layer(home, project)["generation"]
        counts[generation % index.OPTIMIZE_EVERY] = index.current(ref).db.execute("SELECT count(DISTINCT segid) FROM fts_idx").fetchone()[0]
    assert counts[0] == 1
    assert max(counts.values()) > 1
    assert {h.id for h in index.search(ref, "caches", limit=100)} == set(ids)


HOOK_READS = """
import sys
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and str(args[0]).endswith("state.json") else None)
from lingshu_tui.cli import main
sys.argv = ["lingshu", "recall", "--format", "json", "--home", sys.argv[1], "--project", sys.argv[2], "--message", sys.argv[3]]
try:
    main()
finally:
    print("OPENED", len(opened))
"""


def _hook(home: Path, project: Path, message: str) -> tuple[list[str], int]:
    r = subprocess.run([sys.executable, "-c", HOOK_READS, str(home), str(project), message], cwd=REPO, capture_output=True, text=True)
    out, _, opened = r.stdout.rpartition("OPENED ")
    return [c["title"] for c in json.loads(out)["cards"]], int(opened)


def test_16_the_hook_trusts_the_index_its_writer_left_without_reading_the_layer(home: Path, project: Path, mem: Memory) -> None:
    """Issue 16 (recall and search read the index, not the whole layer): the writer that published
    the layer file left its identity in the index, so a new hook process answers without opening
    state.json. A file the index was not brought to (a hand edit) is read and the index rebuilt."""
    mem.save("Deploy with make release", "make release pushes the image.")
    assert _hook(home, project, "how do we release") == (["Deploy with make release"], 0)
    path = layer_file(home, project)
    state = json.loads(path.read_text())
    rid = next(iter(state["records"]))
    state["records"][rid]["title"] = "Ship with make publish"
    state["records"][rid]["body"] = "make publish pushes the image."
    path.write_bytes(encode(with_checksum({k: v for k, v in state.items() if k != "checksum"})))
    cards, opened = _hook(home, project, "how do we publish")
    assert cards == ["Ship with make publish"] and opened >= 1


def test_16_scan_verdicts_leave_with_their_records(home: Path, project: Path, mem: Memory) -> None:
    """Issue 16 (costs that do not grow with age): recall keeps the safety scan's verdict on each
    card beside the index; a record that is archived or edited takes its old verdict with it (a new
    note's saver, or the next recall, sets the new one), so the table holds the live cards, not the
    layer's whole history."""
    import contextlib
    import sqlite3

    keep = mem.save("Deploys go through ArgoCD", "Sync the app after merging.")["id"]
    gone = mem.save("Staging resets nightly", "Seed data comes from fixtures/.")["id"]
    db_path = layer_file(home, project).parent / index.INDEX

    def verdicts() -> dict[str, int]:
        with contextlib.closing(sqlite3.connect(db_path)) as db:
            return dict(db.execute("SELECT id, count(*) FROM verdicts GROUP BY id").fetchall())

    assert verdicts() == {keep: 1, gone: 1}
    assert mem("memory_forget", {"id": gone})["committed"]
    assert verdicts() == {keep: 1}
    assert mem.save("Deploys go through ArgoCD", "Sync the app after merging; prune old images weekly.", id=keep)["committed"]
    assert verdicts() == {}
    from tests.conftest import run_cli

    recalled = run_cli(home, "recall", "--format", "json", "--project", str(project), "--message", "how do deploys go through argocd")
    assert [c["id"] for c in json.loads(recalled.stdout)["cards"]] == [keep]
    assert verdicts() == {keep: 1}


def test_3_6_a_layer_that_never_published_is_found_once_another_process_writes_it(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6: this process remembers that the global layer has no file (so a search need not look
    for its history each time), and still finds the first note another process writes there, and
    says so when that layer's file is lost after that."""
    mem.save("Run tests with tox", "tox -e py311")
    for _ in range(2):
        assert mem("memory_search", {"query": "docker compose", "scope": "global"})["results"] == []
    other = subprocess.run(
        [sys.executable, "-c", "import sys; from core.tools import dispatch; print(dispatch('memory_save', {'title': 'Docker compose for local services', "
         "'body': 'docker compose up -d starts the database.', 'scope': 'global'}, home=sys.argv[1], project=sys.argv[2])['committed'])",
         str(home), str(project)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert other.stdout.strip() == "True", other.stderr
    hits = mem("memory_search", {"query": "docker compose", "scope": "global"})["results"]
    assert [h["title"] for h in hits] == ["Docker compose for local services"]
    global_file = layer_file(home)
    global_file.unlink()  # lost by hand: the previous generation is not there either (first publish)
    answer = mem("memory_search", {"query": "docker compose", "scope": "global"})
    assert answer["ok"] is False and "has lost its files" in answer["message"], answer  # told, never served from the index
