"""`lingshu demo`: a realistic sample memory in a temporary home, a simulated agent writing to it,
and the panel open on it — the first thing a newcomer sees."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core.contexts import open_turn
from core.tools import dispatch
from core.workspace import open_workspace

PROJECT_NOTES: list[tuple[str, str, str, str]] = [
    ("convention", "Run tests with tox", "Use tox -e py311; pytest alone misses the env vars from tox.ini.", "before pushing"),
    ("convention", "Format with ruff", "ruff format . then ruff check --fix .", "before every commit"),
    ("convention", "Commit messages say why", "Subject in the imperative; the body says why, not what.", ""),
    ("convention", "No print in library code", "Use the logging module; print only in the CLI layer.", ""),
    ("convention", "Type hints everywhere", "mypy --strict passes on src/; new code adds hints.", ""),
    ("convention", "API errors are problem+json", "Return RFC 9457 problem details for every 4xx/5xx.", "when adding an endpoint"),
    ("convention", "Migrations are reversible", "Every alembic migration has a working downgrade.", "when changing the schema"),
    ("convention", "Feature flags in flags.yaml", "New flags default to off and name an owner.", ""),
    ("convention", "接口命名用复数名词", "REST 资源用复数名词，例如 /orders、/customers。", "设计新接口时"),
    ("convention", "日志里不写个人信息", "邮箱和手机号在日志中一律打码。", ""),
    ("convention", "Pin dependencies with uv", "uv lock after every dependency change; commit uv.lock.", ""),
    ("convention", "One assertion idea per test", "Split tests that check unrelated things.", "when writing tests"),
    ("method", "Profile with py-spy first", "py-spy record -o profile.svg -- python -m shop.bench before optimising.", "when something is slow"),
    ("method", "Reproduce flaky tests with -p no:randomly", "Flakes usually come from test order; pin it to reproduce.", "when a test is flaky"),
    ("method", "Debug the worker locally", "Run `make worker-dev`; it starts the queue in the foreground.", ""),
    ("method", "Bisect a regression", "git bisect run tox -e py311 -- tests/test_orders.py", "when a test broke recently"),
    ("method", "部署流程", "先 make image，再 make push，最后在 Argo 里同步 shop-api。", "发布新版本时"),
    ("method", "回滚步骤", "在 Argo 里回到上一个版本，再检查 orders 队列是否积压。", "发布出问题时"),
    ("method", "Rotate the staging database", "make db-rotate ENV=staging; it rebuilds from the nightly dump.", ""),
    ("method", "Load test before release", "k6 run load/checkout.js against staging; p95 must stay under 300 ms.", "before a release"),
    ("method", "Write a migration", "alembic revision --autogenerate, then read and fix the diff by hand.", ""),
    ("method", "Update OpenAPI docs", "make openapi regenerates docs/openapi.json from the routers.", ""),
    ("method", "Fix mypy plugin errors", "Clear .mypy_cache; the pydantic plugin caches stale models.", ""),
    ("method", "Investigate a slow query", "EXPLAIN ANALYZE in psql, then check the orders_created_at index.", ""),
    ("resource", "Architecture overview", "docs/architecture.md: services, queues and who owns what.", ""),
    ("resource", "Runbook", "docs/runbook.md lists alerts and the first thing to check for each.", ""),
    ("resource", "Deploy key location", "The deploy key is in 1Password under 'Shop API / deploy'.", ""),
    ("resource", "Grafana dashboards", "The 'Shop API' folder in Grafana has latency and error panels.", ""),
    ("resource", "Orders service entry point", "src/shop/orders/api.py is where checkout requests land.", ""),
    ("resource", "设计文档", "docs/design/ 下按日期存放设计评审记录。", ""),
    ("resource", "Error budget policy", "docs/slo.md: what happens when the error budget runs out.", ""),
    ("note", "Team prefers small PRs", "Under 400 lines; split refactors from features.", ""),
    ("note", "Release train is Tuesday", "Merges after Monday noon ride the next train.", ""),
    ("note", "Legacy payments module", "payments_v1 is frozen; new work goes to payments/.", ""),
]
for i in range(14):
    PROJECT_NOTES.append(("method", f"Checklist step {i + 1} for releases", f"Release checklist item {i + 1}: see docs/release.md section {i + 1}.", ""))

GLOBAL_NOTES: list[tuple[str, str, str, str]] = [
    ("convention", "Prefer pathlib over os.path", "pathlib reads better and handles Windows paths.", ""),
    ("convention", "Write docstrings that say why", "The code says what; the docstring says why.", ""),
    ("convention", "用中文写提交说明也可以", "团队接受中文提交说明，但标题要简短。", ""),
    ("convention", "Never commit secrets", "Keep secrets in the password manager; reference them by name.", ""),
    ("method", "Read the traceback from the bottom", "The last frame in your code is usually the place to start.", ""),
    ("method", "Use git worktree for hotfixes", "git worktree add ../hotfix main keeps your branch untouched.", ""),
    ("method", "Time boxes for debugging", "After 30 minutes stuck, write down what you know and ask.", ""),
    ("method", "Minimal reproductions", "Cut the failing case down until every line matters.", ""),
    ("resource", "Python docs", "docs.python.org/3 — the library reference is the fastest answer.", ""),
    ("resource", "Textual docs", "textual.textualize.io — widgets, CSS and testing with pilot.", ""),
    ("resource", "MCP spec", "modelcontextprotocol.io — tools, resources and transports.", ""),
    ("note", "I like terse answers", "Answer first, then the detail if asked.", ""),
    ("note", "Working hours", "Usually 9–17 CET; long jobs can run overnight.", ""),
    ("note", "Editor is Neovim", "Use LSP-friendly suggestions; no IDE-specific steps.", ""),
]


def build_demo(home: Path, project: Path) -> dict[str, Any]:
    """Fill a home with the sample: both layers, all rooms, replaced and archived records, two
    conflicts, two suggestions and one turn of citations."""
    project.mkdir(parents=True, exist_ok=True)
    ws = open_workspace(home, project)

    def save(args: dict[str, Any], actor: str = "user") -> dict[str, Any]:
        return dispatch("memory_save", args, workspace=ws, actor=actor)

    ids: dict[str, str] = {}
    for scope, notes in (("project", PROJECT_NOTES), ("global", GLOBAL_NOTES)):
        for kind, title, body, when in notes:
            r = save({"title": title, "body": body, "when": when, "kind": kind, "scope": scope, "resolution": "distinct",
                      "summary": body.split(";")[0][:120]})
            ids[title] = r["id"]
    save({"title": "Run tests on Linux CI", "body": "CI uses tox -e py311 inside the python:3.11 image.", "kind": "method",
          "conditions": [{"key": "targetOs", "value": "linux"}]})
    old = save({"title": "Deploy with fab", "body": "fab deploy:prod (retired)", "kind": "method"})["id"]
    save({"title": "Deploy with make release", "body": "make release tags, builds and pushes the image.", "kind": "method", "supersedes": old})
    old = save({"title": "Staging URL", "body": "staging.shop.example (old)", "kind": "resource"})["id"]
    save({"title": "Staging URL (new cluster)", "body": "staging2.shop.example since the move.", "kind": "resource", "supersedes": old})
    for title in ("Checklist step 7 for releases", "Checklist step 8 for releases", "Legacy payments module"):
        dispatch("memory_forget", {"id": ids[title]}, workspace=ws, actor="user")
    dispatch("memory_save", {"id": ids["Format with ruff"], "body": "ruff format . && ruff check --fix ."}, workspace=ws, actor="user")
    save({"title": "Run the tests with tox", "body": "tox -e py312 now that CI moved."}, actor="agent")
    save({"title": "Profile with py-spy", "body": "py-spy top --pid PID for a live view."}, actor="agent")
    dispatch("memory_suggest", {"title": "Cache directory is .cache/build", "body": "Build artefacts land in .cache/build; safe to delete.", "kind": "resource"}, workspace=ws)
    dispatch("memory_suggest", {"title": "Use httpx for new HTTP clients", "body": "requests is fine in old code; new code uses httpx.", "kind": "convention"}, workspace=ws)
    ctx = open_turn(ws, session_id="demo", cwd=str(project))
    dispatch("memory_search", {"query": "run tests tox", "contextId": ctx["id"]}, workspace=ws)
    dispatch("memory_read", {"id": ids["Run tests with tox"], "contextId": ctx["id"]}, workspace=ws)
    dispatch("memory_save", {"id": ids["Release train is Tuesday"], "body": "Merges after Monday noon ride the next train; hotfixes any day.",
                             "contextId": ctx["id"]}, workspace=ws)
    return ids


def agent_loop(home: str, project: str, interval: float = 3.0) -> None:
    """A simulated agent: every few seconds it saves, reads or replaces something."""
    parent = os.getppid()
    rng = random.Random(7)
    ws = open_workspace(home, project)
    n = 0
    while os.getppid() == parent:
        time.sleep(interval)
        n += 1
        op = rng.choice(["save", "read", "supersede", "search"])
        if op == "save":
            dispatch("memory_save", {"title": f"Observation {n}: build took {rng.randint(40, 90)} s", "body": "Noted by the demo agent.",
                                     "kind": "note", "resolution": "distinct"}, workspace=ws)
        else:
            hits = dispatch("memory_search", {"query": rng.choice(["tests", "deploy", "release", "部署", "ruff"])}, workspace=ws).get("results", [])
            if hits and op == "read":
                dispatch("memory_read", {"id": hits[0]["id"]}, workspace=ws)
            elif hits and op == "supersede" and hits[0]["layer"] == "project":
                dispatch("memory_save", {"title": hits[0]["title"] + f" (rev {n})", "body": "Updated by the demo agent.",
                                         "supersedes": hits[0]["id"]}, workspace=ws)


def run_demo(*, agent: bool = True, print_only: bool = False) -> int:
    base = Path(tempfile.mkdtemp(prefix="lingshu-demo-"))
    home, project = base / "home", base / "shop-api"
    agent_proc = None
    try:
        print(f"Building the demo memory in {home} …", file=sys.stderr)
        build_demo(home, project)
        if print_only:
            from core.views import snapshot

            snap = snapshot(open_workspace(home, project))
            for room, items in snap.rooms.items():
                print(f"{room:<11} {len(items):>3}  " + ", ".join(e.title for e in items[:3]))
            print(f"archived {len(snap.archived)} · conflicts {len(snap.conflicts)} · suggestions {len(snap.suggestions)}")
            return 0
        if agent:
            agent_proc = subprocess.Popen([sys.executable, "-m", "lingshu_tui.demo", "agent", str(home), str(project)],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        from lingshu_tui.app import run_panel

        return run_panel(home, project)
    finally:
        if agent_proc:
            agent_proc.terminate()
            agent_proc.wait(5)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "agent":
        agent_loop(sys.argv[2], sys.argv[3])
