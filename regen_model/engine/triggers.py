"""Triggered abilities that wait for a permanent's status to change: "whenever this creature
becomes tapped" (603.2e). Damage triggers are dealt with where damage is (``effects``), riders
where a shield is used (``destruction``), "when this creature dies" where zones change
(``zones``).

"Becomes tapped" happens only when an untapped permanent on the battlefield is tapped (603.2e):
attacking (508.1f), paying {T} (602.2b), and the tap a regeneration makes (701.19a). Making a
shield taps nothing (701.19c is about using it), so it triggers nothing; nor does a permanent
that is already tapped when it regenerates.
"""

from __future__ import annotations

from regen_model.engine.work import Work
from regen_model.model.derived import controller
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import StackKind
from regen_model.model.state import Card, StackObject, Target


def life_trigger(
    w: Work, slot: int, card: Card, life: int, gainer: int, what: str, clause: str
) -> None:
    """A triggered ability of the permanent in ``slot`` (as ``card``, the object it triggered
    from) whose effect is "``gainer`` gains ``life`` life" triggers: it waits to be put on the
    stack (603.3), controlled by that object's controller (603.3a). ``what`` names it
    ("tapped", "dies"); ``clause`` is the rule it triggers under."""
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"{what} trigger of {w.name(slot)}",
        controller=controller(card),
        effect=Effect(EffectKind.LIFE, amount=life),
        targets=(Target(player=gainer),),
        source=slot,
        source_gen=card.gen,
    )
    w.trigger(obj, clause, w.name(slot), life=life)


def tapped_trigger(w: Work, slot: int) -> None:
    """The permanent in ``slot`` has just become tapped: its "whenever this creature becomes
    tapped, target opponent gains N life" (Soldevi Steam Beast) triggers, controlled by its
    controller now (603.3a), the target that player's opponent (the only one, 2 players)."""
    life = w.setup.templates[slot].tapped_opponent_life
    if not life:
        return
    card = w.cards[slot]
    life_trigger(w, slot, card, life, 1 - controller(card), "tapped", "trigger.tapped")
