"""`lingshu mcp`: the MCP server over stdio, built with the official SDK. A thin adapter: each
tool hands its arguments to `core.tools.dispatch` (the same call `lingshu call` makes) and
returns the answer as structured content. Validation happens once, in the dispatch."""

from __future__ import annotations

import inspect
import json
import logging
import os
import sys
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import WithJsonSchema

from core.models import TOOL_INPUTS
from core.ops import is_fault, memory_op
from core.protocol import EXTENSION_FORMS, TOOL_FAULTS, TOOL_VERBS, output_schema
from core.tools import dispatch
from lingshu_tui import __version__

INSTRUCTIONS = (
    "Lingshu is this user's long-term memory for coding work: conventions, methods, entry points and notes "
    "kept across sessions. Search before you save; update a record by id rather than creating a near copy. "
    "`committed: false` means a gate held the write on purpose (duplicate, look-alike, review mode, memory off, "
    "unsafe text): do not retry, read `hint`. Never store a secret's value, only where it lives."
)

DESCRIPTIONS = {
    "memory_search": (
        "Search long-term memory by words (English or Chinese). Call it before starting a task that may have "
        "conventions or history, and always before memory_save so you update instead of duplicating. Returns "
        "hits with id, title and summary; read a body with memory_read. An empty result with reasonCode "
        "explains why (no_match, not_applicable, applicability_unresolved)."
    ),
    "memory_read": (
        "Read one remembered record's current body by id (from a search hit or a recall card). view='links' "
        "lists its usable relations. needs_context means describe the current task first, then read."
    ),
    "memory_save": (
        "Remember something durable: a convention, a method that worked, an entry point. Search first. To "
        "change a record pass its id (only the fields you give change); to replace it pass supersedes. "
        "committed:false with needsResolution lists look-alike records: save again with that id if it is "
        "the same thing, or resolution='distinct' if not. Never include a secret's value."
    ),
    "memory_forget": (
        "Archive a record (default, recoverable by a person), restore it, undo its last change (pass its "
        "current revision), or purge it for good (needs force=true; only when the user asks)."
    ),
    "memory_suggest": (
        "Propose a record for the user to keep or ignore in the Lingshu panel, instead of writing it. Use it "
        "when you are unsure the user wants it remembered. It always answers committed:false, pending_review."
    ),
    "memory_route": (
        "Given what you are about to do, name the remembered knowledge and the memory tools that fit. "
        "Executes nothing."
    ),
}
TITLES = {
    "memory_search": "Search memory",
    "memory_read": "Read a memory",
    "memory_save": "Save a memory",
    "memory_forget": "Archive, restore, undo or purge a memory",
    "memory_suggest": "Suggest a memory for review",
    "memory_route": "Route an intent to memory",
}
ANNOTATIONS = {
    "memory_search": ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    "memory_read": ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    "memory_route": ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    "memory_save": ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False),
    "memory_suggest": ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False),
    "memory_forget": ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=False),
}


def _inline(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Replace `$ref`s with their definitions so each parameter's schema stands alone."""
    if "$ref" in schema:
        return _inline(defs[schema["$ref"].split("/")[-1]], defs)
    return {k: (_inline(v, defs) if isinstance(v, dict) else [(_inline(i, defs) if isinstance(i, dict) else i) for i in v]
                if isinstance(v, list) else v) for k, v in schema.items()}


def field_schemas(model: type) -> tuple[dict[str, dict[str, Any]], set[str]]:
    full = model.model_json_schema()  # type: ignore[attr-defined]
    defs = full.get("$defs", {})
    return {name: _inline(s, defs) for name, s in full["properties"].items()}, set(full.get("required", []))


def _signature(props: dict[str, dict[str, Any]], required: set[str]) -> inspect.Signature:
    # Each parameter accepts anything and publishes the model's schema: the dispatch validates once,
    # so a bad argument gets the same `invalid` answer here as through `lingshu call`.
    params = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[Any, WithJsonSchema(schema)],
                          **({} if name in required else {"default": None}))
        for name, schema in props.items()
    ]
    return inspect.Signature(params, return_annotation=dict[str, Any])


