"""Checked queries about the relation itself (not about the rules): each returns a verdict.

* ``determinism(system, kind)``: the relation admits one successor per (state, parameters).
  Together with the per-point agreement of the engine's successor, this is "the engine's
  successor satisfies the relation and no other successor does". Stated directly
  (``two_successors``): ``T(s, p, t1) ∧ T(s, p, t2) ∧ t1 ≠ t2`` is unsat. Proved by
  ``covering`` when the step's constraints have the relation's shape (every successor
  variable ``v`` appears only as the left side of definitions ``v == e`` or ``Implies(a, v ==
  e)`` whose ``a`` and ``e`` mention no successor variable): then two successors differ only
  where no definition applies, so the query is "some variable has conditions that can all be
  false while the other constraints hold", which is unsat exactly when the direct statement
  is, and much smaller (no second frame, no values). A constraint of another shape falls
  back to the direct statement.
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

from regen_model.encoding.relation import instantiate_all
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
    """One successor per (state, parameters): ``covering`` when the step's constraints have
    the shape it needs, else ``two_successors``."""
    started = time.perf_counter()
    step = system.template_step()  # the built relation itself: nothing to substitute
    post = step.post
    split = _definitions(post, [t.formula for t in step.constraints(kind)])
    if split is None:
        return two_successors(system, kind, rlimit)
    defined, others = split
    open_cases = []
    leaves: dict[int, frozenset[int] | None] = {}
    for var in post.vars():
        cases = defined.get(var.get_id())
        if cases is None:
            return QueryResult(
                "determinism",
                kind,
                Verdict.VIOLATED,
                time.perf_counter() - started,
                f"no constraint defines the successor's {var}",
            )
        if not any(z3.is_true(c) for c in cases) and not _covers(cases, leaves):
            open_cases.append(z3.And(*[z3.Not(c) for c in cases]))
    if not open_cases:
        return QueryResult("determinism", kind, Verdict.PROVED, time.perf_counter() - started)
    # the cases of a variable usually cover on their own (the writer's codes): try that small
    # query first; only if it has a model do the other constraints (guards) matter
    result, solver = _solve([z3.Or(*open_cases)], rlimit)
    if result != z3.unsat:
        result, solver = _solve([*others, z3.Or(*open_cases)], rlimit)
    return _verdict(
        "determinism", kind, result, solver, started, "a successor variable no constraint fixes"
    )


def _definitions(post: Any, formulas: list[Any]) -> tuple[dict[int, list[Any]], list[Any]] | None:
    """Split a step's constraints into definitions of successor variables (``v == e`` or
    ``Implies(a, v == e)``, by variable: the conditions ``a``, ``True`` for none) and the
    rest; None when some ``e``, ``a`` or other constraint mentions a successor variable (then
    the shape argument of ``covering`` does not apply)."""
    ids = {v.get_id() for v in post.vars()}
    defined: dict[int, list[Any]] = {}
    others: list[Any] = []
    free: list[Any] = []  # terms that must not mention a successor variable
    for f in formulas:
        cond, body = (f.arg(0), f.arg(1)) if z3.is_app_of(f, z3.Z3_OP_IMPLIES) else (None, f)
        # substitution may write ``v == e`` as ``e == v``
        side = _defined_side(body, ids)
        if side is not None:
            defined.setdefault(body.arg(side).get_id(), []).append(
                z3.BoolVal(True) if cond is None else cond
            )
            free.append(body.arg(1 - side))
            if cond is not None:
                free.append(cond)
        else:
            others.append(f)
            free.append(f)
    renamed = [(v, z3.FreshConst(v.sort(), "det")) for v in post.vars()]
    if any(not a.eq(b) for a, b in zip(free, instantiate_all(free, renamed), strict=True)):
        return None
    return defined, others


def _covers(cases: list[Any], leaves: dict[int, frozenset[int] | None]) -> bool:
    """The conditions ``w == k1``, ``w == k2``, ... cover every case because ``w`` is an
    ``If`` tree whose leaves are all among the numerals ``k1, k2, ...`` (the relation's
    "which clause wrote this variable" terms): true for every state without asking the
    solver. False when the conditions have another shape (the solver then decides).
    ``leaves`` memoizes ``_leaf_codes`` over the calls of one query: the writer terms of a
    kind's variables share most of their ``If`` nodes."""
    term: Any = None
    codes = set()
    for c in cases:
        if not z3.is_eq(c):
            return False
        side = 1 if z3.is_int_value(c.arg(1)) else 0 if z3.is_int_value(c.arg(0)) else None
        if side is None:
            return False
        other = c.arg(1 - side)
        if term is None:
            term = other
        elif not other.eq(term):
            return False
        codes.add(c.arg(side).as_long())
    found = _leaf_codes(term, leaves)
    return found is not None and found <= codes


