"""Activated abilities an Aura or Equipment gives its creature: the counterpart of
``engine/granted.py`` (613.1f, 113.10, 602.2, 113.7, 113.7a).

The host has "{cost}: Regenerate this creature" after its printed abilities while an
attachment with ``CardStatics.grant_regen`` is on the battlefield attached to it (611.3a); the
stack object it makes is the host's own "Regenerate this" (source and target the host), so
nothing of it depends on the attachment once activated. Only who may activate it differs from
a printed ability under the ``granted-ability-aura-controller`` mutant.
"""

from __future__ import annotations

from regen_model.encoding.derived import attached_on_battlefield, controller
from regen_model.encoding.ops import Val, and_, eq, or_
from regen_model.encoding.work import SymWork
from regen_model.model.enums import Mutant

CLAUSE = "attach.granted-ability"


def givers(w: SymWork, i: int) -> list[Val]:
    """Per other slot j: j gives ``i`` the ability now (on the battlefield, attached to it)."""
    out: list[Val] = []
    for j in range(w.n):
        if j == i:
            continue  # a card is never attached to itself (frame domain)
        gives = w.st(j).grant_regen
        if gives is False:
            continue
        out.append(and_(gives, attached_on_battlefield(w, j, i)))
    return out


def activator_ok(w: SymWork, i: int, player: Val, given_by: list[Val]) -> Val:
    """602.2 (``engine.granted.require_activator``): ``player`` controls the host; under the
    mutant, ``player`` controls one of the attachments that give it the ability."""
    if not w.mutant(Mutant.GRANTED_ABILITY_AURA_CONTROLLER):
        return eq(player, controller(w, i))
    others = [j for j in range(w.n) if j != i and w.st(j).grant_regen is not False]
    return or_(
        *[and_(g, eq(player, controller(w, j))) for g, j in zip(given_by, others, strict=True)]
    )