def _result(answer: dict[str, Any] | None) -> CallToolResult:
    # Compact: the text block is for the model (fewer tokens) and encodes in a third of the time.
    text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    if answer is None or "status" not in answer:
        # The protocol mode (seed 000): its answers have no status, and a missing node is a bare null,
        # which only text can carry (structured content is an object).
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=answer, is_error=is_fault(answer))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=answer,
                          is_error=answer.get("status") in TOOL_FAULTS)


def _tool(fn_name: str, run: Any, props: dict[str, dict[str, Any]], required: set[str]) -> Any:
    # Registered for its name, description and schema; `LingshuServer.call_tool` runs it with the
    # caller's raw arguments, so this body only serves in-process callers of the SDK's tool manager.
    def tool(**kwargs: Any) -> Any:
        return _result(run({k: v for k, v in kwargs.items() if v is not None}))

    tool.__name__ = fn_name
    tool.__signature__ = _signature(props, required)  # type: ignore[attr-defined]
    return tool


class LingshuServer(MCPServer):
    """The SDK's server, with two things it cannot do by itself: hand a tool the caller's arguments
    exactly as sent (the SDK validates against the signature and silently drops unknown names, so
    `{"scop": "global"}` would save to the project layer), and publish real schemas: inputs with
    `additionalProperties: false`, outputs generated from `core/protocol.py`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.runners: dict[str, Any] = {}

    async def list_tools(self) -> list[Any]:
        tools = await super().list_tools()
        for tool in tools:
            if tool.name in EXTENSION_FORMS:
                tool.input_schema = {**tool.input_schema, "additionalProperties": False}
                tool.output_schema = output_schema(tool.name)
            if tool.name in self.runners:
                tool.input_schema = {**tool.input_schema, "additionalProperties": False}
                # The protocol mode's `memory` answers the seed's forms, a bare null among them: no
                # output schema can promise structured content for that, so none is published.
                tool.output_schema = output_schema(tool.name) if tool.name in TOOL_VERBS else None
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        run = self.runners.get(name)
        if run is None:
            return await super().call_tool(name, arguments, context)
        import anyio

        # The dispatch does file IO (and may wait for a lock): off the event loop.
        return _result(await anyio.to_thread.run_sync(run, dict(arguments or {})))

    async def run_stdio_async(self) -> None:
        """The SDK's stdio transport reads and writes through worker threads: three thread hops per
        message (read, write, flush), about a third of a search's round trip. When both ends are
        pipes (how every MCP client starts a server), the event loop reads and writes them itself."""
        from mcp.server.stdio import stdio_server

        pipes = await _pipe_streams()
        if pipes is None:
            await super().run_stdio_async()
            return
        async with stdio_server(*pipes) as (read_stream, write_stream):
            await self._lowlevel_server.run(read_stream, write_stream, self._lowlevel_server.create_initialization_options())


class _PipeLines:
    """The wire's input as text lines, read by the event loop."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader

    def __aiter__(self) -> _PipeLines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _PipeWriter:
    """The wire's output: whole lines, handed to the event loop's pipe transport."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self.writer.drain()


async def _pipe_streams() -> tuple[_PipeLines, _PipeWriter] | None:
    """Claim fds 0 and 1 for the wire the way the SDK does (handlers then read EOF and their stray
    prints go to stderr, never into the protocol), served from private duplicates by the event loop.
    None when either end is not a pipe or socket (a file, a terminal): the SDK's transport serves those."""
    import asyncio
    import stat

    if sys.platform == "win32" or not all(stat.S_ISFIFO(m) or stat.S_ISSOCK(m) for m in (os.fstat(0).st_mode, os.fstat(1).st_mode)):
        return None
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    loop = asyncio.get_running_loop()
    # A message is one line however long (an import, a 4 KB body escaped): no line limit to trip on.
    reader = asyncio.StreamReader(limit=1 << 30)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", buffering=0))
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", buffering=0))
    return _PipeLines(reader), _PipeWriter(asyncio.StreamWriter(transport, protocol, reader, loop))


LEARN_DESCRIPTION = (
    "Only when the person has switched learning on (lingshu settings set experimental true): turn the corrections they "
    "made in their own words into project rules, using your model (the server asks it through MCP sampling). The rules "
    "wait for the person's approval in the panel; nothing is recalled before that. Answers what was organized, or why nothing was."
)


