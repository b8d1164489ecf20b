"""The archive view, the suggestions row list and the conflicts queue."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.views import Snapshot
from lingshu_tui.i18n import Labels
from lingshu_tui.screens.base import BACK, SHARED
from lingshu_tui.screens.detail import local_time
from lingshu_tui.widgets.attention import Attention
from lingshu_tui.widgets.footer import Footer
from lingshu_tui.widgets.palace import ago


class ListScreen(Screen[None]):
    """A titled list that redraws itself from each snapshot."""

    title_key = ""

    def __init__(self, labels: Labels) -> None:
        super().__init__()
        self.t = labels
        self.snap: Snapshot | None = None

    def show(self, snap: Snapshot) -> None:
        self.snap = snap
        if self.is_mounted:
            self.draw(snap)

    def on_mount(self) -> None:
        if self.snap is not None:
            self.draw(self.snap)

    def draw(self, snap: Snapshot) -> None:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield Attention(self.t, memory=True, classes="status-line")
        yield Static(id="list-title", classes="screen-title")
        yield OptionList(id="rows")
        yield Footer()

    enter_action = ""

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a row: the list's own Enter would otherwise swallow the key."""
        event.stop()
        if self.enter_action:
            await self.app.run_action(self.enter_action)

    def selected_key(self) -> str | None:
        opt = self.query_one("#rows", OptionList).highlighted_option
        return opt.id if opt is not None else None

    def fill(self, title: str, rows: list[tuple[str, Text | str]], empty: str) -> None:
        self.query_one("#list-title", Static).update(Text(title, style="bold"))
        lst = self.query_one("#rows", OptionList)
        keep = self.selected_key()
        lst.clear_options()
        if not rows:
            lst.add_option(Option(Text(empty, style="dim"), id="empty", disabled=True))
            return
        lst.add_options([Option(label, id=key) for key, label in rows])
        ids = [key for key, _ in rows]
        actionable = [i for i, key in enumerate(ids) if not key.startswith("kept:")]
        lst.highlighted = ids.index(keep) if keep in ids else (actionable[0] if actionable else 0)


class ArchiveScreen(ListScreen):
    enter_action = "act('open')"
    BINDINGS = [
        BACK,
        Binding("r", "app.act('restore')", "b.restore", tooltip="Restore the selected record"),
        Binding("x", "app.act('remove')", "b.remove", tooltip="Remove for good, after a confirmation"),
        Binding("u", "app.act('undo')", "b.undo", tooltip="Take back your last action in this panel (it is named first)"),
        Binding("enter", "app.act('open')", "b.open", tooltip="Open the record's detail", show=False),
        Binding("l", "layer", "b.layer", tooltip="Show both layers, the project layer only, or the global layer only"),
        *SHARED,
    ]
    LAYERS = ("all", "project", "global")

    def __init__(self, labels: Labels) -> None:
        super().__init__(labels)
        self.shown_layer = "all"

    def action_layer(self) -> None:
        self.shown_layer = self.LAYERS[(self.LAYERS.index(self.shown_layer) + 1) % len(self.LAYERS)]
        if self.snap is not None:
            self.draw(self.snap)

    def draw(self, snap: Snapshot) -> None:
        now = self.app.clock()  # type: ignore[attr-defined]  # the panel's clock, like the palace
        shown = [e for e in snap.archived if self.shown_layer in ("all", e.layer)]
        rows = [(f"rec:{e.id}", Text.assemble(
                    e.title, (f"  {self.t(e.layer)} · {self.t('room.' + e.kind)}", "dim"),
                    (f"  {self.t('archived.' + (e.archive_reason or 'unknown'))} · {ago(e.archived_at or e.updated, now, self.t)}", "italic")))
                for e in shown]
        count = f"{len(shown)}" if self.shown_layer == "all" else f"{len(shown)}/{len(snap.archived)}"
        which = self.t("layer_filter", layer=self.t("layer." + self.shown_layer))
        self.fill(f"{self.t('archived')} {count} · {which}", rows, self.t("no_archived"))


class SuggestionsScreen(ListScreen):
    enter_action = "act('keep')"
    BINDINGS = [
        BACK,
        Binding("k,enter", "app.act('keep')", "b.keep", tooltip="Keep (保留): write it now"),
        Binding("i", "app.act('ignore')", "b.ignore", tooltip="Ignore: drop the proposal"),
        Binding("u", "app.act('undo')", "b.undo", tooltip="Take back your last action in this panel (it is named first)"),
        *SHARED,
    ]

    def __init__(self, labels: Labels) -> None:
        super().__init__(labels)
        self.kept: dict[str, tuple[int, str]] = {}

    def draw(self, snap: Snapshot) -> None:
        rows: list[tuple[str, Text | str]] = []
        now = self.app.clock()  # type: ignore[attr-defined]  # the panel's clock, like the palace
        room = self.query_one("#rows", OptionList).content_size.width
        width = max(30, room - 2) if room else 118  # 118 before the first layout
        for s in snap.suggestions:
            proposal = s.get("proposal") or {}
            where = (f"  {self.t(s['layerKind'])} · {self.t('room.' + str(proposal.get('kind', 'note')))} · "
                     f"{self.t('from.' + str(s.get('origin', 'agent')))} · {ago(str(s.get('created', '')), now, self.t)}")
            preview = Text(" ".join(str(proposal.get("body", "")).split()), style="dim")
            preview.truncate(width - 4, overflow="ellipsis")
            rows.append((f"sug:{s['layerKind']}:{s['id']}",
                         Text.assemble(s.get("title", ""), (where, "dim"), ("   " + self.t("keep_hint"), "dim green"), "\n    ", preview)))
        for key, (position, title) in sorted(self.kept.items(), key=lambda kv: kv[1][0]):
            # a kept row stays where it was and turns into `memory · kept`
            rows.insert(min(position, len(rows)), (key, Text.assemble(title, ("  " + self.t("kept"), "bold green"))))
        self.fill(f"{self.t('suggestions')} {len(snap.suggestions)}", rows, self.t("no_suggestions"))


