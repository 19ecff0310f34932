"""The compiled monitors give the interpreter's answers (and are what monitors run)."""

from __future__ import annotations

from regen_model.conform.generate import random_cases
from regen_model.encoding.outputs import outputs_of
from regen_model.engine import EngineError, step
from regen_model.invariants import builtin
from regen_model.invariants.compiled import Env, compile_formula
from regen_model.invariants.concrete import ConcreteView
from regen_model.invariants.expr import countered
from regen_model.invariants.query import EXAMPLES, parse
from regen_model.invariants.view import evaluate
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules

from .helpers import COUNTERS, scenario_steps


def test_compiled_equals_interpreted() -> None:
    formulas = [i.formula for i in builtin()]
    formulas += [parse(ex.query).formula for ex in EXAMPLES if not parse(ex.query).uses_totals]
    compared = falses = 0
    for rules in (CORRECT, Rules(frozenset({Mutant.SHIELD_NOT_CONSUMED, Mutant.CREATE_TAPS}))):
        for case in random_cases(25, seed=31, max_steps=20):
            s = case.start.build()
            for action in case.actions:
                try:
                    r = step(s, action, rules)
                except EngineError:
                    continue
                out = outputs_of(s, r.events, r.state)
                view = ConcreteView(r.state, s, out, action.kind)
                env = Env(r.state, s, out, action.kind)
                for f in formulas:
                    want = bool(evaluate(f, view))
                    assert bool(compile_formula(f)(env)) == want
                    compared += 1
                    falses += not want
                s = r.state
    assert compared > 1000 and falses > 0


def test_compiled_reads_countered_as_the_interpreter() -> None:
    """On the Counterspell scenarios' steps (a spell countered, 701.6a, or none), the
    compiled monitors read the global output ``countered`` as the interpreter does."""
    formulas = [i.formula for i in builtin()] + [countered() == k for k in (0, 1)]
    seen = set()
    for path in COUNTERS:
        for pre, kind, post, out in scenario_steps(path):
            view = ConcreteView(post, pre, out, kind)
            env = Env(post, pre, out, kind)
            for f in formulas:
                assert bool(compile_formula(f)(env)) == bool(evaluate(f, view))
            seen.add(out.countered)
    assert seen == {0, 1}
