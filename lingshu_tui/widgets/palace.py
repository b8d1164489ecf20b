"""The memory palace: four fixed rooms, one open at a time, 24 exhibits a page."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core.views import PAGE_SIZE, ROOMS, Exhibit, Snapshot
from lingshu_tui.i18n import Labels


def ago(iso: str, now: datetime, t: Labels) -> str:
    try:
        then = datetime.strptime(iso[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return ""
    secs = max(0, int((now.astimezone(timezone.utc) - then).total_seconds()))
    if secs < 60:
        return t("ago.now")
    if secs < 3600:
        return t("ago.m", n=secs // 60)
    if secs < 86400:
        return t("ago.h", n=secs // 3600)
    return t("ago.d", n=secs // 86400)


class Palace(OptionList):
    """Room headers and the open room's exhibits, as one list. Option ids are internal keys; the
    screen shows titles only."""

    def __init__(self, labels: Labels, clock: Callable[[], datetime], **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.t = labels
        self.clock = clock
        self.open_room: str | None = None
        self.pages: dict[str, int] = {room: 0 for room in ROOMS}
        self.snapshot: Snapshot | None = None
        self.filter_text = ""
        self._first = True

    def on_mount(self) -> None:
        if self.snapshot is None:  # the first read runs in a worker
            self.add_option(Option(Text(self.t("loading"), style="dim"), disabled=True))

    def show(self, snap: Snapshot) -> None:
        """Rebuild from a snapshot, keeping the open room and the selection by identity: the
        selected record stays selected wherever new records push it (its page follows it); if it
        left the room, its neighbour takes the selection, never the first header."""
        keep_id = self.highlighted_option.id if self.highlighted_option is not None else None
        keep_scroll = self.scroll_y
        previous, self.snapshot = self.snapshot, snap
        if self._first:
            self._first = False
            self.open_room = next((r for r in ROOMS if snap.rooms[r]), None)
        target = keep_id
        if keep_id and keep_id.startswith("rec:") and self.open_room:
            target = self._follow(keep_id[4:], previous)
        self._render_options()
        if target is None:
            if self.highlighted is None and self.option_count:
                self.highlighted = 0
            self.scroll_to(y=keep_scroll, animate=False)
            return
        try:
            self.highlighted = self.get_option_index(target)
        except Exception:  # noqa: BLE001 - an option id that no longer exists (its room closed)
            self.highlighted = 0 if self.option_count else None
        self.scroll_to(y=keep_scroll, animate=False)
        self.scroll_to_highlight()

    def _follow(self, rid: str, previous: Snapshot | None) -> str:
        """The option to select for record `rid` in the open room: itself (on whatever page it is
        now), else the record now at its place, else the room's header."""
        assert self.snapshot is not None and self.open_room is not None
        room = self.open_room
        ids = [e.id for e in self.items_of(room)]
        if rid in ids:
            self.pages[room] = ids.index(rid) // PAGE_SIZE
            return f"rec:{rid}"
        before = [e.id for e in previous.rooms[room] if e.id in ids or not self.filter_text] if previous else []
        if not ids:
            return f"room:{room}"
        place = min(before.index(rid) if rid in before else 0, len(ids) - 1)
        self.pages[room] = place // PAGE_SIZE
        return f"rec:{ids[place]}"

    def items_of(self, room: str) -> list[Exhibit]:
        """The room's exhibits the filter lets through (all of them without a filter)."""
        items = self.snapshot.rooms[room] if self.snapshot else []
        if not self.filter_text:
            return items
        words = self.filter_text.casefold().split()
        return [e for e in items if all(w in e.text for w in words)]

    def set_filter(self, text: str) -> None:
        """Narrow every room to the exhibits holding all the words typed (title, body, conditions)."""
        self.filter_text = text.strip()
        for room in self.pages:
            self.pages[room] = 0
        if self.snapshot is not None:
            if self.filter_text and (self.open_room is None or not self.items_of(self.open_room)):
                self.open_room = next((r for r in ROOMS if self.items_of(r)), self.open_room)
            self._render_options()
            self.highlighted = next((i for i, o in enumerate(self._options) if o.id and o.id.startswith("rec:")), 0) if self.option_count else None

    def pages_of(self, room: str) -> int:
        n = len(self.items_of(room)) if self.snapshot else 0
        return max(1, (n + PAGE_SIZE - 1) // PAGE_SIZE)

    def _render_options(self) -> None:
        assert self.snapshot is not None
        now = self.clock()
        self.clear_options()
        options: list[Option] = []
        for room in ROOMS:
            items = self.items_of(room)
            is_open = room == self.open_room
            page = min(self.pages[room], self.pages_of(room) - 1)
            self.pages[room] = page
            line = Text()
            line.append("▾ " if is_open else "▸ ", style="bold")
            name = Text(self.t("room." + room), style="bold")
            name.truncate(min(28, max(8, self._width() - 20)), overflow="ellipsis")
            line.append_text(name)
            # padded by display cells, not characters: a Chinese room name is two cells a character
            line.append(" " * max(1, min(28, max(8, self._width() - 20)) - name.cell_len))
            line.append(f"{len(items):>4}" if not self.filter_text else f"{len(items):>4}/{len(self.snapshot.rooms[room])}")
            if not items:
                line.append("   " + self.t("no_match" if self.filter_text else "empty"), style="dim")
            elif is_open:
                line.append("  " + self.t("page", page=page + 1, pages=self.pages_of(room)), style="dim")
            line.truncate(self._width(), overflow="ellipsis")
            options.append(Option(line, id=f"room:{room}"))
            if is_open:
                for ex in items[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]:
                    options.append(Option(self._exhibit_line(ex, now), id=f"rec:{ex.id}"))
        if not any(self.snapshot.rooms.values()):
            options.append(Option(Text(""), disabled=True))
            options += [Option(Text(self.t(key), style="dim"), disabled=True) for key in ("empty_store", "empty_store_hint")]
        self.add_options(options)

    def _width(self) -> int:
        """The cells a row may take: the list's width less its border and scrollbar (120 before layout)."""
        width = self.content_size.width or self.size.width
        return max(30, width - 2) if width else 118

    def _exhibit_line(self, ex: Exhibit, now: datetime) -> Text:
        """One row sized to the list: the title takes what the layer and age leave, by display width."""
        meta = Text(f"{self.t(ex.layer)} · {ago(ex.updated, now, self.t)}", style="dim")
        if ex.unreviewed:
            meta.append(f" · {self.t('unreviewed')}", style="bold yellow")
        width = self._width()
        title = Text(ex.title)
        title.truncate(max(10, width - 4 - 2 - meta.cell_len), overflow="ellipsis")
        line = Text("    ")
        line.append_text(title)
        line.append(" " * max(2, width - line.cell_len - meta.cell_len))
        line.append_text(meta)
        line.truncate(width, overflow="ellipsis")
        return line

    def on_resize(self) -> None:
        if self.snapshot is not None:
            self.show(self.snapshot)

    def toggle(self, room: str) -> None:
        self.open_room = None if self.open_room == room else room
        self._render_options()
        self.highlighted = self.get_option_index(f"room:{room}")

    def turn_page(self, step: int) -> None:
        if not self.open_room:
            return
        room = self.open_room
        self.pages[room] = max(0, min(self.pages_of(room) - 1, self.pages[room] + step))
        self._render_options()
        self.highlighted = self.get_option_index(f"room:{room}")

    def jump(self, page: int) -> None:
        """Page `page` of the open room (from 0; -1 is the last)."""
        if not self.open_room:
            return
        room = self.open_room
        self.pages[room] = self.pages_of(room) - 1 if page < 0 else min(page, self.pages_of(room) - 1)
        self._render_options()
        self.highlighted = self.get_option_index(f"room:{room}")

    def selected_exhibit(self) -> Exhibit | None:
        opt = self.highlighted_option
        if opt is None or not opt.id or not opt.id.startswith("rec:") or not self.snapshot:
            return None
        rid = opt.id[4:]
        return next((e for room in self.snapshot.rooms.values() for e in room if e.id == rid), None)
