"""Messages the panel passes around, named in the past tense."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from core.views import Snapshot


class StoreChanged(Message):
    """Files under the memory home changed; a burst of them becomes one refresh."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StoreChanged)


class SnapshotLoaded(Message):
    """A fresh read of the store, made in a worker thread."""

    def __init__(self, snapshot: Snapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SnapshotLoaded)  # only the newest read matters


class ActionFinished(Message):
    """A person's action ran in a worker: its core result and the line to tell them."""

    def __init__(self, result: dict[str, Any], done: Any, undo: Any = None) -> None:
        super().__init__()
        self.result = result
        self.done = done
        self.undo = undo  # (label, call) that reverses it, when it succeeded and can be reversed


class DetailLoaded(Message):
    """A record's detail, looked up in a worker thread (None: it is gone or no longer shown)."""

    def __init__(self, rid: str, record: dict[str, Any] | None) -> None:
        super().__init__()
        self.rid = rid
        self.record = record


class LearningLoaded(Message):
    """The Learning view's report (`core.learning.status`), read in a worker thread."""

    def __init__(self, report: dict[str, Any] | None) -> None:
        super().__init__()
        self.report = report
