"""Benchmark of locating a bad value in a large trace (``conform.jsonpos.locate``).

    python benchmarks/bench_locate.py [--runs 3] [--states 3000]

``check-trace`` parses a log with ``json`` and, only when a value is wrong, reads the text again
with ruamel.yaml's parser to find the line and column of that value (``jsonpos.locate``). This
measures that second reading for an error in the first, middle and last state of a large
trace, with libyaml's C parser (``ruamel.yaml.clib``, a dependency on CPython) and with the
pure-Python parser, as the median of several runs in one process. The goal: an error anywhere
in a trace of a few MB is located in under a second. Results are printed as a table and
written to benchmarks/results/locate.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path
from typing import Any
from unittest import mock

from rich.console import Console
from rich.table import Table
from ruamel.yaml import YAML

from regen_model.conform import jsonpos
from regen_model.conform.adapter import package_version

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "locate.json"


def _trace(states: int) -> str:
    data = {
        "vars": ["cards"],
        "states": [
            {
                "#meta": {"index": i},
                "cards": {
                    "#map": [
                        [f"c{j}", {"zone": "battlefield", "tapped": False, "damage": j}]
                        for j in range(4)
                    ]
                },
            }
            for i in range(states)
        ],
    }
    return json.dumps(data, indent=1)


def _time(text: str, path: tuple[jsonpos.PathKey, ...], runs: int, pure: bool) -> float:
    def parser(typ: str = "safe", **_: Any) -> YAML:
        return YAML(typ=typ, pure=pure)

    times = []
    with mock.patch.object(jsonpos, "YAML", parser):
        for _ in range(runs):
            t0 = time.perf_counter()
            jsonpos.locate(text, path)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--states", type=int, default=3000)
    args = ap.parse_args()
    text = _trace(args.states)
    rows: list[dict[str, Any]] = []
    for where, index in (("first", 0), ("middle", args.states // 2), ("last", args.states - 1)):
        path: tuple[jsonpos.PathKey, ...] = ("states", index, "cards", "#map", 2, 1, "tapped")
        c = _time(text, path, args.runs, pure=False)
        py = _time(text, path, args.runs, pure=True)
        rows.append(
            {"state": where, "c_s": round(c, 4), "pure_s": round(py, 4), "ratio": round(py / c, 1)}
        )
    table = Table(title=f"locate in a {len(text) / 1e6:.2f} MB trace ({args.states} states)")
    for col in ("error in state", "C parser", "pure Python", "pure / C"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            r["state"],
            f"{r['c_s'] * 1000:.0f} ms",
            f"{r['pure_s'] * 1000:.0f} ms",
            f"{r['ratio']}x",
        )
    console = Console()
    console.print(table)
    results = {
        "benchmark": "locate",
        "version": package_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "trace_bytes": len(text),
        "runs": args.runs,
        "rows": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    console.print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
