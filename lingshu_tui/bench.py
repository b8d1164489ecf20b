"""`lingshu bench`: the seed's benchmark table plus our own figures, measured on this machine.

Every figure is measured with durable writes on. The data set is built deterministically (seeded,
English and Chinese) in a temporary home that is deleted afterwards."""

from __future__ import annotations

import asyncio
import builtins
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from core import index, store
from core.contexts import open_turn
from core.durable import encode, with_checksum
from core.recall import select
from core.tools import dispatch
from core.workspace import Workspace, open_workspace

SEED_FIGURES = {
    "recall_p50_ms": 27.9, "recall_p95_ms": 31.8, "recall_cold_ms": 37.0, "recall_max_ms": 37.0, "recall_bytes": 402,
    "recall_file_reads": 0, "recall_total_bytes_120": 48 * 1024, "sequence_150_s": 18.4, "state_json_bytes": 338 * 1024,
    "layer_files": 2, "rss_mb": 165.0,
}
TARGETS = {
    "recall_p95_ms": ("≤", 5.0), "recall_file_reads": ("≤", 0), "recall_process_ms": ("≤", 150.0), "save_p95_ms": ("≤", 15.0),
    "search_p95_ms": ("≤", 5.0), "sequence_150_s": ("≤", 4.0), "state_json_bytes": ("≤", 300 * 1024), "rss_mb": ("≤", 80.0),
    "panel_first_paint_ms": ("≤", 700.0), "refresh_p95_ms": ("≤", 250.0), "scan_p95_ms": ("≤", 2.0),
    "panel_paint_2k_ms": ("≤", 1500.0), "panel_mount_2k_ms": ("≤", 700.0), "panel_refresh_2k_p95_ms": ("≤", 250.0),
    "panel_stall_2k_max_ms": ("≤", 100.0), "panel_page_ms": ("≤", 50.0),
}
KEYS = ("recall_p50_ms", "recall_p95_ms", "recall_cold_ms", "recall_max_ms", "recall_bytes", "recall_file_reads",
        "recall_total_bytes_120", "recall_process_ms", "save_p50_ms", "save_p95_ms", "search_p50_ms", "search_p95_ms",
        "read_p95_ms", "mcp_roundtrip_p50_ms", "mcp_roundtrip_p95_ms", "sequence_150_s", "state_json_bytes", "layer_files",
        "rss_mb", "panel_first_paint_ms", "refresh_p95_ms", "scan_p95_ms", "panel_paint_2k_ms", "panel_mount_2k_ms",
        "panel_refresh_2k_p95_ms", "panel_stall_2k_max_ms", "panel_page_ms", "evolution_organize_ms", "recall_process_learning_ms")

TOPICS_EN = ["deploy", "tests", "cache", "lint", "release", "docker", "database", "migration", "logging", "profiling",
             "queue", "worker", "api", "auth", "metrics", "backup", "config", "secrets", "review", "branch"]
TOPICS_ZH = ["部署", "测试", "缓存", "发布", "数据库", "迁移", "日志", "队列", "接口", "监控", "备份", "配置"]
VERBS = ["run", "check", "use", "avoid", "prefer", "document", "rotate", "pin", "profile", "clean"]
MESSAGES = ["how do we deploy the api to staging?", "the tests are failing on the cache layer", "what is our release process",
            "数据库迁移怎么做", "请帮我看看部署流程", "lint errors after the docker change", "where do the worker logs go",
            "profiling the queue worker", "监控和日志在哪里看", "backup the database before migration"]


def pct(values: list[float], p: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))]


def record_args(rng: random.Random, i: int, scope: str) -> dict[str, Any]:
    if i % 3 == 2:
        a, b = rng.sample(TOPICS_ZH, 2)
        title = f"{a}与{b}的做法 {i}"
        body = f"{a}之前先检查{b}；出问题时回滚并记录在运行手册第 {i} 节。"
        when = f"处理{a}时"
    else:
        a, b = rng.sample(TOPICS_EN, 2)
        title = f"{rng.choice(VERBS).title()} {a} with {b} {i}"
        body = f"For {a}, {rng.choice(VERBS)} the {b} step first; see docs/{a}.md section {i}. Keep it short and repeatable."
        when = f"when working on {a}"
    return {"title": title, "summary": body.split(";")[0][:100], "when": when, "body": body, "kind": rng.choice(["convention", "method", "resource", "note"]),
            "scope": scope, "resolution": "distinct"}


