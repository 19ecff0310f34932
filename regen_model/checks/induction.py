"""Initiation and consecution, one obligation per invariant and action kind (mypyvy style).

The state invariants of a catalog are proved *together*: each one's consecution may assume
all of them in the pre-state. That is sound only if every one of them is inductive, so the
candidates are pruned Houdini-style: an invariant whose consecution fails for some action
kind is dropped from the hypotheses and the obligations that used it (their unsat core names
``inv:ID``) are asked again, until what remains is inductive as a whole. Step properties are
then proved for every action kind from the surviving state invariants.

A failed consecution is a counterexample to induction: a pre-state satisfying the
hypotheses and a step out of the invariant. Whether a *reachable* state fails is a different
question, answered by BMC (``bmc.violation``): VIOLATED with a trace if one is found within
the depth, else CTI with the two states. Unknown is reported as UNKNOWN, with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3

from regen_model.checks.bmc import Found, violation
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result, clause_labels, hypotheses_used
from regen_model.checks.solver import Answer, Budget, Query, Route, Status
from regen_model.checks.symmetry import is_symmetric
from regen_model.checks.system import StepEncoding, Tracked, TransitionSystem
from regen_model.invariants.spec import Kind
from regen_model.verdicts import Verdict

Z3Ref = Any

# Solver parameters of the sliced consecution queries. Z3's newer arithmetic solver (2)
# answers the arithmetic-heavy obligations (sums of step outputs against the stack's and
# the waiting triggers' sizes) of ``pass`` and ``assign-combat-damage`` at four card slots in
# about three quarters of the time of the default one (docs/proofs.md).
SLICE_OPTIONS: tuple[tuple[str, Any], ...] = (("smt.arith.solver", 2),)


def first_route(sorted_goal: bool) -> Route:
    """The route a sliced query is asked by first (``solver.retry_route``; the other one is
    the retry). A goal with the slots sorted (``symmetry.sorts``: it names no card, a count
    over every card against the stack's and the waiting triggers' sizes) reads those sizes
    through the successor's definitions, which the preprocessing route solves away: at four
    card slots ``inv.damage-trigger.kept`` took 64 s of CPU that way against 95 s directly
    (the direct route exhausted the 200M rlimit on ``pass`` and was then retried), where
    every other goal costs 1.2 to 5 times more preprocessed (docs/proofs.md). The answers
    do not depend on it: both routes are asked before an unknown is reported."""
    return Route.PREPROCESS if sorted_goal else Route.DIRECT


@dataclass(frozen=True)
class CTI:
    """A counterexample to induction: ``pre`` satisfies the hypotheses, ``action`` leads to
    ``post`` (decoded by the system), which violates the invariant."""

    action: str
    run: Any  # system.decode of the one-step model

    def to_json(self) -> dict[str, Any]:
        describe = getattr(self.run, "to_json", None)
        return {"action": self.action, "run": describe() if describe else repr(self.run)}


@dataclass(frozen=True)
class Violation:
    """A reachable violation found by BMC: the decoded run and its length."""

    depth: int
    run: Any

    def to_json(self) -> dict[str, Any]:
        describe = getattr(self.run, "to_json", None)
        return {"depth": self.depth, "run": describe() if describe else repr(self.run)}


class _Consecution:
    """The consecution queries: ``domain(f0) and T(f0, f1)`` with a literal per hypothesis and
    per negated goal, and the action kind fixed per query.

    ``per_kind`` (the default) builds one solver per action kind holding only that kind's
    constraints (``step.constraints(kind)``): each query then carries one disjunct of the
    relation instead of all of them. When the system's steps offer their outputs as
    constants (``step.with_output_vars``), each goal is built once and each kind's solver
    defines the constants for that kind (``step.output_equations``), so a goal does not carry
    the other kinds' output terms. Otherwise one solver holds the whole relation and the kind
    is an assumption (ANCHORS R1); both answer the same questions.

    On a system whose card slots are interchangeable (``symmetry.py``) each goal is the
    property at representative slots; the hypotheses are always read over every slot. The
    successor frame is not required to be in the domain: each variable of it is a function of
    the pre-state and the parameters, so leaving the constraint out only asks more. A system
    that offers ``template_step`` (the step its relation was built over) is asked on that
    step, so each kind's relation is used as built, without substituting it into new frames.
    """

    def __init__(self, system: TransitionSystem, budget: Budget, per_kind: bool = True) -> None:
        self.system = system
        self.budget = budget
        self.per_kind = per_kind
        self.symmetric = is_symmetric(system)
        template_step = getattr(system, "template_step", None)
        self.step: StepEncoding
        if template_step is not None:
            self.step = template_step()
            self.pre, self.post = self.step.pre, self.step.post
        else:
            self.pre = system.frame("i0")
            self.post = system.frame("i1")
            self.step = system.step(self.pre, self.post, "i0")
        self.hyp_formulas: dict[str, Z3Ref] = {}
        self.goal_formulas: dict[str, Z3Ref] = {}
        self.first_routes: dict[str, Route] = {}  # by property (``first_route``)
        self._queries: dict[str, tuple[Query, list[Z3Ref], dict[str, Z3Ref]]] = {}
        with_vars = getattr(self.step, "with_output_vars", None)
        self.outputs_by_kind = per_kind and with_vars is not None
        self.view: StepEncoding = self.step
        if per_kind and with_vars is not None:
            self.view = with_vars()
        # Cone-of-influence queries on case splits (``_sliced_check``), when the step offers
        # its relation as slices and the goals read the output constants.
        self.sliced = self.outputs_by_kind and hasattr(self.step, "slices")
        self._cones: dict[str, tuple[str, ...]] = {}
        self._covered: dict[str, Answer] = {}
        self._domain: list[Tracked] | None = None

    def hypothesis(self, prop: Property) -> None:
        self.hyp_formulas[prop.id] = prop.at_state(self.pre)

    def goal(self, prop: Property) -> None:
        formula = prop.goal_at_step(self.pre, self.view, self.post, self.symmetric)
        self.goal_formulas[prop.id] = z3.Not(formula)
        sorted_goal = prop.goal_sorted(self.pre, self.view, self.post, self.symmetric)
        self.first_routes[prop.id] = first_route(sorted_goal)

    def _query(self, kind: str) -> tuple[Query, list[Z3Ref], dict[str, Z3Ref]]:
        key = kind if self.per_kind else ""
        found = self._queries.get(key)
        if found is None:
            q = Query(self.budget)
            base = q.track(self.system.domain(self.pre))
            base += q.track(self.step.constraints(kind if self.per_kind else None))
            if self.outputs_by_kind:
                base += q.track(self.step.output_equations(kind))  # type: ignore[attr-defined]
            lits = {
                f"kind:{k}": q.track(
                    [Tracked(f"kind:{k}", self.step.kind == self.system.kind_value(k))]
                )[0]
                for k in ([kind] if self.per_kind else self.system.action_kinds())
            }
            for pid, f in self.hyp_formulas.items():
                lits[f"inv:{pid}"] = q.track([Tracked(f"inv:{pid}", f)])[0]
            for pid, f in self.goal_formulas.items():
                lits[f"goal:{pid}"] = q.track([Tracked(f"goal:{pid}", f)])[0]
            found = self._queries[key] = (q, base, lits)
        return found

    def check(self, prop: str, kind: str, hyps: Sequence[str]) -> Answer:
        if self.sliced:
            return self._sliced_check(prop, kind, hyps)
        q, base, lits = self._query(kind)
        chosen = [
            *base,
            lits[f"kind:{kind}"],
            lits[f"goal:{prop}"],
            *(lits[f"inv:{h}"] for h in hyps),
        ]
        return q.check(chosen)

    def _sliced_check(self, prop: str, kind: str, hyps: Sequence[str]) -> Answer:
        """The obligation asked once per case of the kind (``encoding/cases.py``), each
        time in a fresh solver holding only the goal's cone of influence: the guard, and
        the definitions of the successor variables and output constants the negated goal
        mentions. Those left out define constants nothing else in the query reads (each is
        a function of the predecessor and the parameters), so a model of the smaller query
        extends to one of the whole relation and both have the same answer. Without the
        definitions the solver does not search the successor values no goal looks at.

        UNSAT for every case (and the cases cover the domain, ``_cover``) is UNSAT, with
        the union of the cores; a SAT case is asked again with the whole relation of that
        case, so a counterexample's successor is complete."""
        first = kind not in self._covered
        covered = self._cover(kind)
        if covered.status is not Status.UNSAT:
            return covered
        cone = self._cone(prop)
        seconds = covered.seconds if first else 0.0  # the coverage query is asked once
        core: set[str] = set()
        unknown: Answer | None = None
        route = Route.DIRECT
        for part in self.step.slices(kind):  # type: ignore[attr-defined]
            effects = [t for name in cone for t in part.effects.get(name, ())]
            outputs = [part.outputs[name] for name in cone if name in part.outputs]
            answer = self._ask(prop, kind, hyps, part.guards, effects, outputs)
            seconds += answer.seconds
            if answer.status is Status.SAT:
                # the whole case relation decides (and gives a complete successor)
                every = [t for ts in part.effects.values() for t in ts]
                answer = self._ask(prop, kind, hyps, part.guards, every, part.outputs.values())
                seconds += answer.seconds
                if answer.status is Status.SAT:
                    return replace(answer, seconds=seconds)
            if answer.status is Status.UNKNOWN:
                unknown = unknown or answer
            if answer.route is not Route.DIRECT:
                route = answer.route
            core |= set(answer.core)
        if unknown is not None:
            return replace(unknown, seconds=seconds)
        return Answer(Status.UNSAT, core=tuple(sorted(core)), seconds=seconds, route=route)

    def _ask(
        self,
        prop: str,
        kind: str,
        hyps: Sequence[str],
        guards: Iterable[Tracked],
        effects: Iterable[Tracked],
        outputs: Iterable[Tracked],
    ) -> Answer:
        q = Query(self.budget, SLICE_OPTIONS, self.first_routes.get(prop, Route.DIRECT))
        lits = q.track(self.domain())
        lits += q.track(by_label([*guards, *effects, *outputs]))
        lits += q.track([Tracked(f"kind:{kind}", self.step.kind == self.system.kind_value(kind))])
        lits += q.track([Tracked(f"inv:{h}", self.hyp_formulas[h]) for h in hyps])
        lits += q.track([Tracked(f"goal:{prop}", self.goal_formulas[prop])])
        return q.check(lits)

    def _cover(self, kind: str) -> Answer:
        """The kind's cases cover the domain: ``domain(pre)`` and no case is unsat (once per
        kind). Anything else is returned as the obligation's answer: UNKNOWN naming the gap,
        never a proof."""
        found = self._covered.get(kind)
        if found is None:
            q = Query(self.budget)
            lits = q.track(self.domain())
            parts = self.step.slices(kind)  # type: ignore[attr-defined]
            lits += q.track([Tracked("cases", z3.Not(z3.Or(*[p.condition for p in parts])))])
            found = q.check(lits)
            if found.status is Status.SAT:
                found = Answer(
                    Status.UNKNOWN,
                    reason=f"the cases of {kind} do not cover every state of the domain",
                    seconds=found.seconds,
                )
            self._covered[kind] = found
        return found

    def domain(self) -> list[Tracked]:
        """The predecessor's domain, one conjunct per label (built once: each sliced query
        asks a fresh solver)."""
        if self._domain is None:
            self._domain = by_label(self.system.domain(self.pre))
        return self._domain

    def _cone(self, prop: str) -> tuple[str, ...]:
        """The names of the constants the negated goal of ``prop`` mentions, sorted: the
        query's constraints are made in this order, and Z3's search depends on the order of
        its terms. A set's order changes with Python's string hashing from one process to the
        next, and the hardest four-slot query needed between 160M and 190M of its 200M
        rlimit depending on it (docs/proofs.md), so a verdict could change between runs."""
        found = self._cones.get(prop)
        if found is None:
            found = self._cones[prop] = tuple(
                sorted({c.decl().name() for c in constants([self.goal_formulas[prop]])})
            )
        return found

    def cti(self, answer: Answer, kind: str) -> CTI:
        run = self.system.decode(answer.model, [self.pre, self.post], [self.step])
        return CTI(kind, run)


