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


_SCHEMAS: dict[int, dict[str, Any]] = {}


async def _call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """One tool call; the answer is checked against the protocol's forms and against the
    outputSchema the server published for the tool (issue 14)."""
    import jsonschema

    if id(client) not in _SCHEMAS:
        _SCHEMAS[id(client)] = {t.name: t.output_schema for t in (await client.list_tools()).tools}
    result = await client.call_tool(tool, args)
    answer = result.structured_content
    assert isinstance(answer, dict)
    jsonschema.validate(answer, _SCHEMAS[id(client)][tool])
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



async def test_14_unknown_and_missing_arguments_get_the_structured_answer_over_mcp(home: Path, project: Path) -> None:
    """Issue 14: the SDK no longer drops unknown names (`scop` would have saved to the project
    layer) nor answers with raw pydantic text: the dispatch sees the raw arguments, like the CLI."""
    async with Client(_params(home, project)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert all(t.input_schema.get("additionalProperties") is False for t in tools.values())
        assert all(t.output_schema and t.output_schema.get("anyOf") for t in tools.values())
        typo = await _call(client, "memory_save", {"title": "Global rule", "body": "sign commits", "scop": "global"})
        assert (typo["status"], typo["committed"]) == ("invalid", False) and "scop" in typo["message"]
        rid = (await _call(client, "memory_save", {"title": "Use tox", "body": "tox -e py311", "summary": "the test runner"}))["id"]
        rev = await _call(client, "memory_save", {"id": rid, "body": "tox -e py312", "rev": 1})
        assert rev["status"] == "invalid" and "rev" in rev["message"]
        missing = await client.call_tool("memory_read", {})
        assert missing.is_error and missing.structured_content["status"] == "invalid" and "id" in missing.structured_content["message"]
        assert "validation error" not in missing.content[0].text.lower()
        cleared = await _call(client, "memory_save", {"id": rid, "summary": None})
        assert cleared["committed"] is True
        read = await _call(client, "memory_read", {"id": rid})
    cli = run_cli(home, "call", "memory_read", json.dumps({"id": rid}), "--project", str(project))
    assert read["summary"] == json.loads(cli.stdout)["summary"] == ""  # summary: null clears it on every face


def test_14_version_and_a_clean_ctrl_c(home: Path, project: Path) -> None:
    """Issue 14: `lingshu --version`; `lingshu mcp` stops on Ctrl-C with exit 0 and no traceback."""
    import signal
    import subprocess

    r = run_cli(home, "--version")
    assert r.returncode == 0 and r.stdout.startswith("lingshu ")
    proc = subprocess.Popen([sys.executable, "-m", "lingshu_tui.cli", "mcp", "--project", str(project)], env=cli_env(home), cwd=str(REPO),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    assert b'"result"' in proc.stdout.readline()  # the server is up and answering
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()
