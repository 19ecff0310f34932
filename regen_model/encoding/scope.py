"""The bounded scope of the symbolic model: how many of each thing a frame has room for.

A concrete state fits a scope when it has at most that many cards, shields per card, stack
objects and waiting triggers; ``frame.pin`` raises ``OutOfScope`` otherwise. Ranges bound the
*parameters* of actions (how much damage an action may deal, which printed toughness a card
may have) so that bounded searches stay finite; state fields themselves are unbounded
integers, which is what lets induction and CHC proofs speak about every value.
"""

from __future__ import annotations

from dataclasses import dataclass

from regen_model.model.enums import Edition


class OutOfScope(ValueError):
    """A concrete state or action does not fit the symbolic scope."""


@dataclass(frozen=True, slots=True)
class Scope:
    cards: int = 3
    shields: int = 2  # shield slots per card (used shields keep their slot until cleanup)
    stack: int = 2  # stack objects
    pending: int = 2  # triggered abilities waiting to be put on the stack
    targets: int = 2  # targets per stack object
    max_amount: int = 4  # largest damage / counter / pump amount an action may use
    max_power: int = 4  # largest printed power of a card
    max_toughness: int = 4  # largest printed toughness of a card
    editions: tuple[Edition, ...] = (Edition.PRE_M10, Edition.M10, Edition.FDN)
    players: int = 2

    def describe(self) -> str:
        return (
            f"{self.cards} cards, {self.shields} shields/card, stack {self.stack}, "
            f"pending {self.pending}, amounts 0..{self.max_amount}, "
            f"P/T up to {self.max_power}/{self.max_toughness}"
        )


DEFAULT_SCOPE = Scope()

# The allowed range of each numeric field when a user sets it (``--scope``, explore's options):
# past these a bounded search or a Z3 frame is too big to finish, so a larger value is a usage
# error naming the range rather than a run that never ends (``cli/options.py``).
SCOPE_LIMITS: dict[str, tuple[int, int]] = {
    "cards": (1, 8),
    "shields": (1, 8),
    "stack": (0, 8),
    "pending": (0, 8),
    "targets": (1, 4),
    "max_amount": (1, 20),
    "max_power": (1, 20),
    "max_toughness": (1, 20),
    "players": (2, 2),
}


def widest(cards: int) -> Scope:
    """``cards`` card slots and every other bound at the top of its allowed range
    (``SCOPE_LIMITS``): room for any board a scenario sets up, where the relation is only
    evaluated on concrete values (the agreement replays of scenarios), never solved over."""

    def top(name: str) -> int:
        return SCOPE_LIMITS[name][1]

    return Scope(
        cards=cards,
        shields=top("shields"),
        stack=top("stack"),
        pending=top("pending"),
        targets=top("targets"),
        max_amount=top("max_amount"),
        max_power=top("max_power"),
        max_toughness=top("max_toughness"),
    )
