"""Step outputs: the few facts about a step that step properties talk about.

The engine reports a step as a list of events; the encoding cannot quantify over a list, so
both views reduce a step to the same small record of per-card counters and flags. The concrete
record is computed here from the engine's events (``outputs_of``); the symbolic record is built
by the transition relation (``regen_model.encoding``) with the same field names and meanings,
and the agreement check compares the two.

Every field is per card slot unless noted, counted over the whole step (a step may contain a
resolution followed by a full state-based-action loop):

``regenerations``  destructions replaced by a shield (``regenerated`` events, clause
                   regen.shield.apply)
``static_regens``  destructions replaced by static regeneration (regen.static)
``shields_used``   shield slots that went from unused to used
``shields_made``   shields created (regen.shield.create)
``regen_taps``     times it became tapped because it regenerated (regen.apply.tap)
``other_taps``     times it became tapped for another reason (attacking, ...)
``destroyed``      times it was destroyed (moved to the graveyard by destruction)
``would_destroy``  destruction events that reached it (replaced or not, not indestructible)
``left``           times it left the battlefield (any cause)
``returned``       times it entered the battlefield (leave-and-return)
``damage``         total damage dealt to it (marked or as -1/-1 counters)
``damage_triggers`` damage triggers of it that triggered
``riders``         "if it regenerates this way" riders that happened (control or trigger,
                   Soldevi Sentry's draw trigger included)
``attached``       times it, an Aura or Equipment, was attached to another permanent (701.3a)
``priority_given`` (global) a player received priority at the end of the step
``countered``      (global) spells countered in the step (``countered`` events, clause
                   stack.counter, 701.6a): a resolving Counterspell takes its target off the
                   stack, which then never resolves; 0 or 1 with today's cards
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from regen_model.model.events import Event, EventKind
from regen_model.model.state import GameState

CARD_FIELDS: tuple[str, ...] = (
    "regenerations",
    "static_regens",
    "shields_used",
    "shields_made",
    "regen_taps",
    "other_taps",
    "destroyed",
    "would_destroy",
    "left",
    "returned",
    "damage",
    "damage_triggers",
    "riders",
    "attached",
)
# The global step outputs, once for the whole game (a 1-tuple in the symbolic ``outputs``).
GAME_FIELDS: tuple[str, ...] = ("priority_given", "countered")


@dataclass(frozen=True)
class StepOutputs:
    """Concrete step outputs: ``cards[field][slot]`` and the global ones."""

    cards: dict[str, tuple[int, ...]] = field(default_factory=dict)
    priority_given: bool = False
    countered: int = 0

    def get(self, name: str, slot: int) -> int:
        return self.cards[name][slot]


def outputs_of(pre: GameState, events: Sequence[Event], post: GameState) -> StepOutputs:
    """The step outputs of one engine step (``pre`` --events--> ``post``)."""
    n = len(pre.cards)
    index = {h: i for i, h in enumerate(pre.setup.handles)}
    counts = {name: [0] * n for name in CARD_FIELDS}

    def bump(name: str, subject: str | None, by: int = 1) -> None:
        if subject is not None and subject in index:
            counts[name][index[subject]] += by

    priority_given = False
    countered = 0
    for e in events:
        k = e.kind
        if k is EventKind.REGENERATED:
            bump(
                "regenerations" if e.clause == "regen.shield.apply" else "static_regens", e.subject
            )
        elif k is EventKind.SHIELD_CREATED:
            bump("shields_made", e.subject)
        elif k is EventKind.BECAME_TAPPED:
            bump("regen_taps" if e.clause == "regen.apply.tap" else "other_taps", e.subject)
        elif k is EventKind.DESTROYED:
            bump("destroyed", e.subject)
        elif k is EventKind.WOULD_BE_DESTROYED:
            bump("would_destroy", e.subject)
        elif k is EventKind.ZONE_CHANGE:
            if e.get("origin") == "battlefield":
                bump("left", e.subject)
            if e.get("to") == "battlefield":
                bump("returned", e.subject)
        elif k is EventKind.DAMAGE_DEALT:
            amount = e.get("amount")
            bump("damage", e.subject, amount if isinstance(amount, int) else 0)
        elif k is EventKind.TRIGGERED:
            if e.clause == "damage.trigger":
                bump("damage_triggers", e.subject)
            elif e.clause in ("regen.rider.trigger", "regen.rider.opponent-draws"):
                bump("riders", e.subject)
        elif k is EventKind.ATTACHED:
            bump("attached", e.subject)
        elif k is EventKind.CONTROL_CHANGED and e.clause == "regen.rider.control":
            bump("riders", e.subject)
        elif k is EventKind.PRIORITY:
            priority_given = True
        elif k is EventKind.COUNTERED:
            countered += 1
    for i in range(n):
        before, after = pre.cards[i], post.cards[i]
        if before.gen == after.gen:
            counts["shields_used"][i] = sum(
                1
                for j, s in enumerate(after.shields)
                if s.used and not (j < len(before.shields) and before.shields[j].used)
            )
    return StepOutputs({k: tuple(v) for k, v in counts.items()}, priority_given, countered)