def scan_body(rng: random.Random, size: int = 4096) -> str:
    """A 4 KB note of the kind engineers write: the bodies of many records, English and Chinese."""
    parts: list[str] = []
    i = 0
    while len("\n".join(parts).encode("utf-8")) < size - 200:
        parts.append(record_args(rng, i, "project")["body"])
        i += 1
    return "\n".join(parts)


def bench_scan(runs: int) -> dict[str, float]:
    """The write safety scan on a 4 KB body, as `memory_save` runs it (libraries already loaded).
    Each run scans a body of its own: the scan keeps its readings of the last few texts, which a
    body scanned again would find."""
    from core.scan import scan_fields

    cards = iter([{"title": "Deploy and release notes", "summary": "How we deploy", "body": scan_body(random.Random(n))}
                  for n in range(runs + 1)])
    scan_fields(next(cards))
    return {"scan_p95_ms": pct(timed(lambda: scan_fields(next(cards)), runs), 95)}


def build_dataset(home: Path, project: Path, per_layer: int = 200, seed: int = 42) -> Workspace:
    """The seed's fixed set: per_layer project + per_layer global records, written with durable saves."""
    project.mkdir(parents=True, exist_ok=True)
    ws = open_workspace(home, project)
    rng = random.Random(seed)
    for scope in ("project", "global"):
        for i in range(per_layer):
            dispatch("memory_save", record_args(rng, i, scope), workspace=ws, actor="user")
    return ws


