"""The mutant matrix: for each mutant and each invariant, is the mutant killed, and by what.

A proof that cannot fail proves nothing, so every invariant of the catalog must be broken by
at least one deliberately wrong rule variant, and every variant must be caught by at least
one invariant or scenario. This module runs each mutant through the available routes:

* **explore**: the explicit-state battery (``battery.py``) with the invariant catalog checked
  on every state and step; a kill is a shortest counterexample (its length and scope).
* **proof**: the proof engine of ``regen_model.checks``, when a ``ProofRoute`` is given; a
  kill is a VIOLATED verdict with its trace length.
* **scenario**: the scenario files that fail under the mutant (``scenarios.py``).

The correct rules go through the same battery first (the *baseline*): a violation there is a
real counterexample to the rules, reported as VIOLATED, and would make kills meaningless.
Survivors (a mutant nothing catches, an invariant no mutant breaks) make the verdict FAILED.
Mutants are independent, so they may run in parallel worker processes (``jobs``).

The baseline also records, for every step of its searches, the outcome and which mutants the
engine *asked about* while computing it (``explore.reuse``: a mutant is a flag the rule code
consults where it would act differently). A step that never asked about a mutant has the same
outcome under it, so a mutant's search runs the engine and the monitor only on the steps
that asked (and on states the correct rules never reach), and takes the rest from the
record: the same search, step for step. A scope where the baseline never asked about the
mutant at all, and found nothing, is not searched again (every step would be reused); its
states are counted from the baseline's.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from regen_model.explore import explore
from regen_model.explore.bfs import ENGINE_TOTAL
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.reuse import Transitions
from regen_model.explore.trace import describe_action
from regen_model.invariants import Invariant, load
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.mutants.battery import BATTERY, BatteryScope
from regen_model.mutants.scenarios import (
    ScenarioKill,
    default_roots,
    load_suite,
    roots_key,
    scenario_kills,
)
from regen_model.verdicts import Verdict


class Route(StrEnum):
    EXPLORE = "explore"
    PROOF = "proof"


@dataclass(frozen=True)
class Kill:
    """An invariant broken under a mutant: by which route, with how long a trace, where."""

    invariant: str
    route: Route
    length: int
    where: str  # battery scope, or proof method
    actions: tuple[str, ...] = ()  # the counterexample's actions (explore route)

    def describe(self) -> str:
        return (
            f"{self.route.value}:{self.where} ({self.length} step{'s' if self.length != 1 else ''})"
        )


@dataclass(frozen=True)
class RulesResult:
    """Everything one rule set (a mutant, or the correct rules) was caught by. ``searched``
    is, per battery scope, how many states its search visited and (for the baseline) which
    mutants the engine consulted there."""

    rules: str
    kills: tuple[Kill, ...]
    scenarios: tuple[ScenarioKill, ...]
    states: int
    seconds: float
    searched: tuple[tuple[str, int, frozenset[Mutant], bool], ...] = ()  # + found anything

    def kill(self, invariant: str) -> Kill | None:
        for k in self.kills:
            if k.invariant == invariant:
                return k
        return None

    @property
    def killed(self) -> bool:
        return bool(self.kills or self.scenarios)


class ProofRoute(Protocol):
    """The proof engine as the matrix uses it: the shortest violations it finds, per
    invariant, under ``rules``. A route is sent to the worker processes, so it must be
    picklable (build solvers inside ``kills``, not in the constructor)."""

    @property
    def name(self) -> str: ...

    def kills(self, rules: Rules, invariants: Sequence[Invariant]) -> list[Kill]: ...


@dataclass(frozen=True)
class Matrix:
    invariants: tuple[str, ...]
    baseline: RulesResult
    rows: tuple[RulesResult, ...]
    excluded_scenarios: tuple[ScenarioKill, ...]
    routes: tuple[str, ...]
    battery: tuple[str, ...]
    seconds: float
    complete: bool = True  # every mutant was run (else unkilled invariants are not failures)

    @property
    def surviving_mutants(self) -> list[str]:
        return [r.rules for r in self.rows if not r.killed]

    @property
    def unkilled_invariants(self) -> list[str]:
        return [i for i in self.invariants if not any(r.kill(i) for r in self.rows)]

    @property
    def verdict(self) -> Verdict:
        if self.baseline.kills:
            return Verdict.VIOLATED
        if self.surviving_mutants or (self.complete and self.unkilled_invariants):
            return Verdict.FAILED
        return Verdict.PASSED

    def killers(self, invariant: str) -> list[tuple[str, Kill]]:
        """The mutants that break ``invariant``, with their kill."""
        out = []
        for r in self.rows:
            k = r.kill(invariant)
            if k is not None:
                out.append((r.rules, k))
        return out


@dataclass(frozen=True)
class _Job:
    rules: Rules
    battery: tuple[BatteryScope, ...]
    invariant_files: tuple[Path, ...]
    roots: tuple[Path, ...]
    proof: ProofRoute | None = None
    same_as_baseline: tuple[tuple[str, int], ...] = ()  # scopes not searched: (name, states)


def run_rules(
    job: _Job,
    references: Mapping[str, Transitions] | None = None,
    record: dict[str, Transitions] | None = None,
) -> RulesResult:
    """One row of the matrix: the battery, the proof route and the scenarios under
    ``job.rules``. ``record`` (for the correct rules) receives each scope's
    ``Transitions``; ``references`` are the baseline's, reused by a mutant's searches."""
    started = time.perf_counter()
    invariants = load(job.invariant_files)
    monitor = CatalogMonitor(invariants)
    best: dict[str, Kill] = {}
    skipped = dict(job.same_as_baseline)
    states = sum(skipped.values())
    searched = []
    for scope in job.battery:
        if scope.name in skipped:
            continue
        config = dataclasses.replace(scope.config, rules=job.rules, stop_at_first=False)
        recorded = Transitions() if record is not None else None
        reuse = references.get(scope.name) if references else None
        result = explore(config, monitor, record=recorded, reuse=reuse)
        asked: frozenset[Mutant] = frozenset()
        if recorded is not None and record is not None:
            record[scope.name] = recorded
            asked = recorded.questions()
        states += result.states
        searched.append((scope.name, result.states, asked, bool(result.violations)))
        for cex in result.violations.values():
            players = cex.trace.start.setup.player_names
            kill = Kill(
                cex.invariant,
                Route.EXPLORE,
                cex.length,
                scope.name,
                tuple(describe_action(s.action, players) for s in cex.trace.steps),
            )
            _keep_shortest(best, kill)
    if job.proof is not None:
        for kill in job.proof.kills(job.rules, invariants):
            _keep_shortest(best, kill)
    suite = load_suite(job.roots)
    scenarios = () if job.rules == CORRECT else tuple(scenario_kills(suite, job.rules))
    order = [i.id for i in invariants] + [ENGINE_TOTAL]
    kills = tuple(sorted(best.values(), key=lambda k: order.index(k.invariant)))
    return RulesResult(
        job.rules.name,
        kills,
        scenarios,
        states,
        time.perf_counter() - started,
        tuple(searched),
    )


# The baseline's records, in a worker process of the matrix (set once by ``_init_worker``:
# sending them with every job would copy them twenty times).
_WORKER_REFERENCES: dict[str, Transitions] = {}


def _init_worker(references: dict[str, Transitions]) -> None:
    _WORKER_REFERENCES.update(references)


def _run_in_worker(job: _Job) -> RulesResult:
    return run_rules(job, _WORKER_REFERENCES)


def _keep_shortest(best: dict[str, Kill], kill: Kill) -> None:
    current = best.get(kill.invariant)
    if current is None or kill.length < current.length:
        best[kill.invariant] = kill


def _told(row: RulesResult, on_row: Callable[[RulesResult], None] | None) -> RulesResult:
    if on_row is not None:
        on_row(row)
    return row


def compute_matrix(
    mutants: Sequence[Mutant] | None = None,
    *,
    invariant_files: Sequence[Path] = (),
    scenario_roots: Sequence[Path] | None = None,
    battery: Sequence[BatteryScope] = BATTERY,
    jobs: int = 2,
    proof: ProofRoute | None = None,
    on_row: Callable[[RulesResult], None] | None = None,
) -> Matrix:
    """The matrix for ``mutants`` (all by default); ``jobs`` worker processes run the rows.
    ``on_row`` is told each row (the baseline first, then each mutant) as it is known."""
    started = time.perf_counter()
    chosen = list(Mutant) if mutants is None else list(mutants)
    roots = roots_key(default_roots() if scenario_roots is None else scenario_roots)
    files = tuple(Path(f) for f in invariant_files)
    invariants = load(files)
    battery_t = tuple(battery)
    suite = load_suite(roots)  # loaded once, before the workers fork, so they share it
    references: dict[str, Transitions] = {}
    baseline = run_rules(_Job(CORRECT, battery_t, files, roots, proof), record=references)
    mutant_jobs = [
        _Job(
            Rules(frozenset({m})),
            battery_t,
            files,
            roots,
            proof,
            tuple(
                (name, n)
                for name, n, asked, found in baseline.searched
                if m not in asked and not found
            ),
        )
        for m in chosen
    ]
    if jobs > 1 and len(mutant_jobs) > 1:
        with ProcessPoolExecutor(
            max_workers=jobs, initializer=_init_worker, initargs=(references,)
        ) as pool:
            results = [_told(baseline, on_row)]
            results += [_told(r, on_row) for r in pool.map(_run_in_worker, mutant_jobs)]
    else:
        results = [_told(baseline, on_row)]
        results += [_told(run_rules(job, references), on_row) for job in mutant_jobs]
    routes = [Route.EXPLORE.value, "scenario"]
    if proof is not None:
        routes.insert(1, f"{Route.PROOF.value}:{proof.name}")
    return Matrix(
        invariants=tuple(i.id for i in invariants),
        baseline=results[0],
        rows=tuple(results[1:]),
        excluded_scenarios=suite.excluded,
        routes=tuple(routes),
        battery=tuple(s.name for s in battery_t),
        seconds=time.perf_counter() - started,
        complete=set(chosen) == set(Mutant),
    )
