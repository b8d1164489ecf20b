"""Bad input through the real `lingshu call` (issue 3): a clear answer, the right exit code, the store unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import assert_shape, layer_file, run_cli

CASES = [
    ("memory_save", '{"title": "x",', 2, None, "not valid JSON"),
    ("memory_save", "[1, 2]", 1, "invalid", "must be a JSON object"),
    ("memory_save", '{"title": 5, "body": "x"}', 1, "invalid", "title: Input should be a valid string"),
    ("memory_save", '{"title": "x", "body": "y", "colour": "red"}', 1, "invalid", "colour: is not an argument of memory_save"),
    # (answered with the names the tool does take)
    ("memory_save", '{"content": "x"}', 1, "invalid", "memory_save takes contextId, title, body, summary"),
    ("memory_save", json.dumps({"title": "big", "body": "x" * 5000}), 1, "invalid", "5000 bytes; the limit is 4096"),
    ("memory_read", '{"id": "mem_../../x"}', 1, "invalid", "is not a memory id"),
    ("memory_forget", '{"id": "42"}', 1, "invalid", "is not a memory id"),
    ("memory_save", '{"title": "x", "body": "y", "conditions": [{"key": "colour", "value": "red"}]}', 1, "invalid", "not a registered condition key"),
    ("memory_save", json.dumps({"title": "t" * 10000, "body": "y"}), 1, "invalid", "at most 200 characters"),
    ("memory_save", json.dumps({"title": "a\u0000b", "body": "y"}), 1, "invalid", "NUL byte"),
    ("memory_search", json.dumps({"query": "a\u0000"}), 1, "invalid", "NUL byte"),
    ("memory_search", '{"query": "x", "limit": "lots"}', 1, "invalid", "limit: Input should be a valid integer"),
    ("memory_forget", '{"id": "mem_aaaaaaaaaaaa", "action": "shred"}', 1, "invalid", "action:"),
    ("memory_nothing", "{}", 2, None, "unknown tool"),
]


@pytest.mark.parametrize(("tool", "payload", "code", "status", "says"), CASES)
def test_bad_input_is_answered_clearly_and_changes_nothing(home: Path, project: Path, tool: str, payload: str, code: int, status: str | None, says: str) -> None:
    """SPEC §10: a clear `invalid` (or usage error), exit 1 or 2, the store unchanged, no traceback."""
    assert run_cli(home, "call", "memory_save", '{"title": "Keep me", "body": "safe"}', "--project", str(project)).returncode == 0
    before = layer_file(home, project).read_bytes()
    r = run_cli(home, "call", tool, payload, "--project", str(project))
    assert r.returncode == code, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    if status:
        answer = json.loads(r.stdout)
        assert answer["status"] == status and says in answer["message"], answer["message"]
        assert_shape(tool, {}, answer)
    else:
        assert says in r.stderr
    assert layer_file(home, project).read_bytes() == before


def test_arguments_from_stdin(home: Path, project: Path) -> None:
    r = run_cli(home, "call", "memory_save", "--project", str(project), stdin='{"title": "From stdin", "body": "ok"}')
    assert r.returncode == 0 and json.loads(r.stdout)["committed"] is True


def test_every_command_has_help(home: Path) -> None:
    """Every command and option carries help text (STYLE 12)."""
    from lingshu_tui.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():  # type: ignore[attr-defined]
        assert any(c.dest == name and c.help for c in sub._choices_actions), name  # type: ignore[attr-defined]
        for action in p._actions:
            if action.dest != "help":
                assert action.help, f"{name} {action.dest}"


def test_options_before_or_after_the_command(home: Path, project: Path) -> None:
    """`--project` works before the command too (argparse subcommand defaults must not erase it)."""
    before = run_cli(home, "--project", str(project), "call", "memory_save", '{"title": "Before", "body": "x"}')
    after = run_cli(home, "call", "memory_save", '{"title": "After", "body": "y"}', "--project", str(project))
    assert json.loads(before.stdout)["layer"] == json.loads(after.stdout)["layer"] == "project"


@pytest.mark.parametrize("args", [("recall", "--explain", "--message", "how do we deploy to staging"), ("call", "memory_search", '{"query": "deploy"}')])
def test_10_a_reader_that_leaves_early_gets_no_traceback(home: Path, project: Path, mem, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """SPEC §10 (no traceback for something the user did): `lingshu recall --explain … | head`
    closes the pipe before the command is done writing; it stops quietly with the shell's code for
    a closed pipe."""
    import subprocess
    import sys

    from tests.conftest import REPO, cli_env

    for i in range(30):
        mem.save(f"Deploy step {i} for staging", f"Run make ship-{i} after the staging deploy.")
    proc = subprocess.Popen([sys.executable, "-m", "lingshu_tui.cli", *args, "--project", str(project)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env(home), cwd=REPO)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


RECALL_WORDS = ["--message", "deploy to staging", "--format", "json", "text", "claude-hook", "xml", "--format=json", "--format=",
                "--session", "s-1", "--session=s-2", "--explain", "--home", "/tmp/h", "--project=/p", "--project", "-x", "--mess",
                "--message=-1 is wrong", "-1", "", "--", "-h", "--message=a=b",
                "--deadline-ms", "300", "2.5", "0", "nan", "1e3", "--deadline-ms=inf", "--deadline-ms=400"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(RECALL_WORDS), max_size=7))
@example(["--format=", "--format=json"])  # argparse refuses the first, though the last is valid (found by this test)
def test_6_4_the_hook_reads_its_options_as_the_full_parser_does(argv: list[str]) -> None:
    """SPEC §6.4 (the hook runs on every message, so it skips argparse for its plain forms): what
    the quick reading accepts, argparse accepts with the same values; the rest is left to argparse."""
    import argparse
    import contextlib
    import io

    from lingshu_tui import cli

    quick = cli._recall_options(argv)
    if quick is None:
        return
    parser = cli._recall_arguments(argparse.ArgumentParser(prog="lingshu recall"), top=True)
    with contextlib.redirect_stderr(io.StringIO()):
        full = parser.parse_args(argv)
    assert vars(quick) == vars(full)
