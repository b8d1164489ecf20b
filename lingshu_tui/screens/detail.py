"""A record's detail: body, conditions, validity, replacement chain, revisions, links — never its id."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.containers import VerticalScroll
from textual.widgets import Static

from lingshu_tui.i18n import Labels
from lingshu_tui.screens.base import BACK, SHARED
from lingshu_tui.widgets.attention import Attention
from lingshu_tui.widgets.footer import Footer


def local_time(value: object) -> str:
    """A stored UTC time as the person's local time, like the header's clock."""
    text = str(value or "")
    try:
        when = datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return text[:16].replace("T", " ")
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def render_detail(rec: dict[str, Any], t: Labels) -> Text:
    out = Text()
    out.append(f"{rec.get('title', '')}\n", style="bold underline")
    status = rec.get("status", "active")
    out.append(f"{t('d.layer')}: {t(rec['layer'])} · {t('d.status')}: {t.word('status', str(status))}")
    if rec.get("reviewState") == "legacy_unreviewed":
        out.append(f" · {t('unreviewed')}", style="bold yellow")
    out.append("\n\n")

    def row(label: str, value: str) -> None:
        out.append(f"{label}: ", style="bold")
        out.append(f"{value}\n")

    out.append(f"{t('d.summary')}: ", style="bold")
    out.append(rec.get("summary") or "—")
    if rec.get("summaryStale"):
        out.append(f"  ⚠ {t('d.summary_stale')}", style="bold italic")
    out.append("\n")
    row(t("d.when"), rec.get("when") or t("d.always"))
    conds = rec.get("conditions") or []
    row(t("d.conditions"), ", ".join(f"{c['key']} = {c['value']}" for c in conds) or t("d.none"))
    validity = [t("d.from", start=local_time(rec.get("validFrom") or rec.get("created")))]
    if rec.get("validUntil"):
        validity.append(t("d.until", end=local_time(rec["validUntil"])))
    row(t("d.validity"), " ".join(validity))
    chain = rec.get("chain") or []
    row(t("d.chain"), "; ".join(f"{t.word('rel', rel.replace(' ', '_'))} «{title}»" for rel, title in chain) or t("d.none"))
    if rec.get("successor"):
        row(t("d.replaced"), t("d.replaced_by", title=rec["successor"]["title"], when=local_time(rec.get("validUntil")),
                               reason=t.word("reason", str(rec.get("supersedeReason") or "superseded"))))
    steps = ([t("d.open_older", title=rec["predecessor"]["title"])] if rec.get("predecessor") else []) + \
        ([t("d.open_newer", title=rec["successor"]["title"])] if rec.get("successor") else [])
    if steps:
        out.append("   " + " · ".join(steps) + "\n", style="dim")
    versions = rec.get("versions") or []
    revs = [t("d.current", rev=rec.get("revision", 1))] + [f"r{v.get('revision')} {local_time(v.get('time'))} {t.word('reason', str(v.get('reason', '')))} «{v.get('title', '')}»" for v in versions]
    if rec.get("versionsTrimmed"):
        revs.append(t("d.trimmed", n=rec["versionsTrimmed"]))
    row(t("d.revisions"), "; ".join(revs))
    links = rec.get("linkTitles") or []
    row(t("d.links"), "; ".join(f"{t.word('rel', rel)} «{title}»" for rel, title in links) or t("d.none"))
    out.append(f"\n{t('d.body')}\n", style="bold")
    if rec.get("bodyProblem"):
        out.append(rec["bodyProblem"], style="bold red")
    else:
        out.append(str(rec.get("body", "")))
    return out


class DetailScreen(Screen[None]):
    BINDINGS = [
        BACK,
        Binding("a", "app.act('archive')", "b.archive", tooltip="Archive this record (recoverable)"),
        Binding("r", "app.act('restore')", "b.restore", tooltip="Restore this archived record"),
        Binding("u", "app.act('undo')", "b.undo", tooltip="Take back your last action in this panel (it is named first)"),
        Binding("m", "app.act('move')", "b.move", tooltip="Move to the other layer"),
        Binding("x", "app.act('remove')", "b.remove", tooltip="Remove for good, after a confirmation"),
        Binding("v", "app.act('reviewed')", "b.reviewed", tooltip="Mark an imported record reviewed"),
        Binding("left_square_bracket", "chain('predecessor')", "b.older", tooltip="Open the note this one replaced (read-only)"),
        Binding("right_square_bracket", "chain('successor')", "b.newer", tooltip="Open the note that replaced this one"),
        *SHARED,
    ]

    def __init__(self, rid: str, labels: Labels) -> None:
        super().__init__()
        self.rid = rid
        self.t = labels
        self.record: dict[str, Any] | None = None
        self.loaded = False  # the lookup runs in a worker: until it answers, the screen says so

    def compose(self) -> ComposeResult:
        yield Attention(self.t, memory=True, classes="status-line")
        with VerticalScroll(id="detail-scroll"):
            yield Static(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self._draw()

    def show(self, rec: dict[str, Any] | None) -> None:
        self.record = rec
        self.loaded = True
        if self.is_mounted:
            self._draw()

    def action_chain(self, which: str) -> None:
        target = (self.record or {}).get(which)
        if target:
            self.app.open_record(target["id"])  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chain":
            return bool((self.record or {}).get(str(parameters[0])))
        return True

    def _draw(self) -> None:
        rec = self.record
        text = render_detail(rec, self.t) if rec else Text(self.t("removed") if self.loaded else self.t("loading"))
        self.query_one("#detail", Static).update(text)
