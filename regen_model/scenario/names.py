"""Resolving the names a scenario uses (players, permanent handles, spells) with clear errors.

Every reference in a file goes through ``Names``, so a typo anywhere gets the same kind of
message: the field, what the name should have been, the names that exist, and a did-you-mean.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from regen_model.model.cards import CardTemplate, SpellTemplate
from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.source import FieldPath, Source


def suggest(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` when a choice is close to ``word``, else ``''``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass(frozen=True)
class Names:
    source: Source
    players: tuple[str, ...]
    handles: tuple[str, ...]
    templates: tuple[CardTemplate, ...]  # by slot, parallel to ``handles``
    spells: dict[str, SpellTemplate]

    def error(self, path: FieldPath, message: str) -> ScenarioError:
        return self.source.error(path, message)

    def player(self, value: str, path: FieldPath) -> int:
        if value in self.players:
            return self.players.index(value)
        raise self.error(
            path,
            f"{value!r} is not a player of this scenario{suggest(value, self.players)} "
            f"(players: {', '.join(self.players)})",
        )

    def handle(self, value: str, path: FieldPath) -> str:
        if value in self.handles:
            return value
        listed = ", ".join(self.handles) if self.handles else "none"
        hint = suggest(value, self.handles)
        if value in self.players:
            hint = f" ({value} is a player)"
        raise self.error(
            path, f"{value!r} is not a permanent of this scenario{hint} (permanents: {listed})"
        )

    def template(self, handle: str) -> CardTemplate:
        return self.templates[self.handles.index(handle)]

    def card_or_player(self, value: str, path: FieldPath) -> tuple[str | None, int | None]:
        """A permanent handle or a player name: ``(handle, None)`` or ``(None, index)``."""
        if value in self.handles:
            return value, None
        if value in self.players:
            return None, self.players.index(value)
        known = [*self.handles, *self.players]
        raise self.error(
            path,
            f"{value!r} is neither a permanent nor a player of this scenario"
            f"{suggest(value, known)} (permanents: {', '.join(self.handles) or 'none'}; "
            f"players: {', '.join(self.players)})",
        )

    def spell(self, value: str, path: FieldPath) -> SpellTemplate:
        if value in self.spells:
            return self.spells[value]
        raise self.error(
            path,
            f"{value!r} is neither a built-in spell nor one of this scenario's spells"
            f"{suggest(value, list(self.spells))}",
        )
