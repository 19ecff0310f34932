"""Explicit-state breadth-first search over the engine: every state reachable within a
bounded scope and depth, every invariant checked on every state and every step.

This is TLC's algorithm on our engine, and it gives the same two guarantees:

* **Shortest counterexamples.** States are expanded level by level in a deterministic order,
  so the first violation found for an invariant has the fewest steps of any (for one worker,
  as in TLC). With ``stop_at_first=False`` the search goes on and keeps the first (shortest)
  violation of *each* invariant, which is what the mutant matrix needs.
* **A proof within the scope that does not depend on Z3.** If no violation is found, every
  state reachable from the starts in at most ``depth`` steps, through actions whose
  parameters lie in the scope's domains, satisfies every invariant: verdict PROVED for that
  bounded scope. ``exhausted`` says whether the frontier emptied before the depth bound
  (then the bound was not needed: the whole space within the scope was seen).

The engine is the transition relation: the candidates of ``enumerate_actions`` that it
accepts are the enabled actions; any exception other than ``EngineError`` is itself a
violation (``engine.total``), since the engine must either refuse an action or perform it.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from regen_model.encoding.scope import Scope
from regen_model.engine import EngineError, StepResult, step
from regen_model.explore.actions import ActionFamily, enumerate_actions
from regen_model.explore.monitor import Finding, Monitor
from regen_model.explore.reuse import Outcome, Recorded, Transitions
from regen_model.explore.space import fits, terminal, view
from regen_model.explore.starts import StartSpec, start_states
from regen_model.explore.trace import Trace, replay
from regen_model.interrupts import signal_name
from regen_model.model.actions import Action
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.verdicts import Verdict

ENGINE_TOTAL = "engine.total"  # the engine refused or performed every action (no crash)
PROGRESS_EVERY = 512  # states expanded between two progress reports within a level

# Exploration scope defaults: small amounts keep the effects family's branching manageable.
EXPLORE_SCOPE = Scope(cards=4, shields=2, stack=1, pending=1, targets=1, max_amount=2)


@dataclass(frozen=True)
class ExploreConfig:
    """One bounded exploration: where it starts, which actions, how deep, which rules."""

    start: StartSpec
    scope: Scope = EXPLORE_SCOPE
    depth: int = 2
    family: ActionFamily = ActionFamily.EFFECTS
    spells: tuple[str, ...] | None = None
    kinds: frozenset[str] | None = None
    rules: Rules = CORRECT
    stop_at_first: bool = True
    max_states: int | None = None  # a budget: beyond it the verdict is UNKNOWN

    def describe(self) -> str:
        spells = "all" if self.spells is None else ", ".join(self.spells) or "none"
        kinds = "" if self.kinds is None else f" of kinds {', '.join(sorted(self.kinds))}"
        return (
            f"{self.start.describe()}; {self.family.value} actions{kinds} (spells: {spells}); "
            f"depth {self.depth}; {self.scope.describe()}; rules {self.rules.name}"
        )


@dataclass(frozen=True)
class Counterexample:
    """The shortest violation found of one invariant."""

    invariant: str
    message: str
    trace: Trace

    @property
    def length(self) -> int:
        return len(self.trace.steps)


@dataclass
class Progress:
    """Counters reported while the search runs (and kept in the result)."""

    depth: int = 0
    states: int = 0
    transitions: int = 0
    candidates: int = 0
    pruned: int = 0
    frontier: int = 0
    levels: list[int] = field(default_factory=list)  # states first found at each depth


@dataclass(frozen=True)
class ExploreResult:
    config: ExploreConfig
    verdict: Verdict
    starts: int
    progress: Progress
    exhausted: bool
    seconds: float
    invariants: tuple[str, ...]
    violations: dict[str, Counterexample]
    reason: str = ""
    interrupted: str = ""  # "SIGINT"/"SIGTERM" when stopped early: what was seen so far
    as_recorded: bool = False  # a mutant's search found to be the recorded one (reuse.py)

    @property
    def states(self) -> int:
        return self.progress.states

    @property
    def shortest(self) -> Counterexample | None:
        if not self.violations:
            return None
        return min(self.violations.values(), key=lambda c: c.length)


class _Node(NamedTuple):
    state: GameState
    parent: GameState | None  # the parent's view (None for a start)
    action: Action | None  # the action from the parent


ProgressHook = Callable[[Progress], None]


def explore(
    config: ExploreConfig,
    monitor: Monitor,
    *,
    on_progress: ProgressHook | None = None,
    stop_when: Callable[[Collection[str]], bool] | None = None,
    record: Transitions | None = None,
    reuse: Transitions | None = None,
) -> ExploreResult:
    """Breadth-first search of ``config`` checking ``monitor`` (see the module docstring).
    ``stop_when(found)`` ends the search early once it holds of the invariants found so
    far (their shortest counterexamples are kept). ``record`` (under the correct rules)
    keeps every step's outcome, and ``reuse`` takes those of a recorded search where the
    rules' mutants cannot change them (``reuse.py``)."""
    if record is not None and config.rules != CORRECT:
        raise ValueError("only a search under the correct rules can be recorded")
    if reuse is not None and reuse.search != reuse_key(config):
        raise ValueError(
            "a recorded search is reused only by a search of the same starts and actions"
        )
    started = time.perf_counter()
    search = _Search(config, monitor, on_progress, stop_when, record, reuse)
    starts = reuse.starts if reuse is not None else start_states(config.start, config.scope)
    if record is not None:
        record.search = reuse_key(config)
        record.starts = tuple(starts)
    try:
        if reuse is not None and on_progress is None and stop_when is None:
            same = search.as_recorded(reuse)
            if same is not None:
                return same(time.perf_counter() - started)
        search.run(starts)
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: the states seen so far, no verdict
        search.interrupted = signal_name(stop)
    result = search.result(len(starts), time.perf_counter() - started)
    if record is not None:
        record.result = Recorded(
            config.depth,
            config.max_states,
            clean=not (search.found or search.over_budget or search.interrupted),
            exhausted=result.exhausted,
            starts=len(starts),
            progress=copy.deepcopy(result.progress),
        )
    return result


