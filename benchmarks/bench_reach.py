"""Reach of the bug classes of issue 15 (item 5) by the generator alone, seed by seed.

    python benchmarks/bench_reach.py [--seeds 0,1,2,3,4] [--random 200] [--candidates 10]

For each seed, the cases ``crosscheck --no-scenarios --no-cover --seed S`` would run (the clause
witnesses, then ``--random`` coverage-guided cases) are crosschecked against each buggy engine
of ``regen_model.testing.bugs.BUG_CLASSES``, without shrinking. A class is reached at a seed when
at least one case diverges; the table gives the number of divergent cases, and in brackets how
many of them are random cases (the witnesses are the same for every seed, so a class the random
cases reach is reached by the seed's own search). ``tests/conform/test_bug_classes.py`` checks
one seed; this script shows whether the reach holds across seeds. Generation time is reported
per seed. The figures are written to ``benchmarks/results/reach.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.conform.case import Outcome
from regen_model.conform.differential import crosscheck
from regen_model.conform.guided import DEFAULT_CANDIDATES, guided_cases
from regen_model.conform.sources import witness_cases
from regen_model.testing.bugs import BUG_CLASSES

RESULTS = Path(__file__).resolve().parent / "results" / "reach.json"


def reach(seed: int, n: int, candidates: int) -> dict[str, Any]:
    witnesses = witness_cases()
    t0 = time.perf_counter()
    generated = list(guided_cases(n, seed, 20, witnesses, candidates=candidates))
    seconds = time.perf_counter() - t0
    row: dict[str, Any] = {"seed": seed, "generation_s": seconds, "classes": {}}
    for name, _, factory in BUG_CLASSES:
        counted: dict[str, int] = {"witness": 0, "random": 0}

        def count(result: Any, counted: dict[str, int] = counted) -> None:
            if result.outcome is Outcome.DIVERGED:
                kind = "witness" if result.case.origin.startswith("witness:") else "random"
                counted[kind] += 1

        crosscheck(factory, [*witnesses, *generated], shrink_findings=False, on_result=count)
        row["classes"][name] = counted
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    console = Console(width=200)  # one column per seed: never folded
    rows = []
    for seed in seeds:
        rows.append(reach(seed, args.random, args.candidates))
        console.print(f"seed {seed} done ({rows[-1]['generation_s']:.1f} s to generate)")
    table = Table(
        title=f"divergent cases per bug class (random cases in brackets), {args.random} random"
    )
    table.add_column("class")
    for seed in seeds:
        table.add_column(f"seed {seed}", justify="right")
    table.add_column("reached at", justify="right")
    for name, _, _ in BUG_CLASSES:
        cells = []
        for r in rows:
            c = r["classes"][name]
            cells.append(f"{c['witness'] + c['random']} ({c['random']})")
        hits = sum(1 for r in rows if sum(r["classes"][name].values()))
        table.add_row(name, *cells, f"{hits}/{len(rows)}")
    console.print(table)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "machine": platform.platform(),
                "cpus": os.cpu_count(),
                "random": args.random,
                "candidates": args.candidates,
                "witnesses": len(witness_cases()),
                "seeds": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
