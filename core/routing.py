"""Scope routing of device facts (SPEC §6.3.5): local details stay out of the global layer."""

from __future__ import annotations

import re

_LOCAL = re.compile(
    r"(?:^|[\s\"'`(=])(?:/home/|/Users/|/root/|/tmp/|/var/|/opt/|/etc/|~/|[A-Za-z]:\\)"
    r"|\blocalhost\b|\b127\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|\[?::1\]?(?=[:\s/]|$)|\b0\.0\.0\.0\b"
    r"|\b(?:[a-z0-9\-]+\.)+[a-z0-9\-]+:\d{2,5}\b|(?:^|\s):\d{2,5}\b|\bport\s+\d{2,5}\b|端口\s*\d{2,5}"
    r"|\b(?:this|my)\s+(?:machine|laptop|computer|box|workstation)\b|本机|这台(?:机器|电脑)",
    re.IGNORECASE,
)


def local_detail(text: str) -> str | None:
    """The first local path, loopback address, port or device mention in `text`, if any."""
    m = _LOCAL.search(text)
    return m.group(0).strip() if m else None


def global_refusal(text: str, conditions: list[dict[str, str]]) -> str | None:
    """Why this text may not live in the global layer (the local detail it names), or None."""
    from .conditions import has_device_condition

    detail = local_detail(text)
    return detail if detail and not has_device_condition(conditions) else None
