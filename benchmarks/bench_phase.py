"""Throughput of the phase.rs cross-check: our engine and phase.rs side by side, same scenarios.

    python benchmarks/bench_phase.py [--runs 5] [--random 200] [--seed 2026]

The scenarios are the ones the crosscheck runs: random scenarios of a fixed seed (continuing
the clause witnesses, as ``regen-model crosscheck`` draws them), kept if phase.rs can express
them and runs them to the end without a divergence, so that both engines do the same work: set
up the start, apply every action the reference accepts, and report the observation after each
(the adapter protocol's ``start``/``apply``/``observe``, which is what a crosscheck pays for).
The third column times the crosscheck itself (``run_case``: both engines and the comparison).

Each figure is the median of ``--runs`` passes over all scenarios, in scenarios per second of
wall-clock time (phase.rs runs in this process, so wall and CPU time differ only by what else
the machine does; CPU-time rates are reported beside them). phase.rs's time is also split into
board setup (``start``) and the cost per action. The table is printed and the figures are
written to ``benchmarks/results/phase.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.database import phase_version
from regen_model.conform.adapter import EngineAdapter, ReferenceAdapter
from regen_model.conform.case import Case, Outcome, legal_actions, run_case
from regen_model.conform.generate import random_cases
from regen_model.conform.sources import witness_cases

RESULTS = Path(__file__).resolve().parent / "results" / "phase.json"
Job = tuple[Case, tuple[Any, ...]]  # a case and the actions the reference accepts


def select(seed: int, n: int, adapter: PhaseEngineAdapter) -> list[Job]:
    """The random scenarios phase.rs runs to the end in agreement with our engine."""
    jobs = []
    for case in random_cases(n, seed, 20, witness_cases()):
        if run_case(case, adapter).outcome is Outcome.PASSED:
            jobs.append((case, legal_actions(case)))
    return jobs


def drive(adapter: EngineAdapter, jobs: Sequence[Job]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and seconds spent in ``start`` for one pass over ``jobs``."""
    setup = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for case, actions in jobs:
        state = case.start.build()
        adapter.supports(state, actions)
        t0 = time.perf_counter()
        adapter.start(state)
        setup += time.perf_counter() - t0
        adapter.observe()
        for action in actions:
            adapter.apply(action)
            adapter.observe()
        adapter.close()
    return time.perf_counter() - wall, time.process_time() - cpu, setup


def crosscheck_pass(adapter: PhaseEngineAdapter, jobs: Sequence[Job]) -> tuple[float, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for case, _ in jobs:
        run_case(case, adapter)
    return time.perf_counter() - wall, time.process_time() - cpu, 0.0


def measure(runs: int, timed: Callable[[], tuple[float, float, float]], n: int) -> dict[str, Any]:
    samples = [timed() for _ in range(runs)]
    rates = [n / wall for wall, _, _ in samples]
    cpu_rates = [n / cpu for _, cpu, _ in samples]
    return {
        "median_scenarios_per_second": round(statistics.median(rates), 1),
        "runs_scenarios_per_second": [round(r, 1) for r in rates],
        "median_cpu_scenarios_per_second": round(statistics.median(cpu_rates), 1),
        "median_setup_s": statistics.median(s for _, _, s in samples),
        "median_wall_s": statistics.median(w for w, _, _ in samples),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="passes per engine (median)")
    parser.add_argument("--random", type=int, default=200, help="random scenarios drawn")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    phase = PhaseEngineAdapter()
    jobs = select(args.seed, args.random, phase)  # also warms phase.rs's card database up
    if not jobs:
        raise SystemExit("no scenario runs to the end on phase.rs: nothing to time")
    n = len(jobs)
    actions = sum(len(a) for _, a in jobs)
    reference = measure(args.runs, lambda: drive(ReferenceAdapter(), jobs), n)
    theirs = measure(args.runs, lambda: drive(phase, jobs), n)
    both = measure(args.runs, lambda: crosscheck_pass(phase, jobs), n)
    per_action_ms = 1000 * (theirs["median_wall_s"] - theirs["median_setup_s"]) / max(actions, 1)
    result: dict[str, Any] = {
        "format": "regen-model/bench-phase",
        "version": 1,
        "phase_python": phase_version(),
        "seed": args.seed,
        "random_drawn": args.random,
        "scenarios": n,
        "actions": actions,
        "runs": args.runs,
        "reference": reference,
        "phase": theirs,
        "crosscheck": both,
        "phase_setup_ms_per_scenario": round(1000 * theirs["median_setup_s"] / n, 2),
        "phase_ms_per_action": round(per_action_ms, 2),
        "speed_ratio_reference_to_phase": round(
            reference["median_scenarios_per_second"] / theirs["median_scenarios_per_second"], 1
        ),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }
    table = Table(
        title=f"{n} scenarios ({actions} actions; seed {args.seed}), median of {args.runs} runs",
        title_justify="left",
    )
    for col in ("engine", "scenarios/s", "scenarios/s (CPU)", "runs"):
        table.add_column(col, justify="left" if col == "engine" else "right")
    for label, fig in (
        ("reference (our engine)", reference),
        (f"phase.rs {phase_version()}", theirs),
        ("crosscheck (both + compare)", both),
    ):
        table.add_row(
            label,
            f"{fig['median_scenarios_per_second']:,.1f}",
            f"{fig['median_cpu_scenarios_per_second']:,.1f}",
            ", ".join(f"{r:,.1f}" for r in fig["runs_scenarios_per_second"]),
        )
    console = Console(highlight=False)
    console.print(table)
    console.print(
        f"phase.rs: {result['phase_setup_ms_per_scenario']} ms board setup per scenario, "
        f"{result['phase_ms_per_action']} ms per action; our engine is "
        f"{result['speed_ratio_reference_to_phase']}x faster"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    console.print(f"wrote {args.out}")
    return result


if __name__ == "__main__":
    main()
