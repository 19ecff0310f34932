"""What an invariant is: an ID, a sentence, the clauses it is about, a kind, one formula.

Two kinds:

* a **state** property holds in every reachable state (it reads one state);
* a **step** property holds for every step from a reachable state (it reads the pre-state,
  the action kind, the step outputs and the post-state).

Invariants are declared with the ``@invariant`` and ``@step_invariant`` decorators on a
function that builds the formula; the decorator calls it once and returns an ``Invariant``
value. Nothing is registered anywhere: a catalog is the set of ``Invariant`` values found in
a module (``catalog.py`` for the built-in ones, any file under ``proofs/`` for a user's), so
tests and tools can build whatever catalog they need without global state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from regen_model.invariants import expr as E


class Kind(StrEnum):
    STATE = "state"
    STEP = "step"


class InvariantError(ValueError):
    """An invariant that is not well formed (reads what its kind cannot see)."""


@dataclass(frozen=True, eq=False)
class Invariant:
    id: str
    sentence: str
    clauses: tuple[str, ...]
    kind: Kind
    formula: E.BoolExpr
    origin: str = "regen_model.invariants.catalog"

    def __post_init__(self) -> None:
        for node in E.walk(self.formula):
            if isinstance(node, E.HistoryInt):
                raise InvariantError(f"{self.id}: run totals are for queries, not invariants")
            if self.kind is Kind.STATE and _reads_step(node):
                raise InvariantError(
                    f"{self.id}: a state invariant reads one state; use @step_invariant to "
                    "read the pre-state, the action or the step outputs"
                )

    @property
    def local(self) -> tuple[E.CardVar, E.BoolExpr] | None:
        """``(c, P)`` when the invariant is "for every permanent c, P(c)" and P reads only c
        (its fields, printed characteristics, shields, outputs, the action kind): the shape
        the any-number-of-permanents prover handles."""
        f = self.formula
        if not isinstance(f, E.CardQuant) or f.kind != "all":
            return None
        for node in E.walk(f.body):
            if isinstance(
                node,
                E.CardQuant
                | E.CardCount
                | E.CardSum
                | E.SlotOf
                | E.GameInt
                | E.GameBool
                | E.PriorityGiven
                | E.Countered,
            ):
                return None
            card = getattr(node, "card", None)
            if isinstance(card, E.CardVar) and card is not f.var:
                return None
        return f.var, f.body

    @property
    def antecedents(self) -> list[E.BoolExpr]:
        """The antecedents of the implications in the formula (for vacuity checks)."""
        return [imp.antecedent for imp in E.implications(self.formula)]


def _reads_step(node: E.Expr) -> bool:
    if isinstance(node, E.OutputInt | E.PriorityGiven | E.Countered | E.ActionIs):
        return True
    time = getattr(node, "time", None)
    return time == "pre"


def _declare(
    kind: Kind, id: str, sentence: str, clauses: tuple[str, ...]
) -> Callable[[Callable[[], E.BoolExpr]], Invariant]:
    def decorate(build: Callable[[], E.BoolExpr]) -> Invariant:
        formula = build()
        if not isinstance(formula, E.BoolExpr):
            raise InvariantError(f"{id}: the function must return a boolean expression")
        return Invariant(id, " ".join(sentence.split()), clauses, kind, formula, build.__module__)

    return decorate


def invariant(
    id: str, sentence: str, clauses: tuple[str, ...]
) -> Callable[[Callable[[], E.BoolExpr]], Invariant]:
    """Declare a state invariant: the decorated function returns its formula."""
    return _declare(Kind.STATE, id, sentence, clauses)


def step_invariant(
    id: str, sentence: str, clauses: tuple[str, ...]
) -> Callable[[Callable[[], E.BoolExpr]], Invariant]:
    """Declare a step invariant (reads ``pre``, ``post``, ``out`` and the action kind)."""
    return _declare(Kind.STEP, id, sentence, clauses)
