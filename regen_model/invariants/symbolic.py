"""The symbolic view: expressions read Z3 ``Frame``s and symbolic step outputs.

Derived fields (toughness, keywords, "a state-based action is pending") are computed from
frame variables with the same formulas as ``model/derived.py``; the test that pins a frame to
engine states and compares both views keeps the two in step.

A state property reads one frame (``post``); a step property reads ``pre``, ``post``, the
step's outputs and its action kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import z3

from regen_model.encoding.frame import GRANTABLE, NONE, CardVars, Frame
from regen_model.invariants import expr as E
from regen_model.invariants.view import Slot, Value
from regen_model.model.enums import Attachment, Keyword, Zone, ordinal

Z3Ref = Any

BATTLEFIELD = ordinal(Zone.BATTLEFIELD)
_GHOST = frozenset({"shields_made", "destructions", "by_shield", "by_static", "by_other"})
_STATE_INTS = frozenset(
    {
        "zone",
        "gen",
        "control",
        "control_eot",
        "damage",
        "plus",
        "minus",
        "shield_counters",
        "power_eot",
        "toughness_eot",
        "attached_to",
        "blocking",
    }
)
_STATE_BOOLS = frozenset({"tapped", "deathtouched", "cant_regen", "attacking", "blocked"})


# --- derived characteristics over a frame (mirrors model/derived.py) ---------------------------


def has(frame: Frame, i: int, keyword: Keyword) -> Z3Ref:
    """Printed, given by an attached Aura or Equipment (613.1f) or granted, and not removed
    (613.7: the latest change wins; a frame never has both a grant and a removal of one
    keyword)."""
    c = frame.cards[i]
    by_attachments = [
        z3.And(frame.statics.cards[a].grant(keyword), on_battlefield(o), o.attached_to == i)
        for a, o in enumerate(frame.cards)
        if a != i and keyword in GRANTABLE
    ]
    return z3.And(
        z3.Or(frame.statics.cards[i].kw(keyword), *by_attachments, c.granted(keyword)),
        z3.Not(c.removed(keyword)),
    )


def _attach_bonus(frame: Frame, i: int, power: bool) -> Z3Ref:
    total: Z3Ref = z3.IntVal(0)
    for a, other in enumerate(frame.cards):
        if a == i:
            continue
        st = frame.statics.cards[a]
        bonus = st.bonus_power if power else st.bonus_toughness
        total = total + z3.If(z3.And(on_battlefield(other), other.attached_to == i), bonus, 0)
    return total


def _base(frame: Frame, i: int, power: bool) -> Z3Ref:
    """Printed, or its animation's while that applies (layer 7b, ``derived.base_pt``)."""
    st = frame.statics.cards[i]
    printed, animated = (st.power, st.anim_power) if power else (st.toughness, st.anim_toughness)
    return z3.If(frame.cards[i].animated, animated, printed)


def is_creature(frame: Frame, i: int) -> Z3Ref:
    """Its card types now (layer 4, ``derived.is_creature``)."""
    c = frame.cards[i]
    return z3.And(z3.Or(frame.statics.cards[i].creature, c.animated), z3.Not(c.noncreature))


def toughness(frame: Frame, i: int) -> Z3Ref:
    c = frame.cards[i]
    return (
        _base(frame, i, power=False)
        + c.plus
        - c.minus
        + c.toughness_eot
        + _attach_bonus(frame, i, power=False)
    )


def power(frame: Frame, i: int) -> Z3Ref:
    c = frame.cards[i]
    return (
        _base(frame, i, power=True)
        + c.plus
        - c.minus
        + c.power_eot
        + _attach_bonus(frame, i, power=True)
    )


def on_battlefield(c: CardVars) -> Z3Ref:
    """On the battlefield and phased in (702.26b; ``Card.on_battlefield``)."""
    return z3.And(c.zone == BATTLEFIELD, c.phased_out == NONE)


def controller(c: CardVars) -> Z3Ref:
    return z3.If(c.control_eot == NONE, c.control, c.control_eot)


