"""One test (at least) per numbered rule of SPEC §4–§10, asserting the exact result fields.
Every tool answer is validated against core/protocol.py by the `mem` helper."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import pytest

from core import index
from core.contexts import open_turn
from core.durable import checksum_holds, encode, with_checksum
from core.eligibility import eligibility
from core.ledger import compact
from core.statuses import GATE_FAILURES
from core.ledger import citation_groups, latest_turn
from core.tools import NEEDS_TASK
from core.workspace import open_workspace
from tests.conftest import Memory, all_records, read_layer, run_cli

OS = platform.system().lower()
NOW = "2026-11-29T12:00:00.000000Z"


def rec(**kw):  # type: ignore[no-untyped-def]
    return {"id": "mem_aaaaaaaaaaaa", "title": "t", "body": "b", "status": "active", **kw}


# ---------------------------------------------------------------- §4 conditions and context


def test_4_1_only_registered_condition_keys(mem: Memory) -> None:
    """SPEC §4.1"""
    r = mem.save("Color rule", "blue", conditions=[{"key": "color", "value": "blue"}])
    assert (r["ok"], r["status"], r["committed"]) == (False, "invalid", False)
    assert "'color' is not a registered condition key" in r["message"]
    nine = [{"key": "phase", "value": str(i)} for i in range(9)]
    assert mem.save("Too many", "x", conditions=nine)["status"] == "invalid"


def test_4_2_context_holds_environment_and_task_defaults(home: Path, project: Path) -> None:
    """SPEC §4.2: task defaults fill only what the caller left out."""
    from core.contexts import build_context
    from core.settings import set_project_setting

    ws = open_workspace(home, project)
    set_project_setting(home, ws.project_id, "taskDefaults", {"taskKind": "release"})  # type: ignore[arg-type]
    ws = open_workspace(home, project)
    ctx = build_context(ws, task={"phase": "qa"})
    assert ctx["os"] == OS and ctx["projectRoot"] == str(project.resolve()) and ctx["taskKind"] == "release" and ctx["phase"] == "qa"
    assert build_context(ws, task={"taskKind": "hotfix"})["taskKind"] == "hotfix"


def test_4_3_three_valued_conditions(mem: Memory) -> None:
    """SPEC §4.3: ok when it matches, not_applicable when it clearly does not, needs_context when unknown."""
    ok = mem.save("Shell tip", "use set -euo pipefail", conditions=[{"key": "targetOs", "value": OS}])["id"]
    other = mem.save("Windows tip", "use pwsh", conditions=[{"key": "targetOs", "value": "windows" if OS != "windows" else "linux"}])["id"]
    unknown = mem.save("Runtime tip", "use uv", conditions=[{"key": "runtime", "value": "python3.12"}])["id"]
    assert mem("memory_read", {"id": ok})["status"] == "ok"
    r = mem("memory_read", {"id": other})
    assert (r["ok"], r["status"]) == (False, "not_applicable")
    r = mem("memory_read", {"id": unknown})
    assert (r["ok"], r["status"], r["message"]) == (False, "needs_context", NEEDS_TASK)
    # a record is not_applicable if any condition is, before needs_context
    both = mem.save("Mixed", "x", conditions=[{"key": "targetOs", "value": "plan9"}, {"key": "runtime", "value": "x"}])["id"]
    assert mem("memory_read", {"id": both})["status"] == "not_applicable"


def test_4_4_context_ids(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §4.4: unknown, expired or foreign context ids answer needs_context; without one the
    latest context of the project is used; continuation turns reuse the session's last context."""
    r = mem("memory_search", {"query": "x", "contextId": "ctx_nope"})
    assert (r["ok"], r["status"]) == (False, "needs_context") and "unknown" in r["message"]
    ws = open_workspace(home, project)
    rid = mem.save("Frontend rule", "use pnpm", conditions=[{"key": "pathPrefix", "value": "web"}])["id"]
    (project / "web").mkdir()
    assert mem("memory_read", {"id": rid})["status"] == "not_applicable"  # cwd is the root
    ctx = open_turn(ws, session_id="s1", cwd=str(project / "web"))
    assert mem("memory_read", {"id": rid})["status"] == "ok"  # the latest context of the project
    assert mem("memory_read", {"id": rid, "contextId": ctx["id"]})["status"] == "ok"
    compact(ws)  # the spooled turns into contexts.json, which this test then edits by hand
    assert json.loads((home / "contexts.json").read_text())["sessions"]["s1"] == ctx["id"]
    assert mem("memory_read", {"id": rid})["status"] == "ok"  # a continuation (no new message) still uses it
    other = tmp_other = project.parent / "other"
    tmp_other.mkdir()
    ws2 = open_workspace(home, other)
    foreign = open_turn(ws2, session_id="s2", cwd=str(other))
    r = mem("memory_search", {"query": "pnpm", "contextId": foreign["id"]})
    assert r["status"] == "needs_context" and "another project" in r["message"]
    compact(ws)
    data = json.loads((home / "contexts.json").read_text())
    for c in data["contexts"]:
        if c["id"] == ctx["id"]:
            c["created"] = "2020-01-01T00:00:00.000000Z"
    (home / "contexts.json").write_text(json.dumps(data))
    r = mem("memory_read", {"id": rid, "contextId": ctx["id"]})
    assert r["status"] == "needs_context" and "expired" in r["message"]


