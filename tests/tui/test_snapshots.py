"""Snapshot tests of each screen (pytest-textual-snapshot), from the same scenes as the README images."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingshu_tui.screenshots import SCENES, SIZE, scene_app


@pytest.mark.parametrize("name", list(SCENES))
def test_screen(name: str, snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lang, memory_on, before = SCENES[name]
    assert snap_compare(scene_app(tmp_path, lang, memory_on), terminal_size=SIZE, run_before=before)
