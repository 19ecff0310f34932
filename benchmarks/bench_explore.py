"""Explicit-state exploration vs symbolic proof, side by side, as the permanents grow.

    python benchmarks/bench_explore.py [--max-cards 4] [--depths 1 2 3] [--max-states N]

Both routes check the same invariants (the built-in catalog) on the same scopes: ``n``
Grizzly Bears-sized permanents, shields, damage and P/T amounts bounded by the scope. They
answer different questions, and the table shows what each costs for its answer:

* **explicit** (``regen_model.explore``): breadth-first search of every state reachable from
  the starts in at most ``depth`` steps, with the engine as the transition relation: a proof
  for that depth, found by enumerating states (the count grows with the permanents and
  exponentially with the depth);
* **symbolic** (``regen_model.checks``): induction over the Z3 relation, a proof for every
  reachable state of the scope whatever the depth, found by solving formulas whose size
  grows with the permanents.

Every measurement runs in a fresh process, so its peak memory (resident set size, which
counts Z3's allocations too) is its own; times are CPU seconds of that process. Explicit
searches stop at ``--max-states`` (verdict UNKNOWN) and any measurement at ``--timeout``
seconds (TIMEOUT), so that the benchmark ends and the table shows where a route gives up. The table is
printed and written to ``benchmarks/results/explore.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

from rich.console import Console
from rich.table import Table

from regen_model.encoding.scope import Scope

RESULTS = Path(__file__).resolve().parent / "results" / "explore.json"
# The actions of the explicit route: the regeneration core (make, destroy, damage, check,
# cleanup). The symbolic route proves over every action kind of the relation.
KINDS = frozenset({"create-shield", "destroy", "deal-damage", "check-sba", "cleanup"})
CARD = "Grizzly Bears"
# The scope both routes share (cards vary): shields, stack, triggers and amounts.
SCOPE = Scope(cards=1, shields=2, stack=1, pending=1, targets=1, max_amount=2)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def explicit(cards: int, depth: int, max_states: int) -> dict[str, Any]:
    """One explicit-state proof, measured in this (fresh) process; UNKNOWN beyond
    ``max_states`` states (the budget that keeps the benchmark to minutes)."""
    from regen_model.explore import ExploreConfig, StartSpec, explore
    from regen_model.explore.monitor import CatalogMonitor

    monitor = CatalogMonitor()
    base = _rss_mb()
    config = ExploreConfig(
        StartSpec((CARD,), cards, owners=(0, 1)),
        scope=dataclasses.replace(SCOPE, cards=cards),
        depth=depth,
        kinds=KINDS,
        max_states=max_states,
    )
    t0 = time.process_time()
    result = explore(config, monitor)
    return {
        "route": "explicit",
        "cards": cards,
        "depth": depth,
        "verdict": result.verdict.value,
        "states": result.states,
        "transitions": result.progress.transitions,
        "seconds": round(time.process_time() - t0, 3),
        "peak_rss_mb": round(_rss_mb(), 1),
        "rss_growth_mb": round(_rss_mb() - base, 1),
        "claim": f"every state within {depth} steps",
    }


def symbolic(cards: int) -> dict[str, Any]:
    """One symbolic proof, measured in this (fresh) process: initiation and consecution of
    every invariant for every action kind of the relation, at the scope of ``cards``."""
    from regen_model.checks import induction
    from regen_model.checks.property import from_invariant
    from regen_model.checks.solver import DEFAULT_BUDGET
    from regen_model.checks.system import TransitionSystem
    from regen_model.encoding.system import RegenSystem
    from regen_model.invariants import builtin

    base = _rss_mb()
    t0 = time.process_time()
    # RegenSystem implements the TransitionSystem protocol; mypy rejects its decode() typing.
    system = cast(TransitionSystem, RegenSystem(dataclasses.replace(SCOPE, cards=cards)))
    props = [from_invariant(system, inv) for inv in builtin()]
    results = induction.prove(system, props, DEFAULT_BUDGET, bmc_depth=0)
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict.value] = counts.get(r.verdict.value, 0) + 1
    verdict = "PROVED" if set(counts) == {"PROVED"} else ",".join(sorted(counts))
    return {
        "route": "symbolic",
        "cards": cards,
        "depth": None,
        "verdict": verdict,
        "obligations": len(results),
        "verdicts": counts,
        "seconds": round(time.process_time() - t0, 3),
        "peak_rss_mb": round(_rss_mb(), 1),
        "rss_growth_mb": round(_rss_mb() - base, 1),
        "claim": "every reachable state of the scope, at any depth (induction)",
    }


def _explicit_task(args: tuple[int, int, int]) -> dict[str, Any]:
    return explicit(*args)


def _symbolic_task(cards: int) -> dict[str, Any]:
    return symbolic(cards)


def _child(fn: Callable[[Any], dict[str, Any]], arg: Any, conn: Connection) -> None:
    conn.send(fn(arg))
    conn.close()


def _fresh(fn: Callable[[Any], dict[str, Any]], arg: Any, timeout: float) -> dict[str, Any]:
    """Run ``fn(arg)`` in a fresh process (so peak memory is the measurement's own); after
    ``timeout`` seconds the process is stopped and the row says so."""
    ctx = get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(fn, arg, send))
    child.start()
    send.close()
    if receive.poll(timeout):
        row: dict[str, Any] = receive.recv()
        child.join()
        return row
    child.terminate()
    child.join()
    route = "explicit" if fn is _explicit_task else "symbolic"
    cards = arg[0] if isinstance(arg, tuple) else arg
    depth = arg[1] if isinstance(arg, tuple) else None
    return {
        "route": route,
        "cards": cards,
        "depth": depth,
        "verdict": "TIMEOUT",
        "seconds": timeout,
        "peak_rss_mb": None,
        "claim": f"stopped after {timeout:.0f} s",
    }


def _size(row: dict[str, Any]) -> str:
    if "states" in row:
        return f"{row['states']:,}"
    if "obligations" in row:
        return f"{row['obligations']} obligations"
    return "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-cards", type=int, default=4)
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--max-states", type=int, default=100_000, help="explicit budget")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds per measurement before it stops"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    console = Console(width=None if sys.stdout.isatty() else 120)
    rows: list[dict[str, Any]] = []
    for cards in range(1, args.max_cards + 1):
        for depth in args.depths:
            rows.append(_fresh(_explicit_task, (cards, depth, args.max_states), args.timeout))
            console.log(rows[-1])
        rows.append(_fresh(_symbolic_task, cards, args.timeout))
        console.log(rows[-1])
    table = Table(title="Explicit-state exploration vs symbolic proof (same invariants)")
    for col in ("permanents", "route", "depth", "verdict", "states", "CPU s", "peak RSS MB"):
        table.add_column(col, justify="right" if col != "route" else "left")
    for r in rows:
        verdict = r["verdict"]
        if "verdicts" in r and len(r["verdicts"]) > 1:
            verdict = ", ".join(f"{v} {n}" for v, n in sorted(r["verdicts"].items()))
        table.add_row(
            str(r["cards"]),
            r["route"],
            "-" if r["depth"] is None else str(r["depth"]),
            verdict,
            _size(r),
            f"> {r['seconds']:.0f} (wall)" if r["verdict"] == "TIMEOUT" else f"{r['seconds']:.2f}",
            "-" if r["peak_rss_mb"] is None else f"{r['peak_rss_mb']:.0f}",
        )
    console.print(table)
    document = {
        "format": "regen-model/bench-explore",
        "version": 1,
        "card": CARD,
        "explicit_kinds": sorted(KINDS),
        "explicit_max_states": args.max_states,
        "scope": dataclasses.asdict(SCOPE) | {"cards": "1..max-cards"},
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
