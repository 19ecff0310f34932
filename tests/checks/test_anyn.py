"""Proofs for any number of permanents on the per-permanent abstraction (checks/anyn.py),
and the abstraction's soundness against the engine (checks/local.py)."""

from __future__ import annotations

import pytest

from regen_model.checks import anyn
from regen_model.checks.local import Conformance, fits
from regen_model.checks.results import summarize
from regen_model.checks.solver import Budget
from regen_model.conform.generate import random_cases
from regen_model.encoding.outputs import outputs_of
from regen_model.engine import EngineError, step
from regen_model.invariants import BoolExpr, all_cards, builtin, invariant, step_invariant
from regen_model.invariants.spec import Invariant
from regen_model.model.actions import Destroy
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.state import Shield
from regen_model.verdicts import Verdict

BUDGET = Budget()


def _by_id(ids: set[str]) -> list[Invariant]:
    return [i for i in builtin() if i.id in ids]


def test_per_permanent_catalog_proved_for_any_number() -> None:
    rows = {r.invariant: r for r in summarize(anyn.prove(builtin(), BUDGET))}
    local = {i.id for i in builtin() if i.local is not None}
    assert {k for k, r in rows.items() if r.verdict is Verdict.PROVED} == local
    assert all(r.verdict is Verdict.SKIPPED for k, r in rows.items() if k not in local)
    assert "regen.shield.apply" in rows["inv.shield.used-once"].clauses


@invariant("test.never-tapped", "never tapped", ("regen.apply.tap",))
def never_tapped() -> BoolExpr:
    return all_cards(lambda c: ~c.tapped)


@step_invariant("test.reads-controller", "reads a field the record lacks", ("control.change",))
def reads_controller() -> BoolExpr:
    return all_cards(lambda c: c.post.controller >= 0)


def test_false_or_unsupported_invariants_are_not_proved() -> None:
    results = anyn.prove([never_tapped, reads_controller], BUDGET)
    rows = {r.invariant: r for r in summarize(results)}
    assert rows["test.never-tapped"].verdict is Verdict.CTI  # never VIOLATED on an abstraction
    assert rows["test.reads-controller"].verdict is Verdict.SKIPPED
    assert "'controller'" in rows["test.reads-controller"].reason


@pytest.mark.slow
def test_quantified_form_gives_the_same_verdicts() -> None:
    chosen = _by_id({"inv.shield.used-once", "inv.regen.taps-only-when-applied"})
    quick = {(r.invariant, r.obligation, r.action): r.verdict for r in anyn.prove(chosen, BUDGET)}
    slow = {
        (r.invariant, r.obligation, r.action): r.verdict
        for r in anyn.prove(chosen, BUDGET, quantified=True)
    }
    assert quick == slow and set(quick.values()) == {Verdict.PROVED}


def _conformance_failures(n_cases: int, seed: int) -> tuple[int, list[str]]:
    check = Conformance(shields=2)
    checked, failures = 0, []
    for case in random_cases(n_cases, seed=seed, max_steps=20):
        s = case.start.build()
        for action in case.actions:
            try:
                r = step(s, action)
            except EngineError:
                continue
            if fits(s, 2) and fits(r.state, 2):
                out = outputs_of(s, r.events, r.state)
                for slot in range(len(s.cards)):
                    checked += 1
                    if not check.check(action.kind, s, out, r.state, slot):
                        failures.append(f"{case.name}: {action.kind} on {s.handle(slot)}")
            s = r.state
    return checked, failures


def test_engine_steps_are_steps_of_the_abstraction() -> None:
    checked, failures = _conformance_failures(25, seed=5)
    assert checked > 500 and failures == []


@pytest.mark.slow
def test_engine_steps_are_steps_of_the_abstraction_long() -> None:
    checked, failures = _conformance_failures(200, seed=7)
    assert checked > 5000 and failures == []


def test_the_soundness_check_can_fail() -> None:
    troll = CardSpec(
        "troll", PERMANENT_CARDS["Horned Troll"], 0, shields=(Shield("Death Ward", 0, Rider.NONE),)
    )
    s = make_state(("A", "B"), (troll,))
    action = Destroy(targets=("troll",))
    r = step(s, action)
    out = outputs_of(s, r.events, r.state)
    check = Conformance(shields=2)
    assert check.check("destroy", s, out, r.state, 0)
    untapped = r.state._replace(cards=(r.state.cards[0]._replace(tapped=False),))
    assert not check.check("destroy", s, out, untapped, 0)  # regeneration always taps
    assert not check.check("create-shield", s, out, r.state, 0)  # no destruction there
