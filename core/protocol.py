"""The verb protocol v1: the single source of truth for every agent-facing answer shape (SPEC §14).

`docs/protocol.md` is generated from this module (`lingshu check --write-doc`); `lingshu check`
verifies it against the code by parsing the code (`core/conformance.py`).
"""

from __future__ import annotations

from typing import Any

VERSION = 1
FROZEN = False

VERBS: tuple[str, ...] = ("route", "read", "write", "supersede", "forget")
WRITE_TRIO: tuple[str, ...] = ("ok", "id", "committed")
VERDICT_FIELDS: tuple[str, ...] = ("state", "kind", "basis", "evidence", "detail")
VERDICT_STATES: tuple[str, ...] = ("ACCEPT", "REJECT", "DEFER", "BLINDSPOT")
ENVELOPE: tuple[str, ...] = ("ok", "status")

# Which argument decides the op when `memory {…}` is called without one; first match wins, none → read.
# The seed's table (§6: content, query, node_id, intent), with Lingshu's own names beside its own.
OP_DERIVE: tuple[tuple[str, str], ...] = (
    ("content", "write"),
    ("body", "write"),
    ("query", "read"),
    ("node_id", "read"),
    ("id", "read"),
    ("intent", "route"),
)
OP_DERIVE_DEFAULT = "read"
# Statuses that mean the tool itself could not do it (not a gate, not an empty answer): an MCP
# client is told with `isError: true`, so a model sees it should fix its call or retry.
TOOL_FAULTS: tuple[str, ...] = ("invalid", "busy")
DERIVE_EXTRA_KEYS: tuple[str, ...] = ("op", "op_derived", "hint")
# Any answer may carry these: `recovered` is the one-time notice that a layer was restored from
# its previous generation (what was lost, where the damaged copy is, `lingshu doctor --ack`).
NOTICE_KEYS: tuple[str, ...] = ("recovered",)

_COMMITTED = ("ok", "id", "committed", "status", "revision", "layer", "pendingConflicts")
_SHORT = ("ok", "id", "committed", "status", "moved_to", "verdict", "hint")
_SHORT_OPT = ("message", "pendingConflicts", "needsResolution", "candidates", "dup_of", "routedTo", "routedBecause", "action")
_HARD = ("ok", "id", "committed", "status", "gate", "error", "message", "hint", "verdict")
_HARD_OPT = ("needsScope", "field", "candidates", "pendingConflicts", "action")
_FAILED = ("ok", "id", "committed", "status", "message")

_GATE_FORMS: dict[str, dict[str, Any]] = {
    "gate_short_circuit": {
        "when": "a gate held the write on purpose (duplicate, look-alike, review mode, nothing to change); retrying gives the same answer",
        "required": _SHORT,
        "optional": _SHORT_OPT,
    },
    "gate_hard_reject": {
        "when": "a gate refused the write (memory off, safety scan, no scope, stale revision, replaced target)",
        "required": _HARD,
        "optional": _HARD_OPT,
    },
    "failed": {
        "when": "the tool could not do it: invalid input, unknown or archived id, busy lock, unreadable layer or cold body",
        "required": _FAILED,
        "optional": ("action", "pendingConflicts"),
    },
}

