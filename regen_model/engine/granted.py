"""Activated abilities an Aura or Equipment gives the creature it is attached to (613.1f).

"Enchanted creature has '{B}: Regenerate this creature'" (Skeletal Grimace) is a static
ability of the Aura that adds an activated ability to its host (an ability-adding effect of
layer 6, 613.1f; 113.10). It applies to whatever the Aura is attached to at each moment
(611.3a), so the ability is the creature's while the Aura is on it and goes when the Aura
moves, leaves or phases out (``derived.ability_at``). Being the creature's ability:

* only the creature's controller activates it (602.2), whoever controls the Aura;
* its source is the creature (113.7), so "this creature" is the creature and the shield it
  makes is the creature's, exactly as a printed "Regenerate this creature" (701.19a);
* once on the stack it is independent of the Aura (113.7a): the Aura moving or leaving does
  not stop it.

A real engine ran such an ability as if it were the Aura's, activated by the Aura's
controller: the mutant ``granted-ability-aura-controller``.
"""

from __future__ import annotations

from regen_model.engine.errors import IllegalAction
from regen_model.engine.work import Work
from regen_model.model.derived import controller, givers
from regen_model.model.enums import Mutant
from regen_model.model.events import EventKind

CLAUSE = "attach.granted-ability"


def require_activator(w: Work, host: int, player: int) -> None:
    """602.2: the creature's controller activates the ability its attachment gives it; under
    the mutant, a controller of an attachment that gives it."""
    if w.mutant(Mutant.GRANTED_ABILITY_AURA_CONTROLLER):
        allowed = {controller(w.cards[j]) for j in givers(w, w.cards[host])}
    else:
        allowed = {controller(w.cards[host])}
    if player not in allowed:
        raise IllegalAction(
            f"{w.pname(player)} does not control {w.name(host)}, which has the ability",
            CLAUSE,
            "player",
        )


def note_activated(w: Work, host: int) -> None:
    """The ability went on the stack with the creature as its source (113.7)."""
    w.emit(
        EventKind.NOTE,
        CLAUSE,
        w.name(host),
        given_by=",".join(w.name(j) for j in givers(w, w.cards[host])),
    )
