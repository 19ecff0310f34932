"""Invariants as runtime monitors: check a concrete state or engine step against a catalog.

``monitor(pre, action, result)`` is meant to sit next to every ``engine.step`` call in runs and
tests: it evaluates the step invariants on the step and the state invariants on its post-state
and returns the violations (an empty list when all hold). ``checked_step`` is ``step`` plus
that check, raising ``InvariantViolated``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from regen_model.encoding.outputs import outputs_of
from regen_model.engine.step import StepResult, step
from regen_model.invariants import expr as E
from regen_model.invariants.compiled import Env, compile_formula
from regen_model.invariants.spec import Invariant, Kind
from regen_model.model.actions import Action
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState


@dataclass(frozen=True)
class Violation:
    invariant: str
    sentence: str
    clauses: tuple[str, ...]
    cards: tuple[str, ...]  # the cards it fails for, when it is a "for every card" property
    action: str | None = None  # the action kind of the step, for step properties

    def describe(self) -> str:
        where = f" for {', '.join(self.cards)}" if self.cards else ""
        after = f" after {self.action}" if self.action else ""
        return f"{self.invariant} violated{where}{after}: {self.sentence}"


class InvariantViolated(AssertionError):
    def __init__(self, violations: Sequence[Violation]) -> None:
        super().__init__("; ".join(v.describe() for v in violations))
        self.violations = tuple(violations)


def _culprits(inv: Invariant, env: Env) -> tuple[str, ...]:
    f = inv.formula
    if not isinstance(f, E.CardQuant) or f.kind != "all":
        return ()
    body = compile_formula(f.body)
    found = []
    for slot in range(len(env.post.cards)):
        env.cards[f.var] = slot
        if not body(env):
            found.append(env.post.handle(slot))
    return tuple(found)


def _violation(inv: Invariant, env: Env, kind: str | None) -> Violation:
    return Violation(inv.id, inv.sentence, inv.clauses, _culprits(inv, env), kind)


def check_state(state: GameState, invariants: Sequence[Invariant]) -> list[Violation]:
    """The state invariants of ``invariants`` that ``state`` violates."""
    env = Env(state)
    return [
        _violation(inv, env, None)
        for inv in invariants
        if inv.kind is Kind.STATE and not compile_formula(inv.formula)(env)
    ]


def check_step(
    pre: GameState, action: Action, result: StepResult, invariants: Sequence[Invariant]
) -> list[Violation]:
    """Violations of the step invariants by this step and of the state invariants by its
    post-state."""
    steps = [inv for inv in invariants if inv.kind is Kind.STEP]
    found = []
    if steps:
        env = Env(result.state, pre, outputs_of(pre, result.events, result.state), action.kind)
        found = [
            _violation(inv, env, action.kind)
            for inv in steps
            if not compile_formula(inv.formula)(env)
        ]
    return found + check_state(result.state, invariants)


def monitor(
    pre: GameState,
    action: Action,
    result: StepResult,
    invariants: Sequence[Invariant] | None = None,
) -> list[Violation]:
    """``check_step`` against the built-in catalog unless ``invariants`` is given."""
    if invariants is None:
        from regen_model.invariants.loading import builtin

        invariants = builtin()
    return check_step(pre, action, result, invariants)


def checked_step(
    state: GameState,
    action: Action,
    rules: Rules = CORRECT,
    invariants: Sequence[Invariant] | None = None,
) -> StepResult:
    """``engine.step`` followed by ``monitor``; raises ``InvariantViolated``."""
    result = step(state, action, rules)
    violations = monitor(state, action, result, invariants)
    if violations:
        raise InvariantViolated(violations)
    return result