# ---------------------------------------------------------------- §5 the gate


@pytest.mark.parametrize(
    ("record", "purpose", "expected"),
    [
        (None, "search", "gone"),
        (rec(status="purged"), "panel", "gone"),
        (rec(status="archived"), "read", "gone"),
        (rec(status="archived"), "panel", "ok"),
        (rec(ownerProjectId="other"), "read", "gone"),
        (rec(ownerProjectId="other"), "panel", "gone"),
        (rec(origin="project_evolution"), "read", "not_applicable"),
        (rec(origin="project_evolution", learning={"state": "trial", "trialUntil": "2020-01-01"}), "read", "not_applicable"),
        (rec(reviewState="legacy_unreviewed"), "inject", "not_applicable"),
        (rec(reviewState="legacy_unreviewed"), "search", "ok"),
        (rec(applicability="unresolved"), "inject", "needs_context"),
        (rec(applicability="unresolved"), "search", "needs_context"),
        (rec(applicability="unresolved"), "read", "ok"),
        (rec(conditions=[{"key": "runtime", "value": "x"}]), "inject", "needs_context"),
        (rec(supersededBy="mem_bbbbbbbbbbbb"), "inject", "gone"),
        (rec(supersededBy="mem_bbbbbbbbbbbb"), "search", "gone"),
        (rec(supersededBy="mem_bbbbbbbbbbbb"), "read", "ok"),
        (rec(validUntil="2020-01-01T00:00:00Z"), "search", "gone"),
        (rec(), "inject", "ok"),
    ],
)
def test_5_gate_order_and_states(record, purpose, expected) -> None:  # type: ignore[no-untyped-def]
    """SPEC §5: one gate, in order; only gone / not_applicable / needs_context come out of steps 1–6."""
    ctx = {"projectId": "p1", "os": OS}
    gate = eligibility(record, ctx, purpose, NOW)
    assert gate.state == expected
    assert gate.ok or gate.state in GATE_FAILURES


def test_5_6_history_search_sees_replaced_records() -> None:
    """SPEC §5.6"""
    ctx = {"projectId": "p1"}
    assert eligibility(rec(supersededBy="mem_bbbbbbbbbbbb"), ctx, "search", NOW, history=True).state == "ok"


def test_5_evolution_record_usable_only_when_active_and_on() -> None:
    """SPEC §5.3"""
    active = rec(origin="project_evolution", learning={"state": "active"})
    assert eligibility(active, {"experimental": True}, "read", NOW).state == "ok"
    assert eligibility(active, {"experimental": False}, "read", NOW).state == "not_applicable"
    paused = rec(origin="project_evolution", learning={"state": "active", "paused": True})
    assert eligibility(paused, {"experimental": True}, "read", NOW).state == "not_applicable"


# ---------------------------------------------------------------- §6.1 search


def test_6_1_1_unregistered_task_kind_is_no_match(mem: Memory) -> None:
    """SPEC §6.1.1: no keyword guessing for a task kind nothing is registered under."""
    mem.save("Release checklist", "bump version, tag, push", conditions=[{"key": "taskKind", "value": "release"}])
    r = mem("memory_search", {"query": "release checklist", "taskKind": "migration"})
    assert (r["ok"], r["status"], r["results"], r["reasonCode"]) == (True, "ok", [], "no_match")
    assert "No memory is registered for taskKind 'migration'" in r["message"]
    r = mem("memory_search", {"query": "release checklist", "taskKind": "release"})
    assert [h["title"] for h in r["results"]] == ["Release checklist"]


def test_6_1_2_english_and_chinese(mem: Memory) -> None:
    """SPEC §6.1.2: English words and CJK text of two characters and more."""
    a = mem.save("部署流程", "先构建镜像，再推送到仓库，然后滚动更新。")["id"]
    b = mem.save("Run tests with tox", "tox -e py311")["id"]
    assert [h["id"] for h in mem("memory_search", {"query": "部署"})["results"]] == [a]
    assert [h["id"] for h in mem("memory_search", {"query": "推送"})["results"]] == [a]
    assert [h["id"] for h in mem("memory_search", {"query": "滚动更新的步骤"})["results"]] == [a]
    assert [h["id"] for h in mem("memory_search", {"query": "TESTS"})["results"]] == [b]


