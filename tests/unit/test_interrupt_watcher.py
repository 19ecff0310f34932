"""The watcher of ``regen_model.interrupts``: SIGINT and SIGTERM stop a Z3 query that is
running (a C call, during which Python runs no signal handler), and the cancelled query is
the stop (``Interrupted``), never an unknown answer, a retry or a verdict.

The query is a hand-made hard one: the pigeonhole principle (13 pigeons, 12 holes) is unsat and
takes Z3's SAT core many minutes; its ``rlimit`` ends it after about 50 s on our machine, so a
test that ends within ``PROMPT`` seconds was stopped by the signal.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest
import z3

from regen_model.checks.solver import Budget, Query, Route, Status
from regen_model.interrupts import Interrupted, handling_signals

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# Far below the query's own time (minutes); a bound on a hang, not a speed goal.
PROMPT = 10.0


def _pigeons(holes: int) -> list[z3.BoolRef]:
    """``holes + 1`` pigeons each in some hole, no two in one hole: unsat."""
    p = [[z3.Bool(f"pigeon{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    out = [z3.Or(*row) for row in p]
    for j in range(holes):
        for i in range(holes + 1):
            out += [z3.Not(z3.And(p[i][j], p[k][j])) for k in range(i + 1, holes + 1)]
    return out


def _hard_query() -> Query:
    # a budget bounds the test if the stop does not work: 10M is about 50 s of this query here
    q = Query(Budget(rlimit=10_000_000))
    q.add(*_pigeons(12))
    return q


def _signal_later(signum: int, seconds: float = 0.5) -> None:
    threading.Timer(seconds, os.kill, (os.getpid(), signum)).start()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_a_query_stops_it_at_once(signum: int) -> None:
    with handling_signals():
        _signal_later(signum)
        started = time.monotonic()
        with pytest.raises(Interrupted) as stop:
            _hard_query().check()
        assert time.monotonic() - started < PROMPT
        assert stop.value.signum == signum
        # the stop is over: a query started after it is answered, not cancelled
        small = Query()
        small.add(*_pigeons(4))
        assert small.check().status is Status.UNSAT
    # Z3's own Ctrl-C handler (which would swallow SIGINT as an unknown) is back after the block
    assert z3.get_param("ctrl_c") == "true"


def test_a_cancelled_query_is_the_stop_not_an_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Here the Python handler does not raise (it is replaced by one that does nothing), so
    only the watcher acts: it cancels the query, and ``Query.check`` must turn the unknown
    answer into ``Interrupted``, without trying the query again on another route."""
    routes: list[Route] = []
    fresh = Query._fresh_solver

    def counted(self: Query, seed: int, route: Route = Route.DIRECT) -> object:
        routes.append(route)
        return fresh(self, seed, route)

    monkeypatch.setattr(Query, "_fresh_solver", counted)
    with handling_signals():
        signal.signal(signal.SIGTERM, lambda signum, frame: None)
        _signal_later(signal.SIGTERM)
        started = time.monotonic()
        with pytest.raises(Interrupted) as stop:
            _hard_query().check()
        assert time.monotonic() - started < PROMPT
    assert stop.value.signum == signal.SIGTERM
    assert len(routes) == 1  # the first attempt only: no retry


def test_without_the_block_z3_answers_as_usual() -> None:
    q = Query()
    q.add(*_pigeons(4))
    answer = q.check()
    assert answer.status is Status.UNSAT and answer.attempts == 1
