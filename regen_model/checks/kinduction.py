"""k-induction (ANCHORS R5): a base case by BMC and a step case over k-step paths.

Base: no run of fewer than k steps from a legal start violates the property. Step: every
path of k steps (from any in-domain state, all states pairwise distinct) on which the
property holds for the first k-1 positions keeps it at the last. A property is k-inductive
for the smallest such k; one that stays non-inductive up to the limit is reported as CTI
(no proof, no reachable violation within the depth), not as proved.

k-induction is cheap to try first, but a property that depends on an unbounded quantity is
not k-inductive for any k (the toy ``used <= granted`` of the anchors): CHC is the method
that finds the strengthening then.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from regen_model.checks.bmc import negation_at
from regen_model.checks.induction import Violation
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result, clause_labels
from regen_model.checks.solver import Budget, Status
from regen_model.checks.system import TransitionSystem
from regen_model.checks.unroll import Unrolling
from regen_model.verdicts import Verdict

Z3Ref = Any


def state_vars(frame: Any) -> list[Z3Ref]:
    """Every variable of a frame, for the simple-path constraint."""
    return list(frame.vars())


def _distinct(a: Any, b: Any) -> Z3Ref:
    return z3.Or(*[x != y for x, y in zip(state_vars(a), state_vars(b), strict=True)])


def prove(system: TransitionSystem, prop: Property, max_k: int, budget: Budget) -> Result:
    started = time.perf_counter()
    base = Unrolling(system, budget, tag="kb")
    step = Unrolling(system, budget, tag="ks", initial=False)
    holds_at = negation_at(prop)
    first = 0 if prop.state is not None else 1
    for k in range(1, max_k + 1):
        # base case at depth k-1: no violation in a run of k-1 steps
        depth = k - 1
        base.extend_to(depth)
        if depth >= first:
            a = base.check(holds_at(base, depth))
            if a.status is Status.SAT:
                run = base.decode(a.model, depth)
                return Result(
                    prop.id,
                    Method.KIND,
                    f"k={k} base",
                    Verdict.VIOLATED,
                    None,
                    (),
                    (),
                    time.perf_counter() - started,
                    "a reachable state violates it",
                    depth,
                    Violation(depth, run),
                )
            if a.status is Status.UNKNOWN:
                return Result(
                    prop.id,
                    Method.KIND,
                    f"k={k} base",
                    Verdict.UNKNOWN,
                    None,
                    (),
                    (),
                    time.perf_counter() - started,
                    a.reason,
                )
        # step case: k steps, the property at positions first..k-1, broken at k
        step.extend_to(k)
        if k - 1 >= first:
            step.assume(f"hyp:{k - 1}", z3.Not(holds_at(step, k - 1)))
        for i in range(k):
            step.assume(f"simple-path:{i},{k}", _distinct(step.frames[i], step.frames[k]))
        a = step.check(holds_at(step, k))
        if a.status is Status.UNSAT:
            return Result(
                prop.id,
                Method.KIND,
                f"k={k}",
                Verdict.PROVED,
                None,
                clause_labels(a.core),
                (),
                time.perf_counter() - started,
                depth=k,
            )
        if a.status is Status.UNKNOWN:
            return Result(
                prop.id,
                Method.KIND,
                f"k={k}",
                Verdict.UNKNOWN,
                None,
                (),
                (),
                time.perf_counter() - started,
                a.reason,
            )
    return Result(
        prop.id,
        Method.KIND,
        f"k<={max_k}",
        Verdict.CTI,
        None,
        (),
        (),
        time.perf_counter() - started,
        f"not k-inductive for k <= {max_k} and no violation within {max_k - 1} steps",
    )
