"""Benchmark of the proofs as ``regen-model prove`` runs them, as the card slots grow.

    python benchmarks/bench_proofs.py [--runs 3] [--sizes 1,2,4,8] [--cap 600] [--once-from 8] [--no-chc]

Every measurement is one whole command in a child process (start-up included), run
``--runs`` times (sizes from ``--once-from`` card slots on once); the table shows the median and the spread, wall-clock and CPU seconds
(CPU counts the command's worker processes too):

* ``prove --scope cards=N --json`` for each size N (the whole catalog: induction at that
  scope, any-n for any number of permanents). Goals: PROVED at ``cards=2`` in under 20 s and
  at ``cards=4`` in under 60 s, and the time at 4 slots at most 4 times the time at 1 slot
  (no worse than linear); ``cards=8`` is reported. A size whose first run exceeds ``--cap``
  seconds is shown as ``> cap`` and the larger sizes are not run;
* the any-n rows of that run: every invariant PROVED for any number of permanents (no
  ``n/a``);
* ``prove --method chc --certificates DIR`` at the default scope: every invariant PROVED by a
  certificate, with the solvers that re-checked each obligation;
* per obligation (initiation, consecution per action kind), median and largest time, from
  the first run at 1 and 2 slots.

Ratios are taken between medians of the same run of this script, so a busy machine slows
every size alike. The table is printed and the figures written to
``benchmarks/results/proofs.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import z3
from commands import measure
from commands import seconds as _fmt
from rich.console import Console
from rich.table import Table

RESULTS = Path(__file__).resolve().parent / "results" / "proofs.json"
GOALS = {2: 20.0, 4: 60.0}  # cards -> wall seconds
GROWTH_GOAL = 4.0  # time at 4 slots / time at 1 slot


def rows_by_method(document: dict[str, Any] | None) -> dict[str, dict[str, int]]:
    """method -> verdict -> rows."""
    out: dict[str, dict[str, int]] = {}
    for row in (document or {}).get("rows", []):
        per = out.setdefault(row["method"], {})
        per[row["verdict"]] = per.get(row["verdict"], 0) + 1
    return out


def obligation_times(document: dict[str, Any] | None) -> dict[str, dict[str, float]]:
    groups: dict[str, list[float]] = {}
    for row in (document or {}).get("rows", []):
        if row["method"] != "induction":
            continue
        for ob in row.get("obligations", []):
            key = ob.get("action") or ob["obligation"]
            groups.setdefault(key, []).append(ob["seconds"])
    return {
        k: {
            "count": len(v),
            "median_ms": round(statistics.median(v) * 1000, 2),
            "max_ms": round(max(v) * 1000, 2),
        }
        for k, v in sorted(groups.items(), key=lambda kv: -sum(kv[1]))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1,2,4,8")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds per run")
    parser.add_argument(
        "--once-from",
        type=int,
        default=8,
        help="sizes from this many card slots on are run once (each run may take many minutes)",
    )
    parser.add_argument("--no-chc", action="store_true", help="skip the certificate run")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 120)
    sizes = [int(s) for s in args.sizes.split(",")]

    growth: list[dict[str, Any]] = []
    over = False
    for n in sizes:
        if over:
            growth.append(
                {"cards": n, "wall": None, "note": "not run: a smaller size exceeded the cap"}
            )
            continue
        console.log(f"prove --scope cards={n}")
        runs = 1 if n >= args.once_from else args.runs
        m = measure(["prove", "--scope", f"cards={n}", "--json"], runs, args.cap)
        over = m["wall"] is None
        doc = m.pop("json")
        growth.append(
            {
                "cards": n,
                **m,
                "verdict": (doc or {}).get("verdict"),
                "rows": rows_by_method(doc),
                "obligations": obligation_times(doc) if n <= 2 else {},
                "note": f"exceeded the {args.cap:.0f} s cap" if over else "",
            }
        )
    first = growth[0]["wall"]
    for row in growth:
        row["ratio"] = round(row["wall"] / first, 2) if row.get("wall") and first else None

    chc: dict[str, Any] = {}
    if not args.no_chc:
        console.log("prove --method chc --certificates DIR")
        with tempfile.TemporaryDirectory() as folder:
            m = measure(
                ["prove", "--method", "chc", "--certificates", folder, "--json"], 1, args.cap
            )
            doc = m.pop("json")
            solvers: dict[str, int] = {}
            files = 0
            for manifest in Path(folder).glob("*.certificate.json"):
                content = json.loads(manifest.read_text())
                files = max(files, len(content["obligations"]))
                for solver, answers in content["checks"].items():
                    solvers[solver] = solvers.get(solver, 0) + sum(
                        a == "unsat" for a in answers.values()
                    )
            chc = {
                **m,
                "verdict": (doc or {}).get("verdict"),
                "rows": rows_by_method(doc),
                "obligations_per_certificate": files,
                "unsat_answers_by_solver": solvers,
                "distinct_obligation_files": len(list(Path(folder).glob("*.smt2"))),
            }

    t = Table(title="prove --scope cards=N (whole catalog; median of runs)")
    for col in (
        "cards",
        "wall s",
        "runs",
        "CPU s",
        "x cards=1",
        "verdict",
        "induction",
        "any-n",
        "goal",
    ):
        t.add_column(
            col, justify="right" if col not in ("verdict", "induction", "any-n") else "left"
        )
    for row in growth:
        rows = row.get("rows", {})
        goal = GOALS.get(row["cards"])
        met = (
            ""
            if goal is None
            else (
                f"< {goal:.0f} s: {'met' if row.get('wall') is not None and row['wall'] < goal else 'NOT met'}"
            )
        )
        if row["cards"] == 4 and row.get("ratio") is not None:
            met += (
                f"; x <= {GROWTH_GOAL:.0f}: {'met' if row['ratio'] <= GROWTH_GOAL else 'NOT met'}"
            )
        t.add_row(
            str(row["cards"]),
            _fmt(row.get("wall"), args.cap),
            ", ".join(str(x) for x in row.get("runs", [])) or row.get("note", ""),
            "-" if row.get("cpu") is None else f"{row['cpu']:.2f}",
            "-" if row.get("ratio") is None else f"{row['ratio']:.2f}",
            str(
                row.get("verdict")
                or (f"exit {row['exit']}: {row['error']}" if row.get("error") else "-")
            ),
            ", ".join(f"{n} {v}" for v, n in rows.get("induction", {}).items()) or "-",
            ", ".join(f"{n} {v}" for v, n in rows.get("any-n", {}).items()) or "-",
            met,
        )
    console.print(t)
    if chc:
        c = Table(title="prove --method chc --certificates DIR (default scope)")
        c.add_column("measurement")
        c.add_column("value", justify="right")
        c.add_row("wall s / CPU s", f"{_fmt(chc['wall'], args.cap)} / {chc['cpu'] or 0:.2f}")
        c.add_row("verdict", str(chc["verdict"] or f"none: exit {chc['exit']}, {chc['error']}"))
        c.add_row("rows", ", ".join(f"{n} {v}" for v, n in chc["rows"].get("chc", {}).items()))
        c.add_row("obligations per certificate", str(chc["obligations_per_certificate"]))
        c.add_row("distinct obligation files", str(chc["distinct_obligation_files"]))
        c.add_row(
            "unsat answers by solver",
            ", ".join(f"{s} {n}" for s, n in chc["unsat_answers_by_solver"].items()),
        )
        console.print(c)
    for row in growth:
        if not row.get("obligations"):
            continue
        o = Table(title=f"Induction obligations at cards={row['cards']} (first run)")
        for col in ("obligation", "count", "median ms", "max ms"):
            o.add_column(col, justify="right" if col != "obligation" else "left")
        for k, v in list(row["obligations"].items())[:8]:
            o.add_row(k, str(v["count"]), f"{v['median_ms']:.1f}", f"{v['max_ms']:.1f}")
        console.print(o)
    document = {
        "format": "regen-model/bench-proofs",
        "version": 3,
        "z3": z3.get_full_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "runs": args.runs,
        "cap_seconds": args.cap,
        "goals": {"wall_seconds_by_cards": GOALS, "growth_1_to_4": GROWTH_GOAL},
        "growth": growth,
        "chc": chc,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