def constants(formulas: Sequence[Z3Ref]) -> list[Z3Ref]:
    """The uninterpreted constants occurring in ``formulas``, each shared node visited once
    (a goal's cone of influence here; the variables of a Horn rule in ``chc.py``)."""
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


def by_label(constraints: Iterable[Tracked]) -> list[Tracked]:
    """One conjunct per label: a core names labels, so tracking each constraint under its
    own literal only costs the solver more assumptions (thousands for a kind's relation)."""
    grouped: dict[str, list[Z3Ref]] = {}
    for t in constraints:
        grouped.setdefault(t.label, []).append(t.formula)
    return [Tracked(label, _conjunction(fs)) for label, fs in grouped.items()]


def _conjunction(formulas: Sequence[Z3Ref]) -> Z3Ref:
    """``z3.And`` of Bool terms through the C API (the wrapper re-casts every argument)."""
    if len(formulas) == 1:
        return formulas[0]
    ctx = formulas[0].ctx
    args = (z3.Ast * len(formulas))(*[f.as_ast() for f in formulas])
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(formulas), args), ctx)


def _initiation(
    system: TransitionSystem, props: Sequence[Property], budget: Budget
) -> list[Result]:
    query = Query(budget)
    f0 = system.frame("n0")
    base = query.track(system.domain(f0)) + query.track(system.init(f0))
    out = []
    for p in props:
        goal = query.track([Tracked(f"goal:{p.id}", z3.Not(p.at_state(f0)))])
        a = query.check(base + goal)
        if a.status is Status.UNSAT:
            out.append(
                Result(
                    p.id,
                    Method.INDUCTION,
                    "initiation",
                    Verdict.PROVED,
                    None,
                    clause_labels(a.core),
                    (),
                    a.seconds,
                )
            )
        elif a.status is Status.SAT:
            run = system.decode(a.model, [f0], [])
            out.append(
                Result(
                    p.id,
                    Method.INDUCTION,
                    "initiation",
                    Verdict.VIOLATED,
                    None,
                    (),
                    (),
                    a.seconds,
                    "a legal start violates it",
                    0,
                    Violation(0, run),
                )
            )
        else:
            out.append(
                Result(
                    p.id,
                    Method.INDUCTION,
                    "initiation",
                    Verdict.UNKNOWN,
                    None,
                    (),
                    (),
                    a.seconds,
                    a.reason,
                )
            )
    return out


