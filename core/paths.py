"""Where everything lives under `LINGSHU_HOME` (SPEC §1.2)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .durable import small_sha256


def default_home() -> Path:
    """`LINGSHU_HOME`, else the platform's user data dir for `lingshu`."""
    env = os.environ.get("LINGSHU_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir  # lazy: keeps `lingshu recall` start-up small

    return Path(user_data_dir("lingshu", appauthor=False))


def project_id_for(root: Path | str) -> str:
    """A stable, readable id for a project root: its folder name plus a hash of its real path."""
    real = os.path.realpath(os.fspath(root))
    slug = re.sub(r"[^0-9a-z]+", "-", Path(real).name.lower()).strip("-")[:32] or "root"
    digest = small_sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{slug}-{digest}"


def global_dir(home: Path) -> Path:
    return home / "global"


def project_dir(home: Path, project_id: str) -> Path:
    return home / "projects" / project_id


def settings_path(home: Path) -> Path:
    return home / "settings.json"


def contexts_path(home: Path) -> Path:
    return home / "contexts.json"


def ledger_path(home: Path) -> Path:
    return home / "ledger.json"
