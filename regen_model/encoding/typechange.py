"""Type changes until end of turn (layer 4, 613.1d): the counterpart of
``engine/typechange.py``. A permanent becomes a creature through its own animation or stops
being one; no zone change, so damage, counters and shields stay (120.6, 701.19a), and an
attacking or blocking creature that stops being one leaves combat (506.4)."""

from __future__ import annotations

from regen_model.encoding.derived import is_creature
from regen_model.encoding.ops import or_
from regen_model.encoding.work import SymWork
from regen_model.encoding.zones import remove_from_combat
from regen_model.model.enums import Mutant


def become_creature(w: SymWork, i: int) -> None:
    """Only a printed creature or a permanent with its own animation can become one."""
    st = w.st(i)
    c = w.c(i)
    clause = "type.become-creature"
    w.require(or_(st.creature, st.animate_ability), clause)
    w.set(c.animated, or_(w[c.animated], st.animate_ability), clause)
    w.set(c.noncreature, False, clause)


def stop_being_creature(w: SymWork, i: int) -> None:
    c = w.c(i)
    clause = "type.stop-being-creature"
    was = is_creature(w, i)
    w.set(c.noncreature, True, clause)
    # 120.6: the damage stays marked (written here so that the rule labels it; the mutant
    # clears it)
    kept = 0 if w.mutant(Mutant.DAMAGE_CLEARED_ON_TYPE_CHANGE) else w[c.damage]
    w.set(c.damage, kept, "type.damage-stays")
    if not w.mutant(Mutant.NONCREATURE_STAYS_IN_COMBAT):
        remove_from_combat(w, i, clause, when=was)
