"""Timing whole ``regen-model`` commands from a benchmark: wall and CPU seconds, medians.

A measurement runs the command in a child process (start-up included) and reads the CPU the
child and its own workers used from the operating system's accounting of finished children.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

COMMAND = [sys.executable, "-c", "from regen_model.cli import main; main()"]


def run(args: list[str], cap: float) -> dict[str, Any]:
    """One command: wall and CPU seconds (its children included), exit code, parsed JSON
    output (None if it printed none) and, when it printed none, the last line it wrote on
    stderr (so a refused option shows in the table instead of a bare None); wall None when
    it ran longer than ``cap`` seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # Its own process group, so that a run over the cap is ended with its worker processes
    # (killing the command alone left ``prove``'s workers computing, orphaned).
    child = subprocess.Popen(
        [*COMMAND, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = child.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return {"wall": None, "cpu": None, "exit": None, "json": None, "error": None}
    done = subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        document = json.loads(done.stdout)
    except json.JSONDecodeError:
        document = None
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    error = lines[-1].strip() if document is None and lines else None
    return {"wall": wall, "cpu": cpu, "exit": done.returncode, "json": document, "error": error}


def measure(args: list[str], runs: int, cap: float) -> dict[str, Any]:
    """``runs`` runs of one command (only one when it exceeds ``cap``): median wall and CPU
    seconds, each run's wall seconds, the first run's exit code, JSON and error line."""
    got = [run(args, cap)]
    if got[0]["wall"] is None:
        return {"wall": None, "cpu": None, "runs": [], "exit": None, "json": None, "error": None}
    got += [run(args, cap) for _ in range(runs - 1)]
    done = [g for g in got if g["wall"] is not None]
    return {
        "wall": statistics.median(g["wall"] for g in done),
        "cpu": statistics.median(g["cpu"] for g in done),
        "runs": [round(g["wall"], 2) for g in done],
        "exit": got[0]["exit"],
        "json": got[0]["json"],
        "error": got[0]["error"],
    }


def seconds(value: float | None, cap: float) -> str:
    return f"> {cap:.0f}" if value is None else f"{value:.2f}"
