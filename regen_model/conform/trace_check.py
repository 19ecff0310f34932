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
* UNKNOWN: the frontier outgrew its bound and was cut, so a failure may be spurious (or a
  lasso's loop did not close, below).

A trace with ``loop`` (ITF's lasso: after the last state the run goes back to state ``loop``,
forever) is checked lap after lap: the step back is an unlogged action whose successor must
match state ``loop``, then the loop's steps again. The frontier at the loop's start after a lap
is a function of the one before, so when it repeats a frontier already seen (up to the ghost
counters, which no rule reads) every further lap is explained: PASSED. A lap that cannot be
explained is FAILED; a loop that has not closed after ``MAX_LAPS`` laps is UNKNOWN.

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
from dataclasses import dataclass, field, replace
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
from regen_model.model.actions import Action
from regen_model.model.enums import Mutant
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Ghost
from regen_model.verdicts import Verdict

MAX_FRONTIER = 256
MAX_SHOWN_STATES = 3
MAX_LAPS = 16  # laps of a lasso's loop before UNKNOWN


@dataclass(frozen=True)
class Candidate:
    """The attempt that came closest to the logged observation at a failing step."""

    action: Any  # JSON form
    diffs: tuple[FieldDiff, ...]
    clauses: tuple[str, ...]
    # The step itself (for --html): where it started, what was tried, what it led to.
    step: tuple[GameState, Action, GameState, tuple[Event, ...]] | None = field(
        default=None, repr=False, compare=False
    )

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
class Explained:
    """One run of the specification that explains the log, as far as it goes (the matched
    steps; up to the failing step on a failure): what ``--html`` draws."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    events: tuple[tuple[Event, ...], ...]


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
    step_clauses: tuple[tuple[str, ...], ...] = ()  # per matched step (each successor's)
    loop: int | None = None  # the state a lasso's loop returns to
    laps: int = 0  # laps of the loop checked
    run: Explained | None = field(default=None, repr=False, compare=False)

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
            "step_clauses": [list(c) for c in self.step_clauses],
            "loop": self.loop,
            "laps": self.laps,
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
    initial = Observation(
        trace.initial.cards,
        trace.initial.players,
        game=trace.initial.game,
        graveyards=trace.initial.graveyards,
    )

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
            loop=trace.loop,
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
    step_clauses: list[tuple[str, ...]] = []
    at_loop: list[GameState] = frontier if trace.loop == 0 else []
    # For each matched step of the log, how each frontier state was reached (the first way).
    came_from: list[dict[GameState, tuple[GameState, Action, tuple[Event, ...]]]] = []

    prefix_end: list[GameState] = []  # the frontier after the last state, once reached

    def explained() -> Explained:
        """One run that explains the log up to the current frontier (the prefix's end,
        during a lasso's laps)."""
        states, actions, events = [(prefix_end or frontier)[0]], [], []
        for back in reversed(came_from):
            parent, action, evs = back[states[-1]]
            states.append(parent)
            actions.append(action)
            events.append(evs)
        return Explained(tuple(reversed(states)), tuple(reversed(actions)), tuple(reversed(events)))

    def advance(tstep: TraceStep, matched: int) -> TraceReport | None:
        """Move the frontier through one logged step; the failure report if it empties."""
        nonlocal frontier, gap_steps, widest, truncated
        successors, tried = _successors(frontier, tstep, stages, handles, names, rules)
        if tried > len(frontier):
            gap_steps += 1
        if not successors:
            failure = _diagnose(frontier, tstep, resolver, rules)
            verdict = Verdict.UNKNOWN if truncated else Verdict.FAILED
            note = (
                "the frontier was cut at an earlier step, so a run may exist" if truncated else ""
            )
            return report(
                verdict,
                matched,
                failure=failure,
                note=note,
                step_clauses=steps_so_far(),
                run=explained(),
            )
        unique: dict[GameState, None] = {}
        here: dict[str, None] = {}
        ways: dict[GameState, tuple[GameState, Action, tuple[Event, ...]]] = {}
        for parent, a in successors:
            assert a.result is not None
            unique.setdefault(a.result.state, None)
            ways.setdefault(a.result.state, (parent, a.action, a.result.events))
            for e in a.result.events:
                here.setdefault(e.clause, None)
                clauses.setdefault(e.clause, None)
        frontier = list(unique)
        if len(frontier) > max_frontier:
            frontier = frontier[:max_frontier]
            truncated = True
        widest = max(widest, len(frontier))
        step_clauses.append(tuple(here))
        if len(came_from) < len(trace.steps):
            came_from.append(ways)
        return None

    def steps_so_far() -> tuple[tuple[str, ...], ...]:
        return tuple(step_clauses[: len(trace.steps)])

    for matched, tstep in enumerate(trace.steps):
        failed = advance(tstep, matched)
        if failed is not None:
            return failed
        if tstep.index == trace.loop:
            at_loop = frontier
    prefix_end = frontier
    if trace.loop is None:
        return report(
            Verdict.PASSED,
            len(trace.steps),
            clauses=tuple(clauses),
            step_clauses=steps_so_far(),
            run=explained(),
        )
    # A lasso: the run goes on from the last state back to state ``loop``, forever. The
    # frontier at the loop's start is a function of the frontier one lap earlier, so once it
    # repeats every later lap is explained too (and each lap was); until then, lap again.
    back = _back_edge(trace)
    seen = [_lap_key(at_loop, rules)]
    body = trace.steps[trace.loop :]
    for lap in range(1, MAX_LAPS + 1):
        failed = advance(back, len(trace.steps))
        if failed is None:
            key = _lap_key(frontier, rules)
            if key in seen:
                note = f"the loop back to state {trace.loop} closes after {lap} lap(s)" + (
                    ", but the frontier was cut, so a lap may be explained only by states "
                    "that were dropped"
                    if truncated
                    else ": every repetition of it is explained"
                )
                return report(
                    Verdict.UNKNOWN if truncated else Verdict.PASSED,
                    len(trace.steps),
                    clauses=tuple(clauses),
                    note=note,
                    step_clauses=steps_so_far(),
                    laps=lap,
                    run=explained(),
                )
            seen.append(key)
            for tstep in body:
                failed = advance(tstep, len(trace.steps))
                if failed is not None:
                    break
        if failed is not None:
            lap_note = f"lap {lap} of the loop back to state {trace.loop}: "
            return replace(failed, note=lap_note + (failed.note or "the lap is not explained"))
    return report(
        Verdict.UNKNOWN,
        len(trace.steps),
        clauses=tuple(clauses),
        note=f"the loop back to state {trace.loop} did not close within {MAX_LAPS} laps "
        "(the specification's state keeps changing where the log does not look"
        + ("; the frontier was cut)" if truncated else ")"),
        step_clauses=steps_so_far(),
        laps=MAX_LAPS,
        run=explained(),
    )


def _successors(
    frontier: Sequence[GameState],
    tstep: TraceStep,
    stages: Sequence[GapResolver],
    handles: tuple[str, ...],
    names: tuple[str, ...],
    rules: Rules,
) -> tuple[list[tuple[GameState, Attempt]], int]:
    """The attempts from the frontier whose successor matches the step's observation (with
    the frontier state each starts from), and how many attempts were tried. A later stage is
    asked only where the earlier ones explain nothing."""
    successors: list[tuple[GameState, Attempt]] = []
    tried = 0
    match = Matcher(tstep.observation, handles, names)
    for stage in stages:
        for state in frontier:
            for attempt in stage.attempts(state, tstep.action, tstep.observation, rules):
                tried += 1
                res = attempt.result
                if res is not None and match(res.state, res.events):
                    successors.append((state, attempt))
        if successors:
            break
    return successors, tried


def _back_edge(trace: Trace) -> TraceStep:
    """The step from the last state back to state ``loop``: its action is
    ``#meta.loop_action`` or unlogged (ITF keeps one action per state, the one that led to
    it the first time) and its events are unobserved."""
    assert trace.loop is not None
    target = trace.initial if trace.loop == 0 else trace.steps[trace.loop - 1].observation
    return TraceStep(trace.loop, trace.loop_action, replace(target, events=None))


def _lap_key(frontier: Sequence[GameState], rules: Rules) -> frozenset[GameState]:
    """The frontier up to the ghost counters, which are invariants' bookkeeping (they count
    destructions and shields and so never repeat in a loop): no rule reads them, except the
    static-regeneration mutant, which reads whether static regeneration was used."""
    keep = rules.has(Mutant.STATIC_REGEN_USED_UP)
    return frozenset(
        s._replace(
            cards=tuple(
                c._replace(ghost=Ghost(by_static=min(c.ghost.by_static, 1) if keep else 0))
                for c in s.cards
            )
        )
        for s in frontier
    )


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
                taken = (state, attempt.action, attempt.result.state, attempt.result.events)
                best = (
                    len(diffs),
                    Candidate(action_to_json(attempt.action, players), diffs, cl, taken),
                )
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
