"""Fuzz benchmark: at least 10,000 malformed inputs per format, and what became of them.

    python benchmarks/fuzz.py [--inputs 10000] [--formats scenario,trace,query,jsonl]
                              [--jobs 2] [--seed 0]

Inputs come from ``tests/fuzzing/inputs.py`` (mutations of the shipped scenarios, of traces of
their runs, of queries, of a JSON-lines engine's replies; about a third of them known bad) and
are run as a user would run them (``tests/fuzzing/oracle.py``: ``run``, ``check-trace``,
``find``, ``crosscheck`` against the fuzz engine). Each runs in a worker process with a memory
limit, and a worker that stops answering is killed and its input counted as a hang. Then each
mode of the misbehaving engine (``tests/conform/engines/misbehaving.py``) is crosschecked once.

The table gives, per format: inputs, known-bad inputs, crashes, hangs, tracebacks, wrong exit
codes, silent accepts (a known-bad input not refused), unclear errors (refused without one line
naming the file), and the median and slowest time per input. The goal is zero in every
column of problems. Results (with the first findings of each kind) go to
benchmarks/results/fuzz.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import platform
import queue
import random
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzzing.inputs import GENERATORS, Format  # noqa: E402
from fuzzing.oracle import (  # noqa: E402
    HANG_SECONDS,
    INTERNAL,
    Result,
    judge,
    our_traceback,
    run_cli,
    workspace,
)

RESULTS = ROOT / "benchmarks" / "results" / "fuzz.json"
MEMORY_LIMIT = 4 << 30  # bytes of address space per worker: a memory bomb becomes a crash
PROBLEMS = (
    Result.CRASH,
    Result.HANG,
    Result.TRACEBACK,
    Result.WRONG_EXIT,
    Result.SILENT_ACCEPT,
    Result.UNCLEAR,
)
MODES = (
    "crash",
    "hang",
    "garbage",
    "wrong",
    "bad-observation",
    "reject",
    "no-hello",
    "no-read",
    "flood",
    "bad-utf8",
    "close-stdout",
    "stray",
    "fork",
    "spam-stderr",
    "markup-name",
)


def _worker(tasks: Any, results: Any) -> None:
    """Judge inputs until told to stop (``None``)."""
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    with workspace() as folder:
        while (task := tasks.get()) is not None:
            fmt, seed, index = task
            inp = GENERATORS[Format(fmt)](random.Random(f"{fmt}-{seed}-{index}"))
            outcome = judge(inp, folder)
            results.put((index, inp.mutation, inp.must_reject, outcome.to_json(), os.getpid()))


def fuzz_format(fmt: Format, count: int, seed: int, jobs: int) -> list[dict[str, Any]]:
    """Every input's record: index, mutation, known bad, result, code, seconds, detail."""
    ctx: Any = mp.get_context("fork")
    tasks: Any = ctx.Queue()
    results: Any = ctx.Queue()
    for i in range(count):
        tasks.put((fmt.value, seed, i))
    workers: dict[int, Any] = {}

    def start() -> None:
        p = ctx.Process(target=_worker, args=(tasks, results), daemon=True)
        p.start()
        assert p.pid is not None
        workers[p.pid] = p

    for _ in range(jobs):
        start()
    records: dict[int, dict[str, Any]] = {}
    last_seen = {pid: time.monotonic() for pid in workers}
    deadline = HANG_SECONDS[fmt] * 2 + 30
    started = time.monotonic()
    while len(records) < count:
        try:
            index, mutation, bad, outcome, pid = results.get(timeout=1.0)
        except queue.Empty:
            index = None
        if index is not None:
            records[index] = {"index": index, "mutation": mutation, "must_reject": bad, **outcome}
            last_seen[pid] = time.monotonic()
            done = len(records)
            if done % 500 == 0:
                rate = done / (time.monotonic() - started)
                print(f"  {fmt}: {done}/{count} ({rate:.1f}/s)", file=sys.stderr, flush=True)
        for pid, p in list(workers.items()):
            if not p.is_alive() or time.monotonic() - last_seen.get(pid, 0) > deadline:
                p.kill()
                p.join()
                del workers[pid]
                _lost(records, count, fmt, seed, p.exitcode)
                start()
                last_seen = {q: last_seen.get(q, time.monotonic()) for q in workers}
    for _ in workers:
        tasks.put(None)
    for p in workers.values():
        p.join(timeout=10)
    return [records[i] for i in range(count)]


