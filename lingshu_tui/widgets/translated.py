"""Bindings whose descriptions follow the panel's language (EN/ZH)."""

from __future__ import annotations

from dataclasses import replace

from lingshu_tui.i18n import Labels


def translate_bindings(node: object, t: Labels) -> None:
    """Binding descriptions are declared as label keys (`b.archive`); show them in the chosen language."""
    bindings = node._bindings  # type: ignore[attr-defined]
    for key, items in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=t(b.description), tooltip=t(b.description)) if b.description.startswith("b.") else b for b in items
        ]