def reuse_key(config: ExploreConfig) -> tuple[object, ...]:
    """What a recorded search and one reusing it must share: the starts and the candidate
    actions (not the rules, the depth or the budgets)."""
    return (config.start, config.scope, config.family, config.spells, config.kinds)


class _Search:
    def __init__(
        self,
        config: ExploreConfig,
        monitor: Monitor,
        hook: ProgressHook | None,
        stop_when: Callable[[Collection[str]], bool] | None = None,
        record: Transitions | None = None,
        reuse: Transitions | None = None,
    ):
        self.config = config
        self.stop_when = stop_when
        self.record = record
        self.reuse = reuse
        self.rules = record.rules if record is not None else config.rules
        self.monitor = monitor
        self.hook = hook
        self.nodes: dict[GameState, _Node] = {}
        self.progress = Progress()
        # invariant -> (finding, view of the state it was found in or stepped from, action)
        self.found: dict[str, tuple[Finding, GameState, Action | None]] = {}
        self.exhausted = False
        self.over_budget = False
        self.interrupted = ""  # the signal that stopped the search (regen_model.interrupts)
        # steps already run under these rules (by ``as_recorded``), for the walk to take
        self.known: dict[tuple[GameState, Action], Outcome] = {}

    def as_recorded(self, reuse: Transitions) -> Callable[[float], ExploreResult] | None:
        """When this search (under a mutant) is the recorded one, a maker of its result
        (given the seconds taken); else None. It is when the record ended cleanly with the
        same bounds and every step the mutant may change has, under it, the recorded
        successor and no finding (``reuse.py``). Stops at the first step that differs,
        keeping what it ran for the walk that must follow."""
        done = reuse.result
        cfg = self.config
        if done is None or not done.clean:
            return None
        if (done.depth, done.max_states) != (cfg.depth, cfg.max_states):
            return None
        for state, action, recorded in reuse.changeable(cfg.rules.mutants):
            outcome = self._run(state, action)
            self.known[(state, action)] = outcome
            if outcome.findings or outcome.successor != recorded.successor:
                return None
        progress = copy.deepcopy(done.progress)

        def made(seconds: float) -> ExploreResult:
            return ExploreResult(
                config=cfg,
                verdict=Verdict.PROVED,
                starts=done.starts,
                progress=progress,
                exhausted=done.exhausted,
                seconds=seconds,
                invariants=tuple(self.monitor.invariants),
                violations={},
                as_recorded=True,
            )

        return made

    def run(self, starts: Sequence[GameState]) -> None:
        frontier: list[GameState] = []
        for state in starts:
            key = view(state)
            if key in self.nodes:
                continue
            self.nodes[key] = _Node(state, None, None)
            self._record(self._check_state(state), key, None)
            if fits(state, self.config.scope) and not terminal(state):
                frontier.append(key)
        self.progress.states = len(self.nodes)
        self.progress.levels.append(len(self.nodes))
        for depth in range(self.config.depth):
            if self._done() or not frontier:
                break
            self.progress.depth = depth + 1
            self.progress.frontier = len(frontier)
            known = len(self.nodes)
            frontier = self._expand(frontier)
            self.progress.levels.append(len(self.nodes) - known)
            if self.hook is not None:
                self.hook(self.progress)
        self.exhausted = not frontier and not self.over_budget

    def _done(self) -> bool:
        if self.over_budget:
            return True
        if self.stop_when is not None and self.stop_when(self.found.keys()):
            return True
        return self.config.stop_at_first and bool(self.found)

    def _expand(self, frontier: list[GameState]) -> list[GameState]:
        """One level: every enabled action of every frontier state; returns the new states
        to expand at the next level."""
        cfg = self.config
        nodes = self.nodes
        following: list[GameState] = []
        expanded = 0
        for key in frontier:
            state = nodes[key].state
            for action in self._actions(state):
                self.progress.candidates += 1
                outcome = self._step(state, action)
                self._record(list(outcome.findings), key, action)
                result = outcome.successor
                if result is None:
                    continue
                self.progress.transitions += 1
                succ = view(result)
                if succ in nodes:
                    continue
                nodes[succ] = _Node(result, key, action)
                self._record(self._check_state(result), succ, None)
                if fits(result, cfg.scope) and not terminal(result):
                    following.append(succ)
                else:
                    self.progress.pruned += 1
                if cfg.max_states is not None and len(nodes) >= cfg.max_states:
                    self.over_budget = True
            self.progress.states = len(nodes)
            expanded += 1
            if self.hook is not None and expanded % PROGRESS_EVERY == 0:
                self.hook(self.progress)
            if self._done():
                break
        return following

    def _actions(self, state: GameState) -> tuple[Action, ...]:
        if self.reuse is not None:
            known = self.reuse.actions.get(state)
            if known is not None:
                return known
        cfg = self.config
        actions = tuple(
            enumerate_actions(
                state, cfg.scope, family=cfg.family, spells=cfg.spells, kinds=cfg.kinds
            )
        )
        if self.record is not None:
            self.record.actions[state] = actions
        return actions

    def _step(self, state: GameState, action: Action) -> Outcome:
        """The engine's step and the monitor's findings on it (recorded, or reused where the
        rules' mutants were not asked about)."""
        if self.reuse is not None:
            known = self.reuse.steps.get((state, action))
            if known is not None and not (known.asked & self.config.rules.mutants):
                return known
            ran = self.known.get((state, action))
            if ran is not None:
                return ran
        outcome = self._run(state, action)
        if self.record is not None:
            self.record.steps[(state, action)] = outcome
        return outcome

    def _run(self, state: GameState, action: Action) -> Outcome:
        """The engine's step under this search's rules and the monitor's findings on it."""
        if self.record is not None:
            self.record.asked.questions.clear()
        findings: tuple[Finding, ...] = ()
        successor: GameState | None = None
        try:
            result = step(state, action, self.rules)
        except EngineError:
            pass
        except Exception as crash:  # a crash is a finding, not the end of the search
            findings = (Finding(ENGINE_TOTAL, f"{type(crash).__name__}: {crash}"),)
        else:
            findings = tuple(self.monitor.check_step(state, action, result))
            successor = result.state
        asked = frozenset(self.record.asked.questions) if self.record is not None else frozenset()
        return Outcome(successor, findings, asked)

    def _check_state(self, state: GameState) -> list[Finding]:
        if self.reuse is not None:
            known = self.reuse.states.get(state)
            if known is not None:
                return list(known)
        findings = self.monitor.check_state(state)
        if self.record is not None:
            self.record.states[state] = tuple(findings)
        return findings

    def _record(self, findings: list[Finding], parent: GameState, action: Action | None) -> None:
        for f in findings:
            if f.invariant not in self.found:
                self.found[f.invariant] = (f, parent, action)

    def _path(self, key: GameState) -> tuple[GameState, list[Action]]:
        actions: list[Action] = []
        node = self.nodes[key]
        while node.parent is not None:
            assert node.action is not None
            actions.append(node.action)
            node = self.nodes[node.parent]
        actions.reverse()
        return node.state, actions

    def result(self, starts: int, seconds: float) -> ExploreResult:
        cfg = self.config
        violations: dict[str, Counterexample] = {}
        for name, (finding, parent, action) in self.found.items():
            start, actions = self._path(parent)
            if action is not None:
                actions.append(action)
            violations[name] = Counterexample(
                name, finding.message, replay(start, actions, cfg.rules)
            )
        order = list(self.monitor.invariants)
        extra = sorted(n for n in violations if n not in order)
        invariants = (*order, *extra)
        reason = ""
        if violations:
            verdict = Verdict.VIOLATED
        elif self.interrupted:
            verdict = Verdict.UNKNOWN
            reason = f"interrupted by {self.interrupted} at depth {self.progress.depth}"
        elif self.over_budget:
            verdict = Verdict.UNKNOWN
            reason = f"state budget of {cfg.max_states} reached before depth {cfg.depth}"
        else:
            verdict = Verdict.PROVED
        return ExploreResult(
            config=cfg,
            verdict=verdict,
            starts=starts,
            progress=self.progress,
            exhausted=self.exhausted,
            seconds=seconds,
            invariants=invariants,
            violations=dict(sorted(violations.items(), key=lambda kv: invariants.index(kv[0]))),
            reason=reason,
            interrupted=self.interrupted,
        )


def check_trace(trace: Trace, monitor: Monitor) -> list[Finding]:
    """Every finding of ``monitor`` along ``trace`` (used to confirm a counterexample)."""
    found = list(monitor.check_state(trace.start))
    pre = trace.start
    for s in trace.steps:
        if s.error is not None:
            found.append(Finding(ENGINE_TOTAL, s.error))
            break
        found.extend(monitor.check_step(pre, s.action, StepResult(s.state, s.events)))
        found.extend(monitor.check_state(s.state))
        pre = s.state
    return found
