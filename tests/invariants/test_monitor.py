"""Each invariant holds on the engine and is broken, as a monitor, by a mutant of the rules.

One small run per invariant: it must pass under the correct rules and fail under the mutant
named (the mutant matrix itself lives in ``regen_model.mutants``; this checks the monitors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from regen_model.conform.generate import random_cases
from regen_model.encoding.outputs import outputs_of
from regen_model.engine import EngineError, step
from regen_model.invariants import (
    InvariantViolated,
    action_is,
    builtin,
    check_step,
    checked_step,
    ite,
    monitor,
    post,
    pre,
    sum_cards,
)
from regen_model.invariants.concrete import ConcreteView
from regen_model.invariants.view import evaluate
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS
from regen_model.model.enums import Keyword, Mutant, Rider
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

from .helpers import card, shields, state, violations

Case = tuple[str, Mutant, Callable[[], GameState], tuple[A.Action, ...]]

# A's Shock, then A's Lightning Bolt on the pup above it; both pass: the Bolt resolves with
# another object beneath it (the pass that ``inv.damage-trigger.kept`` once let remove two)
RESOLVE_ABOVE_ANOTHER: tuple[A.Action, ...] = (
    SPELLS["Shock"].cast(0, (A.TargetChoice(player=1),)),
    SPELLS["Lightning Bolt"].cast(0, (A.TargetChoice(card="pup"),)),
    A.PassPriority(player=0),
    A.PassPriority(player=1),
)


def troll(n: int = 1, **fields: Any) -> GameState:
    return state(card("troll", "Horned Troll", shields=shields(n), **fields))


CASES: list[Case] = [
    ("inv.shield.used-once", Mutant.SHIELD_NOT_CONSUMED, troll, (A.Destroy(targets=("troll",)),)),
    (
        "inv.shield.made-this-turn",
        Mutant.SHIELD_FOLLOWS_ZONE_CHANGE,
        troll,
        (A.LeaveAndReturn(target="troll"),),
    ),
    (
        "inv.survival.needs-shields",
        Mutant.INDESTRUCTIBLE_USES_SHIELD,
        lambda: state(card("myr", "Darksteel Myr")),
        (A.Destroy(targets=("myr",)),),
    ),
    (
        "inv.shield.one-per-destruction",
        Mutant.ONE_DESTRUCTION_USES_ALL,
        lambda: troll(2),
        (A.Destroy(targets=("troll",)),),
    ),
    (
        "inv.regen.taps-only-when-applied",
        Mutant.CREATE_TAPS,
        lambda: troll(0),
        (A.CreateShield(target="troll"),),
    ),
    ("inv.regen.same-object", Mutant.REGEN_DOES_NOT_TAP, troll, (A.Destroy(targets=("troll",)),)),
    (
        "inv.regen.same-object",
        Mutant.REGEN_KEEPS_DAMAGE,
        lambda: troll(1, damage=1),
        (A.Destroy(targets=("troll",)),),
    ),
    (
        "inv.regen.attachments-stay",
        Mutant.REGEN_UNATTACHES,
        lambda: state(
            card("troll", "Horned Troll", shields=shields(1)),
            card("aura", "Holy Strength", attached_to="troll"),
        ),
        (A.Destroy(targets=("troll",)),),
    ),
    ("inv.cleanup.ends-this-turn", Mutant.SHIELDS_SURVIVE_CLEANUP, troll, (A.Cleanup(),)),
    (
        "inv.cleanup.ends-this-turn",
        Mutant.CANT_REGEN_SURVIVES_CLEANUP,
        lambda: troll(0, cant_regen=True),
        (A.Cleanup(),),
    ),
    (
        "inv.cant-regen.no-shield-used",
        Mutant.CANT_REGEN_IGNORED,
        lambda: troll(1, cant_regen=True),
        (A.Destroy(targets=("troll",)),),
    ),
    (
        "inv.indestructible.no-shield",
        Mutant.INDESTRUCTIBLE_USES_SHIELD,
        lambda: state(card("myr", "Darksteel Myr", shields=shields(1))),
        (A.Destroy(targets=("myr",)),),
    ),
    (
        "inv.not-destruction.no-shield",
        Mutant.SACRIFICE_USES_SHIELD,
        troll,
        (A.Sacrifice(target="troll"),),
    ),
    (
        "inv.not-destruction.no-shield",
        Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION,
        troll,
        (A.ModifyPowerToughness(target="troll", toughness=-2), A.CheckStateBasedActions()),
    ),
    (
        "inv.priority.no-sba-pending",
        Mutant.NO_SBA_BEFORE_PRIORITY,
        lambda: state(card("bears", "Grizzly Bears", damage=2)),
        (A.PassPriority(player=0),),
    ),
    (
        "inv.rider.exactly-when-used",
        Mutant.RIDER_ON_CREATE,
        lambda: troll(0),
        (A.CreateShield(target="troll", rider=Rider.MINUS_COUNTER),),
    ),
    (
        "inv.new-object.no-shields",
        Mutant.SHIELD_FOLLOWS_ZONE_CHANGE,
        troll,
        (A.LeaveAndReturn(target="troll"),),
    ),
    (
        "inv.static-regen.never-destroyed",
        Mutant.STATIC_REGEN_USED_UP,
        lambda: state(card("moss", "Mossbridge Troll", damage=5)),
        (
            A.CheckStateBasedActions(),
            A.DealDamage(source="bolt", shares=(A.DamageShare(5, card="moss"),)),
            A.CheckStateBasedActions(),
        ),
    ),
    (
        "inv.damage-trigger.kept",
        Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN,
        lambda: state(card("pup", "Jackal Pup", shields=shields(1))),
        (
            A.DealDamage(source="bolt", shares=(A.DamageShare(3, card="pup"),)),
            A.CheckStateBasedActions(),
        ),
    ),
    (
        "inv.damage-trigger.kept",
        Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN,
        lambda: state(card("pup", "Jackal Pup", shields=shields(1))),
        RESOLVE_ABOVE_ANOTHER,
    ),
]


@pytest.mark.parametrize(
    ("inv", "mutant", "start", "actions"), CASES, ids=[f"{c[0]}-{c[1].value}" for c in CASES]
)
def test_mutant_breaks_the_invariant(
    inv: str, mutant: Mutant, start: Callable[[], GameState], actions: tuple[A.Action, ...]
) -> None:
    assert violations(start(), actions) == set()
    assert inv in violations(start(), actions, Rules(frozenset({mutant})))


def test_every_invariant_has_a_killing_case() -> None:
    assert {inv.id for inv in builtin()} == {c[0] for c in CASES}


def test_violation_names_the_card_and_the_step() -> None:
    start = troll()
    action = A.Destroy(targets=("troll",))
    result = step(start, action, Rules(frozenset({Mutant.SHIELD_NOT_CONSUMED})))
    found = {v.invariant: v for v in monitor(start, action, result)}
    v = found["inv.shield.used-once"]
    assert v.cards == ("troll",)
    assert "inv.shield.used-once violated for troll" in v.describe()


def test_checked_step_raises() -> None:
    with pytest.raises(InvariantViolated, match=r"shield\.one-per-destruction"):
        checked_step(
            troll(2),
            A.Destroy(targets=("troll",)),
            Rules(frozenset({Mutant.ONE_DESTRUCTION_USES_ALL})),
        )
    checked_step(troll(2), A.Destroy(targets=("troll",)))


def test_catalog_holds_on_random_engine_runs() -> None:
    """Correct rules, random starts and actions: no monitor ever fires."""
    steps = 0
    for case in random_cases(60, seed=20260807, max_steps=25):
        s = case.start.build()
        for action in case.actions:
            try:
                result = step(s, action, CORRECT)
            except EngineError:
                continue
            assert check_step(s, action, result, builtin()) == [], (case.name, action)
            s = result.state
            steps += 1
    assert steps > 500


def test_indestructible_guard_needs_both_states() -> None:
    """A creature that loses indestructible at cleanup and is then destroyed by a deathtouch
    record is not a violation (the rules allow it); the same without the cleanup is."""
    start = state(card("bears", "Grizzly Bears", granted=frozenset({Keyword.INDESTRUCTIBLE})))
    run = (
        A.DealDamage(
            source="rats",
            shares=(A.DamageShare(1, card="bears"),),
            keywords=frozenset({Keyword.DEATHTOUCH}),
        ),
        A.Cleanup(),
        A.CheckStateBasedActions(),
    )
    assert violations(start, run) == set()


def test_the_exact_bound_catches_a_trigger_lost_under_a_resolution() -> None:
    """The Bolt resolves above the Shock (two objects on the stack), the pup regenerates and
    the mutant drops its damage trigger: the pass took two objects off (the Bolt and the
    trigger) and countered nothing. ``inv.damage-trigger.kept`` allows a pass 1 + countered
    (608.2, 701.6a), so it catches this; its former bound, two whenever the stack held two,
    did not."""
    rules = Rules(frozenset({Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN}))
    s = state(card("pup", "Jackal Pup", shields=shields(1)))
    *setup, last = RESOLVE_ABOVE_ANOTHER
    for a in setup:
        s = step(s, a, rules).state
    result = step(s, last, rules)
    outputs = outputs_of(s, result.events, result.state)
    assert len(s.stack) == 2 and outputs.countered == 0
    assert sum(outputs.cards["damage_triggers"]) == 1
    inv = next(i for i in builtin() if i.id == "inv.damage-trigger.kept")
    view = ConcreteView(result.state, s, outputs, "pass")
    assert not evaluate(inv.formula, view)
    waiting_before = pre.stack_size + pre.pending_size
    waiting_after = post.stack_size + post.pending_size
    former = waiting_after >= waiting_before + sum_cards(lambda c: c.out.damage_triggers) - ite(
        action_is("pass"), ite(pre.stack_size >= 2, 2, 1), 0
    )
    assert evaluate(former, view)
    correct = step(s, last, CORRECT)
    good = ConcreteView(correct.state, s, outputs_of(s, correct.events, correct.state), "pass")
    assert evaluate(inv.formula, good)