def creature_on_battlefield(frame: Frame, i: int) -> Z3Ref:
    return z3.And(on_battlefield(frame.cards[i]), is_creature(frame, i))


def sba_pending(frame: Frame) -> Z3Ref:
    """704.3: some state-based action would be performed by a check now."""
    return sba_pending_of(frame, range(len(frame.cards)))


def sba_pending_of(frame: Frame, slots: Iterable[int]) -> Z3Ref:
    """704.3 for the permanents in ``slots`` and every player: some state-based action
    about one of them would be performed by a check now. Over every slot it is
    ``sba_pending``; over representative slots it is what the symmetry reduction asks
    (``checks.symmetry``: "no action is pending" is "for every card, none about it")."""
    pending = [card_sba_pending(frame, i) for i in slots]
    for p in frame.players:
        pending.append(z3.And(z3.Not(p.lost), z3.Or(p.life <= 0, p.poison >= 10, p.drew_empty)))
    return z3.Or(*pending)


def card_sba_pending(frame: Frame, i: int) -> Z3Ref:
    """A state-based action about the permanent in slot ``i`` is pending (704.5f-h, m, n, q)."""
    c = frame.cards[i]
    cob = creature_on_battlefield(frame, i)
    t = toughness(frame, i)
    indestructible = has(frame, i, Keyword.INDESTRUCTIBLE)
    zero = z3.And(cob, t <= 0)
    lethal = z3.And(cob, c.damage > 0, t > 0, c.damage >= t, z3.Not(indestructible))
    touched = z3.And(c.deathtouched, cob, t > 0, z3.Not(indestructible))
    host_gone = z3.Or(
        c.attached_to == NONE,
        *[
            z3.And(c.attached_to == j, z3.Not(creature_on_battlefield(frame, j)))
            for j in range(len(frame.cards))
            if j != i
        ],
    )
    aura = z3.And(
        on_battlefield(c),
        frame.statics.cards[i].attachment == ordinal(Attachment.AURA),
        host_gone,
    )
    equipment = z3.And(  # 704.5n
        on_battlefield(c),
        frame.statics.cards[i].attachment == ordinal(Attachment.EQUIPMENT),
        c.attached_to != NONE,
        host_gone,
    )
    annihilate = z3.And(on_battlefield(c), c.plus > 0, c.minus > 0)
    return z3.Or(zero, lethal, touched, aura, equipment, annihilate)


_DERIVED_INT: dict[str, Callable[[Frame, int], Z3Ref]] = {
    "toughness": toughness,
    "power": power,
    "controller": lambda f, i: controller(f.cards[i]),
}
_DERIVED_BOOL: dict[str, Callable[[Frame, int], Z3Ref]] = {
    "on_battlefield": lambda f, i: on_battlefield(f.cards[i]),
    "in_combat": lambda f, i: z3.Or(
        f.cards[i].attacking, f.cards[i].blocking != NONE, f.cards[i].blocking_also != NONE
    ),
    "indestructible": lambda f, i: has(f, i, Keyword.INDESTRUCTIBLE),
    "is_creature": is_creature,
}


class Z3Ops:
    """The constants and connectives of a view whose values are Z3 terms; shared by
    ``SymbolicView`` and the any-n proofs' per-permanent view (``checks.anyn.LocalView``)."""

    def int_const(self, value: int) -> Value:
        return z3.IntVal(value)

    def bool_const(self, value: bool) -> Value:
        return z3.BoolVal(value)

    def and_(self, args: Sequence[Value]) -> Value:
        return z3.And(*args) if args else z3.BoolVal(True)

    def or_(self, args: Sequence[Value]) -> Value:
        return z3.Or(*args) if args else z3.BoolVal(False)

    def not_(self, arg: Value) -> Value:
        return z3.Not(arg)

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        return z3.If(cond, then, other)


