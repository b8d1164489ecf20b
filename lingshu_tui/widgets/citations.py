"""This turn's citations: three fixed groups, each folded to one line; a citation opens in place."""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from rich.text import Text
from textual.widgets import Tree

from core.ledger import GROUPS
from core.views import Snapshot
from lingshu_tui.i18n import Labels
from lingshu_tui.widgets.palace import ago


class Citations(Tree[str]):
    def __init__(self, labels: Labels, clock: Callable[[], datetime], **kw: object) -> None:
        super().__init__("citations", **kw)  # type: ignore[arg-type]
        self.t = labels
        self.clock = clock
        self.show_root = False
        self.explain = False
        self.auto_expand = True

    def show(self, snap: Snapshot) -> None:
        opened = {n.data for n in self._all_nodes() if n.is_expanded and n.data}
        self.clear()
        now = self.clock()
        any_group = False
        for group in GROUPS:
            items = snap.citations.get(group, [])
            if not items:
                continue  # an empty group without a reason is not shown
            any_group = True
            node = self.root.add(Text.assemble((self.t(group), "bold"), f"  {len(items)}"), data=f"group:{group}",
                                 expand=f"group:{group}" in opened)
            for c in items:
                label = Text.assemble(c["title"], (f"  {self.t(c['layer'])} · {ago(c['updated'], now, self.t)}", "dim"))
                key = f"cite:{group}:{c['id']}"
                child = node.add(label, data=key, expand=key in opened)
                body = snap.excerpts.get(c["id"])
                text = self.t("removed") if body is None else (body if len(body) <= 160 else body[:159] + "…")
                child.add_leaf(Text(text, style="italic"))
        if not any_group or self.explain:
            why = snap.recall_why
            if why:
                self.root.add_leaf(Text(self.t("nothing_recalled", why=why), style="dim"))
            else:
                self.root.add_leaf(Text(self.t("no_turn"), style="dim"))
                self.root.add_leaf(Text(self.t("no_turn_hint"), style="dim"))
        self.root.expand()

    def _all_nodes(self):  # type: ignore[no-untyped-def]
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)
