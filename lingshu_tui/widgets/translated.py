"""Screens whose key descriptions follow the panel's language (EN/ZH), through Textual's public
`BINDINGS`: a screen class declares descriptions as label keys (`b.archive`), and `localized`
makes the subclass the panel instantiates, whose bindings carry the words."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from textual.binding import Binding
from textual.screen import Screen

from lingshu_tui.i18n import Labels

S = TypeVar("S", bound=Screen)  # type: ignore[type-arg]


def localized(cls: type[S], t: Labels) -> type[S]:
    return _localized(cls, t.lang)  # type: ignore[return-value]


@lru_cache(maxsize=None)
def _localized(cls: type[Screen], lang: str) -> type[Screen]:  # type: ignore[type-arg]
    t = Labels(lang)
    # Every binding of the class and its bases, in merge order: the subclass's list names each key
    # again, so Textual's merge (a subclass's binding for a key wins) shows only the translated ones.
    bindings: list[Binding] = []
    for base in reversed(cls.__mro__):
        for b in base.__dict__.get("BINDINGS", []):
            if isinstance(b, Binding):
                described = t(b.description) if b.description.startswith("b.") else b.description
                bindings.append(replace(b, description=described, tooltip=t.tip(b.tooltip)))
    return type(cls.__name__, (cls,), {"BINDINGS": bindings, "__module__": cls.__module__})
