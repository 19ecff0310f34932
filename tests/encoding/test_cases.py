"""Case splits of a kind's relation (``encoding/cases.py``) and the consecution queries that
use them (``checks.induction._Consecution._sliced_check``).

A case's relation is built with predecessor variables pinned to constants; it must be the
whole relation restricted to that case, or a proof made of per-case answers would be about
another relation. And the prover must not trust cases that leave a state out.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
import z3

from regen_model.checks import induction
from regen_model.checks.property import from_invariant
from regen_model.checks.solver import DEFAULT_BUDGET, Status
from regen_model.checks.system import TransitionSystem
from regen_model.encoding import cases as C
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenStep, RegenSystem
from regen_model.encoding.work import layout
from regen_model.invariants.loading import builtin
from regen_model.invariants.spec import Kind

SCOPE = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)


def _guard(rel: Any) -> Any:
    return z3.And(*[c.formula for c in rel.guards]) if rel.guards else z3.BoolVal(True)


@pytest.mark.parametrize("kind", sorted(C.SPLITS))
def test_each_case_is_the_whole_relation_restricted_to_it(kind: str) -> None:
    system = RegenSystem(SCOPE)
    whole = system.relation(kind)
    pre = system.template.pre
    domain = [t.formula for t in system.domain(pre)]
    keys = layout(SCOPE).keys
    for case in C.cases(kind, SCOPE):
        part = system.relation(kind, case)
        same = [whole.values[k] == part.values[k] for k in keys]
        same += [
            a == b
            for f in CARD_FIELDS
            for a, b in zip(whole.outputs[f], part.outputs[f], strict=True)
        ]
        same.append(whole.priority_given == part.priority_given)
        same.append(whole.countered == part.countered)
        s = z3.Solver()
        s.add(*domain, C.condition(pre, case))
        s.add(
            z3.Not(z3.And(_guard(whole) == _guard(part), z3.Implies(_guard(whole), z3.And(*same))))
        )
        assert s.check() == z3.unsat, f"{kind} case {case} differs from the whole relation"


def test_the_cases_cover_the_domain() -> None:
    """What the prover's coverage query asks, over the conditions of the step's slices."""
    system = RegenSystem(SCOPE)
    step = system.template_step()
    for kind in C.SPLITS:
        some_case = z3.Or(*[part.condition for part in step.slices(kind)])
        s = z3.Solver()
        s.add(*[t.formula for t in system.domain(step.pre)], z3.Not(some_case))
        assert s.check() == z3.unsat


def _consecution(system: RegenSystem) -> induction._Consecution:
    as_protocol = cast(TransitionSystem, system)  # as checks.systems.regen_system does
    enc = induction._Consecution(as_protocol, DEFAULT_BUDGET)
    for inv in builtin():
        p = from_invariant(as_protocol, inv)
        if p.kind is Kind.STATE:
            enc.hypothesis(p)
        enc.goal(p)
    return enc


def test_cases_that_leave_a_state_out_are_never_a_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the non-empty-stack case of ``pass``: every obligation of ``pass`` must come
    back UNKNOWN naming the gap, although each remaining case is proved."""
    full = C.cases

    def fewer(kind: str, scope: Scope) -> tuple[C.Case, ...]:
        return full(kind, scope)[:1] if kind == "pass" else full(kind, scope)

    monkeypatch.setattr(C, "cases", fewer)
    enc = _consecution(RegenSystem(SCOPE))
    answer = enc.check("inv.shield.used-once", "pass", list(enc.hyp_formulas))
    assert answer.status is Status.UNKNOWN
    assert "do not cover" in answer.reason
    monkeypatch.setattr(C, "cases", full)
    enc = _consecution(RegenSystem(SCOPE))
    assert enc.check("inv.shield.used-once", "pass", list(enc.hyp_formulas)).status is Status.UNSAT


def test_a_counterexample_from_a_slice_has_the_whole_successor() -> None:
    """Without its hypotheses ``inv.shield.used-once`` is not inductive for ``pass``. The
    slice holds only the successor variables the goal reads; the CTI the prover returns must
    still be a model of the whole relation, so every successor variable equals its value."""
    system = RegenSystem(SCOPE)
    enc = _consecution(system)
    answer = enc.check("inv.shield.used-once", "pass", [])
    assert answer.status is Status.SAT
    step = cast(RegenStep, enc.step)
    values = dict(step.functional("pass")[1])
    assert answer.model is not None
    for post_var, value in values.items():
        assert z3.is_true(answer.model.eval(post_var == value, model_completion=False)), post_var
