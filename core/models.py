"""Pydantic models at the edges: tool inputs (their descriptions become the MCP input schemas)
and the record shape for checking files. Inside, the core works on plain dicts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .conditions import CONDITION_KEYS, MAX_CONDITIONS
from .records import ID_RE, control_problem, record_problem
from .settings import settings_problem
Kind = Literal["convention", "method", "resource", "note"]
Applicability = Literal["all_in_scope", "conditional", "unresolved"]
Scope = Literal["project", "global"]
TITLE_MAX = 200
SUMMARY_MAX = 500
WHEN_MAX = 300
QUERY_MAX = 1000


def _no_nul(value: str | None) -> str | None:
    if value is not None and "\x00" in value:
        raise ValueError("contains a NUL byte; remove it")
    return value


def _checked(rule: Callable[[Any], str | None], data: Any) -> Any:
    """The model holds what the plain rule holds (one rule, in one place: the rule's module)."""
    problem = rule(data)
    if problem:
        raise ValueError(problem)
    return data


def _stored_text(value: str | None) -> str | None:
    """Text that will be stored and shown: Windows line ends become newlines, and no other
    terminal control character gets in (it could rewrite what a person sees in recall or export)."""
    if value is None:
        return None
    value = value.replace("\r\n", "\n")
    problem = control_problem(value)
    if problem:
        raise ValueError(problem)
    return value


class Strict(BaseModel):
    # Strict: "yes" is not a boolean, true is not a revision and "10" is not a limit (no coercion).
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False, strict=True)


class Condition(Strict):
    """One applicability condition: a registered key and the value it must have."""

    key: str = Field(description="One of: " + ", ".join(CONDITION_KEYS) + ".")
    value: str = Field(min_length=1, max_length=200, description="The value the current task must have, e.g. 'linux'.")

    @field_validator("value")
    @classmethod
    def not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is only whitespace; give the value the task must have")
        return value

    @field_validator("key")
    @classmethod
    def registered(cls, key: str) -> str:
        if key not in CONDITION_KEYS:
            raise ValueError(f"'{key}' is not a registered condition key; use one of {', '.join(CONDITION_KEYS)}")
        return key

    _nul = field_validator("value")(lambda cls, v: _stored_text(v))


class TaskFields(Strict):
    contextId: str | None = Field(None, max_length=64, description="The turn's context id from `lingshu recall`; omit to use the latest context of this project.")


def _check_id(value: str | None) -> str | None:
    if value is not None and not ID_RE.match(value):
        raise ValueError("is not a memory id; ids look like mem_ followed by 12-32 lowercase letters or digits")
    return value


class SearchInput(TaskFields):
    """Find remembered notes by words (English or Chinese)."""

    query: str = Field(min_length=1, max_length=QUERY_MAX, description="Words to look for, in any language.")
    scope: Scope | None = Field(None, description="Only this layer; omit for both.")
    history: bool = Field(False, description="Also return replaced and expired records, with their replacement links.")
    limit: int = Field(10, ge=1, le=20, description="At most this many results (the turn's budget may cut further).")
    taskKind: str | None = Field(None, max_length=100, description="The kind of task now (e.g. 'release'); only records registered for it match.")
    seriesId: str | None = Field(None, max_length=100, description="The series of tasks now; only records registered for it match.")
    budget_tokens: int | None = Field(None, ge=1, le=100000, description="Return a pack of results that fits this many tokens instead of a list.")

    _nul = field_validator("query", "taskKind", "seriesId")(lambda cls, v: _no_nul(v))


class ReadInput(TaskFields):
    """Read one record's current body by id."""

    id: str = Field(description="The record id from a search hit or a recall card (mem_…).")
    taskKind: str | None = Field(None, max_length=100, description="The kind of task now (e.g. 'release'), for a record limited to it.")
    seriesId: str | None = Field(None, max_length=100, description="The series of tasks now, for a record limited to it.")
    phase: str | None = Field(None, max_length=100, description="The phase of the task now, for a record limited to it.")
    view: Literal["body", "links"] = Field("body", description="'body' for the record, 'links' for its usable relations only.")

    _id = field_validator("id")(lambda cls, v: _check_id(v))
    _nul = field_validator("taskKind", "seriesId", "phase")(lambda cls, v: _no_nul(v))


