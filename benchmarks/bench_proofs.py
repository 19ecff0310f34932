"""Benchmark of the proofs: the whole catalog, per-obligation medians, growth with permanents.

    python benchmarks/bench_proofs.py [--runs 3] [--sizes 1,2,4,8] [--cap 150]
                                      [--system module:Class]

Measures, on the Z3 encoding of the rules (``RegenSystem``; ``--system`` plugs another
``TransitionSystem`` class taking ``scope=`` and ``rules=``):

* the whole invariant catalog at the default scope of ``regen-model prove``
  (``checks.systems.PROOF_SCOPE``), as ``prove`` runs it (induction with the CHC fallback,
  plus any-n), median of ``--runs`` runs; goal: under 10 s;
* per-obligation medians (initiation, consecution per action kind, any-n), from one run;
* growth with the number of permanents (scope ``cards`` = 1, 2, 4, 8, the rest of the scope as
  ``PROOF_SCOPE``): the induction proofs of the catalog, and BMC (the shortest violation of a
  known-false property, "no creature is ever tapped by regeneration") at each size. Goal:
  induction time no worse than linear from 1 to 8 permanents. The any-n proofs do not depend
  on the number of permanents (they hold for any number); their time is shown for reference.

Each growth measurement runs in a child process with a wall-clock cap (``--cap`` seconds,
default 150): a measurement that exceeds it is reported as ``> cap`` and the larger sizes of
that measurement are not run (they would take longer still). With the defaults the whole
benchmark takes under ten minutes.

Times are wall-clock seconds (the solver runs in the measuring process); the solver budget is
a fixed ``rlimit``, so the work done is the same on every machine. The table is printed and
the figures written to ``benchmarks/results/proofs.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import z3
from rich.console import Console
from rich.table import Table

from regen_model.checks import induction
from regen_model.checks.bmc import Found, violation
from regen_model.checks.property import expr_property, from_invariant
from regen_model.checks.results import Method, Result, overall, summarize
from regen_model.checks.runner import ProveOptions, prove
from regen_model.checks.solver import Budget
from regen_model.checks.system import TransitionSystem
from regen_model.checks.systems import PROOF_SCOPE, regen_system
from regen_model.encoding.scope import Scope
from regen_model.invariants import all_cards, builtin
from regen_model.invariants.spec import Kind
from regen_model.model.rules import CORRECT
from regen_model.verdicts import Verdict

RESULTS = Path(__file__).resolve().parent / "results" / "proofs.json"
GOAL_CATALOG_SECONDS = 10.0
DEFAULT_CAP_SECONDS = 150.0


def system_factory(spec: str | None) -> Callable[[Scope], TransitionSystem]:
    if spec is None:
        return lambda scope: regen_system(scope, CORRECT)
    module, _, name = spec.partition(":")
    cls = getattr(importlib.import_module(module), name)
    return lambda scope: cls(scope=scope, rules=CORRECT)


def catalog_run(
    make: Callable[[Scope], TransitionSystem], scope: Scope
) -> tuple[float, list[Result]]:
    catalog = builtin()
    options = ProveOptions(scope=scope)
    started = time.perf_counter()
    results = prove(catalog, options, lambda: make(scope), support=catalog)
    return time.perf_counter() - started, results


def obligation_medians(results: list[Result]) -> dict[str, dict[str, dict[str, float]]]:
    """Per obligation (initiation, or consecution for one action kind) and method: how many
    (one per invariant), the median and the largest time."""
    groups: dict[str, dict[str, list[float]]] = {}
    for r in results:
        if r.verdict is Verdict.SKIPPED or r.method not in (Method.INDUCTION, Method.ANY_N):
            continue
        key = r.action or r.obligation.removeprefix("any-n ")  # the action kind of a consecution
        groups.setdefault(key, {}).setdefault(r.method.value, []).append(r.seconds)
    return {
        key: {
            method: {
                "count": len(v),
                "median_ms": round(statistics.median(v) * 1000, 3),
                "max_ms": round(max(v) * 1000, 3),
            }
            for method, v in sorted(by_method.items())
        }
        for key, by_method in sorted(groups.items())
    }


NEVER_TAPPED_BY_REGEN = all_cards(lambda c: c.out.regen_taps == 0)


def measure(make: Callable[[Scope], TransitionSystem], what: str, n: int) -> dict[str, Any]:
    """One growth measurement at ``n`` permanents (run in a child process by ``growth``)."""
    scope = replace(PROOF_SCOPE, cards=n)
    started = time.perf_counter()
    system = make(scope)
    if what == "induction":
        props = [from_invariant(system, inv) for inv in builtin()]
        res = induction.prove(system, props, Budget(), bmc_depth=-1)
        return {
            "seconds": round(time.perf_counter() - started, 3),
            "obligations": len(res),
            "verdict": overall(r.verdict for r in summarize(res)).value,
        }
    prop = expr_property(system, "never-tapped-by-regeneration", Kind.STEP, NEVER_TAPPED_BY_REGEN)
    found = violation(system, prop, 4, Budget())
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "depth": found.depth if found.found is Found.FOUND else None,
    }


def _child(what: str, n: int, spec: str | None, cap: float) -> dict[str, Any] | None:
    """``measure`` in a child process; None when it ran longer than ``cap`` seconds."""
    command = [sys.executable, __file__, "--measure", what, str(n)]
    if spec is not None:
        command += ["--system", spec]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def growth(spec: str | None, sizes: list[int], cap: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"permanents": n} for n in sizes]
    for what in ("bmc", "induction"):
        over = False
        for row in rows:
            if over:
                row[what] = {"seconds": None, "note": "not run: a smaller size exceeded the cap"}
                continue
            got = _child(what, row["permanents"], spec, cap)
            if got is None:
                over = True
                row[what] = {"seconds": None, "note": f"exceeded the {cap:.0f} s cap"}
            else:
                row[what] = got
    for what in ("bmc", "induction"):
        base = rows[0][what]["seconds"]
        for row in rows:
            secs = row[what]["seconds"]
            row[what]["ratio_to_first"] = (
                round(secs / base, 2) if secs is not None and base else None
            )
    return rows


def _no_worse_than_linear(rows: list[dict[str, Any]]) -> bool:
    first = rows[0]["permanents"]
    for row in rows:
        ratio = row["induction"]["ratio_to_first"]
        if ratio is None or ratio > row["permanents"] / first + 1e-9:
            return False
    return True


def _seconds(entry: dict[str, Any], cap: float) -> str:
    if entry["seconds"] is None:
        return f"> {cap:.0f}" if entry.get("note", "").startswith("exceeded") else "not run"
    return f"{entry['seconds']:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1,2,4,8")
    parser.add_argument(
        "--cap",
        type=float,
        default=DEFAULT_CAP_SECONDS,
        help="wall-clock cap of each growth measurement (seconds)",
    )
    parser.add_argument("--system", default=None, help="module:Class of another system")
    parser.add_argument("--measure", nargs=2, metavar=("WHAT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    make = system_factory(args.system)
    if args.measure:
        what, n = args.measure
        print(json.dumps(measure(make, what, int(n))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]

    times = []
    results: list[Result] = []
    for _ in range(args.runs):
        seconds, results = catalog_run(make, PROOF_SCOPE)
        times.append(seconds)
    rows = summarize(results)
    verdicts: dict[str, int] = {}
    for r in rows:
        verdicts[r.verdict.value] = verdicts.get(r.verdict.value, 0) + 1
    medians = obligation_medians(results)
    any_n_seconds = sum(r.seconds for r in results if r.method is Method.ANY_N)
    grown = growth(args.system, sizes, args.cap)
    linear_ok = _no_worse_than_linear(grown)

    console = Console()
    t = Table(title=f"Whole catalog at the default scope ({PROOF_SCOPE.describe()})")
    t.add_column("measurement")
    t.add_column("value", justify="right")
    t.add_row("median seconds", f"{statistics.median(times):.2f}")
    t.add_row("runs (s)", ", ".join(f"{x:.2f}" for x in times))
    t.add_row("goal", f"< {GOAL_CATALOG_SECONDS:.0f} s")
    t.add_row("verdicts", ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))
    t.add_row("overall", overall(r.verdict for r in rows).value)
    console.print(t)
    m = Table(title="Per-obligation times: initiation, consecution per action kind (one run)")
    m.add_column("obligation")
    for method in ("induction", "any-n"):
        m.add_column(f"{method}: n, median / max ms", justify="right")
    for k, v in medians.items():
        cells = []
        for method in ("induction", "any-n"):
            got = v.get(method)
            cells.append(
                f"{got['count']}, {got['median_ms']:.1f} / {got['max_ms']:.1f}" if got else "-"
            )
        m.add_row(k, *cells)
    console.print(m)
    g = Table(title=f"Growth with the number of permanents (cap {args.cap:.0f} s per measurement)")
    for col in (
        "permanents",
        "induction s",
        "x (vs first)",
        "verdict",
        "BMC s",
        "x (vs first)",
        "violation at",
    ):
        g.add_column(col, justify="right")
    for row in grown:
        ind, bmc = row["induction"], row["bmc"]
        g.add_row(
            str(row["permanents"]),
            _seconds(ind, args.cap),
            "-" if ind["ratio_to_first"] is None else f"{ind['ratio_to_first']:.2f}",
            ind.get("verdict", "-"),
            _seconds(bmc, args.cap),
            "-" if bmc["ratio_to_first"] is None else f"{bmc['ratio_to_first']:.2f}",
            str(bmc.get("depth", "-")),
        )
    console.print(g)
    console.print(
        f"any-n (proved for any number of permanents, independent of the size): "
        f"{any_n_seconds:.2f} s; induction no worse than linear: {linear_ok}"
    )
    doc = {
        "format": "regen-model/bench-proofs",
        "version": 2,
        "z3": z3.get_full_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": args.system or "regen_model.encoding RegenSystem",
        "default_scope": PROOF_SCOPE.describe(),
        "catalog": {
            "median_seconds": round(statistics.median(times), 3),
            "runs_seconds": [round(x, 3) for x in times],
            "goal_seconds": GOAL_CATALOG_SECONDS,
            "goal_met": statistics.median(times) < GOAL_CATALOG_SECONDS,
            "verdicts": verdicts,
            "overall": overall(r.verdict for r in rows).value,
            "rows": [r.to_json() | {"obligations": len(r.obligations)} for r in rows],
        },
        "obligations": medians,
        "any_n_seconds": round(any_n_seconds, 3),
        "growth_cap_seconds": args.cap,
        "growth": grown,
        "growth_no_worse_than_linear": linear_ok,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