def _lost(
    records: dict[int, dict[str, Any]], count: int, fmt: Format, seed: int, code: Any
) -> None:
    """A worker died or hung: the first input without a record is what it was on."""
    for i in range(count):
        if i not in records:
            inp = GENERATORS[fmt](random.Random(f"{fmt}-{seed}-{i}"))
            result = Result.HANG if code is None or code < 0 else Result.CRASH
            records[i] = {
                "index": i,
                "mutation": inp.mutation,
                "must_reject": inp.must_reject,
                "result": result.value,
                "code": None,
                "seconds": None,
                "detail": f"worker lost (exit {code})",
            }
            return


def engine_modes() -> list[dict[str, Any]]:
    """Each mode of the misbehaving engine, crosschecked once on a few random cases."""
    out = []
    engine = ROOT / "tests" / "conform" / "engines" / "misbehaving.py"
    for mode in MODES:
        argv = [
            "crosscheck",
            "--engine",
            f"jsonl:{sys.executable} {engine} {mode}",
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--random",
            "3",
            "--seed",
            "1",
            "--timeout",
            "2",
        ]
        code, stdout, stderr, seconds, cut = run_cli(argv, 120)
        text = stdout + stderr
        problem = (
            "hang"
            if cut
            else "crash"
            if code is None or INTERNAL in stderr
            else "traceback"
            if our_traceback(text)
            else "wrong-exit"
            if code not in (0, 6, 7)
            else ""
        )
        out.append({"mode": mode, "code": code, "seconds": round(seconds, 2), "problem": problem})
    return out


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    counts = Counter(r["result"] for r in records)
    times = sorted(r["seconds"] for r in records if r["seconds"] is not None)
    findings: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["result"] != Result.OK.value:
            findings.setdefault(r["result"], [])
            if len(findings[r["result"]]) < 10:
                findings[r["result"]].append(r)
    return {
        "inputs": len(records),
        "known_bad": sum(1 for r in records if r["must_reject"]),
        "counts": {p.value: counts.get(p.value, 0) for p in (Result.OK, *PROBLEMS)},
        "mutations": dict(Counter(r["mutation"] for r in records).most_common()),
        "median_ms": round(statistics.median(times) * 1000, 2) if times else None,
        "slowest_s": round(times[-1], 3) if times else None,
        "findings": findings,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Fuzz every input format; count problems.")
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs per format")
    parser.add_argument("--formats", default=",".join(f.value for f in Format))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-modes", action="store_true", help="skip the engine modes")
    args = parser.parse_args()
    formats = [Format(f) for f in args.formats.split(",") if f]
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    results: dict[str, Any] = {"formats": {}}
    began = time.perf_counter()
    for fmt in formats:
        t0 = time.perf_counter()
        records = fuzz_format(fmt, args.inputs, args.seed, args.jobs)
        summary = summarize(records)
        summary["wall_s"] = round(time.perf_counter() - t0, 1)
        results["formats"][fmt.value] = summary
    if not args.no_modes:
        results["engine_modes"] = engine_modes()
    results["meta"] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": args.seed,
        "jobs": args.jobs,
        "inputs_per_format": args.inputs,
        "wall_s": round(time.perf_counter() - began, 1),
        "load_average": list(os.getloadavg()),
    }
    table = Table(title=f"fuzz benchmark (seed {args.seed})", title_justify="left")
    for col in ("format", "inputs", "known bad", *(p.value for p in PROBLEMS), "median", "slowest"):
        table.add_column(col, justify="left" if col == "format" else "right")
    total = 0
    for name, s in results["formats"].items():
        problems = [s["counts"][p.value] for p in PROBLEMS]
        total += sum(problems)
        table.add_row(
            name,
            f"{s['inputs']:,}",
            f"{s['known_bad']:,}",
            *(Text(str(n), style="bold red" if n else "green") for n in problems),
            f"{s['median_ms']} ms",
            f"{s['slowest_s']} s",
        )
    console.print(table)
    if "engine_modes" in results:
        bad_modes = [m for m in results["engine_modes"] if m["problem"]]
        total += len(bad_modes)
        line = ", ".join(
            f"{m['mode']} (exit {m['code']}, {m['seconds']} s)" for m in results["engine_modes"]
        )
        console.print(Text(f"misbehaving engine modes: {line}"))
        for m in bad_modes:
            console.print(Text(f"  {m['mode']}: {m['problem']}", style="bold red"))
    for name, s in results["formats"].items():
        for kind, found in s["findings"].items():
            for r in found[:3]:
                console.print(
                    Text(f"{name} {kind}: #{r['index']} {r['mutation']} (exit {r['code']}): ")
                    + Text(str(r["detail"]).replace("\n", " | ")[:300], style="dim")
                )
    console.print(Text(f"problems: {total}", style="bold green" if total == 0 else "bold red"))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    console.print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
