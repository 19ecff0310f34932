"""Crosscheck of the real engines side by side: first case, throughput, skips, root causes.

    python benchmarks/bench_crosscheck.py [--random 200] [--seed 1] [--engines reference,phase,python-mtg]

For each engine, in one run on one machine:

* **first case**: seconds from the call to the first case compared, with the case sources
  streamed as ``regen-model crosscheck`` streams them (scenario files, clause witnesses from the
  disk cache, guided random cases); the cold figure empties the cache first (reference only:
  the cache does not depend on the engine);
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
import tempfile
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.conform.adapter import EngineAdapter, engine_factory, lacked_features
from regen_model.conform.case import Case, Outcome
from regen_model.conform.differential import CrosscheckReport, crosscheck
from regen_model.conform.generate import random_cases
from regen_model.conform.guided import guided_cases
from regen_model.conform.sources import default_scenario_paths, scenario_cases, witness_cases
from regen_model.conform.witness import clause_witnesses

RESULTS = Path(__file__).resolve().parent / "results" / "crosscheck.json"


def stream(n: int, seed: int, lacks: frozenset[str]) -> Iterator[Case]:
    """The crosscheck's own order: scenario files, witnesses, guided random cases."""
    found, _ = scenario_cases(default_scenario_paths())
    yield from found
    corpus = witness_cases()
    yield from corpus
    yield from guided_cases(n, seed, 20, corpus, lacks=lacks)


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
    first = crosscheck(factory, islice(stream(n, seed, lacks), 3), shrink_findings=False)
    after = crosscheck(factory, new_random(n, seed, lacks), shrink_findings=False)
    before = crosscheck(factory, old_random(n, seed), shrink_findings=False, lacks=frozenset())
    shrunk = crosscheck(factory, new_random(n, seed, lacks), shrink_seconds=120.0)
    return {
        "engine": name,
        "first_case_s": first.first_compared_s,
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


def cold_first_case(n: int, seed: int) -> float | None:
    """Time to the first case with an empty cache (the witnesses are searched again)."""
    old = os.environ.get("REGEN_MODEL_CACHE")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["REGEN_MODEL_CACHE"] = tmp
        try:
            clause_witnesses.cache_clear()
            report = crosscheck(
                engine_factory("reference"),
                islice(stream(n, seed, frozenset()), 3),
                shrink_findings=False,
            )
        finally:
            if old is None:
                os.environ.pop("REGEN_MODEL_CACHE", None)
            else:
                os.environ["REGEN_MODEL_CACHE"] = old
    return report.first_compared_s


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
    cold = cold_first_case(args.random, args.seed)
    table = Table(title=f"crosscheck side by side ({args.random} random cases, seed {args.seed})")
    for col in (
        "engine",
        "first case (s)",
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
            f"{r['first_case_s']:.2f}",
            f"{r['cases_per_s']:.1f}",
            f"{r['skip_rate_before']:.1%}",
            f"{r['skip_rate_after']:.1%}",
            f"{r['useful_before']}/{r['useful_after']}",
            str(r["excluded_after"]),
            str(r["root_causes"]),
        )
    console = Console()
    console.print(table)
    console.print(f"first case with an empty cache (reference): {cold:.2f} s")
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
                "cold_first_case_s": cold,
                "engines": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
