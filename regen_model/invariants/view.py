"""Views: the two (three) ways an expression is read, and the one evaluator they share.

A ``View`` supplies the primitives: field accessors per card, shield and game, step outputs,
constants, and the boolean/arithmetic combinators. ``evaluate`` walks an expression tree and
calls them; it is the only place that knows what ``all_cards`` or ``count_shields`` *mean*
(an ``and`` over the card slots, a sum of 0/1 over present shields), so an invariant's logic
exists once whatever it is evaluated on:

* ``concrete.ConcreteView``: an engine ``GameState`` (and a step's ``StepOutputs``); values
  are Python ints and bools. This is the runtime monitor.
* ``symbolic.SymbolicView``: Z3 ``Frame``s and symbolic step outputs of the bounded encoding;
  values are Z3 terms. This is what the proofs, BMC and ``find`` use.
* ``checks.local`` reads one permanent of the any-number-of-permanents abstraction.

A *slot* is whatever names a card to its view: an index for the first two, a Z3 term of the
permanent sort for the abstraction (which is why slots are typed ``Any`` here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from regen_model.invariants import expr as E

Slot = Any
Value = Any  # a Python int/bool or a Z3 term, depending on the view


class View(Protocol):
    def card_slots(self) -> Sequence[Slot]: ...

    def shield_slots(self, card: Slot) -> Sequence[int]: ...

    def slot_index(self, card: Slot) -> Value: ...

    def card_int(self, card: Slot, name: str, time: E.Time) -> Value: ...

    def card_bool(self, card: Slot, name: str, time: E.Time) -> Value: ...

    def static_int(self, card: Slot, name: str) -> Value: ...

    def static_bool(self, card: Slot, name: str) -> Value: ...

    def shield_int(self, card: Slot, j: int, name: str, time: E.Time) -> Value: ...

    def shield_bool(self, card: Slot, j: int, name: str, time: E.Time) -> Value: ...

    def game_int(self, name: str, time: E.Time) -> Value: ...

    def game_bool(self, name: str, time: E.Time) -> Value: ...

    def output(self, name: str, card: Slot) -> Value: ...

    def history(self, name: str, card: Slot) -> Value: ...

    def priority_given(self) -> Value: ...

    def countered(self) -> Value: ...

    def action_is(self, kinds: frozenset[str]) -> Value: ...

    def int_const(self, value: int) -> Value: ...

    def bool_const(self, value: bool) -> Value: ...

    def and_(self, args: Sequence[Value]) -> Value: ...

    def or_(self, args: Sequence[Value]) -> Value: ...

    def not_(self, arg: Value) -> Value: ...

    def ite(self, cond: Value, then: Value, other: Value) -> Value: ...


_CMP = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


class _Env:
    """Bindings of card and shield variables while walking a tree."""

    __slots__ = ("cards", "shields")

    def __init__(self) -> None:
        self.cards: dict[E.CardVar, Slot] = {}
        self.shields: dict[E.ShieldVar, tuple[Slot, int]] = {}


class UnboundVariable(ValueError):
    """A card or shield variable used outside the quantifier that binds it."""


def evaluate(expr: E.Expr, view: View, bindings: dict[E.CardVar, Slot] | None = None) -> Value:
    """The value of ``expr`` in ``view`` (free card variables bound by ``bindings``)."""
    env = _Env()
    if bindings:
        env.cards.update(bindings)
    return _eval(expr, view, env)


def _card(env: _Env, var: E.CardVar) -> Slot:
    try:
        return env.cards[var]
    except KeyError:
        raise UnboundVariable(f"card variable {var.name!r} is not bound here") from None


def _shield(env: _Env, var: E.ShieldVar) -> tuple[Slot, int]:
    try:
        return env.shields[var]
    except KeyError:
        raise UnboundVariable(f"shield variable {var.name!r} is not bound here") from None


def _eval(e: E.Expr, v: View, env: _Env) -> Value:
    if isinstance(e, E.IntConst):
        return v.int_const(e.value)
    if isinstance(e, E.BoolConst):
        return v.bool_const(e.value)
    if isinstance(e, E.SlotOf):
        return v.slot_index(_card(env, e.card))
    if isinstance(e, E.CardInt):
        return v.card_int(_card(env, e.card), e.name, e.time)
    if isinstance(e, E.CardBool):
        return v.card_bool(_card(env, e.card), e.name, e.time)
    if isinstance(e, E.StaticInt):
        return v.static_int(_card(env, e.card), e.name)
    if isinstance(e, E.StaticBool):
        return v.static_bool(_card(env, e.card), e.name)
    if isinstance(e, E.ShieldInt):
        card, j = _shield(env, e.shield)
        return v.shield_int(card, j, e.name, e.time)
    if isinstance(e, E.ShieldBool):
        card, j = _shield(env, e.shield)
        return v.shield_bool(card, j, e.name, e.time)
    if isinstance(e, E.GameInt):
        return v.game_int(e.name, e.time)
    if isinstance(e, E.GameBool):
        return v.game_bool(e.name, e.time)
    if isinstance(e, E.OutputInt):
        return v.output(e.name, _card(env, e.card))
    if isinstance(e, E.HistoryInt):
        return v.history(e.name, _card(env, e.card))
    if isinstance(e, E.PriorityGiven):
        return v.priority_given()
    if isinstance(e, E.Countered):
        return v.countered()
    if isinstance(e, E.ActionIs):
        return v.action_is(e.kinds)
    if isinstance(e, E.Arith):
        a, b = _eval(e.left, v, env), _eval(e.right, v, env)
        return a + b if e.op == "+" else a - b
    if isinstance(e, E.Cmp):
        return _CMP[e.op](_eval(e.left, v, env), _eval(e.right, v, env))
    if isinstance(e, E.Not):
        return v.not_(_eval(e.arg, v, env))
    if isinstance(e, E.And):
        return v.and_([_eval(a, v, env) for a in e.args])
    if isinstance(e, E.Or):
        return v.or_([_eval(a, v, env) for a in e.args])
    if isinstance(e, E.Implies):
        return v.or_([v.not_(_eval(e.antecedent, v, env)), _eval(e.consequent, v, env)])
    if isinstance(e, E.Iff):
        a, b = _eval(e.left, v, env), _eval(e.right, v, env)
        return v.or_([v.and_([a, b]), v.and_([v.not_(a), v.not_(b)])])
    if isinstance(e, E.IntIte):
        return v.ite(_eval(e.cond, v, env), _eval(e.then, v, env), _eval(e.other, v, env))
    if isinstance(e, E.CardQuant | E.CardCount | E.CardSum):
        values = []
        for slot in v.card_slots():
            env.cards[e.var] = slot
            values.append(_eval(e.body, v, env))
        del env.cards[e.var]
        if isinstance(e, E.CardSum):
            return _sum(v, values)
        if isinstance(e, E.CardCount):
            return _sum(v, [v.ite(b, v.int_const(1), v.int_const(0)) for b in values])
        return v.and_(values) if e.kind == "all" else v.or_(values)
    if isinstance(e, E.ShieldQuant | E.ShieldCount):
        card = _card(env, e.var.card)
        guarded = []
        for j in v.shield_slots(card):
            env.shields[e.var] = (card, j)
            present = v.shield_bool(card, j, "present", e.time)
            guarded.append((present, _eval(e.body, v, env)))
        env.shields.pop(e.var, None)
        if isinstance(e, E.ShieldCount):
            ones = [v.ite(v.and_([p, b]), v.int_const(1), v.int_const(0)) for p, b in guarded]
            return _sum(v, ones)
        if e.kind == "all":
            return v.and_([v.or_([v.not_(p), b]) for p, b in guarded])
        return v.or_([v.and_([p, b]) for p, b in guarded])
    raise TypeError(f"unknown expression node {type(e).__name__}")


def _sum(v: View, terms: Sequence[Value]) -> Value:
    total = v.int_const(0)
    for t in terms:
        total = total + t
    return total
