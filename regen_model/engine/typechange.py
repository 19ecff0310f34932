"""Type changes until end of turn (layer 4, 613.1d): a permanent becomes a creature through its
own animation (a manland such as Spawning Pool), or stops being a creature.

Neither is a zone change (400.7 does not apply): the permanent keeps its damage, counters and
regeneration shields. A shield made while it was a land protects it once it is a creature,
because a shield replaces the destruction of a permanent, not of a creature (701.19a).
Marked damage stays when it stops being a creature and counts again if it becomes one
(120.6). An attacking or blocking creature that stops being one is removed from combat
(506.4). The encoding counterpart is ``encoding/typechange.py``.
"""

from __future__ import annotations

from regen_model.engine.errors import IllegalAction
from regen_model.engine.work import Work
from regen_model.engine.zones import remove_from_combat
from regen_model.model.derived import is_creature
from regen_model.model.enums import Mutant
from regen_model.model.events import EventKind


def can_become_creature(w: Work, slot: int) -> bool:
    """Only a printed creature (back from "not a creature") or a permanent with its own
    animation can become one: the model has no other creature characteristics to give it."""
    t = w.setup.templates[slot]
    return t.is_creature or t.animation is not None


def become_creature(w: Work, slot: int) -> None:
    """It is a creature until end of turn (613.1d): its animation applies (base power and
    toughness, colors and granted abilities, 613.4b, 613.1e-f), and a later type change
    overrides an earlier "it stops being a creature" (613.7)."""
    if not can_become_creature(w, slot):
        raise IllegalAction(
            f"{w.name(slot)} has no creature characteristics to become a creature with",
            "type.become-creature",
            "target",
        )
    card = w.cards[slot]
    animation = w.setup.templates[slot].animation is not None
    w.cards[slot] = card._replace(animated=card.animated or animation, noncreature=False)
    w.emit(EventKind.TYPE_CHANGED, "type.become-creature", w.name(slot), creature=True)


def stop_being_creature(w: Work, slot: int) -> None:
    """It is not a creature until end of turn (613.1d). Its damage stays marked (120.6); if it
    was attacking or blocking, it is removed from combat (506.4)."""
    card = w.cards[slot]
    was = is_creature(w, card)
    card = card._replace(noncreature=True)
    if card.damage and w.mutant(Mutant.DAMAGE_CLEARED_ON_TYPE_CHANGE):
        card = card._replace(damage=0)
    w.cards[slot] = card
    w.emit(EventKind.TYPE_CHANGED, "type.stop-being-creature", w.name(slot), creature=False)
    if card.damage:
        w.emit(EventKind.NOTE, "type.damage-stays", w.name(slot), damage=card.damage)
    if was and not w.mutant(Mutant.NONCREATURE_STAYS_IN_COMBAT):
        remove_from_combat(w, slot, "type.stop-being-creature", "stopped being a creature")
