"""The Z3 gap resolver: it explains logs that leave out what enumeration cannot list, the
engine still decides, a wrong value still fails at its step, and where the solver cannot help
it falls back to enumeration and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from regen_model.checks.solver import Budget
from regen_model.cli import _register_all, app
from regen_model.conform import solve
from regen_model.conform.gaps import EnumerationResolver
from regen_model.conform.itf import parse_trace
from regen_model.conform.observe import Observation
from regen_model.conform.solve import AutoResolver, SolvingResolver
from regen_model.conform.start import Start
from regen_model.conform.trace_check import TraceReport, check_trace
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.model import actions as A
from regen_model.model.rules import CORRECT
from regen_model.verdicts import Verdict

from .helpers import (
    card_fields,
    keep_only,
    knight_destroyed_twice_unlogged_choice,
    trace_of,
    write,
)

SEVEN_TO_B = A.DealDamage(source="effect", shares=(A.DamageShare(7, player=1),))
PUMP_BEAR = A.ModifyPowerToughness(target="bear", power=5, toughness=5)


def _check(data: dict[str, Any], resolver: Any) -> TraceReport:
    return check_trace(parse_trace(json.dumps(data), "t.itf.json"), resolver=resolver)


def _unlogged(start: Start, gap: A.Action) -> dict[str, Any]:
    """``gap`` without its action in the log, then a logged destroy of the troll."""
    data = trace_of(start, gap, A.Destroy(targets=("troll",)))
    del data["states"][1]["#meta"]["action"]
    return data


@pytest.mark.parametrize("gap", [SEVEN_TO_B, PUMP_BEAR], ids=["7-damage", "plus-5"])
def test_a_missing_effect_beyond_the_enumerated_domain_is_solved(
    troll_and_bear: Start, gap: A.Action
) -> None:
    data = _unlogged(troll_and_bear, gap)
    enumerated = _check(data, EnumerationResolver())
    assert enumerated.verdict is Verdict.FAILED
    assert enumerated.failure is not None and enumerated.failure.step == 1
    solved = _check(data, SolvingResolver())
    assert solved.verdict is Verdict.PASSED, solved.failure
    assert solved.resolver == "z3"
    assert solved.max_frontier == 1
    auto = _check(data, AutoResolver())
    assert auto.verdict is Verdict.PASSED
    assert auto.resolver == "auto: enumeration, z3 at 1 state"


def test_the_solved_action_is_the_logged_one(troll_and_bear: Start) -> None:
    """The solver proposes, the engine runs: the matching attempt is the 7 damage to B."""
    trace = parse_trace(json.dumps(_unlogged(troll_and_bear, SEVEN_TO_B)))
    start = trace.start.build()
    step1 = trace.steps[0]
    resolver = SolvingResolver()
    attempts = list(resolver.attempts(start, None, step1.observation, CORRECT))
    good = [a for a in attempts if a.result is not None and a.result.state.players[1].life == 13]
    assert good and all(isinstance(a.action, A.DealDamage) for a in good)
    assert {a.action.shares for a in good if isinstance(a.action, A.DealDamage)} == {
        SEVEN_TO_B.shares
    }
    assert len(attempts) <= 2 * solve.MAX_ATTEMPTS


def test_an_unlogged_616_choice_is_solved() -> None:
    """Knight of the Holy Nimbus (static regeneration) with a shield is destroyed: the log
    does not say which replacement its controller chose; the observation does."""
    data = knight_destroyed_twice_unlogged_choice("Ward")
    report = _check(data, SolvingResolver())
    assert report.verdict is Verdict.PASSED and report.resolver == "z3"
    assert report.max_frontier == 1  # the shield still unused: static regeneration was chosen
    # the attempt that matches names the static ability
    trace = parse_trace(json.dumps(data))
    step1 = trace.steps[0]
    attempts = SolvingResolver().attempts(
        trace.start.build(), step1.action, step1.observation, CORRECT
    )
    matching = [a for a in attempts if a.result is not None and a.result.state.cards[0].shields]
    assert any(c.use == "static" for a in matching for c in a.action.choices)
    # Unobserved shields leave both answers open, as enumeration does.
    partial = keep_only(data, {"knight": ["zone", "tapped"]})
    assert _check(partial, SolvingResolver()).max_frontier == 2


def test_a_wrong_observed_value_fails_at_its_step(troll_and_bear: Start) -> None:
    data = _unlogged(troll_and_bear, SEVEN_TO_B)
    card_fields(data, 2, "troll")["tapped"] = False  # a logged step: the engine's one try
    report = _check(data, SolvingResolver())
    assert report.verdict is Verdict.FAILED and report.matched == 1
    f = report.failure
    assert f is not None and f.step == 2 and f.closest is not None
    assert [(d.path, d.expected, d.observed) for d in f.closest.diffs] == [
        ("cards.troll.tapped", True, False)
    ]
    # At the unlogged step itself: no 7 damage gives 12 life; enumeration's candidates are
    # shown to explain the failure.
    data = _unlogged(troll_and_bear, SEVEN_TO_B)
    data["states"][1]["players"]["#map"][1][1]["life"] = 12
    report = _check(data, SolvingResolver())
    assert report.verdict is Verdict.FAILED and report.matched == 0
    assert report.failure is not None and report.failure.step == 1
    assert report.failure.closest is not None
    assert "enumeration where the solver found no matching successor" in report.resolver


def test_out_of_scope_and_unknown_fall_back_to_enumeration(
    troll_and_bear: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = trace_of(troll_and_bear, A.Destroy(targets=("bear",)))
    del data["states"][1]["#meta"]["action"]["targets"]
    gave_up = SolvingResolver(budget=Budget(rlimit=1, retries=0))
    report = _check(data, gave_up)
    assert report.verdict is Verdict.PASSED
    assert "enumeration where the solver gave up" in report.resolver

    def too_big(state: object, scope: Scope) -> None:
        raise OutOfScope("too many cards")

    monkeypatch.setattr(solve._At, "make", staticmethod(too_big))
    report = _check(data, SolvingResolver())
    assert report.verdict is Verdict.PASSED
    assert report.resolver == "z3 (and enumeration where out of scope: too many cards (1 state))"


def test_a_proposal_the_engine_rejects_is_only_a_failed_attempt(
    troll_and_bear: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solver that proposes nonsense does not make a trace pass."""

    def nonsense(values: object, goal: object, state: object, scope: object) -> A.Action:
        return A.Sacrifice(target="nobody")

    monkeypatch.setattr(solve, "_decode", nonsense)
    data = _unlogged(troll_and_bear, SEVEN_TO_B)
    resolver = SolvingResolver(fallback=solve._Nothing())
    report = _check(data, resolver)
    assert report.verdict is Verdict.FAILED and report.failure is not None
    assert report.failure.step == 1
    assert "no card named 'nobody'" in report.failure.rejected[0]


