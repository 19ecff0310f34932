"""Cover: every clause branch of the relation is reachable, every antecedent is satisfiable.

A proof about a rule that can never fire, or an implication whose premise never holds, is
vacuous: it passes for the wrong reason. So, from a legal start:

* **clause branches**: for each clause ID labelling constraints of the relation, a run whose
  last step makes a constraint of that label *fire* (``firing``): for ``Implies(cond,
  effect)`` that is ``cond`` holding, for a conjunction of implications one of them firing;
  any other constraint fires whenever the step's action kind is the kind it belongs to
  (``constraints(kind)``).
* **antecedents**: for each implication inside an invariant, a state (or step) where its
  premise holds, together with the premises of the implications it sits in the conclusion
  of, for some binding of the card and shield variables around it (``antecedent_goals``).

Each goal is WITNESSED (reported as PROVED) with the length of the run that shows it,
VACUOUS when bounded model checking refutes it at every depth up to ``depth``, or UNKNOWN
when the solver gave up.

Where the runs come from, cheapest first:

1. **Guide runs** (``guide_runs``): engine runs from legal starts, found by the explicit-state
   explorer on small boards (``GUIDE_BOARDS``) or written out for the situations it cannot
   reach in a few steps (``GuideScript``: combat damage that needs a choice, a player at
   low life, a spell, a new turn). Each is *checked on the relation*: its states and, for
   the rules' encoding, its action parameters are substituted into the relation of each
   step's action kind, which must be satisfiable from ``init``; only then is a goal that
   holds along it witnessed, whatever the run's length. A guide is a candidate, never a
   verdict: the engine's events and the relation's branches need not coincide.
2. **BMC** (``_bmc``) for the goals no guide shows: one unrolling shared by every goal, one
   query per depth for all still-open goals at once (reading off every goal the model
   happens to meet), so about as many queries as depths, not goals.

Every witness is replayed on the engine (``replay``) before it is reported, and
``witnesses`` offers them as (start, actions) scenarios for other tools (clause-covering
conformance cases, ``conform.sources.cover_cases``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3

from regen_model.checks.property import step_view
from regen_model.checks.replay import Run, as_run, replay
from regen_model.checks.solver import Budget, Query, Status
from regen_model.checks.system import StepEncoding, Tracked, TransitionSystem
from regen_model.checks.unroll import Unrolling
from regen_model.clauses import catalog
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.invariants import expr as E
from regen_model.invariants.spec import Invariant, Kind
from regen_model.invariants.symbolic import SymbolicView
from regen_model.invariants.view import evaluate
from regen_model.model import actions as A
from regen_model.model.actions import Action
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.verdicts import Verdict

Z3Ref = Any


@dataclass(frozen=True)
class Witness:
    """A scenario reaching a goal: a run of the relation, replayed on the engine, whose last
    step fires the clause branch (or whose last state or step meets the antecedent)."""

    label: str
    run: Run

    @property
    def start(self) -> GameState:
        return self.run.start

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.run.actions

    @property
    def depth(self) -> int:
        return self.run.length


@dataclass(frozen=True)
class CoverItem:
    item: str  # clause ID, or "invariant ID: antecedent k"
    kind: str  # "clause" or "antecedent"
    verdict: Verdict  # WITNESSED is reported as PROVED; VACUOUS; UNKNOWN
    depth: int | None
    seconds: float
    reason: str = ""
    witness: Witness | None = None
    source: str = ""  # where the witness came from: "guide" or "bmc"


# --- goals ------------------------------------------------------------------------------------

# (pre frame, step, post frame) -> "the goal holds here"; a state goal reads only ``post``
# (``pre`` and ``step`` are None at the start).
GoalFn = Callable[[Any, Any, Any], Z3Ref]


@dataclass(frozen=True)
class Goal:
    """Something cover must see happen. A clause goal is the branch of clause ``name`` firing
    in a step (computed from the step's constraints, ``branches``); an antecedent goal is
    ``at`` holding at a frame (``on_step`` False, from the start on) or at a step. The guide
    runs for ``name`` and for the ``hints`` are tried while the goal is open."""

    name: str
    kind: str  # "clause" or "antecedent"
    on_step: bool = True
    at: GoalFn | None = None  # antecedents only
    hints: tuple[str, ...] = ()  # clauses whose guide runs may show it (an invariant's)


def _conditional(formula: Z3Ref) -> bool:
    if z3.is_app_of(formula, z3.Z3_OP_IMPLIES):
        return True
    return z3.is_and(formula) and any(_conditional(c) for c in formula.children())


def firing(formula: Z3Ref) -> Z3Ref:
    """When a tracked constraint *does* something: ``Implies(a, e)`` fires when ``a`` holds
    (and ``e`` fires, if it is conditional too); a conjunction of implications fires when one
    of them does; any other constraint always applies."""
    if z3.is_app_of(formula, z3.Z3_OP_IMPLIES):
        return z3.And(formula.arg(0), firing(formula.arg(1)))
    if z3.is_and(formula) and _conditional(formula):
        return z3.Or(*[firing(c) for c in formula.children() if _conditional(c)])
    return z3.BoolVal(True)


def branches(system: TransitionSystem, step: StepEncoding) -> dict[str, Z3Ref]:
    """Clause ID -> "some constraint of that clause fires in this step" (labels that are not
    clause IDs of the catalog, such as ``frame`` or ``scope:...``, are not branches)."""
    known = catalog()
    conds: dict[str, list[Z3Ref]] = {}
    for kind in system.action_kinds():
        chosen = step.kind == system.kind_value(kind)
        for t in step.constraints(kind):
            if t.label not in known:
                continue
            conds.setdefault(t.label, []).append(z3.And(chosen, firing(t.formula)))
    return {label: z3.Or(*cs) for label, cs in sorted(conds.items())}


def clause_goals(system: TransitionSystem) -> list[Goal]:
    """One goal per clause ID labelling a constraint of the relation, sorted (the labels
    ``branches`` gives conditions for)."""
    known = catalog()
    # the rules' encoding has a step over its template frames, whose relation needs no
    # substitution (only the labels are read here); other systems get a step of their own
    template_step = getattr(system, "template_step", None)
    probe = (
        template_step()
        if callable(template_step)
        else system.step(system.frame("cx0"), system.frame("cx1"), "cx")
    )
    labels = {
        t.label
        for kind in system.action_kinds()
        for t in probe.constraints(kind)
        if t.label in known
    }
    return [Goal(label, "clause") for label in sorted(labels)]


def antecedent_goals(inv: Invariant) -> list[E.BoolExpr]:
    """Each implication premise of the formula, in the order the formula is read, closed
    existentially over the card and shield variables bound around it and conjoined with the
    premises of the implications whose conclusion it sits in (``all_cards(c: A(c) =>
    all_cards(a: B(a, c) => ...))`` gives ``any_card(A)`` and ``any_card(c: A(c) and
    any_card(a: B(a, c)))``): an inner premise only matters where the outer one holds."""
    goals: list[E.BoolExpr] = []
    # what surrounds a node: bound cards, bound shields (with the time they range over) and
    # the premises it is the conclusion of, outermost first
    Around = E.CardVar | tuple[E.ShieldVar, E.Time] | E.BoolExpr

    def close(goal: E.BoolExpr, around: Sequence[Around]) -> E.BoolExpr:
        for a in reversed(around):
            if isinstance(a, E.CardVar):
                goal = E.CardQuant("any", a, goal)
            elif isinstance(a, tuple):
                goal = E.ShieldQuant("any", a[0], a[1], goal)
            else:
                goal = E.and_(a, goal)
        return goal

    def visit(node: E.Expr, around: list[Around]) -> None:
        if isinstance(node, E.Implies):
            goals.append(close(node.antecedent, around))
            visit(node.antecedent, around)
            visit(node.consequent, [*around, node.antecedent])
            return
        inner = around
        if isinstance(node, E.CardQuant | E.CardCount | E.CardSum):
            inner = [*around, node.var]
        elif isinstance(node, E.ShieldQuant | E.ShieldCount):
            inner = [*around, (node.var, node.time)]
        for child in node.children():
            visit(child, inner)

    visit(inv.formula, [])
    return goals


def _antecedent_goal(system: TransitionSystem, inv: Invariant, k: int, goal: E.BoolExpr) -> Goal:
    name = f"{inv.id}: antecedent {k}"
    if inv.kind is Kind.STATE:
        return Goal(
            name,
            "antecedent",
            False,
            lambda pre, st, post: evaluate(goal, SymbolicView(post)),
            inv.clauses,
        )
    return Goal(
        name,
        "antecedent",
        True,
        lambda pre, st, post: evaluate(goal, step_view(system, pre, st, post)),
        inv.clauses,
    )


def invariant_goals(system: TransitionSystem, invariants: Sequence[Invariant]) -> list[Goal]:
    """The antecedent goals of ``invariants``, named ``"<invariant ID>: antecedent <k>"``."""
    return [
        _antecedent_goal(system, inv, k, goal)
        for inv in invariants
        for k, goal in enumerate(antecedent_goals(inv), start=1)
    ]


# --- the check --------------------------------------------------------------------------------


@dataclass
class _Found:
    depth: int
    witness: Witness
    seconds: float
    source: str


def cover(
    system: TransitionSystem,
    goals: Sequence[Goal],
    depth: int,
    budget: Budget,
    rules: Rules = CORRECT,
    guides: Mapping[str, Sequence[Run]] | None = None,
) -> list[CoverItem]:
    """Every goal of ``goals`` WITNESSED, VACUOUS or UNKNOWN (module docstring), in order.

    ``guides`` maps a goal name or clause ID to candidate runs (``guide_runs``); a run is
    tried, shortest first, while a goal it is for (by name or ``hints``) is open, and every
    open goal is looked for along it. Runs not tried that way are then tried for the
    antecedents still open. BMC up to ``depth`` steps decides what is left."""
    found: dict[str, _Found] = {}
    tried: set[int] = set()
    pinned = _pinned(system, goals)
    candidates = sorted(
        ((key, run) for key, runs in (guides or {}).items() for run in runs),
        key=lambda kr: kr[1].length,
    )
    for key, run in candidates:
        wanted = [g for g in goals if g.name not in found and key in (g.name, *g.hints)]
        if not wanted or id(run) in tried:
            continue
        tried.add(id(run))
        open_goals = [g for g in goals if g.name not in found]
        _try_guide(system, run, open_goals, budget, rules, found, pinned)
    for _, run in candidates:
        open_antecedents = [g for g in goals if g.kind != "clause" and g.name not in found]
        if not open_antecedents:
            break
        if id(run) in tried:
            continue
        tried.add(id(run))
        _try_guide(system, run, open_antecedents, budget, rules, found, pinned)
    unknown = _bmc(system, [g for g in goals if g.name not in found], depth, budget, rules, found)
    items = []
    for g in goals:
        if g.name in found:
            f = found[g.name]
            items.append(
                CoverItem(
                    g.name, g.kind, Verdict.PROVED, f.depth, f.seconds, "", f.witness, f.source
                )
            )
        elif g.name in unknown:
            items.append(CoverItem(g.name, g.kind, Verdict.UNKNOWN, None, 0.0, unknown[g.name]))
        else:
            what = "fires" if g.kind == "clause" else "holds"
            items.append(
                CoverItem(
                    g.name,
                    g.kind,
                    Verdict.VACUOUS,
                    None,
                    0.0,
                    f"never {what} within {depth} steps of a legal start (BMC)",
                )
            )
    return items


def cover_clauses(
    system: TransitionSystem,
    depth: int,
    budget: Budget,
    rules: Rules = CORRECT,
    guides: Mapping[str, Sequence[Run]] | None = None,
) -> list[CoverItem]:
    """Every clause branch of ``system`` (``cover`` with ``clause_goals``)."""
    return cover(system, clause_goals(system), depth, budget, rules, guides)


def cover_antecedents(
    system: TransitionSystem,
    invariants: Sequence[Invariant],
    depth: int,
    budget: Budget,
    rules: Rules = CORRECT,
    guides: Mapping[str, Sequence[Run]] | None = None,
) -> list[CoverItem]:
    """Every antecedent of ``invariants`` (``cover`` with ``invariant_goals``)."""
    return cover(system, invariant_goals(system, invariants), depth, budget, rules, guides)


def _record(
    found: dict[str, _Found],
    hits: Mapping[str, int],
    run: Run,
    rules: Rules,
    seconds: float,
    source: str,
) -> None:
    """Witnesses for ``hits`` (goal -> depth) from prefixes of ``run``, each replayed on the
    engine first (``ReplayDisagreement`` when the two views of the rules disagree)."""
    share = seconds / max(len(hits), 1)
    replayed: dict[int, Run] = {}
    for name, d in hits.items():
        if d not in replayed:
            prefix = Run(run.states[: d + 1], run.actions[:d])
            replay(prefix, rules)
            replayed[d] = prefix
        found[name] = _Found(d, Witness(name, replayed[d]), share, source)


def _try_guide(
    system: TransitionSystem,
    run: Run,
    goals: Sequence[Goal],
    budget: Budget,
    rules: Rules,
    found: dict[str, _Found],
    pinned: _Pinned | None,
) -> None:
    started = time.perf_counter()
    hits = _along(system, run, goals, budget, pinned)
    _record(found, hits, run, rules, time.perf_counter() - started, "guide")


def _pinned_action(params: Any, scope: Any, state: GameState, action: Action) -> list[Any]:
    """(parameter, value) pairs fixing ``params`` (a step's parameter record) to ``action``
    for the rules' encoding (``encoding.params``); none for other systems, whose parameters
    the solver then chooses. Raises ``OutOfScope``."""
    if params is None or not isinstance(scope, Scope):
        return []
    from regen_model.encoding import params as P
    from regen_model.encoding.work import layout

    values = P.of_action(state, action, scope)
    pairs = []
    for key, var in zip(layout(scope).param_keys, params.vars(), strict=True):
        v = values[key]
        pairs.append((var, z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)))
    return pairs


def _pairs(equalities: Sequence[Z3Ref]) -> list[tuple[Z3Ref, Z3Ref]]:
    """``var == value`` (or ``Not(var)``, or ``var``) constraints as substitution pairs."""
    out = []
    for e in equalities:
        if z3.is_eq(e):
            out.append((e.arg(0), e.arg(1)))
        elif z3.is_not(e):
            out.append((e.arg(0), z3.BoolVal(False)))
        else:
            out.append((e, z3.BoolVal(True)))
    return out


def _pinned(system: TransitionSystem, goals: Sequence[Goal]) -> _Pinned | None:
    """The solver-free guide check, for the rules' encoding (a system built over a relation
    ``Template``)."""
    from regen_model.encoding.relation import Template

    if isinstance(getattr(system, "template", None), Template):
        return _Pinned(system, goals)
    return None


class _Pinned:
    """Guide checks for the rules' encoding, without a solver.

    A guide run fixes everything: the printed cards, every state and every action's
    parameters. Under that assignment the relation, the goals and the clause branches are
    each true or false: Z3's model evaluator computes them (``_Closed``), in one walk of the
    term graph they share, with no substituted copy of it made. The terms are built once
    per action kind over the relation's template frames (``system.template``) and shared by
    every step of every guide, and a step that several guides take (the scripts share their
    openings) is evaluated once (``_steps``)."""

    def __init__(self, system: Any, goals: Sequence[Goal]) -> None:
        from regen_model.encoding.system import RegenStep

        self.system = system
        self.template = system.template
        t = self.template
        self.step = RegenStep(system, t.pre, t.post, "T", t.params)
        self.start_terms = [
            z3.And(*[x.formula for x in [*system.domain(t.pre), *system.init(t.pre)]])
        ]
        self.state_goals = [g for g in goals if not g.on_step and g.at is not None]
        self.start_goal_terms = [g.at(None, None, t.pre) for g in self.state_goals if g.at]
        self.post_goal_terms = [g.at(None, None, t.post) for g in self.state_goals if g.at]
        self.goals = goals
        self._kinds: dict[str, tuple[Z3Ref, list[str], list[Z3Ref]]] = {}
        self._start = _Closed([*self.start_terms, *self.start_goal_terms])
        self._packed: dict[str, _Closed] = {}
        self._steps: dict[tuple[Any, ...], list[bool] | None] = {}

    def kind_terms(self, kind: str) -> tuple[Z3Ref, list[str], list[Z3Ref]]:
        """The relation of ``kind`` as one formula, and (name, term) of every clause branch
        and step goal it can show, over the template."""
        found = self._kinds.get(kind)
        if found is None:
            system, t = self.system, self.template
            constraints = self.step.constraints(kind)
            relation = z3.And(*[x.formula for x in [*system.domain(t.post), *constraints]])
            wanted = {g.name for g in self.goals if g.kind == "clause"}
            fires: dict[str, list[Z3Ref]] = {}
            for x in constraints:
                if x.label in wanted:
                    fires.setdefault(x.label, []).append(firing(x.formula))
            names = list(fires)
            terms = [z3.Or(*fires[n]) for n in names]
            view = self.step.for_kind(kind)
            for g in self.goals:
                if g.on_step and g.at is not None:
                    names.append(g.name)
                    terms.append(g.at(t.pre, view, t.post))
            found = self._kinds[kind] = (relation, names, terms)
        return found

    def along(self, run: Run) -> dict[str, int] | None:
        """As ``_along``; None when a formula does not evaluate to a truth value (the caller
        then asks the solver)."""
        from regen_model.encoding.frame import assignment, pin_statics

        t = self.template
        try:
            statics = _pairs(pin_statics(t.statics, run.start.setup))
            pre_values = [assignment(t.pre, state) for state in run.states]
            post_values = [assignment(t.post, state) for state in run.states]
            params = [
                _pinned_action(t.params, self.system.scope, run.states[i], a)
                for i, a in enumerate(run.actions)
            ]
        except OutOfScope:
            return {}
        found: dict[str, int] = {}
        truth = self._start.truth(statics + pre_values[0])
        if truth is None:
            return None
        if not truth[0]:
            return {}  # not a legal start
        self._note(found, [g.name for g in self.state_goals], truth[1:], 0)
        for i, action in enumerate(run.actions):
            relation, names, terms = self.kind_terms(action.kind)
            # the same states (each holds its setup) and action give the same truth values
            key = (run.states[i], action, run.states[i + 1])
            if key not in self._steps:
                closed = self._packed.get(action.kind)
                if closed is None:
                    closed = _Closed([relation, *terms, *self.post_goal_terms])
                    self._packed[action.kind] = closed
                pairs = statics + pre_values[i] + post_values[i + 1] + params[i]
                self._steps[key] = closed.truth(pairs)
            truth = self._steps[key]
            if truth is None:
                return None
            if not truth[0]:
                return {}  # not a run of the relation
            names_here = names + [g.name for g in self.state_goals]
            self._note(found, names_here, truth[1:], i + 1)
        return found

    @staticmethod
    def _note(found: dict[str, int], names: Sequence[str], truth: Sequence[bool], d: int) -> None:
        for name, holds in zip(names, truth, strict=True):
            if holds and name not in found:
                found[name] = d


class _Closed:
    """Formulas whose truth values are asked under assignments of every variable they read.

    They are packed as the arguments of one uninterpreted predicate, so that Z3's model
    evaluator walks the term graph they share once per assignment (substituting the values
    and simplifying made a copy of that graph first, about three times the work). The
    evaluator rewrites a closed term to its value as the simplifier does; a variable the
    assignment leaves out stays a variable (no model completion), and the answer is then
    None, never a guess."""

    def __init__(self, formulas: Sequence[Z3Ref]) -> None:
        self.count = len(formulas)
        pack = z3.Function("closed", *[f.sort() for f in formulas], z3.BoolSort())
        self.term = pack(*formulas)

    def truth(self, pairs: Sequence[tuple[Z3Ref, Z3Ref]]) -> list[bool] | None:
        """The truth value of each formula where each pair's variable has its value."""
        ctx = self.term.ctx
        model = z3.ModelRef(z3.Z3_mk_model(ctx.ref()), ctx)
        for var, value in pairs:
            model.update_value(var, value)
        values = model.eval(self.term, model_completion=False).children()
        out = []
        for value in values:
            if z3.is_true(value):
                out.append(True)
            elif z3.is_false(value):
                out.append(False)
            else:
                return None
        assert len(out) == self.count
        return out


def _along(
    system: TransitionSystem,
    run: Run,
    goals: Sequence[Goal],
    budget: Budget,
    pinned: _Pinned | None = None,
) -> dict[str, int]:
    """The goals that hold along ``run`` on the relation, with the first depth they hold at;
    empty when ``run`` is not a run of the relation from a legal start (or does not fit the
    scope).

    The run's states (and, for the rules' encoding, each action's parameters) are
    substituted into the relation of each step's action kind and into the goals, which
    leaves small formulas: this is a check of a given run, not a search. For the rules'
    encoding every variable is fixed and ``_Pinned`` evaluates them without a solver."""
    if pinned is not None:
        fast = pinned.along(run)
        if fast is not None:
            asked = {g.name for g in goals}
            return {name: d for name, d in fast.items() if name in asked}
    from regen_model.encoding.frame import assignment, pin_statics
    from regen_model.encoding.relation import instantiate_all

    frames = [system.frame(f"g{i}") for i in range(run.length + 1)]
    try:
        statics = _pairs(pin_statics(frames[0].statics, run.start.setup))
        values = [assignment(frame, state) for frame, state in zip(frames, run.states, strict=True)]
        steps = [system.step(frames[i], frames[i + 1], f"g{i}") for i in range(run.length)]
        scope = getattr(system, "scope", None)
        params = [
            _pinned_action(getattr(st, "params", None), scope, run.states[i], run.actions[i])
            for i, st in enumerate(steps)
        ]
    except OutOfScope:
        return {}
    clause_names = {g.name for g in goals if g.kind == "clause"}
    state_goals = [g for g in goals if not g.on_step and g.at is not None]
    step_goals = [g for g in goals if g.on_step and g.at is not None]
    query = Query(budget)
    holds_at: list[dict[str, list[Z3Ref]]] = []
    start_terms = [
        *[t.formula for t in [*system.domain(frames[0]), *system.init(frames[0])]],
        *[g.at(None, None, frames[0]) for g in state_goals if g.at is not None],
    ]
    fixed = instantiate_all(start_terms, statics + values[0])
    n_rules = len(start_terms) - len(state_goals)
    query.add(*fixed[:n_rules])
    holds_at.append({g.name: [t] for g, t in zip(state_goals, fixed[n_rules:], strict=True)})
    for i, action in enumerate(run.actions):
        step = steps[i]
        pre, post = frames[i], frames[i + 1]
        constraints = step.constraints(action.kind)
        relation = [t.formula for t in [*system.domain(post), *constraints]]
        relation.append(step.kind == system.kind_value(action.kind))
        labels = [t.label for t in constraints if t.label in clause_names]
        terms = [firing(t.formula) for t in constraints if t.label in clause_names]
        terms += [g.at(pre, step, post) for g in step_goals if g.at is not None]
        terms += [g.at(None, None, post) for g in state_goals if g.at is not None]
        names = labels + [g.name for g in step_goals] + [g.name for g in state_goals]
        # one substitution pass for the whole step (the terms share one large DAG)
        done = instantiate_all([*relation, *terms], statics + values[i] + values[i + 1] + params[i])
        query.add(*done[: len(relation)])
        here: dict[str, list[Z3Ref]] = {}
        for name, term in zip(names, done[len(relation) :], strict=True):
            here.setdefault(name, []).append(term)
        holds_at.append(here)
    if query.check().status is not Status.SAT:
        return {}  # not a run of the relation from a legal start
    found: dict[str, int] = {}
    for d, here in enumerate(holds_at):
        conds = {name: z3.Or(*ts) for name, ts in here.items()}
        while True:
            rest = [name for name in conds if name not in found]
            if not rest:
                break
            goal = query.track([Tracked(f"goal:{d}", z3.Or(*[conds[n] for n in rest]))])
            answer = query.check(goal)
            if answer.status is not Status.SAT:
                break
            model = answer.model
            assert model is not None
            hit = [n for n in rest if z3.is_true(model.eval(conds[n], model_completion=True))]
            found.update({n: d for n in hit})
    return found


def _bmc(
    system: TransitionSystem,
    goals: Sequence[Goal],
    depth: int,
    budget: Budget,
    rules: Rules,
    found: dict[str, _Found],
) -> dict[str, str]:
    """BMC for ``goals`` on one unrolling: at each depth one query for all open goals, then
    one per goal if that one gives up. Fills ``found``; returns the goals the solver gave up
    on (with its reason) and did not find later."""
    unknown: dict[str, str] = {}
    if not goals:
        return unknown
    u = Unrolling(system, budget, tag="c")
    for d in range(depth + 1):
        if d:
            u.extend()
        conds = _goals_at(system, u, d, goals)
        pending = [name for name in conds if name not in found]
        while pending:
            started = time.perf_counter()
            answer = u.check(z3.Or(*[conds[n] for n in pending]))
            if answer.status is Status.UNSAT:
                break
            if answer.status is Status.UNKNOWN:
                for n in pending:  # one at a time: a smaller goal may be answered
                    started = time.perf_counter()
                    single = u.check(conds[n])
                    if single.status is Status.SAT:
                        _witness(u, single.model, d, [n], found, rules, started)
                    elif single.status is Status.UNKNOWN:
                        unknown[n] = single.reason
                break
            model = answer.model
            assert model is not None
            hit = [n for n in pending if z3.is_true(model.eval(conds[n], model_completion=True))]
            _witness(u, model, d, hit, found, rules, started)
            pending = [n for n in pending if n not in found]
        if all(g.name in found for g in goals):
            break
    return {n: why for n, why in unknown.items() if n not in found}


def _goals_at(
    system: TransitionSystem, u: Unrolling, d: int, goals: Sequence[Goal]
) -> dict[str, Z3Ref]:
    """Each goal at depth ``d`` of ``u``: state goals at frame ``d``, step goals (clause
    branches, step antecedents) at the step ending there (none at depth 0)."""
    out: dict[str, Z3Ref] = {}
    fires = branches(system, u.steps[d - 1]) if d and any(g.kind == "clause" for g in goals) else {}
    for g in goals:
        if g.kind == "clause":
            if g.name in fires:
                out[g.name] = fires[g.name]
        elif g.at is not None and not g.on_step:
            out[g.name] = g.at(None, None, u.frames[d])
        elif g.at is not None and d:
            out[g.name] = g.at(u.frames[d - 1], u.steps[d - 1], u.frames[d])
    return out


def _witness(
    u: Unrolling,
    model: Z3Ref,
    d: int,
    hit: Sequence[str],
    found: dict[str, _Found],
    rules: Rules,
    started: float,
) -> None:
    run = as_run(u.decode(model, d))
    _record(found, {n: d for n in hit}, run, rules, time.perf_counter() - started, "bmc")


# --- guide runs -------------------------------------------------------------------------------

# Boards the explorer's guide runs start from: (cards, how many on the board, step, family,
# depth, unused shields on each creature). The game family plays turns (combat in every
# edition); the effects family applies effects directly (destruction and its replacements,
# damage, zones, counters, riders). With a shield each, creatures regenerate in combat
# (regen.apply.remove-from-combat); ``GuideScript``s cover what these boards do not reach.
GUIDE_BOARDS: tuple[tuple[tuple[str, ...], int, str, str, int, int], ...] = (
    (("Horned Troll", "Grizzly Bears", "Youthful Knight"), 2, "begin-combat", "game", 8, 1),
    (("Horned Troll", "Jackal Pup", "Wall of Essence"), 2, "begin-combat", "game", 8, 1),
    (
        (
            "Horned Troll",
            "Knight of the Holy Nimbus",
            "Snake Umbra",
            "Darksteel Myr",
            "Matopi Golem",
            "Skeleton Scavengers",
            "Typhoid Rats",
            "Bonesplitter",
        ),
        2,
        "main1",
        "effects",
        2,
        1,
    ),
    (
        ("Horned Troll", "Jackal Pup", "Boggart Ram-Gang", "Glistener Elf", "Holy Strength"),
        2,
        "main1",
        "effects",
        2,
        1,
    ),
)


@dataclass(frozen=True)
class ScriptCard:
    """A permanent of a scripted start: a built-in card, its owner (and controller), and
    what a legal start may give it (tapped, unused shields made this turn, unregenerable,
    attached to another permanent of the board)."""

    handle: str
    card: str
    owner: int
    tapped: bool = False
    shields: int = 0
    cant_regen: bool = False
    attached_to: str | None = None


@dataclass(frozen=True)
class GuideScript:
    """A guide run written out: the goals it is for (clause IDs, or antecedent names as
    ``invariant_goals`` gives them), a legal start and the actions, played on the engine."""

    goals: tuple[str, ...]
    cards: tuple[ScriptCard, ...]
    actions: tuple[Action, ...]
    edition: str = "FDN"
    step: str = "main1"
    life: tuple[int, int] = (20, 20)
    library: tuple[int, int] = (0, 0)  # cards in each player's library (121.1)
    stack: int = 0  # the stack objects its run needs at once, when more than one (a counter)


def _pass(*players: int) -> tuple[Action, ...]:
    return tuple(A.PassPriority(player=p) for p in players)


def prevent_spell(target: str, every: bool = False, player: int = 0) -> Action:
    """``player`` casts "prevent the next 2 damage" (``every``: all damage) that would be dealt
    to ``target`` this turn (the bounded scopes' amounts stop at 2; Mending Hands prevents 4)."""
    from regen_model.model.effects import Effect, EffectKind

    kind = EffectKind.PREVENT_ALL if every else EffectKind.PREVENT
    return A.CastSpell(
        player=player,
        name="ward",
        effect=Effect(kind, amount=0 if every else 2),
        targets=(A.TargetChoice(card=target),),
    )


def _scripts() -> tuple[GuideScript, ...]:
    """The situations the explorer's few steps from its boards do not reach."""
    from regen_model.model.cards import SPELLS
    from regen_model.model.effects import Effect, EffectKind
    from regen_model.model.enums import CounterKind, Keyword, Rider

    shock = SPELLS["Shock"]
    dismissal = SPELLS["Galadriel's Dismissal"]
    troll, rats = ScriptCard("troll", "Horned Troll", 0), ScriptCard("rats", "Typhoid Rats", 1)
    bears = ScriptCard("bears", "Grizzly Bears", 0)
    troll_a, brigade = (
        ScriptCard("troll", "Horned Troll", 0),
        ScriptCard("brigade", "Foriysian Brigade", 1),
    )

    def troll_run(goal: str, *actions: Action, edition: str = "pre-M10") -> GuideScript:
        """A Horned Troll with one shield of its own, and ``actions``."""
        return GuideScript(
            (goal,), (ScriptCard("troll", "Horned Troll", 0, shields=1),), actions, edition
        )

    def hurt(amount: int, **effect: Any) -> Action:
        """An effect deals ``amount`` damage to the troll."""
        return A.DealDamage(
            source="effect", shares=(A.DamageShare(amount=amount, card="troll"),), **effect
        )

    # the troll is destroyed and the shield made after its own is the one applied
    second_shield_used = A.Destroy(
        targets=("troll",), choices=(A.ReplacementChoice(permanent="troll", by=0, use="shield#2"),)
    )
    return (
        # 510.1: a trampler blocked by a creature it can more than kill divides its damage as
        # its controller chooses (the FDN rules let it divide freely).
        GuideScript(
            ("combat.damage.assign", "combat.edition.fdn"),
            (troll, rats),
            (
                A.GrantKeyword(target="troll", keyword=Keyword.TRAMPLE),
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("troll",)),
                *_pass(0, 1),
                A.DeclareBlockers(player=1, blocks=(("rats", "troll"),)),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("troll", (("rats", 1), ("player", 1))),)
                ),
            ),
            step="begin-combat",
        ),
        # 506.4 in the M10 edition: the attacker ordered its single blocker (509.2), and both
        # die in combat; the encoding cites combat.removal only where it rewrites a damage
        # assignment order (a zone change resets attacking and blocking itself).
        GuideScript(
            ("combat.removal",),
            (troll, rats),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("troll",)),
                *_pass(0, 1),
                A.DeclareBlockers(player=1, blocks=(("rats", "troll"),)),
                *_pass(0, 1),
            ),
            edition="M10",
            step="begin-combat",
        ),
        # 702.4b: a double striker still in combat as the regular damage step begins strikes
        # again (it leaves the first-strikers record).
        GuideScript(
            ("combat.damage.double-strike",),
            (ScriptCard("blade", "Boros Swiftblade", 0),),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("blade",)),
                *_pass(0, 1, 0, 1, 0, 1),
            ),
            step="begin-combat",
        ),
        # 702.15b: damage dealt by a source with lifelink gains its controller that much life.
        GuideScript(
            ("damage.lifelink",),
            (ScriptCard("hawk", "Vampire Nighthawk", 0),),
            (A.DealDamage(source="hawk", shares=(A.DamageShare(amount=2, player=1),)),),
        ),
        # 704.5q: a +1/+1 and a -1/-1 counter on one permanent annihilate.
        GuideScript(
            ("sba.counters",),
            (bears,),
            (
                A.AddCounters(target="bears", counter=CounterKind.PLUS),
                A.AddCounters(target="bears", counter=CounterKind.MINUS),
                A.CheckStateBasedActions(),
            ),
        ),
        # 603.2: a creature with a damage trigger is dealt damage; the trigger waits (the
        # explorer's combat boards reach it only eight steps in, through a combat damage
        # step whose branches the relation labels otherwise).
        GuideScript(
            ("damage.trigger",),
            (ScriptCard("pup", "Jackal Pup", 0),),
            (A.DealDamage(source="pup", shares=(A.DamageShare(amount=1, card="pup"),)),),
        ),
        # 700.4, 603.6c: Onulet is destroyed with no shield and dies; "when this creature dies"
        # triggers (the explorer's boards have no card with such an ability).
        GuideScript(
            ("trigger.dies",),
            (ScriptCard("onulet", "Onulet", 0),),
            (A.Destroy(targets=("onulet",)),),
        ),
        # 603.2e, 701.19a: Soldevi Steam Beast's shield is used and the regeneration taps it;
        # "whenever this creature becomes tapped" triggers.
        GuideScript(
            ("trigger.tapped",),
            (ScriptCard("beast", "Soldevi Steam Beast", 0, shields=1),),
            (A.Destroy(targets=("beast",)),),
        ),
        # 603.2e, 701.19a, 608.2d: Merfolk Raiders' shield is used and the regeneration taps
        # them; Judge of Currents, their controller's, sees a Merfolk it controls become tapped
        # (the explorer's boards have no watcher of taps), and its controller declines the
        # "you may gain 1 life" as it resolves.
        GuideScript(
            ("trigger.creature-tapped",),
            (
                ScriptCard("judge", "Judge of Currents", 0),
                ScriptCard("raiders", "Merfolk Raiders", 0, shields=1),
            ),
            (
                A.Destroy(targets=("raiders",)),
                A.PassPriority(player=0),
                A.PassPriority(player=1, decline=True),
            ),
        ),
        # 700.4, 603.10a: Grizzly Bears destroyed; Zulaport Cutthroat, their controller's,
        # sees them die (the explorer's boards have no watcher; one trigger fits the scope).
        GuideScript(
            ("trigger.creature-dies",),
            (
                ScriptCard("zulaport", "Zulaport Cutthroat", 0),
                ScriptCard("bears", "Grizzly Bears", 0),
            ),
            (A.Destroy(targets=("bears",)),),
        ),
        # 700.4, 603.10a, 608.2d: Fecundity sees Grizzly Bears die and their controller
        # declines to draw (the explorer's boards have no Fecundity and no library).
        GuideScript(
            ("trigger.dies-draw", "draw.may"),
            (ScriptCard("fecundity", "Fecundity", 1), ScriptCard("bears", "Grizzly Bears", 0)),
            (
                A.Destroy(targets=("bears",)),
                A.PassPriority(player=0),
                A.PassPriority(player=1, decline=True),
            ),
            library=(1, 0),
        ),
        # 121.1: the same, and the controller draws the one card of their library.
        GuideScript(
            ("draw.card",),
            (ScriptCard("fecundity", "Fecundity", 1), ScriptCard("bears", "Grizzly Bears", 0)),
            (A.Destroy(targets=("bears",)), *_pass(0, 1)),
            library=(1, 0),
        ),
        # 121.3, 121.4, 704.5b: the same with that library empty: they may still draw, do,
        # and lose at the next check.
        GuideScript(
            ("draw.empty-library",),
            (ScriptCard("fecundity", "Fecundity", 1), ScriptCard("bears", "Grizzly Bears", 0)),
            (A.Destroy(targets=("bears",)), *_pass(0, 1)),
        ),
        # 701.17a, 404.3: Thought Scour at B mills two cards of B's three, one group in B's
        # graveyard, then its caster draws (the explorer's boards cast no spell, have no
        # library).
        GuideScript(
            ("mill.cards",),
            (bears,),
            (SPELLS["Thought Scour"].cast(0, (A.TargetChoice(player=1),)), *_pass(0, 1)),
            library=(1, 3),
        ),
        # 701.17b: the same with B's library holding one card: B mills it, and no loss.
        GuideScript(
            ("mill.short-library",),
            (bears,),
            (SPELLS["Thought Scour"].cast(0, (A.TargetChoice(player=1),)), *_pass(0, 1)),
            library=(1, 1),
        ),
        # 603.7e, 102.2: Soldevi Sentry's shield is used; its rider triggers, controlled by A
        # and naming B (the explorer's boards have no Sentry).
        GuideScript(
            ("regen.rider.opponent-draws",),
            (ScriptCard("sentry", "Soldevi Sentry", 0),),
            (
                A.ActivateAbility(player=0, source="sentry"),
                *_pass(0, 1),
                A.Destroy(targets=("sentry",)),
            ),
        ),
        # 603.10a: Kardur, Doomscourge and Grizzly Bears attack and the Bears are destroyed;
        # Kardur sees an attacking creature die.
        GuideScript(
            ("trigger.attacking-dies",),
            (
                ScriptCard("kardur", "Kardur, Doomscourge", 0),
                ScriptCard("bears", "Grizzly Bears", 0),
            ),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("kardur", "bears")),
                A.Destroy(targets=("bears",)),
            ),
            step="begin-combat",
        ),
        # 509.1i, 603.7c, 511.2: Thicket Basilisk attacks and the Drudge Skeletons blocking it
        # get "destroy it at end of combat"; the Basilisk's damage regenerates them, and the
        # delayed trigger still triggers as the end of combat step begins (the explorer's
        # boards have no Basilisk).
        GuideScript(
            ("trigger.eoc-destroy",),
            (
                ScriptCard("basilisk", "Thicket Basilisk", 0),
                ScriptCard("skeletons", "Drudge Skeletons", 1, shields=1),
            ),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("basilisk",)),
                *_pass(0, 1),
                A.DeclareBlockers(player=1, blocks=(("skeletons", "basilisk"),)),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step="begin-combat",
        ),
        # 513.1, 603.12, 603.3d: Go-Shintai of Hidden Cruelty's ability triggers as its
        # controller's end step begins; paying makes the reflexive trigger, which targets
        # Drudge Skeletons as it goes on the stack (the explorer's boards have no Go-Shintai
        # and never reach an end step).
        GuideScript(
            ("trigger.end-step", "trigger.reflexive", "stack.trigger-target"),
            (
                ScriptCard("shintai", "Go-Shintai of Hidden Cruelty", 0),
                ScriptCard("skeletons", "Drudge Skeletons", 1),
            ),
            (
                *_pass(0, 1),
                A.PassPriority(player=0),
                A.PassPriority(player=1, target="skeletons"),
            ),
            step="main2",
        ),
        # 704.5a: a player at 0 life loses.
        GuideScript(
            ("sba.player-loses",),
            (bears,),
            (
                A.DealDamage(source="bears", shares=(A.DamageShare(amount=2, player=0),)),
                A.CheckStateBasedActions(),
            ),
            life=(2, 20),
        ),
        # 601: a spell is cast, then resolves.
        GuideScript(
            ("stack.cast",),
            (bears,),
            (
                A.CastSpell(
                    player=0,
                    name=shock.name,
                    effect=shock.effect,
                    targets=(A.TargetChoice(card="bears"),),
                ),
                *_pass(0, 1),
            ),
        ),
        # 502.3: the next turn's active player untaps its permanents.
        GuideScript(
            ("turn.untap",),
            (ScriptCard("bears", "Grizzly Bears", 1, tapped=True),),
            _pass(0, 1, 1, 0),
            step="end",
        ),
        # A regenerated creature keeps its Aura (701.19c: not a zone change).
        GuideScript(
            ("inv.regen.attachments-stay: antecedent 2",),
            (
                ScriptCard("troll", "Horned Troll", 0, shields=1),
                ScriptCard("aura", "Holy Strength", 0, attached_to="troll"),
            ),
            (A.Destroy(targets=("troll",)),),
        ),
        # An unregenerable creature is destroyed (701.19c).
        GuideScript(
            ("inv.cant-regen.no-shield-used: antecedent 2",),
            (ScriptCard("troll", "Horned Troll", 0, shields=1, cant_regen=True),),
            (A.Destroy(targets=("troll",)),),
        ),
        # A permanent with static regeneration leaves and returns as a new object (400.7).
        GuideScript(
            (
                "inv.new-object.no-shields: antecedent 1",
                "inv.static-regen.never-destroyed: antecedent 1",
            ),
            (ScriptCard("knight", "Knight of the Holy Nimbus", 0, shields=1),),
            (A.LeaveAndReturn(target="knight"),),
        ),
        # 704.5h: deathtouch damage that is not lethal destroys at the next check, which
        # clears the record of it; the relation's branch is the destruction event (ghost
        # counts), which the bears' shield replaces, so it is not overwritten by the new
        # object of a zone change (400.7).
        GuideScript(
            ("sba.deathtouch", "sba.deathtouch-reset"),
            (rats, ScriptCard("bears", "Grizzly Bears", 0, shields=1)),
            (
                A.DealDamage(source="rats", shares=(A.DamageShare(amount=1, card="bears"),)),
                A.CheckStateBasedActions(),
            ),
        ),
        # 704.5m: an Aura whose creature was sacrificed goes to the graveyard at the next check.
        GuideScript(
            ("sba.aura",),
            (bears, ScriptCard("aura", "Holy Strength", 0, attached_to="bears")),
            (A.Sacrifice(target="bears"), A.CheckStateBasedActions()),
        ),
        # Pre-M10 deathtouch triggers (502.63 of that era).
        GuideScript(
            ("damage.deathtouch-trigger",),
            (rats, bears),
            (A.DealDamage(source="rats", shares=(A.DamageShare(amount=1, card="bears"),)),),
            edition="pre-M10",
        ),
        # 110.2a: a flicker returns the card under the named player's control (sick, 302.6,
        # is the new object's reset there, so the combat.summoning-sickness branch is shown
        # by the attack declarations of the explorer's combat board instead);
        # 614.1c: Skeleton Scavengers enters with its counter.
        GuideScript(
            ("zone.return-control",),
            (ScriptCard("bears", "Grizzly Bears", 1),),
            (A.LeaveAndReturn(target="bears", controller=0),),
        ),
        GuideScript(
            ("zone.enters-with-counters",),
            (ScriptCard("scavengers", "Skeleton Scavengers", 0),),
            (A.LeaveAndReturn(target="scavengers"),),
        ),
        # 613.1d: Spawning Pool animates itself, is dealt damage, stops being a creature with
        # the damage still marked (120.6), and is a land again at cleanup.
        GuideScript(
            (
                "type.become-creature",
                "type.stop-being-creature",
                "type.damage-stays",
                "type.until-end-of-turn",
            ),
            (ScriptCard("pool", "Spawning Pool", 0),),
            (
                A.ActivateAbility(player=0, source="pool", ability=0),
                *_pass(0, 1),
                A.DealDamage(source="shock", shares=(A.DamageShare(amount=1, card="pool"),)),
                A.ChangeType(target="pool", creature=False),
                A.Cleanup(),
            ),
        ),
        # 614.1a, 614.5: Pyramids' ability targets the animated Spawning Pool; Murder's
        # destruction is replaced (all damage removed, nothing tapped) and the effect used up.
        GuideScript(
            ("replace.remove-damage",),
            (ScriptCard("pool", "Spawning Pool", 0), ScriptCard("pyr", "Pyramids", 0)),
            (
                A.ActivateAbility(player=0, source="pool", ability=0),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                A.Destroy(targets=("pool",)),
            ),
        ),
        # 615.7, 615.1: a resolving prevention spell gives its target a "prevent the next N"
        # shield, or makes all damage to it this turn prevented (spells of 2: Mending Hands'
        # 4 is beyond the cover scope's amounts).
        GuideScript(("prevent.next",), (bears,), (prevent_spell("bears"), *_pass(0, 1))),
        GuideScript(("prevent.all",), (bears,), (prevent_spell("bears", True), *_pass(0, 1))),
        # 615.12: damage that can't be prevented meets a prevention shield and leaves it whole.
        GuideScript(
            ("prevent.unpreventable",),
            (bears,),
            (
                prevent_spell("bears"),
                *_pass(0, 1),
                A.DealDamage(
                    source="effect",
                    shares=(A.DamageShare(amount=2, card="bears"),),
                    keywords=frozenset({Keyword.UNPREVENTABLE}),
                ),
            ),
        ),
        # 702.26b, 702.26d: a resolving "it phases out" phases out a creature with a shield,
        # which is then left alone by damage to each creature; cleanup still ends its shield
        # (514.2, 702.26f) and it phases in in its controller's untap step (502.1).
        GuideScript(
            ("phasing.out", "phasing.absent", "phasing.cleanup", "phasing.in"),
            (ScriptCard("bears", "Grizzly Bears", 1, shields=1),),
            (
                dismissal.cast(0, (A.TargetChoice(card="bears"),)),
                *_pass(0, 1),
                A.CastSpell(  # Pyroclasm at instant speed: the guide plays in an end step
                    player=0, name="sweep", effect=Effect(EffectKind.DAMAGE_EACH_CREATURE, amount=2)
                ),
                *_pass(0, 1),
                A.Cleanup(),  # the cleanup step's own is overwritten by the untap step's phasing
                *_pass(0, 1),
            ),
            step="end",
        ),
        # 702.26a, 702.26g: in its controller's untap step a creature with phasing phases out,
        # and its Aura with it.
        GuideScript(
            ("phasing.keyword", "phasing.indirect"),
            (
                ScriptCard("raiders", "Merfolk Raiders", 1),
                ScriptCard("strength", "Holy Strength", 1, attached_to="raiders"),
            ),
            _pass(0, 1),
            step="end",
        ),
        # 608.2b: Cloudshift's target, a creature its caster controlled when it was cast, is
        # another player's when it resolves: an illegal target, so Cloudshift does not resolve.
        GuideScript(
            ("stack.target-legality",),
            (ScriptCard("bears", "Grizzly Bears", 0),),
            (
                SPELLS["Cloudshift"].cast(0, (A.TargetChoice(card="bears"),)),
                A.ChangeControl(target="bears", player=1, until_end_of_turn=True),
                *_pass(0, 1),
            ),
        ),
        # 701.26b: Act of Treason untaps the creature it takes.
        GuideScript(
            ("tap.untap",),
            (ScriptCard("bears", "Grizzly Bears", 1, tapped=True),),
            (SPELLS["Act of Treason"].cast(0, (A.TargetChoice(card="bears"),)), *_pass(0, 1)),
        ),  # --- Auras and Equipment (issue 12 items 5-6) ---
        # 702.6a, 613.1f: Darksteel Plate equips the Bears, which then have indestructible;
        # an attach effect onto the Plate itself does nothing (701.3b); the Bears stop being
        # a creature and the Plate falls off (704.5n).
        GuideScript(
            ("attach.equip", "attach.grants", "attach.illegal-target", "sba.equipment"),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("plate", "Darksteel Plate", 0),
            ),
            (
                A.ActivateAbility(player=0, source="plate", target="bears"),
                *_pass(0, 1),
                A.Attach(attachment="plate", target="plate"),
                A.ChangeType(target="bears", creature=False),
                A.CheckStateBasedActions(),
            ),
        ),
        # 701.3a: an attach effect puts the unattached Plate onto the Bears.
        GuideScript(
            ("attach.move",),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("plate", "Darksteel Plate", 0),
            ),
            (A.Attach(attachment="plate", target="bears"),),
        ),
        # 701.19a: Regeneration's ability shields the Bears; the shield stays with them when
        # the Aura is destroyed.
        GuideScript(
            ("attach.host-regen", "attach.shields-stay"),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("aura", "Regeneration", 0, attached_to="bears"),
            ),
            (
                A.ActivateAbility(player=0, source="aura"),
                *_pass(0, 1),
                A.Destroy(targets=("aura",)),
            ),
        ),
        # 613.1f, 602.2: Skeletal Grimace gives the Bears "{B}: Regenerate this creature",
        # which their controller activates; it shields the Bears (113.7).
        GuideScript(
            ("attach.granted-ability",),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("grimace", "Skeletal Grimace", 0, attached_to="bears"),
            ),
            (A.ActivateAbility(player=0, source="bears", ability=0), *_pass(0, 1)),
        ),
        # 602.2b, 608.2b: Suture Spirit's "Regenerate target creature" aimed at the Bears
        # shields them (issue 13 item 4).
        GuideScript(
            ("stack.ability-target",),
            (ScriptCard("spirit", "Suture Spirit", 0), ScriptCard("bears", "Grizzly Bears", 1)),
            (A.ActivateAbility(player=0, source="spirit", target="bears"), *_pass(0, 1)),
        ),
        # 601.2h, 302.6: Niall Silvain pays the {T} of its ability as it activates it.
        GuideScript(
            ("cost.tap",),
            (ScriptCard("niall", "Niall Silvain", 0), ScriptCard("bears", "Grizzly Bears", 1)),
            (A.ActivateAbility(player=0, source="niall", target="bears"), *_pass(0, 1)),
        ),
        # 601.2h, 608.2h: Carapace is sacrificed as its ability is activated, and the ability
        # still shields the Bears it enchanted.
        GuideScript(
            ("cost.sacrifice",),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("carapace", "Carapace", 0, attached_to="bears"),
            ),
            (A.ActivateAbility(player=0, source="carapace"), *_pass(0, 1)),
        ),
        # 601.2h, 701.21a: Dark Privilege's "Sacrifice a creature" paid with the Bears it
        # enchants as the ability is activated (two permanents: the cover scope's); the
        # ability then names a new object and does nothing (400.7, 608.2b).
        GuideScript(
            ("cost.sacrifice-creature",),
            (
                ScriptCard("bears", "Grizzly Bears", 0),
                ScriptCard("privilege", "Dark Privilege", 0, attached_to="bears"),
            ),
            (A.ActivateAbility(player=0, source="privilege", sacrifice="bears"), *_pass(0, 1)),
        ),
        # 608.2b, 701.19a, 506.4: Kill Shot at an attacking Troll that regenerates in
        # response: no longer attacking, an illegal target.
        GuideScript(
            ("stack.target-status",),
            (ScriptCard("troll", "Horned Troll", 0, shields=1),),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("troll",)),
                A.PassPriority(player=0),
                SPELLS["Kill Shot"].cast(1, (A.TargetChoice(card="troll"),)),
                A.Destroy(targets=("troll",)),
                *_pass(1, 0),
            ),
            step="begin-combat",
        ),
        # 608.2b, 701.19a: Asphyxiate at an untapped Troll that regenerates in response:
        # tapped, an illegal target.
        GuideScript(
            ("stack.target-status",),
            (ScriptCard("troll", "Horned Troll", 1, shields=1),),
            (
                SPELLS["Asphyxiate"].cast(0, (A.TargetChoice(card="troll"),)),
                A.Destroy(targets=("troll",)),
                *_pass(0, 1),
            ),
        ),
        # 509.1a with "can block an additional creature": Foriysian Brigade blocks both
        # attackers and divides its damage between them (510.1d). Three permanents, so these
        # are covered at a scope of three card slots (``wide_goals``).
        GuideScript(
            ("combat.block-additional", "combat.damage.multi-blocker"),
            (bears, troll_a, brigade),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("bears", "troll")),
                *_pass(0, 1),
                A.DeclareBlockers(player=1, blocks=(("brigade", "bears"), ("brigade", "troll"))),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("brigade", (("bears", 1), ("troll", 1))),)
                ),
            ),
            step="begin-combat",
        ),
        # 608.2c, 615.6: Disintegrate's "if it's a creature, it can't be regenerated this turn"
        # reaches its target although all the damage is prevented (X = 2 for the scope).
        GuideScript(
            ("cant-regen.damage-target",),
            (troll,),
            (
                prevent_spell("troll", True),
                *_pass(0, 1),
                A.CastSpell(
                    player=0,
                    name="disintegrate",
                    effect=Effect(EffectKind.DAMAGE, amount=2, cant_regen_target=True),
                    targets=(A.TargetChoice(card="troll"),),
                    sorcery=True,
                ),
                *_pass(0, 1),
            ),
        ),
        # 614.6, 700.4: Disintegrate's "if it would die this turn, exile it instead" sends the
        # bears its damage destroys to exile, not to the graveyard (X = 2 for the scope).
        GuideScript(
            ("replace.exile-instead",),
            (bears,),
            (
                A.CastSpell(
                    player=0,
                    name="disintegrate",
                    effect=Effect(EffectKind.DAMAGE, amount=2, exile_if_dies=True),
                    targets=(A.TargetChoice(card="bears"),),
                    sorcery=True,
                ),
                *_pass(0, 1),
            ),
        ),
        # 608.2n, 404.1: Terror puts A's own bears into A's graveyard, then goes on top itself.
        GuideScript(
            ("zone.spell-to-graveyard", "zone.graveyard-order"),
            (bears,),
            (SPELLS["Terror"].cast(0, (A.TargetChoice(card="bears"),)), *_pass(0, 1)),
        ),
        # 701.6a: B's Regenerate on the troll is countered by A's Counterspell (two objects on
        # the stack at once): no shield, and both spells go to their owners' graveyards.
        GuideScript(
            ("stack.counter",),
            (ScriptCard("troll", "Horned Troll", 1),),
            (
                *_pass(0),
                SPELLS["Regenerate"].cast(1, (A.TargetChoice(card="troll"),)),
                *_pass(1),
                SPELLS["Counterspell"].cast(0, (A.TargetChoice(spell=0),)),
                *_pass(0, 1),
            ),
            stack=2,
        ),
        # 701.8a, 614.6: Fumigate counts the bears it destroyed, not the troll its shield saved.
        GuideScript(
            ("destroy.counted",),
            (bears, ScriptCard("troll", "Horned Troll", 1, shields=1)),
            (SPELLS["Fumigate"].cast(0), *_pass(0, 1)),
        ),
        # 506.4, 509.1h: the creature blocking two attackers regenerates; both stay blocked.
        GuideScript(
            ("combat.removal.multi-blocked",),
            (bears, troll_a, ScriptCard("brigade", "Foriysian Brigade", 1, shields=1)),
            (
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("bears", "troll")),
                *_pass(0, 1),
                A.DeclareBlockers(player=1, blocks=(("brigade", "bears"), ("brigade", "troll"))),
                SPELLS["Murder"].cast(0, (A.TargetChoice(card="brigade"),)),
                *_pass(0, 1),
            ),
            step="begin-combat",
        ),
        # The runs below are the ones the explorer's effects board finds for these clauses,
        # written out: it reaches them only at the end of its first layer or in its second,
        # after about 70,000 states (2.5 s of the cover section), where it stops at about 1,200
        # once these are given.
        # 702.2b, 704.5h: deathtouch damage from an effect is recorded on the troll.
        troll_run(
            "damage.deathtouch", hurt(1, keywords=frozenset({Keyword.DEATHTOUCH})), edition="M10"
        ),
        # 701.19a: a damaged troll regenerates; the damage marked on it is removed.
        troll_run("regen.apply.remove-damage", hurt(1), A.Destroy(targets=("troll",))),
        # 701.19c, 514.2: damage that says the troll can't be regenerated this turn, a shield
        # made all the same (the engine notes it will not apply), and the cleanup step ending
        # the effect (the relation's branch of this clause).
        troll_run(
            "regen.cant.this-turn",
            hurt(1, cant_regen=True),
            A.CreateShield(target="troll", origin="regeneration shield"),
            A.Cleanup(),
        ),
        # Debt of Loyalty's shield, made by B, is the one chosen: B gains control of the troll.
        troll_run(
            "regen.rider.control",
            A.CreateShield(
                target="troll", origin="Debt of Loyalty", rider=Rider.GAIN_CONTROL, creator=1
            ),
            second_shield_used,
        ),
        # 603.7: Matopi Golem's shield is the one chosen: its "-1/-1 counter" rider triggers.
        troll_run(
            "regen.rider.trigger",
            A.CreateShield(target="troll", origin="Matopi Golem", rider=Rider.MINUS_COUNTER),
            second_shield_used,
        ),
        # 704.5g: lethal damage marked, then the state-based check destroys the troll.
        troll_run("sba.lethal-damage", hurt(2), A.CheckStateBasedActions()),
        # 702.80a, 704.5f: wither's -1/-1 counters bring the troll's toughness to 0.
        troll_run(
            "sba.toughness-zero",
            hurt(2, keywords=frozenset({Keyword.WITHER})),
            A.CheckStateBasedActions(),
        ),
        # 122.1c: a shield counter prevents the damage and is removed.
        troll_run(
            "replace.shield-counter",
            A.AddCounters(target="troll", counter=CounterKind.SHIELD),
            hurt(1),
        ),
    )


