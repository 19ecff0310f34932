"""A differential case: a start and a list of actions, run on two engines side by side.

``run_case`` drives the reference engine and an adapter in lock step and compares their
observations after every action. Actions the reference rejects are skipped (not sent to the
engine under test): generated and shrunk scenarios keep going past actions that became
illegal. With ``probe_refusals`` the ones a rule refuses (``IllegalAction``) are sent, and the
engine must refuse them too: an engine that accepts an action the rules refuse (a tapped
creature paying {T} again) diverges there, with the reference's reason for the refusal. A
refusal changes nothing, so the comparison after the next action checks that the engine left
its state alone. Each action reaches the adapter with what the step did at the
specification's level (``adapter.SpecStep``, for adapters that follow the specification's
step structure). The first differing observation ends the case with a ``Divergence``: later
steps start from different states and would only repeat the news. With a known-divergence classifier (``known.py``), a
divergence it explains does not end the case: the engine is resynchronised to the
specification's state (``adapter.resync``) and the comparison goes on, or, for an engine that
cannot resync, the rest of the case is *masked* (not sent, not compared, and counted).

Cases are stored as ITF traces of the reference run (``to_trace``/``case_from_trace``), so a
saved case is at the same time a reproducible scenario for ``crosscheck --case`` and a trace
that ``check-trace`` accepts. The actions the reference refuses are not steps of that run; the
trace keeps them in its meta (``refused``: each with the number of steps before it), so a case
read back is the case written.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from regen_model.conform import itf
from regen_model.conform.adapter import (
    ActionRejected,
    EngineAdapter,
    SpecStep,
    StepUnsupported,
    apply_step,
    resync,
)
from regen_model.conform.codec import action_to_json
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.observe import FieldDiff, Observation, compare, project
from regen_model.conform.start import Start
from regen_model.engine import EngineError, step
from regen_model.engine.errors import IllegalAction
from regen_model.model.actions import Action
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.verdicts import Verdict

# IDs of the known-divergence entries that explain a divergence entirely, or None (``known.py``).
KnownClassifier = Callable[["Divergence"], tuple[str, ...] | None]


@dataclass(frozen=True)
class Case:
    name: str
    start: Start
    actions: tuple[Action, ...]
    origin: str = ""  # where it came from: "witness:regen.static", "random:seed=7#12", a file
    clauses: tuple[str, ...] = ()  # clauses it is meant to exercise (witnesses)


class Outcome(StrEnum):
    PASSED = "passed"
    KNOWN = "known"  # diverged only in ways a known-divergence list explains
    DIVERGED = "diverged"
    SKIPPED = "skipped"
    ENGINE_ERROR = "engine-error"


OUTCOME_VERDICT = {
    Outcome.PASSED: Verdict.PASSED,
    # A run given a known-divergence list accepts those divergences: what it reports as
    # DIVERGED is what the list does not explain (the known ones are counted apart).
    Outcome.KNOWN: Verdict.PASSED,
    Outcome.DIVERGED: Verdict.DIVERGED,
    Outcome.SKIPPED: Verdict.SKIPPED,
    Outcome.ENGINE_ERROR: Verdict.DIVERGED,
}


@dataclass(frozen=True)
class Divergence:
    """The first step at which the engine under test disagreed with the specification."""

    step: int  # 1-based among the actions actually run; 0 = the start state
    action: Any  # JSON form, or None for the start
    diffs: tuple[FieldDiff, ...]
    clauses: tuple[str, ...]  # clause IDs of the reference's events at that step
    expected: Observation
    observed: Observation | None  # None when the engine rejected the action
    rejected: str = ""  # the engine's error when it rejected a legal action
    accepted: str = ""  # the reference's refusal of an action the engine accepted (probing)

    def summary(self) -> str:
        if self.rejected:
            return f"engine rejected a legal action: {self.rejected}"
        if self.accepted:
            return f"engine accepted an action the rules refuse ({self.accepted})"
        return "; ".join(d.describe() for d in self.diffs[:3]) + (
            f" (+{len(self.diffs) - 3} more)" if len(self.diffs) > 3 else ""
        )

    def signature(self) -> tuple[str, ...]:
        """What kind of divergence this is, for grouping: the action kind and the names of
        the differing fields (without card handles)."""
        kind = self.action.get("kind", "?") if isinstance(self.action, dict) else "start"
        if self.accepted:
            return (kind, "accepted")
        fields = sorted({d.path.rsplit(".", 1)[-1] for d in self.diffs}) or ["rejected"]
        return (kind, *fields)

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "action": self.action,
            "diffs": [d.to_json() for d in self.diffs],
            "clauses": list(self.clauses),
            "rejected": self.rejected,
            "accepted": self.accepted,
            "expected": self.expected.to_json(),
            "observed": None if self.observed is None else self.observed.to_json(),
        }


@dataclass(frozen=True)
class CaseResult:
    case: Case
    outcome: Outcome
    steps_run: int = 0
    skipped_actions: int = 0
    fields_compared: int = 0
    divergence: Divergence | None = None
    reason: str = ""
    elapsed: float = 0.0
    observed: tuple[Observation, ...] = field(default=(), repr=False)
    known: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (step, entry IDs) passed over
    masked: int = 0  # steps not compared after a known divergence the engine could not resync
    probed: int = 0  # actions the rules refuse that were sent and that the engine refused too

    @property
    def verdict(self) -> Verdict:
        return OUTCOME_VERDICT[self.outcome]


class _KnownTracker:
    """The known divergences met in one case, and whether the rest of it is masked."""

    def __init__(self, known: KnownClassifier | None, adapter: EngineAdapter) -> None:
        self.known = known
        self.adapter = adapter
        self.found: list[tuple[int, tuple[str, ...]]] = []
        self.masked = False

    def absorb(self, d: Divergence, state: GameState) -> bool:
        """``True`` if ``d`` is known and the case goes on (resynchronised or masked)."""
        ids = None if self.known is None else self.known(d)
        if ids is None:
            return False
        self.found.append((d.step, ids))
        if not resync(self.adapter, state):
            self.masked = True
        return True


def run_case(
    case: Case,
    adapter: EngineAdapter,
    rules: Rules = CORRECT,
    *,
    record: bool = False,
    known: KnownClassifier | None = None,
    probe_refusals: bool = False,
) -> CaseResult:
    """Run ``case`` on the reference (under ``rules``) and on ``adapter``.

    ``EngineFailure`` from the adapter propagates: the caller restarts the engine. With
    ``record``, the engine's observations are kept (to write the engine's own trace). With
    ``known``, divergences it explains are passed over (module docstring). With
    ``probe_refusals``, the actions the reference refuses are sent too, and must be refused.
    """
    t0 = time.perf_counter()
    state = case.start.build()
    unsupported = adapter.supports(state, case.actions)
    if unsupported is not None:
        return CaseResult(case, Outcome.SKIPPED, reason=unsupported.reason)
    players = state.setup.player_names
    adapter.start(state)
    observed = adapter.observe()
    seen: list[Observation] = [observed] if record else []
    expected = project(state)
    start_obs = Observation(
        observed.cards,
        observed.players,
        None,
        observed.event_kinds,
        observed.game,
        observed.graveyards,
    )
    fields = start_obs.field_count()
    tracker = _KnownTracker(known, adapter)
    diffs = compare(expected, start_obs)
    if diffs:
        div = Divergence(0, None, tuple(diffs), (), expected, observed)
        if not tracker.absorb(div, state):
            return CaseResult(case, Outcome.DIVERGED, 0, 0, fields, div, elapsed=_since(t0))
    run = skipped = masked = probed = 0

    def diverged(div: Divergence) -> CaseResult:
        return CaseResult(
            case,
            Outcome.DIVERGED,
            run,
            skipped,
            fields,
            div,
            elapsed=_since(t0),
            observed=tuple(seen),
            known=tuple(tracker.found),
            masked=masked,
            probed=probed,
        )

    for action in case.actions:
        try:
            res = step(state, action, rules)
        except EngineError as refusal:
            skipped += 1
            # only a rule's refusal is probed: an unknown name or a missing choice says
            # nothing about the rules an engine enforces
            if not probe_refusals or tracker.masked or not isinstance(refusal, IllegalAction):
                continue
            refused, accepted = _probe(adapter, state, action, refusal, run + 1, players)
            probed += refused
            if accepted is not None and not tracker.absorb(accepted, state):
                return diverged(accepted)
            continue
        run += 1
        if tracker.masked:
            masked += 1
            state = res.state
            continue
        expected = project(res.state, res.events)
        clauses = tuple(dict.fromkeys(e.clause for e in res.events))
        try:
            apply_step(adapter, action, SpecStep.of(res.state, res.events))
        except StepUnsupported as exc:
            reason = f"step {run} ({action.kind}): {exc}"
            return CaseResult(case, Outcome.SKIPPED, run, skipped, fields, reason=reason)
        except ActionRejected as exc:
            div = Divergence(
                run, action_to_json(action, players), (), clauses, expected, None, exc.message
            )
            if tracker.absorb(div, res.state):
                state = res.state
                continue
            return diverged(div)
        observed = adapter.observe()
        if record:
            seen.append(observed)
        fields += observed.field_count()
        diffs = compare(expected, observed)
        if diffs:
            div = Divergence(
                run, action_to_json(action, players), tuple(diffs), clauses, expected, observed
            )
            if not tracker.absorb(div, res.state):
                return diverged(div)
        state = res.state
    return CaseResult(
        case,
        Outcome.KNOWN if tracker.found else Outcome.PASSED,
        run,
        skipped,
        fields,
        elapsed=_since(t0),
        observed=tuple(seen),
        known=tuple(tracker.found),
        masked=masked,
        probed=probed,
    )


def _probe(
    adapter: EngineAdapter,
    state: GameState,
    action: Action,
    refusal: EngineError,
    step_no: int,
    players: tuple[str, ...],
) -> tuple[bool, Divergence | None]:
    """Send ``action``, which the rules refuse in ``state`` (``refusal``), to the engine:
    ``(True, None)`` if it refuses too, ``(False, None)`` if it cannot express the action
    (nothing to compare), else ``(False, the divergence)``, with what the engine did instead
    of nothing."""
    expected = project(state)
    try:
        apply_step(adapter, action, SpecStep.of(state, ()))
    except ActionRejected:
        return True, None
    except StepUnsupported:
        return False, None
    observed = adapter.observe()
    why = f"{type(refusal).__name__}: {refusal}"  # str() ends with the clause, if any
    clauses = (refusal.clause,) if refusal.clause else ()
    diffs = tuple(compare(expected, observed))
    json_action = action_to_json(action, players)
    return False, Divergence(step_no, json_action, diffs, clauses, expected, observed, accepted=why)


def _since(t0: float) -> float:
    return time.perf_counter() - t0


@dataclass(frozen=True)
class ReferenceRun:
    """The reference engine's run of a case: ``states[0]`` is the start, ``actions[i]``
    (a legal one) with ``events[i]`` leads to ``states[i + 1]``."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    events: tuple[tuple[Event, ...], ...]
    refused: tuple[tuple[int, Action], ...] = ()  # (legal actions before it, the action)


