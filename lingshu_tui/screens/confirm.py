"""A yes/no question before something that cannot be undone."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from lingshu_tui.i18n import Labels


class Confirm(ModalScreen[bool]):
    BINDINGS = [Binding("y", "answer(True)", "b.yes", tooltip="Yes, go ahead"), Binding("n,escape", "answer(False)", "b.no", tooltip="No, leave things as they are")]

    def __init__(self, question: str, labels: Labels) -> None:
        super().__init__()
        self.question = question
        self.t = labels

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="question")
            with Horizontal(id="answers"):
                yield Button(self.t("yes"), id="yes", variant="error")
                yield Button(self.t("no"), id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # Enter on a destructive question keeps the record

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
