"""Crosscheck of the real engines side by side: first case, throughput, skips, root causes.

    python benchmarks/bench_crosscheck.py [--random 200] [--seed 1] [--engines reference,phase,python-mtg]

For each engine, in one run on one machine:

* **first case**: seconds from starting ``regen-model crosscheck --engine NAME --out DIR`` (the
  command as a user runs it, defaults otherwise, in a new process: interpreter start, imports,
  engine start, case sources and all) to the first line of ``DIR/results.jsonl`` (the first
  case compared, written the moment it is known); the process is then stopped (SIGTERM). Cold:
  with an empty cache directory (``REGEN_MODEL_CACHE``: clause witnesses, cover witnesses,
  python-mtg's card records); warm: the same again, with the cache the cold run filled;
* **cases/s**: cases run per wall second, without shrinking;
* **skip rate before / after**: the share of ``--random`` cases the adapter skipped, drawn the
  old way (Hypothesis, no feature declaration) and the new way (coverage-guided, inside the
  declared ``lacks``), and the number of useful cases (compared: passed, known or diverged) in
  each, for the same number of cases;
* **root causes**: the findings of a run with shrinking (every divergent case shrunk, grouped
  by the shrunk signature), with the largest groups.

The table is printed and the figures are written to ``benchmarks/results/crosscheck.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.conform.adapter import EngineAdapter, engine_factory, lacked_features
from regen_model.conform.case import Case, Outcome
from regen_model.conform.differential import CrosscheckReport, crosscheck
from regen_model.conform.generate import random_cases
from regen_model.conform.guided import guided_cases
from regen_model.conform.sources import witness_cases

RESULTS = Path(__file__).resolve().parent / "results" / "crosscheck.json"


def old_random(n: int, seed: int) -> list[Case]:
    """What a crosscheck drew before issue 15: Hypothesis-drawn random cases that know nothing
    of the engine."""
    return random_cases(n, seed, 20, witness_cases())


def new_random(n: int, seed: int, lacks: frozenset[str]) -> list[Case]:
    return list(guided_cases(n, seed, 20, witness_cases(), lacks=lacks))


def useful(report: CrosscheckReport) -> int:
    c = report.counts
    return c[Outcome.PASSED] + c[Outcome.KNOWN] + c[Outcome.DIVERGED]


def measure(name: str, factory: Callable[[], EngineAdapter], n: int, seed: int) -> dict[str, Any]:
    lacks = lacked_features(factory())
    after = crosscheck(factory, new_random(n, seed, lacks), shrink_findings=False)
    before = crosscheck(factory, old_random(n, seed), shrink_findings=False, lacks=frozenset())
    shrunk = crosscheck(factory, new_random(n, seed, lacks), shrink_seconds=120.0)
    return {
        "engine": name,
        "cases_per_s": after.cases / after.elapsed if after.elapsed else None,
        "cases": after.cases,
        "excluded_after": len(after.excluded),
        "skip_rate_before": before.skip_rate,
        "useful_before": useful(before),
        "skip_rate_after": after.skip_rate,
        "useful_after": useful(after),
        "divergent_cases": after.counts[Outcome.DIVERGED],
        "root_causes": len(shrunk.findings),
        "largest_groups": [(" ".join(f.signature), f.occurrences) for f in shrunk.findings[:5]],
    }


def cli_first_case(engine: str, cache: Path) -> float | None:
    """Seconds from starting the command to its first compared case (``None``: it ended with
    none)."""
    command = [str(Path(sys.executable).parent / "regen-model"), "crosscheck", "--engine", engine]
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "out" / "results.jsonl"
        env = {**os.environ, "REGEN_MODEL_CACHE": str(cache)}
        t0 = time.perf_counter()
        process = subprocess.Popen(
            [*command, "--out", str(results.parent), "-q"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while process.poll() is None:
                if results.is_file() and b"\n" in results.read_bytes():
                    return time.perf_counter() - t0
                time.sleep(0.01)
            return None
        finally:
            process.terminate()
            process.wait()


def first_cases(engines: list[str]) -> dict[str, dict[str, float | None]]:
    """Cold and warm time to the first case of each engine, one cache directory per engine."""
    out = {}
    for name in engines:
        with tempfile.TemporaryDirectory() as cache:
            cold = cli_first_case(name, Path(cache))
            out[name] = {"cold": cold, "warm": cli_first_case(name, Path(cache))}
    return out


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engines", default="reference,phase,python-mtg")
    args = parser.parse_args()
    rows = []
    for name in args.engines.split(","):
        try:
            factory = engine_factory(name)
            factory()
        except Exception as exc:  # an engine not installed is left out, and said so
            Console().print(f"{name}: not available ({exc})")
            continue
        rows.append(measure(name, factory, args.random, args.seed))
    first = first_cases([r["engine"] for r in rows])
    for r in rows:
        r["first_case_cold_s"] = first[r["engine"]]["cold"]
        r["first_case_s"] = first[r["engine"]]["warm"]
    table = Table(title=f"crosscheck side by side ({args.random} random cases, seed {args.seed})")
    for col in (
        "engine",
        "first case cold/warm (s)",
        "cases/s",
        "skipped before",
        "skipped after",
        "useful before/after",
        "excluded",
        "root causes",
    ):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["engine"],
            f"{_seconds(r['first_case_cold_s'])}/{_seconds(r['first_case_s'])}",
            f"{r['cases_per_s']:.1f}",
            f"{r['skip_rate_before']:.1%}",
            f"{r['skip_rate_after']:.1%}",
            f"{r['useful_before']}/{r['useful_after']}",
            str(r["excluded_after"]),
            str(r["root_causes"]),
        )
    console = Console()
    console.print(table)
    for r in rows:
        console.print(f"{r['engine']}: largest root-cause groups {r['largest_groups']}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "machine": platform.platform(),
                "cpus": os.cpu_count(),
                "random": args.random,
                "seed": args.seed,
                "engines": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
