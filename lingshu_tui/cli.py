"""The `lingshu` command: a thin face over `core`. Imports are lazy so that `lingshu recall`,
which an agent's hook runs on every message, never loads pydantic, the MCP SDK or Textual."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_FALSE, EXIT_USAGE = 0, 1, 2


def _common(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    import argparse

    # On subcommands the defaults are suppressed, so `lingshu --project X call …` keeps X.
    default = None if top else argparse.SUPPRESS
    p.add_argument("--home", default=default, help="the memory home (default: $LINGSHU_HOME or the platform data dir)")
    p.add_argument("--project", default=default,
                   help="the project root; giving it confirms it (default: $LINGSHU_PROJECT, or the confirmed root holding the current folder)")


RECALL_FORMATS = ("text", "claude-hook", "json")
RECALL_HELP = "print what the agent should see for a new user message (for a prompt hook)"


def _recall_arguments(p: argparse.ArgumentParser, *, top: bool = False) -> argparse.ArgumentParser:
    _common(p, top=top)
    p.add_argument("--message", help="the user's message (default: the hook's JSON on stdin)")
    p.add_argument("--format", choices=RECALL_FORMATS, default="text", help="plain text, Claude Code hook JSON, or a JSON report")
    p.add_argument("--session", help="the agent session id (default: from the hook JSON)")
    p.add_argument("--explain", action="store_true",
                   help="show why each candidate note came or not (score, terms, coverage, gate, scan, budget); opens no turn")
    p.add_argument("--deadline-ms", type=_deadline, metavar="MS",
                   help="how long choosing the cards may take before recall answers with nothing (default 150, SPEC §11.6; "
                        "raise it on a slow machine; the semantic tier gets 40%% of it)")
    return p


def _deadline(text: str) -> float:
    value = _positive_ms(text)
    if value is None:
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r} is not a number of milliseconds above 0 (e.g. 300)")
    return value


def _positive_ms(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None


_RECALL_VALUES = {"--home": "home", "--project": "project", "--message": "message", "--format": "format", "--session": "session",
                  "--deadline-ms": "deadline_ms"}


def _recall_fast(argv: list[str]) -> int:
    """`lingshu recall` runs on every user message: parse only its own options (building the
    whole parser costs more than the recall itself) and keep its defaults those of the full one.
    The hook's plain forms are read without argparse at all (importing it, with gettext and
    locale, was ~6 ms of every hook); anything else (help, a typo) goes to argparse to answer."""
    args = _recall_options(argv)
    if args is None:
        import argparse

        parser = _recall_arguments(argparse.ArgumentParser(prog="lingshu recall", description=RECALL_HELP), top=True)
        try:
            args = parser.parse_args(argv)
        except SystemExit as stop:
            # argparse's 2 for a mistaken option would make Claude Code erase the user's prompt;
            # 1 shows the message and lets the turn go on (SPEC §11.6: recall never fails the turn).
            return 1 if stop.code == 2 else int(stop.code or 0)
    return cmd_recall(args)


def _recall_options(argv: list[str]) -> Any:
    """The options as argparse would read them, or None when that takes more than the exact
    option names, each value in its own word (`--message TEXT`) or after `=`."""
    from types import SimpleNamespace

    out: dict[str, Any] = {"home": None, "project": None, "message": None, "format": "text", "session": None, "explain": False,
                           "deadline_ms": None}
    words = iter(argv)
    for word in words:
        if word == "--explain":
            out["explain"] = True
            continue
        name, eq, value = word.partition("=")
        if name not in _RECALL_VALUES:
            return None
        if not eq:
            value = next(words, None)  # type: ignore[assignment]
            # A value that starts like an option is argparse's to judge (it may refuse it).
            if value is None or value.startswith("-"):
                return None
        if _RECALL_VALUES[name] == "format" and value not in RECALL_FORMATS:
            return None  # argparse checks every occurrence, not only the last
        if _RECALL_VALUES[name] == "deadline_ms":
            value = _positive_ms(value)  # type: ignore[assignment]
            if value is None:
                return None
        out[_RECALL_VALUES[name]] = value
    return SimpleNamespace(**out)


def build_parser() -> argparse.ArgumentParser:
    import argparse

    import lingshu_tui

    parser = argparse.ArgumentParser(prog="lingshu", description="Local-first long-term memory for coding agents.")
    parser.add_argument("--version", action="version", version=f"lingshu {lingshu_tui.__version__}")
    _common(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("panel", help="open the memory panel (the default command)")
    _common(p)
    p = sub.add_parser("demo", help="open the panel on a sample memory with a simulated agent writing to it")
    p.add_argument("--no-agent", action="store_true", help="do not start the simulated agent")
    p.add_argument("--print", action="store_true", help="print the demo store's summary instead of opening the panel")
    p = sub.add_parser("call", help="run one memory tool: lingshu call TOOL [JSON] (JSON from stdin when omitted)")
    _common(p)
    p.add_argument("tool", help="memory_search, memory_read, memory_save, memory_forget, memory_suggest, memory_route, "
                                "or memory (one {op, …} call in the dsh-memory 0.5.0 protocol, as `lingshu mcp --single-tool`)")
    p.add_argument("json", nargs="?", help="the arguments as one JSON object")
    p.add_argument("--as-user", action="store_true", help="act as the person, not the agent (review mode does not hold the write)")
    p = sub.add_parser("project", help="confirm a project root: lingshu project confirm PATH (forget PATH un-confirms it)")
    _common(p)
    p.add_argument("action", choices=["confirm", "show", "forget"],
                   help="confirm a root, show the project resolved here, or forget (un-confirm) a root; its layer is kept")
    p.add_argument("path", nargs="?", default=".", help="the project root (default: the current folder)")
    for name, text in (("enable", "switch memory on for the project"), ("disable", "switch memory off for the project (nothing is deleted)")):
        p = sub.add_parser(name, help=text)
        _common(p)
    p = sub.add_parser("review", help="review mode: the agent's new records wait in the panel until you keep them")
    _common(p)
    p.add_argument("state", choices=["on", "off"], help="on: hold the agent's new records for review; off: direct writes")
    p = sub.add_parser("settings", help="show or change this project's settings: lingshu settings [set KEY VALUE | unset KEY]")
    _common(p)
    p.add_argument("action", nargs="?", choices=["show", "set", "unset"], default="show", help="show (default), set or unset")
    p.add_argument("key", nargs="?", help="e.g. budgets.searchEntries, recallMode, taskDefaults.taskKind")
    p.add_argument("value", nargs="?", help="the new value, e.g. 30, tool, release")
    p = sub.add_parser("learn", help="self-evolution (off by default): rules learned from your corrections; "
                                     "lingshu learn status|organize|approve|promote|pause|reject [ID]")
    _common(p)
    p.add_argument("action", nargs="?", choices=["status", "organize", "approve", "promote", "pause", "reject"], default="status",
                   help="status (default); organize: one organizer run now; approve (to trial), promote (to active), pause, reject a rule")
    p.add_argument("id", nargs="?", help="the rule's id, for approve, promote, pause and reject")
    p.add_argument("--json", action="store_true", help="print everything as JSON")
    p = sub.add_parser("semantic", help="the optional semantic tier (finds notes by meaning): lingshu semantic status|install [MODEL]|off")
    _common(p)
    p.add_argument("action", nargs="?", choices=["status", "install", "off"], default="status",
                   help="status (default): model, vectors, stale notes; install: bring a model in once (needs the semantic extra) "
                        "and compute every note's vectors; off: stop using it (the model stays on disk)")
    p.add_argument("model", nargs="?", help="with install: a model2vec hub name (downloaded once) or a folder holding one "
                                            "(default: minishlab/potion-multilingual-128M)")
    p.add_argument("--similarity", type=float, metavar="X",
                   help="with install: how near (cosine, 0-1) a note must be for recall to bring it on meaning alone (default 0.7)")
    p.add_argument("--json", action="store_true", help="print the status as JSON")
    p = sub.add_parser("doctor", help="check every layer; exit 1 when something needs a person")
    _common(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--reindex", action="store_true", help="rebuild every layer's search index and vectors from its layer file")
    p.add_argument("--reset", choices=["project", "global"], help="set an unreadable layer's files aside and start it empty")
    p.add_argument("--project-id", help="with --reset project: which project layer (default: the current project)")
    p.add_argument("--yes", action="store_true", help="with --reset: do not ask before emptying the layer")
    p.add_argument("--ack", action="store_true", help="acknowledge that a restored layer has been checked (clears its recovery notice)")
    _recall_arguments(sub.add_parser("recall", help=RECALL_HELP))
    p = sub.add_parser("mcp", help="run the MCP server over stdio")
    _common(p)
    p.add_argument("--single-tool", action="store_true", help="expose one `memory {op, …}` tool instead of six")
    p = sub.add_parser("import", help="bring in CLAUDE.md, AGENTS.md, MEMORY.md, .cursor/rules/*.mdc, copilot-instructions.md, notes or a JSON export")
    _common(p)
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders to look in for the known memory files")
    p.add_argument("--scope", choices=["project", "global"], default="project", help="the layer to import into (default: project)")
    p.add_argument("--apply", action="store_true", help="write; without it, only show what would be written")
    p = sub.add_parser("export", help="write the memory out as Markdown (by palace room) or JSON (lossless)")
    _common(p)
    p.add_argument("--scope", choices=["project", "global"], help="only this layer (default: both)")
    p.add_argument("--format", choices=["md", "json"], default="md", help="md for people, json for `lingshu import`")
    p.add_argument("--out", help="write to this file instead of standard output")
    p = sub.add_parser("bench", help="measure recall, save, search, MCP, panel and long-run figures on this machine")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--quick", action="store_true", help="a smaller, faster run (for tests)")
    p.add_argument("--scale", action="store_true",
                   help="the capacity figures: 1,000 + 1,000 notes, 10,000 archived, 20,000 saves (several minutes)")
    p.add_argument("--recall-set", metavar="FILE",
                   help="recall quality on a labelled set (hit, quiet and forbidden rates per class); see tests/fixtures/recall/dev.json")
    p.add_argument("--misses", action="store_true", help="with --recall-set: also list the prompts recall got wrong")
    p.add_argument("--model", metavar="MODEL",
                   help="with --recall-set or --scale: also measure the semantic tier with this model2vec folder or hub name")
    p.add_argument("--vs-node", metavar="SERVER_JS",
                   help="beside the reference node memory server (its dist/index.js): write/search/read p95 over MCP and phrase recall@10")
    p = sub.add_parser("check", help="check the verb protocol against the code; exit 1 on any failure")
    p.add_argument("--write-doc", action="store_true", help="write docs/protocol.md from core/protocol.py")
    p.add_argument("--root", help="the source tree to check (default: the installed package)")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        code = _main(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # here, not at exit, so a closed pipe is caught below
        return code
    except BrokenPipeError:
        # The reader went away (`lingshu recall --explain ... | head`): stop quietly, as other
        # commands do, and keep Python from complaining about the closed pipe at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE: what a shell reports for a command whose reader left


def entry() -> None:
    """The console script. The recall hook's process ends as soon as its answer is out: the
    interpreter's teardown (freeing every module, closing the index's connections) was ~18 ms
    of its ~130 here, on every user message. What it wrote is already committed and closed."""
    argv = sys.argv[1:]
    code = main(argv)
    if argv[:1] == ["recall"]:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def _main(argv: list[str]) -> int:
    if argv[:1] == ["recall"]:
        return _recall_fast(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "panel"
    try:
        return int(HANDLERS[command](args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # noqa: BLE001 - the last guard: no traceback for a user
        from core.errors import LingshuError

        if isinstance(err, LingshuError):
            print(f"lingshu: {err.message}", file=sys.stderr)
            return EXIT_FALSE
        raise


def _print(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def cmd_call(args: argparse.Namespace) -> int:
    from core.tools import TOOLS, dispatch

    if args.tool not in (*TOOLS, "memory"):
        print(f"lingshu call: unknown tool '{args.tool}'. Tools: {', '.join(TOOLS)}, or memory (the single-tool protocol mode).", file=sys.stderr)
        return EXIT_USAGE
    # No JSON argument: read it from a pipe, but never sit waiting on an interactive terminal.
    text = args.json if args.json is not None else ("" if sys.stdin.isatty() else sys.stdin.read())
    try:
        payload = json.loads(text) if text.strip() else {}
    except ValueError as err:
        print(f"lingshu call: the arguments are not valid JSON ({err}). Pass one JSON object, e.g. '{{\"query\": \"tests\"}}'.", file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print("lingshu call: the arguments are nested too deeply to read. Pass one flat JSON object, e.g. '{\"query\": \"tests\"}'.", file=sys.stderr)
        return EXIT_USAGE
    if args.tool == "memory":
        from core.ops import memory_op

        answer = memory_op(payload, home=args.home, project=args.project)
        print(json.dumps(answer, ensure_ascii=False, indent=2))  # the seed's forms as they are; null for a missing node
        return EXIT_OK if answer is not None and answer.get("ok", True) else EXIT_FALSE
    result = dispatch(args.tool, payload, home=args.home, project=args.project, actor="user" if args.as_user else "agent")
    _print(result)
    return EXIT_OK if result.get("ok") else EXIT_FALSE


def _workspace(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from core.workspace import open_workspace

    return open_workspace(args.home, args.project)


def cmd_project(args: argparse.Namespace) -> int:
    from core.settings import confirm_project, forget_project

    ws = _workspace(args)
    if args.action == "confirm":
        pid = confirm_project(ws.home, args.path)
        print(f"Confirmed {args.path} as project {pid}. Memory for it is on; `lingshu disable` switches it off.")
        return EXIT_OK
    if args.action == "forget":
        pid = forget_project(ws.home, args.path)
        print(f"{args.path} is no longer a confirmed project. Its memory ({ws.home / 'projects' / pid}) is kept; "
              "confirm the folder again to use it, or delete that folder to remove it for good.")
        return EXIT_OK
    if not ws.project_id:
        print("No confirmed project holds this folder. Run `lingshu project confirm PATH` to make one.")
        return EXIT_FALSE
    p = ws.project
    print(f"project {ws.project_id}\nroot {p.get('root')}\nmemory {'on' if p['enabled'] else 'off'}\nwrites {p['writeMode']}\nrecall {p['recallMode']}")
    return EXIT_OK


def _set_flag(args: argparse.Namespace, key: str, value: Any, done: str) -> int:
    from core.settings import set_project_setting

    ws = _workspace(args)
    if not ws.project_id:
        print("No confirmed project here. Run `lingshu project confirm PATH` first, or pass --project PATH.", file=sys.stderr)
        return EXIT_FALSE
    set_project_setting(ws.home, ws.project_id, key, value)
    print(done.format(project=ws.project_id))
    return EXIT_OK


def cmd_settings(args: argparse.Namespace) -> int:
    from core.ledger import turn_limits
    from core.settings import SETTABLE, parse_setting, set_project_setting

    ws = _workspace(args)
    if not ws.project_id:
        print("No confirmed project here. Run `lingshu project confirm PATH` first, or pass --project PATH.", file=sys.stderr)
        return EXIT_FALSE
    if args.action in ("set", "unset"):
        if not args.key or (args.action == "set" and args.value is None):
            print(f"Usage: lingshu settings {args.action} KEY{' VALUE' if args.action == 'set' else ''}. Keys: {', '.join(SETTABLE)}.", file=sys.stderr)
            return EXIT_USAGE
        if args.action == "unset" and args.key not in SETTABLE:
            print(f"'{args.key}' is not a setting you can unset. Keys: {', '.join(SETTABLE)}.", file=sys.stderr)
            return EXIT_USAGE
        value = parse_setting(args.key, args.value) if args.action == "set" else None
        set_project_setting(ws.home, ws.project_id, args.key, value)
        print(f"{args.key} = {value} for {ws.project_id}." if value is not None else f"{args.key} is back to its default for {ws.project_id}.")
        return EXIT_OK
    p = ws.project
    limits = turn_limits(ws)
    print(f"project {ws.project_id}\nroot {p.get('root')}")
    print(f"enabled {str(p['enabled']).lower()}\nwriteMode {p['writeMode']}\nrecallMode {p['recallMode']}\nexperimental {str(bool(p.get('experimental'))).lower()}")
    own = p.get("budgets") or {}
    for key, value in limits.items():
        print(f"budgets.{key} {value}{'' if key in own else ' (default)'}")
    for key, value in (p.get("taskDefaults") or {}).items():
        print(f"taskDefaults.{key} {value}")
    print(f"\nChange one with `lingshu settings set KEY VALUE`; keys: {', '.join(SETTABLE)}.")
    return EXIT_OK


def cmd_enable(args: argparse.Namespace) -> int:
    return _set_flag(args, "enabled", True, "Memory is on for {project}.")


def cmd_disable(args: argparse.Namespace) -> int:
    return _set_flag(args, "enabled", False, "Memory is off for {project}: nothing is read or written, nothing is deleted. `lingshu enable` switches it back on.")


def cmd_review(args: argparse.Namespace) -> int:
    if args.state == "on":
        return _set_flag(args, "writeMode", "review", "Review mode is on for {project}: the agent's new records wait in the panel's suggestions until you keep them.")
    return _set_flag(args, "writeMode", "direct", "Review mode is off for {project}: the agent's saves land at once.")


def cmd_doctor(args: argparse.Namespace) -> int:
    from core.doctor import all_layers, check_layer, check_settings, sweep_home
    from core.paths import default_home
    from core.store import acknowledge_recovery

    home = Path(args.home) if args.home else default_home()
    if args.reset:
        return _doctor_reset(args, home)
    if args.reindex:
        return _doctor_reindex(home)
    if args.ack:
        acked = [ref.label for ref in all_layers(home) if acknowledge_recovery(ref)]
        print(f"Acknowledged the recovery of the {', '.join(acked)}." if acked else "No recovery notice to acknowledge.")
        return EXIT_OK
    swept, swept_bytes, made_private = sweep_home(home) if home.is_dir() else (0, 0, 0)
    reports = [check_layer(ref) for ref in all_layers(home) if ref.dir.exists()]
    settings_problems = check_settings(home)
    semantic_report = _semantic_report(home)
    if args.json:
        _print({"home": str(home), "layers": [r.as_dict() for r in reports], "needsPerson": any(r.needs_person for r in reports),
                "tempFilesRemoved": swept, "semantic": semantic_report})
    else:
        print(f"Lingshu home: {home}")
        if not reports:
            print("No layers yet. Save a memory (or run `lingshu demo`) to create one.")
        for r in reports:
            mark = "NEEDS YOU" if r.needs_person else "ok"
            print(f"\n[{mark}] {r.ref.label}")
            if r.generation is not None:
                c = r.counts
                print(f"  generation {r.generation} · {c.get('active', 0)} active, {c.get('archived', 0)} archived, {c.get('purged', 0)} purged · "
                      f"{c.get('conflicts', 0)} conflicts, {c.get('suggestions', 0)} suggestions")
                print(f"  checksum {'ok' if r.checksum_ok else 'FAILED'} · previous generation {'ok' if r.prev_ok else ('none yet' if r.prev_ok is None else 'unreadable')} · cold bodies checked {r.cold_checked}")
            if r.quarantined:
                print(f"  quarantined copies: {', '.join(r.quarantined)}")
            for line in r.problems:
                print(f"  problem: {line}")
            for i, step in enumerate(r.steps, 1):
                print(f"  step {i}: {step}")
        stale = sum(layer["stale"] for layer in semantic_report.get("layers", []))
        if semantic_report.get("model") and stale:
            print(f"\nsemantic tier: {stale} note(s) without a current vector are found by their words only; "
                  "`lingshu doctor --reindex` computes them.")
    for line in settings_problems:
        print(f"\n[NEEDS YOU] settings\n  problem: {line}", file=sys.stdout if not args.json else sys.stderr)
    if semantic_report.get("problem"):
        print(f"\n[NEEDS YOU] semantic tier (recall and search use words alone meanwhile)\n  problem: {semantic_report['problem']}",
              file=sys.stdout if not args.json else sys.stderr)
    if swept:
        print(f"\nremoved {swept} temp file(s) ({swept_bytes} bytes) left by writers that were killed mid-write.",
              file=sys.stdout if not args.json else sys.stderr)
    if made_private:
        print(f"\nmade {made_private} file(s) and folder(s) readable by you only (0600 files, 0700 folders).",
              file=sys.stdout if not args.json else sys.stderr)
    needs_you = settings_problems or semantic_report.get("problem") or any(r.needs_person for r in reports)
    return EXIT_FALSE if needs_you else EXIT_OK


def _semantic_report(home: Path) -> dict[str, Any]:
    """The semantic tier's status when a model is in use (nothing is loaded otherwise)."""
    from core import semantic

    if not (home / semantic.ACTIVE).exists():
        return {"model": None}
    return semantic.status(home)


