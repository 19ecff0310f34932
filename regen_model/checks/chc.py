"""Unbounded proofs with Spacer (CHC): find an inductive strengthening automatically.

The property becomes three constrained Horn clauses over one unknown predicate ``Inv`` on
the state variables (ANCHORS R3):

    init(x)                       -> Inv(x)
    Inv(x) /\\ T(x, x')            -> Inv(x')
    Inv(x) /\\ not P(x)  [or, for a step property, Inv(x) /\\ T(x, x') /\\ not P(x, x')] -> false

``sat`` means an invariant exists: Spacer's interpretation of ``Inv`` is read back with
``substitute_vars`` (``model.eval(Inv(...))`` returns True, a pitfall noted in R3) and turned
into three plain SMT-LIB obligations (``certificates.py``) that z3, and cvc5 when installed,
re-check independently. ``unsat`` means a counterexample exists; Spacer's own trace is not
reliable to decode (R3), so BMC finds the run. ``spacer.global`` is on: without it the toy of
R3 times out. Spacer signals a budget overrun by raising, which becomes UNKNOWN.

Printed characteristics (``frame.statics``) are arguments of ``Inv`` too: they are the same
in ``x`` and ``x'``, and the invariant may depend on them.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from regen_model.checks.bmc import Found, violation
from regen_model.checks.certificates import Certificate, certify
from regen_model.checks.induction import Violation
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result
from regen_model.checks.solver import Budget
from regen_model.checks.system import Tracked, TransitionSystem
from regen_model.verdicts import Verdict

Z3Ref = Any


def predicate_args(frame: Any) -> list[Z3Ref]:
    """The variables ``Inv`` ranges over: the printed cards (if any) and the frame's."""
    statics = getattr(frame, "statics", None)
    extra = list(statics.vars()) if statics is not None and hasattr(statics, "vars") else []
    return extra + list(frame.vars())


def constants(formulas: list[Z3Ref]) -> list[Z3Ref]:
    """The uninterpreted constants occurring in ``formulas`` (to quantify a Horn rule)."""
    seen: dict[int, Z3Ref] = {}
    visited: set[int] = set()
    stack = list(formulas)
    while stack:
        e = stack.pop()
        eid = e.get_id()
        if eid in visited:
            continue
        visited.add(eid)
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen[eid] = e
        else:
            stack.extend(e.children())
    return list(seen.values())


def _rule(body: list[Z3Ref], head: Z3Ref) -> Z3Ref:
    formula = z3.Implies(z3.And(*body), head)
    vs = constants([formula])
    return z3.ForAll(vs, formula) if vs else formula


def _all(ts: list[Tracked]) -> list[Z3Ref]:
    return [t.formula for t in ts]


def prove(
    system: TransitionSystem, prop: Property, budget: Budget, *, bmc_depth: int = 4
) -> Result:
    started = time.perf_counter()
    x = system.frame("h0")
    y = system.frame("h1")
    st = system.step(x, y, "h0")
    xs, ys = predicate_args(x), predicate_args(y)
    inv = z3.Function(f"Inv_{_safe(prop.id)}", *[v.sort() for v in xs], z3.BoolSort())
    dom_x, dom_y = _all(system.domain(x)), _all(system.domain(y))
    trans = _all(st.constraints())
    h = z3.SolverFor("HORN")
    h.set("spacer.global", True)
    if budget.rlimit:
        h.set("rlimit", budget.rlimit)
    h.set("random_seed", budget.seed)
    h.add(_rule([*dom_x, *_all(system.init(x))], inv(*xs)))
    h.add(_rule([inv(*xs), *dom_x, *trans, *dom_y], inv(*ys)))
    if prop.state is not None:
        bad = [inv(*xs), *dom_x, z3.Not(prop.at_state(x))]
    else:
        bad = [inv(*xs), *dom_x, *trans, *dom_y, z3.Not(prop.at_step(x, st, y))]
    h.add(_rule(bad, z3.BoolVal(False)))
    try:
        answer = h.check()
        reason = h.reason_unknown() if answer == z3.unknown else ""
    except z3.Z3Exception as err:  # Spacer raises on a budget overrun (R3)
        answer, reason = z3.unknown, str(err)
    spent = time.perf_counter() - started
    if answer == z3.sat:
        interp = h.model()[inv]
        found = (
            z3.substitute_vars(interp.else_value(), *xs) if interp is not None else z3.BoolVal(True)
        )
        cert = certify(system, prop, found, x, y, st)
        verdict = Verdict.PROVED if cert.valid else Verdict.UNKNOWN
        note = "" if cert.valid else f"the invariant Spacer found does not re-check: {cert.problem}"
        return Result(
            prop.id,
            Method.CHC,
            "chc",
            verdict,
            None,
            (),
            (),
            time.perf_counter() - started,
            note,
            evidence=cert,
        )
    if answer == z3.unsat:
        found_run = violation(system, prop, bmc_depth, budget)
        if found_run.found is Found.FOUND:
            assert found_run.depth is not None
            return Result(
                prop.id,
                Method.CHC,
                "chc",
                Verdict.VIOLATED,
                None,
                (),
                (),
                time.perf_counter() - started,
                "a reachable state violates it",
                found_run.depth,
                Violation(found_run.depth, found_run.run),
            )
        return Result(
            prop.id,
            Method.CHC,
            "chc",
            Verdict.UNKNOWN,
            None,
            (),
            (),
            time.perf_counter() - started,
            f"Spacer reports a counterexample longer than {bmc_depth} steps",
        )
    return Result(
        prop.id, Method.CHC, "chc", Verdict.UNKNOWN, None, (), (), spent, _reason(reason, budget)
    )


def _reason(reason: str, budget: Budget) -> str:
    if reason in ("canceled", "max. resource limit exceeded", "resource limit exceeded"):
        return f"resource limit exhausted (rlimit {budget.rlimit:,})"
    return reason or "unknown"


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text)


__all__ = ["Certificate", "prove"]
