"""Known divergences of phase.rs 0.103 from the rules, pinned exactly.

Each test asserts that phase.rs differs from our engine in exactly the recorded way. When
phase.rs is fixed, the test fails: then move the scenario to the agreeing ones and update
docs/phase-adapter.md. Rule numbers are those of the 2026-08-07 Comprehensive Rules.
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import (
    AdapterError,
    PhaseEngineAdapter,
    diff,
    run_on_phase,
    run_on_reference,
)
from regen_model.adapters.phase.examples import DIVERGING, P0, P1, board, cast, passes
from regen_model.model import actions as A


@pytest.fixture(scope="module")
def adapter() -> PhaseEngineAdapter:
    return PhaseEngineAdapter()


def diffs(name: str, adapter: PhaseEngineAdapter) -> dict[int, list[str]]:
    sc = DIVERGING[name]
    ref = run_on_reference(sc.state, sc.actions)
    got = run_on_phase(sc.state, sc.actions, adapter=adapter)
    return {i: d for i, (r, g) in enumerate(zip(ref, got, strict=True)) if (d := diff(r, g))}


def test_mossbridge_troll_static_regeneration_does_not_save_it(
    adapter: PhaseEngineAdapter,
) -> None:
    """701.19b: "If it would be destroyed, regenerate it" replaces the destruction. phase.rs
    runs the replacement but only makes a shield after the creature is already destroyed."""
    assert diffs("mossbridge-static-regeneration", adapter) == {
        3: [
            "card moss.zone: expected 'battlefield', observed 'graveyard'",
            "event 'regenerated moss': expected, not observed",
            "event 'destroyed moss': observed, not expected",
        ]
    }


def test_knight_of_the_holy_nimbus_has_the_same_static_regeneration_gap(
    adapter: PhaseEngineAdapter,
) -> None:
    state = board(("k", "Knight of the Holy Nimbus", P0), active=P1)
    actions = (cast(P1, "Murder", "k"), *passes(P1, P0))
    ref = run_on_reference(state, actions)
    got = run_on_phase(state, actions, adapter=adapter)
    assert ref[-1].cards["k"]["zone"] == "battlefield"
    assert got[-1].cards["k"] == {"zone": "graveyard"}


def test_debt_of_loyalty_takes_control_without_any_regeneration(
    adapter: PhaseEngineAdapter,
) -> None:
    """701.19c: creating the shield is not regenerating; the control change waits for the
    shield to be used. phase.rs parses the rider as an unconditional "gain control"."""
    assert diffs("debt-of-loyalty-unconditional", adapter) == {
        3: ["card troll.controller: expected 0, observed 1"]
    }


def test_matopi_golem_rider_never_happens(adapter: PhaseEngineAdapter) -> None:
    """701.19c + 603.2: "When it regenerates this way, put a -1/-1 counter on it" triggers when
    the shield is used. phase.rs leaves the rider Unimplemented: no trigger, no counter, so the
    two passes that resolve our trigger end phase.rs's main phase instead."""
    assert diffs("matopi-golem-rider", adapter) == {
        9: [
            "card golem.zone: expected 'graveyard', observed 'battlefield'",
            "game.step: expected 'main1', observed 'begin-combat'",
        ]
    }


def test_no_priority_in_declare_attackers_without_attackers(adapter: PhaseEngineAdapter) -> None:
    """508.2: the active player gets priority in the declare attackers step; 508.8 skips only
    the declare blockers and combat damage steps. phase.rs goes straight to end of combat."""
    found = diffs("no-priority-after-no-attackers", adapter)
    assert found[5] == ["game.step: expected 'declare-attackers', observed 'end-combat'"]
    assert found[7] == ["game.step: expected 'end-combat', observed 'main2'"]


def test_no_priority_between_first_strike_and_regular_damage(adapter: PhaseEngineAdapter) -> None:
    """510.4: first strike makes two combat damage steps, and players get priority in each
    (117.3a). phase.rs deals both without a priority window in between, so a creature can't be
    regenerated (or anything else done) after first-strike damage."""
    state = board(("knight", "Youthful Knight", P0), ("soldiers", "Foot Soldiers", P1))
    actions = (
        *passes(P0, P1, P0, P1),
        A.DeclareAttackers(player=P0, attackers=("knight",)),
        *passes(P0, P1),
        A.DeclareBlockers(player=P1, blocks=(("soldiers", "knight"),)),
        *passes(P0, P1),  # -> the first-strike damage step
    )
    ref = run_on_reference(state, actions)
    got = run_on_phase(state, actions, adapter=adapter)
    assert ref[-1].game["step"] == "first-strike-damage"
    assert ref[-1].cards["knight"]["zone"] == "battlefield"
    assert got[-1].cards["knight"] == {"zone": "graveyard"}  # regular damage already dealt
    assert "damage knight 2" in got[-1].events


def test_a_blocker_whose_attacker_died_stops_blocking(adapter: PhaseEngineAdapter) -> None:
    """510.1d: a blocking creature whose attacker was destroyed is still a blocking creature
    (it blocks nothing now); phase.rs drops it from its combat record."""
    state = board(("bear", "Grizzly Bears", P0), ("soldiers", "Foot Soldiers", P1))
    actions = (
        *passes(P0, P1, P0, P1),
        A.DeclareAttackers(player=P0, attackers=("bear",)),
        *passes(P0, P1),
        A.DeclareBlockers(player=P1, blocks=(("soldiers", "bear"),)),
        *passes(P0),
        cast(P1, "Lightning Bolt", "bear"),
        *passes(P1, P0),
    )
    ref = run_on_reference(state, actions)
    got = run_on_phase(state, actions, adapter=adapter)
    assert [diff(r, g) for r, g in zip(ref, got, strict=True)][-1] == [
        "card soldiers.blocking: expected True, observed False"
    ]


def test_knight_of_the_holy_nimbus_ability_is_not_for_opponents(
    adapter: PhaseEngineAdapter,
) -> None:
    """ "Only any opponent may activate this ability" (602.2) is left Unimplemented by
    phase.rs: the opponent cannot activate it."""
    state = board(("k", "Knight of the Holy Nimbus", P0), active=P1)
    action = A.ActivateAbility(player=P1, source="k")
    run_on_reference(state, (action,))  # legal in the model
    with pytest.raises(AdapterError, match="Not your priority"):
        run_on_phase(state, (action,), adapter=adapter)
