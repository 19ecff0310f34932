"""Triggered abilities that wait for a permanent's status to change: the counterpart of
``engine/triggers.py`` (603.2e). "When this creature dies" is pushed by ``zones.move_zone``
(``zones.push_dies_trigger``, with ``push_life_trigger``), damage triggers by ``effects``.
"""

from __future__ import annotations

from regen_model.encoding import stack
from regen_model.encoding.derived import controller
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import Val, and_, gt, sub
from regen_model.encoding.work import SymWork
from regen_model.model.effects import EffectKind
from regen_model.model.enums import StackKind, ordinal


def push_life_trigger(
    w: SymWork, i: int, who: Val, gen: Val, life: Val, gainer: Val, clause: str, when: Val
) -> None:
    """Where ``when`` holds, a triggered ability of card ``i`` (incarnation ``gen``, the object
    it triggered from) whose effect is "``gainer`` gains ``life`` life" waits to be put on the
    stack, controlled by ``who`` (``engine.triggers.life_trigger``, 603.3, 603.3a)."""
    if w.skip(when):
        return
    obj = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=who,
        effect=ordinal(EffectKind.LIFE),
        amount=life,
        targets=((NONE, 0, gainer),),
        source=i,
        source_gen=gen,
    )
    stack.push(w, "pending", obj, clause, when=when)


def tapped_trigger(w: SymWork, i: int, when: Val) -> None:
    """Card ``i`` has just become tapped where ``when`` holds: its "whenever this creature
    becomes tapped, target opponent gains N life" triggers (``engine.triggers``), controlled
    by its controller now (603.3a), targeting that player's opponent."""
    st = w.st(i)
    fires = and_(when, gt(st.tapped_opponent_life, 0))
    if w.skip(fires):
        return
    who = controller(w, i)
    life = st.tapped_opponent_life
    push_life_trigger(w, i, who, w[w.c(i).gen], life, sub(1, who), "trigger.tapped", fires)
