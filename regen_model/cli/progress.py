"""Progress of every long command, on stderr: a live bar in a terminal, a heartbeat when piped.

``verify``, ``agree``, ``mutants``, ``find``, ``prove``, ``explore``, ``crosscheck`` and
``export-vectors`` can work for minutes. Each reports through one ``Progress``:

* stderr is a terminal: a Rich bar (what is being done, done/total, elapsed), removed when the
  command ends;
* stderr is not a terminal (CI logs, ``2> log``): one plain line every few seconds,
  ``verify: proofs, 2/5 sections done (31 s)``, from a timer thread, so a single long solver
  call still shows the run is alive (``REGEN_MODEL_HEARTBEAT`` sets the seconds between lines,
  default 5; 0 turns the heartbeat off, the finished rows still show);
* ``-q/--quiet`` (``quiet_option``): nothing.

``note`` streams a finished row (a proof, a mutant, a search) as it is known: printed above
the bar, or as a line of its own when piped. Progress never writes to stdout, so ``--json``
output stays one JSON document. A run stopped by SIGINT/SIGTERM leaves the block through the
``KeyboardInterrupt`` like any other: the bar or the timer stops and the command reports what
it has (``regen_model.interrupts``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import Any, TextIO

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as Bar
from rich.text import Text

HEARTBEAT_ENV = "REGEN_MODEL_HEARTBEAT"
DEFAULT_HEARTBEAT = 5.0  # seconds between two heartbeat lines


def quiet_option() -> Any:
    """The ``-q/--quiet`` option of every long command."""
    return typer.Option("--quiet", "-q", help="Show no progress on stderr.")


def heartbeat_seconds() -> float:
    """Seconds between heartbeat lines (``REGEN_MODEL_HEARTBEAT``; 0: none; a bad value: the
    default)."""
    try:
        seconds = float(os.environ.get(HEARTBEAT_ENV, DEFAULT_HEARTBEAT))
    except ValueError:
        return DEFAULT_HEARTBEAT
    return seconds if seconds >= 0 else DEFAULT_HEARTBEAT


class Progress:
    """The progress of one command (a context manager). ``unit`` names what ``done`` and
    ``total`` count (``"sections"``, ``"proofs"``)."""

    def __init__(
        self,
        command: str,
        what: str = "",
        *,
        total: int | None = None,
        unit: str = "",
        quiet: bool = False,
        stream: TextIO | None = None,
    ) -> None:
        self.command = command
        self.what = what
        self.done = 0
        self.total = total
        self.unit = unit
        self.quiet = quiet
        self._stream = stream
        self._started = time.perf_counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Bar | None = None
        self._task: Any = None

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    def __enter__(self) -> Progress:
        """Show the progress until the block ends (a command may enter several blocks, e.g.
        one per section, with its tables printed between them; the time counts from the
        start of the command)."""
        self._stop = threading.Event()
        if self.quiet:
            return self
        if self.stream.isatty():
            self._bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=self.stream, highlight=False),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self._describe(bar=True), total=self.total)
        elif heartbeat_seconds() > 0:
            self._thread = threading.Thread(
                target=self._beat, args=(heartbeat_seconds(),), daemon=True
            )
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._bar is not None:
            self._bar.stop()
        self._thread = self._bar = None

    def update(
        self,
        what: str | None = None,
        *,
        done: int | None = None,
        total: int | None = None,
        advance: int = 0,
    ) -> None:
        """What is being done now, and how far."""
        with self._lock:
            if what is not None:
                self.what = what
            if total is not None:
                self.total = total
            self.done = (self.done if done is None else done) + advance
        if self._bar is not None:
            self._bar.update(
                self._task,
                description=self._describe(bar=True),
                completed=self.done,
                total=self.total,
            )

    def note(self, line: str | Text) -> None:
        """A row finished: shown at once, above the bar or as a line of stderr."""
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
            return
        with self._lock:
            self._write(f"{self.command}: {line.plain if isinstance(line, Text) else line}")

    def line(self) -> str:
        """``verify: proofs, 2/5 sections done (31 s)``: what a heartbeat says."""
        with self._lock:
            return f"{self.command}: {self._describe()} ({self._elapsed()})"

    def _describe(self, bar: bool = False) -> str:
        """What is being done and how far (the bar shows done/total in a column of its own)."""
        what = self.what or "working"
        if self.total is not None and not bar:
            return f"{what}, {self.done}/{self.total} {self.unit} done".replace("  ", " ")
        if self.done:
            return f"{what}, {self.done} {self.unit} done".replace("  ", " ")
        return what

    def _elapsed(self) -> str:
        seconds = time.perf_counter() - self._started
        if seconds < 60:
            return f"{seconds:.0f} s"
        return f"{int(seconds // 60)} min {seconds % 60:02.0f} s"

    def _beat(self, interval: float) -> None:
        while not self._stop.wait(interval):
            beat = self.line()
            with self._lock:
                self._write(beat)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth failing for
            pass
