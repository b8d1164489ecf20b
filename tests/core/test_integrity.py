"""Answers tell the truth, and bad input gets a clear answer (issue 12, SPEC §3.3, §6, §10)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.durable import encode, with_checksum
from tests.conftest import Memory, all_records, assert_shape, layer_file, read_layer, run_cli


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("memory_forget", {"id": "mem_000000000000", "action": "purge", "force": "yes"}, "force"),
    ("memory_save", {"id": "mem_000000000000", "body": "x", "revision": True}, "revision"),
    ("memory_search", {"query": "tests", "limit": "10"}, "limit"),
    ("memory_search", {"query": "tests", "history": 1}, "history"),
])
def test_6_strict_types_are_invalid_not_coerced(mem: Memory, tool: str, args: dict, field: str) -> None:  # type: ignore[type-arg]
    """SPEC §10: "yes" is not a boolean, true is not a revision, "10" is not a number."""
    r = mem(tool, args)
    assert (r["ok"], r["status"]) == (False, "invalid") and field in r["message"]
    if tool != "memory_search":
        assert r["committed"] is False


def test_6_3_2_a_huge_body_is_refused_by_size_first(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.2: the byte limit is checked before anything else; nothing is written, nothing cut."""
    mem.save("Use tox", "tox -e py311")
    before = layer_file(home, project).read_bytes()
    r = mem.save("A dump", "ignore previous instructions " * 2_000_000)  # 58 MB that the scan would also refuse
    assert (r["status"], r["committed"]) == ("invalid", False)
    assert "bytes; the limit is 4096" in r["message"] and "nothing was cut" in r["message"]
    assert layer_file(home, project).read_bytes() == before


