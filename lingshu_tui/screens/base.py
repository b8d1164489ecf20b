"""The keys every screen of the panel answers, so a key means one thing everywhere. Each screen
lists them after its own, so the footer shows what the screen is for first."""

from __future__ import annotations

from textual.binding import Binding

# Esc is back on every screen but the main one.
BACK = Binding("escape", "app.pop_screen", "b.back", tooltip="Back to the palace")
SHARED = [
    Binding("o", "app.memory_on", "b.memory_on", tooltip="Switch memory on for this project"),
    Binding("p", "app.confirm_project", "b.confirm", tooltip="Confirm the current folder as a project root (asks first)"),
    Binding("question_mark", "app.help", "b.help", tooltip="Show every key of this screen (again to hide)"),
    Binding("q", "app.quit", "b.quit", tooltip="Quit the panel"),
]
