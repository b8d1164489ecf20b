"""The exception tree of the core. Every error carries a status from SPEC §10 and a message
that says what happened and the next step, so each face can show it as it is."""

from __future__ import annotations

from .statuses import Status


class LingshuError(Exception):
    """Base of every error the core raises on purpose."""

    status: Status = "invalid"

    def __init__(self, message: str, **extra: object) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class InvalidInput(LingshuError):
    """Bad input from the caller: wrong type, unknown key, over a limit."""

    status = "invalid"


class Busy(LingshuError):
    """Another process holds the layer's lock for longer than the wait allows (SPEC §3.1)."""

    status: Status = "busy"


class LayerBroken(LingshuError):
    """Both `state.json` and `state.prev.json` are unreadable: the layer takes no writes (SPEC §3.4)."""

    status = "invalid"


class StoreWriteFailed(LingshuError):
    """The disk refused a write (read-only home, full disk, failed fsync); the old generation stands."""

    status = "invalid"


class NeedsContext(LingshuError):
    """The turn cannot be checked: unknown, expired or foreign context, or no confirmed project."""

    status: Status = "needs_context"


class ColdBodyError(LingshuError):
    """An archived body is missing or fails its checksum (SPEC §3.4)."""

    def __init__(self, status: Status, message: str) -> None:
        super().__init__(message)
        self.status = status
