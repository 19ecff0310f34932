"""Stopping a long run with SIGINT (Ctrl-C) or SIGTERM, keeping what it computed.

``cli.main`` turns both signals into ``Interrupted``, a ``KeyboardInterrupt``, so every
``except KeyboardInterrupt`` (and every ``finally`` closing an engine or a pool) serves both.
The long computations (``explore``, ``crosscheck``, ``prove``'s and ``verify``'s loops) catch
it where their partial results are whole, return them marked with the signal's name
(``interrupted``), and the command prints and writes them as asked, marked incomplete, before
exiting with ``128 + signal`` (130 for SIGINT, 143 for SIGTERM), as shells report it.

**Why a watcher thread.** Python runs a signal handler in the main thread between two bytecodes.
A Z3 query is one C call (z3py goes through ctypes), and at eight card slots one query can run
for many minutes: the handler, and so the stop, waited for the query to end (seen: a SIGTERM'd
``prove --scope cards=8`` still running four minutes later). So while ``handling_signals`` is
active, the C-level handler also writes the signal's number to a pipe (``signal.set_wakeup_fd``)
and a watcher thread reading it cancels the running query with ``Z3_interrupt`` on z3py's
context (thread-safe; the query returns unknown, reason "interrupted"). The main thread is
then back in Python, where the handler raises ``Interrupted`` at once: inside z3py's wrapper,
right after the C call, so the cancelled answer never reaches the caller and is never read as
a verdict (``Query.check`` checks it once more: ``raise_if_cancelled``). This serves every
place a query runs in this process (``prove``, ``verify``, ``explore``'s symbolic route,
``find``, any-n, CHC/Spacer), since they all use z3py's one default context.

**Z3's own Ctrl-C handler.** By default Z3 installs a SIGINT handler of its own for the length
of each check (its ``ctrl_c`` parameter): it cancels the check, which returns unknown
("interrupted from keyboard"), and Python never sees the signal, so a Ctrl-C became an
UNKNOWN answer (retried on the other route) and the run went on. ``handling_signals`` turns
that parameter off for its block (``z3.set_param``; forked workers inherit it), so SIGINT takes
the same way as SIGTERM.

The watcher cancels only while the handler has not yet run for the signal (a query started by
the report after the stop must not be cancelled), and it repeats the cancel every
``RETRY_SECONDS`` until the handler ran, for at most ``PERSIST_SECONDS``: a cancel that lands
just before Z3 begins a check is lost (Z3 resets its cancel flag when a check starts).

**Workers.** Worker processes forked while a block is active (``os.register_at_fork``) ignore
SIGINT (the terminal sends it to the whole process group: the parent alone decides) and take
SIGTERM's default action, which ends them at once, even inside a Z3 call (a Python handler
there would wait for the query as above). ``stop_workers`` sends that SIGTERM, so the parent
never waits for a worker's query when it closes its pool. A forked worker also stops writing
into the parent's pipe.

**Global state.** A signal handler and an at-fork hook take no arguments of ours, so the
active block's state (``_Watch``) is the one module-level variable, ``_ACTIVE``; it is set and
cleared by ``handling_signals`` only (and forgotten in a forked child).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType

HANDLED = (signal.SIGINT, signal.SIGTERM)

# How often the watcher repeats its cancel while the handler has not run, and for how long.
RETRY_SECONDS = 0.05
PERSIST_SECONDS = 5.0
# How long ``raise_if_cancelled`` lets the pending handler raise before raising itself.
SETTLE_SECONDS = 1.0


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


@dataclass
class _Watch:
    """What the handler (main thread), the watcher thread and ``raise_if_cancelled`` share
    during one ``handling_signals`` block. ``lock`` orders the handler's count against the
    watcher's cancel, so a cancel never comes after the handler ran for that signal."""

    owner: int  # the pid of the process that opened the block
    read_fd: int
    write_fd: int
    lock: threading.RLock = field(default_factory=threading.RLock)  # re-entrant: a 2nd signal
    handled: int = 0  # times the handler ran (each raised ``Interrupted``)
    cancels: int = 0  # times the watcher cancelled Z3
    cancelled_before: int = 0  # ``handled`` when the watcher last cancelled
    signum: int = signal.SIGINT  # the last signal the watcher read
    closed: bool = False


