"""Triggered abilities that wait for a permanent's status to change: "whenever this creature
becomes tapped" (603.2e), and the Basilisk's "whenever this creature blocks or becomes blocked
by a non-Wall creature, destroy that creature at end of combat" with its delayed trigger
(509.1i, 603.7, 511.2). Damage triggers are dealt with where damage is (``effects``), riders
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
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import StackKind
from regen_model.model.events import EventKind
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


def block_destroy_triggers(w: Work, pairs: list[tuple[int, int]]) -> None:
    """Blockers have just been declared (509.1i): for each block of ``pairs`` (blocker,
    attacker) where one side has "whenever this creature blocks or becomes blocked by a
    non-Wall creature, destroy that creature at end of combat" (Thicket Basilisk, Cockatrice)
    and the other is not a Wall as it becomes blocking or blocked (509.3f of 2026, 509.4f of
    2011, 509.5f of 2023-2024), the other creature gets the delayed trigger "destroy it at end
    of combat" (603.7), controlled by the Basilisk's controller (603.3a, 603.7e). One block, one
    trigger (509.3b, 509.3d): a creature blocking two Basilisks gets two.

    The model lets the Basilisk's trigger resolve at once (its delayed trigger exists from the
    declaration on): nothing in the model counters a triggered ability, and the delayed
    trigger depends on that creature alone (docs/rules-decisions.md)."""
    for b, a in pairs:
        # the blocking Basilisk is the defending player's (509.1g), the attacking one the
        # active player's (508.1a; a control change would have removed it from combat, 506.4)
        for source, other, who in ((b, a, w.defending), (a, b, w.active)):
            if not w.setup.templates[source].destroys_combatants:
                continue
            if w.setup.templates[other].wall:
                w.emit(EventKind.NOTE, "trigger.eoc-destroy", w.name(other), wall=True)
                continue
            card = w.cards[other]
            w.cards[other] = card._replace(eoc_destroy=card.eoc_destroy + 1, eoc_destroy_by=who)
            w.emit(
                EventKind.NOTE,
                "trigger.eoc-destroy",
                w.name(other),
                destroy_at_end_of_combat=card.eoc_destroy + 1,
                by=w.name(source),
                controller=w.pname(who),
            )


def end_of_combat_triggers(w: Work) -> None:
    """The end of combat step begins (511.2): every delayed "destroy it at end of combat"
    triggers, once (603.7b), controlled by the player who controls it, and is gone. It still
    refers to its object (603.7c): a creature regenerated and removed from combat since
    blockers were declared is still that object and is destroyed when the trigger resolves
    (a second destruction, which needs a second shield). Waiting triggers go on the stack
    in APNAP order as a player would next receive priority (603.3b, ``stack.triggers``)."""
    for i, card in enumerate(w.cards):
        if not card.eoc_destroy:
            continue
        who = card.eoc_destroy_by
        assert who is not None
        for _ in range(card.eoc_destroy):
            obj = StackObject(
                kind=StackKind.TRIGGER,
                name=f"end-of-combat destruction of {w.name(i)}",
                controller=who,
                effect=Effect(EffectKind.DESTROY),
                targets=(Target(card=i, gen=card.gen),),
                target_rule=TargetRule.NONE,
            )
            w.trigger(obj, "trigger.eoc-destroy", w.name(i))
        w.cards[i] = w.cards[i]._replace(eoc_destroy=0, eoc_destroy_by=None)
