"""SIGINT and SIGTERM during a long command: the report of what was computed so far, marked
incomplete (tables, ``--json``, ``--out``), exit 130 / 143, no traceback, no worker left.

The signal is sent for real to a ``regen-model`` process once it has printed its first line
(so its handlers are installed and work is under way); ``prove`` is stopped in-process by a
result stream that raises ``Interrupted`` after its first result.

A signal must stop the run promptly even while a Z3 query runs, in the main process or in a
worker (Python runs no handler during the query's C call: ``regen_model.interrupts``). Those
tests make the first query of the chosen process(es) a hand-made hard one (``_SLOW_QUERY``:
the pigeonhole principle, 13 pigeons in 12 holes, which takes Z3 many minutes) and require the
run to end within ``PROMPT`` seconds of the signal, its report incomplete and that obligation
not PROVED.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regen_model.cli import main
from regen_model.interrupts import Interrupted

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _stopped(
    argv: list[str], signum: int, after_line: str, wait: float = 2.0
) -> tuple[int, str, str]:
    """Run ``regen-model ARGV`` in its own process group; once a line containing
    ``after_line`` appeared on stdout or stderr (and ``wait`` more seconds passed), send
    ``signum``; return the exit code and both outputs, and check no process of the group is
    left."""
    command = [
        sys.executable,
        "-c",
        "import sys; from regen_model.cli import main; sys.exit(main())",
    ]
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen(
        [*command, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if "--json" not in argv else subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    stream = proc.stdout if "--json" not in argv else proc.stderr
    assert stream is not None
    for line in stream:
        seen.append(line)
        if after_line in line:
            break
    time.sleep(wait)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    if "--json" in argv:
        out, err = out, "".join(seen) + err
    else:
        out, err = "".join(seen) + out, ""
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # the workers went with it
        os.killpg(proc.pid, 0)
    return proc.returncode, out, err


def test_sigint_during_explore_prints_what_was_seen(tmp_path: Path) -> None:
    argv = ["explore", "--count", "2", "--depth", "8", "--family", "all", "--continue"]
    code, out, _ = _stopped([*argv, "--html", str(tmp_path / "x.html")], signal.SIGINT, "checking")
    assert code == 130, out
    assert "Traceback" not in out
    assert "explore: INCOMPLETE (interrupted by SIGINT;" in " ".join(out.split())
    assert "UNKNOWN" in out
    assert "(incomplete)" in (tmp_path / "x.html").read_text(encoding="utf-8")


def test_sigterm_during_crosscheck_keeps_the_compared_cases(tmp_path: Path) -> None:
    argv = ["crosscheck", "--engine", "reference", "--seed", "1", "--random", "100000"]
    argv += ["--no-cover", "--workers", "2", "--out", str(tmp_path), "--json"]
    code, out, err = _stopped(argv, signal.SIGTERM, "crosscheck of reference", wait=4.0)
    assert code == 143, err
    assert "Traceback" not in err
    doc = json.loads(out)
    assert doc["incomplete"] is True and doc["interrupted_by"] == "SIGTERM"
    assert doc["exit_code"] == 143 and doc["cases"] > 0
    written = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert written["incomplete"] is True and written["cases"] == doc["cases"]
    assert "**Incomplete**: interrupted by SIGTERM" in (tmp_path / "report.md").read_text()


@pytest.mark.slow
def test_sigterm_during_verify_reports_the_sections_done_and_stops_the_pool() -> None:
    argv = ["verify", "-s", "examples", "-s", "mutants", "-s", "proofs"]
    code, out, _ = _stopped(argv, signal.SIGTERM, "Example scenarios", wait=3.0)
    assert code == 143, out
    assert "Traceback" not in out
    flat = " ".join(out.split())
    assert "verify: INCOMPLETE (interrupted by SIGTERM; 1 of 3 section(s) done;" in flat
    assert "not run: mutants, proofs" in flat


def test_an_interrupted_prove_reports_the_results_known(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from regen_model.checks import runner
    from regen_model.cli import prove as prove_cli

    real = runner.iter_prove

    def first_then_stop(*args: Any, **kwargs: Any) -> Iterator[Any]:
        stream = real(*args, **kwargs)
        yield next(stream)
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(prove_cli, "iter_prove", first_then_stop)
    assert main(["prove", "--method", "kind", "--k", "1", "--json"]) == 143
    doc = json.loads(capsys.readouterr().out)
    assert doc["incomplete"] is True and doc["interrupted_by"] == "SIGTERM"
    assert doc["exit_code"] == 143
    assert len(doc["rows"]) == 1
    # the one row done is proved, but the run is not: the rest is unknown
    assert doc["rows"][0]["verdict"] == "PROVED" and doc["verdict"] == "UNKNOWN"


# ``python -c _SLOW_QUERY WHERE ARGS...``: ``regen-model ARGS`` in which the first Z3 query of
# the main process (WHERE ``main``) or of each worker process (``workers``) is the pigeonhole
# principle (unsat, many minutes), announced on stderr when it starts.
_SLOW_QUERY = """
import os, sys
import z3
from regen_model.checks import solver
from regen_model.cli import main