def test_6_1_2_title_weighs_more_and_order_is_deterministic(mem: Memory) -> None:
    """SPEC §6.1: title weight; ties broken the same way every time."""
    body_hit = mem.save("Linting", "we also run coverage in the nightly job")["id"]
    title_hit = mem.save("Coverage thresholds", "90 percent for core modules")["id"]
    r1 = mem("memory_search", {"query": "coverage"})
    assert [h["id"] for h in r1["results"]] == [title_hit, body_hit]
    assert r1["results"] == mem("memory_search", {"query": "coverage"})["results"]


def test_6_1_3_matches_but_none_usable_give_no_titles(mem: Memory) -> None:
    """SPEC §6.1.3 and §6.1.5: one sentence, no titles or ids, reasonCode only from the fixed three."""
    mem.save("Windows build", "use msbuild", conditions=[{"key": "targetOs", "value": "plan9"}])
    r = mem("memory_search", {"query": "msbuild"})
    assert (r["results"], r["reasonCode"]) == ([], "not_applicable")
    assert "Windows build" not in json.dumps(r) and "mem_" not in json.dumps(r)
    mem.save("Unsure rule", "use bazel maybe", applicability="unresolved")
    r = mem("memory_search", {"query": "bazel"})
    assert (r["results"], r["reasonCode"]) == ([], "applicability_unresolved")
    assert "Unsure rule" not in json.dumps(r)
    r = mem("memory_search", {"query": "kubernetes"})
    assert r["reasonCode"] == "no_match" and r["results"] == []
    r = mem("memory_search", {"query": "bazel OR msbuild"})  # one clearly not applicable wins over one unresolved
    assert (r["results"], r["reasonCode"]) == ([], "not_applicable")