Latest = dict[tuple[str, str], tuple[Answer, tuple[str, ...]]]


def _houdini(
    enc: _Consecution, alive: list[str], kinds: Sequence[str]
) -> tuple[list[str], set[str], Latest]:
    """Prune the state invariants ``alive`` (their initiation holds) until the survivors are
    inductive together: (survivors, dropped, the latest answer per invariant and kind)."""
    latest: Latest = {}
    dropped: set[str] = set()
    todo = [(pid, k) for pid in alive for k in kinds]
    while todo:
        failed: set[str] = set()
        for pid, k in todo:
            if pid in dropped:
                continue
            answer = enc.check(pid, k, alive)
            latest[(pid, k)] = (answer, tuple(alive))
            if answer.status is not Status.UNSAT:
                failed.add(pid)
        if not failed:
            break
        dropped |= failed
        alive = [pid for pid in alive if pid not in failed]
        # Re-ask only the proofs that used a dropped hypothesis.
        todo = [
            (pid, k)
            for (pid, k), (a, _) in latest.items()
            if pid in alive and a.status is Status.UNSAT and set(hypotheses_used(a.core)) & failed
        ]
    return alive, dropped, latest


def inductive(
    system: TransitionSystem, props: Sequence[Property], budget: Budget
) -> list[Property]:
    """The largest set of the state properties ``props`` that hold initially and are
    inductive together (Houdini, as ``prove`` prunes its hypotheses)."""
    state = [p for p in props if p.kind is Kind.STATE]
    init = _initiation(system, state, budget)
    enc = _Consecution(system, budget)
    for p in state:
        enc.hypothesis(p)
        enc.goal(p)
    alive, _, _ = _houdini(
        enc, [r.invariant for r in init if r.verdict is Verdict.PROVED], system.action_kinds()
    )
    return [p for p in state if p.id in alive]


