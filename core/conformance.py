"""`lingshu check`: the protocol's static conformance report (SPEC §14.5), from parsing the code
with `ast` (a regex silently misses single quotes, line breaks and `op.strip().lower()` forms)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import NamedTuple


class Check(NamedTuple):
    id: str
    level: str  # PASS, WARN, FAIL
    detail: str


def _load_protocol(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_checked_protocol", root / "core" / "protocol.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tools_from_source(source: str) -> tuple[set[str], set[str]]:
    """(names in the `TOOLS = {…}` dispatch table whose value is a defined function, all function names)."""
    tree = ast.parse(source)
    functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    table: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TOOLS" for t in node.targets):
            if isinstance(node.value, ast.Dict):
                for key, value in zip(node.value.keys, node.value.values):
                    if isinstance(key, ast.Constant) and isinstance(value, ast.Name) and value.id in functions:
                        table.add(str(key.value))
    return table, functions


_CASE_FOLDS = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "casefold"})


def _is_op(node: ast.AST) -> bool:
    """`op`, or `op` run through case and whitespace normalisation (`op.strip().lower()`, `str(op)`)."""
    if isinstance(node, ast.Name):
        return node.id == "op"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASE_FOLDS:
        return _is_op(node.func.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1:
        return _is_op(node.args[0])
    return False


def _case_values(pattern: ast.pattern) -> set[str]:
    if isinstance(pattern, ast.MatchValue) and isinstance(pattern.value, ast.Constant) and isinstance(pattern.value.value, str):
        return {pattern.value.value}
    if isinstance(pattern, ast.MatchOr):
        return {v for p in pattern.patterns for v in _case_values(p)}
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _case_values(pattern.pattern)
    return set()


def ops_from_source(source: str) -> set[str]:
    """Every op the single dispatch branches on, however it is spelled: `op == "x"`, `"x" == op`,
    `op in ("x", …)`, the same on `op.strip().lower()` and other case folds, and `match op:` cases.
    A branch this misses would let a reserved verb be implemented without the check failing."""
    ops: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Match) and _is_op(node.subject):
            for case in node.cases:
                ops |= _case_values(case.pattern)
            continue
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right = node.left, node.comparators[0]
        if not (_is_op(left) or _is_op(right)):
            continue
        other = right if _is_op(left) else left
        if isinstance(node.ops[0], ast.Eq) and isinstance(other, ast.Constant) and isinstance(other.value, str):
            ops.add(str(other.value).strip().lower())
        elif isinstance(node.ops[0], ast.In) and isinstance(other, ast.Tuple | ast.List | ast.Set):
            ops |= {str(e.value).strip().lower() for e in other.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return ops


def run_checks(root: Path) -> list[Check]:
    proto = _load_protocol(root)
    tools, _ = tools_from_source((root / "core" / "tools.py").read_text(encoding="utf-8"))
    ops = ops_from_source((root / "core" / "ops.py").read_text(encoding="utf-8"))
    checks: list[Check] = []
    extension = sorted(ops - set(proto.VERBS))
    checks.append(Check("protocol.op.extension_surface", "WARN" if extension else "PASS",
                        f"{len(proto.VERBS)} protocol verbs; extension ops: {', '.join(extension) or 'none'}"))
    missing = []
    for verb, spec in proto.VERB_SPECS.items():
        if spec["status"] != "live":
            continue
        gaps = [t for t in spec.get("impl", ()) if t not in tools]
        if verb not in ops:
            gaps.append(f"op branch '{verb}'")
        if gaps:
            missing.append(f"{verb}: {', '.join(gaps)}")
    checks.append(Check("protocol.verb.implemented", "FAIL" if missing else "PASS",
                        "; ".join(missing) or "every live verb has a tool and an op branch"))
    secret = [v for v, s in proto.VERB_SPECS.items() if s["status"] == "reserved" and v in ops]
    checks.append(Check("protocol.verb.reserved_clean", "FAIL" if secret else "PASS",
                        f"reserved but implemented: {', '.join(secret)}" if secret else "no reserved verb is implemented"))
    problems = []
    if tuple(proto.VERB_SPECS) != tuple(proto.VERBS):
        problems.append("VERB_SPECS and VERBS list different verbs")
    for verb, spec in proto.VERB_SPECS.items():
        if not spec.get("forms"):
            problems.append(f"{verb} has no form")
        if spec["status"] == "reserved" and not spec.get("map_to"):
            problems.append(f"{verb} is reserved without map_to")
        if spec["status"] == "live" and not spec.get("impl"):
            problems.append(f"{verb} is live without impl")
        for name, form in spec.get("forms", {}).items():
            if not form.get("when") or "required" not in form or "optional" not in form:
                problems.append(f"{verb}.{name} lacks when/required/optional")
            if spec.get("mutating") and not set(proto.WRITE_TRIO) <= set(form.get("required", ())):
                problems.append(f"{verb}.{name} lacks the write trio")
    for verb, forms in getattr(proto, "SEED_FORMS", {}).items():
        for name, form in forms.items():
            if form.get("reserved") and not form.get("map_to"):
                problems.append(f"seed {verb}.{name} is reserved without map_to")
            if verb == "write" and not set(proto.WRITE_TRIO) <= set(form.get("required", ())):
                problems.append(f"seed write.{name} lacks the write trio")
    checks.append(Check("protocol.shape.declared", "FAIL" if problems else "PASS", "; ".join(problems) or "every form is declared completely"))
    return checks


def render_doc(root: Path) -> str:
    proto = _load_protocol(root)
    lines = [
        f"# Lingshu verb protocol v{proto.VERSION}",
        "",
        "Generated from `core/protocol.py` by `lingshu check --write-doc`; do not edit by hand (a test fails when they differ).",
        "",
        f"Status: {'frozen' if proto.FROZEN else 'draft'}. Every answer carries {', '.join('`%s`' % k for k in proto.ENVELOPE)}; "
        f"every mutating form carries the write trio {', '.join('`%s`' % k for k in proto.WRITE_TRIO)}. "
        "`ok: true, committed: false` means a gate acted on purpose: retrying gives the same answer, read `hint`. "
        f"Tool faults ({', '.join('`%s`' % s for s in proto.TOOL_FAULTS)}) are also flagged `isError: true` to MCP clients.",
        "",
        "## Verbs",
        "",
        "| verb | status | mutating | inputs (one of) | tools | forms |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for verb, spec in proto.VERB_SPECS.items():
        lines.append(f"| `{verb}` | {spec['status']} | {'yes' if spec['mutating'] else 'no'} | {' · '.join(spec['inputs'])} | "
                     f"{', '.join(spec.get('impl', ()))} | {len(spec['forms'])} |")
    for verb, spec in proto.VERB_SPECS.items():
        lines += ["", f"## `{verb}`", "", "| form | when | required | optional |", "| --- | --- | --- | --- |"]
        for name, form in spec["forms"].items():
            req = ", ".join(f"`{k}`" for k in form["required"])
            opt = ", ".join(f"`{k}`" for k in form["optional"]) or "—"
            lines.append(f"| `{name}` | {form['when']} | {req} | {opt} |")
    lines += ["", "## Verdict", "", f"Fields: {', '.join('`%s`' % f for f in proto.VERDICT_FIELDS)}; "
              f"`state` is one of {', '.join(proto.VERDICT_STATES)}.", "", "## Op derivation (single `memory` tool)", "",
              "| argument present | op |", "| --- | --- |"]
    lines += [f"| `{k}` | `{op}` |" for k, op in proto.OP_DERIVE]
    lines += [f"| (none) | `{proto.OP_DERIVE_DEFAULT}` |", "",
              f"A derived op adds {', '.join('`%s`' % k for k in proto.DERIVE_EXTRA_KEYS)} to the answer.", "",
              f"Any answer may also carry {', '.join('`%s`' % k for k in proto.NOTICE_KEYS)}: once, after a layer was restored "
              "from its previous generation, saying what was lost and where the damaged copy is.", "",
              "## Decisions where the six tools depart from the seed", ""]
    lines += [f"- **{where}**: {why}" for where, why in proto.DECISIONS]
    lines += ["", "## The protocol mode: seed 000, exactly", "",
              f"`lingshu mcp --single-tool` (one `memory {{op, …}}` tool) and `lingshu call memory JSON` speak {proto.SEED_VERSION} "
              "key for key, so a client written against the seed works unchanged: it takes `node_id` and `content`, answers the seed's "
              "forms below with no other keys (a derived op adds "
              f"{', '.join('`%s`' % k for k in proto.DERIVE_EXTRA_KEYS)}), and a read of a node that is not there answers `null`. "
              "Every op runs through the same dispatch as the six tools, so the gates and verdicts are the same; only the names "
              "and shapes differ.", "", "| verb | form | when | required | optional |", "| --- | --- | --- | --- | --- |"]
    for verb, forms in proto.SEED_FORMS.items():
        for name, form in forms.items():
            req = ", ".join(f"`{k}`" for k in form["required"]) or ("`null`" if form.get("returns_null") else "—")
            opt = ", ".join(f"`{k}`" for k in form["optional"]) or "—"
            status = " (reserved)" if form.get("reserved") else ""
            lines.append(f"| `{verb}` | `{name}`{status} | {form['when']} | {req} | {opt} |")
    lines += ["", "Reserved forms and what stands in for them (`map_to`):", ""]
    lines += [f"- **{verb}.{name}**: {form['map_to']}" for verb, forms in proto.SEED_FORMS.items()
              for name, form in forms.items() if form.get("reserved")]
    lines += ["", "A Lingshu record read as a seed node:", "", "| node key | from the record |", "| --- | --- |"]
    lines += [f"| `{key}` | {what} |" for key, what in proto.SEED_NODE_MAPPING]
    lines += ["", "Other mappings: `supersede` answers `id` (the replaced record) and `superseded_by` (its successor); a write's "
              "`consistency` carries Lingshu's status, revision, layer and pending conflicts, its `propagation.archived` the notes "
              "archived to make room; `forget.failed` carries the status as `reason` and the next step as `hint_action`; a tool "
              "fault on a write (bad call, busy lock) is the hard-reject form with the status as `gate`.",
              "", "Verdicts: `basis` names what the gate looked at and `evidence` what it found there; a gate that lacks what it "
              "needs to decide (no confirmed project, an unknown task) says `BLINDSPOT`."]
    return "\n".join(lines) + "\n"


def default_root() -> Path:
    return Path(__file__).resolve().parent.parent


def main(*, write_doc: bool = False, root: str | None = None) -> int:
    base = Path(root) if root else default_root()
    if not (base / "core" / "protocol.py").exists():
        print(f"lingshu check: {base} has no core/protocol.py. Pass --root with the source tree to check.", file=sys.stderr)
        return 2
    if write_doc:
        target = base / "docs" / "protocol.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_doc(base), encoding="utf-8")
        print(f"wrote {target}")
    checks = run_checks(base)
    for c in checks:
        print(f"{c.level:<4}  {c.id:<32} {c.detail}")
    failed = [c for c in checks if c.level == "FAIL"]
    print(f"\n{len(checks) - len(failed)} checks passed, {len(failed)} failed")
    return 1 if failed else 0
