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
Mutants are independent, so they run in parallel worker processes.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from regen_model.explore import explore
from regen_model.explore.bfs import ENGINE_TOTAL
from regen_model.explore.monitor import CatalogMonitor
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
    """Everything one rule set (a mutant, or the correct rules) was caught by."""

    rules: str
    kills: tuple[Kill, ...]
    scenarios: tuple[ScenarioKill, ...]
    states: int
    seconds: float

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


def run_rules(job: _Job) -> RulesResult:
    """One row of the matrix: the battery, the proof route and the scenarios under
    ``job.rules``."""
    started = time.perf_counter()
    invariants = load(job.invariant_files)
    monitor = CatalogMonitor(invariants)
    best: dict[str, Kill] = {}
    states = 0
    for scope in job.battery:
        config = dataclasses.replace(scope.config, rules=job.rules, stop_at_first=False)
        result = explore(config, monitor)
        states += result.states
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
    return RulesResult(job.rules.name, kills, scenarios, states, time.perf_counter() - started)


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
    all_jobs = [_Job(CORRECT, battery_t, files, roots, proof)] + [
        _Job(Rules(frozenset({m})), battery_t, files, roots, proof) for m in chosen
    ]
    suite = load_suite(roots)  # loaded once, before the workers fork, so they share it
    if jobs > 1 and len(all_jobs) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = [_told(r, on_row) for r in pool.map(run_rules, all_jobs)]
    else:
        results = [_told(run_rules(job), on_row) for job in all_jobs]
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
