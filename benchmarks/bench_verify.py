"""Benchmark of the main job: ``regen-model verify`` at its defaults, whole command.

    python benchmarks/bench_verify.py [--runs 3] [--cap 900] [--vs-jobs]

Runs ``verify --json`` ``--runs`` times in a child process (start-up included) and reports
the median wall and CPU seconds (CPU counts the section workers), and each section's own
time from the first run. Goal: under 30 s on an idle two-core machine. With ``--vs-jobs`` it
also runs ``verify --jobs 1`` (the sections one after another) in the same run, for the
ratio. The table is printed and the figures written to ``benchmarks/results/verify.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path
from typing import Any

import z3
from commands import measure, seconds
from rich.console import Console
from rich.table import Table

RESULTS = Path(__file__).resolve().parent / "results" / "verify.json"
GOAL_SECONDS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cap", type=float, default=900.0, help="seconds per run")
    parser.add_argument("--vs-jobs", action="store_true", help="also run with --jobs 1")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 120)
    variants = [("defaults", ["verify", "--json"])]
    if args.vs_jobs:
        variants.append(("--jobs 1", ["verify", "--json", "--jobs", "1"]))
    measured: dict[str, dict[str, Any]] = {}
    for name, command in variants:
        console.log(" ".join(command))
        m = measure(command, args.runs, args.cap)
        doc = m.pop("json") or {}
        m["verdict"] = doc.get("verdict")
        m["sections"] = {s["name"]: round(s["seconds"], 2) for s in doc.get("sections", [])}
        measured[name] = m
    t = Table(title="regen-model verify (median of runs)")
    for col in ("variant", "wall s", "runs", "CPU s", "verdict", "sections (s, first run)"):
        t.add_column(col, justify="right" if col in ("wall s", "CPU s") else "left")
    for name, m in measured.items():
        t.add_row(
            name,
            seconds(m["wall"], args.cap),
            ", ".join(str(x) for x in m["runs"]),
            "-" if m["cpu"] is None else f"{m['cpu']:.2f}",
            str(m["verdict"]),
            ", ".join(f"{k} {v}" for k, v in m["sections"].items()),
        )
    console.print(t)
    default = measured["defaults"]["wall"]
    met = default is not None and default < GOAL_SECONDS
    console.print(f"goal < {GOAL_SECONDS:.0f} s at the defaults: {'met' if met else 'NOT met'}")
    document = {
        "format": "regen-model/bench-verify",
        "version": 1,
        "z3": z3.get_full_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "goal_seconds": GOAL_SECONDS,
        "goal_met": met,
        "variants": measured,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
