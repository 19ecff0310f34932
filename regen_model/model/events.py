"""Events: what happened during one step, each labelled with the clause that made it happen.

One record type with a ``kind`` (rather than a class per event) keeps events easy to print,
to match against scenario expectations, to serialise to JSON/ITF and to compare across engines.
``subject`` is the card handle (or player name) the event is about; ``data`` holds the rest as
sorted key/value pairs so that events are hashable and print the same way every time.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class EventKind(StrEnum):
    SHIELD_CREATED = "shield-created"
    DAMAGE_DEALT = "damage-dealt"
    DAMAGE_PREVENTED = "damage-prevented"
    COUNTERS_PLACED = "counters-placed"
    COUNTERS_REMOVED = "counters-removed"
    LIFE_CHANGED = "life-changed"
    POISONED = "poisoned"
    TRIGGERED = "triggered"
    WOULD_BE_DESTROYED = "would-be-destroyed"
    NOT_DESTROYED = "not-destroyed"  # indestructible (702.12b)
    DESTROYED = "destroyed"
    REGENERATED = "regenerated"
    REPLACED = "replaced"  # destruction replaced by umbra armor or a shield counter
    SHIELD_NOT_APPLIED = "shield-not-applied"  # "can't be regenerated" (701.19c)
    DAMAGE_REMOVED = "damage-removed"
    BECAME_TAPPED = "became-tapped"
    BECAME_UNTAPPED = "became-untapped"
    REMOVED_FROM_COMBAT = "removed-from-combat"
    ZONE_CHANGE = "zone-change"
    CONTROL_CHANGED = "control-changed"
    UNATTACHED = "unattached"
    PT_MODIFIED = "pt-modified"
    KEYWORD_CHANGED = "keyword-changed"
    TYPE_CHANGED = "type-changed"  # became a creature or stopped being one (613.1d)
    UNREGENERABLE = "unregenerable"
    SBA_CHECK = "sba-check"
    PLAYER_LOST = "player-lost"
    CLEANUP = "cleanup"
    EFFECTS_ENDED = "effects-ended"
    SPELL_CAST = "spell-cast"
    ABILITY_ACTIVATED = "ability-activated"
    PUT_ON_STACK = "put-on-stack"
    RESOLVED = "resolved"
    FIZZLED = "fizzled"
    PRIORITY = "priority"
    PASSED = "passed"
    STEP_BEGAN = "step-began"
    TURN_BEGAN = "turn-began"
    ATTACKERS_DECLARED = "attackers-declared"
    BLOCKERS_DECLARED = "blockers-declared"
    BLOCKERS_ORDERED = "blockers-ordered"
    COMBAT_DAMAGE_ASSIGNED = "combat-damage-assigned"
    NO_COMBAT_DAMAGE = "no-combat-damage"
    NO_DAMAGE = "no-damage"  # a source dealing 0 damage deals none (120.8)
    NOTE = "note"  # a rule that applied without changing anything visible, for narration


Value = str | int | bool | None


class Event(NamedTuple):
    kind: EventKind
    clause: str
    subject: str | None = None
    data: tuple[tuple[str, Value], ...] = ()

    def get(self, key: str) -> Value:
        for k, v in self.data:
            if k == key:
                return v
        return None

    def describe(self) -> str:
        """One line for narration: ``regenerated troll (shield=1, origin=Death Ward)``."""
        parts = [self.kind.value]
        if self.subject is not None:
            parts.append(self.subject)
        text = " ".join(parts)
        if self.data:
            text += " (" + ", ".join(f"{k}={v}" for k, v in self.data) + ")"
        return text


def event(kind: EventKind, clause: str, subject: str | None = None, **data: Value) -> Event:
    """Build an event; ``data`` is stored sorted by key."""
    return Event(kind, clause, subject, tuple(sorted(data.items())))