def _leaf_codes(term: Any, memo: dict[int, frozenset[int] | None]) -> frozenset[int] | None:
    """The numerals at the leaves of ``term``'s ``If`` tree; None when some leaf is not a
    numeral. Iterative (the trees are deep), each node once per ``memo``, on the C API's
    raw ASTs (wrapping every node in an ``ExprRef`` was most of this query's Python time)."""
    ctx = term.ctx.ref()
    api = z3.z3core
    memo_get = memo.get

    def is_ite(ast: Any) -> bool:
        return bool(
            api.Z3_get_ast_kind(ctx, ast) == z3.Z3_APP_AST
            and api.Z3_get_decl_kind(ctx, api.Z3_get_app_decl(ctx, api.Z3_to_app(ctx, ast)))
            == z3.Z3_OP_ITE
        )

    root = term.as_ast()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        ast, children_done = stack.pop()
        key = api.Z3_get_ast_id(ctx, ast)
        if not children_done and key in memo:
            continue
        if is_ite(ast):
            app = api.Z3_to_app(ctx, ast)
            a, b = api.Z3_get_app_arg(ctx, app, 1), api.Z3_get_app_arg(ctx, app, 2)
            ka, kb = api.Z3_get_ast_id(ctx, a), api.Z3_get_ast_id(ctx, b)
            if not children_done:
                stack.append((ast, True))
                stack += [(x, False) for x, k in ((a, ka), (b, kb)) if k not in memo]
                continue
            left, right = memo_get(ka), memo_get(kb)
            memo[key] = None if left is None or right is None else left | right
        elif api.Z3_is_numeral_ast(ctx, ast):
            memo[key] = frozenset((int(api.Z3_get_numeral_string(ctx, ast)),))
        else:
            memo[key] = None
    return memo[api.Z3_get_ast_id(ctx, root)]


def _defined_side(body: Any, ids: set[int]) -> int | None:
    """Which argument of ``body`` is the successor variable it defines (None: not a
    definition)."""
    if not z3.is_eq(body):
        return None
    for side in (0, 1):
        if body.arg(side).get_id() in ids:
            return side
    return None


def two_successors(system: RegenSystem, kind: str, rlimit: int = DEFAULT_RLIMIT) -> QueryResult:
    """``T(s, p, t1) ∧ T(s, p, t2) ∧ t1 ≠ t2`` is unsat (the direct statement)."""
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
    step = system.template_step()  # the built relation itself: nothing to substitute
    pre = step.pre
    obligations = [t.formula for t in step.obligations(kind)]
    if not obligations:
        return QueryResult(
            "sba-bound",
            kind,
            Verdict.PROVED,
            time.perf_counter() - started,
            "no state-based-action loop in this kind",
        )
    domain = [t.formula for t in system.domain(pre)]
    broken = z3.Not(z3.And(*obligations))
    # First without the successor's definitions (the obligations are about the loop's
    # intermediate values, not the successor): fewer conjuncts can only admit more models,
    # so unsat there is unsat of the whole query. Anything else is asked again in full.
    constraints = [t.formula for t in step.constraints(kind)]
    rel = system.relation(kind)
    # the parameter domains and the kind come first, then the kind's guards, then its effects
    guards = constraints[: len(constraints) - len(rel.effects)]
    result, solver = _solve([*domain, *guards, broken], rlimit)
    if result != z3.unsat:
        result, solver = _solve([*domain, *constraints, broken], rlimit)
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