class ReadCounter:
    """Counts files opened for reading while active (the seed's 'file reads per prepare')."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> "ReadCounter":
        self._open, self._io_open = builtins.open, io.open

        def counting(file: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
            if "r" in mode and "+" not in mode:
                self.count += 1
            return self._open(file, mode, *a, **k)

        builtins.open = io.open = counting  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        builtins.open, io.open = self._open, self._io_open  # type: ignore[assignment]


def bench_recall(ws: Workspace, runs: int) -> dict[str, Any]:
    store._cache.clear()
    index.forget_connections()
    ctx = open_turn(ws, session_id="bench", cwd=str(ws.project_root))
    started = time.perf_counter()
    select(ws, MESSAGES[0], ctx)
    cold = (time.perf_counter() - started) * 1000
    times, sizes = [], []
    with ReadCounter() as reads:
        for i in range(runs):
            started = time.perf_counter()
            _, text, _ = select(ws, MESSAGES[i % len(MESSAGES)], ctx)
            times.append((time.perf_counter() - started) * 1000)
            sizes.append(len(text.encode("utf-8")))
    return {"recall_p50_ms": pct(times, 50), "recall_p95_ms": pct(times, 95), "recall_cold_ms": cold, "recall_max_ms": max(times),
            "recall_bytes": statistics.mean(sizes), "recall_file_reads": reads.count / runs, "recall_total_bytes_120": sum(sizes) * 120 / runs}


def lingshu_command() -> list[str]:
    """The installed console script next to this Python (not a version-manager shim), else `-m`."""
    exe = Path(sys.executable).with_name("lingshu")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "lingshu_tui.cli"]


def compile_package() -> None:
    """Write the package's bytecode first, as pip does when it installs: the hook's new process then
    loads it instead of compiling the modules. In a checkout with PYTHONDONTWRITEBYTECODE set (this
    machine sets it), every module changed since the last cache was compiled again on each start."""
    import compileall

    root = Path(__file__).resolve().parent.parent
    for package in ("core", "lingshu_tui"):
        compileall.compile_dir(root / package, quiet=2)  # a read-only install just keeps what pip wrote


def bench_recall_process(home: Path, project: Path, runs: int) -> float:
    env = {**os.environ, "LINGSHU_HOME": str(home), "LINGSHU_PROJECT": str(project)}
    times = []
    for i in range(runs):
        started = time.perf_counter()
        subprocess.run([*lingshu_command(), "recall", "--message", MESSAGES[i % len(MESSAGES)]], env=env, capture_output=True, check=False)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def timed(call: Callable[[], Any], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def bench_tools(ws: Workspace, runs: int) -> dict[str, float]:
    rng = random.Random(7)
    counter = iter(range(10**6))
    saves = timed(lambda: dispatch("memory_save", {**record_args(rng, 10_000 + next(counter), "project")}, workspace=ws), runs)
    queries = [*TOPICS_EN, *TOPICS_ZH]
    qi = iter(range(10**6))
    searches = timed(lambda: dispatch("memory_search", {"query": queries[next(qi) % len(queries)]}, workspace=ws), runs)
    ids = [r["id"] for r in dispatch("memory_search", {"query": "deploy", "limit": 20}, workspace=ws)["results"]] or ["mem_000000000000"]
    ri = iter(range(10**6))
    reads = timed(lambda: dispatch("memory_read", {"id": ids[next(ri) % len(ids)]}, workspace=ws), runs)
    return {"save_p50_ms": pct(saves, 50), "save_p95_ms": pct(saves, 95), "search_p50_ms": pct(searches, 50),
            "search_p95_ms": pct(searches, 95), "read_p95_ms": pct(reads, 95)}


def _rss_of(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _find_pid(marker: str) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in cmd and " mcp" in cmd:
                return int(entry.name)
    return None


async def _mcp(home: Path, project: Path, runs: int) -> dict[str, float]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=lingshu_command()[0], args=[*lingshu_command()[1:], "mcp", "--home", str(home), "--project", str(project)],
                                   env={**os.environ})
    times = []
    async with Client(params) as client:
        for i in range(runs):
            started = time.perf_counter()
            await client.call_tool("memory_search", {"query": (TOPICS_EN + TOPICS_ZH)[i % 32]})
            times.append((time.perf_counter() - started) * 1000)
        pid = _find_pid(str(home))
        rss = _rss_of(pid) if pid and Path(f"/proc/{pid}/status").exists() else 0.0
    return {"mcp_roundtrip_p50_ms": pct(times, 50), "mcp_roundtrip_p95_ms": pct(times, 95), "rss_mb": rss}


def bench_sequence(ws: Workspace, rounds: int) -> dict[str, float]:
    """Rounds of a real session: a new message (turn + recall), a search, a read, a save."""
    rng = random.Random(11)
    started = time.perf_counter()
    for i in range(rounds):
        ctx = open_turn(ws, session_id="seq", cwd=str(ws.project_root))
        select(ws, MESSAGES[i % len(MESSAGES)], ctx)
        hits = dispatch("memory_search", {"query": rng.choice(TOPICS_EN + TOPICS_ZH)}, workspace=ws).get("results", [])
        if hits:
            dispatch("memory_read", {"id": hits[0]["id"]}, workspace=ws)
            if hits[0]["layer"] == "project":
                dispatch("memory_save", {"id": hits[0]["id"], "summary": f"checked in round {i}"}, workspace=ws)
    elapsed = time.perf_counter() - started
    ref = ws.project_layer
    assert ref is not None
    # the layer's own files: the derived index (index.sqlite and its WAL files) is reported in home_bytes
    files = [p for p in ref.dir.iterdir() if p.is_file() and p.name != ".lock" and not p.name.startswith("index.sqlite")]
    return {"sequence_150_s": elapsed * 150 / rounds, "state_json_bytes": ref.state_path.stat().st_size, "layer_files": len(files)}


def fill_layers_directly(ws: Workspace, per_layer: int) -> None:
    """The panel benchmark's 2 000 records, written as whole layer files (their saving is not what is measured)."""
    rng = random.Random(5)
    for ref in ws.layers():
        records = {}
        for i in range(per_layer):
            a = record_args(rng, i, ref.kind)
            rid = f"mem_bench{ref.kind[0]}{i:07d}"
            rec = {"id": rid, "title": a["title"], "summary": a["summary"], "when": a["when"], "body": a["body"], "kind": a["kind"],
                   "status": "active", "revision": 1, "created": "2026-01-01T00:00:00.000000Z",
                   "updated": f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}.000000Z", "conditions": [], "applicability": "all_in_scope"}
            if ref.kind == "project":
                rec["ownerProjectId"] = ref.project_id
            records[rid] = rec
        ref.dir.mkdir(parents=True, exist_ok=True)
        state = {"format": "lingshu-layer/1", "layer": ref.kind, "projectId": ref.project_id, "generation": 1, "records": records,
                 "conflicts": [], "suggestions": []}
        ref.state_path.write_bytes(encode(with_checksum(state)))


