"""Benchmark of the conformance tools: trace validation and differential runs.

    python benchmarks/bench_conform.py [--runs 5] [--cases 200]

Measures, as the median of several runs on the same inputs:

* trace validation of fully observed traces (steps per second; the goal is 10,000);
* trace validation with gaps: one priority pass in five unlogged, no 616.1 answers or damage
  divisions in the log, no events, and no shields or "can't be regenerated" reported (the
  checker searches the choices and keeps every state the log cannot tell apart);
* the same gaps under the ``auto`` resolver of ``check-trace`` (enumeration first, Z3 only where
  enumeration explains nothing): it should cost what enumeration costs;
* gaps only Z3 can fill: every trace starts with an unlogged 7 damage to a player (outside the
  enumerated amounts); the ``auto`` resolver solves that one step, and the extra time per
  solved gap is reported (Z3 time is spent only where such a gap occurs);
* reading ITF files (steps per second, JSON parsing included);
* differential runs against the reference engine in-process, and over the JSON-lines
  protocol (scenarios per second, shrinking off).

The inputs are random cases of a fixed seed (``conform.generate``), so runs are comparable.
Results are printed as a table and written to benchmarks/results/conform.json.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.conform.adapter import ReferenceAdapter, package_version
from regen_model.conform.case import Case, to_trace
from regen_model.conform.differential import crosscheck
from regen_model.conform.generate import random_cases
from regen_model.conform.itf import Trace, dump, parse_trace
from regen_model.conform.jsonl import JsonlAdapter
from regen_model.conform.solve import AutoResolver
from regen_model.conform.trace_check import check_trace
from regen_model.model import actions as A
from regen_model.verdicts import Verdict

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "conform.json"
GOAL_STEPS_PER_SECOND = 10_000
HIDDEN_FIELDS = ("shields", "unregenerable")


def _with_gaps(data: dict[str, Any]) -> dict[str, Any]:
    """The same trace as a sparser engine log would give it: one priority pass in five not
    logged (logs rarely record passes), no 616.1 answers or damage divisions, no events,
    and no shields or "can't be regenerated" reported for the cards."""
    out = copy.deepcopy(data)
    for i, state in enumerate(out["states"]):
        meta = state["#meta"]
        action = meta.get("action")
        if action is not None:
            if i % 5 == 0 and action["kind"] == "pass":
                del meta["action"]
            else:
                for field in ("choices", "divisions"):
                    action.pop(field, None)
        state["cards"]["#map"] = [
            [h, {k: v for k, v in rec.items() if k not in HIDDEN_FIELDS}]
            for h, rec in state["cards"]["#map"]
        ]
        state.pop("events", None)
    return out


def _z3_gap_case(case: Case) -> Case:
    """``case`` with 7 damage to the second player first: a step the enumerating resolver
    cannot guess when it is not logged (its amounts stop at 4)."""
    seven = A.DealDamage(source="effect", shares=(A.DamageShare(7, player=1),))
    return replace(case, name=case.name + "-z3", actions=(seven, *case.actions))


def _drop_first_action(data: dict[str, Any]) -> dict[str, Any]:
    del data["states"][1]["#meta"]["action"]
    return data


def _median_rate(runs: int, amount: int, work: Callable[[], None]) -> dict[str, Any]:
    """Rates from the median CPU time (this process) and the median wall time of ``runs``
    runs. On a shared machine the CPU-time rate is the stable one; on an idle machine the
    two agree. Subprocess engines' time is not in this process's CPU time: use wall time."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        work()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return {
        "per_cpu_s": amount / statistics.median(cpu),
        "per_wall_s": amount / statistics.median(wall),
        "amount": amount,
        "cpu_s": cpu,
        "wall_s": wall,
    }


