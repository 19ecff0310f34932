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

from regen_model.checks.solver import PREPROCESS
from regen_model.encoding.relation import instantiate
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


def _solve(formulas: list[Any], rlimit: int, preprocess: bool = False) -> tuple[Any, Any]:
    """``formulas`` asked of a fresh solver within ``rlimit``; with ``preprocess``, a solver
    made from the tactics of the proofs' second route (``checks.solver.PREPROCESS``) before
    the SMT core."""
    s = z3.Then(*PREPROCESS, "smt").solver() if preprocess else z3.Solver()
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
    formulas = [t.formula for t in step.constraints(kind)]
    raw = _Raw(post.vars()[0].ctx)
    split = _definitions(raw, post, formulas)
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
        if None in cases or any(raw.op(c) == z3.Z3_OP_TRUE for c in cases):
            continue
        if not _covers(raw, cases, leaves):
            open_cases.append(z3.And(*[z3.Not(raw.wrap(c)) for c in cases]))
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


class _Raw:
    """The few questions ``determinism`` asks of a term, on the C API's raw ASTs: the
    relation of a kind has tens of thousands of conjuncts, and z3's Python wrappers
    (``arg`` checks the term's kind and arity, then wraps the child in a typed ``ExprRef``)
    made these questions most of the query's time. A raw AST here is always a child of a
    term the relation holds, so it lives as long as the relation does."""

    def __init__(self, ctx: Any) -> None:
        self.context = ctx
        self.ctx = ctx.ref()

    def op(self, ast: Any) -> int | None:
        """The declaration kind of an application (``Z3_OP_EQ``, ...), None otherwise."""
        api, ctx = z3.z3core, self.ctx
        if api.Z3_get_ast_kind(ctx, ast) != z3.Z3_APP_AST:
            return None
        return int(api.Z3_get_decl_kind(ctx, api.Z3_get_app_decl(ctx, api.Z3_to_app(ctx, ast))))

    def arg(self, ast: Any, i: int) -> Any:
        return z3.z3core.Z3_get_app_arg(self.ctx, z3.z3core.Z3_to_app(self.ctx, ast), i)

    def id(self, ast: Any) -> int:
        return int(z3.z3core.Z3_get_ast_id(self.ctx, ast))

    def numeral(self, ast: Any) -> int | None:
        """The value of an integer numeral, None for any other term."""
        if not z3.z3core.Z3_is_numeral_ast(self.ctx, ast):
            return None
        text = z3.z3core.Z3_get_numeral_string(self.ctx, ast)
        return int(text) if text.lstrip("-").isdigit() else None

    def wrap(self, ast: Any) -> Any:
        """A Boolean ``ExprRef`` of a raw condition (for the rare solver query)."""
        return z3.BoolRef(ast, self.context)


def _definitions(
    raw: _Raw, post: Any, formulas: list[Any]
) -> tuple[dict[int, list[Any]], list[Any]] | None:
    """Split a step's constraints into definitions of successor variables (``v == e`` or
    ``Implies(a, v == e)``, by variable: the raw conditions ``a``, None for none) and the
    rest; None when some ``e``, ``a`` or other constraint mentions a successor variable (then
    the shape argument of ``covering`` does not apply)."""
    ids = {v.get_id() for v in post.vars()}
    defined: dict[int, list[Any]] = {}
    others: list[Any] = []
    free: list[Any] = []  # raw terms that must not mention a successor variable
    for f in formulas:
        ast = f.as_ast()
        cond, body = (
            (raw.arg(ast, 0), raw.arg(ast, 1)) if raw.op(ast) == z3.Z3_OP_IMPLIES else (None, ast)
        )
        # substitution may write ``v == e`` as ``e == v``
        side = _defined_side(raw, body, ids)
        if side is not None:
            defined.setdefault(raw.id(raw.arg(body, side)), []).append(cond)
            free.append(raw.arg(body, 1 - side))
            if cond is not None:
                free.append(cond)
        else:
            others.append(f)
            free.append(ast)
    renamed = [(v, z3.FreshConst(v.sort(), "det")) for v in post.vars()]
    if _mentions(raw, free, renamed):
        return None
    return defined, others