VERB_SPECS: dict[str, dict[str, Any]] = {
    "route": {
        "status": "live",
        "mutating": False,
        "inputs": ("intent", "query"),
        "impl": ("memory_route",),
        "forms": {
            "default": {
                "when": "always, when memory is on",
                "required": ("ok", "status", "knowledge", "suggested_capabilities", "meta", "note"),
                "optional": (),
            },
            "refused": {"when": "memory is off", "required": ("ok", "status", "message", "knowledge", "meta"), "optional": ()},
        },
    },
    "read": {
        "status": "live",
        "mutating": False,
        "inputs": ("id", "query", "budget_tokens"),
        "impl": ("memory_read", "memory_search"),
        "forms": {
            "node": {
                "when": "id given, the record exists and passes the gate for reading",
                "required": ("ok", "status", "id", "view", "title", "summary", "when", "body", "layer", "kind", "updated", "revision", "conditions"),
                "optional": ("validFrom", "validUntil", "supersededBy", "supersedes", "supersedeReason", "reviewState", "links"),
            },
            "node_missing": {
                "when": "id given but the record is missing, archived, foreign, not applicable or unconfirmed",
                "required": ("ok", "status", "id", "message"),
                "optional": (),
            },
            "list": {"when": "query given, no budget_tokens", "required": ("ok", "status", "results", "meta"), "optional": ("reasonCode", "message")},
            "pack": {
                "when": "query and budget_tokens given",
                "required": ("ok", "status", "pack", "tokens_used", "budget", "skipped", "recent", "meta"),
                "optional": (),
            },
            "refused": {
                "when": "memory off, turn budget spent, context unknown, or invalid input",
                "required": ("ok", "status", "message"),
                "optional": ("results", "meta", "id"),
            },
        },
    },
    "write": {
        "status": "live",
        "mutating": True,
        "inputs": ("body", "content"),
        "impl": ("memory_save", "memory_suggest"),
        "forms": {
            "committed": {
                "when": "the new generation is on disk",
                "required": _COMMITTED,
                "optional": ("routedTo", "routedBecause", "warnings", "archived"),
            },
            **_GATE_FORMS,
        },
    },
    "supersede": {
        "status": "live",
        "mutating": True,
        "inputs": ("supersedes",),
        "impl": ("memory_save",),
        "forms": {
            "superseded": {
                "when": "the new record is on disk and the old one is marked replaced (supersededBy, validUntil, supersedeReason)",
                "required": (*_COMMITTED, "supersedes"),
                "optional": ("warnings", "archived"),
            },
            **_GATE_FORMS,
        },
    },
    "forget": {
        "status": "live",
        "mutating": True,
        "inputs": ("id",),
        "impl": ("memory_forget",),
        "forms": {
            "forgotten": {"when": "action archive or purge succeeded (a purge that would give a replaced record back into a slot "
                                  "another now holds archives it and names it in `archived`)",
                          "required": (*_COMMITTED, "action", "tombstone"), "optional": ("archived",)},
            "restored": {"when": "action restore succeeded (cold body checked first; a layer at its cap names what it archived to make room)",
                         "required": (*_COMMITTED, "action", "forced"), "optional": ("archived",)},
            "undone": {"when": "action undo with the exact current revision", "required": (*_COMMITTED, "action"), "optional": ()},
            **_GATE_FORMS,
        },
    },
}

# Where this protocol departs from the protocol seed, and why. Rendered into docs/protocol.md.
DECISIONS: tuple[tuple[str, str], ...] = (
    ("read.node_missing", "The seed returns a bare null for a missing record. The status envelope of SPEC §6 wins: "
     "an object with `ok: false`, `status` (`gone`, `not_applicable` or `needs_context`), the id and a message with the next step."),
    ("supersede", "The seed reserves supersede. Here it is live: `memory_save` with `supersedes` (SPEC §6.3.6) writes the new record "
     "and marks the old one, and default search hides replaced records."),
    ("envelope", "Every answer carries `ok` and `status` from the fixed vocabulary of SPEC §10, and a `message` for every status but `ok`."),
    ("write", "The seed's `content` is accepted by the single `memory` tool and mapped to `body`; the six tools take `body`."),
    ("write.failed", "A tool fault (bad input, busy lock, unreadable layer) is its own form with `ok: false`, kept apart from gate stops "
     "(`ok: true, committed: false`) so a client knows whether retrying can help."),
    ("read.refused", "Memory off, a spent turn budget and an unknown context are answered with a status and a message, never an empty list."),
)

