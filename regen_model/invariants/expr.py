"""A tiny typed expression language for invariants and queries.

An invariant is written once, as a tree of ``Expr`` nodes, and then *interpreted* by a view
(``view.evaluate``): the concrete view reads an engine ``GameState`` and ``StepOutputs`` and
yields Python bools; the symbolic view reads Z3 frames and step outputs and yields Z3 terms.
Writing the tree rather than a Python function is what lets one definition serve both
(Python's ``and``/``not`` cannot be overloaded for Z3 terms) and lets tools look inside it:
the cover check finds an invariant's implications and asks for their antecedents, the
any-number-of-permanents prover recognises "for every permanent c, P(c)" shapes, and the
``find`` query language parses into the same nodes.

Nodes are small frozen dataclasses. ``IntExpr`` and ``BoolExpr`` carry the operators:
``+ - < <= > >=`` build nodes; ``==``/``!=`` build ``Cmp`` nodes too (so nodes compare by
identity, never by value, and are hashable by identity); ``& | ~`` are and/or/not.

Vocabulary (what a card, a shield, the game and a step offer) is in ``vocabulary.py``; this
module only knows names, types and times.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import count
from typing import Literal, Union

from regen_model.model.enums import ordinal

Time = Literal["pre", "post"]
"""Which state a field is read in. A state property reads ``post`` (the state itself)."""

CmpOp = Literal["==", "!=", "<", "<=", ">", ">="]
IntLike = Union["IntExpr", int, StrEnum]

_fresh = count()


def _lift_int(value: IntLike) -> IntExpr:
    if isinstance(value, IntExpr):
        return value
    if isinstance(value, StrEnum):
        return IntConst(ordinal(value))
    if isinstance(value, bool):
        raise TypeError("a bool is not an integer expression")
    return IntConst(value)


def _lift_bool(value: BoolExpr | bool) -> BoolExpr:
    if isinstance(value, BoolExpr):
        return value
    return BoolConst(value)


class Expr:
    """Base of every node. Subclasses are frozen dataclasses with ``eq=False``."""

    __slots__ = ()

    def children(self) -> tuple[Expr, ...]:
        return ()


class IntExpr(Expr):
    __slots__ = ()

    def __add__(self, other: IntLike) -> IntExpr:
        return Arith("+", self, _lift_int(other))

    def __radd__(self, other: IntLike) -> IntExpr:
        return Arith("+", _lift_int(other), self)

    def __sub__(self, other: IntLike) -> IntExpr:
        return Arith("-", self, _lift_int(other))

    def __rsub__(self, other: IntLike) -> IntExpr:
        return Arith("-", _lift_int(other), self)

    def __lt__(self, other: IntLike) -> BoolExpr:
        return Cmp("<", self, _lift_int(other))

    def __le__(self, other: IntLike) -> BoolExpr:
        return Cmp("<=", self, _lift_int(other))

    def __gt__(self, other: IntLike) -> BoolExpr:
        return Cmp(">", self, _lift_int(other))

    def __ge__(self, other: IntLike) -> BoolExpr:
        return Cmp(">=", self, _lift_int(other))

    def __eq__(self, other: IntLike) -> BoolExpr:  # type: ignore[override]
        return Cmp("==", self, _lift_int(other))

    def __ne__(self, other: IntLike) -> BoolExpr:  # type: ignore[override]
        return Cmp("!=", self, _lift_int(other))

    __hash__ = object.__hash__

    def isin(self, *values: IntLike) -> BoolExpr:
        """``self`` equals one of ``values``."""
        return or_(*(self == v for v in values))


class BoolExpr(Expr):
    __slots__ = ()

    def __and__(self, other: BoolExpr | bool) -> BoolExpr:
        return And((self, _lift_bool(other)))

    def __rand__(self, other: BoolExpr | bool) -> BoolExpr:
        return And((_lift_bool(other), self))

    def __or__(self, other: BoolExpr | bool) -> BoolExpr:
        return Or((self, _lift_bool(other)))

    def __ror__(self, other: BoolExpr | bool) -> BoolExpr:
        return Or((_lift_bool(other), self))

    def __invert__(self) -> BoolExpr:
        return Not(self)

    def __eq__(self, other: BoolExpr | bool) -> BoolExpr:  # type: ignore[override]
        return Iff(self, _lift_bool(other))

    def __ne__(self, other: BoolExpr | bool) -> BoolExpr:  # type: ignore[override]
        return Not(Iff(self, _lift_bool(other)))

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError(
            "an invariant expression has no truth value: use and_/or_/not_/implies "
            "(or & | ~) instead of Python's and/or/not/if"
        )


# --- leaves -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class IntConst(IntExpr):
    value: int


@dataclass(frozen=True, eq=False)
class BoolConst(BoolExpr):
    value: bool


@dataclass(frozen=True, eq=False)
class CardVar:
    """A bound card variable (``all_cards(lambda c: ...)`` binds one)."""

    name: str
    uid: int = field(default_factory=lambda: next(_fresh))

    __hash__ = object.__hash__


@dataclass(frozen=True, eq=False)
class ShieldVar:
    """A bound shield variable: shield slot ``j`` of the card bound to ``card``."""

    card: CardVar
    name: str
    uid: int = field(default_factory=lambda: next(_fresh))

    __hash__ = object.__hash__


@dataclass(frozen=True, eq=False)
class CardInt(IntExpr):
    card: CardVar
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class CardBool(BoolExpr):
    card: CardVar
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class StaticInt(IntExpr):
    """A printed characteristic (the same in every state of a run)."""

    card: CardVar
    name: str


@dataclass(frozen=True, eq=False)
class StaticBool(BoolExpr):
    card: CardVar
    name: str


@dataclass(frozen=True, eq=False)
class ShieldInt(IntExpr):
    shield: ShieldVar
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class ShieldBool(BoolExpr):
    shield: ShieldVar
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class GameInt(IntExpr):
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class GameBool(BoolExpr):
    name: str
    time: Time


@dataclass(frozen=True, eq=False)
class OutputInt(IntExpr):
    """A per-card step output (``regen_model.encoding.outputs``), counted over one step."""

    name: str
    card: CardVar


@dataclass(frozen=True, eq=False)
class HistoryInt(IntExpr):
    """The total of a per-card step output over the whole run so far (queries only: a trace
    has a history, a single step or state does not)."""

    name: str
    card: CardVar


@dataclass(frozen=True, eq=False)
class PriorityGiven(BoolExpr):
    """A player received priority at the end of the step (a global step output)."""


@dataclass(frozen=True, eq=False)
class Countered(IntExpr):
    """How many spells the step countered (a global step output, 701.6a): a resolving
    Counterspell takes its target off the stack with it; 0 or 1 with today's cards."""


