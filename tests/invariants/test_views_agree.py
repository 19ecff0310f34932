"""One definition, two readings: every invariant evaluates the same on an engine step and on
Z3 frames pinned to that step (the symbolic view's derived fields are the engine's)."""

from __future__ import annotations

from functools import cache
from typing import Any

import z3

from regen_model.conform.generate import random_cases
from regen_model.encoding.frame import Frame, Statics, pin, pin_statics
from regen_model.encoding.outputs import CARD_FIELDS, StepOutputs, outputs_of
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.engine import EngineError, step
from regen_model.invariants import builtin
from regen_model.invariants.concrete import ConcreteView
from regen_model.invariants.expr import BoolExpr, countered
from regen_model.invariants.query import EXAMPLES, parse
from regen_model.invariants.spec import Kind
from regen_model.invariants.symbolic import SymbolicView
from regen_model.invariants.view import evaluate
from regen_model.model.actions import ACTION_BY_KIND
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

from .helpers import COUNTERS, scenario_steps

KINDS = tuple(ACTION_BY_KIND)
Step = tuple[GameState, str, GameState, StepOutputs]


class Pinned:
    """Frames, outputs and action kind for ``n`` cards, as Z3 constants (built once)."""

    def __init__(self, n: int) -> None:
        self.scope = Scope(cards=n, shields=4, stack=4, pending=4, targets=3)
        self.statics = Statics.fresh(self.scope, "s")
        self.pre, self.post = Frame.fresh(self.statics, "p"), Frame.fresh(self.statics, "q")
        self.out = {k: [z3.Int(f"out.{k}.{i}") for i in range(n)] for k in CARD_FIELDS}
        self.given = z3.Bool("out.priority_given")
        self.countered = z3.Int("out.countered")
        self.kind = z3.Int("kind")
        self.step_view = SymbolicView(
            self.post,
            self.pre,
            self.out,
            self.given,
            self.kind,
            lambda k: z3.IntVal(KINDS.index(k)),
            kinds=KINDS,
            countered=self.countered,
        )
        self.state_view = SymbolicView(self.post)
        # by the expression's id, holding the expression: an id is unique only while its
        # object lives, and a test's own expressions (``countered() == k``) are freed after it
        self._formulas: dict[int, tuple[BoolExpr, Any]] = {}

    def formula(self, expr: BoolExpr, step: bool) -> Any:
        key = id(expr) * 2 + step
        if key not in self._formulas:
            view = self.step_view if step else self.state_view
            self._formulas[key] = (expr, evaluate(expr, view))
        return self._formulas[key][1]

    def model(self, s: Step) -> Any:
        pre, kind, post, outputs = s
        pins = pin_statics(self.statics, post.setup) + pin(self.pre, pre) + pin(self.post, post)
        pins += [t == outputs.get(k, i) for k, ts in self.out.items() for i, t in enumerate(ts)]
        pins += [self.given == outputs.priority_given, self.countered == outputs.countered]
        pins.append(self.kind == KINDS.index(kind))
        solver = z3.Solver()
        solver.add(*pins)
        assert solver.check() == z3.sat
        return solver.model()


@cache
def pinned(n: int) -> Pinned:
    return Pinned(n)


def _steps(rules: Rules, n: int, seed: int) -> list[Step]:
    out = []
    for case in random_cases(n, seed=seed, max_steps=12):
        s = case.start.build()
        for action in case.actions:
            try:
                r = step(s, action, rules)
            except (EngineError, RuntimeError):
                continue
            out.append((s, action.kind, r.state, outputs_of(s, r.events, r.state)))
            s = r.state
    return out


def _agree(expr: BoolExpr, is_step: bool, s: Step, model: Any) -> tuple[bool, bool]:
    pre, kind, post, outputs = s
    want = bool(evaluate(expr, ConcreteView(post, pre, outputs, kind)))
    formula = pinned(len(post.cards)).formula(expr, is_step)
    return want, bool(z3.is_true(model.eval(formula, model_completion=True)))


def test_views_agree_on_engine_steps() -> None:
    checked = false_seen = 0
    rules = [
        CORRECT,
        Rules(frozenset({Mutant.SHIELD_NOT_CONSUMED})),
        Rules(frozenset({Mutant.CREATE_TAPS})),
        Rules(frozenset({Mutant.NO_SBA_BEFORE_PRIORITY})),
    ]
    for i, r in enumerate(rules):
        for s in _steps(r, 6, seed=100 + i):
            try:
                model = pinned(len(s[2].cards)).model(s)
            except OutOfScope:
                continue
            for inv in builtin():
                want, got = _agree(inv.formula, inv.kind is Kind.STEP, s, model)
                assert want == got, (inv.id, s[1])
                checked += 1
                false_seen += not want
    assert checked > 300 and false_seen > 0


def test_queries_read_the_same_on_both_views() -> None:
    queries = [parse(ex.query) for ex in EXAMPLES]
    for s in _steps(CORRECT, 4, seed=7)[:20]:
        try:
            model = pinned(len(s[2].cards)).model(s)
        except OutOfScope:
            continue
        for q in queries:
            if not q.uses_totals:
                want, got = _agree(q.formula, q.step, s, model)
                assert want == got, q.text


def test_views_agree_on_countering_steps() -> None:
    """The global step output ``countered`` (701.6a), and every invariant (among them
    ``inv.damage-trigger.kept``, which reads it), read the same on the Counterspell
    scenarios' steps: passes that resolve a counter, one whose target is gone (608.2b, no
    spell countered) and the other steps."""
    assert len(COUNTERS) >= 3, COUNTERS
    steps = [s for path in COUNTERS for s in scenario_steps(path)]
    assert {s[3].countered for s in steps} == {0, 1}
    assert any(s[1] == "pass" and s[3].countered == 0 and s[0].stack for s in steps)
    formulas = [(inv.formula, inv.kind is Kind.STEP) for inv in builtin()]
    formulas += [(countered() == k, True) for k in (0, 1, 2)]
    for s in steps:
        model = pinned(len(s[2].cards)).model(s)
        for expr, is_step in formulas:
            want, got = _agree(expr, is_step, s, model)
            assert want == got, (expr, s[1], s[3].countered)