def reference_run(case: Case, rules: Rules = CORRECT) -> ReferenceRun:
    """Run the case on the reference engine; actions the rules reject are skipped, as
    ``run_case`` does, and listed in ``refused``."""
    state = case.start.build()
    states: list[GameState] = [state]
    actions: list[Action] = []
    events: list[tuple[Event, ...]] = []
    refused: list[tuple[int, Action]] = []
    for action in case.actions:
        try:
            result = step(state, action, rules)
        except EngineError:
            refused.append((len(actions), action))
            continue
        state = result.state
        states.append(state)
        actions.append(action)
        events.append(result.events)
    return ReferenceRun(tuple(states), tuple(actions), tuple(events), tuple(refused))


def legal_actions(case: Case, rules: Rules = CORRECT) -> tuple[Action, ...]:
    """The case's actions that the reference accepts in sequence (the others are skipped)."""
    return reference_run(case, rules).actions


# --- storage as ITF traces -------------------------------------------------------------------------


def to_trace(
    case: Case,
    rules: Rules = CORRECT,
    observed: tuple[Observation, ...] | None = None,
    extra_meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The case as an ITF trace: the reference's observations (or ``observed``: what another
    engine reported, aligned with the legal actions) after each legal action."""
    run = reference_run(case, rules)
    initial = project(run.states[0])
    steps: list[tuple[Action | None, Observation]] = [
        (action, project(state, events))
        for action, state, events in zip(run.actions, run.states[1:], run.events, strict=True)
    ]
    if observed is not None:
        initial = observed[0]
        steps = [(a, o) for (a, _), o in zip(steps, observed[1:], strict=False)]
    meta: dict[str, Any] = {"case": case.name, "origin": case.origin}
    if case.clauses:
        meta["clauses"] = list(case.clauses)
    if run.refused:
        names = case.start.players
        meta["refused"] = [{"after": k, "action": action_to_json(a, names)} for k, a in run.refused]
    if extra_meta:
        meta.update(extra_meta)
    return itf.trace_to_json(case.start, initial, steps, source="regen-model", extra_meta=meta)


def case_from_trace(trace: itf.Trace) -> Case:
    """A replayable case from a trace whose actions are all fully logged."""
    actions = []
    for s in trace.steps:
        if s.action is None:
            raise FormatError(trace.file, 0, 0, f"states[{s.index}]", "a case needs every action")
        try:
            actions.append(s.action.cls(**s.action.fields))
        except TypeError:
            node = s.action.node
            if node is not None:
                raise node.error(
                    "a case needs fully logged actions (no missing choice fields)"
                ).located() from None
            raise
    for k, logged in reversed(trace.refused):  # from the end: each count is of legal steps
        try:
            actions.insert(k, logged.cls(**logged.fields))
        except TypeError:
            assert logged.node is not None
            raise logged.node.error("a refused action must be fully logged").located() from None
    name = str(trace.meta.get("case") or Path(trace.file).name.split(".")[0])
    clauses = tuple(str(c) for c in trace.meta.get("clauses", []) if isinstance(c, str))
    return Case(name, trace.start, tuple(actions), f"file:{trace.file}", clauses)


def read_case(path: Path) -> Case:
    return case_from_trace(itf.read_trace(path))
