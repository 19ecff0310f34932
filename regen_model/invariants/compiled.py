"""Invariants compiled to Python closures, for monitors that run after every engine step.

``view.evaluate`` interprets a formula through the ``View`` primitives; that is the one
definition, and what the proofs use. Monitors evaluate the same formulas thousands of times a
second on concrete states, where a generic walk with a method call per node costs more than
the engine step itself. ``compile_formula`` turns a formula into nested closures once
(memoised per formula), with the concrete view's accessors looked up at compile time and
``and``/``or``/``implies`` short-circuiting (harmless: concrete evaluation has no effects).
The test ``tests/invariants/test_compiled.py`` checks it gives the interpreter's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from regen_model.encoding.outputs import StepOutputs
from regen_model.invariants import expr as E
from regen_model.invariants.concrete import _CARD_BOOL, _CARD_INT, _GAME_INT, ConcreteView
from regen_model.model import derived
from regen_model.model.enums import ordinal
from regen_model.model.state import GameState


class Env:
    """What a compiled formula reads: the step (or state) and the variable bindings."""

    __slots__ = ("cards", "kind", "out", "post", "pre", "shields", "totals", "view")

    def __init__(
        self,
        post: GameState,
        pre: GameState | None = None,
        out: StepOutputs | None = None,
        kind: str | None = None,
        totals: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        self.post = post
        self.pre = pre
        self.out = out
        self.kind = kind
        self.totals = totals
        self.cards: dict[E.CardVar, int] = {}
        self.shields: dict[E.ShieldVar, tuple[int, int]] = {}
        self.view = ConcreteView(post, pre, out, kind, totals)  # for the rare leaf kinds

    def state(self, time: E.Time) -> GameState:
        if time == "pre":
            if self.pre is None:
                raise ValueError("a state property cannot read the pre-state")
            return self.pre
        return self.post


Fn = Callable[[Env], Any]

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
}


@cache
def compile_formula(expr: E.Expr) -> Fn:
    """A closure computing ``expr`` on an ``Env`` (memoised: formulas are immutable)."""
    return _compile(expr)


def _compile(e: E.Expr) -> Fn:
    if isinstance(e, E.IntConst | E.BoolConst):
        value = e.value
        return lambda env: value
    if isinstance(e, E.CardInt | E.CardBool):
        get = _CARD_INT[e.name] if isinstance(e, E.CardInt) else _CARD_BOOL[e.name]
        var, time = e.card, e.time
        if time == "pre":
            return lambda env: get(env.state("pre"), env.state("pre").cards[env.cards[var]])
        return lambda env: get(env.post, env.post.cards[env.cards[var]])
    if isinstance(e, E.SlotOf):
        var = e.card
        return lambda env: env.cards[var]
    if isinstance(e, E.StaticInt | E.StaticBool):
        name, var = e.name, e.card
        if isinstance(e, E.StaticInt):
            return lambda env: env.view.static_int(env.cards[var], name)
        return lambda env: env.view.static_bool(env.cards[var], name)
    if isinstance(e, E.ShieldInt | E.ShieldBool):
        return _shield_field(e)
    if isinstance(e, E.GameInt):
        gget = _GAME_INT[e.name]
        gtime = e.time
        return lambda env: gget(env.state(gtime))
    if isinstance(e, E.GameBool):
        stime = e.time
        return lambda env: derived.sba_pending(env.state(stime))
    if isinstance(e, E.OutputInt):
        oname, var = e.name, e.card
        return lambda env: env.view.output(oname, env.cards[var])
    if isinstance(e, E.HistoryInt):
        hname, var = e.name, e.card
        return lambda env: env.view.history(hname, env.cards[var])
    if isinstance(e, E.PriorityGiven):
        return lambda env: env.view.priority_given()
    if isinstance(e, E.ActionIs):
        kinds = e.kinds
        return lambda env: env.kind in kinds
    if isinstance(e, E.Arith | E.Cmp):
        op = _OPS[e.op]
        left, right = _compile(e.left), _compile(e.right)
        return lambda env: op(left(env), right(env))
    if isinstance(e, E.Not):
        arg = _compile(e.arg)
        return lambda env: not arg(env)
    if isinstance(e, E.And):
        parts = tuple(_compile(a) for a in e.args)
        return lambda env: all(p(env) for p in parts)
    if isinstance(e, E.Or):
        alts = tuple(_compile(a) for a in e.args)
        return lambda env: any(p(env) for p in alts)
    if isinstance(e, E.Implies):
        a, c = _compile(e.antecedent), _compile(e.consequent)
        return lambda env: (not a(env)) or c(env)
    if isinstance(e, E.Iff):
        x, y = _compile(e.left), _compile(e.right)
        return lambda env: bool(x(env)) == bool(y(env))
    if isinstance(e, E.IntIte):
        cond, then, other = _compile(e.cond), _compile(e.then), _compile(e.other)
        return lambda env: then(env) if cond(env) else other(env)
    if isinstance(e, E.CardQuant | E.CardCount | E.CardSum):
        return _card_quantifier(e)
    if isinstance(e, E.ShieldQuant | E.ShieldCount):
        return _shield_quantifier(e)
    raise TypeError(f"unknown expression node {type(e).__name__}")


def _shield_field(e: E.ShieldInt | E.ShieldBool) -> Fn:
    var, name, time = e.shield, e.name, e.time

    def read(env: Env) -> Any:
        slot, j = env.shields[var]
        shields = env.state(time).cards[slot].shields
        if j >= len(shields):
            return False if isinstance(e, E.ShieldBool) else 0
        s = shields[j]
        if name == "present":
            return True
        if name == "used":
            return s.used
        if name == "rider":
            return ordinal(s.rider)
        return s.creator

    return read


def _card_quantifier(e: E.CardQuant | E.CardCount | E.CardSum) -> Fn:
    body = _compile(e.body)
    var = e.var

    def values(env: Env) -> Any:
        for slot in range(len(env.post.cards)):
            env.cards[var] = slot
            yield body(env)

    if isinstance(e, E.CardSum):
        return lambda env: sum(values(env))
    if isinstance(e, E.CardCount):
        return lambda env: sum(1 for v in values(env) if v)
    if e.kind == "all":
        return lambda env: all(values(env))
    return lambda env: any(values(env))


def _shield_quantifier(e: E.ShieldQuant | E.ShieldCount) -> Fn:
    body = _compile(e.body)
    var, time = e.var, e.time

    def values(env: Env) -> Any:
        slot = env.cards[var.card]
        present = len(env.state(time).cards[slot].shields)
        for j in range(present):
            env.shields[var] = (slot, j)
            yield body(env)

    if isinstance(e, E.ShieldCount):
        return lambda env: sum(1 for v in values(env) if v)
    if e.kind == "all":
        return lambda env: all(values(env))
    return lambda env: any(values(env))
