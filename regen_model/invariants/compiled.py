"""Invariants compiled to Python functions, for monitors that run after every engine step.

``view.evaluate`` interprets a formula through the ``View`` primitives; that is the one
definition, and what the proofs use. Monitors evaluate the same formulas thousands of times a
second on concrete states, where a generic walk with a method call per node costs more than
the engine step itself. ``compile_formula`` turns a formula, once (memoised per formula), into
the source of one Python function (quantifiers become generator expressions over the card
and shield slots, fields become attribute reads, the concrete view's accessors are bound by
name) and has Python compile it; ``and``/``or``/``implies`` short-circuit (harmless: concrete
evaluation has no effects). The test ``tests/invariants/test_compiled.py`` checks it gives
the interpreter's answer.
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

_CMP_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "+", "-"})

# Card fields that are plain attributes of ``model.state.Card`` (the others go through the
# concrete view's accessors, ``concrete._CARD_INT`` / ``_CARD_BOOL``).
_PLAIN_INT = {
    "gen": "gen",
    "control": "control",
    "damage": "damage",
    "plus": "plus",
    "minus": "minus",
    "shield_counters": "shield_counters",
    "power_eot": "power_eot",
    "toughness_eot": "toughness_eot",
    "shields_made": "ghost.shields_made",
    "destructions": "ghost.destructions",
    "by_shield": "ghost.by_shield",
    "by_static": "ghost.by_static",
    "by_other": "ghost.by_other",
}
_PLAIN_BOOL = {
    "tapped": "tapped",
    "deathtouched": "deathtouched",
    "cant_regen": "cant_regen",
    "attacking": "attacking",
    "blocked": "blocked",
    "on_battlefield": "on_battlefield",
    "in_combat": "in_combat",
}


def _shield_int(state: GameState, slot: int, j: int, name: str) -> int:
    shields = state.cards[slot].shields
    if j >= len(shields):
        return 0
    s = shields[j]
    return ordinal(s.rider) if name == "rider" else s.creator


def _shield_bool(state: GameState, slot: int, j: int, name: str) -> bool:
    shields = state.cards[slot].shields
    if j >= len(shields):
        return False
    return True if name == "present" else shields[j].used


@cache
def compile_formula(expr: E.Expr) -> Fn:
    """A function computing ``expr`` on an ``Env`` (memoised: formulas are immutable).

    Card variables bound inside ``expr`` are local names of the generated code; a free one
    (a formula's body, evaluated for a card the caller chose) is read from ``env.cards``."""
    gen = _Gen()
    body = gen.expr(expr)
    source = (
        "def _compiled(env):\n"
        "    post = env.post\n"
        "    pre = env.pre\n"
        "    out = env.out\n"
        "    bound = env.cards\n"
        "    n = len(post.cards)\n"
        f"    return {body}\n"
    )
    namespace: dict[str, Any] = dict(gen.constants)
    namespace.update(
        _CARD_INT=_CARD_INT,
        _CARD_BOOL=_CARD_BOOL,
        _GAME_INT=_GAME_INT,
        _sba_pending=derived.sba_pending,
        _ordinal=ordinal,
        _shield_int=_shield_int,
        _shield_bool=_shield_bool,
    )
    exec(compile(source, f"<invariant {id(expr):x}>", "exec"), namespace)
    fn: Fn = namespace["_compiled"]
    return fn


class _Gen:
    """Python source for an expression tree (see ``compile_formula``)."""

    def __init__(self) -> None:
        self.constants: dict[str, Any] = {}
        self.cards: dict[E.CardVar, str] = {}  # bound card variable -> local name
        self.shields: dict[E.ShieldVar, tuple[str, str]] = {}  # -> (card name, index name)
        self._names = 0

    def _const(self, value: Any) -> str:
        name = f"_k{len(self.constants)}"
        self.constants[name] = value
        return name

    def _fresh(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def _card(self, var: E.CardVar) -> str:
        local = self.cards.get(var)
        return local if local is not None else f"bound[{self._const(var)}]"

    @staticmethod
    def _state(time: E.Time) -> str:
        # ``pre`` is None for a state property: reading it fails like the interpreter's
        # "a state property cannot read the pre-state" (the invariant kinds prevent it)
        return "pre" if time == "pre" else "post"

    def expr(self, e: E.Expr) -> str:
        if isinstance(e, E.IntConst | E.BoolConst):
            return repr(e.value)
        if isinstance(e, E.CardInt | E.CardBool):
            state, slot = self._state(e.time), self._card(e.card)
            plain = (_PLAIN_INT if isinstance(e, E.CardInt) else _PLAIN_BOOL).get(e.name)
            if plain is not None:
                return f"{state}.cards[{slot}].{plain}"
            table = "_CARD_INT" if isinstance(e, E.CardInt) else "_CARD_BOOL"
            return f"{table}[{e.name!r}]({state}, {state}.cards[{slot}])"
        if isinstance(e, E.SlotOf):
            return self._card(e.card)
        if isinstance(e, E.StaticInt):
            return f"env.view.static_int({self._card(e.card)}, {e.name!r})"
        if isinstance(e, E.StaticBool):
            return f"env.view.static_bool({self._card(e.card)}, {e.name!r})"
        if isinstance(e, E.ShieldInt | E.ShieldBool):
            card, j = self.shields[e.shield]
            fn = "_shield_int" if isinstance(e, E.ShieldInt) else "_shield_bool"
            return f"{fn}({self._state(e.time)}, {card}, {j}, {e.name!r})"
        if isinstance(e, E.GameInt):
            return f"_GAME_INT[{e.name!r}]({self._state(e.time)})"
        if isinstance(e, E.GameBool):
            return f"_sba_pending({self._state(e.time)})"
        if isinstance(e, E.OutputInt):
            return f"out.cards[{e.name!r}][{self._card(e.card)}]"
        if isinstance(e, E.HistoryInt):
            return f"env.view.history({e.name!r}, {self._card(e.card)})"
        if isinstance(e, E.PriorityGiven):
            return "out.priority_given"
        if isinstance(e, E.Countered):
            return "out.countered"
        if isinstance(e, E.ActionIs):
            return f"(env.kind in {self._const(e.kinds)})"
        if isinstance(e, E.Arith | E.Cmp):
            if e.op not in _CMP_OPS:
                raise TypeError(f"unknown operator {e.op!r}")
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, E.Not):
            return f"(not {self.expr(e.arg)})"
        if isinstance(e, E.And):
            return "(" + " and ".join(f"bool({self.expr(a)})" for a in e.args) + ")"
        if isinstance(e, E.Or):
            return "(" + " or ".join(f"bool({self.expr(a)})" for a in e.args) + ")"
        if isinstance(e, E.Implies):
            return f"((not {self.expr(e.antecedent)}) or bool({self.expr(e.consequent)}))"
        if isinstance(e, E.Iff):
            return f"(bool({self.expr(e.left)}) == bool({self.expr(e.right)}))"
        if isinstance(e, E.IntIte):
            then, other, cond = self.expr(e.then), self.expr(e.other), self.expr(e.cond)
            return f"({then} if {cond} else {other})"
        if isinstance(e, E.CardQuant | E.CardCount | E.CardSum):
            return self._card_quantifier(e)
        if isinstance(e, E.ShieldQuant | E.ShieldCount):
            return self._shield_quantifier(e)
        raise TypeError(f"unknown expression node {type(e).__name__}")

    def _card_quantifier(self, e: E.CardQuant | E.CardCount | E.CardSum) -> str:
        name = self._fresh("c")
        self.cards[e.var] = name
        body = self.expr(e.body)
        del self.cards[e.var]
        loop = f"for {name} in range(n)"
        if isinstance(e, E.CardSum):
            return f"sum({body} {loop})"
        if isinstance(e, E.CardCount):
            return f"sum(1 {loop} if {body})"
        return f"{'all' if e.kind == 'all' else 'any'}({body} {loop})"

    def _shield_quantifier(self, e: E.ShieldQuant | E.ShieldCount) -> str:
        card = self._card(e.var.card)
        j = self._fresh("j")
        self.shields[e.var] = (card, j)
        body = self.expr(e.body)
        del self.shields[e.var]
        loop = f"for {j} in range(len({self._state(e.time)}.cards[{card}].shields))"
        if isinstance(e, E.ShieldCount):
            return f"sum(1 {loop} if {body})"
        return f"{'all' if e.kind == 'all' else 'any'}({body} {loop})"