class SymbolicView(Z3Ops):
    """A frame (``pre`` is None) or a step ``pre -> post`` of the bounded encoding.

    ``outputs[name][slot]`` are the step's symbolic outputs; ``kind`` the action-kind term,
    ``kind_value`` the system's map from a kind name to its value and ``kinds`` the kinds it
    has; ``history[name][slot]`` the run totals (BMC queries); ``priority_given`` and
    ``countered`` the global step outputs.
    """

    def __init__(
        self,
        post: Frame,
        pre: Frame | None = None,
        outputs: Mapping[str, Sequence[Z3Ref]] | None = None,
        priority_given: Z3Ref | None = None,
        kind: Z3Ref | None = None,
        kind_value: Callable[[str], Z3Ref] | None = None,
        history: Mapping[str, Sequence[Z3Ref]] | None = None,
        kinds: Sequence[str] = (),
        countered: Z3Ref | None = None,
    ) -> None:
        self.post = post
        self.pre = pre
        self.outputs = outputs
        self.given = priority_given
        self.n_countered = countered
        self.kind = kind
        self.kind_value = kind_value
        self.totals = history
        self.kinds = frozenset(kinds)

    def _frame(self, time: E.Time) -> Frame:
        if time == "pre":
            if self.pre is None:
                raise ValueError("a state property cannot read the pre-state")
            return self.pre
        return self.post

    def card_slots(self) -> Sequence[Slot]:
        return range(len(self.post.cards))

    def shield_slots(self, card: Slot) -> Sequence[int]:
        return range(self.post.scope.shields)

    def slot_index(self, card: Slot) -> Value:
        return z3.IntVal(card)

    def card_int(self, card: Slot, name: str, time: E.Time) -> Value:
        f = self._frame(time)
        c = f.cards[card]
        if name in _STATE_INTS:
            return getattr(c, name)
        if name in _GHOST:
            return getattr(c.ghost, name)
        return _DERIVED_INT[name](f, card)

    def card_bool(self, card: Slot, name: str, time: E.Time) -> Value:
        f = self._frame(time)
        if name in _STATE_BOOLS:
            return getattr(f.cards[card], name)
        return _DERIVED_BOOL[name](f, card)

    def static_int(self, card: Slot, name: str) -> Value:
        st = self.post.statics.cards[card]
        return {
            "printed_power": st.power,
            "printed_toughness": st.toughness,
            "trigger": st.trigger,
        }[name]

    def static_bool(self, card: Slot, name: str) -> Value:
        st = self.post.statics.cards[card]
        return {
            "creature": st.creature,
            "static_regen": st.static_regen,
            "regen_ability": st.regen_ability,
        }[name]

    def shield_int(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        return getattr(self._frame(time).cards[card].shields[j], name)

    def shield_bool(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        return getattr(self._frame(time).cards[card].shields[j], name)

    def game_int(self, name: str, time: E.Time) -> Value:
        f = self._frame(time)
        if name == "stack_size":
            return f.stack_size
        if name == "pending_size":
            return f.pending_size
        return getattr(f, name)

    def game_bool(self, name: str, time: E.Time) -> Value:
        if name == "sba_pending":
            return sba_pending(self._frame(time))
        raise KeyError(name)

    def sba_pending_of(self, time: E.Time, slots: Sequence[Slot]) -> Value:
        """``sba_pending`` about the permanents in ``slots`` only (and the players)."""
        return sba_pending_of(self._frame(time), slots)

    def output(self, name: str, card: Slot) -> Value:
        if self.outputs is None:
            raise ValueError("a state property cannot read step outputs")
        return self.outputs[name][card]

    def history(self, name: str, card: Slot) -> Value:
        if self.totals is None:
            raise ValueError("run totals are only available while searching a trace")
        return self.totals[name][card]

    def priority_given(self) -> Value:
        if self.given is None:
            raise ValueError("a state property cannot read step outputs")
        return self.given

    def countered(self) -> Value:
        if self.n_countered is None:
            raise ValueError("a state property cannot read step outputs")
        return self.n_countered

    def action_is(self, kinds: frozenset[str]) -> Value:
        if self.kind is None or self.kind_value is None:
            raise ValueError("a state property cannot read the action")
        known = sorted(k for k in kinds if k in self.kinds)  # a kind the system lacks never happens
        return z3.Or(*[self.kind == self.kind_value(k) for k in known])