where, argv = sys.argv[1], sys.argv[2:]
parent = os.getpid()
real = solver._check
started = set()

def pigeons(holes):
    p = [[z3.Bool(f"pigeon{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    s = z3.Solver()
    for row in p:
        s.add(z3.Or(*row))
    for j in range(holes):
        for i in range(holes + 1):
            for k in range(i + 1, holes + 1):
                s.add(z3.Not(z3.And(p[i][j], p[k][j])))
    return s

def slow_first(s, assumptions):
    me = os.getpid()
    if me in started or (me == parent) != (where == "main"):
        return real(s, assumptions)
    started.add(me)
    hard = pigeons(12)
    print(f"slow query started in {me}", file=sys.stderr, flush=True)
    return real(hard, [])

solver._check = slow_first
sys.exit(main(argv))
"""

# Seconds from the signal to the end of the run: far below the slow query's own time, a bound
# on a hang (the run waiting for the query), not a speed goal.
PROMPT = 15.0


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (allowing a moment for it to be reaped)."""
    for _ in range(20):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(
    ("where", "signum"),
    [
        pytest.param(where, signum, id=f"{where}-{signal.Signals(signum).name}")
        for signum in (signal.SIGTERM, signal.SIGINT)
        for where in ("main", "workers")
    ],
)
def test_a_signal_stops_prove_while_a_z3_query_runs(where: str, signum: int) -> None:
    """``prove --json`` with the first query of the main process (``--jobs 1``) or of each of
    its two workers slow: SIGTERM (to the process) or SIGINT (to its process group, as a
    terminal sends Ctrl-C) during that query ends the run within ``PROMPT`` seconds with
    128 + signal, the JSON report incomplete, the interrupted obligation not PROVED and no
    worker left."""
    jobs = "1" if where == "main" else "2"
    argv = ["prove", "-i", "inv.damage-trigger.kept", "--method", "induction", "--jobs", jobs]
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_QUERY, where, *argv, "--json", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 120)
        line = proc.stderr.readline() if ready else ""
        assert "slow query started" in line, line
        time.sleep(1.0)  # well inside the query
        workers = _children(proc.pid)
        assert len(workers) == (0 if where == "main" else 2), workers
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        sent = time.monotonic()
        try:
            out, err = proc.communicate(timeout=PROMPT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {PROMPT} s after {signal.Signals(signum).name}")
        took = time.monotonic() - sent
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    name = signal.Signals(signum).name
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err
    doc = json.loads(out)
    assert doc["incomplete"] is True and doc["interrupted_by"] == name, (doc, took)
    assert doc["exit_code"] == 128 + signum and doc["verdict"] != "PROVED"
    proved = [r for r in doc["rows"] if r["method"] == "induction" and r["verdict"] == "PROVED"]
    assert proved == []
    assert all(_gone(pid) for pid in workers)
