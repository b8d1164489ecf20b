"""The panel through Textual's pilot: every action, asserting the screen and the store (SPEC §13)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time

import pytest

from core.views import snapshot
from core.tools import dispatch
from lingshu_tui.app import LingshuApp
from lingshu_tui.screenshots import ready
from lingshu_tui.screens.detail import DetailScreen
from lingshu_tui.screens.lists import ArchiveScreen, ConflictsScreen, SuggestionsScreen
from lingshu_tui.widgets.palace import Palace
from tests.conftest import REPO, all_records, cli_env
from tests.tui.conftest import notices


def rows(app: LingshuApp) -> list[str]:
    return [str(o.prompt) for o in app.query_one(Palace).options]


def screen_text(app: LingshuApp) -> str:
    return app.export_screenshot()


def rec_by_title(demo, title: str) -> dict:  # type: ignore[no-untyped-def]
    ws = demo.ws()
    for ref in ws.layers():
        for r in all_records(demo.home, demo.project if ref.kind == "project" else None).values():
            if r.get("title") == title:
                return {**r, "layer": ref.kind}
    raise KeyError(title)


async def select_title(pilot, title: str) -> None:  # type: ignore[no-untyped-def]
    palace = pilot.app.query_one(Palace)
    for i, opt in enumerate(palace.options):
        if title in str(opt.prompt):
            palace.highlighted = i
            await pilot.pause()
            return
    raise AssertionError(f"{title} not on screen")


async def open_room(pilot, room: str) -> Palace:  # type: ignore[no-untyped-def]
    palace = pilot.app.query_one(Palace)
    palace.toggle(room)
    await pilot.pause()
    return palace


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def test_13_1_palace_rooms_order_counts_and_one_open(demo, size) -> None:  # type: ignore[no-untyped-def]
    """SPEC §13.1: four fixed rooms in order, counts, the first non-empty open, one open at a time."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        heads = [r for r in rows(app) if r.startswith(("▸", "▾"))]
        assert [h.split()[1] for h in heads] == ["Habits", "Methods", "Materials", "Other"]
        assert heads[0].startswith("▾") and all(h.startswith("▸") for h in heads[1:])
        snap = snapshot(demo.ws())
        assert f"{len(snap.rooms['convention']):>4}" in heads[0]
        app.query_one(Palace).toggle("method")
        await pilot.pause()
        heads = [r for r in rows(app) if r.startswith(("▸", "▾"))]
        assert heads[1].startswith("▾") and heads[0].startswith("▸")
        app.query_one(Palace).toggle("method")
        await pilot.pause()
        assert all(r.startswith("▸") for r in rows(app))


