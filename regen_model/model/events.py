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
    PREVENTION_CREATED = "prevention-created"  # a "prevent ... damage" effect begins (615.3)
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
    ATTACHED = "attached"  # attached to another object (701.3a: equip, an attach effect)
    PT_MODIFIED = "pt-modified"
    KEYWORD_CHANGED = "keyword-changed"
    TYPE_CHANGED = "type-changed"  # became a creature or stopped being one (613.1d)
    PHASED = "phased"  # phased out or in (702.26b-c): a status change, not a zone change
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
    COUNTERED = "countered"  # removed from the stack by a counter, without resolving (701.6a)
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


class Subject(StrEnum):
    """What an event's ``subject`` names, so that a scenario's event matcher can be checked."""

    CARD = "card"  # a permanent's handle
    PLAYER = "player"  # a player's name
    CARD_OR_PLAYER = "card or player"
    STACK = "stack object"  # a spell's name, "combat damage", or an ability or trigger's name
    CARD_OR_NONE = "card or nothing"
    NONE = "nothing"  # the event is about the game as a whole


class Shape(NamedTuple):
    """The subject and the data keys an event of one kind can carry (``EVENT_SHAPES``)."""

    subject: Subject
    data: frozenset[str]


def _shape(subject: Subject, *data: str) -> Shape:
    return Shape(subject, frozenset(data))


