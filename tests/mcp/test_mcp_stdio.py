"""The MCP server end to end: `lingshu mcp` as a real subprocess, the SDK's own client over stdio,
every answer validated against core/protocol.py (issue 4, SPEC §14)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from lingshu_tui.mcp_server import build_server
from tests.conftest import REPO, assert_shape, cli_env, run_cli


def _params(home: Path, project: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "lingshu_tui.cli", "mcp", "--project", str(project), *extra],
                                 env=cli_env(home), cwd=str(REPO))


async def _call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    answer = result.structured_content
    assert isinstance(answer, dict)
    assert result.is_error == (answer["status"] in ("invalid", "busy"))  # tool faults are flagged to the client
    assert isinstance(answer, dict)
    assert json.loads(result.content[0].text) == answer  # the text block says the same
    assert_shape(tool, args, answer)
    return answer


async def test_end_to_end_over_stdio(home: Path, project: Path) -> None:
    async with Client(_params(home, project)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {"memory_search", "memory_read", "memory_save", "memory_forget", "memory_suggest", "memory_route"}
        assert tools["memory_search"].annotations.read_only_hint is True
        assert tools["memory_read"].annotations.read_only_hint is True
        assert tools["memory_route"].annotations.read_only_hint is True
        assert tools["memory_forget"].annotations.destructive_hint is True
        assert "search" in tools["memory_save"].description.lower() and "committed:false" in tools["memory_save"].description
        for t in tools.values():
            for name, prop in t.input_schema["properties"].items():
                assert prop.get("description"), f"{t.name}.{name} has no description"
        assert tools["memory_read"].input_schema["required"] == ["id"]

        saved = await _call(client, "memory_save", {"title": "Run tests with tox", "body": "tox -e py311", "kind": "method"})
        zh = await _call(client, "memory_save", {"title": "部署流程", "body": "先构建镜像，再推送到仓库。"})
        assert saved["committed"] and zh["committed"]
        found = await _call(client, "memory_search", {"query": "tests"})
        assert [h["id"] for h in found["results"]] == [saved["id"]]
        found = await _call(client, "memory_search", {"query": "部署"})
        assert [h["id"] for h in found["results"]] == [zh["id"]]
        read = await _call(client, "memory_read", {"id": saved["id"]})
        assert read["body"] == "tox -e py311"
        new = await _call(client, "memory_save", {"title": "Run tests with nox", "body": "nox -s tests", "supersedes": saved["id"]})
        assert new["supersedes"] == saved["id"]
        assert [h["id"] for h in (await _call(client, "memory_search", {"query": "tests"}))["results"]] == [new["id"]]
        gone = await _call(client, "memory_forget", {"id": new["id"]})
        assert gone["action"] == "archive" and gone["committed"]
        assert (await _call(client, "memory_read", {"id": new["id"]}))["status"] == "gone"
        back = await _call(client, "memory_forget", {"id": new["id"], "action": "restore"})
        assert back["action"] == "restore"
        assert (await _call(client, "memory_read", {"id": new["id"]}))["body"] == "nox -s tests"
        bad = await _call(client, "memory_save", {"title": 5, "body": "x"})
        assert (bad["ok"], bad["status"]) == (False, "invalid")
        unsafe = await _call(client, "memory_save", {"title": "Key", "body": "token=ab12cd34ef56gh78ij90"})
        assert unsafe["status"] == "unsafe"
        route = await _call(client, "memory_route", {"intent": "run the tests"})
        assert route["knowledge"][0]["id"] == new["id"]
        sug = await _call(client, "memory_suggest", {"title": "Cache dir", "body": ".cache/build"})
        assert sug["status"] == "pending_review"

        # a write by another process is visible to the server at once, and the other way round
        r = run_cli(home, "call", "memory_save", '{"title": "Lint with ruff", "body": "ruff check ."}', "--project", str(project))
        other = json.loads(r.stdout)["id"]
        assert (await _call(client, "memory_read", {"id": other}))["body"] == "ruff check ."
        r = run_cli(home, "call", "memory_read", json.dumps({"id": zh["id"]}), "--project", str(project))
        assert json.loads(r.stdout)["body"] == "先构建镜像，再推送到仓库。"


async def test_single_tool_mode_derives_the_op(home: Path, project: Path) -> None:
    """SPEC §14.3: one `memory {op, …}` tool; without op it is derived and the answer says so."""
    async with Client(_params(home, project, "--single-tool")) as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["memory"]

        async def call(args: dict[str, Any], verb: str) -> dict[str, Any]:
            answer = (await client.call_tool("memory", args)).structured_content
            assert answer is not None
            from core.protocol import forms_matching

            assert forms_matching(verb, answer), (verb, sorted(answer))
            return answer

        w = await call({"title": "Use tox", "content": "tox -e py311"}, "write")
        assert (w["op"], w["op_derived"], w["committed"]) == ("write", True, True) and "derived" in w["hint"]
        r = await call({"query": "tox"}, "read")
        assert r["op"] == "read" and r["results"][0]["id"] == w["id"]
        r = await call({"id": w["id"]}, "read")
        assert r["body"] == "tox -e py311"
        r = await call({"op": "read", "id": w["id"]}, "read")
        assert "op_derived" not in r
        s = await call({"op": "supersede", "title": "Use nox", "body": "nox", "supersedes": w["id"]}, "supersede")
        assert s["committed"] and s["supersedes"] == w["id"]
        f = await call({"op": "forget", "id": s["id"]}, "forget")
        assert f["action"] == "archive"
        route = await call({"intent": "deploy"}, "route")
        assert route["op"] == "route"
        assert (await call({}, "read"))["status"] == "invalid"


async def test_in_process_server_matches_the_cli(home: Path, project: Path) -> None:
    """Issue 4: the server and `lingshu call` go through the same dispatch: the same answer for the same input."""
    async with Client(build_server(home, project)) as client:
        bad = (await client.call_tool("memory_save", {"title": "x", "body": "y", "conditions": [{"key": "colour", "value": "red"}]})).structured_content
    r = run_cli(home, "call", "memory_save", '{"title": "x", "body": "y", "conditions": [{"key": "colour", "value": "red"}]}', "--project", str(project))
    assert bad == json.loads(r.stdout)