def bench(runs: int, n_cases: int) -> dict[str, Any]:
    cases = random_cases(n_cases, seed=0)
    texts = [dump(to_trace(c)) for c in cases]
    full = [parse_trace(t, c.name) for t, c in zip(texts, cases, strict=True)]
    gaps = [
        parse_trace(dump(_with_gaps(json.loads(t))), c.name)
        for t, c in zip(texts, cases, strict=True)
    ]
    steps = sum(len(t.steps) for t in full)
    solvable = [_z3_gap_case(c) for c in cases[: max(1, n_cases // 10)]]
    z3_texts = [dump(_drop_first_action(json.loads(dump(to_trace(c))))) for c in solvable]
    z3_gaps = [parse_trace(t, c.name) for t, c in zip(z3_texts, solvable, strict=True)]
    z3_full = [parse_trace(dump(to_trace(c)), c.name) for c in solvable]
    z3_steps = sum(len(t.steps) for t in z3_gaps)

    def check_all(traces: list[Trace], auto: bool = False) -> None:
        for t in traces:
            verdict = check_trace(t, resolver=AutoResolver() if auto else None).verdict
            if verdict not in (Verdict.PASSED, Verdict.VACUOUS):
                raise AssertionError(f"{t.file}: {verdict}")

    results: dict[str, Any] = {}
    results["trace_full_steps_per_s"] = _median_rate(runs, steps, lambda: check_all(full))
    results["trace_gaps_steps_per_s"] = _median_rate(runs, steps, lambda: check_all(gaps))
    results["trace_gaps_auto_steps_per_s"] = _median_rate(
        runs, steps, lambda: check_all(gaps, auto=True)
    )
    z3_runs = max(1, runs // 2)
    results["trace_z3_gap_full_steps_per_s"] = _median_rate(
        z3_runs, z3_steps, lambda: check_all(z3_full)
    )
    results["trace_z3_gap_auto_steps_per_s"] = _median_rate(
        z3_runs, z3_steps, lambda: check_all(z3_gaps, auto=True)
    )
    per_gap = (
        statistics.median(results["trace_z3_gap_auto_steps_per_s"]["cpu_s"])
        - statistics.median(results["trace_z3_gap_full_steps_per_s"]["cpu_s"])
    ) / len(solvable)
    results["z3_seconds_per_solved_gap"] = per_gap

    def read_all() -> None:
        for t in texts:
            parse_trace(t)

    results["itf_read_steps_per_s"] = _median_rate(runs, steps, read_all)

    def differential(make: Callable[[], Any], cs: list[Case]) -> None:
        report = crosscheck(make, cs, shrink_findings=False)
        if report.verdict is not Verdict.PASSED:
            raise AssertionError(f"reference disagrees with itself: {report.verdict}")

    results["differential_in_process_cases_per_s"] = _median_rate(
        runs, len(cases), lambda: differential(ReferenceAdapter, cases)
    )
    command = [sys.executable, str(ROOT / "examples" / "engines" / "jsonl_reference.py")]
    few = cases[: max(1, n_cases // 4)]
    results["differential_jsonl_cases_per_s"] = _median_rate(
        max(1, runs // 2), len(few), lambda: differential(lambda: JsonlAdapter(command), few)
    )
    results["meta"] = {
        "regen_model": package_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "runs": runs,
        "cases": n_cases,
        "steps_per_case": steps / n_cases,
        "goal_full_steps_per_s": GOAL_STEPS_PER_SECOND,
        "load_average": list(os.getloadavg()),
    }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmark trace validation and crosscheck.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cases", type=int, default=200)
    args = parser.parse_args()
    results = bench(args.runs, args.cases)
    table = Table(title=f"conformance benchmark (median of {args.runs} runs)")
    table.add_column("measure")
    table.add_column("per CPU second", justify="right")
    table.add_column("per wall second", justify="right")
    table.add_column("unit")
    rows = [
        ("trace validation, fully observed", "trace_full_steps_per_s", "steps/s"),
        ("trace validation, with gaps", "trace_gaps_steps_per_s", "steps/s"),
        ("trace validation, with gaps, auto resolver", "trace_gaps_auto_steps_per_s", "steps/s"),
        (
            "same traces + 7 damage, all logged",
            "trace_z3_gap_full_steps_per_s",
            "steps/s",
        ),
        (
            "same + 7 damage unlogged (Z3 fills it)",
            "trace_z3_gap_auto_steps_per_s",
            "steps/s",
        ),
        ("ITF reading", "itf_read_steps_per_s", "steps/s"),
        (
            "differential, in-process reference",
            "differential_in_process_cases_per_s",
            "scenarios/s",
        ),
        ("differential, JSON-lines reference", "differential_jsonl_cases_per_s", "scenarios/s"),
    ]
    for label, key, unit in rows:
        r = results[key]
        cpu = "-" if "jsonl" in key else f"{r['per_cpu_s']:,.0f}"
        table.add_row(label, cpu, f"{r['per_wall_s']:,.0f}", unit)
    console = Console()
    console.print(table)
    console.print(
        f"Z3 time per gap that only the solver can fill: "
        f"{results['z3_seconds_per_solved_gap'] * 1000:,.0f} ms (CPU, median)"
    )
    goal = results["trace_full_steps_per_s"]["per_cpu_s"] >= GOAL_STEPS_PER_SECOND
    console.print(
        f"goal of {GOAL_STEPS_PER_SECOND:,} fully observed steps/s: "
        + ("[green]met[/green]" if goal else "[red]not met[/red]")
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    console.print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
