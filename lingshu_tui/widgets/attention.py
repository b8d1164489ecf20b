"""What waits for the person — pending conflicts and suggestions — as a coloured count, on every screen."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from core.views import Snapshot
from lingshu_tui.i18n import Labels


def attention(snap: Snapshot | None, t: Labels, *, memory: bool = False) -> Content:
    """The counts; with `memory`, led by the memory-off notice (the sub-screens' banner)."""
    if snap is None:
        return Content("")
    parts: list[tuple[str, str] | str] = []
    if memory and not snap.memory_on:
        parts += [(t("off_refused"), "bold $error"), "  "]
    counts = ((len(snap.conflicts), "conflicts"), (len(snap.suggestions), "suggestions"))
    for n, (count, label) in enumerate(counts):
        # theme colours, not fixed ones: a count stands out in any theme and stays quiet at zero
        parts += [" · "] if n else []
        parts.append((f"{t(label)} {count}", "bold $warning" if count else "$text-muted"))
    return Content.assemble(*parts)


class Attention(Static):
    """Drawn from the app's current snapshot when mounted and at every refresh (`LingshuApp._apply`)."""

    def __init__(self, labels: Labels, *, memory: bool = False, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.t = labels
        self.memory = memory

    def on_mount(self) -> None:
        self.show(getattr(self.app, "snap", None))

    def show(self, snap: Snapshot | None) -> None:
        self.update(attention(snap, self.t, memory=self.memory))
