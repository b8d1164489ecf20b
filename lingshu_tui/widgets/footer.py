"""The panel's footer: Textual's, rebuilt once for a burst of binding changes."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's footer rebuilds all its keys on every binding change, and each rebuild mounts and
    restyles every key. Opening the panel announces six changes before the first frame (the screen
    stack, two focus moves, idle callbacks, the first snapshot): answered one by one, they were
    a fifth of the first paint. Changes that arrive before the next refresh are answered once."""

    _asked = False

    def bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        if not self._asked:
            self._asked = True
            self.call_after_refresh(self._changed, screen)

    def _changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        self._asked = False
        super().bindings_changed(screen)