def test_6_1_4_budget_cuts_whole_hits_then_exhausts(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.1.4, §6.5: a hooked turn has 20 entries; what fits is returned, then budget_exhausted."""
    for i in range(12):
        mem.save(f"Deploy step {i} zone{i}", f"deploy notes number {i} for zone{i}", resolution="distinct")
    open_turn(open_workspace(home, project), session_id="s", cwd=str(project))
    first = mem("memory_search", {"query": "deploy", "limit": 12})
    assert len(first["results"]) == 12 and first["status"] == "ok"
    second = mem("memory_search", {"query": "deploy", "limit": 12})
    assert len(second["results"]) == 8 and second["meta"]["cut"] == 4
    third = mem("memory_search", {"query": "deploy"})
    assert (third["ok"], third["status"], third["results"]) == (False, "budget_exhausted", [])
    assert third["message"] == "This turn's search budget is spent. Use what you already found; search again next turn."


def test_6_5_without_a_hook_each_call_is_its_own_turn(mem: Memory) -> None:
    """SPEC §6.5: an agent without the hook is never starved."""
    for i in range(3):
        mem.save(f"Deploy step {i} zone{i}", f"deploy notes {i} zone{i}", resolution="distinct")
    for _ in range(10):
        assert len(mem("memory_search", {"query": "deploy"})["results"]) == 3


def test_6_1_4_bytes_cut_before_count(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.1.4: bytes first: 16 KiB per turn."""
    for i in range(6):
        mem.save(f"Big note {i} zz{i}", "x", summary="摘要" * 245 + str(i), resolution="distinct")
    open_turn(open_workspace(home, project), session_id="s", cwd=str(project))
    total = 0
    for _ in range(40):
        r = mem("memory_search", {"query": "big note"})
        if r["status"] == "budget_exhausted":
            break
        total += sum(len(encode(h)) for h in r["results"])
        assert len(r["results"]) < 6 or total < 16 * 1024  # bytes, not the 20-entry count, cut it
    assert 16 * 1024 - 1600 < total <= 16 * 1024


def test_6_1_6_hit_fields_and_history(mem: Memory) -> None:
    """SPEC §6.1.6"""
    old = mem.save("Test command", "pytest -x", kind="method")["id"]
    new = mem.save("Test command (tox)", "tox -e py311", supersedes=old)["id"]
    hit = mem("memory_search", {"query": "test command"})["results"]
    assert [h["id"] for h in hit] == [new]
    assert set(hit[0]) == {"id", "title", "summary", "when", "layer", "kind", "updated", "score"}
    hist = {h["id"]: h for h in mem("memory_search", {"query": "test command", "history": True})["results"]}
    assert hist[old]["supersededBy"] == new and hist[new]["supersedes"] == old


# ---------------------------------------------------------------- §6.2 read


def test_6_2_1_ids(mem: Memory) -> None:
    """SPEC §6.2.1: malformed ids are a clear error, unknown ones `gone`, no path guessing."""
    r = mem("memory_read", {"id": "../../etc/passwd"})
    assert (r["ok"], r["status"]) == (False, "invalid") and "is not a memory id" in r["message"]
    r = mem("memory_read", {"id": "mem_000000000000"})
    assert (r["ok"], r["status"], r["id"]) == (False, "gone", "mem_000000000000")
    assert "Do not retry" in r["message"]


def test_6_2_2_read_returns_current_version_and_spends_bodies(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.2.2: current version only; bodies budget 8 per hooked turn."""
    rid = mem.save("Cache dir", "old")["id"]
    mem("memory_save", {"id": rid, "body": "new"})
    generation = read_layer(home, project)["generation"]
    r = mem("memory_read", {"id": rid})
    assert r["body"] == "new" and r["revision"] == 2 and "versions" not in r
    # SPEC §3.6: a read is counted in the bookkeeping and publishes no generation
    ref = open_workspace(home, project).project_layer
    assert index.read_counts(ref, rid)[1] == 1
    assert read_layer(home, project)["generation"] == generation
    open_turn(open_workspace(home, project), session_id="s", cwd=str(project))
    for _ in range(8):
        assert mem("memory_read", {"id": rid})["status"] == "ok"
    r = mem("memory_read", {"id": rid})
    assert (r["status"], r["id"]) == ("budget_exhausted", rid)


def test_6_2_4_links_only_to_usable_targets(mem: Memory) -> None:
    """SPEC §6.2.4: no dead links."""
    a = mem.save("Old deploy", "make deploy")["id"]
    b = mem.save("New deploy", "make release", supersedes=a)["id"]
    r = mem("memory_read", {"id": b, "view": "links"})
    assert [(l["rel"], l["target"]) for l in r["links"]] == [("supersedes", a)]
    mem("memory_forget", {"id": a})
    assert mem("memory_read", {"id": b, "view": "links"})["links"] == []


# ---------------------------------------------------------------- §6.3 save


def test_6_3_2_body_over_4096_bytes_is_an_error_not_a_cut(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.2"""
    r = mem.save("Big", "字" * 1366)  # 4098 bytes
    assert (r["ok"], r["status"], r["committed"]) == (False, "invalid", False)
    assert "4098 bytes; the limit is 4096" in r["message"] and "nothing was cut" in r["message"]
    assert mem.save("Fits", "字" * 1365)["committed"] is True


def test_6_3_3_partial_update_revision_and_versions(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.3: fields not given keep their value; the body is replaced; stale revision → conflict."""
    rid = mem.save("Lint", "ruff check .", summary="linting", when="before commit")["id"]
    r = mem("memory_save", {"id": rid, "body": "ruff check --fix .", "revision": 1})
    assert (r["committed"], r["revision"]) == (True, 2)
    stored = read_layer(home, project)["records"][rid]
    assert (stored["summary"], stored["when"], stored["body"]) == ("linting", "before commit", "ruff check --fix .")
    assert stored["versions"][0]["body"] == "ruff check ." and stored["versions"][0]["revision"] == 1
    r = mem("memory_save", {"id": rid, "body": "x", "revision": 1})
    assert (r["ok"], r["committed"], r["status"], r["gate"]) == (True, False, "conflict", "revision")
    assert read_layer(home, project)["records"][rid]["body"] == "ruff check --fix ."


def test_6_3_3_resaving_a_replaced_record_makes_it_current(mem: Memory) -> None:
    """SPEC §6.3.3"""
    old = mem.save("Port", "8000")["id"]
    new = mem.save("Port (new)", "9000", supersedes=old)["id"]
    assert mem("memory_save", {"id": old, "body": "8000 again"})["committed"] is True
    ids = {h["id"] for h in mem("memory_search", {"query": "port"})["results"]}
    assert ids == {old, new}


def test_6_3_4_duplicates_lookalikes_and_distinct(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.4: identical → dup_of; similar → needsResolution with explained candidates and a
    queued proposal; distinct saves anyway; same title with other conditions is another record."""
    rid = mem.save("Run tests with tox", "tox -e py311")["id"]
    dup = mem.save("Run tests with tox", "tox -e py311")
    assert (dup["committed"], dup["dup_of"], dup["id"]) == (False, rid, rid)
    near = mem.save("Run the tests with tox", "tox -e py312")
    assert (near["ok"], near["committed"], near["status"], near["needsResolution"], near["pendingConflicts"]) == (True, False, "needs_resolution", True, 1)
    (cand,) = near["candidates"]
    assert cand["id"] == rid and cand["reason"] == "similar_title" and cand["firstLine"] == "tox -e py311"
    assert set(cand) == {"id", "title", "updated", "when", "firstLine", "conditions", "reason"}
    distinct = mem.save("Run the tests with tox", "tox -e py312", resolution="distinct")
    assert distinct["committed"] is True and distinct["pendingConflicts"] == 0
    other = mem.save("Run tests with tox", "tox -e py311", conditions=[{"key": "targetOs", "value": OS}])
    assert other["committed"] is True and "needsResolution" not in other


def test_6_3_4_a_short_shared_body_makes_no_look_alike(mem: Memory) -> None:
    """SPEC §6.3.4: two notes on different things that both say only "See docs." are not alike (a
    boilerplate body of a few words says nothing of what a note is about); a longer body written
    twice under different titles still is."""
    mem.save("Variables in our Helm templates are named in camelCase", "See docs.")
    assert mem.save("Deploys go through Argo CD from the gitops repo", "See docs.")["committed"] is True
    rid = mem.save("Rotate the signing key", "Run make rotate-key on the vault host, then restart the api pods one by one.")["id"]
    near = mem.save("Key rotation steps", "Run make rotate-key on the vault host, then restart the api pods one by one.")
    assert near["status"] == "needs_resolution" and [c["id"] for c in near["candidates"]] == [rid]


def test_6_3_4_topic_slot(mem: Memory) -> None:
    """SPEC §6.3.4: a slot with a winner stops a new record; the candidate says same_topic_slot."""
    rid = mem.save("Test command", "tox", topicKey="test-cmd")["id"]
    r = mem.save("Run pytest", "pytest -x", topicKey="test-cmd")
    assert r["status"] == "needs_resolution" and r["candidates"][0] == {**r["candidates"][0], "id": rid, "reason": "same_topic_slot"}
    r = mem.save("Run pytest", "pytest -x", topicKey="test-cmd", resolution="distinct")
    assert (r["committed"], r["status"], r["gate"]) == (False, "conflict", "topic_slot")
    assert mem.save("Run pytest", "pytest -x", topicKey="test-cmd", supersedes=rid)["committed"] is True


def test_6_3_5_scope_routing(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.5: local paths, loopback and ports stay in the project unless a device condition says where."""
    r = mem.save("Dev server", "runs on localhost:8000", scope="global")
    assert (r["layer"], r["routedTo"]) == ("project", "project")
    r = mem.save("Dev box cache", "cache in ~/.cache/shop", scope="global", conditions=[{"key": "machine", "value": "devbox"}])
    assert r["layer"] == "global" and "routedTo" not in r
    assert mem.save("Style", "prefer f-strings", scope="global")["layer"] == "global"
    lone = Memory(home, None)
    r = lone.save("Dev server", "runs on 127.0.0.1:9000", scope="global")
    assert (r["status"], r["needsScope"], r["committed"]) == ("needs_context", True, False)


def test_6_3_6_supersede_chain(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.6: same layer only, not twice; the old body heads the new record's versions."""
    old = mem.save("Deploy", "make deploy")["id"]
    r = mem.save("Deploy v2", "make release", supersedes=old)
    assert (r["committed"], r["supersedes"]) == (True, old)
    records = read_layer(home, project)["records"]
    assert records[old]["supersededBy"] == r["id"] and records[old]["supersedeReason"] == "user_replaced"
    assert records[old]["validUntil"] == records[r["id"]]["created"]
    assert records[r["id"]]["versions"][0]["body"] == "make deploy"
    again = mem.save("Deploy v3", "make ship", supersedes=old)
    assert (again["committed"], again["status"]) == (False, "conflict")
    g = mem.save("Global style", "black", scope="global")["id"]
    cross = mem.save("Project style", "ruff format", supersedes=g, scope="project")
    assert (cross["committed"], cross["status"]) == (False, "conflict")
    assert mem("memory_read", {"id": old})["body"] == "make deploy"  # read by id still sees it


def test_6_3_7_hard_limit_archives_least_recently_read(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.5, §6.3.7: at 1000 active the least recently read is archived and named."""
    ws = open_workspace(home, project)
    ref = ws.project_layer
    ref.dir.mkdir(parents=True)  # type: ignore[union-attr]
    records = {}
    for i in range(1000):
        rid = f"mem_fill{i:08d}"
        records[rid] = {"id": rid, "title": f"Filler {i}", "body": "x", "status": "active", "revision": 1,
                        "created": "2026-01-01T00:00:00.000000Z", "lastRead": f"2026-02-{1 + i % 27:02d}T00:00:00.000000Z"}
    records["mem_fill00000000"]["lastRead"] = "2025-01-01T00:00:00.000000Z"
    ref.state_path.write_bytes(encode(with_checksum({"format": "lingshu-layer/1", "generation": 1, "records": records, "conflicts": [], "suggestions": []})))  # type: ignore[union-attr]
    r = mem.save("One more", "fresh")
    assert r["committed"] is True and r["archived"] == ["Filler 0"]
    assert "archived «Filler 0» to make room" in r["warnings"]
    assert any("soft limit of 200" in w for w in r["warnings"])
    # SPEC §3.5: the archived record leaves the layer file for the cold store
    assert "mem_fill00000000" not in read_layer(home, project)["records"]
    assert all_records(home, project)["mem_fill00000000"]["status"] == "archived"


# ---------------------------------------------------------------- §6.4 forget


def test_6_4_archive_restore_purge_undo(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.4"""
    rid = mem.save("Cache dir", ".cache/build")["id"]
    r = mem("memory_forget", {"id": rid})
    assert (r["action"], r["tombstone"], r["committed"]) == ("archive", False, True)
    assert mem("memory_search", {"query": "cache"})["results"] == []
    assert rid not in read_layer(home, project)["records"] and "body" not in all_records(home, project)[rid]
    r = mem("memory_forget", {"id": rid, "action": "restore"})
    assert (r["action"], r["forced"]) == ("restore", False)
    assert mem("memory_read", {"id": rid})["body"] == ".cache/build"
    up = mem("memory_save", {"id": rid, "body": ".cache/out"})
    bad = mem("memory_forget", {"id": rid, "action": "undo", "revision": up["revision"] - 1})
    assert (bad["committed"], bad["status"]) == (False, "conflict")
    undo = mem("memory_forget", {"id": rid, "action": "undo", "revision": up["revision"]})
    assert undo["committed"] is True and mem("memory_read", {"id": rid})["body"] == ".cache/build"
    refused = mem("memory_forget", {"id": rid, "action": "purge"})
    assert (refused["committed"], refused["status"], refused["gate"]) == (False, "conflict", "purge")
    r = mem("memory_forget", {"id": rid, "action": "purge", "force": True})
    assert (r["tombstone"], r["committed"]) == (True, True)
    assert rid not in all_records(home, project)  # purge means gone: no record, no cold file
    assert mem("memory_read", {"id": rid})["status"] == "gone"
    assert mem("memory_forget", {"id": rid, "action": "restore"})["status"] == "gone"


# ---------------------------------------------------------------- §6.6 suggest, route, §1.5 review mode


def test_6_6_suggest_waits_for_a_person(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.6, §13.4"""
    r = mem("memory_suggest", {"title": "Cache dir", "body": ".cache/build"})
    assert (r["ok"], r["committed"], r["status"], r["moved_to"], r["id"]) == (True, False, "pending_review", "suggestions", "")
    layer = read_layer(home, project)
    assert layer["records"] == {} and [s["title"] for s in layer["suggestions"]] == ["Cache dir"]
    assert mem("memory_suggest", {"title": "k", "body": "password = hunter2x9"})["status"] == "unsafe"


def test_6_6_route_names_knowledge_and_executes_nothing(mem: Memory) -> None:
    """SPEC §6.6"""
    rid = mem.save("Release process", "tag then push")["id"]
    r = mem("memory_route", {"intent": "I want to remember how the release process works"})
    assert r["knowledge"][0]["id"] == rid and r["suggested_capabilities"][0] == "memory_save"


def test_1_5_review_mode_holds_agent_writes(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §1.5: the agent's new records become suggestions; updates of kept records still land."""
    kept = mem.save("Lint", "ruff")["id"]
    assert run_cli(home, "review", "on", "--project", str(project)).returncode == 0
    r = mem.save("Format", "ruff format")
    assert (r["committed"], r["status"], r["moved_to"]) == (False, "pending_review", "suggestions")
    assert "review mode" in r["message"]
    assert mem("memory_save", {"id": kept, "body": "ruff check"})["committed"] is True
    assert mem("memory_save", {"title": "Format", "body": "ruff format"}, actor="user")["committed"] is True
    assert run_cli(home, "review", "off", "--project", str(project)).returncode == 0
    assert mem.save("Types", "mypy --strict")["committed"] is True


# ---------------------------------------------------------------- §8 conflicts queue


def test_8_conflicts_queue(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §8: the proposal itself, deduplicated, ≤ 20, under the checksum; leaves on distinct or id save."""
    rid = mem.save("Run tests with tox", "tox -e py311")["id"]
    mem.save("Run the tests with tox", "tox -e py312")
    mem.save("Run the tests with tox", "tox -e py312")  # same proposal: once
    layer = read_layer(home, project)
    assert checksum_holds(layer)
    (item,) = layer["conflicts"]
    assert item["proposal"] == {"title": "Run the tests with tox", "body": "tox -e py312"}
    assert item["layer"] == "project" and item["candidates"][0]["id"] == rid and item["candidates"][0]["reason"] == "similar_title"
    assert mem("memory_save", {"id": rid, "body": "tox -e py312"})["pendingConflicts"] == 0
    for i in range(25):
        mem.save(f"Run tests with tox variant{i}", "tox -e py311")
    assert len(read_layer(home, project)["conflicts"]) == 20
    r = mem.save("Run tests with tox variant24", "tox -e py311", resolution="distinct")
    assert r["pendingConflicts"] == 19


# ---------------------------------------------------------------- §9 citations


def test_9_citations_per_turn(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §9: hits, read, updated; one entry per record, earliest position, latest content."""
    ws = open_workspace(home, project)
    a = mem.save("Cache dir", ".cache/build")["id"]
    b = mem.save("Cache policy", "clean weekly")["id"]
    open_turn(ws, session_id="s", cwd=str(project))
    mem("memory_search", {"query": "cache"})
    mem("memory_read", {"id": a})
    mem("memory_save", {"id": b, "title": "Cache policy (weekly)"})
    mem("memory_search", {"query": "cache"})
    groups = citation_groups(latest_turn(ws))
    assert sorted(c["id"] for c in groups["hits"]) == sorted([a, b])
    assert [c["id"] for c in groups["read"]] == [a] and [c["id"] for c in groups["updated"]] == [b]
    hit_b = next(c for c in groups["hits"] if c["id"] == b)
    assert hit_b["title"] == "Cache policy (weekly)"  # latest content
    assert hit_b["position"] < groups["read"][0]["position"]  # earliest position
    assert {"title", "layer", "updated", "scope"} <= set(hit_b)


# ---------------------------------------------------------------- §10 statuses and messages


def test_10_every_failure_has_a_message_with_a_next_step(mem: Memory) -> None:
    """SPEC §10: what happened and the next step."""
    answers = [
        mem("memory_read", {"id": "mem_000000000000"}),
        mem("memory_search", {"query": "x", "contextId": "ctx_0"}),
        mem.save("A", "B" * 5000),
        mem("memory_forget", {"id": "mem_000000000000"}),
    ]
    for a in answers:
        assert a["status"] != "ok" and a["message"] and len(a["message"]) > 30


def test_6_3_3_resaving_a_replaced_record_keeps_one_slot_winner(mem: Memory) -> None:
    """SPEC §6.3.3, §6.3.4: making a replaced record current again may not give its slot two winners."""
    old = mem.save("Test command", "pytest", topicKey="test-cmd")["id"]
    mem.save("Test command (tox)", "tox", supersedes=old)
    r = mem("memory_save", {"id": old, "body": "pytest -x"})
    assert (r["committed"], r["status"], r["gate"]) == (False, "conflict", "topic_slot")


def test_6_4_restore_keeps_one_slot_winner(mem: Memory) -> None:
    """SPEC §6.3.4, §6.4: found by the property test — restoring an archived winner whose slot was
    taken meanwhile would give the slot two winners; it is refused instead."""
    first = mem.save("Deploy command", "make deploy", topicKey="deploy")["id"]
    mem("memory_forget", {"id": first})
    assert mem.save("Deploy with helm", "helm upgrade", topicKey="deploy")["committed"] is True
    r = mem("memory_forget", {"id": first, "action": "restore"})
    assert (r["committed"], r["status"], r["gate"]) == (False, "conflict", "topic_slot")


def test_10_one_failure_one_message_per_turn(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §10: never the same line twice in one turn; a new turn says it in full again."""
    rid = mem.save("Runtime tip", "use uv", conditions=[{"key": "runtime", "value": "python3.12"}])["id"]
    ws = open_workspace(home, project)
    open_turn(ws, session_id="s", cwd=str(project))
    first = mem("memory_read", {"id": rid})
    second = mem("memory_read", {"id": rid})
    assert first["status"] == second["status"] == "needs_context"
    assert first["message"] == NEEDS_TASK
    assert second["message"] != first["message"] and "earlier in this turn" in second["message"]
    open_turn(ws, session_id="s", cwd=str(project))
    assert mem("memory_read", {"id": rid})["message"] == first["message"]


def test_6_3_7_every_save_result_carries_pending_conflicts(mem: Memory) -> None:
    """SPEC §6.3.7: refusals included."""
    mem.save("Run tests with tox", "tox -e py311")
    mem.save("Run the tests with tox", "tox -e py312")
    for r in (mem.save("Key", "token=ab12cd34ef56gh78ij90"), mem.save("Big", "x" * 5000), mem.save("Fine", "ok"),
              mem("memory_save", {"id": "mem_000000000000", "body": "x"})):
        assert r["pendingConflicts"] == 1, r


def test_6_5_budgets_are_configurable_per_project(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.5: bodies read at most 8 per turn (configurable)."""
    from core.settings import set_project_setting

    rid = mem.save("Cache dir", ".cache/build")["id"]
    ws = open_workspace(home, project)
    set_project_setting(home, ws.project_id, "budgets", {"bodies": 2})  # type: ignore[arg-type]
    open_turn(open_workspace(home, project), session_id="s", cwd=str(project))
    assert [mem("memory_read", {"id": rid})["status"] for _ in range(3)] == ["ok", "ok", "budget_exhausted"]


def test_6_3_3_null_clears_summary_but_never_the_title(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.3: given fields replace; a null title or body is not a way to blank a record."""
    rid = mem.save("Lint", "ruff check .", summary="linting")["id"]
    mem("memory_save", {"id": rid, "title": None, "body": None, "summary": None})
    stored = read_layer(home, project)["records"][rid]
    assert (stored["title"], stored["body"], stored["summary"]) == ("Lint", "ruff check .", "")


def test_14_a_task_conditioned_note_can_be_read_by_naming_the_task(mem: Memory) -> None:
    """Issue 14: memory_read takes the task fields search takes, so a note limited to a task kind,
    series or phase can be read; without them it answers needs_context and says what to pass."""
    rid = mem.save("Release checklist", "freeze merges, tag, announce", conditions=[{"key": "taskKind", "value": "release"}])["id"]
    phased = mem.save("Canary phase", "watch error rates for 30 minutes", conditions=[{"key": "phase", "value": "canary"}])["id"]
    r = mem("memory_read", {"id": rid})
    assert r["status"] == "needs_context" and "taskKind" in r["message"]
    assert mem("memory_read", {"id": rid, "taskKind": "release"})["body"] == "freeze merges, tag, announce"
    assert mem("memory_read", {"id": rid, "taskKind": "hotfix"})["status"] == "not_applicable"
    assert mem("memory_read", {"id": phased, "phase": "canary"})["status"] == "ok"


def test_9_the_persons_own_changes_are_not_cited(home: Path, project: Path, mem: Memory) -> None:
    """Issue 11, SPEC §9: "updated this turn" lists what the agent did; the person's saves,
    archives and restores from the panel (actor user) are not the agent's citations."""
    ws = open_workspace(home, project)
    open_turn(ws, session_id="s", cwd=str(project))
    agent = mem.save("Agent note", "written by the agent")["id"]
    person = mem("memory_save", {"title": "Person note", "body": "written by the person"}, actor="user")["id"]
    mem("memory_forget", {"id": agent}, actor="user")
    mem("memory_forget", {"id": agent, "action": "restore"}, actor="user")
    updated = [c["id"] for c in citation_groups(latest_turn(ws))["updated"]]
    assert agent in updated and person not in updated
    assert len([c for c in citation_groups(latest_turn(ws))["updated"] if c["id"] == agent]) == 1


def test_14_a_search_that_names_its_task_hands_back_a_context_for_the_reads(mem: Memory) -> None:
    """Issue 14: search with taskKind returns meta.contextId; a read passing it sees the task."""
    rid = mem.save("Release checklist", "freeze merges, tag, announce", conditions=[{"key": "taskKind", "value": "release"}])["id"]
    found = mem("memory_search", {"query": "release checklist", "taskKind": "release"})
    assert [h["id"] for h in found["results"]] == [rid]
    ctx = found["meta"]["contextId"]
    assert mem("memory_read", {"id": rid})["status"] == "needs_context"
    assert mem("memory_read", {"id": rid, "contextId": ctx})["body"] == "freeze merges, tag, announce"


def test_6_3_4_lookalikes_are_found_among_many_similar_notes(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §6.3.4: in a layer of 400 notes written from the same few words, a new note that
    differs from one of them by a word is still found as its look-alike (the index is asked for
    the text's rarest words, not all of them)."""
    import random

    from core.workspace import open_workspace
    from lingshu_tui.bench_scale import fill

    ws = open_workspace(home, project)
    fill(ws.project_layer, 400, seed=3)
    layer = read_layer(home, project)["records"]
    rng = random.Random(5)
    for rec in rng.sample(sorted(layer.values(), key=lambda r: r["title"]), 8):
        words = rec["body"].split()
        # Not the number that tells the note from its siblings: without it, every sibling's body is
        # as near as the note's own, and which two of them a save shows is a tie.
        words[rng.choice([i for i, w in enumerate(words) if not w.isdigit()])] = "zebra"
        out = mem("memory_save", {"title": rec["title"] + " v2", "body": " ".join(words)})
        assert out["status"] == "needs_resolution" and rec["id"] in [c["id"] for c in out["candidates"]], (rec["title"], out)