_ACTIVE: _Watch | None = None  # the active block's state (module docstring: global state)


def _cancel_z3() -> bool:
    """Cancel whatever z3py's default context is running (no-op when idle); False when z3 is
    not loaded or has no context yet, so no query can be running."""
    module = sys.modules.get("z3.z3")
    context = getattr(module, "_main_ctx", None) if module is not None else None
    if context is None:
        return False
    context.interrupt()
    return True


def _watch(watch: _Watch) -> None:
    """The watcher thread: for each signal written to the pipe, cancel Z3 until the handler has
    run (module docstring); ends when the block closes the pipe's write end."""
    while True:
        with watch.lock:
            seen = watch.handled
        try:
            data = os.read(watch.read_fd, 64)
        except OSError:
            data = b""
        if not data:
            os.close(watch.read_fd)
            return
        watch.signum = data[-1]
        deadline = time.monotonic() + PERSIST_SECONDS
        while time.monotonic() < deadline:
            with watch.lock:
                if watch.handled != seen or watch.closed:
                    break
                if _cancel_z3():
                    watch.cancels += 1
                    watch.cancelled_before = seen
            time.sleep(RETRY_SECONDS)


def cancel_count() -> int:
    """How often the watcher has cancelled Z3 so far: read before a query, passed to
    ``raise_if_cancelled`` after it (0 outside ``handling_signals``)."""
    watch = _ACTIVE
    return watch.cancels if watch is not None and watch.owner == os.getpid() else 0


def raise_if_cancelled(since: int) -> None:
    """Raise ``Interrupted`` if the watcher cancelled Z3 after ``cancel_count()`` was
    ``since``: an unknown answer is then the stop, not the solver's, and must be neither
    reported nor retried. The handler, pending since the query began, normally raises
    already in z3py's wrapper; if the caller got here anyway (e.g. it is not the main
    thread), the handler gets ``SETTLE_SECONDS`` to raise, then this raises."""
    watch = _ACTIVE
    if watch is None or watch.owner != os.getpid() or watch.cancels == since:
        return
    deadline = time.monotonic() + SETTLE_SECONDS
    while watch.handled <= watch.cancelled_before and time.monotonic() < deadline:
        time.sleep(0.01)  # the main thread runs the pending handler here
    raise Interrupted(watch.signum)


def _forget_in_child() -> None:
    """``os.register_at_fork`` hook: a worker forked during a block ignores SIGINT, ends at
    once on SIGTERM and leaves the parent's pipe alone (module docstring)."""
    global _ACTIVE
    watch = _ACTIVE
    if watch is None:
        return
    _ACTIVE = None
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for fd in (watch.read_fd, watch.write_fd):
        with contextlib.suppress(OSError):
            os.close(fd)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_in_child)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` in this process while the block runs, promptly
    even while a Z3 query runs (module docstring)."""
    global _ACTIVE
    if threading.current_thread() is not threading.main_thread() or _ACTIVE is not None:
        # not the main thread (an embedding application): leave signals alone; or nested in
        # an active block, which already handles them
        yield
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    watch = _Watch(os.getpid(), read_fd, write_fd)

    def handle(signum: int, frame: FrameType | None) -> None:
        with watch.lock:
            watch.handled += 1
        stop_workers()
        raise Interrupted(signum)

    import z3  # already loaded by the commands; here for its Ctrl-C parameter

    previous_ctrl_c = z3.get_param("ctrl_c")
    z3.set_param("ctrl_c", False)  # SIGINT reaches our handler, not Z3's (module docstring)
    previous = {s: signal.getsignal(s) for s in HANDLED}
    for s in HANDLED:
        signal.signal(s, handle)
    previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    _ACTIVE = watch
    threading.Thread(target=_watch, args=(watch,), name="signal-watcher", daemon=True).start()
    try:
        yield
    finally:
        _ACTIVE = None
        signal.set_wakeup_fd(previous_fd)
        for s, handler in previous.items():
            signal.signal(s, handler)
        z3.set_param("ctrl_c", previous_ctrl_c)
        with watch.lock:
            watch.closed = True
        os.close(write_fd)  # the watcher reads the end of the pipe, closes it and returns