class ConflictsScreen(Screen[None]):
    """One queued proposal at a time, its candidates side by side."""

    BINDINGS = [
        BACK,
        Binding("n", "app.act('conflict_new')", "b.new", tooltip="Save the proposal as a new record"),
        Binding("1", "app.act('conflict_replace1')", "b.replace1", tooltip="Write the proposal over candidate 1"),
        Binding("2", "app.act('conflict_replace2')", "b.replace2", tooltip="Write the proposal over candidate 2"),
        Binding("d", "app.act('conflict_discard')", "b.discard", tooltip="Drop the proposal"),
        Binding("u", "app.act('undo')", "b.undo", tooltip="Take back your last action in this panel (it is named first)"),
        Binding("right,]", "step(1)", "b.next", tooltip="Next proposal in the queue"),
        Binding("left,[", "step(-1)", "b.prev", tooltip="Previous proposal in the queue"),
        *SHARED,
    ]

    def __init__(self, labels: Labels) -> None:
        super().__init__()
        self.t = labels
        self.index = 0
        self.items: list[dict[str, Any]] = []
        self.drawn: Any = None
        self.moved = False
        self.decided: tuple[str, str] | None = None  # the last proposal decided from this screen

    def compose(self) -> ComposeResult:
        yield Attention(self.t, memory=True, classes="status-line")
        yield Static(id="conflict-title", classes="screen-title")
        with Horizontal(id="sides"):
            # each side scrolls on its own: a long body stays readable in full
            for name in ("proposal", "1", "2"):
                with VerticalScroll(id=f"scroll-{name}", classes="side"):
                    yield Static(id=f"side-{name}")
        yield Footer()

    def current(self) -> dict[str, Any] | None:
        return self.items[self.index] if self.items else None

    def action_step(self, step: int) -> None:
        if self.items:
            self.index = (self.index + step) % len(self.items)
            self.moved = False
            self._draw()
            self.app.bindings_may_change()  # type: ignore[attr-defined]  # "2" exists only with two candidates

    @staticmethod
    def key_of(item: dict[str, Any] | None) -> tuple[str, str] | None:
        return (item.get("layerKind", ""), item.get("key", "")) if item else None

    def show(self, snap: Snapshot) -> None:
        """New items arriving keep the cursor on the proposal the person is reading (by its key)."""
        current = self.key_of(self.current())
        self.items = snap.conflicts
        keys = [self.key_of(i) for i in self.items]
        self.index = keys.index(current) if current in keys else min(self.index, max(0, len(self.items) - 1))
        if current is not None and self.key_of(self.current()) != current and current != self.decided:
            # The proposal being read went away (not by a decision made here): the next decision
            # key only shows the proposal now under the cursor.
            self.moved = True
        if self.is_mounted:
            self._draw()

    def still_shown(self, item: dict[str, Any]) -> bool:
        """Whether `item` is the proposal the person was reading, unchanged since it was drawn."""
        return not self.moved and self.drawn == (self.key_of(item), item.get("proposal"), item.get("candidates"))

    def redraw(self) -> None:
        self.moved = False
        self._draw()

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        item = self.current()
        self.drawn = (self.key_of(item), item.get("proposal"), item.get("candidates")) if item else None
        title = self.query_one("#conflict-title", Static)
        sides = [self.query_one(f"#side-{n}", Static) for n in ("proposal", "1", "2")]
        boxes = [self.query_one(f"#scroll-{n}") for n in ("proposal", "1", "2")]
        if item is None:
            title.update(Text(f"{self.t('conflicts')} 0 — {self.t('no_conflicts')}", style="bold"))
            for box in boxes:
                box.display = False  # one line says the queue is empty, not empty boxes
            return
        title.update(Text(f"{self.t('conflicts')} {len(self.items)} · {self.t('item', n=self.index + 1, total=len(self.items))}", style="bold"))
        p = item.get("proposal", {})
        cands = item.get("candidates", [])
        for box in boxes:
            box.display = True
        proposal_body = str(p.get("body", ""))
        first_body = str(cands[0].get("body", "")) if cands else ""
        proposal_conds = ", ".join(f"{x['key']} = {x['value']}" for x in p.get("conditions", [])) or self.t("d.none")
        proposal_where = (f"{self.t(p.get('scope') or item.get('layerKind', 'project'))} · {self.t('room.' + str(p.get('kind', 'note')))}"
                          f" · {local_time(item.get('time'))}")
        sides[0].update(Text.assemble((self.t("proposal") + "\n", "bold"), (p.get("title", "") + "\n", "bold"),
                                      (proposal_where + "\n", "dim"), f"{self.t('d.conditions')}: {proposal_conds}\n\n",
                                      _marked(proposal_body, first_body)))
        for n, side in enumerate(sides[1:]):
            if n >= len(cands):
                boxes[n + 1].display = False
                continue
            c = cands[n]
            conds = ", ".join(f"{x['key']} = {x['value']}" for x in c.get("conditions", [])) or self.t("d.none")
            where = f"{self.t(c.get('layer', 'project'))} · {self.t('room.' + str(c.get('kind', 'note')))} · {local_time(c.get('updated'))}"
            side.update(Text.assemble((self.t("candidate", n=n + 1) + "\n", "bold"), (c.get("title", "") + "\n", "bold"),
                                      (where + "\n", "dim"), f"{self.t('d.conditions')}: {conds}\n",
                                      (f"~ {self.t(c.get('reason', 'similar_title'))}\n", "italic"),
                                      self.t("removed") if c.get("gone") else _marked(str(c.get("body", "")), proposal_body)))


