"""The fixed status vocabulary of SPEC §10, in one place."""

from __future__ import annotations

from typing import Literal, get_args

Status = Literal[
    "ok",
    "gone",
    "not_applicable",
    "needs_context",
    "budget_exhausted",
    "memory_disabled",
    "busy",
    "cold_corrupt",
    "cold_missing",
    "pending_review",
    "unsafe",
    "conflict",
    "needs_resolution",
    "invalid",
]
STATUSES: tuple[str, ...] = get_args(Status)

# Only these may come out of the eligibility gate's steps 1-6 (SPEC §5).
GATE_FAILURES: tuple[str, ...] = ("gone", "not_applicable", "needs_context")

REASON_CODES: tuple[str, ...] = ("no_match", "not_applicable", "applicability_unresolved")