def bench_learning(home: Path, project: Path, runs: int) -> dict[str, float]:
    """Issue 17: one rule-based organizer run over 50 pending candidates (the seed's experiment
    organizing cost), and the hook as a new process with learning on (compare recall_process_ms)."""
    from core import learning
    from core.settings import set_project_setting

    ws = open_workspace(home, project)
    set_project_setting(home, ws.project_id or "", "experimental", True)
    ws = open_workspace(home, project)
    ctx = {"sessionId": "bench"}
    for i in range(50):
        learning.note_feedback(ws, ctx, f"Always run check{i} with tool{i} before stage{i}.")
    started = time.perf_counter()
    receipt = learning.organize(ws)
    organize_ms = (time.perf_counter() - started) * 1000
    if len(receipt["committed"]) != 50:
        raise RuntimeError(f"the organizer made {len(receipt['committed'])} rules of 50 candidates")
    out = {"evolution_organize_ms": organize_ms, "recall_process_learning_ms": bench_recall_process(home, project, runs)}
    set_project_setting(home, ws.project_id or "", "experimental", False)
    return out


def paint_probe(home: str, project: str) -> None:
    """Run in a new process by `_panel_process`: open the panel headless and say when the palace has
    drawn the store (the frame after the first snapshot)."""
    from lingshu_tui.app import LingshuApp

    async def go() -> None:
        app = LingshuApp(home, project, watch=False)
        async with app.run_test(size=(130, 36)) as pilot:
            while app.snap is None:
                await pilot.pause(0.001)
            await pilot.pause()
            print("painted", flush=True)

    asyncio.run(go())


def _panel_process(home: Path, project: Path, runs: int) -> float:
    """Process start to the first frame that shows the store, median of `runs`."""
    # the probe imports this package from wherever it is installed, whatever the working folder
    here = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)}
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", f"from lingshu_tui.bench import paint_probe; paint_probe({str(home)!r}, {str(project)!r})"],
                                stdout=subprocess.PIPE, text=True, env=env)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        times.append((time.perf_counter() - started) * 1000)
        proc.wait(timeout=60)
        if line.strip() != "painted":
            raise RuntimeError("the panel did not start in the benchmark's probe")
    return statistics.median(times)


async def _panel(home: Path, project: Path, samples: int, writer_s: float) -> dict[str, float]:
    """In-app figures with 2,000 notes: mount to first frame; an outside save to the frame that
    shows it, alone and then with a save every 200 ms; the longest event-loop stall while that
    writer runs; the next page."""
    from lingshu_tui.app import LingshuApp
    from lingshu_tui.widgets.palace import Palace

    started = time.perf_counter()
    app = LingshuApp(home, project, watch=True)
    async with app.run_test(size=(130, 36)) as pilot:
        while app.snap is None:
            await pilot.pause(0.001)
        await pilot.pause()
        mount = (time.perf_counter() - started) * 1000
        await asyncio.sleep(0.3)
        palace = app.main.query_one(Palace)  # type: ignore[union-attr]
        room = palace.open_room or "note"

        def shown(title: str) -> bool:
            return any(title in str(o.prompt) for o in palace.options)

        latencies = []
        for i in range(samples):
            title = f"Refresh probe {i} zz{i}"
            await asyncio.to_thread(dispatch, "memory_save", {"title": title, "body": "probe", "kind": room, "resolution": "distinct"},
                                    home=home, project=project)
            written = time.perf_counter()
            while not shown(title) and time.perf_counter() - written < 3:
                await asyncio.sleep(0.002)
            latencies.append((time.perf_counter() - written) * 1000)

        written_at: dict[str, float] = {}
        done = threading.Event()

        def writer() -> None:
            for i in range(int(writer_s / 0.2)):
                began = time.perf_counter()
                title = f"Writer probe {i} qq{i}"
                dispatch("memory_save", {"title": title, "body": "probe", "kind": room, "resolution": "distinct"}, home=home, project=project)
                written_at[title] = time.perf_counter()
                time.sleep(max(0.0, 0.2 - (time.perf_counter() - began)))
            done.set()

        thread = threading.Thread(target=writer, daemon=True)
        under_load: list[float] = []
        stall = 0.0
        last = time.perf_counter()
        thread.start()
        waiting: dict[str, float] = {}
        while not done.is_set() or waiting:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            stall = max(stall, (now - last - 0.005) * 1000)
            last = now
            for title, at in list(written_at.items()):
                waiting.setdefault(title, at)
                written_at.pop(title, None)
            for title, at in list(waiting.items()):
                if shown(title) or now - at > 3:
                    under_load.append((now - at) * 1000)
                    del waiting[title]
        thread.join()

        await asyncio.sleep(0.3)
        pages = []
        for _ in range(10):
            began = time.perf_counter()
            palace.turn_page(1)
            await pilot.pause()
            pages.append((time.perf_counter() - began) * 1000)
    return {"panel_first_paint_ms": mount, "panel_mount_2k_ms": mount, "refresh_p95_ms": pct(latencies, 95),
            "panel_refresh_2k_p95_ms": pct(under_load, 95), "panel_stall_2k_max_ms": stall, "panel_page_ms": statistics.median(pages)}


