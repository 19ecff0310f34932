"""Errors the engine raises for actions that the rules do not allow or that lack a choice.

Each error names the clause whose rule was broken, so that a scenario runner can point at the
rule, and an exploration can tell "not enabled" (``IllegalAction``) from "needs a parameter"
(``MissingChoice``).
"""

from __future__ import annotations


class EngineError(Exception):
    """An action cannot be carried out in this state."""

    def __init__(self, message: str, clause: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.clause = clause
        self.field = field

    def __str__(self) -> str:
        suffix = f" [{self.clause}]" if self.clause else ""
        return self.message + suffix


class IllegalAction(EngineError):
    """The action is not legal now (wrong player, wrong step, a target not on the battlefield)."""


class MissingChoice(EngineError):
    """The rules ask a player to choose and the action does not carry that player's answer."""


class UnknownName(EngineError):
    """A card handle, player or ability that does not exist."""