def prove(
    system: TransitionSystem,
    props: Sequence[Property],
    budget: Budget,
    *,
    bmc_depth: int = 4,
    kinds: Sequence[str] | None = None,
    support: Sequence[Property] = (),
    per_kind: bool = True,
) -> list[Result]:
    """Initiation and per-kind consecution of every property (see the module docstring).
    A CTI is searched for a reachable violation up to ``bmc_depth`` steps (not if negative).
    ``support`` are more state invariants that may strengthen the proofs (pruned like the
    others, and not reported)."""
    action_kinds = list(kinds if kinds is not None else system.action_kinds())
    reported = {p.id for p in props}
    extra = [p for p in support if p.id not in reported and p.kind is Kind.STATE]
    state_props = [p for p in props if p.kind is Kind.STATE] + extra
    step_props = [p for p in props if p.kind is Kind.STEP]
    init_results = _initiation(system, state_props, budget)
    results: list[Result] = list(init_results)
    enc = _Consecution(system, budget, per_kind)
    for p in state_props:
        enc.hypothesis(p)
    for p in [*props, *extra]:
        enc.goal(p)

    alive = [r.invariant for r in init_results if r.verdict is Verdict.PROVED]
    dropped: set[str] = {p.id for p in state_props} - set(alive)
    alive, failed, latest = _houdini(enc, alive, action_kinds)
    dropped |= failed

    for p in state_props:
        if p.id in dropped and (p.id, action_kinds[0]) in latest:
            # Report a dropped invariant relative to the inductive survivors (plus itself),
            # not to hypotheses that turned out not to hold.
            for k in action_kinds:
                latest[(p.id, k)] = (enc.check(p.id, k, [*alive, p.id]), ())
        for k in action_kinds:
            if (p.id, k) in latest:
                answer, _ = latest[(p.id, k)]
                results.append(_consecution_result(enc, p, k, answer))
    for p in step_props:
        for k in action_kinds:
            results.append(_consecution_result(enc, p, k, enc.check(p.id, k, alive)))
    results = [r for r in results if r.invariant in reported]
    if bmc_depth < 0:  # no bounded search (e.g. on an abstraction, whose runs are not real)
        return results
    return _classify(system, props, results, budget, bmc_depth)