def _script_run(script: GuideScript) -> Run:
    """``script`` played on the reference engine (raises ``EngineError`` if it is illegal)."""
    from regen_model.engine import step
    from regen_model.model.build import CardSpec, make_state
    from regen_model.model.cards import PERMANENT_CARDS
    from regen_model.model.enums import Edition, Rider, Step
    from regen_model.model.state import Shield

    start = make_state(
        ("A", "B"),
        [
            CardSpec(
                c.handle,
                PERMANENT_CARDS[c.card],
                c.owner,
                tapped=c.tapped,
                shields=(Shield("Regenerate", c.owner, Rider.NONE),) * c.shields,
                cant_regen=c.cant_regen,
                attached_to=c.attached_to,
            )
            for c in script.cards
        ],
        edition=Edition(script.edition),
        step=Step(script.step),
        life=script.life,
        library=script.library,
    )
    states = [start]
    for action in script.actions:
        states.append(step(states[-1], action).state)
    return Run(tuple(states), script.actions)


def script_runs(scope: Scope | None = None) -> list[tuple[tuple[str, ...], Run]]:
    """Each ``GuideScript`` with its run on the engine; with ``scope``, those whose board
    fits it."""
    return [
        (s.goals, _script_run(s))
        for s in _scripts()
        if scope is None or (len(s.cards) <= scope.cards and s.stack <= scope.stack)
    ]


