"""Trace validation: does some run of the specification explain this log?

The checker keeps a *frontier*: every specification state consistent with the log so far
(normally one; more when an unlogged choice or a partial observation leaves several
possibilities open). At each logged step it asks the ``GapResolver`` for the attempts from
every frontier state, runs them through the engine and keeps the successors whose projection
agrees with the logged observation on every observed field. The log is explained when the
frontier survives the last step; it is refuted at the first step where the frontier empties.

Verdicts (``regen_model.verdicts``):

* PASSED: every step was matched (the whole trace was consumed);
* FAILED: some step could not be matched; the report names it, shows the specification's
  state(s) before it, the closest candidate's field-by-field diff and the clauses involved;
* VACUOUS: the trace shows nothing: no step after its start, or no step that logs an action
  or observes a field (never a pass);
* UNKNOWN: the frontier outgrew its bound and was cut, so a failure may be spurious.

A fully observed step costs one engine step and one comparison of the observed fields
(``observe.matches``): the projection is only built to explain a failure.

A resolver may offer ``stages`` (a sequence of resolvers, e.g. ``solve.AutoResolver``:
enumeration, then the Z3 solver): at each step the next stage is asked, for every frontier
state, only when the earlier stages found no successor that matches. Explaining a failure
asks the resolver itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from regen_model.conform.codec import action_to_json
from regen_model.conform.gaps import Attempt, EnumerationResolver, GapResolver
from regen_model.conform.itf import Trace, TraceStep
from regen_model.conform.observe import (
    FieldDiff,
    Matcher,
    Observation,
    compare,
    matches,
    project,
)
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.verdicts import Verdict

MAX_FRONTIER = 256
MAX_SHOWN_STATES = 3


@dataclass(frozen=True)
class Candidate:
    """The attempt that came closest to the logged observation at a failing step."""

    action: Any  # JSON form
    diffs: tuple[FieldDiff, ...]
    clauses: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "diffs": [d.to_json() for d in self.diffs],
            "clauses": list(self.clauses),
        }


@dataclass(frozen=True)
class TraceFailure:
    step: int
    reason: str
    logged_action: Any  # JSON as logged, or None
    states_before: tuple[Observation, ...]
    frontier_size: int
    closest: Candidate | None
    rejected: tuple[str, ...]  # engine errors of candidates, "message [clause]"
    clauses: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "reason": self.reason,
            "logged_action": self.logged_action,
            "states_before": [o.to_json() for o in self.states_before],
            "frontier_size": self.frontier_size,
            "closest": None if self.closest is None else self.closest.to_json(),
            "rejected": list(self.rejected),
            "clauses": list(self.clauses),
        }


@dataclass(frozen=True)
class TraceReport:
    file: str
    verdict: Verdict
    steps: int
    matched: int
    gap_steps: int  # steps where more than one attempt was tried
    max_frontier: int
    truncated: bool
    resolver: str
    elapsed: float
    failure: TraceFailure | None = None
    note: str = ""
    clauses: tuple[str, ...] = field(default=())  # clauses exercised by the matched run

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "verdict": self.verdict.value,
            "steps": self.steps,
            "matched": self.matched,
            "gap_steps": self.gap_steps,
            "max_frontier": self.max_frontier,
            "truncated": self.truncated,
            "resolver": self.resolver,
            "elapsed_s": round(self.elapsed, 6),
            "note": self.note,
            "clauses": list(self.clauses),
            "failure": None if self.failure is None else self.failure.to_json(),
        }


def check_trace(
    trace: Trace,
    rules: Rules = CORRECT,
    resolver: GapResolver | None = None,
    max_frontier: int = MAX_FRONTIER,
) -> TraceReport:
    """Validate ``trace`` against the specification under ``rules``."""
    t0 = time.perf_counter()
    resolver = resolver or EnumerationResolver()
    start = trace.start.build()
    initial = Observation(trace.initial.cards, trace.initial.players, game=trace.initial.game)

    def report(verdict: Verdict, matched: int, **kw: Any) -> TraceReport:
        return TraceReport(
            file=trace.file,
            verdict=verdict,
            steps=len(trace.steps),
            matched=matched,
            gap_steps=gap_steps,
            max_frontier=widest,
            truncated=truncated,
            resolver=resolver.name,
            elapsed=time.perf_counter() - t0,
            **kw,
        )

    gap_steps = 0
    widest = 1
    truncated = False
    handles, names = start.setup.handles, start.setup.player_names
    if not matches(start, (), initial):
        diffs = tuple(compare(project(start), initial))
        failure = TraceFailure(
            step=0,
            reason="the start state does not match the setup",
            logged_action=None,
            states_before=(project(start),),
            frontier_size=1,
            closest=Candidate(None, diffs, ()),
            rejected=(),
            clauses=(),
        )
        return report(Verdict.FAILED, 0, failure=failure)
    if not trace.steps:
        return report(
            Verdict.VACUOUS, 0, note="the trace has no step after its start: nothing is shown"
        )
    if not any(s.action is not None or _shows_something(s.observation) for s in trace.steps):
        return report(
            Verdict.VACUOUS,
            0,
            note="no state after the start observes a field or logs an action: nothing is shown",
        )

    frontier: list[GameState] = [start]
    clauses: dict[str, None] = {}
    stages: Sequence[GapResolver] = getattr(resolver, "stages", None) or (resolver,)
    for matched, tstep in enumerate(trace.steps):
        successors: list[Attempt] = []
        tried = 0
        match = Matcher(tstep.observation, handles, names)
        for stage in stages:  # a later stage only where the earlier ones explain nothing
            for state in frontier:
                for attempt in stage.attempts(state, tstep.action, tstep.observation, rules):
                    tried += 1
                    res = attempt.result
                    if res is not None and match(res.state, res.events):
                        successors.append(attempt)
            if successors:
                break
        if tried > len(frontier):
            gap_steps += 1
        if not successors:
            failure = _diagnose(frontier, tstep, resolver, rules)
            verdict = Verdict.UNKNOWN if truncated else Verdict.FAILED
            note = (
                "the frontier was cut at an earlier step, so a run may exist" if truncated else ""
            )
            return report(verdict, matched, failure=failure, note=note)
        if len(successors) == 1:
            res = successors[0].result
            assert res is not None
            frontier = [res.state]
        else:
            unique: dict[GameState, None] = {}
            for a in successors:
                assert a.result is not None
                unique.setdefault(a.result.state, None)
            frontier = list(unique)
            if len(frontier) > max_frontier:
                frontier = frontier[:max_frontier]
                truncated = True
        widest = max(widest, len(frontier))
        for a in successors:
            assert a.result is not None
            for e in a.result.events:
                clauses.setdefault(e.clause, None)
    return report(Verdict.PASSED, len(trace.steps), clauses=tuple(clauses))


def _shows_something(obs: Observation) -> bool:
    """Whether an observation constrains the run at all (a reported field, or the events of
    at least one kind; an empty ``event_kinds`` reports none)."""
    events = obs.events is not None and (obs.event_kinds is None or bool(obs.event_kinds))
    return events or obs.field_count() - (obs.events is not None) > 0


def _diagnose(
    frontier: Sequence[GameState], tstep: TraceStep, resolver: GapResolver, rules: Rules
) -> TraceFailure:
    """Re-run the failing step keeping everything needed to explain it."""
    best: tuple[int, Candidate] | None = None
    rejected: dict[str, None] = {}
    error_clauses: dict[str, None] = {}
    for state in frontier:
        players = state.setup.player_names
        for attempt in resolver.attempts(state, tstep.action, tstep.observation, rules):
            if attempt.result is None:
                assert attempt.error is not None
                rejected.setdefault(f"{attempt.error}", None)
                if attempt.error.clause:
                    error_clauses.setdefault(attempt.error.clause, None)
                continue
            diffs = tuple(
                compare(project(attempt.result.state, attempt.result.events), tstep.observation)
            )
            if best is None or len(diffs) < best[0]:
                cl = tuple(dict.fromkeys(e.clause for e in attempt.result.events))
                best = (len(diffs), Candidate(action_to_json(attempt.action, players), diffs, cl))
    closest = None if best is None else best[1]
    if closest is not None:
        reason = "no candidate successor matches the logged observation"
        clauses = closest.clauses
    else:
        reason = "the engine rejects every candidate action"
        clauses = tuple(error_clauses)
    return TraceFailure(
        step=tstep.index,
        reason=reason,
        logged_action=None if tstep.action is None else tstep.action.raw,
        states_before=tuple(project(s) for s in frontier[:MAX_SHOWN_STATES]),
        frontier_size=len(frontier),
        closest=closest,
        rejected=tuple(list(rejected)[:8]),
        clauses=clauses,
    )
