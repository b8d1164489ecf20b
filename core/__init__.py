"""Lingshu core: the store and every rule. No UI and no MCP here (STYLE 1).

Names are loaded on first use (PEP 562), so `import core.recall` stays free of pydantic.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Busy",
    "ColdBodyError",
    "InvalidInput",
    "LayerBroken",
    "LingshuError",
    "NeedsContext",
    "STATUSES",
    "StoreWriteFailed",
    "Workspace",
    "dispatch",
    "eligibility",
    "memory_op",
    "open_workspace",
    "recall",
]

_WHERE = {
    "Busy": "errors",
    "ColdBodyError": "errors",
    "InvalidInput": "errors",
    "LayerBroken": "errors",
    "LingshuError": "errors",
    "NeedsContext": "errors",
    "StoreWriteFailed": "errors",
    "STATUSES": "statuses",
    "Workspace": "workspace",
    "open_workspace": "workspace",
    "dispatch": "tools",
    "eligibility": "eligibility",
    "memory_op": "ops",
    "recall": "recall",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")
