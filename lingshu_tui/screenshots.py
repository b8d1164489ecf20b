"""The panel's scenes, shared by the snapshot tests and the README images.

`python -m lingshu_tui.screenshots [DIR]` writes one SVG per scene into DIR (default: screenshots/).
The demo memory is built fresh and its times are shifted to a fixed moment, so every render is
the same from run to run."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from core.durable import with_checksum
from lingshu_tui.app import LingshuApp, make_app
from lingshu_tui.demo import build_demo

BASE = datetime(2025, 6, 2, 9, 0, 0, tzinfo=timezone.utc)
CLOCK = BASE + timedelta(hours=2, minutes=2)
SIZE = (130, 36)
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def _shift(value: Any, delta: timedelta) -> Any:
    if isinstance(value, dict):
        return {k: _shift(v, delta) for k, v in value.items()}
    if isinstance(value, list):
        return [_shift(v, delta) for v in value]
    if isinstance(value, str) and _ISO.match(value):
        t = datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc) + delta
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return value


def freeze_times(home: Path, started: datetime) -> None:
    """Move every time in the home so that the build started at BASE (order kept, checksums redone)."""
    delta = BASE - started
    for path in home.rglob("*.json"):
        if path.name.startswith("state.prev"):
            path.unlink()
            continue
        data = _shift(json.loads(path.read_text(encoding="utf-8")), delta)
        if isinstance(data, dict) and "checksum" in data:
            data = with_checksum(data)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def scene_app(base: Path, lang: str = "en", memory_on: bool = True) -> LingshuApp:
    home, project = base / "home", base / "shop-api"
    if not home.exists():
        started = datetime.now(timezone.utc).replace(microsecond=0)
        build_demo(home, project)
        freeze_times(home, started)
    if not memory_on:
        from core.settings import set_project_setting
        from core.workspace import open_workspace

        set_project_setting(home, open_workspace(home, project).project_id or "", "enabled", False)
    return make_app(home, project, lang=lang, clock=lambda: CLOCK, watch=False)


async def ready(pilot: Any) -> Any:
    """The main screen, once it is mounted and shows the store."""
    while getattr(pilot.app, "main", None) is None or pilot.app.snap is None:
        await pilot.pause(0.01)
    return pilot.app.main


async def _settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_room_page_2(pilot: Any) -> None:
    palace = (await ready(pilot)).query_one("#palace")
    palace.toggle("method")
    palace.turn_page(1)
    await pilot.pause()


async def open_detail(pilot: Any) -> None:
    await ready(pilot)
    await pilot.press("down", "down", "enter")
    await pilot.pause()


async def open_citations(pilot: Any) -> None:
    tree = (await ready(pilot)).query_one("#citations")
    hits = tree.root.children[0]
    hits.expand()
    hits.children[0].expand()
    await pilot.pause()


async def open_conflicts(pilot: Any) -> None:
    await ready(pilot)
    await pilot.press("c")
    await pilot.pause()


async def keep_a_suggestion(pilot: Any) -> None:
    await ready(pilot)
    await pilot.press("s", "k")
    await _settle(pilot)


async def filter_rooms(pilot: Any) -> None:
    await ready(pilot)
    await pilot.press("slash", *"test")
    await pilot.pause()


async def open_replaced_detail_zh(pilot: Any) -> None:
    """The detail of a note that replaced another, in Chinese: its chain, dates and keys."""
    palace = (await ready(pilot)).query_one("#palace")
    palace.toggle("method")
    await pilot.pause()
    target = next(i for i, o in enumerate(palace.options) if "make release" in str(o.prompt))
    palace.highlighted = target
    await pilot.press("enter")
    await _settle(pilot)


async def open_learning(pilot: Any) -> None:
    """The Learning view with what the hook noted: a rule waiting for approval, a candidate, a receipt."""
    from core import learning
    from core.settings import set_project_setting
    from core.workspace import open_workspace

    await ready(pilot)
    app = pilot.app
    set_project_setting(app.ws.home, app.ws.project_id, "experimental", True)
    ws = open_workspace(app.ws.home, app.ws.project_root)
    for said in ("No, use pnpm here, not npm.", "Always run make lint before pushing."):
        learning.note_feedback(ws, {"sessionId": "demo"}, said)
    learning.organize(ws)
    learning.note_feedback(ws, {"sessionId": "demo"}, "以后不要直接推 main。")
    learning.fold_feedback(ws, ws.project_layer)
    await pilot.press("L")
    await _settle(pilot)


async def nothing(pilot: Any) -> None:
    await ready(pilot)
    await pilot.pause()


SCENES: dict[str, tuple[str, bool, Callable[[Any], Awaitable[None]]]] = {
    "palace": ("en", True, nothing),
    "room-page-2": ("en", True, open_room_page_2),
    "detail": ("en", True, open_detail),
    "citations-open": ("en", True, open_citations),
    "conflicts": ("en", True, open_conflicts),
    "suggestions-kept": ("en", True, keep_a_suggestion),
    "memory-off": ("en", False, nothing),
    "palace-zh": ("zh", True, nothing),
    "filter": ("en", True, filter_rooms),
    "detail-zh": ("zh", True, open_replaced_detail_zh),
    "learning": ("en", True, open_learning),
}


async def render(name: str, out: Path) -> Path:
    lang, on, before = SCENES[name]
    with tempfile.TemporaryDirectory() as tmp:
        app = scene_app(Path(tmp), lang, on)
        async with app.run_test(size=SIZE) as pilot:
            await before(pilot)
            await pilot.pause()
            target = out / f"{name}.svg"
            target.write_text(app.export_screenshot(title=f"Lingshu · {name}"), encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0].startswith("-"):
        print("usage: python -m lingshu_tui.screenshots [FOLDER]  (renders every scene as SVG into FOLDER, default screenshots/)")
        return 0 if args[0] in ("-h", "--help") else 2
    out = Path(args[0]) if args else Path("screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for name in SCENES:
        print(asyncio.run(render(name, out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