class SaveInput(TaskFields):
    """Remember something, or update a remembered record by id."""

    title: str | None = Field(None, min_length=1, max_length=TITLE_MAX, description="Short, specific title; part of the record's identity.")
    body: str | None = Field(None, description="The note itself, at most 4096 UTF-8 bytes. Never a secret's value: say where it lives.")
    summary: str | None = Field(None, max_length=SUMMARY_MAX, description="One line shown in search results and recall cards.")
    when: str | None = Field(None, max_length=WHEN_MAX, description="When it applies, in words; empty means always.")
    kind: Kind | None = Field(None, description="convention, method, resource or note: display grouping only.")
    topicKey: str | None = Field(None, max_length=100, description="A slot that holds one current record (e.g. 'test-command').")
    conditions: list[Condition] | None = Field(None, max_length=MAX_CONDITIONS, description="At most 8 applicability conditions.")
    applicability: Applicability | None = Field(None, description="all_in_scope, conditional (needs a condition) or unresolved.")
    scope: Scope | None = Field(None, description="A proposal: project (default) or global. Local paths, loopback addresses and ports stay in the project.")
    id: str | None = Field(None, description="Update this record instead of creating one.")
    revision: int | None = Field(None, ge=1, description="The revision you read; a newer one on disk answers `conflict`.")
    supersedes: str | None = Field(None, description="Write a new record that replaces this one (same layer).")
    resolution: Literal["distinct"] | None = Field(None, description="'distinct' saves even though a similar record exists.")

    _text = field_validator("title", "body", "summary", "when", "topicKey")(lambda cls, v: _stored_text(v))
    _ids = field_validator("id", "supersedes")(lambda cls, v: _check_id(v))


class ForgetInput(TaskFields):
    """Archive, restore, purge or undo a record."""

    id: str = Field(description="The record id.")
    action: Literal["archive", "restore", "purge", "undo"] = Field("archive", description="archive (default, recoverable), restore, purge (for good), or undo the last change.")
    revision: int | None = Field(None, ge=1, description="For undo: the record's current revision, exactly.")
    force: bool = Field(False, description="Purge even if the record is still active.")

    _id = field_validator("id")(lambda cls, v: _check_id(v))


class SuggestInput(SaveInput):
    """Propose a record for a person to keep or ignore in the panel."""


class RouteInput(TaskFields):
    """Name the remembered knowledge and tools that fit an intent."""

    intent: str = Field(min_length=1, max_length=QUERY_MAX, description="What you are about to do, in a sentence.")

    _nul = field_validator("intent")(lambda cls, v: _no_nul(v))


TOOL_INPUTS: dict[str, type[Strict]] = {
    "memory_search": SearchInput,
    "memory_read": ReadInput,
    "memory_save": SaveInput,
    "memory_forget": ForgetInput,
    "memory_suggest": SuggestInput,
    "memory_route": RouteInput,
}


class Link(BaseModel):
    """A real relation to another record (`supersedes`, `supersededBy`, …)."""

    model_config = ConfigDict(extra="allow")
    rel: str = Field(description="The kind of relation.")
    target: str = Field(description="The other record's id.")


class Version(BaseModel):
    """An earlier revision, kept for undo; never searched or shown as current."""

    model_config = ConfigDict(extra="allow")
    title: str = Field("", description="The title then.")
    summary: str = Field("", description="The summary then.")
    body: str = Field("", description="The body then.")
    revision: int = Field(1, description="The revision it was.")
    time: str = Field("", description="When it was replaced (UTC ISO-8601).")
    reason: str = Field("", description="Why: updated, superseded, …")


