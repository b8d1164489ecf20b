"""The one gate that decides whether a record may be used (SPEC §5). No caller re-implements it."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NamedTuple

from .conditions import conditions_state
from .records import parse_time
from .statuses import Status

Purpose = Literal["inject", "search", "read", "panel"]


class Gate(NamedTuple):
    """The gate's answer: `ok`, `gone`, `not_applicable` or `needs_context`, and why."""

    state: Status
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.state == "ok"


def is_current(record: dict[str, Any], now_iso: str) -> bool:
    """Not replaced and not expired. Times are compared as times, never as text; one that does
    not parse (the record check keeps them out) counts as expired: fail closed."""
    if record.get("supersededBy"):
        return False
    now = parse_time(now_iso)
    until, since = record.get("validUntil"), record.get("validFrom")
    if until:
        end = parse_time(until)
        if end is None or now is None or end <= now:
            return False
    if since:
        start = parse_time(since)
        if start is None or now is None or start > now:
            return False
    return True


def _learning_usable(record: dict[str, Any], context: dict[str, Any], now_iso: str) -> bool:
    learning = record.get("learning") or {}
    if not context.get("experimental") or learning.get("paused") or learning.get("blockedReason"):
        return False
    state = learning.get("state")
    if state == "active":
        return True
    end, now = parse_time(learning.get("trialUntil")), parse_time(now_iso)
    return state == "trial" and end is not None and now is not None and end > now


def eligibility(
    record: dict[str, Any] | None,
    context: dict[str, Any],
    purpose: Purpose,
    now: datetime | str,
    *,
    history: bool = False,
) -> Gate:
    """Steps 1-6 of SPEC §5, in order. Budgets (step 7) are charged by the caller after admission."""
    now_iso = now if isinstance(now, str) else now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    # 1 exists, not archived or purged (the panel still sees archived ones)
    if record is None or record.get("status") == "purged":
        return Gate("gone", "missing")
    if record.get("status") == "archived" and purpose != "panel":
        return Gate("gone", "archived")
    # 2 owner project
    owner = record.get("ownerProjectId")
    if owner and owner != context.get("projectId"):
        return Gate("gone", "other_project")
    if purpose == "panel":
        return Gate("ok")
    # 3 self-evolution records
    if record.get("origin") == "project_evolution" and not _learning_usable(record, context, now_iso):
        return Gate("not_applicable", "learning_inactive")
    # 4 imported, never reviewed
    if record.get("reviewState") == "legacy_unreviewed" and purpose == "inject":
        return Gate("not_applicable", "unreviewed")
    # 5 conditions and applicability
    conditions = record.get("conditions") or []
    applicability = record.get("applicability", "all_in_scope")
    if purpose in ("inject", "search") and (
        applicability == "unresolved" or (applicability == "conditional" and not conditions)
    ):
        return Gate("needs_context", "applicability_unresolved")
    state = conditions_state(conditions, context)
    if state != "ok":
        return Gate("not_applicable" if state == "not_applicable" else "needs_context", "conditions")
    # 6 replaced or expired records stay out of injection and default search
    if purpose == "inject" or (purpose == "search" and not history):
        if not is_current(record, now_iso):
            return Gate("gone", "superseded" if record.get("supersededBy") else "expired")
    return Gate("ok")
