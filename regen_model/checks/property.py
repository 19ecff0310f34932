"""Properties as the proof engine sees them: a Z3 predicate on a frame or on a step.

The engine proves ``Property`` values and knows nothing of the invariant language, so it can
be tested on a toy transition system with hand-written predicates. ``from_invariant`` turns
an ``Invariant`` of the catalog into a ``Property`` over the frames of the regeneration
encoding by evaluating its formula in the symbolic view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from regen_model.checks.symmetry import representative, sorts
from regen_model.checks.system import StepEncoding, TransitionSystem
from regen_model.invariants import expr as E
from regen_model.invariants.spec import Invariant, Kind
from regen_model.invariants.symbolic import SymbolicView
from regen_model.invariants.view import evaluate

Z3Ref = Any
StatePredicate = Callable[[Any], Z3Ref]  # frame -> Bool
StepPredicate = Callable[[Any, StepEncoding, Any], Z3Ref]  # (pre, step, post) -> Bool
StateTest = Callable[[Any], bool]
StepTest = Callable[[Any, StepEncoding, Any], bool]


@dataclass(frozen=True)
class Property:
    """A state property (``state`` set) or a step property (``step`` set).

    ``goal_state``/``goal_step``, when set, are the same property with its "for every card"
    binders restricted to representative slots (``symmetry.py``): what a consecution query
    needs to refute on a system whose card slots are interchangeable; ``sorted_state``/
    ``sorted_step`` say whether that goal is the sorted form instead (``symmetry.sorts``)."""

    id: str
    kind: Kind
    state: StatePredicate | None = None
    step: StepPredicate | None = None
    clauses: tuple[str, ...] = ()
    goal_state: StatePredicate | None = None
    goal_step: StepPredicate | None = None
    sorted_state: StateTest | None = None
    sorted_step: StepTest | None = None

    def __post_init__(self) -> None:
        if (self.state is None) == (self.step is None):
            raise ValueError(f"{self.id}: give exactly one of a state or a step predicate")
        if (self.kind is Kind.STATE) != (self.state is not None):
            raise ValueError(f"{self.id}: the predicate does not match the kind {self.kind}")

    def at_state(self, frame: Any) -> Z3Ref:
        assert self.state is not None
        return self.state(frame)

    def at_step(self, pre: Any, step: StepEncoding, post: Any) -> Z3Ref:
        """The property on a step; a state property is read in the step's post-state."""
        if self.step is not None:
            return self.step(pre, step, post)
        return self.at_state(post)

    def goal_at_step(self, pre: Any, step: StepEncoding, post: Any, symmetric: bool) -> Z3Ref:
        """What a consecution query refutes: the property on a step, at representative card
        slots when ``symmetric`` (the system's slots are interchangeable)."""
        if symmetric and self.goal_step is not None:
            return self.goal_step(pre, step, post)
        if symmetric and self.goal_state is not None:
            return self.goal_state(post)
        return self.at_step(pre, step, post)

    def goal_sorted(self, pre: Any, step: StepEncoding, post: Any, symmetric: bool) -> bool:
        """Whether ``goal_at_step`` is the property with the slots sorted (it names no
        card: a count over every card against game-wide values, ``symmetry.sorts``)."""
        if not symmetric:
            return False
        if self.goal_step is not None:
            return self.sorted_step is not None and self.sorted_step(pre, step, post)
        return self.sorted_state is not None and self.sorted_state(post)


def outputs_of(step: StepEncoding) -> Any:
    outputs = getattr(step, "outputs", None)
    if outputs is None:
        raise TypeError("this transition system's steps have no symbolic outputs")
    return outputs


def step_view(system: TransitionSystem, pre: Any, step: StepEncoding, post: Any) -> SymbolicView:
    outputs = outputs_of(step)
    return SymbolicView(
        post,
        pre,
        outputs=outputs,
        priority_given=outputs["priority_given"][0],
        countered=outputs["countered"][0],
        kind=step.kind,
        kind_value=system.kind_value,
        kinds=system.action_kinds(),
    )


def expr_property(
    system: TransitionSystem,
    id: str,
    kind: Kind,
    formula: E.BoolExpr,
    clauses: tuple[str, ...] = (),
) -> Property:
    """A property evaluating ``formula`` in the symbolic view of ``system``'s frames (and,
    for consecution goals, its representative form, ``symmetry.representative``)."""
    if kind is Kind.STATE:
        return Property(
            id,
            kind,
            state=lambda f: evaluate(formula, SymbolicView(f)),
            clauses=clauses,
            goal_state=lambda f: representative(formula, SymbolicView(f)),
            sorted_state=lambda f: sorts(formula, SymbolicView(f)),
        )
    return Property(
        id,
        kind,
        step=lambda pre, st, post: evaluate(formula, step_view(system, pre, st, post)),
        clauses=clauses,
        goal_step=lambda pre, st, post: representative(formula, step_view(system, pre, st, post)),
        sorted_step=lambda pre, st, post: sorts(formula, step_view(system, pre, st, post)),
    )


def from_invariant(system: TransitionSystem, inv: Invariant) -> Property:
    return expr_property(system, inv.id, inv.kind, inv.formula, inv.clauses)
