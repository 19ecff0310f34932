"""``find``: the shortest run from a legal start to a state (or step) a query describes.

BMC (``bmc.search``) over the relation with the query as the goal at the last frame, or at
the last step for a step query. A step query may also read run totals (``OUTPUT_total[c]``):
the sums of a step output over every step so far, built from the unrolled steps' outputs.

Once a shortest run is found, the solver is asked again at that depth with ``preferences``
(usual life totals, no counters or damage at the start) kept as long as the goal still holds,
and the engine drops the 616.1 answers it did not need (``replay.tidy``): the same kind of
run, easier to read. The trace is replayed on the engine (``replay.replay``) before it is
returned, and the query is evaluated once more on the engine's replay with the concrete
view: if the engine's run does not satisfy the query, that too is a disagreement between the
two views.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.checks.bmc import Found, search
from regen_model.checks.property import outputs_of, step_view
from regen_model.checks.replay import ReplayDisagreement, Replayed, as_run, replay, tidy
from regen_model.checks.solver import Budget, Status
from regen_model.checks.system import Tracked, TransitionSystem
from regen_model.checks.unroll import Unrolling
from regen_model.encoding.outputs import GAME_FIELDS
from regen_model.invariants.concrete import ConcreteView
from regen_model.invariants.query import Query
from regen_model.invariants.symbolic import SymbolicView
from regen_model.invariants.view import evaluate
from regen_model.model.rules import CORRECT, Rules

Z3Ref = Any


@dataclass(frozen=True)
class FindResult:
    query: Query
    found: Found
    depth: int | None
    replayed: Replayed | None
    reason: str
    seconds: float
    searched: int  # deepest depth with no such run


def _totals(u: Unrolling, depth: int) -> dict[str, list[Z3Ref]]:
    names = [k for k in outputs_of(u.steps[0]) if k not in GAME_FIELDS] if u.steps else []
    out: dict[str, list[Z3Ref]] = {}
    for name in names:
        n = len(outputs_of(u.steps[0])[name])
        out[name] = [
            sum((outputs_of(u.steps[i])[name][j] for i in range(depth)), start=0) for j in range(n)
        ]
    return out


def goal(system: TransitionSystem, query: Query) -> Any:
    def at(u: Unrolling, depth: int) -> Z3Ref:
        if not query.step:
            return evaluate(query.formula, SymbolicView(u.frames[depth]))
        view = step_view(system, u.frames[depth - 1], u.steps[depth - 1], u.frames[depth])
        if query.uses_totals:
            view.totals = _totals(u, depth)
        return evaluate(query.formula, view)

    return at


def holds_on_engine(query: Query, replayed: Replayed) -> bool:
    """The query at the end of the engine's replay (concrete view)."""
    states = replayed.states
    if not query.step:
        return bool(evaluate(query.formula, ConcreteView(states[-1])))
    n = len(states[0].cards)
    totals = {
        name: [sum(o.get(name, j) for o in replayed.outputs) for j in range(n)]
        for name in replayed.outputs[-1].cards
    }
    view = ConcreteView(
        states[-1], states[-2], replayed.outputs[-1], replayed.run.actions[-1].kind, totals
    )
    return bool(evaluate(query.formula, view))


def preferences(frame: Any) -> list[list[Z3Ref]]:
    """Groups of "usual" values for a start frame, tried in order: a solver otherwise picks
    whatever satisfies the query (729 life, 34,529 shield counters), which hides what the
    trace is about. Frames without these fields (other systems) get no preferences."""
    players = getattr(frame, "players", ())
    cards = getattr(frame, "cards", ())
    groups = [
        [z3.And(p.life == 20, p.poison == 0) for p in players],
        [c.shield_counters == 0 for c in cards],
        [z3.And(c.plus == 0, c.minus == 0) for c in cards],
        [c.damage == 0 for c in cards],
    ]
    return [g for g in groups if g]


def _tidy_model(u: Unrolling, depth: int, goal_at: Any, model: Z3Ref) -> Any:
    """The run at ``depth`` with as many ``preferences`` as still allow the goal."""
    goal_lits = u.query.track([Tracked("goal:tidy", goal_at(u, depth))])
    kept: list[Z3Ref] = []
    best = model
    for i, group in enumerate(preferences(u.frames[0])):
        lits = u.query.track([Tracked(f"pref:{i}", z3.And(*group))])
        answer = u.query.check([*u.active, *goal_lits, *kept, *lits])
        if answer.status is Status.SAT:
            kept += lits
            best = answer.model
    return u.decode(best, depth)


def find(
    system: TransitionSystem,
    query: Query,
    max_depth: int,
    budget: Budget,
    rules: Rules = CORRECT,
) -> FindResult:
    """Search, decode, replay (raises ``ReplayDisagreement`` when the views disagree)."""
    started = time.perf_counter()
    res = search(
        system, goal(system, query), max_depth, budget, min_depth=1 if query.step else 0, tag="q"
    )
    if res.found is not Found.FOUND:
        return FindResult(
            query, res.found, None, None, res.reason, time.perf_counter() - started, res.searched
        )
    assert res.unrolling is not None and res.depth is not None and res.model is not None
    run = tidy(as_run(_tidy_model(res.unrolling, res.depth, goal(system, query), res.model)), rules)
    replayed = replay(run, rules)
    if not holds_on_engine(query, replayed):
        raise ReplayDisagreement(
            run.length, "query", True, False, run.actions[-1].kind if run.actions else "start"
        )
    return FindResult(
        query, Found.FOUND, res.depth, replayed, "", time.perf_counter() - started, res.searched
    )