# Every event kind with its subject and data keys, as the engine emits them; a test
# (tests/unit/test_event_shapes.py) reads every ``emit`` and ``trigger`` call of
# ``regen_model/engine`` and fails when one is missing here.
EVENT_SHAPES: dict[EventKind, Shape] = {
    EventKind.SHIELD_CREATED: _shape(Subject.CARD, "creator", "origin", "rider", "shield"),
    EventKind.DAMAGE_DEALT: _shape(
        Subject.CARD, "amount", "as_counters", "combat", "deathtouch", "source"
    ),
    EventKind.DAMAGE_PREVENTED: _shape(Subject.CARD, "amount", "source"),
    EventKind.PREVENTION_CREATED: _shape(Subject.CARD, "amount"),
    EventKind.COUNTERS_PLACED: _shape(Subject.CARD, "amount", "counter"),
    EventKind.COUNTERS_REMOVED: _shape(Subject.CARD, "amount", "counter"),
    EventKind.LIFE_CHANGED: _shape(Subject.PLAYER, "amount", "source"),
    EventKind.POISONED: _shape(Subject.PLAYER, "amount"),
    EventKind.TRIGGERED: _shape(Subject.CARD, "ability", "controller", "damage", "drawer", "life"),
    EventKind.WOULD_BE_DESTROYED: _shape(Subject.CARD),
    EventKind.NOT_DESTROYED: _shape(Subject.CARD, "reason"),
    EventKind.DESTROYED: _shape(Subject.CARD),
    EventKind.REGENERATED: _shape(Subject.CARD, "origin", "shield"),
    EventKind.REPLACED: _shape(Subject.CARD, "by"),
    EventKind.SHIELD_NOT_APPLIED: _shape(Subject.CARD, "shields", "static"),
    EventKind.DAMAGE_REMOVED: _shape(Subject.CARD, "amount"),
    EventKind.BECAME_TAPPED: _shape(Subject.CARD, "by"),
    EventKind.BECAME_UNTAPPED: _shape(Subject.CARD),
    EventKind.REMOVED_FROM_COMBAT: _shape(Subject.CARD, "reason"),
    EventKind.ZONE_CHANGE: _shape(Subject.CARD, "cause", "new_object", "origin", "to"),
    EventKind.CONTROL_CHANGED: _shape(Subject.CARD, "origin", "to", "until_end_of_turn"),
    EventKind.UNATTACHED: _shape(Subject.CARD, "origin"),
    EventKind.ATTACHED: _shape(Subject.CARD, "origin", "to"),
    EventKind.PT_MODIFIED: _shape(Subject.CARD, "power", "toughness"),
    EventKind.KEYWORD_CHANGED: _shape(Subject.CARD, "gained", "keyword"),
    EventKind.TYPE_CHANGED: _shape(Subject.CARD, "creature"),
    EventKind.PHASED: _shape(Subject.CARD, "phased_in", "indirectly", "under"),
    EventKind.UNREGENERABLE: _shape(Subject.CARD, "source"),
    EventKind.SBA_CHECK: _shape(Subject.NONE, "checks", "performed"),
    EventKind.PLAYER_LOST: _shape(Subject.PLAYER),
    EventKind.CLEANUP: _shape(Subject.NONE, "damage_removed_from", "shields_ended"),
    EventKind.EFFECTS_ENDED: _shape(
        Subject.CARD,
        "exile_if_dies",
        "prevention",
        "remove_damage",
        "type_change",
        "unregenerable",
        "unused_shields",
    ),
    EventKind.SPELL_CAST: _shape(Subject.STACK, "caster", "effect", "targets"),
    EventKind.ABILITY_ACTIVATED: _shape(Subject.CARD, "ability", "by"),
    EventKind.PUT_ON_STACK: _shape(Subject.STACK, "controller"),
    EventKind.RESOLVED: _shape(Subject.STACK, "effect"),
    EventKind.FIZZLED: _shape(Subject.STACK, "reason"),
    EventKind.COUNTERED: _shape(Subject.STACK, "by"),
    EventKind.PRIORITY: _shape(Subject.PLAYER),
    EventKind.PASSED: _shape(Subject.PLAYER),
    EventKind.STEP_BEGAN: _shape(Subject.NONE, "step"),
    EventKind.TURN_BEGAN: _shape(Subject.PLAYER, "turn"),
    EventKind.ATTACKERS_DECLARED: _shape(Subject.PLAYER, "attackers"),
    EventKind.BLOCKERS_DECLARED: _shape(Subject.PLAYER, "blocks"),
    EventKind.BLOCKERS_ORDERED: _shape(Subject.CARD, "order"),
    EventKind.COMBAT_DAMAGE_ASSIGNED: _shape(Subject.NONE, "assignment"),
    EventKind.NO_COMBAT_DAMAGE: _shape(Subject.CARD, "reason"),
    EventKind.NO_DAMAGE: _shape(Subject.CARD_OR_PLAYER, "source"),
    EventKind.NOTE: _shape(
        Subject.CARD_OR_NONE,
        "already_attached",
        "already_tapped",
        "also_blocks",
        "among",
        "attacking",
        "blocked",
        "by",
        "card",
        "chooser",
        "chose",
        "controller",
        "countered",
        "damage",
        "damage_triggers_kept",
        "deathtouch",
        "deathtouch_record",
        "deathtouch_recorded",
        "destroy_at_end_of_combat",
        "destroyed_by",
        "destroyed_this_way",
        "divides",
        "draws",
        "edition",
        "exile_if_dies",
        "first_strikers",
        "gains",
        "given_by",
        "graveyard",
        "group",
        "hand",
        "keywords",
        "lethal",
        "library",
        "loses",
        "made_by",
        "moved",
        "no_second_strike",
        "paid",
        "permanents",
        "phased_out",
        "player",
        "priority_in_cleanup",
        "reason",
        "remove_damage",
        "removed_from_combat",
        "shield_made_but_will_not_apply",
        "shields_kept",
        "shields_lost",
        "shields_moved",
        "simultaneous",
        "source",
        "spell",
        "stays_blocked",
        "stays_on_battlefield",
        "still_blocks",
        "still_destroyed_at_end_of_combat",
        "strike_again",
        "summoning_sick",
        "target_gone",
        "target_of",
        "trample_to_player",
        "unused_shields_remain",
        "wall",
        "watcher",
    ),
}