def _consecution_result(enc: _Consecution, p: Property, kind: str, a: Answer) -> Result:
    if a.status is Status.UNSAT:
        return Result(
            p.id,
            Method.INDUCTION,
            "consecution",
            Verdict.PROVED,
            kind,
            clause_labels(a.core),
            tuple(h for h in hypotheses_used(a.core) if h != p.id),  # itself goes without saying
            a.seconds,
            route="" if a.route is Route.DIRECT else a.route.value,
        )
    if a.status is Status.SAT:
        return Result(
            p.id,
            Method.INDUCTION,
            "consecution",
            Verdict.CTI,
            kind,
            (),
            (),
            a.seconds,
            "not inductive for this action",
            evidence=enc.cti(a, kind),
        )
    return Result(
        p.id, Method.INDUCTION, "consecution", Verdict.UNKNOWN, kind, (), (), a.seconds, a.reason
    )


def _classify(
    system: TransitionSystem,
    props: Sequence[Property],
    results: list[Result],
    budget: Budget,
    depth: int,
) -> list[Result]:
    """Turn CTIs into VIOLATED when BMC finds a reachable violation of that property."""
    by_id = {p.id: p for p in props}
    failing = {r.invariant for r in results if r.verdict is Verdict.CTI}
    traces: dict[str, Result] = {}
    for pid in sorted(failing):
        started = time.perf_counter()
        found = violation(system, by_id[pid], depth, budget)
        spent = time.perf_counter() - started
        if found.found is Found.FOUND:
            assert found.depth is not None
            traces[pid] = Result(
                pid,
                Method.BMC,
                f"bmc depth <= {depth}",
                Verdict.VIOLATED,
                None,
                (),
                (),
                spent,
                "",
                found.depth,
                Violation(found.depth, found.run),
            )
        else:
            note = (
                f"no violation reachable within {depth} steps"
                if found.found is Found.NONE
                else f"bounded search gave up: {found.reason}"
            )
            traces[pid] = Result(
                pid, Method.BMC, f"bmc depth <= {depth}", Verdict.CTI, None, (), (), spent, note
            )
    out = []
    for r in results:
        t = traces.get(r.invariant)
        if r.verdict is Verdict.CTI and t is not None and t.verdict is Verdict.VIOLATED:
            r = Result(
                r.invariant,
                r.method,
                r.obligation,
                Verdict.VIOLATED,
                r.action,
                (),
                (),
                r.seconds,
                "a reachable state violates it",
                t.depth,
                t.evidence,
            )
        elif r.verdict is Verdict.CTI and t is not None:
            r = Result(
                r.invariant,
                r.method,
                r.obligation,
                r.verdict,
                r.action,
                (),
                (),
                r.seconds,
                f"{r.reason}; {t.reason}",
                None,
                r.evidence,
            )
        out.append(r)
    return out + list(traces.values())
