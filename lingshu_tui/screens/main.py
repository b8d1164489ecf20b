"""The main screen: header, the palace, this turn's citations, the conflicts and suggestions boxes."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from lingshu_tui.i18n import Labels
from lingshu_tui.screens.base import SHARED
from lingshu_tui.widgets.attention import Attention
from lingshu_tui.widgets.citations import Citations
from lingshu_tui.widgets.footer import Footer
from lingshu_tui.widgets.palace import Palace


class MainScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "app.open", "b.open", tooltip="Open a room, or an exhibit's detail"),
        Binding("a", "app.act('archive')", "b.archive", tooltip="Archive the selected record (recoverable)"),
        Binding("m", "app.act('move')", "b.move", tooltip="Move the selected record to the other layer"),
        Binding("u", "app.act('undo')", "b.undo", tooltip="Take back your last action in this panel (it is named first)"),
        Binding("x", "app.act('remove')", "b.remove", tooltip="Remove the selected record for good, after a confirmation"),
        Binding("v", "app.act('reviewed')", "b.reviewed", tooltip="Mark the selected imported record reviewed", show=False),
        Binding("V", "app.act('room_reviewed')", "b.room_reviewed", tooltip="Mark every unreviewed record of the open room reviewed", show=False),
        Binding("c", "app.conflicts", "b.conflicts", tooltip="Decide the conflicts queue"),
        Binding("s", "app.suggestions", "b.suggestions", tooltip="Keep or ignore the agent's suggestions"),
        Binding("h", "app.archive_view", "b.archived", tooltip="Browse archived records and restore them"),
        Binding("L", "app.learning_view", "b.learning", tooltip="What was learned from your corrections (self-evolution)"),
        Binding("]", "app.page(1)", "b.next_page", tooltip="Next page of the open room"),
        Binding("[", "app.page(-1)", "b.prev_page", tooltip="Previous page of the open room"),
        Binding("g", "app.page_to(0)", "b.first_page", tooltip="First page of the open room", show=False),
        Binding("G", "app.page_to(-1)", "b.last_page", tooltip="Last page of the open room", show=False),
        Binding("number_sign", "go_page", "b.go_page", tooltip="Type a page number of the open room (Enter goes)", show=False),
        Binding("e", "app.explain", "b.explain", tooltip="Say why nothing was recalled this turn", show=False),
        Binding("slash", "filter", "b.filter", tooltip="Filter every room as you type (Esc clears)"),
        Binding("escape", "app.close_help", "b.back", show=False, tooltip="Close the key help"),
        *SHARED,
    ]

    def __init__(self, labels: Labels, clock: Callable[[], datetime]) -> None:
        super().__init__()
        self.t = labels
        self.clock = clock

    def compose(self) -> ComposeResult:
        with Horizontal(id="header"):
            yield Static(id="where")
            yield Attention(self.t, id="attention")
            yield Static(id="refreshed")
        yield Static(id="banner")
        filter_line = Input(placeholder=self.t("filter_hint"), id="filter")
        filter_line.display = False
        yield filter_line
        page_line = Input(id="page-line", type="integer")
        page_line.display = False
        yield page_line
        with Horizontal(id="main"):
            palace = Palace(self.t, self.clock, id="palace")
            palace.border_title = self.t("palace")
            yield palace
            with Vertical(id="right"):
                citations = Citations(self.t, self.clock, id="citations")
                citations.border_title = self.t("this_turn")
                yield citations
                yield Static(id="conflicts-box", classes="side-box")
                yield Static(id="suggestions-box", classes="side-box")
        yield Footer()

    def on_mount(self) -> None:
        self.app.first_show(self)  # type: ignore[attr-defined]
        self._focus_palace()

    def _focus_palace(self) -> None:
        # On a busy machine the mount event can arrive before the children are in place: try again
        # after the next refresh rather than fail.
        found = self.query(Palace)
        if found:
            found.first().focus()
        else:
            self.call_after_refresh(self._focus_palace)

    def action_filter(self) -> None:
        line = self.query_one("#filter", Input)
        line.display = True
        line.focus()

    def action_go_page(self) -> None:
        palace = self.query_one(Palace)
        if palace.open_room is None:
            return
        line = self.query_one("#page-line", Input)
        line.placeholder = self.t("page_prompt", pages=palace.pages_of(palace.open_room))
        line.value = ""
        line.display = True
        line.focus()

    def _close_page_line(self) -> None:
        line = self.query_one("#page-line", Input)
        line.display = False
        self.query_one(Palace).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.query_one(Palace).set_filter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "page-line":
            palace = self.query_one(Palace)
            pages = palace.pages_of(palace.open_room) if palace.open_room else 1
            wanted = int(event.value) if event.value.strip().lstrip("-").isdigit() else 0
            if not 1 <= wanted <= pages:
                self.notify(self.t("page_bad", page=event.value.strip() or "?", pages=pages), severity="warning")
                return
            palace.jump(wanted - 1)
            self._close_page_line()
            return
        if event.input.id == "filter":
            self.query_one(Palace).focus()  # keep the filter, go back to the rooms

    def on_key(self, event: object) -> None:
        if getattr(event, "key", "") == "escape" and self.query_one("#page-line", Input).has_focus:
            event.stop()  # type: ignore[attr-defined]
            self._close_page_line()
            return
        line = self.query_one("#filter", Input)
        if getattr(event, "key", "") == "escape" and line.has_focus:
            event.stop()  # type: ignore[attr-defined]
            line.value = ""
            line.display = False
            self.query_one(Palace).set_filter("")
            self.query_one(Palace).focus()
