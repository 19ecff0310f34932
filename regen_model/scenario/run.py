"""Running a scenario on the reference engine: every event, then every expectation.

``run_scenario`` returns a typed ``ScenarioResult`` (one ``EventResult`` per event, with the
actions stepped, the events the engine emitted and each expectation's outcome) whose verdict is
PASSED only when every expectation held. An engine error the file did not announce with
``error:`` is not a failed expectation but bad input (the event cannot happen in that game), so
it is raised as a ``ScenarioError`` pointing at the event's line.

An event that fails as announced leaves the game as it was before the event, as the engine
does for a refused action; the expectations after it see that unchanged game.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from regen_model.clauses import catalog
from regen_model.engine import EngineError, step
from regen_model.model.actions import Action, PassPriority
from regen_model.model.enums import Decision, Step
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.source import FieldPath
from regen_model.scenario.spec import ErrorExpect, Expect, Probe, Scenario, ScenarioEvent, View
from regen_model.verdicts import Verdict

# pass-until gives up after this many passes (a whole turn needs about two dozen).
MAX_PASSES = 200


@dataclass(frozen=True)
class CheckResult:
    """One expectation's outcome. ``expected``/``actual`` are written as a file would."""

    what: str
    line: int
    expected: str
    actual: str
    ok: bool


@dataclass(frozen=True)
class EventResult:
    event: ScenarioEvent
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    error: str | None  # the (announced) engine error, as "Class: message [clause]"
    checks: tuple[CheckResult, ...]
    error_clause: str | None = None  # the clause the announced error cites

    @property
    def clauses(self) -> frozenset[str]:
        """Clauses this event exercised: its engine events' and its announced error's."""
        cited = {e.clause for e in self.events}
        if self.error_clause:
            cited.add(self.error_clause)
        return frozenset(cited)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


@dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    steps: tuple[EventResult, ...]
    final: tuple[CheckResult, ...]
    state: GameState
    seconds: float

    @property
    def checks(self) -> tuple[CheckResult, ...]:
        return tuple(c for s in self.steps for c in s.checks) + self.final

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(c for c in self.checks if not c.ok)

    @property
    def verdict(self) -> Verdict:
        return Verdict.FAILED if self.failures else Verdict.PASSED

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for s in self.steps for e in s.events)

    @property
    def clauses_exercised(self) -> frozenset[str]:
        return frozenset(c for s in self.steps for c in s.clauses)


def run_scenario(scenario: Scenario, rules: Rules = CORRECT) -> ScenarioResult:
    started = time.perf_counter()
    state = scenario.start
    results: list[EventResult] = []
    for ev in scenario.events:
        before = state
        actions: list[Action] = []
        emitted: list[Event] = []
        error: EngineError | None = None
        try:
            state = _play(scenario, ev, state, rules, actions, emitted)
        except EngineError as err:
            if ev.expect.error is None:
                raise _input_error(scenario, ev, err) from None
            error, state = err, before
        checks: list[CheckResult] = []
        if ev.expect.error is not None:
            checks.append(_check_error(ev.expect.error, error))
        checks.extend(_unknown_clauses(ev, emitted, error))
        checks.extend(_check(ev.expect, View(state, tuple(emitted), scenario.start)))
        results.append(
            EventResult(
                ev,
                tuple(actions),
                tuple(emitted),
                _describe_error(error),
                tuple(checks),
                None if error is None else error.clause,
            )
        )
    all_events = tuple(e for r in results for e in r.events)
    final = tuple(_check(scenario.expect, View(state, all_events, scenario.start)))
    return ScenarioResult(scenario, tuple(results), final, state, time.perf_counter() - started)


def _play(
    scenario: Scenario,
    ev: ScenarioEvent,
    state: GameState,
    rules: Rules,
    actions: list[Action],
    emitted: list[Event],
) -> GameState:
    """Step the event's actions; ``actions`` and ``emitted`` collect what happened."""
    if ev.make is not None:
        for action in ev.make(state):
            if ev.choices:
                action = dataclasses.replace(action, choices=ev.choices)
            actions.append(action)
            result = step(state, action, rules)
            state = result.state
            emitted.extend(result.events)
        return state
    assert ev.until is not None
    return _pass_until(scenario, ev, state, rules, actions, emitted)


