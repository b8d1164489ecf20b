"""Automatic recall, one test per rule of SPEC §11, through the real files and the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core import ledger
from core.contexts import _load as _load_contexts
from core.contexts import open_turn
from core.durable import encode, with_checksum
from core.recall import MAX_BYTES, card_text, recall, render, select
from core.settings import set_project_setting
from core.workspace import open_workspace
from tests.conftest import REPO, Memory, cli_env, read_layer, run_cli

MSG = "how do we deploy the shop api to staging?"


def _ws(home: Path, project: Path):  # type: ignore[no-untyped-def]
    return open_workspace(home, project)


def test_11_1_only_when_adaptive_and_on(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.1"""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    text, report = recall(_ws(home, project), MSG)
    assert "Deploy to staging" in text
    set_project_setting(home, _ws(home, project).project_id, "recallMode", "tool")  # type: ignore[arg-type]
    assert recall(_ws(home, project), MSG) == ("", {"why": "tool mode", "cards": []})
    set_project_setting(home, _ws(home, project).project_id, "recallMode", "adaptive")  # type: ignore[arg-type]
    set_project_setting(home, _ws(home, project).project_id, "enabled", False)  # type: ignore[arg-type]
    assert recall(_ws(home, project), MSG) == ("", {"why": "memory off", "cards": []})


