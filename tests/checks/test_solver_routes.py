"""The retry routes of ``checks/solver.py``: an unknown is asked again by the preprocessing
route, whose answers are mapped like the direct route's, and an unknown that no route decides
stays unknown.

The query is a chain of definitions ``x[i+1] = 2 x[i] + 1`` from ``x[0] = 3`` and a claim
about its last element. Solving the equations away (``solve-eqs``) leaves a comparison of two
numerals, which the direct route's SMT core reaches only by propagating along the chain: at
300 links the direct route needs about 110,000 units of rlimit and the preprocessing route
about 6,000 (z3 5.4), so a budget of 30,000 lies between them with a margin of more than
three times either way.
"""

from __future__ import annotations

import z3

from regen_model.checks.solver import Answer, Budget, Query, Route, Status, retry_route
from regen_model.checks.system import Tracked

LINKS = 300
BETWEEN = 30_000  # rlimit: too little for the direct route, enough after preprocessing


def _chain() -> tuple[list[z3.ArithRef], int]:
    xs = [z3.Int(f"x{i}") for i in range(LINKS)]
    last = 3
    for _ in range(LINKS - 1):
        last = 2 * last + 1
    return xs, last


def _ask(
    goal_of_last: bool, budget: Budget, first: Route = Route.DIRECT
) -> tuple[Answer, list[z3.ArithRef], int]:
    xs, last = _chain()
    definitions = [xs[0] == 3] + [xs[i + 1] == 2 * xs[i] + 1 for i in range(LINKS - 1)]
    goal = xs[-1] == last if goal_of_last else xs[-1] != last
    q = Query(budget, first=first)
    lits = q.track([Tracked("defs", z3.And(definitions)), Tracked("goal", goal)])
    return q.check(lits), xs, last


def test_the_direct_route_alone_is_unknown_at_that_budget() -> None:
    answer, _, _ = _ask(False, Budget(rlimit=BETWEEN, retries=0))
    assert answer.status is Status.UNKNOWN
    assert answer.route is Route.DIRECT
    assert "resource limit exhausted" in answer.reason


def test_the_retry_decides_unsat_with_a_core_that_is_unsat() -> None:
    answer, _, _ = _ask(False, Budget(rlimit=BETWEEN, retries=1))
    assert answer.status is Status.UNSAT
    assert answer.route is Route.PREPROCESS
    assert answer.attempts == 2
    assert answer.core == ("defs", "goal")
    # Each label alone is satisfiable: both were needed, so the core is not made up.
    xs, last = _chain()
    chain = [xs[0] == 3] + [xs[i + 1] == 2 * xs[i] + 1 for i in range(LINKS - 1)]
    for only in (z3.And(chain), xs[-1] != last):
        q = Query(Budget(rlimit=0))
        assert q.check(q.track([Tracked("alone", only)])).status is Status.SAT


def test_the_retry_decides_sat_with_a_model_of_every_constraint() -> None:
    direct, _, _ = _ask(True, Budget(rlimit=BETWEEN, retries=0))
    assert direct.status is Status.UNKNOWN
    answer, xs, last = _ask(True, Budget(rlimit=BETWEEN, retries=1))
    assert answer.status is Status.SAT
    assert answer.route is Route.PREPROCESS
    # The model comes back through the tactics' model converters: the variables that
    # solve-eqs eliminated have their values too.
    model = answer.model
    assert model is not None
    assert model.eval(xs[0], model_completion=True).as_long() == 3
    for i in range(LINKS - 1):
        a = model.eval(xs[i], model_completion=True).as_long()
        b = model.eval(xs[i + 1], model_completion=True).as_long()
        assert b == 2 * a + 1
    assert model.eval(xs[-1], model_completion=True).as_long() == last


def test_an_unknown_no_route_decides_stays_unknown() -> None:
    answer, _, _ = _ask(False, Budget(rlimit=100, retries=2))
    assert answer.status is Status.UNKNOWN
    assert answer.attempts == 3
    assert answer.core == ()
    assert answer.model is None


def test_the_routes_in_order() -> None:
    assert [retry_route(a) for a in range(4)] == [
        Route.DIRECT,
        Route.PREPROCESS,
        Route.DIRECT,
        Route.DIRECT,
    ]
    assert [retry_route(a, Route.PREPROCESS) for a in range(4)] == [
        Route.PREPROCESS,
        Route.DIRECT,
        Route.DIRECT,
        Route.DIRECT,
    ]


def test_a_query_may_start_with_the_preprocessing_route() -> None:
    """A query asked by the preprocessing route first (``induction.first_route``) decides
    the chain on its first attempt, within the budget the direct route cannot meet, with the
    same core; with no retry left it is that route's answer alone."""
    answer, _, _ = _ask(False, Budget(rlimit=BETWEEN, retries=0), Route.PREPROCESS)
    assert answer.status is Status.UNSAT
    assert (answer.route, answer.attempts) == (Route.PREPROCESS, 1)
    assert answer.core == ("defs", "goal")
    sat, xs, last = _ask(True, Budget(rlimit=BETWEEN, retries=0), Route.PREPROCESS)
    assert sat.status is Status.SAT
    assert sat.model is not None
    assert sat.model.eval(xs[-1], model_completion=True).as_long() == last


def test_the_retry_after_the_preprocessing_route_is_direct() -> None:
    """Started by the preprocessing route, an unknown is asked again directly: at a budget
    neither route meets, both are tried and the answer stays unknown."""
    answer, _, _ = _ask(False, Budget(rlimit=100, retries=1), Route.PREPROCESS)
    assert answer.status is Status.UNKNOWN
    assert (answer.route, answer.attempts) == (Route.DIRECT, 2)