def _doctor_reindex(home: Path) -> int:
    """Derived data only: the index and the vectors are rebuilt from each layer file, which is untouched."""
    import sqlite3

    from core import index, semantic
    from core.doctor import all_layers
    from core.errors import LingshuError
    from core.store import load

    failed = False
    layers = [ref for ref in all_layers(home) if ref.state_path.exists()]
    if not layers:
        print(f"No layers yet in {home}: nothing to rebuild.")
    for ref in layers:
        try:
            index.rebuild_now(ref)
            print(f"{ref.label}: search index rebuilt ({len(load(ref)['records'])} records)")
        except (LingshuError, sqlite3.Error) as err:
            failed = True
            print(f"{ref.label}: not rebuilt: {getattr(err, 'message', err)}. Run it again; the layer file itself is untouched.",
                  file=sys.stderr)
    try:
        semantic.reindex(home, progress=lambda line: print(f"{line} (semantic tier)"))
    except semantic.Unavailable as err:
        failed = True
        print(f"semantic tier: not rebuilt: {err}", file=sys.stderr)
    return EXIT_FALSE if failed else EXIT_OK


def cmd_semantic(args: argparse.Namespace) -> int:
    from core import semantic
    from core.paths import default_home

    home = Path(args.home) if args.home else default_home()
    if args.action == "off":
        semantic.choose(home, None)
        print("The semantic tier is off: recall and search use words alone. Installed models stay in "
              f"{semantic.models_dir(home)}; `lingshu semantic install NAME` switches one back on.")
        return EXIT_OK
    if args.action == "install":
        if args.similarity is not None and not 0 < args.similarity < 1:
            print("--similarity is a cosine between 0 and 1 (e.g. 0.7).", file=sys.stderr)
            return EXIT_USAGE
        try:
            manifest = semantic.install(home, args.model or semantic.DEFAULT_MODEL, progress=lambda line: print(f"… {line}", file=sys.stderr),
                                        similarity=args.similarity)
        except semantic.Unavailable as err:
            print(f"lingshu semantic: {err}", file=sys.stderr)
            return EXIT_FALSE
        print(f"Installed {manifest['name']} ({manifest['dim']} dimensions, {manifest['vocabulary']} tokens) and made it the model in use. "
              "From now on nothing touches the network; `lingshu semantic status` shows its vectors.")
        return EXIT_OK
    report = semantic.status(home)
    if args.json:
        _print(report)
        return EXIT_OK
    if report.get("problem"):
        print(f"semantic tier: PROBLEM: {report['problem']}")
    model = report["model"]
    if model is None:
        print("semantic tier: off (recall and search use words alone)." + (
            f" Installed: {', '.join(report['installed'])}." if report["installed"] else
            " `pip install 'lingshu[semantic]'` then `lingshu semantic install` brings in a model once."))
        return EXIT_OK
    print(f"semantic tier: {model['name']} ({model['dim']} dimensions, from {model['source']}, installed {model['installed']})"
          + (f"; loads in {report['loadMs']} ms" if "loadMs" in report else ""))
    for layer in report["layers"]:
        print(f"  {layer['layer']}: {layer['vectors']} vectors" + (f", {layer['stale']} notes without a current one" if layer["stale"] else ""))
    if any(layer["stale"] for layer in report["layers"]):
        print("  Notes without a vector are still found by their words; `lingshu doctor --reindex` computes them.")
    return EXIT_FALSE if report.get("problem") else EXIT_OK


