"""Which home, which project, which layers: resolved once per call from explicit inputs only."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .paths import default_home, global_dir, project_dir
from .settings import DEFAULT_PROJECT, confirm_project, find_confirmed, load_settings, project_entry
from .store import LayerRef


class Workspace:
    """The home, the project (if one is confirmed) and the settings, for one call."""

    def __init__(self, home: Path, project_id: str | None, settings: dict[str, Any], cwd: str) -> None:
        self.home = home
        self.project_id = project_id
        self.settings = settings
        self.cwd = cwd
        # Built once: recall asks for the layers a few dozen times per prompt.
        self._refs: dict[tuple[str, str | None], LayerRef] = {}

    @property
    def project(self) -> dict[str, Any]:
        entry = project_entry(self.settings, self.project_id) if self.project_id else None
        return entry or dict(DEFAULT_PROJECT)

    @property
    def project_root(self) -> str | None:
        return self.project.get("root") if self.project_id else None

    @property
    def memory_on(self) -> bool:
        return bool(self.project.get("enabled", True))

    @property
    def write_mode(self) -> str:
        return str(self.project.get("writeMode", "direct"))

    @property
    def global_layer(self) -> LayerRef:
        ref = self._refs.get(("global", None))
        if ref is None:
            ref = self._refs[("global", None)] = LayerRef("global", global_dir(self.home))
        return ref

    @property
    def project_layer(self) -> LayerRef | None:
        if not self.project_id:
            return None
        ref = self._refs.get(("project", self.project_id))
        if ref is None:
            ref = self._refs[("project", self.project_id)] = LayerRef("project", project_dir(self.home, self.project_id), self.project_id)
        return ref

    def layers(self) -> list[LayerRef]:
        """Project first: on the same id, project wins."""
        return [ref for ref in (self.project_layer, self.global_layer) if ref is not None]

    def layer(self, kind: str) -> LayerRef | None:
        return self.global_layer if kind == "global" else self.project_layer


def open_workspace(home: Path | str | None = None, project: Path | str | None = None, cwd: str | None = None) -> Workspace:
    """`project` (or `LINGSHU_PROJECT`) confirms that root explicitly; otherwise the confirmed root
    that holds `cwd` is used, and none is made up from the current directory (SPEC §1.3)."""
    home_path = Path(home) if home else default_home()
    cwd = cwd or os.getcwd()
    explicit = project or os.environ.get("LINGSHU_PROJECT") or None
    if explicit:
        settings = load_settings(home_path)
        pid_known = find_confirmed(settings, explicit)
        real = os.path.realpath(os.fspath(explicit))
        if not pid_known or settings["projects"][pid_known].get("root") != real:
            confirm_project(home_path, explicit)
            settings = load_settings(home_path)
        pid = find_confirmed(settings, explicit)
    else:
        settings = load_settings(home_path)
        pid = find_confirmed(settings, cwd)
    return Workspace(home=home_path, project_id=pid, settings=settings, cwd=cwd)
