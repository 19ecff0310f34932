"""Answers to the 616.1 question: which destruction-replacement effect applies.

When a permanent would be destroyed and replacement effects with different outcomes apply
(a plain shield, a shield with a rider, static regeneration, umbra armor, a shield counter),
the engine wants an answer among the action's ``choices`` and raises ``MissingChoice``
without one. An explorer therefore has to offer answers, and it has to offer them *by both
players*: the engine uses the answer of the player the rules designate (the controller) and
ignores the others, so an action whose only answer comes from the wrong player is simply not
enabled under the correct rules, while a wrong-chooser mutant (``choice-by-owner``) accepts it
and shows itself.

Answers name one *outcome class* each, not every shield: plain shields are interchangeable
(the engine applies the oldest one when any is chosen), so offering ``shield#1`` and
``shield#2`` separately would only multiply states that differ in which identical shield is
marked used. Shields with a rider are named by index (``shield#N``) because their rider and
its beneficiary make them differ.
"""

from __future__ import annotations

from itertools import product

from regen_model.model.actions import ReplacementChoice
from regen_model.model.derived import has
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Attachment, Keyword, Rider
from regen_model.model.state import Card, GameState

Answers = tuple[ReplacementChoice, ...]


def replacement_uses(state: GameState, card: Card) -> tuple[str, ...]:
    """One ``ReplacementChoice.use`` per outcome class that could apply to ``card``.

    A shield the top of the stack is about to create counts too: passing priority can resolve
    it and then, in the same step, run state-based actions that destroy the creature.
    """
    uses: list[str] = []
    plain = False
    riders: set[tuple[Rider, int]] = set()
    for i, shield in enumerate(card.shields):
        if shield.used:
            continue
        if shield.rider is Rider.NONE:
            if not plain:
                plain = True
                uses.append("shield")
        elif (shield.rider, shield.creator) not in riders:
            riders.add((shield.rider, shield.creator))
            uses.append(f"shield#{i + 1}")
    incoming = _incoming_shield(state, card)
    if incoming is not None:
        rider, creator = incoming
        if rider is Rider.NONE and not plain:
            uses.append("shield")
        elif rider is not Rider.NONE and (rider, creator) not in riders:
            uses.append(f"shield#{len(card.shields) + 1}")
    if state.setup.templates[card.slot].static_regeneration:
        uses.append("static")
    for other in state.cards:
        if (
            other.on_battlefield
            and other.attached_to == card.slot
            and state.setup.templates[other.slot].attachment is Attachment.AURA
            and has(state, other, Keyword.UMBRA_ARMOR)
        ):
            uses.append(f"umbra:{state.setup.handles[other.slot]}")
    if card.shield_counters > 0:
        uses.append("shield-counter")
    return tuple(uses)


def _incoming_shield(state: GameState, card: Card) -> tuple[Rider, int] | None:
    if not state.stack:
        return None
    top = state.stack[-1]
    if top.effect is None or top.effect.kind is not EffectKind.REGENERATE:
        return None
    if any(t.card == card.slot and t.gen == card.gen for t in top.targets):
        return top.effect.rider, top.controller
    return None


def answer_sets(state: GameState) -> tuple[Answers, ...]:
    """Every combination of one answer per permanent that may face the 616.1 question.

    Each answer is given by a single player (for each player in turn), so that who answers is
    part of what is explored. Empty when no permanent has two outcome classes.
    """
    per_permanent: list[list[ReplacementChoice]] = []
    players = range(len(state.players))
    for card in state.cards:
        if not card.on_battlefield:
            continue
        uses = replacement_uses(state, card)
        if len(uses) < 2:
            continue
        handle = state.setup.handles[card.slot]
        per_permanent.append([ReplacementChoice(handle, p, use) for p in players for use in uses])
    if not per_permanent:
        return ()
    return tuple(product(*per_permanent))
