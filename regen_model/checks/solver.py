"""The one place that talks to a Z3 solver: budgets, tracked labels, cores, retries.

Why it looks like this (ANCHORS R1, R2, R9):

* **Budgets are ``rlimit``s**, Z3's deterministic resource counter, not wall-clock timeouts, so
  a result does not depend on the machine's speed or load. ``rlimit`` counts per ``check``.
* **Tracked constraints become assumption literals** (``Implies(lit, formula)``, ``lit``
  passed to ``check``): many small queries share one encoding, and the unsat core comes back
  as the labels (clause IDs) of the constraints the proof used.
* **Unknown is retried** in a fresh solver, and then reported as unknown with the solver's
  reason. It is never turned into a yes or a no. The first retry takes another route
  (``Route.PREPROCESS``: the query simplified by tactics before the SMT core sees it), later
  ones another seed (mypyvy retries with seeds). Each attempt has the whole ``rlimit``.
  A query cancelled because SIGINT or SIGTERM arrived is not an unknown: it raises
  ``Interrupted`` and is neither retried nor reported (``regen_model.interrupts``).

Why a preprocessing route and not just another seed: the hardest consecution query at four
card slots (``inv.damage-trigger.kept`` on ``pass`` with an empty stack) needed 160-190M of
the 200M limit on the direct route, depending only on the order in which its terms were made
(before its counters were written as sums and its slots sorted: now 118-140M), and another
seed is the same gamble; solving the successor's definitions away first
(``solve-eqs``, ``elim-uncnstr``) decides it in about 150M (docs/proofs.md). On almost every
other query the direct route is faster (the preprocessing of every query was measured at 1.2
to 1.5 times the time), so the tactic is the retry; a caller that knows a query does better
preprocessed starts there (``Query.first``) and the direct route is its retry
(``checks.induction.first_route``: since issue 13's widening, the queries of
``inv.damage-trigger.kept`` at four slots).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import z3

from regen_model import interrupts
from regen_model.checks.system import Tracked

Z3Ref = Any


@dataclass(frozen=True)
class Budget:
    """Solver resources for one query. ``rlimit`` 0 means unlimited."""

    rlimit: int = 200_000_000  # the pass step's consecution at two cards needs ~100M
    seed: int = 0
    retries: int = 1  # attempts after an unknown: the first by Route.PREPROCESS, then seeds
    minimize_cores: bool = False  # minimal cores cost about 6x more time; see --minimal-cores


class Route(StrEnum):
    """How an attempt solves the query. ``direct``: Z3's default solver on the constraints as
    asserted (incremental, assumption literals). ``preprocess``: a solver made from the tactic
    ``PREPROCESS`` (simplification, value propagation, equations solved away, unconstrained
    terms eliminated, then the SMT core), with the same literals as assumptions, so cores and
    models come back as on the direct route."""

    DIRECT = "direct"
    PREPROCESS = "preprocess"


# The tactics of Route.PREPROCESS, in order, before ``smt``. Measured on the four-slot
# ``pass`` query of the module docstring: with ``ctx-simplify`` added it was not decided in
# 600M, with ``lia2card`` it needed 210M, with ``smt.arith.solver=2`` 250M.
PREPROCESS: tuple[str, ...] = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr")


DEFAULT_BUDGET = Budget()


class Status(StrEnum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Answer:
    """What one query returned: a model (sat), the labels used (unsat) or a reason."""

    status: Status
    model: Z3Ref | None = None
    core: tuple[str, ...] = ()
    reason: str = ""
    seconds: float = 0.0
    attempts: int = 1
    route: Route = Route.DIRECT  # the route of the attempt that answered (or the last one)


@dataclass
class Query:
    """A solver with labelled constraints. ``track`` adds a constraint under a label; ``add``
    adds one that is always on (e.g. the negated goal). ``check`` may be called repeatedly
    with different extra assumptions (e.g. the action kind of one obligation)."""

    budget: Budget = DEFAULT_BUDGET
    options: tuple[tuple[str, Any], ...] = ()  # solver parameters of the direct route
    first: Route = Route.DIRECT  # the route of the first attempt (``retry_route``)
    _plain: list[Z3Ref] = field(default_factory=list)
    _tracked: list[tuple[Z3Ref, Z3Ref]] = field(default_factory=list)  # (literal, formula)
    _labels: dict[int, str] = field(default_factory=dict)  # literal (its node) -> label
    _solver: Z3Ref | None = None

    def _fresh_solver(self, seed: int, route: Route = Route.DIRECT) -> Z3Ref:
        if route is Route.PREPROCESS:
            # ``options`` tune the direct route's solver and are not passed on: the SMT core
            # after these tactics does better with its defaults (module docstring).
            s = z3.Then(*PREPROCESS, "smt").solver()
            s.set("random_seed", seed)
        else:
            s = z3.Solver()
            s.set("random_seed", seed)
            s.set("smt.random_seed", seed)
            for name, value in self.options:
                s.set(name, value)
        if self.budget.rlimit:
            s.set("rlimit", self.budget.rlimit)
        s.set("unsat_core", True)
        s.set("core.minimize", self.budget.minimize_cores)
        for f in self._plain:
            s.add(f)
        for lit, f in self._tracked:
            _assert(s, _implies(lit, f))
        return s

    @property
    def solver(self) -> Z3Ref:
        if self._solver is None:
            self._solver = self._fresh_solver(self.budget.seed, self.first)
        return self._solver

    def add(self, *formulas: Z3Ref) -> None:
        for f in formulas:
            self._plain.append(f)
            if self._solver is not None:
                self._solver.add(f)

    def track(self, constraints: Iterable[Tracked]) -> list[Z3Ref]:
        """Add labelled constraints; return their literals (pass them to ``check``)."""
        lits = []
        for t in constraints:
            name = f"{t.label}#{len(self._tracked)}"
            lit = z3.Bool(name)
            self._labels[_node(lit)] = t.label
            self._tracked.append((lit, t.formula))
            if self._solver is not None:
                _assert(self._solver, _implies(lit, t.formula))
            lits.append(lit)
        return lits

    def check(self, assumptions: Sequence[Z3Ref] = ()) -> Answer:
        started = time.perf_counter()
        solver = self.solver
        attempts = 0
        reason = ""
        route = self.first
        cancels = interrupts.cancel_count()
        for attempt in range(self.budget.retries + 1):
            attempts += 1
            if attempt:
                route = retry_route(attempt, self.first)
                solver = self._fresh_solver(self.budget.seed + 7919 * (attempt - 1), route)
            result = _check(solver, assumptions)
            if result == z3.sat:
                return Answer(
                    Status.SAT,
                    model=solver.model(),
                    seconds=time.perf_counter() - started,
                    attempts=attempts,
                    route=route,
                )
            if result == z3.unsat:
                return Answer(
                    Status.UNSAT,
                    core=self._core(solver),
                    seconds=time.perf_counter() - started,
                    attempts=attempts,
                    route=route,
                )
            # a query cancelled by SIGINT/SIGTERM is the stop, not an unknown to retry or report
            interrupts.raise_if_cancelled(cancels)
            reason = solver.reason_unknown()
        return Answer(
            Status.UNKNOWN,
            reason=_explain(reason, self.budget),
            seconds=time.perf_counter() - started,
            attempts=attempts,
            route=route,
        )

    def _core(self, solver: Z3Ref) -> tuple[str, ...]:
        labels = {self._labels.get(_node(lit)) or str(lit) for lit in solver.unsat_core()}
        return tuple(sorted(labels))

    def smt2(self, assumptions: Sequence[Z3Ref] = ()) -> str:
        """The query as SMT-LIB text (every tracked constraint asserted as is)."""
        s = z3.Solver()
        for f in self._plain:
            s.add(f)
        for _, f in self._tracked:
            s.add(f)
        for a in assumptions:
            s.add(a)
        text: str = s.to_smt2()
        return text


def retry_route(attempt: int, first: Route = Route.DIRECT) -> Route:
    """The route of attempt ``attempt`` (0 is the first): ``first``, then the other route
    once, then direct again with other seeds (``Query.check``). By default the first is
    direct and the retry preprocesses; a query whose goal is known to do better after
    preprocessing starts there and is retried directly."""
    if attempt == 0:
        return first
    if attempt == 1:
        return Route.DIRECT if first is Route.PREPROCESS else Route.PREPROCESS
    return Route.DIRECT


def _node(term: Z3Ref) -> int:
    """The term's node: Z3 shares equal terms, so this identifies a literal without printing
    it (``str`` of each literal of a core was a large part of a query's cost)."""
    value: int = term.as_ast().value
    return value


def _implies(lit: Z3Ref, formula: Z3Ref) -> Z3Ref:
    """``z3.Implies(lit, formula)`` without the wrapper's coercions (both are Bool terms)."""
    if not isinstance(formula, z3.BoolRef):
        return z3.Implies(lit, formula)
    ctx = lit.ctx
    return z3.BoolRef(z3.Z3_mk_implies(ctx.ref(), lit.as_ast(), formula.as_ast()), ctx)


def _assert(solver: Z3Ref, formula: Z3Ref) -> None:
    """``solver.add(formula)`` for a Bool term we built ourselves (``_implies``): the
    wrapper's coercions of each of the thousands of tracked constraints cost more than
    Z3 asserting them."""
    z3.Z3_solver_assert(solver.ctx.ref(), solver.solver, formula.as_ast())


def _check(solver: Z3Ref, assumptions: Sequence[Z3Ref]) -> Z3Ref:
    """``solver.check(*assumptions)`` for assumption literals we made ourselves: the wrapper
    casts every assumption to Bool again, which for the hundreds of tracked literals of a
    proof query costs more than many of the queries themselves."""
    arr = (z3.Ast * len(assumptions))(*[a.as_ast() for a in assumptions])
    code = z3.Z3_solver_check_assumptions(solver.ctx.ref(), solver.solver, len(assumptions), arr)
    return z3.CheckSatResult(code)


def _explain(reason: str, budget: Budget) -> str:
    if reason in ("canceled", "max. resource limit exceeded", "resource limit exceeded"):
        return f"resource limit exhausted (rlimit {budget.rlimit:,})"
    return reason or "unknown"