def _learning_sample(where: dict[str, Any]) -> Any:
    """The resolver of `memory_learn`: when corrections wait and the client offers sampling, the
    request for the model (the SDK sends it the way the negotiated protocol wants: mid-call, or as an
    input-required round); otherwise nothing is asked."""
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.resolve import Sample
    from mcp.types import SamplingMessage

    from core import learning
    from core.workspace import open_workspace

    def ask(ctx: Context) -> Any:
        capabilities = ctx.client_capabilities
        ws = open_workspace(where.get("home"), where.get("project"))
        if capabilities is None or capabilities.sampling is None or not learning.has_pending(ws):
            return None
        pending = learning.pending_candidates(ws)
        prompt = learning.ModelOrganizer(lambda _: "").prompt(pending)
        return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=1500,
                      system_prompt="Answer with JSON only.")

    ask.__annotations__ = {"ctx": Context, "return": Any}  # the SDK finds the Context by its type
    return ask


def _learn_tool(where: dict[str, Any]) -> Any:
    from mcp.server.mcpserver import Resolve
    from mcp.types import CreateMessageResult

    def memory_learn(sampled: Any = None) -> dict[str, Any]:
        from core import learning
        from core.workspace import open_workspace

        ws = open_workspace(where.get("home"), where.get("project"))
        text = sampled.content.text if sampled is not None and isinstance(sampled.content, TextContent) else None
        return learning.organize_answer(ws, text)

    # Real objects, not strings: the SDK reads the resolver from the annotation, and this one closes over `where`.
    memory_learn.__annotations__ = {"sampled": Annotated[CreateMessageResult | None, Resolve(_learning_sample(where))],
                                    "return": dict[str, Any]}
    return memory_learn


def build_server(home: str | Path | None = None, project: str | Path | None = None, *, single_tool: bool = False) -> MCPServer:
    server = LingshuServer("lingshu", title="Lingshu memory", instructions=INSTRUCTIONS, version=__version__)
    where = {"home": home, "project": project}

    if single_tool:
        props: dict[str, dict[str, Any]] = {"op": {"type": "string", "enum": ["route", "read", "write", "supersede", "forget"],
                                                   "description": "The verb. Omit it and it is derived: content → write, query → read, node_id → read, intent → route, nothing → read."}}
        props["node_id"] = {"type": "string", "description": "The record (read, forget; for supersede, the record to replace)."}
        props["content"] = {"type": "string", "maxLength": 4096, "description": "The note's text (write, supersede); a title is made from its first sentence when none is given."}
        props["superseded_by"] = {"type": "string", "description": "Not supported alone: supersede writes the successor from content."}
        for model in TOOL_INPUTS.values():
            for name, schema in field_schemas(model)[0].items():
                props.setdefault(name, schema)
        server.runners["memory"] = lambda args: memory_op(args, **where)
        server.add_tool(
            _tool("memory", server.runners["memory"], props, set()),
            name="memory", title="Lingshu memory",
            description=("One entry to long-term memory, in the dsh-memory 0.5.0 verb protocol. op is route (intent), read (node_id; "
                         "or query, with budget_tokens for a pack), write (content), supersede (node_id of the old record + content) or "
                         "forget (node_id, action archive/restore/undo/purge). A read of a node that is not there answers null. "
                         "Search before you write. committed:false means a gate held the write on purpose: read hint, do not retry."),
            annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False),
        )
        return server
    # An extension beside the six tools (self-evolution, issue 17); the protocol mode stays exactly the seed's.
    server.add_tool(_learn_tool(where), name="memory_learn", title="Organize the person's corrections", description=LEARN_DESCRIPTION,
                    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False))
    for name, model in TOOL_INPUTS.items():
        props, required = field_schemas(model)
        server.runners[name] = lambda args, name=name: dispatch(name, args, **where)
        server.add_tool(
            _tool(name, server.runners[name], props, required),
            name=name, title=TITLES[name], description=DESCRIPTIONS[name], annotations=ANNOTATIONS[name],
        )
    return server


def serve(home: str | Path | None = None, project: str | Path | None = None, *, single_tool: bool = False) -> None:
    # stdout carries the protocol: every log line goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    build_server(home, project, single_tool=single_tool).run("stdio")
