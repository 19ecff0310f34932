"""Unbounded proofs as constrained Horn clauses (CHC): an inductive strengthening, certified.

The property becomes three constrained Horn clauses over one unknown predicate ``Inv`` on
the state variables (ANCHORS R3); a solution is an interpretation of ``Inv`` that makes them
valid, and it is exported as SMT-LIB certificates (``certificates.py``) that other solvers
re-check. Two ways to find one, cheapest first (``prove_catalog``):

1. **The catalog's own strengthening.** The state invariants of the catalog that hold
   initially and are inductive together (found by Houdini, ``induction.inductive``) are a
   candidate ``Inv``: if it certifies a property (every obligation re-checks as
   unsatisfiable), that property is PROVED. On the rules' encoding this proves the whole
   catalog with one shared set of obligations.
2. **Spacer** (``prove``), for what the first does not certify:

    init(x)                       -> Inv(x)
    Inv(x) /\\ T(x, x')            -> Inv(x')
    Inv(x) /\\ not P(x)  [or, for a step property, Inv(x) /\\ T(x, x') /\\ not P(x, x')] -> false

For Spacer, ``sat`` means an invariant exists: its interpretation of ``Inv`` is read back with
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
from collections.abc import Sequence
from typing import Any

import z3

from regen_model import interrupts
from regen_model.checks.bmc import Found, violation
from regen_model.checks.certificates import Certificate, Checker, certify, obligations
from regen_model.checks.induction import Violation, constants, inductive
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result
from regen_model.checks.solver import Budget
from regen_model.checks.system import Tracked, TransitionSystem
from regen_model.invariants.spec import Kind
from regen_model.verdicts import Verdict

Z3Ref = Any


def predicate_args(frame: Any) -> list[Z3Ref]:
    """The variables ``Inv`` ranges over: the printed cards (if any) and the frame's."""
    statics = getattr(frame, "statics", None)
    extra = list(statics.vars()) if statics is not None and hasattr(statics, "vars") else []
    return extra + list(frame.vars())


def _rule(body: list[Z3Ref], head: Z3Ref) -> Z3Ref:
    formula = z3.Implies(z3.And(*body), head)
    vs = constants([formula])
    return z3.ForAll(vs, formula) if vs else formula


def _all(ts: list[Tracked]) -> list[Z3Ref]:
    return [t.formula for t in ts]


def prove_catalog(
    system: TransitionSystem,
    props: Sequence[Property],
    budget: Budget,
    *,
    support: Sequence[Property] = (),
    bmc_depth: int = 4,
    checker: Checker | None = None,
) -> list[Result]:
    """A CHC proof of every property of ``props``: certified by the strengthening that the
    state properties of ``props`` and ``support`` give together (module docstring), or else
    by Spacer."""
    started = time.perf_counter()
    check = checker or Checker()
    known = {p.id for p in props}
    candidates = [*props, *(p for p in support if p.id not in known)]
    strong = inductive(system, candidates, budget)
    chosen = {p.id for p in strong}
    covered = [p for p in props if p.kind is Kind.STEP or p.id in chosen]
    certified: dict[str, Certificate] = {}
    if strong and covered:
        x, y = system.frame("h0"), system.frame("h1")
        st = system.step(x, y, "h0")
        inv = z3.And(*[p.at_state(x) for p in strong])
        described = _describe(strong, inv)
        texts = obligations(system, covered, inv, x, y, st)
        answers = check.check(texts)
        if Certificate(described, texts, answers).valid:
            certified = {p.id: Certificate(described, texts, answers) for p in covered}
        else:  # find out which properties it does certify, one at a time
            for p in covered:
                own = obligations(system, [p], inv, x, y, st)
                single = Certificate(described, own, check.check(own))
                if single.valid:
                    certified[p.id] = single
    spent = (time.perf_counter() - started) / max(len(props), 1)
    out = []
    for p in props:
        found = certified.get(p.id)
        if found is not None:
            out.append(
                Result(
                    p.id, Method.CHC, "chc", Verdict.PROVED, None, (), (), spent, "", evidence=found
                )
            )
        else:
            out.append(prove(system, p, budget, bmc_depth=bmc_depth, checker=check))
    return out


def _describe(strong: Sequence[Property], inv: Z3Ref) -> str:
    names = "\n".join(f"  {p.id}" for p in strong)
    return (
        "The conjunction of the catalog's state invariants that hold initially and are "
        f"inductive together (Houdini):\n{names}\nAs SMT-LIB, over the frame h0:\n"
        f"{inv.sexpr()}"
    )


def prove(
    system: TransitionSystem,
    prop: Property,
    budget: Budget,
    *,
    bmc_depth: int = 4,
    checker: Checker | None = None,
) -> Result:
    """Spacer on one property; its invariant certified (module docstring)."""
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
    cancels = interrupts.cancel_count()
    try:
        answer = h.check()
        reason = h.reason_unknown() if answer == z3.unknown else ""
    except z3.Z3Exception as err:  # Spacer raises on a budget overrun (R3)
        answer, reason = z3.unknown, str(err)
    if answer == z3.unknown:  # cancelled by SIGINT/SIGTERM: the stop, not an UNKNOWN row
        interrupts.raise_if_cancelled(cancels)
    spent = time.perf_counter() - started
    if answer == z3.sat:
        interp = h.model()[inv]
        found = (
            z3.substitute_vars(interp.else_value(), *xs) if interp is not None else z3.BoolVal(True)
        )
        cert = certify(system, prop, found, x, y, st, checker)
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