def _marked(text: str, other: str) -> Text:
    """`text` with the words `other` does not have highlighted (a word diff, difflib)."""
    import difflib

    words, theirs = text.split(" "), other.split(" ")
    out = Text()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=words, b=theirs, autojunk=False).get_opcodes():
        chunk = " ".join(words[i1:i2])
        if not chunk:
            continue
        if out.plain:
            out.append(" ")
        out.append(chunk, style="bold reverse" if tag in ("replace", "delete") else "")
    return out


class LearningScreen(ListScreen):
    """Self-evolution (issue 17): what the person said, the candidates, the learned rules with their
    state, and the organizer's receipts. Every change waits for the person's key."""

    BINDINGS = [
        BACK,
        Binding("t", "app.act('learn_approve')", "b.learn_approve", tooltip="Approve the selected rule for a trial"),
        Binding("A", "app.act('learn_promote')", "b.learn_promote", tooltip="Make the selected trial rule active now"),
        Binding("z", "app.act('learn_pause')", "b.learn_pause", tooltip="Pause the selected rule"),
        Binding("d", "app.act('learn_reject')", "b.learn_reject", tooltip="Reject the selected rule (it is archived)"),
        Binding("E", "app.act('learn_switch')", "b.learn_switch", tooltip="Switch learning on or off for this project"),
        *SHARED,
    ]

    def __init__(self, labels: Labels) -> None:
        super().__init__(labels)
        self.report: dict[str, Any] | None = None

    def show_learning(self, report: dict[str, Any] | None) -> None:
        self.report = report
        if self.is_mounted and self.snap is not None:
            self.draw(self.snap)

    def draw(self, snap: Snapshot) -> None:
        t, report = self.t, self.report
        if report is None:
            self.fill(t("learning"), [], t("loading"))
            return
        rows: list[tuple[str, Text | str]] = []
        for rule in report["rules"]:
            state = t.word("learn", str(rule["state"]))
            extra = f" · {t('learn_until', when=local_time(rule['trialUntil']))}" if rule["state"] == "trial" and rule.get("trialUntil") else ""
            extra += f" · {rule['pausedReason']}" if rule["state"] == "paused" and rule.get("pausedReason") else ""
            said = "; ".join(f"«{e.get('text', '')}»" for e in rule["evidence"][:2])
            rows.append((f"rule:{rule['id']}", Text.assemble((f"[{state}] ", "bold"), rule["text"], (f"{extra}\n    {t('learn_said')}: {said}", "dim"))))
        for cand in report["candidates"]:
            if cand["state"] == "pending":
                said = "; ".join(f"«{e.get('text', '')}»" for e in cand["evidence"][:2])
                rows.append((f"cand:{cand['id']}", Text.assemble((f"[{t('learn_candidate')}] ", "bold"), cand["text"],
                                                                  (f"\n    {t('learn_said')}: {said}", "dim"))))
        for receipt in reversed(report["receipts"]):
            outcome = t("learn_receipt_ok", n=len(receipt.get("committed", []))) if receipt["ok"] else t("learn_receipt_failed", why=receipt["reason"])
            rows.append((f"rcpt:{receipt['id']}", Text.assemble((f"[{t('learn_receipt')}] ", "dim"), f"{receipt.get('organizer', '')}: {outcome}")))
        on = t("learning_on") if report["learning"] else t("learning_off")
        self.fill(f"{t('learning')} · {on} · {t('learn_trial', turns=report['trialTurns'], days=report['trialDays'])}", rows, t("learn_empty"))
