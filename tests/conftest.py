"""Shared fixtures: a real home folder, a real project root, and helpers that call the real dispatch
or the real `lingshu` command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import protocol
from core.statuses import REASON_CODES, STATUSES
from core.tools import dispatch

REPO = Path(__file__).resolve().parent.parent


def assert_shape(tool: str, args: dict[str, Any], answer: dict[str, Any]) -> str:
    """Validate a real tool answer against its verb's declared forms (SPEC §14.5); returns the form."""
    verb = protocol.verb_of(tool, args)
    forms = protocol.forms_matching(verb, answer)
    assert forms, f"{tool} answer fits no declared form of '{verb}': keys {sorted(answer)}"
    assert answer["status"] in STATUSES
    if "reasonCode" in answer:
        assert answer["reasonCode"] in REASON_CODES
    if answer["status"] != "ok" or not answer["ok"]:
        assert answer.get("message"), f"a {answer['status']} answer must say what happened and the next step"
    if "verdict" in answer:
        assert set(answer["verdict"]) == set(protocol.VERDICT_FIELDS)
        assert answer["verdict"]["state"] in protocol.VERDICT_STATES
    return forms[0]


class Memory:
    """Calls tools through the one dispatch, validating every answer's shape."""

    def __init__(self, home: Path, project: Path | None) -> None:
        self.home = home
        self.project = project

    def __call__(self, tool: str, args: dict[str, Any] | None = None, *, actor: str = "agent", project: Any = "same") -> dict[str, Any]:
        args = args or {}
        proj = self.project if project == "same" else project
        answer = dispatch(tool, args, home=self.home, project=proj, cwd=str(proj or self.home), actor=actor)
        assert_shape(tool, args, answer)
        return answer

    def save(self, title: str, body: str, **extra: Any) -> dict[str, Any]:
        return self("memory_save", {"title": title, "body": body, **extra})


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "shop-api"
    p.mkdir()
    return p


@pytest.fixture
def mem(home: Path, project: Path) -> Memory:
    return Memory(home, project)


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINGSHU_")}
    env["LINGSHU_HOME"] = str(home)
    env.update(extra)
    return env


def run_cli(home: Path, *args: str, stdin: str | None = None, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """The real `lingshu` command in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "lingshu_tui.cli", *args],
        input=stdin, capture_output=True, text=True, env=cli_env(home, **env), cwd=cwd or REPO, timeout=120,
    )


def layer_file(home: Path, project: Path | None = None) -> Path:
    from core.paths import global_dir, project_dir, project_id_for

    return (project_dir(home, project_id_for(project)) if project else global_dir(home)) / "state.json"


def read_layer(home: Path, project: Path | None = None) -> dict[str, Any]:
    return json.loads(layer_file(home, project).read_text(encoding="utf-8"))


def all_records(home: Path, project: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every record the layer keeps, read from the files: live ones from `state.json`, archived ones
    from their cold files (SPEC §3.5: archived records leave the layer file)."""
    path = layer_file(home, project)
    records: dict[str, dict[str, Any]] = {}
    for cold in sorted((path.parent / "cold").glob("*.json")):
        obj = json.loads(cold.read_text(encoding="utf-8"))
        if isinstance(obj.get("record"), dict):
            records[obj["id"]] = obj["record"]
    if path.exists():
        records.update(read_layer(home, project)["records"])
    return records