def script_scope(script: GuideScript, base: Scope) -> Scope:
    """The smallest scope like ``base`` that holds ``script``'s board: ``base``, or ``base``
    with as many card slots as the script has permanents and as many stack slots as its run
    needs at once (a counter and the spell it counters)."""
    if len(script.cards) <= base.cards and script.stack <= base.stack:
        return base
    return replace(
        base, cards=max(base.cards, len(script.cards)), stack=max(base.stack, script.stack)
    )


def wide_goals(base: Scope) -> dict[Scope, tuple[str, ...]]:
    """The goals no guide script fitting ``base`` is written for but one needing more card
    slots is (a creature blocking two attackers needs three permanents), by the smallest
    scope one of their scripts fits. ``verify``'s cover section covers them there, with
    those scripts as guides, instead of letting BMC refute them at ``base``."""
    narrow = {g for s in _scripts() if script_scope(s, base) == base for g in s.goals}
    best: dict[str, Scope] = {}
    for s in _scripts():
        scope = script_scope(s, base)
        if scope == base:
            continue
        for g in s.goals:
            smaller = g in best and (scope.cards, scope.stack) < (best[g].cards, best[g].stack)
            if g not in narrow and (g not in best or smaller):
                best[g] = scope
    out: dict[Scope, list[str]] = {}
    for g, scope in best.items():
        out.setdefault(scope, []).append(g)
    return {scope: tuple(goals) for scope, goals in out.items()}