async def test_13_1_empty_rooms_stay_in_place(tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    home, project = tmp_path / "h", tmp_path / "p"
    home.mkdir()
    project.mkdir()
    dispatch("memory_save", {"title": "Only a method", "body": "x", "kind": "method"}, home=home, project=project)
    app = LingshuApp(home, project, watch=False)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        heads = rows(app)
        assert len(heads) == 5 and heads[1].startswith("▾ Methods")
        assert "(empty)" in heads[0] and "(empty)" in heads[3] and "(empty)" in heads[4]


async def test_13_1_paging_24_a_page_newest_first(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await open_room(pilot, "method")
        methods = snapshot(demo.ws()).rooms["method"]
        assert len(methods) > 24
        shown = [r for r in rows(app) if r.startswith("    ")]
        assert len(shown) == 24 and methods[0].title in shown[0]
        await pilot.press("]")
        shown = [r for r in rows(app) if r.startswith("    ")]
        assert len(shown) == len(methods) - 24 and "page 2/2" in rows(app)[1]
        await pilot.press("[")
        assert "page 1/2" in rows(app)[1]


async def test_13_1_detail(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await open_room(pilot, "method")
        await select_title(pilot, "Deploy with make release")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        text = screen_text(app)
        for part in ("Deploy&#160;with&#160;make&#160;release", "Replacement&#160;chain", "Deploy&#160;with&#160;fab", "Revisions", "Conditions"):
            assert part in text, part
        await pilot.press("escape")
        assert not isinstance(app.screen, DetailScreen)


async def test_13_5_archive_and_restore(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await select_title(pilot, "Commit messages say why")
        await pilot.press("a")
        await settle(pilot)
        assert rec_by_title(demo, "Commit messages say why")["status"] == "archived"
        assert not any("Commit messages say why" in r for r in rows(app))
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, ArchiveScreen)
        lst = app.screen.query_one("#rows")
        idx = next(i for i, o in enumerate(lst.options) if "Commit messages" in str(o.prompt))
        lst.highlighted = idx
        await pilot.press("r")
        await settle(pilot)
        assert rec_by_title(demo, "Commit messages say why")["status"] == "active"
        await pilot.press("escape")
        assert any("Commit messages say why" in r for r in rows(app))


async def test_13_5_undo_move_remove(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.3: `u` takes back the person's last action in this panel, naming it first, and
    never a change made elsewhere (the demo's agent edited «Format with ruff»: u leaves it alone)."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        before = rec_by_title(demo, "Format with ruff")
        assert before["versions"]  # the demo changed it once
        await select_title(pilot, "Format with ruff")
        await pilot.press("u")
        await settle(pilot)
        assert rec_by_title(demo, "Format with ruff") == before  # nothing of the person's to undo
        assert any("Nothing to undo" in m for m in notices(app))
        await select_title(pilot, "Never commit secrets")
        assert rec_by_title(demo, "Never commit secrets")["layer"] == "global"
        await pilot.press("m")
        await settle(pilot)
        assert rec_by_title(demo, "Never commit secrets")["layer"] == "project"
        await pilot.press("u")  # takes back the move, and says so first
        await settle(pilot)
        assert rec_by_title(demo, "Never commit secrets")["layer"] == "global"
        assert any("Undo: move «Never commit secrets»" in m for m in notices(app))
        await select_title(pilot, "Never commit secrets")
        await pilot.press("a")
        await settle(pilot)
        assert rec_by_title(demo, "Never commit secrets")["status"] == "archived"
        await pilot.press("u")
        await settle(pilot)
        assert rec_by_title(demo, "Never commit secrets")["status"] == "active"
        await select_title(pilot, "Never commit secrets")
        await pilot.press("m")
        await settle(pilot)
        assert rec_by_title(demo, "Never commit secrets")["layer"] == "project"
        await select_title(pilot, "Type hints everywhere")
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("n")  # cancel: nothing happens
        await settle(pilot)
        assert rec_by_title(demo, "Type hints everywhere")["status"] == "active"
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter")  # Enter lands on Cancel: a destructive question defaults to no
        await settle(pilot)
        assert rec_by_title(demo, "Type hints everywhere")["status"] == "active"
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        try:
            rec_by_title(demo, "Type hints everywhere")
            raise AssertionError("still there")
        except KeyError:
            pass
        assert not any("Type hints everywhere" in r for r in rows(app))


async def test_13_5_move_refused_for_local_details(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    dispatch("memory_save", {"title": "Dev server port", "body": "runs on localhost:8000", "kind": "convention"}, home=demo.home, project=demo.project)
    async with app.run_test(size=size) as pilot:
        await select_title(pilot, "Dev server port")
        await pilot.press("m")
        await settle(pilot)
        assert rec_by_title(demo, "Dev server port")["layer"] == "project"


async def test_13_4_keep_and_ignore_suggestions(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SuggestionsScreen)
        first = str(app.screen.query_one("#rows").options[0].prompt).split("  ")[0]
        await pilot.press("k")
        await settle(pilot)
        assert rec_by_title(demo, first)["status"] == "active"
        labels = [str(o.prompt) for o in app.screen.query_one("#rows").options]
        assert f"{first}  memory · kept" in labels
        other = next(label for label in labels if "memory · kept" not in label).split("  ")[0]
        await pilot.press("i")
        await settle(pilot)
        assert snapshot(demo.ws()).suggestions == []
        try:
            rec_by_title(demo, other)
            raise AssertionError("an ignored suggestion was written")
        except KeyError:
            pass


async def test_13_3_conflicts_decisions(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConflictsScreen)
        text = screen_text(app)
        assert "Proposal" in text and "Candidate&#160;1" in text
        first = app.screen.current()["title"]
        await pilot.press("n")  # save as new
        await settle(pilot)
        assert rec_by_title(demo, first)["status"] == "active"
        assert len(snapshot(demo.ws()).conflicts) == 1
        second = app.screen.current()
        target = second["candidates"][0]["id"]
        await pilot.press("1")  # replace candidate 1
        await settle(pilot)
        ws = demo.ws()
        stored = json.loads(ws.project_layer.state_path.read_text())["records"][target]
        assert stored["title"] == second["proposal"]["title"] and stored["body"] == second["proposal"]["body"]
        assert snapshot(demo.ws()).conflicts == []
    dispatch("memory_save", {"title": "Run tests with tox now", "body": "tox"}, home=demo.home, project=demo.project)
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c", "d")
        await settle(pilot)
        assert snapshot(demo.ws()).conflicts == []


async def test_13_6_memory_off_refuses_every_action(demo, size) -> None:  # type: ignore[no-untyped-def]
    """SPEC §13.6: browsable, every action disabled, a banner that says how to switch it on."""
    app = demo.app(memory_on=False)
    before = demo.layer_bytes()
    async with app.run_test(size=size) as pilot:
        banner = str(app.query_one("#banner").render())
        assert banner.startswith("Memory is off") and "Press o" in banner
        await select_title(pilot, "Commit messages say why")
        for keys in (["a"], ["m"], ["u"], ["x", "y"], ["v"], ["c", "n", "escape"], ["c", "1", "escape"], ["c", "d", "escape"],
                     ["s", "k", "escape"], ["s", "i", "escape"], ["h", "r", "escape"]):
            await pilot.press(*keys)
            await settle(pilot)
        assert demo.layer_bytes() == before
        await pilot.press("enter")  # browsing still works
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        await pilot.press("escape", "o")
        await settle(pilot)
        assert demo.ws().memory_on
        assert not app.query_one("#banner").display


async def test_13_8_chinese_labels(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app(lang="zh", memory_on=False)
    async with app.run_test(size=size) as pilot:
        text = screen_text(app)
        for label in ("习惯与规范", "方法与经验", "资料与入口", "其他记录", "记忆宫殿", "本轮", "冲突", "建议", "记忆已关闭", "开启记忆"):
            assert label in text, label
        assert str(app.query_one("#banner").render()).startswith("记忆已关闭")
        await pilot.press("h")
        await pilot.pause()
        assert "归档" in screen_text(app) and "恢复" in screen_text(app)


async def test_13_8_no_record_id_on_any_screen(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        tree = app.query_one("#citations")
        for node in tree.root.children:
            node.expand()
            for child in node.children:
                child.expand()
        await pilot.pause()
        seen = [screen_text(app)]
        for keys in (["down", "enter"], ["escape", "c"], ["escape", "s"], ["escape", "h"], ["escape", "e"], ["question_mark"]):
            await pilot.press(*keys)
            await pilot.pause()
            seen.append(screen_text(app))
        assert all("mem_" not in s for s in seen)
        assert len({len(s) for s in seen}) > 3  # really different screens


async def test_13_2_citations_fold_and_open_in_place(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        tree = app.query_one("#citations")
        groups = [str(n.label) for n in tree.root.children]
        assert [g.split()[0] for g in groups] == ["Hits", "Read", "Updated"]
        assert all(not n.is_expanded for n in tree.root.children)
        read = tree.root.children[1]
        read.expand()
        read.children[0].expand()
        await pilot.pause()
        excerpt = str(read.children[0].children[0].label)
        assert "tox" in excerpt
        read.children[0].collapse()
        await pilot.pause()
        assert not read.children[0].is_expanded


async def test_13_7_live_refresh_from_another_process(demo, size) -> None:  # type: ignore[no-untyped-def]
    """SPEC §13.7: another process writes through `lingshu call`; the title shows within 1 s; the open
    room and the selection stay."""
    app = demo.app(watch=True)
    app.watch = True
    async with app.run_test(size=size) as pilot:
        app.watch_store()
        await asyncio.sleep(0.3)
        await select_title(pilot, "Commit messages say why")
        payload = json.dumps({"title": "Live from another process", "body": "written by lingshu call", "kind": "convention"})
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "lingshu_tui.cli", "call", "memory_save", payload,
                                                    "--project", str(demo.project), env=cli_env(demo.home), cwd=str(REPO))
        assert await proc.wait() == 0
        written = time.monotonic()
        while time.monotonic() - written < 1.0 and not any("Live from another process" in r for r in rows(app)):
            await asyncio.sleep(0.02)
        assert any("Live from another process" in r for r in rows(app)), "not shown within 1 s"
        palace = app.query_one(Palace)
        assert palace.open_room == "convention"
        assert "Commit messages say why" in str(palace.highlighted_option.prompt)


async def test_13_7_a_burst_of_100_writes_does_not_freeze(demo, size) -> None:  # type: ignore[no-untyped-def]
    app = demo.app()
    app.watch = True
    code = ("import sys; from core.tools import dispatch\n"
            "for i in range(100): dispatch('memory_save', {'title': f'Burst note {i} b{i}x', 'body': 'x', 'kind': 'note', 'resolution': 'distinct'}, home=sys.argv[1], project=sys.argv[2])")
    async with app.run_test(size=size) as pilot:
        app.watch_store()
        await asyncio.sleep(0.3)
        proc = subprocess.Popen([sys.executable, "-c", code, str(demo.home), str(demo.project)], cwd=REPO)
        # A frozen UI is a blocked event loop: keys pressed during the burst must be handled during it
        # (behaviour, not a time threshold: a busy 2-core machine is slow, not frozen).
        palace = app.query_one(Palace)
        handled_during_burst = 0
        while proc.poll() is None:
            before = palace.highlighted
            await pilot.press("down" if (before or 0) < 3 else "up")
            if palace.highlighted != before and proc.poll() is None:
                handled_during_burst += 1
        assert proc.wait() == 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(r.startswith("▸ Other records") and "105" in r for r in rows(app)):
            await asyncio.sleep(0.05)
        assert any(r.startswith("▸ Other records") and "105" in r for r in rows(app)), rows(app)[:6]
        assert handled_during_burst > 0
        await pilot.press("]")  # and it still answers keys
        assert "page 1/1" in rows(app)[0]


async def test_unreviewed_mark_and_mark_reviewed(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 7: imported records carry a visible 'unreviewed' mark; v marks one, V a whole room."""
    app = demo.app()
    for i in range(3):
        dispatch("memory_save", {"title": f"Imported rule {i} q{i}", "body": f"rule {i}", "kind": "convention", "resolution": "distinct"},
                 home=demo.home, project=demo.project, actor="import")
    async with app.run_test(size=size) as pilot:
        marked = [r for r in rows(app) if "unreviewed" in r]
        assert len(marked) == 3
        await select_title(pilot, "Imported rule 0")
        await pilot.press("v")
        await settle(pilot)
        assert rec_by_title(demo, "Imported rule 0 q0")["reviewState"] == "reviewed"
        assert len([r for r in rows(app) if "unreviewed" in r]) == 2
        await pilot.press("V")
        await settle(pilot)
        assert not [r for r in rows(app) if "unreviewed" in r]
        assert all(rec_by_title(demo, f"Imported rule {i} q{i}")["reviewState"] == "reviewed" for i in range(3))


async def test_13_a_burst_of_binding_changes_rebuilds_the_footer_once_and_keeps_its_keys(demo, size) -> None:  # type: ignore[no-untyped-def]
    """SPEC §13: the footer names the keys the screen offers; five changes announced together
    (as opening the panel does) rebuild it once, with the same keys."""
    from lingshu_tui.widgets.footer import Footer

    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        keys = [k.description for k in footer.query("FooterKey")]
        assert keys
        rebuilt = []
        recompose = footer.recompose

        async def counting() -> None:
            rebuilt.append(1)
            await recompose()

        footer.recompose = counting  # type: ignore[method-assign]
        for _ in range(5):
            app.screen.refresh_bindings()
        await settle(pilot)
        assert len(rebuilt) == 1
        assert [k.description for k in footer.query("FooterKey")] == keys


def test_every_binding_has_help_text() -> None:
    """STYLE 12: every binding has a description for the footer and a tooltip for the palette."""
    from lingshu_tui.screens.confirm import Confirm
    from lingshu_tui.screens.detail import DetailScreen
    from lingshu_tui.screens.lists import ArchiveScreen, ConflictsScreen, SuggestionsScreen
    from lingshu_tui.screens.main import MainScreen
    from lingshu_tui.i18n import EN, ZH

    for cls in (MainScreen, DetailScreen, ArchiveScreen, SuggestionsScreen, ConflictsScreen, Confirm):
        for binding in cls.__dict__["BINDINGS"]:
            assert binding.description in EN and binding.description in ZH, (cls.__name__, binding.key)
            assert binding.tooltip, (cls.__name__, binding.key)


async def test_13_confirm_the_current_folder_from_the_panel(tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    """SPEC §1.3: the panel is one of the explicit acts that confirm a project root."""
    home, folder = tmp_path / "h", tmp_path / "my-repo"
    home.mkdir()
    folder.mkdir()
    app = LingshuApp(home, None, watch=False)
    app.ws.cwd = str(folder)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        assert "no project" in str(app.main.query_one("#where").render())
        await pilot.press("p")  # issue 11: p asks first; "no" leaves the folder unconfirmed
        await pilot.pause()
        assert "Confirm" in str(app.screen.query_one("#question").render()) and str(folder) in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        await settle(pilot)
        assert app.ws.project_id is None
        await pilot.press("p", "y")
        await settle(pilot)
        assert app.ws.project_id and app.ws.project_id.startswith("my-repo-")
        assert "my-repo + global" in str(app.main.query_one("#where").render())
        assert app.check_action("confirm_project", ()) is False


async def test_the_panel_shows_recovery_quarantine_and_trimmed_history(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 12: a layer restored from its previous generation and a record set aside for not
    fitting the record model stand in the banner; a record's detail says how many versions were trimmed."""
    from core.durable import encode, with_checksum

    app = demo.app()
    ws = demo.ws()
    ref = ws.project_layer
    rid = rec_by_title(demo, "Commit messages say why")["id"]
    for i in range(12):
        dispatch("memory_save", {"id": rid, "body": f"Commit messages say why, version {i}. " + "x" * 1500}, home=demo.home, project=demo.project)
    state = json.loads(ws.global_layer.state_path.read_bytes())
    state["records"]["mem_handedit00003"] = {"id": "mem_handedit00003", "title": "Bad", "body": "x", "conditions": "linux"}
    ws.global_layer.state_path.write_bytes(encode(with_checksum(state)))
    ref.state_path.write_bytes(b"{damaged")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        banner = str(app.query_one("#banner").render())
        assert "was restored from state.prev.json" in banner and "lingshu doctor --ack" in banner
        assert "1 record(s) of the global layer do not fit the record model" in banner
        assert app.query_one("#banner").display
        await select_title(pilot, "Commit messages say why")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        assert "older version(s) trimmed" in str(app.screen.query_one("#detail").render())


async def test_10_a_broken_layer_never_crashes_the_panel_and_is_said_once(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.5: both files of the project layer unreadable: the panel stays up, the global
    layer stays browsable, the problem stands once in the banner (not a toast per refresh)."""
    app = demo.app()
    ref = demo.ws().project_layer
    ref.state_path.write_bytes(b"garbage one")
    ref.prev_path.write_bytes(b"garbage two")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for _ in range(3):
            app._reload_soon()
            await settle(pilot)
        banner = str(app.query_one("#banner").render())
        assert banner.count("unreadable") == 1 and "lingshu doctor" in banner
        assert not [m for m in notices(app) if "unreadable" in m]
        assert any("Never commit secrets" in r for r in rows(app))  # the global layer's notes are still shown


async def test_10_question_mark_toggles_the_help_and_escape_closes_it(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.6: `?` opens the key help, `?` again or Esc closes it."""
    from textual.widgets import HelpPanel

    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query(HelpPanel)
        await pilot.press("question_mark")
        await pilot.pause()
        assert not app.screen.query(HelpPanel)
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not app.screen.query(HelpPanel)


def test_10_the_watcher_ignores_other_projects(demo) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.8: another project's writes do not refresh this panel; this project's, the global
    layer's and the turn bookkeeping's do."""
    app = demo.app()
    ws = demo.ws()
    home = str(demo.home)
    assert app.watched(None, str(ws.project_layer.state_path))
    assert app.watched(None, str(ws.global_layer.state_path))
    assert app.watched(None, f"{home}/ledger.json") and app.watched(None, f"{home}/spool/ledger/0001-ab.json")
    assert not app.watched(None, f"{home}/projects/someone-else-0123456789/state.json")
    assert not app.watched(None, str(ws.project_layer.dir / ".state.json.123.tmp"))


def _selected_id(app) -> str | None:  # type: ignore[no-untyped-def]
    opt = app.query_one(Palace).highlighted_option
    return opt.id if opt is not None else None


async def test_10_the_selection_follows_its_record_while_the_agent_writes(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.1: on page 2 of an open room, new records arriving do not move the selection to
    the first header: the selected record stays selected (its page follows it); archiving it
    hands the selection to its neighbour."""
    for i in range(30):
        dispatch("memory_save", {"title": f"Older note {i} q{i}z", "body": f"note {i}", "kind": "note", "resolution": "distinct"},
                 home=demo.home, project=demo.project)
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        palace = await open_room(pilot, "note")
        await pilot.press("]")
        await pilot.pause()
        index = next(i for i, o in enumerate(palace.options) if o.id and o.id.startswith("rec:"))
        palace.highlighted = index + 3
        await pilot.pause()
        chosen = _selected_id(app)
        assert chosen and chosen.startswith("rec:")
        for i in range(6):  # newer notes push the selected one down the room
            dispatch("memory_save", {"title": f"Fresh note {i} w{i}y", "body": "new", "kind": "note", "resolution": "distinct"},
                     home=demo.home, project=demo.project)
        app._reload_soon()
        await settle(pilot)
        assert _selected_id(app) == chosen
        before = [o.id for o in palace.options]
        place = before.index(chosen)
        neighbour = before[place + 1]
        dispatch("memory_forget", {"id": chosen[4:]}, home=demo.home, project=demo.project)
        app._reload_soon()
        await settle(pilot)
        assert _selected_id(app) == neighbour


async def test_10_conflicts_are_tracked_by_key_and_never_decided_unseen(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.2: a conflict queued while the person reads another keeps the cursor on the one
    being read; when the item under the cursor changed since it was drawn, a decision key refuses
    with a notice and redraws instead of acting on what nobody saw."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c", "right")
        await pilot.pause()
        assert isinstance(app.screen, ConflictsScreen)
        reading = app.screen.key_of(app.screen.current())
        # the agent queues a look-alike of a note: a new conflict arrives first in the queue
        dispatch("memory_save", {"title": "Use pytest fixtures for setup", "body": "fixtures in conftest"}, home=demo.home, project=demo.project)
        dispatch("memory_save", {"title": "Use pytest fixtures for setup!", "body": "fixtures in conftest.py"}, home=demo.home, project=demo.project)
        app._reload_soon()
        await settle(pilot)
        assert app.screen.key_of(app.screen.current()) == reading
        before = snapshot(demo.ws()).conflicts
        # the item under the cursor is decided elsewhere (another panel, the agent): it vanishes
        from core import actions

        actions.decide_conflict(demo.ws(), reading[0], reading[1], "discard")
        app._reload_soon()
        await settle(pilot)
        now_shown = app.screen.key_of(app.screen.current())
        await pilot.press("d")  # the person had not seen the proposal that moved under the cursor
        await settle(pilot)
        after = snapshot(demo.ws()).conflicts
        assert len(after) == len(before) - 1  # only the decision made elsewhere; "d" acted on nothing
        assert now_shown in [app.screen.key_of(c) for c in after]
        assert any("changed since you saw it" in m for m in notices(app))
        await pilot.press("d")  # now it has been shown: the key acts
        await settle(pilot)
        assert len(snapshot(demo.ws()).conflicts) == len(after) - 1


async def test_10_enter_and_clicks_work_in_the_archive_and_suggestions(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.4: Enter on an archived record opens it; Enter on a suggestion keeps it."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("s")
        await pilot.pause()
        first = str(app.screen.query_one("#rows").options[0].prompt).split("  ")[0]
        await pilot.press("enter")
        await settle(pilot)
        assert rec_by_title(demo, first)["status"] == "active"
        await pilot.press("escape", "h")
        await pilot.pause()
        assert isinstance(app.screen, ArchiveScreen)
        assert app.screen.selected_key().startswith("rec:")  # the demo holds archived records
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)


async def test_10_memory_off_every_refused_key_says_so(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.7: with memory off a refused key answers with one short notice, never silence."""
    app = demo.app(memory_on=False)
    async with app.run_test(size=size) as pilot:
        await select_title(pilot, "Commit messages say why")
        for key in ("a", "m", "u"):
            await pilot.press(key)
            await settle(pilot)
        said = [m for m in notices(app) if "Memory is off" in m]
        assert len(said) == 3  # one answer per refused key


@pytest.mark.parametrize("width,height", [(80, 24), (200, 50)])
async def test_10_rows_fit_the_terminal(demo, width: int, height: int) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.9: no palace row wraps at 80×24, and at 200 columns titles use the room they have."""
    app = demo.app()
    async with app.run_test(size=(width, height)) as pilot:
        await settle(pilot)
        palace = app.query_one(Palace)
        room_width = palace.content_size.width
        for opt in palace.options:
            assert opt.prompt.cell_len <= room_width, (opt.prompt.plain, room_width)
        if width == 200:
            assert any(opt.prompt.cell_len > 60 for opt in palace.options if opt.id and opt.id.startswith("rec:"))


async def test_11_the_filter_narrows_every_room_and_letters_type_text(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: `/` opens a filter line that narrows every room as you type (title, body,
    conditions; English and Chinese) with match counts; keys in it type text and trigger no action;
    Esc clears it."""
    app = demo.app()
    before = demo.layer_bytes()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*"ruff")  # "u" would be undo and "r" restore outside the filter line
        await pilot.pause()
        assert any("Format with ruff" in r for r in rows(app))
        assert not any("Never commit secrets" in r for r in rows(app))
        assert any("/" in r for r in rows(app) if r.startswith(("▸", "▾")))  # "matches/total" per room
        assert any("(no match)" in r for r in rows(app) if r.startswith(("▸", "▾")))  # a filtered-out room is not "empty"
        assert demo.layer_bytes() == before  # no key acted on the store
        await pilot.press("escape")
        await pilot.pause()
        assert any("Never commit secrets" in r for r in rows(app))
        await pilot.press("slash", *"日志")
        await pilot.pause()
        assert any("日志里不写个人信息" in r for r in rows(app))


async def test_11_the_archive_says_who_archived_and_when(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: each archived record shows why it was archived (by you, by the agent, to make
    room, or because what replaced it was purged while a new note held its topic slot) and when,
    with its room."""
    app = demo.app()
    rid = rec_by_title(demo, "Type hints everywhere")["id"]
    dispatch("memory_forget", {"id": rid}, home=demo.home, project=demo.project)  # the agent archives it
    at = {"home": demo.home, "project": demo.project}
    first = dispatch("memory_save", {"title": "Release with a script", "body": "scripts/release.sh", "topicKey": "how-to-release"}, **at)["id"]
    second = dispatch("memory_save", {"title": "Release with a tag", "body": "tag vX.Y.Z", "supersedes": first}, **at)["id"]
    dispatch("memory_forget", {"id": second}, **at)
    dispatch("memory_save", {"title": "Release from the workflow", "body": "run the release workflow", "topicKey": "how-to-release"}, **at)
    assert dispatch("memory_forget", {"id": second, "action": "purge", "force": True}, **at)["archived"] == ["Release with a script"]
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await select_title(pilot, "Format with ruff")
        await pilot.press("a")  # the person archives one
        await settle(pilot)
        await pilot.press("h")
        await pilot.pause()
        labels = [str(o.prompt) for o in app.screen.query_one("#rows").options]
        assert any("Type hints everywhere" in label and "archived by the agent" in label for label in labels), labels
        assert any("Format with ruff" in label and "archived by you" in label and "Habits & conventions" in label for label in labels)
        assert any("Release with a script" in label and "what replaced it was purged" in label for label in labels), labels


async def test_11_a_refused_restore_says_the_next_step(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (SPEC §10: every error says what happened and the next step): restoring a note whose
    topic slot a newer note now holds is refused, and the notice says what to do, not only why."""
    app = demo.app()
    at = {"home": demo.home, "project": demo.project}
    old = dispatch("memory_save", {"title": "Deploy with fab", "body": "fab deploy", "topicKey": "how-to-deploy"}, **at)["id"]
    dispatch("memory_forget", {"id": old}, **at)
    dispatch("memory_save", {"title": "Deploy with the pipeline", "body": "merge to main", "topicKey": "how-to-deploy"}, **at)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        listing = app.screen.query_one("#rows")
        listing.highlighted = next(i for i, o in enumerate(listing.options) if "Deploy with fab" in str(o.prompt))
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        refused = [m for m in notices(app) if "how-to-deploy" in m]
        assert refused and "Archive or replace that record first, then restore this one." in refused[-1], notices(app)
    assert dispatch("memory_read", {"id": old}, **at).get("status") != "active"
    assert all_records(demo.home, demo.project)[old]["status"] == "archived"  # nothing was restored


async def test_11_conflicts_show_both_bodies_the_diff_and_say_what_a_decision_did(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: the proposal and its candidate side by side with their bodies, the differing
    words marked; only keys that exist are offered; the notice says what happened."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c")
        await pilot.pause()
        item = app.screen.current()
        cand = item["candidates"][0]
        side = app.screen.query_one("#side-1").render()
        assert cand["body"] and cand["body"].split()[0] in str(side)
        from lingshu_tui.screens.lists import _marked

        marked = _marked(item["proposal"]["body"], cand["body"])
        differing = {marked.plain[span.start:span.end] for span in marked.spans if "reverse" in str(span.style)}
        assert differing and all(part not in cand["body"] for part in differing)  # the words the candidate lacks
        if len(item["candidates"]) < 2:
            assert app.check_action("act", ("conflict_replace2",)) is False
        await pilot.press("1")
        await settle(pilot)
        messages = notices(app)
        assert any(m.startswith(f"Replaced «{cand['title']}» — revision") for m in messages), messages


def test_11_the_detail_speaks_chinese_words_for_stored_values() -> None:
    """Issue 11: status, relations and revision reasons are worded in the panel's language; an
    unknown stored word shows as itself, never breaks the screen."""
    from lingshu_tui.i18n import Labels
    from lingshu_tui.screens.detail import render_detail

    rec = {"title": "部署", "layer": "project", "status": "active", "chain": [("replaced by", "新部署")],
           "versions": [{"revision": 1, "time": "2026-01-01T00:00", "reason": "superseded", "title": "旧"},
                        {"revision": 2, "time": "2026-01-02T00:00", "reason": "some_new_reason", "title": "x"}],
           "linkTitles": [("supersedes", "旧部署")], "body": "正文"}
    text = render_detail(rec, Labels("zh")).plain
    assert "有效" in text and "active" not in text and "被替代为" in text and "替代了" in text and "被替代" in text
    assert "some_new_reason" in text


def _record(demo, rid: str) -> dict:  # type: ignore[no-untyped-def]
    for ref in demo.ws().layers():
        rec = all_records(demo.home, demo.project if ref.kind == "project" else None).get(rid)
        if rec is not None:
            return rec
    raise KeyError(rid)


async def test_10_undo_takes_back_ignore_and_every_conflict_decision(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.3: `u` also takes back ignore and the three conflict decisions, on the screen where
    they were made: the ignored suggestion and the decided proposal come back to their queue as
    they were; a note saved as new is archived (recoverable); a replaced note gets its earlier text
    back as a new revision, with the replacing text still in its history."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("s")
        await pilot.pause()
        queued = {s["id"] for s in snapshot(demo.ws()).suggestions}
        await pilot.press("i")
        await settle(pilot)
        assert len(snapshot(demo.ws()).suggestions) == len(queued) - 1
        await pilot.press("u")
        await settle(pilot)
        assert {s["id"] for s in snapshot(demo.ws()).suggestions} == queued
        assert any(m.startswith("Undo: ignore") for m in notices(app))

        await pilot.press("escape", "c")
        await pilot.pause()
        assert isinstance(app.screen, ConflictsScreen)
        keys = lambda: {(c["layerKind"], c["key"]) for c in snapshot(demo.ws()).conflicts}  # noqa: E731
        before = keys()
        item = app.screen.current()
        await pilot.press("n")  # saved as a new note
        await settle(pilot)
        assert keys() == before - {app.screen.key_of(item)}
        saved = next(r for r in all_records(demo.home, demo.project).values() if r.get("title") == item["title"] and r["status"] == "active")
        await pilot.press("u")
        await settle(pilot)
        assert keys() == before
        assert _record(demo, saved["id"])["status"] == "archived"

        item = app.screen.current()
        target = item["candidates"][0]["id"]
        old = _record(demo, target)
        await pilot.press("1")  # the proposal written over candidate 1
        await settle(pilot)
        replaced = _record(demo, target)
        assert replaced["body"] == item["proposal"]["body"] != old["body"]
        await pilot.press("u")
        await settle(pilot)
        back = _record(demo, target)
        assert back["body"] == old["body"] and back["revision"] == replaced["revision"] + 1
        assert item["proposal"]["body"] in [v.get("body") for v in back["versions"]]  # history kept
        assert keys() == before

        item = app.screen.current()
        await pilot.press("d")
        await settle(pilot)
        assert keys() == before - {app.screen.key_of(item)}
        await pilot.press("u")
        await settle(pilot)
        assert keys() == before


async def test_10_reading_the_store_never_blocks_the_screen(demo, size, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 10: the first read of the store and a record's lookup run in worker threads. While
    they are held up, the screen says it is loading and keys still answer; when they finish, the
    rooms and the detail appear."""
    import threading

    from lingshu_tui import app as app_module
    from textual.widgets import HelpPanel

    gate = threading.Event()
    real_snapshot, real_detail = app_module.snapshot, app_module.detail
    monkeypatch.setattr(app_module, "snapshot", lambda ws: (gate.wait(30), real_snapshot(ws))[1])
    demo.app()  # builds the demo home
    app = LingshuApp(demo.home, demo.project, watch=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert rows(app) == ["Loading…"]
        await pilot.press("question_mark")  # the event loop is free: keys answer while the read waits
        await pilot.pause()
        assert app.screen.query(HelpPanel)
        await pilot.press("question_mark")
        gate.set()
        await ready(pilot)
        assert any(r.startswith("▾ ") for r in rows(app))

        held = threading.Event()
        monkeypatch.setattr(app_module, "detail", lambda ws, rid: (held.wait(30), real_detail(ws, rid))[1])
        await select_title(pilot, "Format with ruff")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        shown = lambda: str(app.screen.query_one("#detail").render())  # noqa: E731
        assert shown() == "Loading…"
        held.set()
        await settle(pilot)
        assert app.screen.loaded and shown().startswith("Format with ruff")


def _screen_lines(app: LingshuApp) -> list[str]:
    """The terminal's rows as text (from the SVG export: one <text> run per styled span)."""
    import html
    import re

    rows: dict[float, list[str]] = {}
    for m in re.finditer(r'<text[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        rows.setdefault(float(m.group(1)), []).append(html.unescape(re.sub(r"<[^>]+>", "", m.group(2))).replace("\xa0", " "))
    return ["".join(parts) for _, parts in sorted(rows.items())]


async def test_10_at_80x24_the_header_keeps_what_matters_and_no_box_line_wraps(demo) -> None:  # type: ignore[no-untyped-def]
    """Issue 10.9 / 11: at 80×24 the header still names the project, memory on/off and the counts
    that wait for the person; each conflict and suggestion takes one line in its box (cut with …)."""
    app = demo.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        snap = app.snap
        assert snap is not None and snap.conflicts and snap.suggestions
        header = _screen_lines(app)[0]
        assert "shop-api" in header and "memory on" in header
        assert f"Conflicts {len(snap.conflicts)}" in header and f"Suggestions {len(snap.suggestions)}" in header
        lines = _screen_lines(app)
        for box, items in (("Suggestions", snap.suggestions[:3]), ("Conflicts", snap.conflicts[:2])):
            top = next(i for i, line in enumerate(lines) if f"─ {box} " in line)
            bottom = next(i for i in range(top + 1, len(lines)) if "╰" in lines[i].split("│")[-1] or lines[i].rstrip().endswith("╯"))
            inside = bottom - top - 1
            wanted = sum(1 + len(c.get("candidates", [])[:2]) for c in items) if box == "Conflicts" else len(items) + 1
            assert inside == wanted, (box, lines[top:bottom + 1])


async def test_11_attention_counts_and_memory_off_stand_on_every_screen(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (attention) and 10.7: every screen carries the pending counts; with memory off every
    screen also says so, with the key that switches it on. Boxes with something waiting stand out
    (a theme class), and the focused pane has its own border."""
    from lingshu_tui.widgets.attention import Attention

    app = demo.app(memory_on=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        snap = app.snap
        assert snap is not None
        assert app.query_one("#conflicts-box").has_class("waiting") and app.query_one("#suggestions-box").has_class("waiting")
        palace = app.query_one(Palace)
        assert palace.has_focus and palace.styles.border_top[1] != app.query_one("#citations").styles.border_top[1]
        for key in ("c", "s", "h"):
            await pilot.press(key)
            await pilot.pause()
            line = str(app.screen.query_one(Attention).render())
            assert f"Conflicts {len(snap.conflicts)}" in line and f"Suggestions {len(snap.suggestions)}" in line, key
            assert "Memory is off" in line and "Press o" in line, key
            await pilot.press("escape")
            await pilot.pause()
        await select_title(pilot, "Format with ruff")
        await pilot.press("enter")
        await settle(pilot)
        assert "Memory is off" in str(app.screen.query_one(Attention).render())


async def test_11_the_replacement_chain_is_navigable_and_a_detail_offers_only_what_applies(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (detail): `[` opens the note a record replaced, read-only, with its dates and why it
    was replaced; `]` comes forward again and Esc goes back. Only the actions that fit the record
    are offered: no restore on an active one, nothing but reading on a replaced one, no `v` on a
    reviewed one. A summary written before the body last changed is flagged."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        palace = app.query_one(Palace)
        palace.toggle("method")
        await pilot.pause()
        await select_title(pilot, "Deploy with make release")
        await pilot.press("enter")
        await settle(pilot)
        newer = app.screen
        assert isinstance(newer, DetailScreen)
        assert app.check_action("act", ("archive",)) and not app.check_action("act", ("restore",))
        assert not app.check_action("act", ("reviewed",))
        assert "[ opens «Deploy with fab»" in str(newer.query_one("#detail").render())
        await pilot.press("left_square_bracket")
        await settle(pilot)
        older = app.screen
        assert isinstance(older, DetailScreen) and older is not newer
        text = str(older.query_one("#detail").render())
        assert text.startswith("Deploy with fab") and "Replaced: by «Deploy with make release» on " in text
        assert "Validity: from " in text and " until " in text
        for what in ("archive", "restore", "move", "reviewed", "remove"):
            assert not app.check_action("act", (what,)), what  # read-only
        before = rec_by_title(demo, "Deploy with fab")
        await pilot.press("a", "m")
        await settle(pilot)
        assert rec_by_title(demo, "Deploy with fab") == before
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is newer
        await pilot.press("escape")
        palace.toggle("convention")
        await pilot.pause()
        await select_title(pilot, "Format with ruff")
        await pilot.press("enter")
        await settle(pilot)
        assert "the body changed after this summary was written" in str(app.screen.query_one("#detail").render())


async def test_11_palette_lists_each_command_once_and_keys_mean_one_thing(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (keys): the command palette lists every command once, with its written help text;
    `q` quits and Esc goes back on every screen; `k` keeps a suggestion and is not also "previous"."""
    from lingshu_tui.screens.lists import ConflictsScreen

    app = demo.app()
    async with app.run_test(size=size) as pilot:
        for key in ("", "c", "s", "h"):
            if key:
                await pilot.press(key)
                await pilot.pause()
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert len(titles) == len({t.casefold() for t in titles}), (key, titles)
            helps = {c.title: c.help for c in app.get_system_commands(app.screen)}
            assert helps.get("undo last") == "Take back your last action in this panel (it is named first)"
            keys = {b.key: b.action for b in app.screen.active_bindings.values() if True for b in [b.binding]}
            assert keys.get("q") == "app.quit", key
            if key:
                assert keys.get("escape") == "app.pop_screen", key
                if isinstance(app.screen, ConflictsScreen):
                    assert "k" not in keys
                await pilot.press("escape")
                await pilot.pause()


async def test_11_every_label_is_chinese_in_zh(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (Chinese, completely): every screen rendered with LINGSHU_LANG=zh holds none of the
    English labels the panel draws (footer keys, headings, statuses, notices)."""
    from lingshu_tui.i18n import EN, ZH

    # The English panel words a Chinese screen must never show (record titles and bodies are data).
    english = sorted({v for k, v in EN.items() if ZH.get(k) != v and not k.startswith(("ago.", "tip."))
                      and "{" not in v and len(v) > 3 and v.lower() not in ("lingshu",)}, key=len, reverse=True)
    app = demo.app(lang="zh")
    async with app.run_test(size=size) as pilot:
        screens = {"main": ""}
        for name, keys in (("main", ()), ("conflicts", ("c",)), ("suggestions", ("s",)), ("archive", ("h",)),
                           ("detail", ("down", "down", "enter")), ("help", ("question_mark",))):
            for k in keys:
                await pilot.press(k)
            await settle(pilot)
            text = "\n".join(_screen_lines(app))
            screens[name] = text
            leaked = [w for w in english if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)]
            assert not leaked, (name, leaked)
            while len(app.screen_stack) > 1:
                await pilot.press("escape")
                await pilot.pause()
            if name == "help":
                await pilot.press("question_mark")


def test_11_every_core_status_has_a_chinese_line() -> None:
    """Issue 11: notices that come from the core are worded by the panel: each status of SPEC §10
    that an action can answer has its Chinese line; English keeps the core's sentence."""
    from core.statuses import STATUSES
    from lingshu_tui.i18n import Labels

    zh, en = Labels("zh"), Labels("en")
    for status in STATUSES:
        if status == "ok":
            continue
        line = zh.answer({"status": status, "message": "English sentence from the core."})
        assert line != "English sentence from the core." and not re.search(r"[A-Za-z]{4,}", line.replace("lingshu doctor", "")), status
        assert en.answer({"status": status, "message": "English sentence from the core."}) == "English sentence from the core."


async def test_11_jump_to_first_last_and_a_typed_page(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (find anything): g and G go to the open room's first and last page; # takes a page
    number (a wrong one is answered, not obeyed); letters typed there do not act."""
    demo.app()  # builds the demo home first
    for i in range(60):
        dispatch("memory_save", {"title": f"Pager note {i} zq{i}", "body": f"body {i}", "kind": "note", "resolution": "distinct"},
                 home=demo.home, project=demo.project)
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        palace = app.query_one(Palace)
        palace.toggle("note")
        await pilot.pause()
        pages = palace.pages_of("note")
        assert pages >= 3
        await pilot.press("G")
        assert palace.pages["note"] == pages - 1
        await pilot.press("g")
        assert palace.pages["note"] == 0
        await pilot.press("number_sign", "9", "9", "enter")
        await pilot.pause()
        assert palace.pages["note"] == 0 and any("There is no page 99" in m for m in notices(app))
        await pilot.press("backspace", "backspace", "2", "enter")
        await pilot.pause()
        assert palace.pages["note"] == 1 and palace.has_focus


async def test_11_relative_times_move_on_each_minute(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: "2 h ago" is drawn again as the clock moves, without reading the store."""
    from datetime import timedelta

    from lingshu_tui.screenshots import CLOCK

    now = [CLOCK]
    app = demo.app(clock=lambda: now[0])
    async with app.run_test(size=size) as pilot:
        assert any("2 h ago" in r for r in rows(app))
        now[0] = CLOCK + timedelta(hours=3)
        app._minute_passed()
        await pilot.pause()
        assert any("5 h ago" in r for r in rows(app)) and not any("2 h ago" in r for r in rows(app))


async def test_11_suggestions_show_body_room_layer_and_origin(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (decide with the facts in view): each suggestion shows a body preview, its room and
    layer, and where it came from."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("s")
        await pilot.pause()
        sug = snapshot(demo.ws()).suggestions[0]
        label = str(app.screen.query_one("#rows").options[0].prompt)
        assert sug["title"] in label and "project" in label and "from the agent" in label
        assert sug["proposal"]["body"][:30] in label.split("\n")[1]


async def test_11_archive_filters_by_layer_and_making_room_is_announced_once(demo, size, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (archive): `l` shows both layers, the project layer, the global layer; a record the
    agent's save archived to make room at the layer limit is announced once, when it happens."""
    import core.tools

    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("h")
        await pilot.pause()
        snap = app.snap
        assert snap is not None
        layers = {e.layer for e in snap.archived}
        total = len(snap.archived)
        counts = []
        for _ in range(3):
            counts.append(len(app.screen.query_one("#rows").options))
            await pilot.press("l")
            await pilot.pause()
        assert counts[0] == total and sum(counts[1:]) == total + (0 if len(layers) == 2 else 1)  # one side shows "(none)"
        await pilot.press("escape")
        active = sum(1 for r in all_records(demo.home, demo.project).values() if r.get("status") == "active")
        monkeypatch.setattr(core.tools, "HARD_ACTIVE", active)  # the layer is at its limit: the next save makes room
        dispatch("memory_save", {"title": "One note too many zz9", "body": "x", "kind": "note", "resolution": "distinct"},
                 home=demo.home, project=demo.project)
        app._reload_soon()
        await settle(pilot)
        made_room = [m for m in notices(app) if "to make room" in m]
        assert len(made_room) == 1 and "the project layer is at its note limit" in made_room[0]
        dispatch("memory_search", {"query": "deploy"}, home=demo.home, project=demo.project)
        app._reload_soon()
        await settle(pilot)
        assert len([m for m in notices(app) if "to make room" in m]) == 1


async def test_11_an_empty_conflicts_queue_is_one_line(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 11: once every proposal is decided, the screen says so in one line, with no empty boxes."""
    app = demo.app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c")
        await pilot.pause()
        for _ in snapshot(demo.ws()).conflicts:
            await pilot.press("d")
            await settle(pilot)
        assert snapshot(demo.ws()).conflicts == []
        assert "No conflicts wait for you." in str(app.screen.query_one("#conflict-title").render())
        assert not any(box.display for box in app.screen.query(".side"))


async def test_17_the_learning_view_shows_what_was_learned_and_moves_rules_only_on_a_key(demo, size) -> None:  # type: ignore[no-untyped-def]
    """Issue 17: the Learning view lists the learned rules with their state and the person's words,
    pending candidates and the organizer receipts; t, A, z, d move the selected rule, E switches
    learning; opening and refreshing the view changes nothing."""
    from core import learning
    from core.settings import set_project_setting
    from lingshu_tui.screens.lists import LearningScreen

    app = demo.app()
    ws = demo.ws()
    set_project_setting(demo.home, ws.project_id, "experimental", True)
    ws = demo.ws()
    learning.note_feedback(ws, {"sessionId": "s"}, "Always run make lint before pushing.")
    rid = learning.organize(ws)["committed"][0]
    learning.note_feedback(ws, {"sessionId": "s"}, "Never commit the .env file.")
    learning.fold_feedback(ws, ws.project_layer)
    async with app.run_test(size=size) as pilot:
        before = demo.layer_bytes()
        await pilot.press("L")
        await settle(pilot)
        assert isinstance(app.screen, LearningScreen)
        labels = [str(o.prompt) for o in app.screen.query_one("#rows").options]
        assert labels[0].startswith("[pending] Always run make lint before pushing.") and "you said: «Always run make lint" in labels[0]
        assert any(label.startswith("[candidate] Never commit the .env file.") for label in labels)
        assert any(label.startswith("[receipt] builtin: 1 new rule(s)") for label in labels)
        assert "learning on" in str(app.screen.query_one("#list-title").render())
        assert demo.layer_bytes() == before  # looking changes nothing
        await pilot.press("t")
        await settle(pilot)
        assert learning.status(demo.ws())["rules"][0]["state"] == "trial"
        assert str(app.screen.query_one("#rows").options[0].prompt).startswith("[trial]")
        await pilot.press("z")
        await settle(pilot)
        assert learning.status(demo.ws())["rules"][0]["state"] == "paused"
        await pilot.press("down", "down", "A")  # on a candidate: the keys move rules only
        await settle(pilot)
        assert any("Select a rule first" in m for m in notices(app))
        await pilot.press("E")
        await settle(pilot)
        assert not demo.ws().project.get("experimental")
        assert "learning off" in str(app.screen.query_one("#list-title").render())
        assert learning.status(demo.ws())["rules"][0]["id"] == rid