# ---------------------------------------------------------------- the protocol mode (seed 000)
# `lingshu mcp --single-tool` (and `lingshu call memory`) speak the dsh-memory 0.5.0 protocol
# exactly: these are its forms, key for key. `core/ops.py` maps Lingshu's answers onto them.
SEED_VERSION = "dsh-memory 0.5.0 (verb protocol v1.0 draft)"
SEED_FORMS: dict[str, dict[str, dict[str, Any]]] = {
    "route": {"default": {"when": "always", "required": ("knowledge", "meta"), "optional": ("suggested_capabilities", "note")}},
    "read": {
        "node": {"when": "node_id given, the record exists and passes the gate for reading",
                 "required": ("id", "path", "frontmatter", "content", "verification_state"),
                 "optional": ("truncated", "content_lines", "content_bytes", "offset", "next_offset", "note")},
        "node_missing": {"when": "node_id given but the record is missing, archived, foreign or not applicable: the answer is null",
                         "required": (), "optional": (), "returns_null": True},
        "list": {"when": "query (or intent) given, no budget_tokens", "required": ("meta", "results"), "optional": ()},
        "pack": {"when": "budget_tokens given", "required": ("pack", "tokens_used", "budget", "skipped", "recent", "meta"), "optional": ()},
    },
    "write": {
        "committed": {"when": "the new generation is on disk", "required": WRITE_TRIO, "optional": ("verdict", "consistency", "propagation")},
        "gate_short_circuit": {"when": "a gate held the write on purpose (duplicate, look-alike, review mode); retrying gives the same answer",
                               "required": (*WRITE_TRIO, "moved_to", "verdict", "hint"),
                               "optional": ("pid", "dedup", "dup_of", "dup_status", "consistency")},
        "gate_hard_reject": {"when": "a gate refused the write (memory off, safety scan, no scope, stale revision) or the call was invalid",
                             "required": (*WRITE_TRIO, "gate", "error", "hint"), "optional": ("missing", "verdict")},
        "gate_gated": {"when": "reserved: Lingshu has no active-forgetting gate on writes", "required": (*WRITE_TRIO, "gate", "verdict"),
                       "optional": ("consistency", "moved_to", "propagation"), "reserved": True,
                       "map_to": ("a committed write that had to make room at the layer's cap archives the least recently read notes "
                                  "and names them in `propagation.archived`; `forget` archives on request")},
    },
    "supersede": {"planned": {"when": "node_id (the old record) and content given: the new record is written and the old one marked replaced",
                              "required": ("ok", "id", "superseded_by"), "optional": ("supersedes", "propagation", "verdict")}},
    "forget": {
        "forgotten": {"when": "action absent or not restore (archive, purge, undo) succeeded", "required": ("ok", "id", "tombstone"), "optional": ()},
        "restored": {"when": "action restore succeeded", "required": ("ok", "id", "forced"), "optional": ()},
        "failed": {"when": "missing or archived target, a gate, a busy lock, a damaged cold body",
                   "required": ("ok", "error"), "optional": ("reason", "t", "action", "action_derived", "hint_action")},
    },
}
# How a Lingshu record reads as a seed node (documented in docs/protocol.md).
SEED_NODE_MAPPING: tuple[tuple[str, str], ...] = (
    ("id", "the record id (`mem_…`)"),
    ("path", "`lingshu://<layer>/<id>`: records live in the layer file, not one file each; the path names the layer and the id"),
    ("frontmatter", "title, summary, when, kind, layer, revision, updated, conditions, and validFrom, validUntil, supersedes, "
                    "supersededBy, supersedeReason when set"),
    ("content", "the body"),
    ("content_bytes", "the body's size in UTF-8 bytes"),
    ("verification_state", "`reviewed` for notes saved by the agent or a person, or imported and reviewed; `unreviewed` for imported notes "
                           "nobody has reviewed yet"),
)


def seed_forms_matching(verb: str, answer: dict[str, Any] | None) -> list[str]:
    """The seed forms of `verb` that `answer` fits exactly (null fits only a `returns_null` form)."""
    out = []
    for name, form in SEED_FORMS[verb].items():
        if answer is None:
            if form.get("returns_null"):
                out.append(name)
            continue
        if form.get("returns_null") or form.get("reserved"):
            continue
        keys = set(answer)
        if set(form["required"]) <= keys <= set(form["required"]) | set(form["optional"]) | set(DERIVE_EXTRA_KEYS):
            out.append(name)
    return out