def guide_runs(scope: Scope, wanted: Collection[str] | None = None) -> dict[str, list[Run]]:
    """Clause ID -> candidate runs for ``cover`` (shortest first): an engine run from the
    explorer's legal starts on ``GUIDE_BOARDS`` whose last step's events cite the clause (the
    shortest on the first board that reaches it), then the scripted runs (``GuideScript``)
    meant for it. They are checked on the relation there: the engine's events and the
    relation's branches need not coincide.

    With ``wanted`` (the clause IDs cover asks about), the boards are searched only until
    every wanted clause has a run or a script: the rest of a search would only find runs
    for clauses nobody asks about."""
    from regen_model.explore import ActionFamily, ExploreConfig, StartSpec, explore
    from regen_model.explore.monitor import Finding
    from regen_model.model.enums import Step

    class Clauses:
        invariants: tuple[str, ...] = ()

        def check_state(self, state: GameState) -> list[Finding]:
            return []

        def check_step(self, pre: GameState, action: Action, result: Any) -> list[Finding]:
            return [Finding(e.clause, "fired") for e in result.events]

    scripted = script_runs(scope)
    covered = {name for names, _ in scripted for name in names}
    shortest: dict[str, Run] = {}

    def done(found: Collection[str]) -> bool:
        return wanted is not None and all(c in found or c in covered for c in wanted)

    for cards, count, step_name, family, depth, shields in GUIDE_BOARDS:
        if count > scope.cards:
            continue
        if done(shortest.keys()):
            break
        spec = StartSpec(
            cards=cards,
            count=count,
            editions=tuple(scope.editions),
            step=Step(step_name),
            shields=min(shields, scope.shields),
        )
        config = ExploreConfig(
            start=spec,
            scope=scope,
            depth=depth,
            family=ActionFamily(family),
            stop_at_first=False,
            spells=(),
            max_states=100_000,
        )
        try:
            result = explore(config, Clauses(), stop_when=lambda f: done({*shortest, *f}))
        except ValueError:
            continue  # a board the scope cannot hold (printed P/T, editions)
        for clause, cex in result.violations.items():
            trace = cex.trace
            run = Run(tuple(trace.states), tuple(s.action for s in trace.steps))
            if clause not in shortest or run.length < shortest[clause].length:
                shortest[clause] = run
    runs = {clause: [run] for clause, run in shortest.items()}
    for names, run in scripted:
        for name in names:
            runs.setdefault(name, []).append(run)
    return runs
