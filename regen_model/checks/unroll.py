"""Unrolling a transition system into one incremental query: frames f0..fk and steps.

BMC, k-induction, cover and ``find`` all need "k steps of the relation, plus a goal at the
end"; they differ in whether f0 is an initial state and in the goal. ``Unrolling`` adds one
step at a time to a single solver, so asking at depth 1, 2, 3 ... reuses everything learnt
at the smaller depths, and each goal is an assumption literal that is on only for its check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regen_model.checks.solver import Answer, Budget, Query
from regen_model.checks.system import StepEncoding, Tracked, TransitionSystem

Z3Ref = Any


class Unrolling:
    def __init__(
        self, system: TransitionSystem, budget: Budget, *, tag: str = "u", initial: bool = True
    ) -> None:
        self.system = system
        self.tag = tag
        self.query = Query(budget)
        first = system.frame(f"{tag}0")
        self.frames: list[Any] = [first]
        self.steps: list[StepEncoding] = []
        self.active: list[Z3Ref] = self.query.track(system.domain(first))
        if initial:
            self.active += self.query.track(system.init(first))
        self._goals = 0

    @property
    def depth(self) -> int:
        return len(self.steps)

    def extend(self) -> StepEncoding:
        """Add one more step at the end."""
        pre = self.frames[-1]
        post = self.system.frame(f"{self.tag}{len(self.frames)}")
        step = self.system.step(pre, post, f"{self.tag}{len(self.steps)}")
        self.active += self.query.track(self.system.domain(post))
        self.active += self.query.track(step.constraints())
        self.frames.append(post)
        self.steps.append(step)
        return step

    def extend_to(self, depth: int) -> None:
        while self.depth < depth:
            self.extend()

    def assume(self, label: str, formula: Z3Ref) -> None:
        """A constraint on for every later check (e.g. a hypothesis of k-induction)."""
        self.active += self.query.track([Tracked(label, formula)])

    def check(self, goal: Z3Ref | None = None, extra: Sequence[Z3Ref] = ()) -> Answer:
        """Satisfiability of everything added so far plus ``goal``."""
        lits = list(self.active) + list(extra)
        if goal is not None:
            self._goals += 1
            lits += self.query.track([Tracked(f"goal:{self._goals}", goal)])
        return self.query.check(lits)

    def decode(self, model: Z3Ref, depth: int) -> Any:
        return self.system.decode(model, self.frames[: depth + 1], self.steps[:depth])