@dataclass(frozen=True, eq=False)
class ActionIs(BoolExpr):
    """The step's action is of one of these kinds (``Action.kind`` names)."""

    kinds: frozenset[str]


# --- operators --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Arith(IntExpr):
    op: Literal["+", "-"]
    left: IntExpr
    right: IntExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, eq=False)
class Cmp(BoolExpr):
    op: CmpOp
    left: IntExpr
    right: IntExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, eq=False)
class Not(BoolExpr):
    arg: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.arg,)


@dataclass(frozen=True, eq=False)
class And(BoolExpr):
    args: tuple[BoolExpr, ...]

    def children(self) -> tuple[Expr, ...]:
        return self.args


@dataclass(frozen=True, eq=False)
class Or(BoolExpr):
    args: tuple[BoolExpr, ...]

    def children(self) -> tuple[Expr, ...]:
        return self.args


@dataclass(frozen=True, eq=False)
class Implies(BoolExpr):
    antecedent: BoolExpr
    consequent: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.antecedent, self.consequent)


@dataclass(frozen=True, eq=False)
class Iff(BoolExpr):
    left: BoolExpr
    right: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True, eq=False)
class IntIte(IntExpr):
    cond: BoolExpr
    then: IntExpr
    other: IntExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.cond, self.then, self.other)


# --- quantifiers over the (bounded or abstract) set of cards and shields ----------------------


@dataclass(frozen=True, eq=False)
class CardQuant(BoolExpr):
    """``all``/``any`` over every card slot."""

    kind: Literal["all", "any"]
    var: CardVar
    body: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)


@dataclass(frozen=True, eq=False)
class CardCount(IntExpr):
    var: CardVar
    body: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)


@dataclass(frozen=True, eq=False)
class CardSum(IntExpr):
    var: CardVar
    body: IntExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)


@dataclass(frozen=True, eq=False)
class SlotOf(IntExpr):
    """The slot number of a bound card, to compare with fields that hold a slot
    (``attached_to``, ``blocking``)."""

    card: CardVar


@dataclass(frozen=True, eq=False)
class ShieldQuant(BoolExpr):
    """``all``/``any`` over the shields present on a card at ``time``."""

    kind: Literal["all", "any"]
    var: ShieldVar
    time: Time
    body: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)


@dataclass(frozen=True, eq=False)
class ShieldCount(IntExpr):
    """How many shields present on a card at ``time`` satisfy ``body``."""

    var: ShieldVar
    time: Time
    body: BoolExpr

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)


# --- combinators ------------------------------------------------------------------------------


def and_(*args: BoolExpr | bool) -> BoolExpr:
    lifted = tuple(_lift_bool(a) for a in args)
    if len(lifted) == 1:
        return lifted[0]
    return And(lifted)


def or_(*args: BoolExpr | bool) -> BoolExpr:
    lifted = tuple(_lift_bool(a) for a in args)
    if len(lifted) == 1:
        return lifted[0]
    return Or(lifted)


def not_(arg: BoolExpr | bool) -> BoolExpr:
    return Not(_lift_bool(arg))


def implies(antecedent: BoolExpr | bool, consequent: BoolExpr | bool) -> BoolExpr:
    return Implies(_lift_bool(antecedent), _lift_bool(consequent))


def ite(cond: BoolExpr, then: IntLike, other: IntLike) -> IntExpr:
    return IntIte(cond, _lift_int(then), _lift_int(other))


def const(value: int) -> IntExpr:
    return IntConst(value)


def action_is(*kinds: str) -> BoolExpr:
    return ActionIs(frozenset(kinds))


def priority_given() -> BoolExpr:
    return PriorityGiven()


def countered() -> IntExpr:
    return Countered()


def walk(expr: Expr) -> Iterator[Expr]:
    """Every node of the tree, parents before children."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children()))


def implications(expr: Expr) -> list[Implies]:
    """The implication nodes of a tree (for antecedent-reachability checks)."""
    return [n for n in walk(expr) if isinstance(n, Implies)]


BodyFn = Callable[..., BoolExpr]