def _doctor_reset(args: argparse.Namespace, home: Path) -> int:
    """Emptying a layer is the one destructive thing doctor does: name it exactly, then ask."""
    from core.doctor import reset_layer
    from core.paths import global_dir, project_dir
    from core.store import LayerRef

    if args.reset == "global":
        ref = LayerRef("global", global_dir(home))
    else:
        pid = args.project_id or _workspace(args).project_id
        if not pid:
            print("Which project? Pass --project-id ID (see `lingshu doctor`) or --project PATH.", file=sys.stderr)
            return EXIT_USAGE
        if pid in (".", "..") or "/" in pid or "\\" in pid or os.sep in pid or not (home / "projects" / pid).is_dir():
            print(f"No project layer is called {pid!r} in {home / 'projects'}. Run `lingshu doctor` to see the project ids.", file=sys.stderr)
            return EXIT_USAGE
        ref = LayerRef("project", project_dir(home, pid), pid)
    if not args.yes:
        if not sys.stdin.isatty():
            print(f"This empties the {ref.label} (its files are kept aside). Run again with --yes to do it.", file=sys.stderr)
            return EXIT_USAGE
        answer = input(f"Empty the {ref.label} in {ref.dir}? Its files are kept aside. [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing was changed.")
            return EXIT_OK
    kept = reset_layer(ref)
    print(f"The {ref.label} starts empty now." + (f" Its old files are kept as {kept.name}." if kept else ""))
    return EXIT_OK


