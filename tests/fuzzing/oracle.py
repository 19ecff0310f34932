"""Running one fuzz input through the command line and judging what happened.

Every input goes through ``regen_model.cli.main`` in this process, as a user would run it:
``run FILE`` (scenarios), ``check-trace FILE`` (traces), ``find QUERY`` (queries) and
``crosscheck --engine jsonl:... --case FILE`` against the fuzz engine (replies). A run is
cut after ``HANG_SECONDS`` (SIGALRM). The verdict on the run is one of ``Result``:

* ``crash``: an internal error (exit 7 with "internal error", or an exception escaping
  ``main``), or for ``jsonl`` our client raising something else than an engine failure;
* ``hang``: cut after ``HANG_SECONDS``;
* ``traceback``: a Python traceback through our code reached the output;
* ``wrong-exit``: an exit code this command never gives for such input;
* ``silent-accept``: a known-bad input that was not refused (exit 2, or an engine error);
* ``unclear``: refused, but not with one line naming the file;
* ``ok``.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from .inputs import Format, FuzzInput, engine_script, jsonl_case

ENGINE = Path(__file__).resolve().parent / "engine.py"
# A run past these is a hang. ``find`` solves (about 4 s for a hard query on an idle machine,
# five times that on a loaded one): its bound is generous, and an alarm that interrupts Z3 in a
# callback turns into an error of Z3's, which would be misread as a crash of ours.
HANG_SECONDS = {Format.SCENARIO: 20.0, Format.TRACE: 60.0, Format.QUERY: 120.0, Format.JSONL: 30.0}
JSONL_TIMEOUT = 2.0  # seconds per request of the fuzz engine
# Exit codes each command may give for some input (README): anything else is wrong.
ALLOWED = {
    Format.SCENARIO: {0, 1, 2},
    Format.TRACE: {0, 1, 2, 4, 5},
    Format.QUERY: {0, 1, 2, 4},
    Format.JSONL: {0, 5, 6, 7},
}
REFUSED = {Format.SCENARIO: 2, Format.TRACE: 2, Format.QUERY: 2, Format.JSONL: 7}
INTERNAL = "regen-model: internal error"


class Result(StrEnum):
    OK = "ok"
    CRASH = "crash"
    HANG = "hang"
    TRACEBACK = "traceback"
    WRONG_EXIT = "wrong-exit"
    SILENT_ACCEPT = "silent-accept"
    UNCLEAR = "unclear"


@dataclass(frozen=True)
class Outcome:
    result: Result
    code: int | None
    seconds: float
    detail: str  # the last lines of output, for a report

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result.value,
            "code": self.code,
            "seconds": round(self.seconds, 4),
            "detail": self.detail,
        }


class _Cut(BaseException):
    """Raised by the alarm: not an ``Exception``, so that no handler of ours takes it."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise _Cut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(argv: list[str], limit: float) -> tuple[int | None, str, str, float, bool]:
    """(exit code or None if it raised, stdout, stderr, seconds, cut by the alarm)."""
    from regen_model.cli import main

    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    code: int | None = None
    cut = False
    try:
        with _alarm(limit), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except _Cut:
        cut = True
    except BaseException as exc:
        err.write(f"\n{INTERNAL}: {type(exc).__name__} escaped main: {exc}\n")
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - started, cut


def judge(inp: FuzzInput, workdir: Path, solve_one_in: int = 25) -> Outcome:
    """Run ``inp`` and classify the run.

    A query the parser accepts is solved by ``find`` (about half a second each) for one input
    in ``solve_one_in`` only; the others are judged by the parser alone (which must accept or
    raise ``QueryError``, nothing else)."""
    fmt = inp.fmt
    path = workdir / f"input{inp.suffix or '.txt'}"
    if fmt is Format.QUERY and not inp.must_reject:
        parsed = _parses(inp.text)
        if parsed is not None and zlib.crc32(inp.data) % solve_one_in:
            return parsed
    if fmt is Format.QUERY:
        argv = ["find", inp.text, "--depth", "1", "--scope", "cards=1,shields=1"]
    elif fmt is Format.JSONL:
        script = workdir / "script.json"
        script.write_text(engine_script(inp), encoding="utf-8")
        case = _jsonl_case_file(workdir)
        command = f"{sys.executable} -S {ENGINE} {script}"
        argv = [
            "crosscheck",
            "--engine",
            f"jsonl:{command}",
            "--case",
            str(case),
            "--case",
            str(case),
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--random",
            "0",
            "--seed",
            "0",
            "--no-shrink",
            "--timeout",
            str(JSONL_TIMEOUT),
        ]
    else:
        path.write_bytes(inp.data)
        argv = (
            ["run", "--quiet", str(path)] if fmt is Format.SCENARIO else ["check-trace", str(path)]
        )
    code, out, err, seconds, cut = run_cli(argv, HANG_SECONDS[fmt])
    text = out + err
    detail = "\n".join(text.strip().splitlines()[-3:])[-600:]

    def outcome(result: Result) -> Outcome:
        return Outcome(result, code, seconds, detail)

    if cut:
        return outcome(Result.HANG)
    if code is None or INTERNAL in err or "adapter raised" in text:
        return outcome(Result.CRASH)
    if our_traceback(text):
        return outcome(Result.TRACEBACK)
    if code not in ALLOWED[fmt]:
        return outcome(Result.WRONG_EXIT)
    if inp.must_reject and code != REFUSED[fmt]:
        return outcome(Result.SILENT_ACCEPT)
    if code == 2 and fmt in (Format.SCENARIO, Format.TRACE) and not _one_line_naming(err, path):
        return outcome(Result.UNCLEAR)
    return outcome(Result.OK)


def _parses(text: str) -> Outcome | None:
    """The parser's verdict on a query it accepts (``None`` if it refuses it)."""
    from regen_model.invariants.query import QueryError, parse

    started = time.perf_counter()
    try:
        with _alarm(HANG_SECONDS[Format.QUERY]):
            parse(text)
    except QueryError:
        return None
    except _Cut:
        return Outcome(Result.HANG, None, time.perf_counter() - started, "parser cut")
    except Exception as exc:
        return Outcome(Result.CRASH, None, time.perf_counter() - started, repr(exc)[-600:])
    return Outcome(Result.OK, 0, time.perf_counter() - started, "parsed")


_OUR_FRAME = re.compile(r'File "[^"]*regen_model[/\\]')


def our_traceback(text: str) -> bool:
    """A traceback through regen-model's code (an engine's own, quoted from its stderr in an
    engine error, is the engine's business)."""
    return "Traceback (most recent call last)" in text and bool(_OUR_FRAME.search(text))


def _one_line_naming(err: str, path: Path) -> bool:
    lines = err.strip().splitlines()
    return len(lines) == 1 and str(path) in lines[0]


def _jsonl_case_file(workdir: Path) -> Path:
    from regen_model.conform.case import to_trace
    from regen_model.conform.itf import write_trace

    path = workdir / "case.itf.json"
    if not path.exists():
        write_trace(path, to_trace(jsonl_case()))
    return path


@contextlib.contextmanager
def workspace() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="regen-fuzz-") as folder:
        yield Path(folder)
