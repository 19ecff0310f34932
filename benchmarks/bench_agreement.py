"""Engine-vs-relation agreement: how long the bounded check takes at its presets.

    python benchmarks/bench_agreement.py [--repeats 1] [--quick-repeats 3] [--workers 2]

Runs ``regen_model.encoding.bounded.bounded_agreement`` under the correct rules on the
``bfs`` preset (the breadth-first searches, the agreement section of ``verify`` before issue
10) ``--repeats`` times, and on the ``quick`` and ``seeded`` presets (``seeded`` measuring
branch coverage, as ``verify`` and ``regen-model agree`` run it) ``--quick-repeats`` times
each, with ``--workers`` processes. Per search of the bfs preset: states reached, checks
(state, candidate action) made, and its time summed over the workers (wall and CPU seconds
of the searches, from the median run); per preset: the median wall-clock time of the whole
check, and the seeded preset's ratio to the bfs one, measured in the same run. The machine
is shared, so the load average at the start is recorded beside the figures. The table is
printed and written to ``benchmarks/results/agreement.json``. Goal (issue 6): the bfs
preset in under 2 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.encoding.bounded import PRESETS, AgreementReport, bounded_agreement
from regen_model.model.rules import CORRECT
from regen_model.verdicts import Verdict

GOAL_SECONDS = 120.0
RESULTS = Path(__file__).resolve().parent / "results" / "agreement.json"


def measure(preset: str, repeats: int, workers: int) -> tuple[AgreementReport, list[float]]:
    """``repeats`` runs of a preset: the median run's report and every run's wall time."""
    reports = [
        bounded_agreement(PRESETS[preset], CORRECT, workers=workers, measure=preset == "seeded")
        for _ in range(repeats)
    ]
    for r in reports:
        if r.verdict is not Verdict.PROVED:
            raise SystemExit(f"{preset}: the check did not agree ({r.verdict.value})")
    times = [r.seconds for r in reports]
    median = sorted(reports, key=lambda r: r.seconds)[(len(reports) - 1) // 2]
    return median, times


def searches(report: AgreementReport) -> list[dict[str, Any]]:
    return [
        {
            "search": name,
            "states": t.states,
            "checks": t.checks,
            "worker_seconds": round(t.seconds, 2),
            "cpu_seconds": round(t.cpu_seconds, 2),
            "us_per_check": round(1e6 * t.cpu_seconds / t.checks, 1) if t.checks else None,
        }
        for name, t in report.runs.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=1, help="runs of the default preset")
    parser.add_argument("--quick-repeats", type=int, default=3, help="runs of the quick preset")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    console = Console(width=None if sys.stdout.isatty() else 120)
    load = os.getloadavg()[0]
    presets: dict[str, dict[str, Any]] = {}
    reports: dict[str, AgreementReport] = {}
    for preset, repeats in (
        ("quick", args.quick_repeats),
        ("seeded", args.quick_repeats),
        ("bfs", args.repeats),
    ):
        report, times = measure(preset, repeats, args.workers)
        reports[preset] = report
        presets[preset] = {
            "states": report.tally.states,
            "checks": report.tally.checks,
            "median_seconds": round(statistics.median(times), 2),
            "runs_seconds": [round(t, 2) for t in times],
            "cpu_seconds": round(report.tally.cpu_seconds, 2),
            "outcomes": dict(report.tally.status),
            "searches": searches(report),
        }
        console.log(f"{preset}: {presets[preset]['median_seconds']} s ({times})")

    default = presets["bfs"]
    table = Table(
        title=f"Bounded agreement, bfs preset ({args.workers} workers, load {load:.1f})",
        title_justify="left",
    )
    for col in ("search", "states", "checks", "worker s", "CPU s", "µs/check (CPU)"):
        table.add_column(col, justify="left" if col == "search" else "right")
    for row in default["searches"]:
        table.add_row(
            row["search"],
            f"{row['states']:,}",
            f"{row['checks']:,}",
            f"{row['worker_seconds']:.1f}",
            f"{row['cpu_seconds']:.1f}",
            "-" if row["us_per_check"] is None else f"{row['us_per_check']:.0f}",
        )
    for preset, figures in presets.items():
        table.add_row(
            f"[bold]{preset} (wall, median of {len(figures['runs_seconds'])})",
            f"{figures['states']:,}",
            f"{figures['checks']:,}",
            f"[bold]{figures['median_seconds']:.1f}",
            f"{figures['cpu_seconds']:.1f}",
            f"{1e6 * figures['cpu_seconds'] / figures['checks']:.0f}",
        )
    console.print(table)
    met = default["median_seconds"] < GOAL_SECONDS
    console.print(
        f"seeded/bfs wall-time ratio: "
        f"{presets['seeded']['median_seconds'] / default['median_seconds']:.2f}; "
        f"bfs preset: {default['median_seconds']:.1f} s wall "
        f"(goal < {GOAL_SECONDS:.0f} s: {'met' if met else 'NOT met'})"
    )
    document = {
        "format": "regen-model/bench-agreement",
        "version": 1,
        "goal_seconds": GOAL_SECONDS,
        "goal_met": met,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "load_average_at_start": round(load, 2),
        "python": platform.python_version(),
        "scope": reports["bfs"].config.scope.describe(),
        "presets": presets,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
