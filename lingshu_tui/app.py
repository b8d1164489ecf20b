"""The Lingshu panel: the memory palace, this turn's citations, the conflicts queue and the
suggestions, over the shared core store. Every action calls core; the panel holds no rule."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from rich.text import Text
from textual import on, work
from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.widgets import HelpPanel, OptionList, Static

from core import actions
from core.views import Snapshot, detail, snapshot
from core.workspace import Workspace, open_workspace
from lingshu_tui.i18n import Labels, pick_language
from lingshu_tui.messages import ActionFinished, DetailLoaded, LearningLoaded, SnapshotLoaded, StoreChanged
from lingshu_tui.screens.confirm import Confirm
from lingshu_tui.screens.detail import DetailScreen
from lingshu_tui.screens.lists import ArchiveScreen, ConflictsScreen, LearningScreen, SuggestionsScreen
from lingshu_tui.screens.main import MainScreen
from lingshu_tui.widgets.attention import Attention
from lingshu_tui.widgets.citations import Citations
from lingshu_tui.widgets.palace import Palace
from lingshu_tui.widgets.translated import localized

MUTATING = {"archive", "restore", "undo", "move", "remove", "keep", "ignore", "reviewed", "room_reviewed",
            "conflict_new", "conflict_replace1", "conflict_replace2", "conflict_discard",
            "learn_approve", "learn_promote", "learn_pause", "learn_reject", "learn_switch"}


def _local_now() -> datetime:
    return datetime.now(timezone.utc).astimezone()


class LingshuApp(App[None]):
    CSS_PATH = "lingshu.tcss"
    TITLE = "Lingshu"
    # Keys live on the screens (screens/base.py holds the ones every screen answers), so their
    # descriptions follow the panel's language through `localized`.

    def __init__(self, home: Path | str | None = None, project: Path | str | None = None, *, lang: str | None = None,
                 clock: Callable[[], datetime] = _local_now, watch: bool = True) -> None:
        super().__init__()
        self.ws: Workspace = open_workspace(home, project)
        self.t = Labels(pick_language(lang))
        self.clock = clock
        self.watch = watch
        self.snap: Snapshot | None = None
        self.undo_stack: list[tuple[str, Callable[[], dict[str, Any]]]] = []
        self.refreshed_at = ""
        self._loading = False
        self._stale = False
        if os.environ.get("LINGSHU_REDUCED_MOTION") or os.environ.get("REDUCED_MOTION"):
            self.animation_level = "none"
        self.main: MainScreen | None = None
        self._binding_state: tuple[object, ...] = ()
        self._announced: set[str] = set()  # records archived to make room that the person was told about

    # ------------------------------------------------------------------ layout

    def _reopen(self) -> Workspace:
        """The workspace again, with fresh settings (memory switch, a newly confirmed project)."""
        return open_workspace(self.ws.home, self.ws.project_root, self.ws.cwd)

    def _main(self) -> MainScreen:
        assert self.main is not None, "the main screen is not mounted yet"
        return self.main

    def get_default_screen(self) -> MainScreen:
        return localized(MainScreen, self.t)(self.t, self.clock)

    def first_show(self, main: MainScreen) -> None:
        self.main = main
        self._reload_soon()  # the first read too runs in the loader's thread; the palace says it is loading
        if self.watch:
            self.watch_store()

    # ------------------------------------------------------------------ refresh

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def load_snapshot(self) -> None:
        ws = self._reopen()
        self.post_message(SnapshotLoaded(snapshot(ws)))

    def _reload_soon(self) -> None:
        """At most one read in flight; changes that arrive meanwhile become one more read after it."""
        if self._loading:
            self._stale = True
            return
        self._loading = True
        self._stale = False
        self.load_snapshot()

    def watched(self, _change: object, path: str) -> bool:
        """The files whose change this panel shows: its project's layer, the global layer, the
        turn bookkeeping and the settings; never another project's writes."""
        name = os.path.basename(path)
        if not name.endswith(".json") or name.startswith("."):
            return False
        projects = str(self.ws.home / "projects") + os.sep
        mine = self.ws.project_layer
        return not path.startswith(projects) or (mine is not None and path.startswith(str(mine.dir) + os.sep))

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_store(self) -> None:
        from watchfiles import awatch

        home = self.ws.home
        home.mkdir(parents=True, exist_ok=True)

        async for _ in awatch(home, watch_filter=self.watched, debounce=40, step=20, recursive=True):
            self.post_message(StoreChanged())

    def on_store_changed(self, _: StoreChanged) -> None:
        self._reload_soon()

    def on_snapshot_loaded(self, message: SnapshotLoaded) -> None:
        self._loading = False
        first = self.snap is None
        self.apply(message.snapshot)
        if first:
            # What start-up built lives as long as the panel: out of the collector's sight, a full
            # collection no longer walks it (60-75 ms on the UI thread with 2,000 notes, a visible stall).
            gc.freeze()
        if self._stale:
            self._reload_soon()

    def apply(self, snap: Snapshot) -> None:
        if self.main is None or not self.main.query("#where"):
            self.call_after_refresh(self.apply, snap)  # the main screen is not composed yet
            return
        self._apply(snap)

    def _apply(self, snap: Snapshot) -> None:
        if snap.memory_on != self.ws.memory_on:
            self.ws = self._reopen()
        made_room = {e.id: e for e in snap.archived if e.archive_reason == "make_room"}
        if self.snap is not None:  # announced when it happens, once; not what was archived before the panel opened
            for rid in made_room.keys() - self._announced:
                ex = made_room[rid]
                self.notify(self.t("made_room", title=ex.title, layer=self.t(ex.layer)), timeout=10)
        self._announced |= made_room.keys()
        self.snap = snap
        self.refreshed_at = self.clock().strftime("%H:%M:%S")
        self._draw_header(snap)
        self._main().query_one(Palace).show(snap)
        self._main().query_one(Citations).show(snap)
        self._draw_boxes(snap)
        for screen in self.screen_stack:
            for line in screen.query(Attention):
                line.show(snap)
            if isinstance(screen, (ArchiveScreen, SuggestionsScreen, ConflictsScreen)):
                screen.show(snap)
            elif isinstance(screen, DetailScreen):
                self.load_detail(screen.rid)
            if isinstance(screen, LearningScreen):
                self.load_learning()
        self.bindings_may_change()

    def bindings_may_change(self) -> None:
        """Recompose the footers only when what `check_action` looks at changed: a footer rebuild
        restyles every key widget, far too slow to pay on each refresh while the agent writes."""
        screen = self.screen
        item = screen.current() if isinstance(screen, ConflictsScreen) else None
        state = (self.ws.memory_on, self.ws.project_id, screen, len(item.get("candidates", [])) if item else None)
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    def _draw_header(self, snap: Snapshot) -> None:
        t = self.t
        # What matters first, so a narrow terminal cuts the least of it: the project, memory on/off.
        where = f"{Path(snap.project_root).name} + {t('global')}" if snap.project_root else f"{t('no_project')} · {t('global')}"
        left = f" {where} · {t('memory_on') if snap.memory_on else t('memory_off')} · {t('direct') if snap.write_mode == 'direct' else t('review')}"
        self._main().query_one("#where", Static).update(Text(left, no_wrap=True, overflow="ellipsis"))
        self._main().query_one("#refreshed", Static).update(Text(t("refreshed", time=self.refreshed_at) + " "))
        banner = self._main().query_one("#banner", Static)
        # Problems stand in the banner while they last: a toast per refresh would stack.
        lines = ([t("banner_off")] if not snap.memory_on else []) + list(dict.fromkeys(snap.problems)) + snap.notices
        banner.update(Text("\n".join(lines), style="bold"))
        banner.display = bool(lines)

    def _draw_boxes(self, snap: Snapshot) -> None:
        t = self.t
        box = self._main().query_one("#conflicts-box", Static)
        box.border_title = f"{t('conflicts')} {len(snap.conflicts)}"
        box.set_class(bool(snap.conflicts), "waiting")
        lines = Text()
        for item in snap.conflicts[:2]:
            lines.append(f"{item.get('title', '')}\n")
            for c in item.get("candidates", [])[:2]:
                lines.append(f"  ~ {c.get('title', '')} ({t(c.get('reason', 'similar_title'))})\n", style="dim")
        lines.rstrip()
        lines.no_wrap, lines.overflow = True, "ellipsis"  # one line per item at any width
        box.update(lines if lines.plain else Text(t("no_conflicts"), style="dim"))
        box = self._main().query_one("#suggestions-box", Static)
        box.border_title = f"{t('suggestions')} {len(snap.suggestions)}"
        box.set_class(bool(snap.suggestions), "waiting")
        lines = Text()
        for s in snap.suggestions[:3]:
            lines.append(f"{s.get('title', '')}\n")
        if snap.suggestions:
            lines.append(t("suggestions_open"), style="dim")  # plain text, not a fake button
        lines.rstrip()
        lines.no_wrap, lines.overflow = True, "ellipsis"
        box.update(lines if lines.plain else Text(t("no_suggestions"), style="dim"))

    # ------------------------------------------------------------------ navigation

    @on(OptionList.OptionSelected, "#palace")
    def palace_selected(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option.id or "")

    def _open(self, key: str) -> None:
        if key.startswith("room:"):
            self._main().query_one(Palace).toggle(key[5:])
        elif key.startswith("rec:"):
            self.open_record(key[4:])

    def open_record(self, rid: str) -> None:
        """A record's detail, on top of what is open (Esc goes back, through a replacement chain too)."""
        self.push_screen(localized(DetailScreen, self.t)(rid, self.t))
        self.load_detail(rid)

    @work(thread=True, exclusive=False, group="detail", exit_on_error=False)
    def load_detail(self, rid: str) -> None:
        self.post_message(DetailLoaded(rid, detail(self._reopen(), rid)))

    def on_detail_loaded(self, message: DetailLoaded) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, DetailScreen) and screen.rid == message.rid:
                screen.show(message.record)
        self.refresh_bindings()  # the keys a detail offers depend on the record (restore only when archived…)

    def _shown(self, rid: str) -> dict[str, Any] | None:
        """A record as the panel last read it (title, layer): actions never look the store up on the UI thread."""
        screen = self.screen
        if isinstance(screen, DetailScreen) and screen.rid == rid:
            return screen.record
        snap = self.snap
        exhibits = [e for room in snap.rooms.values() for e in room] + snap.archived if snap else []
        ex = next((e for e in exhibits if e.id == rid), None)
        return {"title": ex.title, "layer": ex.layer} if ex else None

    def action_open(self) -> None:
        opt = self._main().query_one(Palace).highlighted_option
        if opt is not None and opt.id:
            self._open(opt.id)

    def action_page(self, step: int) -> None:
        self._main().query_one(Palace).turn_page(step)

    def action_page_to(self, page: int) -> None:
        self._main().query_one(Palace).jump(page)

    def on_mount(self) -> None:
        self.set_interval(60, self._minute_passed)

    def _minute_passed(self) -> None:
        """Relative times ("2 min ago") move on: the rows are drawn again from the snapshot, no reading."""
        if self.snap is None or self.main is None:
            return
        self._main().query_one(Palace).show(self.snap)
        for screen in self.screen_stack:
            if isinstance(screen, (ArchiveScreen, SuggestionsScreen)):
                screen.show(self.snap)

    def action_explain(self) -> None:
        cit = self._main().query_one(Citations)
        cit.explain = not cit.explain
        if self.snap:
            cit.show(self.snap)

    def _push_list(self, screen: Screen[None]) -> None:
        self.push_screen(screen)
        if self.snap:
            screen.show(self.snap)  # type: ignore[attr-defined]

    def action_conflicts(self) -> None:
        self._push_list(localized(ConflictsScreen, self.t)(self.t))

    def action_suggestions(self) -> None:
        self._push_list(localized(SuggestionsScreen, self.t)(self.t))

    def action_learning_view(self) -> None:
        self._push_list(localized(LearningScreen, self.t)(self.t))
        self.load_learning()

    @work(thread=True, exclusive=True, group="learning", exit_on_error=False)
    def load_learning(self) -> None:
        from core import learning
        from core.errors import LingshuError

        try:
            report: dict[str, Any] | None = learning.status(self._reopen())
        except LingshuError as err:
            report = {"learning": False, "trialTurns": 0, "trialDays": 0, "rules": [], "candidates": [], "receipts": [],
                      "problem": err.message}
        self.post_message(LearningLoaded(report))

    def on_learning_loaded(self, message: LearningLoaded) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, LearningScreen):
                screen.show_learning(message.report)
        if message.report and message.report.get("problem"):
            self.notify(message.report["problem"], severity="warning")

    def action_archive_view(self) -> None:
        self._push_list(localized(ArchiveScreen, self.t)(self.t))

    def action_help(self) -> None:
        """`?` shows every key of the focused screen, and hides them again."""
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_close_help(self) -> None:
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette lists the panel's own actions too, with their help text."""
        system = list(super().get_system_commands(screen))
        yield from system
        # Each command once: Textual's own (quit, copy, focus…) are listed above already.
        seen = {command.title.casefold() for command in system}
        for active in screen.active_bindings.values():
            binding, node = active.binding, active.node
            if binding.system or not binding.description or binding.action in seen or binding.description.casefold() in seen \
                    or binding.action.removeprefix("app.") in ("quit", "command_palette"):
                continue
            seen.update((binding.action, binding.description.casefold()))
            yield SystemCommand(str(binding.description), str(binding.tooltip or binding.description),
                                lambda action=binding.action, node=node: self.run_action(action, node))

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Memory off: everything stays browsable; every action is disabled (SPEC §13.6)."""
        if action == "act" and parameters and str(parameters[0]).startswith("conflict_replace") and isinstance(self.screen, ConflictsScreen):
            item = self.screen.current()
            wanted = int(str(parameters[0]).removeprefix("conflict_replace"))
            if item is None or len(item.get("candidates", [])) < wanted:
                return False  # only the keys that exist: no "2 replace 2" with one candidate
        if action == "act" and parameters and isinstance(self.screen, DetailScreen) and self.ws.memory_on:
            applies = actions.applies(self.screen.record, str(parameters[0]))
            if applies is not None:
                return applies
        if action == "act" and parameters and parameters[0] in MUTATING:
            return True  # memory off: the key still answers, with a notice (action_act), never silence
        if action == "memory_on":
            return not self.ws.memory_on
        if action == "confirm_project":
            return self.ws.project_id is None
        return True

    def _target(self) -> tuple[str, str] | None:
        """(kind, key) of what the current screen has selected."""
        screen = self.screen
        if isinstance(screen, DetailScreen):
            return "rec", screen.rid
        if isinstance(screen, (ArchiveScreen, SuggestionsScreen)):
            key = screen.selected_key()
            return (key.split(":", 1)[0], key.split(":", 1)[1]) if key and ":" in key else None
        ex = self._main().query_one(Palace).selected_exhibit()
        return ("rec", ex.id) if ex else None

    def action_act(self, what: str) -> None:
        if what in MUTATING and not self.ws.memory_on:
            self.notify(self.t("off_refused"), severity="warning")
            return
        if what.startswith("conflict_"):
            screen = self.screen
            item = screen.current() if isinstance(screen, ConflictsScreen) else None
            if item is None:
                return
            if not screen.still_shown(item):
                # Never decide on a proposal the person has not seen: show the current one first.
                screen.redraw()
                self.notify(self.t("conflict_changed"), severity="warning")
                return
            decision = what.removeprefix("conflict_")
            screen.decided = screen.key_of(item)
            cands = item.get("candidates", [])

            def told(result: dict[str, Any]) -> str:
                if decision == "discard":
                    return self.t("done.discarded", title=item.get("title", ""))
                if decision == "new":
                    return self.t("done.saved_new", title=item.get("title", ""))
                target = cands[int(decision.removeprefix("replace")) - 1].get("title", "") if cands else ""
                return self.t("done.replaced", title=target, revision=result.get("revision", ""))

            layer = item["layerKind"]
            self.run_core(lambda: actions.decide_conflict(self.ws, layer, item["key"], decision), told,
                          undo=(self.t("undo.decide", title=item.get("title", "")),
                                lambda r: actions.undo_decision(self.ws, layer, decision, r)))
            return
        if what == "undo":
            self._undo_last()
            return
        if what.startswith("learn_"):
            self._steer_learning(what.removeprefix("learn_"))
            return
        if what == "room_reviewed":
            palace = self._main().query_one(Palace)
            if self.snap and palace.open_room:
                ids = [e.id for e in self.snap.rooms[palace.open_room] if e.unreviewed]
                self.run_core(lambda: _all_ok([actions.mark_reviewed(self.ws, rid) for rid in ids]), self.t("done.reviewed", title=self.t("room." + palace.open_room)))
            return
        target = self._target()
        if target is None:
            self.notify(self.t("select_first"), severity="warning")
            return
        kind, key = target
        if kind == "sug":
            layer, sid = key.split(":", 1)
            sug = next((s for s in (self.snap.suggestions if self.snap else []) if s["id"] == sid), {})
            title = sug.get("title", "")
            if what == "keep":
                screen = self.screen
                if isinstance(screen, SuggestionsScreen):
                    position = next((i for i, s in enumerate(self.snap.suggestions if self.snap else []) if s["id"] == sid), 0)
                    screen.kept[f"kept:{sid}"] = (position, title)
                self.run_core(lambda: actions.keep_suggestion(self.ws, layer, sid), self.t("done.keep", title=title),
                              undo=(self.t("undo.keep", title=title),
                                    lambda r: actions.archive(self.ws, r["id"]) if r.get("committed") else {"ok": True, "status": "ok"}))
            elif what == "ignore":
                self.run_core(lambda: actions.ignore_suggestion(self.ws, layer, sid), self.t("done.ignore", title=title),
                              undo=(self.t("undo.ignore", title=title), lambda r: actions.requeue(self.ws, layer, "suggestions", r["item"])))
            return
        if kind != "rec":
            return
        rec = self._shown(key)
        if rec is None:
            return
        title = rec.get("title", "")
        if what == "open":
            self._open(f"rec:{key}")
        elif what == "archive":
            self.run_core(lambda: actions.archive(self.ws, key), self.t("done.archive", title=title),
                          undo=(self.t("undo.archive", title=title), lambda _r: actions.restore(self.ws, key)))
        elif what == "restore":
            self.run_core(lambda: actions.restore(self.ws, key), self.t("done.restore", title=title),
                          undo=(self.t("undo.restore", title=title), lambda _r: actions.archive(self.ws, key)))
        elif what == "reviewed":
            self.run_core(lambda: actions.mark_reviewed(self.ws, key), self.t("done.reviewed", title=title),
                          undo=(self.t("undo.reviewed", title=title), lambda _r: actions.mark_reviewed(self.ws, key, reviewed=False)))
        elif what == "move":
            to = "global" if rec["layer"] == "project" else "project"
            back = rec["layer"]
            self.run_core(lambda: actions.move(self.ws, key, to), self.t("done.move", title=title, layer=self.t(to)),
                          undo=(self.t("undo.move", title=title), lambda _r: actions.move(self.ws, key, back)))
        elif what == "remove":
            def answered(yes: bool | None) -> None:
                if yes:
                    self.run_core(lambda: actions.remove(self.ws, key), self.t("done.remove", title=title))

            self.push_screen(localized(Confirm, self.t)(self.t("confirm_remove", title=title), self.t), answered)

    def _steer_learning(self, key: str) -> None:
        """The Learning view's keys: the person moves a rule, or switches learning; nothing else moves it."""
        from core import learning

        screen = self.screen
        if not isinstance(screen, LearningScreen):
            return
        if key == "switch":
            on = not bool((screen.report or {}).get("learning"))
            self.run_core(lambda: actions.set_learning(self.ws, on), self.t("learning_on" if on else "learning_off"))
            return
        selected = screen.selected_key() or ""
        if not selected.startswith("rule:"):
            self.notify(self.t("learn_select_rule"), severity="warning")
            return
        rid = selected[5:]
        self.run_core(lambda: learning.steer(self.ws, rid, key), lambda r: self.t("learn_done", state=self.t.word("learn", r["state"])))

    def _undo_last(self) -> None:
        """`u`: take back the person's last action in this panel, named first; never a change made
        elsewhere (the agent's edits have their own history, kept in the record's versions)."""
        if not self.undo_stack:
            self.notify(self.t("undo.nothing"), severity="warning")
            return
        label, reverse = self.undo_stack.pop()
        self.notify(label)
        self.run_core(reverse, self.t("undo.done"))

    def action_confirm_project(self) -> None:
        """`p` asks first: confirming a folder makes it a project root for good (`lingshu project forget` undoes it)."""
        folder = self.ws.cwd

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_core(lambda: actions.confirm_here(self.ws), self.t("done.confirmed", folder=Path(folder).name))

        self.push_screen(localized(Confirm, self.t)(self.t("confirm_project", folder=folder), self.t), answered)

    def action_memory_on(self) -> None:
        self.run_core(lambda: actions.set_memory(self.ws, True), self.t("done.on"))

    @work(thread=True, exclusive=False, group="act", exit_on_error=False)
    def run_core(self, call: Callable[[], dict[str, Any]], done: Any, undo: Any = None) -> None:
        """Locks and fsyncs happen here, off the UI thread; the answer comes back as a message.
        `undo` is (label, result -> call) for an action the person may take back with `u`."""
        try:
            result = call()
        except Exception as err:  # noqa: BLE001 - any failure becomes a notice, never a crash
            result = {"ok": False, "status": "invalid", "message": getattr(err, "message", str(err))}
        self.post_message(ActionFinished(result, done, undo))

    def on_action_finished(self, message: ActionFinished) -> None:
        r = message.result
        succeeded = r.get("ok") and r.get("status") in ("ok", None) and (r.get("committed", True) or r.get("dup_of"))
        if succeeded:
            self.notify(message.done(r) if callable(message.done) else message.done)
            if message.undo is not None:
                label, reverse = message.undo
                self.undo_stack.append((label, lambda r=r, reverse=reverse: reverse(r)))
        else:
            self.notify(self.t.answer(r), severity="warning", timeout=8)
        if r.get("status") == "ok" and isinstance(self.screen, DetailScreen) and r.get("tombstone"):
            self.pop_screen()
        self.ws = self._reopen()
        self._reload_soon()  # the store is read in the loader's thread, never here


def _all_ok(results: list[dict[str, Any]]) -> dict[str, Any]:
    bad = next((r for r in results if not r.get("ok")), None)
    return bad or {"ok": True, "status": "ok"}


def make_app(home: Path | str | None = None, project: Path | str | None = None, **kw: Any) -> LingshuApp:
    """The factory the command and the tests share."""
    return LingshuApp(home, project, **kw)


def run_panel(home: Path | str | None = None, project: Path | str | None = None) -> int:
    make_app(home, project).run()
    return 0