def _mentions(raw: _Raw, terms: list[Any], pairs: list[Any]) -> bool:
    """Whether some raw term of ``terms`` mentions a variable renamed by ``pairs``: all of
    them packed as the arguments of one uninterpreted function application, renamed by one
    substitution (which walks the shared term graph once), and the result compared with the
    original (terms are hash-consed, so "unchanged" is "the same AST")."""
    if not terms:
        return False
    api, ctx = z3.z3core, raw.ctx
    n = len(terms)
    args = (z3.Ast * n)(*terms)
    sorts = (z3.Sort * n)(*[api.Z3_get_sort(ctx, t) for t in terms])
    name = api.Z3_mk_string_symbol(ctx, "pack")
    decl = z3.FuncDeclRef(
        api.Z3_mk_func_decl(ctx, name, n, sorts, z3.BoolSort(raw.context).ast), raw.context
    )
    packed = z3.BoolRef(api.Z3_mk_app(ctx, decl.ast, n, args), raw.context)
    return not instantiate(packed, pairs).eq(packed)


def _covers(raw: _Raw, cases: list[Any], leaves: dict[int, frozenset[int] | None]) -> bool:
    """The raw conditions ``w == k1``, ``w == k2``, ... cover every case because ``w`` is an
    ``If`` tree whose leaves are all among the numerals ``k1, k2, ...`` (the relation's
    "which clause wrote this variable" terms): true for every state without asking the
    solver. False when the conditions have another shape (the solver then decides).
    ``leaves`` memoizes ``_leaf_codes`` over the calls of one query: the writer terms of a
    kind's variables share most of their ``If`` nodes."""
    term: Any = None
    codes = set()
    for c in cases:
        if raw.op(c) != z3.Z3_OP_EQ:
            return False
        left, right = raw.arg(c, 0), raw.arg(c, 1)
        code = raw.numeral(right)
        other = left
        if code is None:
            code, other = raw.numeral(left), right
        if code is None:
            return False
        if term is None:
            term = other
        elif raw.id(other) != raw.id(term):
            return False
        codes.add(code)
    found = _leaf_codes(raw, term, leaves)
    return found is not None and found <= codes


def _leaf_codes(
    raw: _Raw, root: Any, memo: dict[int, frozenset[int] | None]
) -> frozenset[int] | None:
    """The numerals at the leaves of the raw term ``root``'s ``If`` tree; None when some leaf
    is not a numeral. Iterative (the trees are deep), each node once per ``memo``."""
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        ast, children_done = stack.pop()
        key = raw.id(ast)
        if not children_done and key in memo:
            continue
        if raw.op(ast) == z3.Z3_OP_ITE:
            a, b = raw.arg(ast, 1), raw.arg(ast, 2)
            ka, kb = raw.id(a), raw.id(b)
            if not children_done:
                stack.append((ast, True))
                stack += [(x, False) for x, k in ((a, ka), (b, kb)) if k not in memo]
                continue
            left, right = memo.get(ka), memo.get(kb)
            memo[key] = None if left is None or right is None else left | right
        else:
            value = raw.numeral(ast)
            memo[key] = None if value is None else frozenset((value,))
    return memo[raw.id(root)]


def _defined_side(raw: _Raw, body: Any, ids: set[int]) -> int | None:
    """Which argument of the raw ``body`` is the successor variable it defines (None: not a
    definition)."""
    if raw.op(body) != z3.Z3_OP_EQ:
        return None
    for side in (0, 1):
        if raw.id(raw.arg(body, side)) in ids:
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
    # Preprocessed: the loop's intermediate values are definitions that ``solve-eqs``
    # eliminates before the search, which took these queries from 3.1 s to 1.1 s of CPU over
    # the kinds at two card slots (the same verdicts; measured one after the other).
    result, solver = _solve([*domain, *guards, broken], rlimit, preprocess=True)
    if result != z3.unsat:
        result, solver = _solve([*domain, *constraints, broken], rlimit, preprocess=True)
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
