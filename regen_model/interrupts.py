"""Stopping a long run with SIGINT (Ctrl-C) or SIGTERM, keeping what it computed.

``cli.main`` turns both signals into ``Interrupted``, a ``KeyboardInterrupt``, so every
``except KeyboardInterrupt`` (and every ``finally`` closing an engine or a pool) serves both.
The long computations (``explore``, ``crosscheck``, ``prove``'s and ``verify``'s loops) catch
it where their partial results are whole, return them marked with the signal's name
(``interrupted``), and the command prints and writes them as asked, marked incomplete, before
exiting with ``128 + signal`` (130 for SIGINT, 143 for SIGTERM), as shells report it.

``handling_signals`` installs the handlers; worker processes forked while it is active ignore
SIGINT (the terminal sends it to the whole process group: the parent alone decides) and end
quietly on SIGTERM, which is how the parent stops them (``stop_workers``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType

HANDLED = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def signal_name(stop: BaseException) -> str:
    """``SIGINT`` or ``SIGTERM``: which signal ``stop`` stands for (a plain
    ``KeyboardInterrupt`` is Python's own SIGINT)."""
    if isinstance(stop, Interrupted):
        return signal.Signals(stop.signum).name
    return signal.SIGINT.name


def exit_code(name: str) -> int:
    """The exit code of a run stopped by signal ``name``: 128 + its number (130, 143)."""
    return 128 + signal.Signals[name].value


def stop_workers() -> None:
    """End the worker processes of every ``multiprocessing`` pool of this process (they may be
    in the middle of a task: their results are not waited for)."""
    import multiprocessing

    for child in multiprocessing.active_children():
        with contextlib.suppress(Exception):
            child.terminate()


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` in this process while the block runs."""
    owner = os.getpid()

    def handle(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a forked worker: the parent decides, then terminates us
            if signum == signal.SIGTERM:
                sys.stdout.flush()
                os._exit(exit_code(signal.SIGTERM.name))
            return
        stop_workers()
        raise Interrupted(signum)

    previous = {s: signal.getsignal(s) for s in HANDLED}
    try:
        for s in HANDLED:
            signal.signal(s, handle)
    except ValueError:  # not the main thread (an embedding application): leave signals alone
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
