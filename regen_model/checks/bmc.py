"""Bounded model checking: the shortest run from a legal start to a goal.

``search`` unrolls the relation one step at a time from ``init`` and asks, at each depth, for
the goal at the last frame or step; the first depth at which it is satisfiable gives a
shortest run (every shorter depth was refuted). A property is violated when its negation is
such a goal (``violation``); ``find`` and ``cover`` pass other goals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import z3

from regen_model.checks.property import Property
from regen_model.checks.solver import Budget, Status
from regen_model.checks.system import TransitionSystem
from regen_model.checks.unroll import Unrolling

Z3Ref = Any
GoalAt = Callable[[Unrolling, int], Z3Ref]  # (unrolling, depth) -> goal at that depth


class Found(StrEnum):
    FOUND = "found"
    NONE = "none"  # no run of length <= max_depth reaches the goal
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SearchResult:
    found: Found
    depth: int | None = None  # length of the run found
    run: Any = None  # ``system.decode`` of the model
    model: Z3Ref | None = None
    unrolling: Unrolling | None = None
    reason: str = ""
    seconds: float = 0.0
    searched: int = 0  # deepest depth refuted


def search(
    system: TransitionSystem,
    goal_at: GoalAt,
    max_depth: int,
    budget: Budget,
    *,
    min_depth: int = 0,
    tag: str = "b",
) -> SearchResult:
    u = Unrolling(system, budget, tag=tag)
    spent = 0.0
    searched = -1
    for depth in range(max_depth + 1):
        u.extend_to(depth)
        if depth < min_depth:
            continue
        answer = u.check(goal_at(u, depth))
        spent += answer.seconds
        if answer.status is Status.SAT:
            return SearchResult(
                Found.FOUND,
                depth,
                u.decode(answer.model, depth),
                answer.model,
                u,
                "",
                spent,
                searched,
            )
        if answer.status is Status.UNKNOWN:
            return SearchResult(
                Found.UNKNOWN, reason=answer.reason, seconds=spent, searched=searched
            )
        searched = depth
    return SearchResult(Found.NONE, seconds=spent, searched=searched)


def negation_at(prop: Property) -> GoalAt:
    """The goal "``prop`` fails at the last frame (state) or the last step (step)"."""

    def goal(u: Unrolling, depth: int) -> Z3Ref:
        if prop.state is not None:
            return z3.Not(prop.at_state(u.frames[depth]))
        if depth == 0:
            return z3.BoolVal(False)
        return z3.Not(prop.at_step(u.frames[depth - 1], u.steps[depth - 1], u.frames[depth]))

    return goal


def violation(
    system: TransitionSystem, prop: Property, max_depth: int, budget: Budget
) -> SearchResult:
    """The shortest run that violates ``prop``, if one of length <= ``max_depth`` exists."""
    min_depth = 0 if prop.state is not None else 1
    return search(system, negation_at(prop), max_depth, budget, min_depth=min_depth, tag="v")
