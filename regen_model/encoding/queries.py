"""Checked queries about the relation itself (not about the rules): each returns a verdict.

* ``determinism(system, kind)``: ``T(s, p, t1) ∧ T(s, p, t2) ∧ t1 ≠ t2`` is unsat: the
  relation admits one successor per (state, parameters). Together with the per-point
  agreement of the engine's successor, this is "the engine's successor satisfies the relation
  and no other successor does".
* ``sba_bound(system, kind)``: whenever the guard holds, the ``sba.loop`` obligation holds:
  the unrolled 704.3 loop never stops while a state-based action is still pending, so the
  relation's successor is the engine's (which loops until nothing is pending).

Budgets are ``rlimit`` (ANCHORS R9), so results do not depend on machine speed; an
``unknown`` is reported as UNKNOWN with the solver's reason, never as PROVED.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.encoding.system import RegenStep, RegenSystem
from regen_model.verdicts import Verdict

DEFAULT_RLIMIT = 50_000_000


@dataclass(frozen=True)
class QueryResult:
    query: str  # "determinism" or "sba-bound"
    kind: str
    verdict: Verdict
    seconds: float
    reason: str = ""  # why UNKNOWN, or what a counterexample shows


def _solve(formulas: list[Any], rlimit: int) -> tuple[Any, Any]:
    s = z3.Solver()
    s.set("rlimit", rlimit)
    s.add(*formulas)
    result = s.check()
    return result, s


def determinism(system: RegenSystem, kind: str, rlimit: int = DEFAULT_RLIMIT) -> QueryResult:
    started = time.perf_counter()
    pre = system.frame(f"det.{kind}.pre")
    post_a = system.frame(f"det.{kind}.a")
    post_b = system.frame(f"det.{kind}.b")
    step_a = system.step(pre, post_a, f"det.{kind}")
    step_b = RegenStep(system, pre, post_b, step_a.tag, step_a.params)  # the same parameters
    formulas = [t.formula for t in step_a.constraints(kind)]
    formulas += [t.formula for t in step_b.constraints(kind)]
    formulas.append(z3.Or(*[a != b for a, b in zip(post_a.vars(), post_b.vars(), strict=True)]))
    result, solver = _solve(formulas, rlimit)
    return _verdict("determinism", kind, result, solver, started, "two successors")


def sba_bound(system: RegenSystem, kind: str, rlimit: int = DEFAULT_RLIMIT) -> QueryResult:
    started = time.perf_counter()
    pre = system.frame(f"bound.{kind}.pre")
    post = system.frame(f"bound.{kind}.post")
    step = system.step(pre, post, f"bound.{kind}")
    obligations = [t.formula for t in step.obligations(kind)]
    if not obligations:
        return QueryResult(
            "sba-bound",
            kind,
            Verdict.PROVED,
            time.perf_counter() - started,
            "no state-based-action loop in this kind",
        )
    formulas = [t.formula for t in system.domain(pre)]
    formulas += [t.formula for t in step.constraints(kind)]
    formulas.append(z3.Not(z3.And(*obligations)))
    result, solver = _solve(formulas, rlimit)
    return _verdict(
        "sba-bound", kind, result, solver, started, "a step still pending after the bound"
    )


def _verdict(
    query: str, kind: str, result: Any, solver: Any, started: float, witness: str
) -> QueryResult:
    seconds = time.perf_counter() - started
    if result == z3.unsat:
        return QueryResult(query, kind, Verdict.PROVED, seconds)
    if result == z3.sat:
        return QueryResult(query, kind, Verdict.VIOLATED, seconds, f"the solver found {witness}")
    return QueryResult(query, kind, Verdict.UNKNOWN, seconds, solver.reason_unknown())
