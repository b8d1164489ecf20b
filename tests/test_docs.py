"""The README and the code agree (STYLE 12): every command it shows exists, every tool it lists is served."""

from __future__ import annotations

import re

from core.tools import TOOLS
from lingshu_tui.cli import HANDLERS
from tests.conftest import REPO


def test_readme_commands_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    used = set(re.findall(r"\blingshu ([a-z]+)\b", readme))
    assert used, "the README shows no lingshu command"
    assert used <= set(HANDLERS), used - set(HANDLERS)


def test_readme_lists_every_tool_and_only_those() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    from core.protocol import EXTENSION_FORMS

    listed = set(re.findall(r"^\| `(memory_[a-z]+)` \|", readme, re.MULTILINE))
    assert listed == set(TOOLS) | set(EXTENSION_FORMS)  # the six tools and the MCP server's extension


def test_readme_starts_with_the_two_commands_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, re.DOTALL)
    assert "lingshu demo" in blocks[0]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert blocks[1].strip() in ci