TOOL_VERBS: dict[str, str] = {
    "memory_route": "route",
    "memory_read": "read",
    "memory_search": "read",
    "memory_save": "write",
    "memory_suggest": "write",
    "memory_forget": "forget",
}


def shape_of(verb: str, form: str) -> dict[str, Any]:
    """The declared shape of one form. Anything undeclared raises `KeyError`: no empty shell."""
    spec = VERB_SPECS[verb]
    return spec["forms"][form]


def derive_op(args: dict[str, Any]) -> str:
    for key, op in OP_DERIVE:
        if args.get(key) not in (None, ""):
            return op
    return OP_DERIVE_DEFAULT


def verb_of(tool: str, args: dict[str, Any]) -> str:
    if tool == "memory_save" and args.get("supersedes"):
        return "supersede"
    return TOOL_VERBS[tool]


def forms_matching(verb: str, answer: dict[str, Any]) -> list[str]:
    """The forms of `verb` that `answer` fits: all required keys present, no undeclared key."""
    keys = set(answer)
    out = []
    for name, form in VERB_SPECS[verb]["forms"].items():
        allowed = set(form["required"]) | set(form["optional"]) | set(DERIVE_EXTRA_KEYS) | set(NOTICE_KEYS)
        if set(form["required"]) <= keys and keys <= allowed:
            out.append(name)
    return out


_TYPED: dict[str, dict[str, Any]] = {
    "ok": {"type": "boolean"},
    "committed": {"type": "boolean"},
    "id": {"type": "string"},
    "message": {"type": "string"},
    "hint": {"type": "string"},
    "revision": {"type": "integer"},
    "pendingConflicts": {"type": "integer"},
    "layer": {"type": "string", "enum": ["project", "global"]},
    "organized": {"type": "boolean"},
}


def _form_schema(form: dict[str, Any]) -> dict[str, Any]:
    from .statuses import STATUSES

    keys = [*form["required"], *form["optional"], *DERIVE_EXTRA_KEYS, *NOTICE_KEYS]
    props = {k: dict(_TYPED.get(k, {})) for k in dict.fromkeys(keys)}
    props["status"] = {"type": "string", "enum": list(STATUSES)}
    return {"type": "object", "required": list(form["required"]), "properties": props, "additionalProperties": False}


# Tools beside the protocol's verbs (extension ops: a capability, not a verb).
EXTENSION_FORMS: dict[str, dict[str, dict[str, Any]]] = {
    "memory_learn": {
        "result": {"when": "self-evolution: the person's noted corrections organized by the client's model, or why nothing was",
                   "required": ("ok", "status", "organized", "message"), "optional": ("receipt", "rules")},
    },
}


# The forms of its verb a tool gives, its commonest first, where that is not all of them in order:
# a search never answers a node, a read by id never a list, a suggestion is always held for review.
# A client checks every structured answer against the schema, trying the alternatives in turn (the
# Python SDK's jsonschema builds an error for each one that fails): the right one first is what
# keeps that check from costing more than the search.
TOOL_FORMS: dict[str, tuple[str, ...]] = {
    "memory_search": ("list", "pack", "refused"),
    "memory_read": ("node", "node_missing", "refused"),
    "memory_suggest": ("gate_short_circuit", "gate_hard_reject", "failed"),
}


def output_schema(tool: str) -> dict[str, Any]:
    """The JSON Schema of every answer `tool` can give: one alternative per form of its verbs it
    gives (`memory_save` also answers as `supersede`). Published as the MCP tool's outputSchema."""
    if tool in EXTENSION_FORMS:
        return {"type": "object", "anyOf": [_form_schema(form) for form in EXTENSION_FORMS[tool].values()]}
    verbs = [TOOL_VERBS[tool], *(["supersede"] if tool == "memory_save" else [])]
    named = [(name, form) for verb in verbs for name, form in VERB_SPECS[verb]["forms"].items()]
    if tool in TOOL_FORMS:
        by_name = dict(named)
        named = [(name, by_name[name]) for name in TOOL_FORMS[tool]]
    return {"type": "object", "anyOf": [_form_schema(form) for _, form in named]}