def _pass_until(
    scenario: Scenario,
    ev: ScenarioEvent,
    state: GameState,
    rules: Rules,
    actions: list[Action],
    emitted: list[Event],
) -> GameState:
    """The pass-until macro: the player holding priority passes, with an empty stack, until
    the game is in the wanted step (of the wanted turn, by default this one or the next)."""
    assert ev.until is not None
    target, turn = ev.until.step, ev.until.turn
    path: FieldPath = ("events", ev.index, "pass-until")

    def fail(message: str) -> ScenarioError:
        return scenario.source.error(path, message)

    def arrived(s: GameState) -> bool:
        return s.step is target and (turn is None or s.turn == turn)

    if target is Step.UNTAP:
        raise fail("nobody gets priority in the untap step, so no pass can stop there (502.4)")
    if arrived(state):
        raise fail(f"the game is already in the {target.value} step")
    last_turn = turn if turn is not None else state.turn + 1
    for _ in range(MAX_PASSES):
        if state.stack:
            on_stack = ", ".join(o.name for o in reversed(state.stack))
            raise fail(f"the stack is not empty ({on_stack}); pass explicitly to let it resolve")
        if state.priority is None:
            waiting = state.decision
            if waiting is not Decision.NONE:
                raise fail(
                    f"the game waits for {waiting.value} (turn {state.turn}) before it "
                    f"can reach {target.value}; add that event first"
                )
            raise fail(f"nobody holds priority in step {state.step.value}")
        action = PassPriority(player=state.priority, choices=ev.choices)
        actions.append(action)
        result = step(state, action, rules)
        state = result.state
        emitted.extend(result.events)
        if arrived(state):
            return state
        if state.turn > last_turn:
            raise fail(
                f"step {target.value} of turn {last_turn} was never reached with anything to do "
                "(players get priority in cleanup only when something happens there, 514.3)"
            )
    raise fail(f"gave up after {MAX_PASSES} passes")


def _input_error(scenario: Scenario, ev: ScenarioEvent, err: EngineError) -> ScenarioError:
    """An engine error nobody expected: point at the event's field the error is about."""
    base: FieldPath = ("events", ev.index)
    path: FieldPath = (*base, ev.kind)
    if err.field == "choices" and ev.choices:
        path = (*base, "choices")
    elif err.field and isinstance(ev.args, dict) and err.field in ev.args:
        path = (*base, ev.kind, err.field)
    return scenario.source.error(path, str(err))


def _describe_error(err: EngineError | None) -> str | None:
    return None if err is None else f"{type(err).__name__}: {err}"


def _check_error(expected: ErrorExpect, err: EngineError | None) -> CheckResult:
    if err is None:
        return CheckResult("error", expected.line, expected.describe(), "no error", False)
    ok = (
        expected.error_class in ("EngineError", type(err).__name__)
        and (expected.message is None or expected.message.lower() in str(err).lower())
        and (expected.clause is None or expected.clause == err.clause)
        and (expected.field is None or expected.field == err.field)
    )
    actual = _describe_error(err) or ""
    if expected.field is not None:
        actual += f" (field {err.field})" if err.field else " (no field)"
    return CheckResult("error", expected.line, expected.describe(), actual, ok)


def _unknown_clauses(
    ev: ScenarioEvent, emitted: list[Event], error: EngineError | None
) -> list[CheckResult]:
    """A failed check for each label the engine cited in this event that is no catalog clause:
    its events' clauses and its refusal's (an error may cite none). Every rule the engine
    applies is labelled with the clause it implements (ARCHITECTURE.md, "Clause IDs
    everywhere"), so a label that is no clause is an engine bug; checked here, where every
    scenario runs, as well as in tests/test_clause_coverage.py, so that a run of the scenarios
    alone (the mutation screen's) meets it. Nothing is added when every label is known."""
    known = catalog()
    cited: list[str | None] = [e.clause for e in emitted]
    if error is not None and error.clause is not None:
        cited.append(error.clause)
    return [
        CheckResult("clause", ev.line, "a clause of the catalog", repr(c), False)
        for c in dict.fromkeys(cited)
        if c not in known
    ]


def _check(expect: Expect, view: View) -> list[CheckResult]:
    return [_probe(p, view) for p in expect.probes]


def _probe(p: Probe, view: View) -> CheckResult:
    actual = p.read(view)
    return CheckResult(
        p.what, p.line, p.show(p.expected), p.show(actual), p.holds(p.expected, actual)
    )
