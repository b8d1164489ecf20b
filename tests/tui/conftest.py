from __future__ import annotations

import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from core.workspace import open_workspace
from lingshu_tui.screenshots import SIZE, ready, scene_app


# What each demo app told the person with `notify` (its public API), oldest first.
_NOTICES: weakref.WeakKeyDictionary[Any, list[str]] = weakref.WeakKeyDictionary()


def notices(app: Any) -> list[str]:
    """The messages `app` (made by the `demo` fixture) has shown with `notify`."""
    return _NOTICES[app]


@pytest.fixture
def demo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A demo home (about 60 records, both layers, conflicts, suggestions, a turn) and its app factory."""

    class Demo:
        base = tmp_path
        home = tmp_path / "home"
        project = tmp_path / "shop-api"

        def app(self, lang: str = "en", memory_on: bool = True, **kw):  # type: ignore[no-untyped-def]
            app = scene_app(tmp_path, lang, memory_on)
            for k, v in kw.items():
                setattr(app, k, v)
            shown = _NOTICES.setdefault(app, [])
            notify = app.notify

            def record(message: Any, *args: Any, **kwargs: Any) -> None:
                shown.append(str(message))
                notify(message, *args, **kwargs)

            app.notify = record
            started = app.run_test

            @asynccontextmanager
            async def run_test(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
                # The first read of the store runs in a worker: tests start once the palace shows it.
                async with started(*args, **kwargs) as pilot:
                    await ready(pilot)
                    yield pilot

            app.run_test = run_test
            return app

        def ws(self):  # type: ignore[no-untyped-def]
            return open_workspace(self.home, self.project)

        def layer_bytes(self) -> bytes:
            ws = self.ws()
            return b"".join(ref.state_path.read_bytes() for ref in ws.layers())

    return Demo()


@pytest.fixture
def size() -> tuple[int, int]:
    return SIZE
