"""`lingshu bench --vs-node SERVER_JS`: Lingshu beside the reference MCP memory server (node,
@modelcontextprotocol/server-memory) on the same workload over stdio: 400 writes, 200 searches,
100 reads, and two-word phrase recall@10 (issue 16). Needs `node` and the server's index.js
(`npm install @modelcontextprotocol/server-memory`)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from lingshu_tui.bench import lingshu_command, pct, record_args

N_WRITE, N_SEARCH, N_READ = 400, 200, 100


def notes(seed: int = 11) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [record_args(rng, i, "project") for i in range(N_WRITE)]


async def run_node(server_js: str, data: list[dict[str, Any]], phrases: list[tuple[str, int]]) -> tuple[list[float], list[float], list[float], list[bool]]:
    base = Path(tempfile.mkdtemp())
    env = {**os.environ, "MEMORY_FILE_PATH": str(base / "memory.jsonl")}
    params = StdioServerParameters(command="node", args=[server_js], env=env)
    w: list[float] = []
    s: list[float] = []
    r: list[float] = []
    found: list[bool] = []
    async with Client(params) as c:
        for a in data:
            t = time.perf_counter()
            await c.call_tool("create_entities", {"entities": [{"name": a["title"], "entityType": a["kind"], "observations": [a["body"]]}]})
            w.append((time.perf_counter() - t) * 1000)
        for i in range(N_SEARCH):
            q = phrases[i % len(phrases)][0]
            t = time.perf_counter()
            res = await c.call_tool("search_nodes", {"query": q})
            s.append((time.perf_counter() - t) * 1000)
        for i in range(N_READ):
            t = time.perf_counter()
            await c.call_tool("open_nodes", {"names": [data[i]["title"]]})
            r.append((time.perf_counter() - t) * 1000)
        for q, idx in phrases:
            res = await c.call_tool("search_nodes", {"query": q})
            text = res.content[0].text if res.content else ""
            ents = json.loads(text).get("entities", []) if text.strip().startswith("{") else []
            names = [e["name"] for e in ents][:10]
            found.append(data[idx]["title"] in names)
    return w, s, r, found


async def run_lingshu(data: list[dict[str, Any]], phrases: list[tuple[str, int]]) -> tuple[list[float], list[float], list[float], list[bool]]:
    base = Path(tempfile.mkdtemp())
    home, project = base / "home", base / "proj"
    project.mkdir()
    cmd = lingshu_command()
    params = StdioServerParameters(command=cmd[0], args=[*cmd[1:], "mcp", "--home", str(home), "--project", str(project)], env={**os.environ})
    w: list[float] = []
    s: list[float] = []
    r: list[float] = []
    ids: list[str] = []
    found: list[bool] = []
    async with Client(params) as c:
        for a in data:
            args = {k: a[k] for k in ("title", "body", "kind")}
            args["resolution"] = "distinct"
            t = time.perf_counter()
            res = await c.call_tool("memory_save", args)
            w.append((time.perf_counter() - t) * 1000)
            ids.append(res.structured_content.get("id"))
        for i in range(N_SEARCH):
            q = phrases[i % len(phrases)][0]
            t = time.perf_counter()
            await c.call_tool("memory_search", {"query": q, "limit": 10})
            s.append((time.perf_counter() - t) * 1000)
        for i in range(N_READ):
            t = time.perf_counter()
            await c.call_tool("memory_read", {"id": ids[i]})
            r.append((time.perf_counter() - t) * 1000)
        for q, idx in phrases:
            res = await c.call_tool("memory_search", {"query": q, "limit": 10})
            got = [h["id"] for h in (res.structured_content or {}).get("results", [])][:10]
            found.append(ids[idx] in got)
    return w, s, r, found


# Pairs with a function word ("use the", "checks and") name no note; a phrase a person types does.
_FUNCTION_WORDS = frozenset("the a an and or of to in on at by for with from as is are be it its this that".split())


def two_word_phrases(data: list[dict[str, Any]], n: int = 100, seed: int = 5, *, content_words: bool = True) -> list[tuple[str, int]]:
    """Adjacent word pairs that occur in exactly one note (a phrase that names it); with
    `content_words`, only pairs of two content words."""
    rng = random.Random(seed)

    def pairs(text: str) -> set[str]:
        w = [x for x in re.findall(r"[A-Za-z][A-Za-z0-9_-]+", text)]
        return {f"{a} {b}".lower() for a, b in zip(w, w[1:])}
    per = [pairs(d["title"] + " " + d["body"]) for d in data]
    count: dict[str, int] = {}
    for ps in per:
        for p in ps:
            count[p] = count.get(p, 0) + 1
    out = []
    idxs = list(range(len(data)))
    rng.shuffle(idxs)
    for idx in idxs:
        unique = sorted(p for p in per[idx] if count[p] == 1 and all(len(x) > 2 for x in p.split())
                        and not (content_words and any(x in _FUNCTION_WORDS for x in p.split())))
        if unique:
            out.append((rng.choice(unique), idx))
        if len(out) >= n:
            break
    return out


def dev_notes() -> list[dict[str, Any]]:
    """The recall dev set's English notes (real wording), then the bench's synthetic notes up to 400."""
    here = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "recall" / "dev.json"
    d = json.loads(here.read_text(encoding="utf-8"))
    en = [n for n in d["notes"] if n["title"].isascii()]
    out = []
    filler = notes()
    for i in range(N_WRITE):
        if i < len(en):
            out.append({"title": en[i]["title"], "body": en[i]["body"], "kind": "note"})
        else:
            out.append(filler[i])
    return out


async def compare(server_js: str) -> dict[str, float]:
    data = dev_notes()
    phrases = two_word_phrases(data[:80])
    loose = two_word_phrases(data[:80], content_words=False)
    nw, ns, nr, nrec = await run_node(server_js, data, phrases + loose)
    lw, ls, lr, lrec = await run_lingshu(data, phrases + loose)
    out: dict[str, float] = {}
    for name, a, b in (("write", nw, lw), ("search", ns, ls), ("read", nr, lr)):
        out.update({f"node_{name}_p95_ms": pct(a, 95), f"lingshu_{name}_p95_ms": pct(b, 95), f"{name}_ratio_p95": pct(b, 95) / pct(a, 95)})
    k = len(phrases)
    out.update(node_phrase_recall_at_10=sum(nrec[:k]) / k, lingshu_phrase_recall_at_10=sum(lrec[:k]) / k, phrases=k,
               node_any_pair_recall_at_10=sum(nrec[k:]) / len(loose), lingshu_any_pair_recall_at_10=sum(lrec[k:]) / len(loose),
               any_pairs=len(loose))
    return {k: round(v, 3) for k, v in out.items()}


def main(server_js: str) -> dict[str, float]:
    if not Path(server_js).exists():
        raise FileNotFoundError(f"{server_js} does not exist; `npm install @modelcontextprotocol/server-memory` and pass its dist/index.js")
    return asyncio.run(compare(server_js))