def cmd_recall(args: argparse.Namespace) -> int:
    if args.explain:
        return _recall_explain(args)
    from core.recall import main as recall_main

    return recall_main(args)


def _recall_explain(args: argparse.Namespace) -> int:
    from core.contexts import build_context
    from core.errors import LingshuError
    from core.recall import select

    if not args.message:
        print("lingshu recall --explain needs --message TEXT.", file=sys.stderr)
        return EXIT_USAGE
    try:
        ws = _workspace(args)
        trace: list[dict[str, Any]] = []
        tier: dict[str, Any] = {}
        chosen, _, why = select(ws, args.message, build_context(ws), deadline_ms=60_000, semantic_budget_ms=None, trace=trace, tier=tier)
    except LingshuError as err:
        print(f"lingshu recall: {err.message}", file=sys.stderr)
        return EXIT_FALSE
    if args.format == "json":
        _print({"cards": [r["id"] for r, _ in chosen], "why": why, "tiers": tier["tiers"], "semantic": tier["semantic"],
                "reading": tier.get("reading"), "candidates": trace})
        return EXIT_OK
    print(f"{len(chosen)} card(s)" + (f" — {why}" if why else "") + f" for: {args.message}")
    print(f"  ranked by {' + '.join(tier['tiers'])}" + (f" (semantic tier not used: {tier['semantic']})" if tier["semantic"] else ""))
    if tier.get("reading"):
        print(f"  read by {tier['reading']}")
    for line in trace:
        meaning = "" if line["similarity"] is None else f" meaning {line['similarity']:<5}"
        print(f"  {line['verdict']:<50} {line['score']:>7} terms {line['matched']}/{line['of']} coverage {line['coverage']:<5}{meaning} "
              f"[{line['layer']}] {line['title']}")
        if line["terms"]:
            print(f"  {'':<50} holds: {', '.join(line['terms'])}")
        if line.get("look"):
            print(f"  {'':<50} comes as {line['look']}")
    if not trace and why == "no match":
        print("  no note shares a word with the message.")
    return EXIT_OK