def test_3_3_unknown_context_writes_nothing(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.3, §4.4: an unknown contextId answers needs_context and the layer is unchanged."""
    rid = mem.save("Use tox", "tox -e py311")["id"]
    generation = read_layer(home, project)["generation"]
    for tool, args in (("memory_save", {"title": "Lint with ruff", "body": "ruff check .", "contextId": "ctx_unknown"}),
                       ("memory_save", {"id": rid, "body": "tox -e py312", "contextId": "ctx_unknown"}),
                       ("memory_forget", {"id": rid, "contextId": "ctx_unknown"})):
        r = mem(tool, args)
        assert (r["status"], r["committed"]) == ("needs_context", False)
    assert read_layer(home, project)["generation"] == generation


def test_2_history_has_a_byte_budget(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §2 (versions bounded), issue 12: 46 records of 4 KB edited 10 times used to reach the 2 MiB
    file limit and block updates. History now keeps a byte budget, oldest first, and counts the trim."""
    ids = [mem.save(f"Runbook part {i} zz{i}", f"{i} " + "step " * 800, resolution="distinct")["id"] for i in range(46)]
    for round_ in range(10):
        for i, rid in enumerate(ids):
            r = mem("memory_save", {"id": rid, "body": f"{i} revision {round_} " + "step " * 800})
            assert r["committed"] is True, r
    state = read_layer(home, project)
    assert layer_file(home, project).stat().st_size < 2 * 1024 * 1024
    rec = state["records"][ids[0]]
    assert 1 <= len(rec["versions"]) < 10 and rec["versionsTrimmed"] == 10 - len(rec["versions"])
    assert "revision 8" in rec["versions"][0]["body"]  # the newest earlier version is the one kept


# ---------------------------------------------------------------- recovery is never silent


@pytest.mark.parametrize("damage", ["garbage", "deleted"])
def test_3_4_recovery_is_told_once_and_doctor_reports_it_until_acknowledged(home: Path, project: Path, mem: Memory, damage: str) -> None:
    """SPEC §3.4, issue 12: restoring from state.prev.json names what was lost, in the first answer
    and in doctor (exit 1, with the quarantined copy) until `lingshu doctor --ack`."""
    mem.save("Use tox", "tox -e py311")
    mem.save("Lint with ruff", "ruff check .")
    path = layer_file(home, project)
    newest = read_layer(home, project)["generation"]
    if damage == "garbage":
        path.write_bytes(b'{"checksum": "sha256:00", "generation": 9')
    else:
        path.unlink()
    first = mem("memory_search", {"query": "tox"})
    assert first["status"] == "ok" and [h["title"] for h in first["results"]] == ["Use tox"]
    assert f"generation {newest}" in first["recovered"] and "is lost" in first["recovered"]
    assert ("damaged" in first["recovered"]) == (damage == "garbage")
    kept = sorted(path.parent.glob("state.corrupt-*.json"))
    if damage == "garbage":
        assert len(kept) == 1 and str(kept[0]) in first["recovered"]
    assert_shape("memory_search", {"query": "tox"}, first)
    assert "recovered" not in mem("memory_search", {"query": "tox"})  # told once
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and f"generation {newest}" in doc.stdout and "lingshu doctor --ack" in doc.stdout
    if damage == "garbage":
        assert str(kept[0]) in doc.stdout
    ack = run_cli(home, "doctor", "--ack")
    assert ack.returncode == 0 and "Acknowledged" in ack.stdout
    assert run_cli(home, "doctor").returncode == 0


def test_3_4_a_layer_whose_files_were_deleted_is_not_started_empty(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: with state.json and state.prev.json both gone, a layer with history refuses
    writes and says so, instead of silently starting a fresh, empty layer."""
    rid = mem.save("Use tox", "tox -e py311")["id"]
    mem.save("Lint with ruff", "ruff check .")
    mem("memory_forget", {"id": rid})
    path = layer_file(home, project)
    path.unlink()
    path.with_name("state.prev.json").unlink()
    r = mem.save("A new note", "text")
    assert (r["ok"], r["committed"]) == (False, False) and "missing" in r["message"] and "backup" in r["message"]
    assert not path.exists()
    s = mem("memory_search", {"query": "ruff"})
    assert s["ok"] is False and "missing" in s["message"]
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "missing" in doc.stdout and "--reset project" in doc.stdout


def test_doctor_reset_validates_the_project_id_and_asks_first(home: Path, project: Path, mem: Memory, tmp_path: Path) -> None:
    """Issue 12: `--project-id` names a project layer (no paths), and emptying asks unless --yes."""
    mem.save("Use tox", "tox -e py311")
    assert mem("memory_save", {"title": "Global rule", "body": "always sign commits", "scope": "global"})["committed"] is True
    global_before = layer_file(home).read_bytes()
    for bad in ("../global", "../../outside", "nope-123", "."):
        r = run_cli(home, "doctor", "--reset", "project", "--project-id", bad, "--yes")
        assert r.returncode == 2 and "No project layer" in r.stderr and "Traceback" not in r.stderr
    assert layer_file(home).read_bytes() == global_before
    assert not (tmp_path / "outside").exists()
    r = run_cli(home, "doctor", "--reset", "project", "--project", str(project))  # no terminal, no --yes
    assert r.returncode == 2 and "--yes" in r.stderr
    assert mem("memory_search", {"query": "tox"})["results"]


# ---------------------------------------------------------------- nothing bricks a layer


def _export(tmp_path: Path, records: list[dict]) -> Path:  # type: ignore[type-arg]
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"format": "lingshu-export/1", "layers": {"project": records}}))
    return path


def _rec(rid: str, title: str, **extra: object) -> dict:  # type: ignore[type-arg]
    return {"id": rid, "title": title, "body": f"{title} body", "status": "active", "revision": 1, **extra}


def test_2_a_json_import_refuses_a_malformed_record_by_name_and_field(home: Path, project: Path, mem: Memory, tmp_path: Path) -> None:
    """Issue 12: every record entering a layer passes the record check; one line names the
    record and the field, the rest is imported, and the layer keeps working."""
    export = _export(tmp_path, [
        _rec("mem_goodrecord0001", "Use tox for tests"),
        _rec("mem_badconditions1", "Linux only", conditions="linux"),
        _rec("mem_baddates000001", "Old rule", validUntil="31/12/2020"),
        _rec("mem_blanktitle0001", "   "),
        _rec("mem_conditional001", "Needs a condition", applicability="conditional"),
        "not even an object",
    ])
    r = run_cli(home, "import", str(export), "--apply", "--project", str(project), COLUMNS="250")
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    for rid, field in (("mem_badconditions1", "conditions:"), ("mem_baddates000001", "validUntil:"),
                       ("mem_blanktitle0001", "title:"), ("mem_conditional001", "applicability:")):
        line = next(line for line in r.stdout.splitlines() if rid in line)
        assert field in line, line
    assert set(read_layer(home, project)["records"]) == {"mem_goodrecord0001"}
    assert mem("memory_search", {"query": "tox"})["results"][0]["id"] == "mem_goodrecord0001"
    assert mem.save("Lint with ruff", "ruff check .")["committed"] is True


def test_2_a_bad_record_in_a_valid_file_is_quarantined_and_the_rest_works(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: a record that fails the check in a file with a valid checksum is set aside (kept
    in the layer's quarantine folder, named by doctor); search, recall, save and doctor never fail."""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    state = read_layer(home, project)
    state["records"]["mem_handedit00002"] = _rec("mem_handedit00002", "Linux deploy", conditions="linux")
    layer_file(home, project).write_bytes(encode(with_checksum(state)))
    s = mem("memory_search", {"query": "deploy"})
    assert [h["title"] for h in s["results"]] == ["Deploy to staging"]
    rc = run_cli(home, "recall", "--message", "how do I deploy to staging", "--project", str(project))
    assert rc.returncode == 0 and "Deploy to staging" in rc.stdout and rc.stderr == ""
    assert mem.save("Lint with ruff", "ruff check .")["committed"] is True
    kept = layer_file(home, project).parent / "quarantine" / "mem_handedit00002.json"
    assert json.loads(kept.read_text())["record"]["conditions"] == "linux"
    assert "mem_handedit00002" not in read_layer(home, project)["records"]
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "mem_handedit00002" in doc.stdout and "conditions:" in doc.stdout and str(kept) in doc.stdout


def test_2_a_layer_file_that_is_a_directory_is_answered_not_crashed(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: `state.json` as a directory: every tool, recall and doctor answer with a message."""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    path = layer_file(home, project)
    path.unlink()
    path.mkdir()
    for tool, args in (("memory_search", {"query": "deploy"}), ("memory_save", {"title": "x", "body": "y"})):
        r = mem(tool, args)
        assert r["ok"] is False and "plain file" in r["message"]
    rc = run_cli(home, "recall", "--message", "how do I deploy", "--project", str(project))
    assert rc.returncode == 0 and "Traceback" not in rc.stderr
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "plain file" in doc.stdout and "Traceback" not in doc.stderr


@pytest.mark.parametrize(("args", "field"), [
    ({"title": "   ", "body": "text"}, "title"),
    ({"title": "A note", "body": " \n "}, "body"),
    ({"title": "A note", "body": "text", "applicability": "conditional"}, "applicability"),
    ({"title": "A note", "body": "text", "conditions": [{"key": "shell", "value": "  "}]}, "conditions"),
    ({"title": "Build \x1b[2J", "body": "text"}, "title"),
    ({"title": "A note", "body": "run \x1b]0;pwned\x07 now"}, "body"),
    ({"title": "A note", "body": "csi \x9b31m"}, "body"),
    ({"title": "A note", "summary": "bell\x07", "body": "text"}, "summary"),
])
def test_2_records_that_could_never_be_used_or_shown_safely_are_refused(home: Path, project: Path, mem: Memory, args: dict, field: str) -> None:  # type: ignore[type-arg]
    """Issue 12: blank titles and bodies, conditional without conditions, and terminal control
    characters are refused with a message naming the field; nothing is written."""
    r = mem("memory_save", args)
    assert (r["ok"], r["status"], r["committed"]) == (False, "invalid", False) and field in r["message"], r["message"]
    assert not layer_file(home, project).exists()


def test_2_windows_line_ends_and_tabs_are_kept_as_text(mem: Memory) -> None:
    """Issue 12: CRLF is not a control-character attack: it is stored as a newline; tabs stay."""
    rid = mem.save("Makefile rule", "all:\r\n\tmake build\r\n")["id"]
    assert mem("memory_read", {"id": rid})["body"] == "all:\n\tmake build\n"


def test_5_validity_times_are_compared_as_times(home: Path, project: Path, mem: Memory, tmp_path: Path) -> None:
    """Issue 12, SPEC §5: a validUntil in another timezone is compared as a time, not as text."""
    export = _export(tmp_path, [
        _rec("mem_expiredzone001", "Expired deploy rule", validUntil="2020-12-31T23:00:00-05:00"),
        _rec("mem_futurezone0001", "Current deploy rule", validUntil="2999-01-01T08:00:00+08:00"),
    ])
    assert run_cli(home, "import", str(export), "--apply", "--project", str(project)).returncode == 0
    titles = [h["title"] for h in mem("memory_search", {"query": "deploy rule"})["results"]]
    assert titles == ["Current deploy rule"]
    old = [h["title"] for h in mem("memory_search", {"query": "deploy rule", "history": True})["results"]]
    assert "Expired deploy rule" in old  # kept, shown only when history is asked for


def test_2_control_characters_from_a_hand_edit_are_never_printed_raw(home: Path, project: Path, mem: Memory, tmp_path: Path) -> None:
    """Issue 12: text that reached a layer file by hand is shown as codes by recall and export;
    the JSON export still round-trips it exactly."""
    rid = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    state = read_layer(home, project)
    state["records"][rid]["summary"] = "deploy \x1b[2J\x1b]0;owned\x07 with \x9b31m make"
    layer_file(home, project).write_bytes(encode(with_checksum(state)))
    rc = run_cli(home, "recall", "--message", "how do I deploy to staging", "--project", str(project))
    assert rc.returncode == 0 and "owned" not in rc.stdout  # the card fails recall's second look (issue 13)
    md = run_cli(home, "export", "--project", str(project))
    out = tmp_path / "e.json"
    js = run_cli(home, "export", "--format", "json", "--out", str(out), "--project", str(project))
    for text in (rc.stdout, md.stdout, out.read_text()):
        assert not any(ch in text for ch in "\x1b\x07\x9b"), repr(text)
    assert js.returncode == 0
    exported = json.loads(out.read_text())["layers"]["project"][0]
    assert exported["summary"] == state["records"][rid]["summary"]


# ---------------------------------------------------------------- settings by hand and by command


def test_1_5_settings_can_be_edited_by_hand(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: adding `budgets` to settings.json by hand, as the README says, takes effect;
    doctor agrees; a wrong field is named with its valid values."""
    for i in range(4):
        mem.save(f"Deploy step {i}", f"deploy step number {i} of the release")
    path = home / "settings.json"
    data = json.loads(path.read_text())
    pid = next(iter(data["projects"]))
    data["projects"][pid]["budgets"] = {"searchEntries": 2}
    path.write_text(json.dumps(data, indent=2))
    r = mem("memory_search", {"query": "deploy step"})
    assert r["status"] == "ok" and len(r["results"]) == 2
    assert run_cli(home, "doctor").returncode == 0
    data["projects"][pid]["recallMode"] = "sometimes"
    path.write_text(json.dumps(data))
    r = mem("memory_search", {"query": "deploy step"})
    assert r["ok"] is False and "recallMode: must be one of adaptive, tool" in r["message"]
    doc = run_cli(home, "doctor")
    assert doc.returncode == 1 and "recallMode" in doc.stdout


def test_1_5_lingshu_settings_shows_and_sets_with_checked_values(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: `lingshu settings`, `set budgets.searchEntries 30`, `recallMode tool`, `taskDefaults.taskKind release`."""
    mem.save("Use tox", "tox -e py311")
    assert run_cli(home, "settings", "set", "budgets.searchEntries", "30", "--project", str(project)).returncode == 0
    assert run_cli(home, "settings", "set", "recallMode", "tool", "--project", str(project)).returncode == 0
    assert run_cli(home, "settings", "set", "taskDefaults.taskKind", "release", "--project", str(project)).returncode == 0
    shown = run_cli(home, "settings", "--project", str(project)).stdout
    assert "budgets.searchEntries 30\n" in shown and "recallMode tool" in shown and "taskDefaults.taskKind release" in shown
    assert "budgets.bodies 8 (default)" in shown
    for key, value, says in (("recallMode", "sometimes", "adaptive, tool"), ("budgets.searchEntries", "-3", "at least 1"),
                             ("budget.x", "3", "Settable:"), ("enabled", "maybe", "on or off")):
        r = run_cli(home, "settings", "set", key, value, "--project", str(project))
        assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr
    rc = run_cli(home, "recall", "--message", "how do I run tox", "--project", str(project))
    assert (rc.returncode, rc.stdout) == (0, "")  # tool mode: no automatic recall
    assert run_cli(home, "settings", "unset", "budgets.searchEntries", "--project", str(project)).returncode == 0
    assert "budgets.searchEntries 20 (default)" in run_cli(home, "settings", "--project", str(project)).stdout


def test_1_3_too_broad_roots_are_refused_and_a_project_can_be_forgotten(home: Path, project: Path, mem: Memory, tmp_path: Path) -> None:
    """Issue 12, SPEC §1.3: `/` and the home folder are not projects; `project forget` un-confirms
    a root and keeps its layer."""
    for root in ("/", str(Path.home())):
        r = run_cli(home, "project", "confirm", root)
        assert r.returncode == 1 and "too broad" in r.stderr
    mem.save("Use tox", "tox -e py311")
    layer = layer_file(home, project)
    r = run_cli(home, "project", "forget", str(project))
    assert r.returncode == 0 and "kept" in r.stdout
    assert layer.exists()
    answer = json.loads(run_cli(home, "call", "memory_save", '{"title": "x", "body": "y"}', cwd=project).stdout)
    assert answer["status"] == "needs_context" and answer["committed"] is False
    r = run_cli(home, "project", "forget", str(tmp_path / "never"))
    assert r.returncode == 1 and "not a confirmed project" in r.stderr


# ---------------------------------------------------------------- bad input, never a traceback


@pytest.mark.parametrize("stdin", [
    '{"prompt": "how do I deploy", "cwd": 5}',
    '{"prompt": "how do I deploy", "session_id": [1]}',
    '{"prompt": ["how do I deploy"]}',
    '{"prompt": "how do I deploy", "cwd": "/no/such/folder"}',
    '{"prompt":' * 5000,
    "[" * 100_000,
    '"just a string"',
    "\udcff not utf-8".encode("utf-8", "surrogateescape").decode("latin-1"),
    "",
])
def test_11_the_recall_hook_exits_0_on_any_stdin(home: Path, project: Path, mem: Memory, stdin: str) -> None:
    """Issue 12, SPEC §11: the hook never breaks the agent's turn: exit 0, no traceback."""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    r = run_cli(home, "recall", "--format", "claude-hook", "--project", str(project), stdin=stdin)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


def test_10_deep_json_surrogates_and_unprintable_ids_get_clear_answers(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12, SPEC §10: JSON nested 1,000 deep, a lone surrogate and an id full of escape
    codes are answered with a message; nothing is written, nothing is echoed raw."""
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    r = run_cli(home, "call", "memory_search", deep, "--project", str(project))
    assert r.returncode == 2 and "nested too deeply" in r.stderr and "Traceback" not in r.stderr
    s = mem("memory_save", {"title": "a\ud800b", "body": "text"})
    assert (s["status"], s["committed"]) == ("invalid", False) and "title" in s["message"]
    bad_id = "mem_\x1b]0;pwned\x07aaaaaaaaaaaa"
    for tool in ("memory_read", "memory_forget"):
        a = mem(tool, {"id": bad_id})
        assert a["status"] == "invalid" and a.get("id", "") == "" and "\x1b" not in json.dumps(a, ensure_ascii=False)
    assert not layer_file(home, project).exists()


# ---------------------------------------------------------------- purge means gone


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_6_4_purge_leaves_no_copy_anywhere_in_the_home(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12, SPEC §6.4: after purge (and a killed writer's leftovers, and an undo) the purged
    text is in no file of the home: not the layer, its previous generation, the successor's
    versions, the ledger or the hook's spool, the cold store, the index, or a temp file."""
    marker = "zebraquartz7731"
    a = mem.save("Deploy with the old script", f"run ./deploy-old.sh --token-file {marker}")["id"]
    mem("memory_save", {"id": a, "body": f"run ./deploy-old.sh --force {marker}"})
    assert mem("memory_read", {"id": a})["status"] == "ok"
    rc = run_cli(home, "recall", "--message", "how do I deploy with the old script", "--project", str(project))
    assert marker in rc.stdout  # the hook cited it (spooled, not yet folded)
    b = mem.save("Deploy with make", "make deploy", supersedes=a)["id"]
    c = mem.save("Staging database", f"staging db is reached through {marker} bastion")["id"]
    assert mem("memory_forget", {"id": c})["committed"] is True  # archived: the body is in the cold store
    layer_dir = layer_file(home, project).parent
    dead = _dead_pid()
    (layer_dir / f".state.json.{dead}.tmp").write_text(f'{{"half": "{marker}"')  # what a killed writer leaves
    (layer_dir / "cold" / f".{c}.json.{dead}.tmp").write_text(marker)
    for rid in (a, c):
        r = mem("memory_forget", {"id": rid, "action": "purge", "force": True})
        assert (r["status"], r["committed"]) == ("ok", True)
    revision = mem("memory_read", {"id": b})["revision"]
    undo = mem("memory_forget", {"id": b, "action": "undo", "revision": revision})
    assert undo["committed"] is False  # the only earlier version was the purged record's
    assert mem("memory_read", {"id": a})["status"] == "gone"
    leftovers = [p for p in home.rglob("*") if p.is_file() and marker.encode() in p.read_bytes()]
    assert leftovers == []
    assert mem("memory_read", {"id": b})["body"] == "make deploy"


def test_doctor_reports_and_removes_temp_files_of_killed_writers(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: doctor finds temp files whose writer is gone, says so and removes them; a live
    writer's temp file is left alone."""
    mem.save("Use tox", "tox -e py311")
    layer_dir = layer_file(home, project).parent
    dead = _dead_pid()
    orphans = [layer_dir / f".state.json.{dead}.tmp", home / f".ledger.json.{dead}.tmp", home / "spool" / "ledger" / f".x.json.{dead}.tmp"]
    for path in orphans:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half written")
    live = layer_dir / f".state.json.{os.getppid()}.tmp"
    live.write_text("in flight")
    doc = run_cli(home, "doctor")
    assert doc.returncode == 0 and "removed 3 temp file(s)" in doc.stdout
    assert not any(p.exists() for p in orphans) and live.exists()


# ---------------------------------------------------------------- the home is private and stays inside itself


def test_the_home_is_private(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12: every file Lingshu writes is 0600 and every folder 0700, on every path."""
    rid = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    mem.save("Use tox", "tox -e py311")
    mem("memory_forget", {"id": rid})
    run_cli(home, "recall", "--message", "how do I run tox", "--project", str(project))
    mem("memory_search", {"query": "tox"})
    modes = {str(p.relative_to(home)): p.stat().st_mode & 0o777 for p in home.rglob("*")}
    assert {k: oct(v) for k, v in modes.items() if (home / k).is_file() and v != 0o600} == {}
    assert {k: oct(v) for k, v in modes.items() if (home / k).is_dir() and v != 0o700} == {}
    assert any(k.startswith("projects/") and "cold" in k for k in modes)


@pytest.mark.parametrize("link", ["state.prev.json", ".lock", "cold", "state.json"])
def test_a_link_out_of_the_home_is_refused_never_followed(home: Path, project: Path, mem: Memory, tmp_path: Path, link: str) -> None:
    """Issue 12: a layer file or folder that is a symbolic link out of the home is refused with a
    message; nothing outside is read, created or changed."""
    mem.save("Use tox", "tox -e py311")
    mem.save("Lint with ruff", "ruff check .")
    layer_dir = layer_file(home, project).parent
    outside = tmp_path / "outside" / link
    outside.parent.mkdir()
    target = layer_dir / link
    if link == "cold":
        outside.mkdir()
        if target.exists():
            target.rmdir()
    elif link != ".lock":
        outside.write_bytes(target.read_bytes())
    if target.exists():
        target.unlink()
    target.symlink_to(outside)
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in outside.parent.rglob("*"))
    r = mem.save("A new note", "some text")
    assert (r["ok"], r["committed"]) == (False, False) and "symbolic link" in r["message"] and str(home) in r["message"]
    s = mem("memory_search", {"query": "tox"})
    if link == "state.json":  # the one file a search reads; it opens no lock, cold store or previous generation
        assert s["ok"] is False and "symbolic link" in s["message"]
    assert sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in outside.parent.rglob("*")) == before


def test_2_an_unusable_save_at_the_limit_archives_nothing(home: Path, project: Path, mem: Memory) -> None:
    """A save refused by the record check is refused before room is made: at the hard limit it
    archives no record (the answer says committed: false, and the layer is unchanged)."""
    from core.store import HARD_ACTIVE, transact
    from core.workspace import open_workspace

    ref = open_workspace(home, project).project_layer
    assert ref is not None

    def fill(state, tx):  # type: ignore[no-untyped-def]
        for i in range(HARD_ACTIVE):
            rid = f"mem_full{i:012d}"
            state["records"][rid] = {"id": rid, "title": f"note {i}", "body": "x", "status": "active", "revision": 1,
                                     "updated": "2026-01-01T00:00:00.000000Z"}

    transact(ref, fill)
    before = layer_file(home, project).read_bytes()
    for args in ({"title": "Blank body", "body": "   "}, {"title": "Needs a condition", "body": "x", "applicability": "conditional"}):
        r = mem("memory_save", args)
        assert (r["status"], r["committed"]) == ("invalid", False)
    old = next(iter(read_layer(home, project)["records"]))
    r = mem("memory_save", {"title": "Replacement", "body": "  ", "supersedes": old})
    assert (r["status"], r["committed"]) == ("invalid", False)
    assert layer_file(home, project).read_bytes() == before


def test_12_purging_the_middle_of_a_replacement_chain_closes_the_chain(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.6 with purge (found by the property test): in A → B → C, purging B leaves A replaced
    (now by C) and C replacing A; only one note of the topic slot is current."""
    a = mem("memory_save", {"title": "Deploy with fab", "body": "fab deploy", "topicKey": "deploy"})["id"]
    b = mem("memory_save", {"title": "Deploy with make", "body": "make deploy", "supersedes": a})["id"]
    c = mem("memory_save", {"title": "Deploy with just", "body": "just deploy", "supersedes": b})["id"]
    assert mem("memory_forget", {"id": b, "action": "purge", "force": True})["committed"]
    records = all_records(home, project)
    assert b not in records
    assert records[a]["supersededBy"] == c and records[c]["supersedes"] == a
    assert {link["target"] for link in records[a]["links"]} == {c} and a in {link["target"] for link in records[c]["links"]}
    current = [r for r in records.values() if r["status"] == "active" and not r.get("supersededBy")]
    assert [r["id"] for r in current] == [c]
    hits = mem("memory_search", {"query": "deploy"})["results"]
    assert [h["id"] for h in hits] == [c]


def test_12_purging_an_archived_replacement_gives_nothing_back_into_a_taken_slot(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.6 with purge (found by the property test in session 25): A is replaced by B, B is
    archived, C takes the topic slot, then B is purged. Giving A back would make two current records
    in one slot: A is archived instead (nothing lost, it can be restored once the slot is free) and the
    answer names it."""
    a = mem("memory_save", {"title": "Deploy with fab", "body": "fab deploy", "topicKey": "deploy"})["id"]
    b = mem("memory_save", {"title": "Deploy with make", "body": "make deploy", "supersedes": a})["id"]
    assert mem("memory_forget", {"id": b})["committed"]
    c = mem("memory_save", {"title": "Deploy with just", "body": "just deploy", "topicKey": "deploy"})["id"]
    r = mem("memory_forget", {"id": b, "action": "purge", "force": True})
    assert r["committed"] and r["archived"] == ["Deploy with fab"]
    records = all_records(home, project)
    assert b not in records and records[a]["status"] == "archived" and records[a]["archiveReason"] == "slot_taken"
    current = [r for r in records.values() if r["status"] == "active" and not r.get("supersededBy")]
    assert [r["id"] for r in current] == [c]
    restored = mem("memory_forget", {"id": a, "action": "restore"})
    assert restored["status"] == "conflict" and "held by" in restored["message"]