def test_observed_constraints_fold_on_values(troll_and_bear: Start) -> None:
    """The observation of a successor whose values are known folds to booleans."""
    from regen_model.encoding.frame import values
    from regen_model.encoding.work import layout

    state = troll_and_bear.build()
    scope = Scope(cards=2)
    frame = layout(scope).frame
    post = values(frame, state)
    seen = Observation(
        {"troll": {"zone": "battlefield", "shields": 1, "power": 2}}, {"B": {"life": 20}}
    )
    assert solve.observed_constraints(frame, post, state, seen) == [True] * 4
    wrong = Observation({"bear": {"controller": "A", "tapped": False}})
    assert solve.observed_constraints(frame, post, state, wrong) == [False, True]


def test_check_trace_resolver_option(tmp_path: Path, troll_and_bear: Start) -> None:
    _register_all()
    path = write(tmp_path, _unlogged(troll_and_bear, SEVEN_TO_B))
    run = CliRunner()
    assert run.invoke(app, ["check-trace", str(path), "--resolver", "enumerate"]).exit_code == 1
    result = run.invoke(app, ["check-trace", str(path), "--resolver", "z3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["resolver"] == "z3"
    result = run.invoke(app, ["check-trace", str(path), "--json"])  # auto by default
    assert result.exit_code == 0
    assert json.loads(result.stdout)["resolver"] == "auto: enumeration, z3 at 1 state"
    assert "resolver auto" in run.invoke(app, ["check-trace", str(path)]).output