def cmd_mcp(args: argparse.Namespace) -> int:
    import errno

    from lingshu_tui.mcp_server import serve

    try:
        try:
            serve(home=args.home, project=args.project, single_tool=args.single_tool)
        except* OSError as group:
            # A terminal that closes under a server started by hand reads as EIO: the end of its input.
            if not all(getattr(e, "errno", None) == errno.EIO for e in group.exceptions):
                raise
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a person stops a server they started by hand: a clean exit
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from core.conformance import main as check_main

    return check_main(write_doc=args.write_doc, root=args.root)


KNOWN_FILES = ("CLAUDE.md", "AGENTS.md", "MEMORY.md", ".github/copilot-instructions.md")


def _import_sources(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found += [path / name for name in KNOWN_FILES if (path / name).is_file()]
            rules = path / ".cursor" / "rules" if (path / ".cursor").is_dir() else path
            found += sorted(rules.glob("*.mdc"))
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(raw)
    return found


def cmd_import(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from core.importing import apply_plan, import_json, load_json_export, plan_file, predict

    try:
        sources = _import_sources(args.paths)
    except FileNotFoundError as missing:
        print(f"lingshu import: {missing} does not exist. Give files or folders to import.", file=sys.stderr)
        return EXIT_USAGE
    if not sources:
        print("lingshu import: found no memory files there (CLAUDE.md, AGENTS.md, MEMORY.md, .cursor/rules/*.mdc, …).", file=sys.stderr)
        return EXIT_USAGE
    ws = _workspace(args)
    if args.scope == "project" and not ws.project_id:
        print("lingshu import: no project is confirmed here. Run `lingshu project confirm PATH`, pass --project PATH, or use --scope global.", file=sys.stderr)
        return EXIT_FALSE
    console = Console()
    rows: list[dict] = []
    plan: list[dict] = []
    for source in sources:
        export = load_json_export(source) if source.suffix == ".json" else None
        if export is not None:
            rows += [{**row, "source": source.name} for row in import_json(ws, export, dry_run=not args.apply)]
            continue
        plan += plan_file(source, args.scope)
    if args.apply and plan:
        if sys.stderr.isatty() and len(plan) > 5:
            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("Importing", total=len(plan))
                rows += apply_plan(ws, plan, lambda n: bar.update(task, completed=n))
        else:
            rows += apply_plan(ws, plan)
    else:
        rows += predict(ws, plan)
    table = Table(title="What was imported" if args.apply else "What would be imported (dry run: nothing written; add --apply)")
    for column in ("file", "title", "kind", "layer", "result"):
        table.add_column(column)
    for row in rows:
        result = row["status"] + (f": {row['reason']}" if row.get("reason") else "")
        table.add_row(row.get("source", ""), row.get("title", ""), row.get("kind", ""), row.get("layer", row.get("scope", "")), result)
    console.print(table)
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("new", "written", "skip", "refused")}
    if args.apply:
        console.print(f"{counts['written']} written, {counts['skip']} skipped, {counts['refused']} refused. "
                      "Imported notes are marked unreviewed: recall ignores them until you mark them reviewed in the panel (v, or V for a room).")
    else:
        console.print(f"{counts['new']} to write, {counts['skip']} to skip, {counts['refused']} refused. Run again with --apply to write them.")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from core.exporting import export_json, export_markdown

    ws = _workspace(args)
    text = export_json(ws, args.scope) if args.format == "json" else export_markdown(ws, args.scope)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"Wrote {args.out}.", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    if args.vs_node:
        from lingshu_tui.bench_vs import main as versus

        try:
            figures = versus(args.vs_node)
        except (FileNotFoundError, OSError) as err:
            print(f"lingshu bench: {err}", file=sys.stderr)
            return EXIT_USAGE
        if args.json:
            _print(figures)
        else:
            for key, value in figures.items():
                print(f"{key} {value}")
        return EXIT_OK
    if args.recall_set:
        from lingshu_tui.recall_eval import SetError, evaluate, load_set, render

        try:
            data = load_set(Path(args.recall_set))
            figures = evaluate(data, progress=lambda step: print(f"… {step}", file=sys.stderr), model=args.model)
        except SetError as err:
            print(f"lingshu bench: {err}", file=sys.stderr)
            return EXIT_USAGE
        if args.json:
            _print(figures if args.misses else {k: v for k, v in figures.items() if k != "misses"})
        else:
            print(render(figures))
            if args.misses:
                print("\n" + "\n".join(figures["misses"]))
        return EXIT_OK
    from lingshu_tui.bench import main as bench_main

    if args.model and not args.scale:
        print("lingshu bench: --model goes with --recall-set FILE or --scale.", file=sys.stderr)
        return EXIT_USAGE
    return bench_main(as_json=args.json, quick=args.quick, scale=args.scale, model=args.model)


def cmd_panel(args: argparse.Namespace) -> int:
    from lingshu_tui.app import run_panel

    return run_panel(home=getattr(args, "home", None), project=getattr(args, "project", None))


def cmd_demo(args: argparse.Namespace) -> int:
    from lingshu_tui.demo import run_demo

    return run_demo(agent=not args.no_agent, print_only=args.print)


def cmd_learn(args: argparse.Namespace) -> int:
    from core import learning

    ws = _workspace(args)
    if not ws.project_id:
        print("Learning works per confirmed project: run `lingshu project confirm PATH` first, or pass --project PATH.", file=sys.stderr)
        return EXIT_FALSE
    if args.action in learning.TRANSITIONS:
        if not args.id:
            print(f"Usage: lingshu learn {args.action} ID (the ids are in `lingshu learn status`).", file=sys.stderr)
            return EXIT_USAGE
        result = learning.steer(ws, args.id, args.action)
        if args.json:
            _print(result)
        else:
            print(f"{args.id} is now {result['state']}." if result["ok"] else result["message"], file=sys.stdout if result["ok"] else sys.stderr)
        return EXIT_OK if result["ok"] else EXIT_FALSE
    if args.action == "organize":
        turns, days = learning.settings_of(ws)
        receipt = learning.organize(ws, trial_days=days)
        moved = learning.advance(ws, ws.project_layer, turns)  # type: ignore[arg-type]
        if args.json:
            _print({**receipt, "advanced": moved})
        elif receipt["ok"]:
            print(f"Organized {len(receipt['candidates'])} candidate(s): {len(receipt['committed'])} new rule(s) (pending your approval), "
                  f"{len(receipt['kept'])} matched a rule already, {len(receipt['stale'])} stale, {len(receipt['refused'])} refused"
                  + (f"; {len(moved)} trial rule(s) moved on" if moved else "") + f". Receipt {receipt['id']}.")
        else:
            print(f"The organizer failed ({receipt['reason']}); no rule changed. Receipt {receipt['id']}.", file=sys.stderr)
        return EXIT_OK if receipt["ok"] else EXIT_FALSE
    report = learning.status(ws)
    if args.json:
        _print(report)
        return EXIT_OK
    print(f"learning {'on' if report['learning'] else 'off'} for {ws.project_id}"
          + ("" if report["learning"] else " (`lingshu settings set experimental true` switches it on)"))
    print(f"trial: {report['trialTurns']} messages without a contradiction, at most {report['trialDays']} days")
    if report["unfoldedFeedback"]:
        print(f"{report['unfoldedFeedback']} correction(s) not organized yet (`lingshu learn organize`)")
    for c in report["candidates"]:
        if c["state"] == "pending":
            print(f"candidate {c['id']}: {c['text']}  ({len(c['evidence'])} time(s) said)")
    for rule in report["rules"]:
        extra = f", until {rule['trialUntil'][:16]}" if rule["state"] == "trial" and rule.get("trialUntil") else ""
        extra += f", {rule['pausedReason']}" if rule["state"] == "paused" and rule.get("pausedReason") else ""
        print(f"rule {rule['id']} [{rule['state']}{extra}]: {rule['text']}  ({len(rule['evidence'])} piece(s) of evidence)")
    for receipt in report["receipts"]:
        print(f"receipt {receipt['id']} {receipt.get('organizer')}: {'ok' if receipt['ok'] else 'failed: ' + receipt['reason']}")
    if not report["candidates"] and not report["rules"]:
        print("Nothing learned yet. With learning on, the prompt hook notes your corrections ('no, use pnpm here', 'always run make lint').")
    return EXIT_OK


HANDLERS = {
    "learn": cmd_learn,
    "call": cmd_call,
    "project": cmd_project,
    "settings": cmd_settings,
    "enable": cmd_enable,
    "disable": cmd_disable,
    "review": cmd_review,
    "doctor": cmd_doctor,
    "semantic": cmd_semantic,
    "recall": cmd_recall,
    "mcp": cmd_mcp,
    "check": cmd_check,
    "bench": cmd_bench,
    "import": cmd_import,
    "export": cmd_export,
    "panel": cmd_panel,
    "demo": cmd_demo,
}

if __name__ == "__main__":
    entry()