def run(quick: bool = False, progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    runs = 30 if quick else 120
    base = Path(tempfile.mkdtemp(prefix="lingshu-bench-"))
    try:
        home, project = base / "home", base / "shop-api"
        progress("building 200 project + 200 global records (durable saves)")
        ws = build_dataset(home, project, per_layer=60 if quick else 200)
        out: dict[str, Any] = {}
        # Tool calls first: once a recall hook has opened a turn, later calls spend that turn's budget.
        progress("save, search, read")
        out.update(bench_tools(ws, 30 if quick else 100))
        progress("the safety scan on a 4 KB body")
        out.update(bench_scan(50 if quick else 300))
        progress("MCP round trips over stdio")
        out.update(asyncio.run(_mcp(home, project, 20 if quick else 100)))
        progress("recall prepare")
        out.update(bench_recall(ws, runs))
        progress("recall as a new process")
        out["recall_process_ms"] = bench_recall_process(home, project, 5 if quick else 15)
        progress("self-evolution: organizing 50 candidates, the hook with learning on (a second store of the same size)")
        home3, project3 = base / "home3", base / "learning-proj"
        build_dataset(home3, project3, per_layer=60 if quick else 200)
        out.update(bench_learning(home3, project3, 5 if quick else 15))
        progress("sequence of rounds")
        out.update(bench_sequence(ws, 20 if quick else 150))
        progress("panel with 2 000 records (a writer saves every 200 ms for 20 s)")
        home2, project2 = base / "home2", base / "panel-proj"
        project2.mkdir()
        fill_layers_directly(open_workspace(home2, project2), 100 if quick else 1000)
        out["panel_paint_2k_ms"] = _panel_process(home2, project2, 2 if quick else 5)
        out.update(asyncio.run(_panel(home2, project2, 5 if quick else 20, 2.0 if quick else 20.0)))
        return {k: round(float(out[k]), 3) for k in KEYS}
    finally:
        shutil.rmtree(base, ignore_errors=True)


def render_table(figures: dict[str, Any], keys: tuple[str, ...] = KEYS, targets: dict[str, tuple[str, float]] = TARGETS,
                 seed: dict[str, Any] | None = SEED_FIGURES) -> str:
    """A Markdown table of the figures, with the seed's column when there is one and each target met or not."""
    rows = ["| figure | ours |" + (" seed |" if seed is not None else "") + " target |",
            "| --- | --- |" + (" --- |" if seed is not None else "") + " --- |"]
    for key in keys:
        target = targets.get(key)
        mark = "—"
        if target:
            ok = figures[key] <= target[1] if target[0] == "≤" else figures[key] >= target[1]
            mark = f"{target[0]} {target[1]:g} {'✓' if ok else '✗'}"
        seed_cell = f" {seed.get(key, '—')} |" if seed is not None else ""
        rows.append(f"| `{key}` | {figures[key]:g} |{seed_cell} {mark} |")
    return "\n".join(rows)


def main(*, as_json: bool = False, quick: bool = False, scale: bool = False, model: str | None = None) -> int:
    def progress(step: str) -> None:
        if not as_json and sys.stderr.isatty():
            print(f"… {step}", file=sys.stderr, flush=True)

    try:
        compile_package()
        if scale:
            from . import bench_scale

            figures = bench_scale.run(progress, quick=quick, model=model)
            keys = (*bench_scale.SCALE_KEYS, *(bench_scale.SEMANTIC_KEYS if model else ()))
            targets = {**bench_scale.SCALE_TARGETS, **bench_scale.SEMANTIC_TARGETS}
            print(json.dumps(figures) if as_json else render_table(figures, keys, targets, None))
            return 0
        figures = run(quick=quick, progress=progress)
    except Exception as err:  # noqa: BLE001 - a failed measurement is reported, not a traceback
        print(f"lingshu bench: a measurement failed ({type(err).__name__}: {err}). Nothing was kept; run it again, "
              "and if it fails the same way, report it with this line.", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(figures))
    else:
        print(render_table(figures))
    return 0
