"""The verb protocol (SPEC §14): declarations, the static check, the generated page, hygiene."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import core
from core import protocol
from core.conformance import render_doc, run_checks
from tests.conftest import REPO, run_cli


def test_14_1_declarations() -> None:
    assert protocol.VERBS == ("route", "read", "write", "supersede", "forget")
    assert protocol.WRITE_TRIO == ("ok", "id", "committed")
    assert protocol.VERDICT_FIELDS == ("state", "kind", "basis", "evidence", "detail")
    assert protocol.DERIVE_EXTRA_KEYS == ("op", "op_derived", "hint")
    assert all(spec["status"] == "live" for spec in protocol.VERB_SPECS.values())
    for verb in ("write", "supersede", "forget"):
        for form in protocol.VERB_SPECS[verb]["forms"].values():
            assert set(protocol.WRITE_TRIO) <= set(form["required"])


def test_14_2_shape_of_fails_closed() -> None:
    assert "body" in protocol.shape_of("read", "node")["required"]
    with pytest.raises(KeyError):
        protocol.shape_of("read", "nothing")
    with pytest.raises(KeyError):
        protocol.shape_of("teleport", "node")


def test_14_3_op_derivation() -> None:
    d = protocol.derive_op
    assert [d({"content": "x"}), d({"body": "x"}), d({"query": "x"}), d({"id": "mem_x"}), d({"intent": "x"}), d({})] == [
        "write", "write", "read", "read", "route", "read"]


def test_14_5_check_passes_on_the_code() -> None:
    r = run_cli(REPO, "check")
    assert r.returncode == 0, r.stdout
    assert "PASS  protocol.verb.implemented" in r.stdout and "0 failed" in r.stdout


@pytest.mark.parametrize("breakage", ["tool", "branch", "form"])
def test_14_5_check_fails_on_a_broken_copy(tmp_path: Path, breakage: str) -> None:
    """SPEC §14.5: remove one implementation (or break a form) in a temp copy: exit 1."""
    copy = tmp_path / "src"
    shutil.copytree(REPO / "core", copy / "core")
    if breakage == "tool":
        path = copy / "core" / "tools.py"
        path.write_text(path.read_text().replace('    "memory_route": memory_route,\n', ""))
    elif breakage == "branch":
        path = copy / "core" / "ops.py"
        text = path.read_text()
        assert "elif op == 'forget'" not in text
        path.write_text(text.replace('elif op == "forget":', 'elif op == "forgetting":'))
    else:
        path = copy / "core" / "protocol.py"
        path.write_text(path.read_text().replace('"when": "action undo with the exact current revision", ', ""))
    r = subprocess.run([sys.executable, "-m", "lingshu_tui.cli", "check", "--root", str(copy)], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 1, r.stdout
    assert "FAIL" in r.stdout
    checks = {c.id: c.level for c in run_checks(copy)}
    key = "protocol.shape.declared" if breakage == "form" else "protocol.verb.implemented"
    assert checks[key] == "FAIL"


def test_14_5_generated_page_is_current() -> None:
    """The committed docs/protocol.md is exactly what the module generates (`lingshu check --write-doc`)."""
    assert (REPO / "docs" / "protocol.md").read_text(encoding="utf-8") == render_doc(REPO)


def test_public_surface_is_pinned() -> None:
    """STYLE 3: a small public surface, pinned."""
    assert core.__all__ == ["Busy", "ColdBodyError", "InvalidInput", "LayerBroken", "LingshuError", "NeedsContext", "STATUSES",
                            "StoreWriteFailed", "Workspace", "dispatch", "eligibility", "memory_op", "open_workspace", "recall"]
    for name in core.__all__:
        assert getattr(core, name) is not None


def test_core_imports_no_ui_and_no_mcp() -> None:
    """STYLE 1: core imports neither textual, rich nor mcp."""
    code = ("import sys, pkgutil, importlib, core; [importlib.import_module('core.' + m.name) for m in pkgutil.iter_modules(core.__path__)]; "
            "print([m for m in ('textual', 'rich', 'mcp') if m in sys.modules])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert r.stdout.strip() == "[]", r.stdout + r.stderr


@pytest.mark.parametrize("spelling", [
    'op.strip().lower() == "forget"',
    'op.lower() in ("forget", "forgetting")',
    '"FORGET" == str(op).upper()',
    "match",
])
def test_14_5_a_reserved_verb_implemented_any_way_fails_the_check(tmp_path: Path, spelling: str) -> None:
    """Issue 14: `lingshu check` has no false green: a verb marked reserved but still branched on,
    however the branch spells the op (case folds, `in`, `match`), fails reserved_clean."""
    copy = tmp_path / "src"
    shutil.copytree(REPO / "core", copy / "core")
    proto = copy / "core" / "protocol.py"
    text = proto.read_text()
    marker = '"forget": {\n        "status": "live",'
    assert marker in text
    proto.write_text(text.replace(marker, '"forget": {\n        "status": "reserved",\n        "map_to": "write",'))
    ops = copy / "core" / "ops.py"
    source = ops.read_text()
    if spelling == "match":
        branch = '    match op:\n        case "forget" | "purge":\n            pass\n'
        source = source.replace('    elif op == "forget":', "    elif False:")
        source = source.rstrip() + "\n\n\ndef _also(op: str) -> None:\n" + branch
    else:
        source = source.replace('elif op == "forget":', f"elif {spelling}:")
    ops.write_text(source)
    checks = {c.id: c.level for c in run_checks(copy)}
    assert checks["protocol.verb.reserved_clean"] == "FAIL"
