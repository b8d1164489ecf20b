"""What `pip install .` puts in the wheel: every file the packages read at run time."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_of_a_package_is_declared() -> None:
    # SPEC §7 and §13: a non-editable install must carry the scan's learned weights and the panel's
    # styles; a data file left out of package-data is missing only for users, never in a checkout.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = config["package-data"]
    for package in config["packages"]:
        folder = ROOT / package.replace(".", "/")
        for path in folder.iterdir():
            if path.is_file() and path.suffix not in (".py", ".pyc"):
                globs = declared.get(package, [])
                assert any(fnmatch.fnmatch(path.name, g) for g in globs), f"{path.relative_to(ROOT)} is not in package-data"