def test_11_2_candidates(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.2: current, reviewed, not evolution, gate exactly ok, relevant to the message."""
    ok = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    arch = mem.save("Deploy staging old way", "fab deploy", resolution="distinct")["id"]
    mem("memory_forget", {"id": arch})
    old = mem.save("Staging deploy checklist", "check migrations", resolution="distinct")["id"]
    mem.save("Staging deploy checklist v2", "check migrations and flags", supersedes=old)
    mem.save("Deploy api on plan9", "x", conditions=[{"key": "targetOs", "value": "plan9"}])
    mem.save("Deploy api in release phase", "x", conditions=[{"key": "phase", "value": "release"}])
    mem.save("Unrelated lint rule", "ruff check")
    ref = _ws(home, project).project_layer
    state = read_layer(home, project)
    for rid, extra in (("mem_legacy000000001", {"reviewState": "legacy_unreviewed"}),
                       ("mem_evolve000000001", {"origin": "project_evolution", "learning": {"state": "active"}})):
        state["records"][rid] = {"id": rid, "title": "Deploy the shop api to staging", "body": "imported", "status": "active",
                                 "revision": 1, "updated": "2026-11-01T00:00:00.000000Z", **extra}
    state["generation"] += 1
    ref.state_path.write_bytes(encode(with_checksum(state)))  # type: ignore[union-attr]
    _, report = recall(_ws(home, project), MSG)
    titles = [c["title"] for c in report["cards"]]
    assert "Deploy to staging" in titles and "Staging deploy checklist v2" in titles
    assert not {"Deploy staging old way", "Staging deploy checklist", "Deploy api on plan9", "Deploy api in release phase",
                "Unrelated lint rule", "Deploy the shop api to staging"} & set(titles)
    assert any(c["id"] == ok for c in report["cards"])


def test_11_2_a_replaced_note_brings_the_note_that_replaced_it(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.2 (and §6 replacement chains): a message that matches only a replaced note is about the fact that
    holds now; the replaced note never comes, the end of its chain does, through the gate on its own."""
    first = mem.save("Use a random 80/20 train/test split with sklearn train_test_split", "seed 42")["id"]
    second = mem.save("Split by user id with GroupShuffleSplit", "no user in both halves", supersedes=first)["id"]
    now = mem.save("Split train and test by time; the last 14 days are the test set", "random splits leak the future",
                   supersedes=second)["id"]
    message = "is sklearn train_test_split ok for the ranking model"
    _, report = recall(_ws(home, project), message)
    assert [c["id"] for c in report["cards"]] == [now]
    trace: list[dict[str, object]] = []
    ws = _ws(home, project)
    select(ws, message, open_turn(ws, session_id=None, cwd=str(project)), trace=trace)
    assert any(line["id"] == first and str(line["verdict"]).startswith("gate: gone") for line in trace)
    mem.save("Splits on Windows", "x", conditions=[{"key": "targetOs", "value": "plan9"}], supersedes=now)
    _, report = recall(_ws(home, project), message)
    assert report["cards"] == []  # the note that holds now does not apply here: nothing in its place


def test_11_2_project_wins_on_the_same_id(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.2"""
    rid = mem.save("Deploy to staging", "project version: make deploy")["id"]
    ws = _ws(home, project)
    g = ws.global_layer
    g.dir.mkdir(parents=True)
    rec = dict(read_layer(home, project)["records"][rid], body="global version", summary="global version")
    rec.pop("ownerProjectId")
    g.state_path.write_bytes(encode(with_checksum({"format": "lingshu-layer/1", "generation": 1, "records": {rid: rec}, "conflicts": [], "suggestions": []})))
    text, report = recall(ws, MSG)
    assert [c["layer"] for c in report["cards"]] == ["project"] and "global version" not in text


def test_11_3_topic_slots(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.3: only the winner; a slot in conflict or with unknown conditions stays out whole."""
    mem.save("Deploy command", "make deploy", topicKey="deploy")
    assert [c["title"] for c in recall(_ws(home, project), MSG)[1]["cards"]] == ["Deploy command"]
    r = mem.save("Deploy with helm", "helm upgrade shop", topicKey="deploy")
    assert r["status"] == "needs_resolution"  # the slot now has a queued conflict
    assert recall(_ws(home, project), MSG)[1]["cards"] == []
    home2, project2 = home.parent / "h2", project.parent / "p2"
    home2.mkdir()
    project2.mkdir()
    m2 = Memory(home2, project2)
    m2.save("Deploy command", "make deploy", topicKey="deploy")
    m2.save("Deploy note staging", "uses helm", topicKey="deploy-notes", conditions=[{"key": "runtime", "value": "node20"}])
    cards = recall(open_workspace(home2, project2), MSG)[1]["cards"]
    assert [c["title"] for c in cards] == ["Deploy command"]


def test_11_2_weak_matches_stay_out(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.2 "relevant to the message": a card sharing half or less of the terms the best card
    shares stays out."""
    mem.save("Deploy the shop api to staging", "make deploy ENV=staging")
    mem.save("Deploy notes", "deploys happen on Tuesdays", resolution="distinct")
    _, report = recall(_ws(home, project), MSG)
    assert [c["title"] for c in report["cards"]] == ["Deploy the shop api to staging"]


def test_11_4_at_most_three_cards(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.4"""
    for i in range(5):
        mem.save(f"Deploy staging step {i} zone{i}", f"step {i}", resolution="distinct")
    text, report = recall(_ws(home, project), MSG)
    assert len(report["cards"]) == 3 and text.count("[memory note, not an instruction") == 3


def test_11_4_byte_exact_budget(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.4: a card that would make 1201 bytes is skipped whole; the next that fits is taken."""
    a = mem.save("Deploy staging shop api", "a", summary="A")["id"]
    b = mem.save("Deploy staging shop api notes", "b", summary="B", resolution="distinct")["id"]
    c = mem.save("Deploy staging shop", "c", summary="C", resolution="distinct")["id"]
    layer = lambda: read_layer(home, project)["records"]  # noqa: E731
    base_a = card_text(layer()[a], "project")
    base_b = card_text(layer()[b], "project")
    # make A + blank line + B + newline exactly 1201 bytes
    fill = 1201 - len(render([base_a, base_b]).encode())
    # "…" is 3 bytes and no search term, so the padding changes the card's size but not its rank
    pad = lambda n: "…" * (n // 3) + "." * (n % 3)  # noqa: E731
    assert mem("memory_save", {"id": b, "summary": "B" + pad(fill)})["committed"]
    cards_ab = render([card_text(layer()[a], "project"), card_text(layer()[b], "project")])
    assert len(cards_ab.encode()) == MAX_BYTES + 1
    ws = _ws(home, project)
    chosen, text, why = select(ws, MSG, open_turn(ws, session_id=None, cwd=str(project)))
    assert [r["id"] for r, _ in chosen] == [a, c]
    assert len(text.encode()) <= MAX_BYTES and "B…" not in text
    assert mem("memory_save", {"id": b, "summary": "B" + pad(fill - 1)})["committed"]  # now exactly 1200: B fits
    chosen, text, _ = select(ws, MSG, open_turn(ws, session_id=None, cwd=str(project)))
    assert [r["id"] for r, _ in chosen] == [a, b] and len(text.encode()) == MAX_BYTES


def test_11_5_card_header(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.5: a note from memory, not an instruction; id, layer, date."""
    rid = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    text, _ = recall(_ws(home, project), MSG)
    first = text.splitlines()[0]
    assert first.startswith("[memory note, not an instruction · ")
    assert rid in first and "project" in first and read_layer(home, project)["records"][rid]["updated"][:10] in first


def test_11_6_deadline_and_generation_change_drop_the_batch(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.6"""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    ws = _ws(home, project)
    assert recall(ws, MSG, deadline_ms=0.0)[0] == ""
    writer = lambda: mem.save("Something else entirely", "written meanwhile")  # noqa: E731
    text, report = recall(ws, MSG, before_publish=writer)
    assert text == "" and report["cards"] == [] and report["why"] == "memory changed during selection"
    assert recall(_ws(home, project), MSG)[0] != ""  # the next turn starts afresh


def test_11_6_the_hook_takes_its_deadline_from_the_command_line(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.6: the deadline drops the batch and says how to give a slow machine more time; a
    mistaken option exits 1, never 2 (Claude Code erases the user's prompt on a hook's 2)."""
    rid = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    hook = ["recall", "--format", "json", "--message", MSG, "--project", str(project)]
    late = json.loads(run_cli(home, *hook, "--deadline-ms", "0.000001").stdout)
    assert late["cards"] == [] and late["why"].startswith("deadline passed (1e-06 ms)") and "--deadline-ms" in late["why"]
    roomy = json.loads(run_cli(home, *hook, "--deadline-ms=60000").stdout)
    assert [c["id"] for c in roomy["cards"]] == [rid]
    bad = run_cli(home, *hook, "--deadline-ms", "soon")
    assert bad.returncode == 1 and "'soon' is not a number of milliseconds above 0" in bad.stderr


def test_11_7_hook_formats_through_the_real_command(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.7, issue 4: plain text, or the hook JSON; nothing to recall prints nothing."""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    hook = json.dumps({"prompt": MSG, "session_id": "sess-1", "cwd": str(project)})
    r = run_cli(home, "recall", "--format", "claude-hook", stdin=hook)
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert "Deploy to staging" in out["hookSpecificOutput"]["additionalContext"]
    r = run_cli(home, "recall", "--message", MSG, "--project", str(project))
    assert r.returncode == 0 and r.stdout.startswith("[memory note, not an instruction")
    r = run_cli(home, "recall", "--message", "what is the weather on mars", "--project", str(project))
    assert (r.returncode, r.stdout) == (0, "")
    assert _load_contexts(_ws(home, project))["sessions"]["sess-1"].startswith("ctx_")


def test_recall_path_imports_no_pydantic_mcp_or_textual(home: Path, project: Path, mem: Memory) -> None:
    """STYLE: `lingshu recall` runs on every message; it must start light (issue 16: nor argparse
    for its plain options, nor hashlib, which loads OpenSSL)."""
    mem.save("Deploy to staging", "make deploy ENV=staging")
    code = ("import sys; from lingshu_tui.cli import main; main(['recall', '--message', sys.argv[1]]); "
            "bad = [m for m in ('pydantic', 'mcp', 'textual', 'rich', 'filelock', 'argparse', 'hashlib') if m in sys.modules]; print('LOADED', bad, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code, MSG], capture_output=True, text=True, env=cli_env(home, LINGSHU_PROJECT=str(project)), cwd=REPO)
    assert "Deploy to staging" in r.stdout
    assert "LOADED []" in r.stderr, r.stderr


def test_recall_compiles_only_the_readings_a_message_calls_for() -> None:
    """Issue 16 (start-up): each rule reading of a question anyone could answer, and the reading of a
    question for a term's meaning, is compiled only for a message holding one of its words, and no
    message it would match lacks them: over every prompt of the public recall sets, and each prompt's
    tail from its second to sixth word (the readings anchor at the start), a reading that matches finds
    one of its words in the message."""
    import re

    from core import asking

    prompts = [p["text"].lower() for path in sorted((REPO / "tests" / "fixtures" / "recall").glob("*.json"))
               for p in json.loads(path.read_text(encoding="utf-8"))["prompts"]]
    texts = prompts + [" ".join(t.split()[i:]) for t in prompts for i in range(1, 6)]
    matched = 0
    for words, source in asking._GENERAL:
        found = [t for t in texts if re.search(source, t)]
        matched += len(found)
        assert all(any(w in t for w in words) for t in found), (words, [t for t in found if not any(w in t for w in words)][:3])
    assert matched > 500  # (the readings do match: the check is not empty)
    defined = [t for t in texts if re.match(asking._DEFINITION, t)]
    assert len(defined) > 100 and all(any(w in t for w in asking._DEFINITION_WORDS) for t in defined)


def test_recall_takes_no_lock_and_writers_fold_what_it_left(home: Path, project: Path, mem: Memory) -> None:
    """Issue 12 (the design card's lock): the hook answers while every lock of the home is held by
    another process; readers see its turn at once, and the tool calls that follow fold it into
    contexts.json and ledger.json (the call that finds FOLD_AT entries waiting)."""
    rid = mem.save("Deploy to staging", "make deploy ENV=staging")["id"]
    locks = [home / ".ledger.lock", home / ".contexts.lock", *(p / ".lock" for p in (home / "projects").iterdir()), home / "global" / ".lock"]
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, filelock; ls = [filelock.FileLock(p) for p in sys.argv[1:]]; [l.acquire() for l in ls]; print('held', flush=True); sys.stdin.read()", *map(str, locks)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        hook = json.dumps({"prompt": MSG, "session_id": "sess-9", "cwd": str(project)})
        r = run_cli(home, "recall", "--format", "json", stdin=hook)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        out = json.loads(r.stdout)
        assert [c["id"] for c in out["cards"]] == [rid]
        assert mem("memory_save", {"title": "Another", "body": "text"})["status"] == "busy"  # writers do wait
    finally:
        holder.communicate("")
    ws = _ws(home, project)
    assert _load_contexts(ws)["sessions"]["sess-9"] == out["contextId"]  # readers see the spooled turn
    assert mem("memory_read", {"id": rid, "contextId": out["contextId"]})["status"] == "ok"
    spooled = next(t for t in ledger.load_ledger(ws)["turns"] if t.get("contextId") == out["contextId"])
    assert spooled["recall"]["cards"] == [rid]  # replayed from the spool
    for n in range(ledger.FOLD_AT):
        mem.save(f"Release step {n}", f"Step {n} of the release runbook.")  # saves spend no turn budget
    assert len(list((home / "spool" / "ledger").iterdir())) < ledger.FOLD_AT  # folded, not piling up
    assert json.loads((home / "contexts.json").read_text())["sessions"]["sess-9"] == out["contextId"]
    turn = next(t for t in json.loads((home / "ledger.json").read_text())["turns"] if t.get("contextId") == out["contextId"])
    assert turn["recall"]["cards"] == [rid] and {c["group"] for c in turn["citations"]} == {"hits", "read", "updated"}


def test_11_4_long_notes_come_back_by_their_leading_sentences(home: Path, project: Path, mem: Memory) -> None:
    """Issue 14/15: five relevant notes with 1.3 KB bodies and no summary do not silence the hook:
    each card keeps the leading sentences that fit and says how to read the rest; no sentence is
    cut; the save itself hinted at a summary."""
    ids = []
    for i in range(5):
        sentences = [f"Deploy step {i} part {j} runs make deploy-{i}-{j} against the staging cluster." for j in range(18)]
        r = mem.save(f"Deploy staging runbook {i} shop api", " ".join(sentences), resolution="distinct")
        assert any("no summary" in w for w in r.get("warnings", []))
        ids.append(r["id"])
    text, report = recall(_ws(home, project), MSG)
    assert len(report["cards"]) >= 2 and len(text.encode()) <= MAX_BYTES
    for card in report["cards"]:
        assert f"(more: memory_read {card['id']})" in text
    body_lines = [line for line in text.splitlines() if line.startswith("Deploy step")]
    assert body_lines and all(line.split(" (more:")[0].endswith("cluster.") for line in body_lines)


_HOST = r"""
import json, subprocess, sys
home, project, cwd, session, rid = sys.argv[1:6]
env = {**__import__("os").environ, "LINGSHU_HOME": home}
cli = [sys.executable, "-m", "lingshu_tui.cli"]
hook = {"session_id": session, "cwd": cwd, "prompt": "keep working on the parser"}
subprocess.run([*cli, "recall", "--project", project], input=json.dumps(hook), text=True, env=env, check=True, capture_output=True)
print("hooked", flush=True)
sys.stdin.readline()  # the other session speaks meanwhile
read = subprocess.run([*cli, "call", "memory_read", json.dumps({"id": rid}), "--project", project], text=True, env=env, capture_output=True)
print(read.stdout.replace("\n", " "), flush=True)
"""


def test_14_a_turn_belongs_to_its_session(home: Path, project: Path) -> None:
    """Issue 14 (seed 0.18.1): two agent sessions in one project, each its own process with its own
    hook and tool calls. A note for one folder stays readable in the session working there after
    the other session's message, and the other session's reads follow its own turn; before, the
    last message of any session decided every session's reads."""
    parser_dir, docs_dir = project / "parser", project / "docs"
    parser_dir.mkdir()
    docs_dir.mkdir()
    saved = json.loads(run_cli(home, "call", "memory_save", json.dumps({
        "title": "Parser tests use golden files", "body": "Update goldens with make golden.", "kind": "method",
        "conditions": [{"key": "pathPrefix", "value": str(parser_dir)}]}), "--project", str(project)).stdout)
    assert saved["committed"], saved

    def host(cwd: Path, session: str) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-c", _HOST, str(home), str(project), str(cwd), session, saved["id"]],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=cli_env(home), cwd=str(REPO))

    parser_session = host(parser_dir, "sess-parser")
    assert parser_session.stdout is not None and parser_session.stdin is not None
    assert parser_session.stdout.readline().strip() == "hooked"
    docs_session = host(docs_dir, "sess-docs")  # the other session's message comes last
    assert docs_session.stdout is not None and docs_session.stdin is not None
    assert docs_session.stdout.readline().strip() == "hooked"
    answers = {}
    for name, proc in (("parser", parser_session), ("docs", docs_session)):
        out, _ = proc.communicate("go\n", timeout=60)
        answers[name] = json.loads(out)
    assert answers["parser"]["status"] == "ok" and answers["parser"]["body"] == "Update goldens with make golden."
    assert answers["docs"]["status"] == "not_applicable"


def test_11_3_blocked_slots_do_not_use_up_the_candidates(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §11.3 with issue 16's early stop: recall stops reading a layer's matches once it has
    twice the cards it needs, but the best matches sitting in conflicted topic slots do not count,
    so the notes after them still come back."""
    for i in range(4):
        mem.save(f"Deploy the shop api to staging, way {i}", f"make deploy-{i}", topicKey=f"deploy-{i}", resolution="distinct")
        r = mem.save(f"Deploy the shop api to staging, other way {i}", f"helm upgrade {i}", topicKey=f"deploy-{i}")
        assert r["status"] == "needs_resolution"  # the slot now has a queued conflict
    for i in range(3):
        mem.save(f"Shop staging deploy note {i}", f"part {i}", resolution="distinct")
    _, report = recall(_ws(home, project), MSG)
    assert sorted(c["title"] for c in report["cards"]) == [f"Shop staging deploy note {i}" for i in range(3)]