class Record(BaseModel):
    """One memory as stored in a layer file (SPEC §2). Optional fields may be missing in older files."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(pattern=ID_RE.pattern, description="mem_ + 12–32 lowercase letters or digits; the only identity.")
    status: Literal["active", "archived", "purged"] = Field("active", description="Archived bodies live in cold storage; purged is a tombstone.")
    title: str = Field("", description="Identity text.")
    summary: str = Field("", description="One line for results and cards.")
    when: str = Field("", description="When it applies; empty means always.")
    body: str | None = Field(None, description="At most 4096 UTF-8 bytes; absent when archived or purged.")
    kind: Kind = Field("note", description="Display grouping only (palace rooms).")
    topicKey: str | None = Field(None, description="A slot with one current winner.")
    conditions: list[Condition] = Field(default_factory=list, max_length=MAX_CONDITIONS, description="Registered keys only.")
    applicability: Applicability = Field("all_in_scope", description="all_in_scope, conditional or unresolved.")
    origin: Literal["user", "agent", "suggestion", "project_evolution", "import"] = Field("agent", description="Who wrote it.")
    reviewState: Literal["reviewed", "legacy_unreviewed"] = Field("reviewed", description="Imported notes stay out of recall until reviewed.")
    revision: int = Field(1, ge=1, description="+1 on every change.")
    created: str = Field("", description="UTC ISO-8601.")
    updated: str = Field("", description="UTC ISO-8601.")
    lastRead: str | None = Field(None, description="UTC ISO-8601 of the last read.")
    readCount: int = Field(0, ge=0, description="How often its body was read.")
    validFrom: str | None = Field(None, description="Valid from (UTC ISO-8601).")
    validUntil: str | None = Field(None, description="Valid until; past means expired.")
    supersededBy: str | None = Field(None, description="The record that replaced it.")
    supersedes: str | None = Field(None, description="The record it replaced.")
    supersedeReason: str | None = Field(None, description="Why it was replaced (user_replaced).")
    versions: list[Version] = Field(default_factory=list, description="Earlier revisions, newest first.")
    links: list[Link] = Field(default_factory=list, description="Real relations.")
    ownerProjectId: str | None = Field(None, description="The project a project-layer record belongs to.")

    _usable = model_validator(mode="before")(classmethod(lambda cls, data: _checked(record_problem, data)))


class LayerFile(BaseModel):
    """A layer file (`state.json`): readable by other tools as plain JSON."""

    model_config = ConfigDict(extra="allow")
    format: str = Field(description="lingshu-layer/1")
    generation: int = Field(ge=0, description="+1 on every publish.")
    records: dict[str, Record] = Field(description="Records keyed by id.")
    conflicts: list[dict[str, object]] = Field(default_factory=list, description="The conflicts queue (SPEC §8), at most 20.")
    suggestions: list[dict[str, object]] = Field(default_factory=list, description="Proposals waiting for keep or ignore.")
    checksum: str = Field("", description="sha256 over the canonical content without this field.")


class ProjectSettings(BaseModel):
    """One confirmed project in `settings.json`."""

    model_config = ConfigDict(extra="allow")
    root: str = Field(description="The confirmed root folder (real path).")
    confirmed: bool = Field(True, description="Only an explicit act confirms a root.")
    enabled: bool = Field(True, description="Memory on or off for this project.")
    writeMode: Literal["direct", "review"] = Field("direct", description="review: the agent's new records wait for a keep.")
    recallMode: Literal["adaptive", "tool"] = Field("adaptive", description="adaptive: recall on every new human message.")
    taskDefaults: dict[str, str] = Field(default_factory=dict, description="A scope hint for task conditions.")
    budgets: dict[str, int] = Field(default_factory=dict, description="Per-turn limits: searchEntries, searchBytes, bodies, bodyBytes (SPEC §6.5).")


class Settings(BaseModel):
    """`settings.json`."""

    model_config = ConfigDict(extra="allow")
    format: str = Field("lingshu-settings/1", description="lingshu-settings/1")
    projects: dict[str, ProjectSettings] = Field(default_factory=dict, description="Confirmed projects by id.")

    _sound = model_validator(mode="before")(classmethod(lambda cls, data: _checked(settings_problem, data)))
