"""Type changes on phase.rs (613.1d): the ``change-type`` effect, a start's ``animated`` and
``noncreature``, and Spawning Pool's own animation, each run on both engines.

Each test also pins what phase.rs itself holds (power and toughness are reported for creatures
only, so they show whether phase.rs applied the type change), so that a test cannot pass by the
comparison skipping the step; and each fails if the mapping is removed (the adapter would then
refuse the scenario, which ``on_phase`` asserts it does not).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

import phase

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.carddata import NoHarness, type_change_card
from regen_model.adapters.phase.database import CardDatabase
from regen_model.adapters.phase.examples import P0, P1, board, cast, passes
from regen_model.adapters.phase.support import start_effects
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.state import GameState

from .phase_helpers import on_phase, on_reference, step_diffs


@pytest.fixture(scope="module")
def adapter() -> PhaseEngineAdapter:
    return PhaseEngineAdapter()


def _start(*specs: CardSpec) -> GameState:
    return make_state(["A", "B"], list(specs), priority=P0)


def _modifications(card_face: dict[str, object]) -> list[dict[str, object]]:
    abilities: list[Any] = card_face["abilities"]  # type: ignore[assignment]
    (ability,) = abilities
    (static,) = ability["effect"]["static_abilities"]
    return list(static["modifications"])


def test_type_changes_are_not_declared_lacking() -> None:
    lacks = PhaseEngineAdapter.lacks
    assert "action:change-type" not in lacks and "card:Spawning Pool" not in lacks


@pytest.mark.parametrize(
    ("card", "creature", "expected"),
    [
        ("Grizzly Bears", False, [{"type": "RemoveType", "core_type": "Creature"}]),
        ("Grizzly Bears", True, [{"type": "AddType", "core_type": "Creature"}]),
        (
            "Spawning Pool",
            True,
            ["SetPower", "SetToughness", "SetColor", "AddType", "GrantAbility"],
        ),
    ],
)
def test_harness_spells_parse_into_phase_type_changes(
    card: str, creature: bool, expected: list[object], tmp_path_factory: pytest.TempPathFactory
) -> None:
    harness = type_change_card(PERMANENT_CARDS[card], creature=creature)
    status = CardDatabase(tmp_path_factory.mktemp("cache")).build(harness)
    assert status.complete, status.describe()
    mods = _modifications(phase.build_oracle_face(harness.mtgjson(), None))
    if all(isinstance(e, str) for e in expected):
        assert [m["type"] for m in mods] == expected
        assert mods[0]["value"] == 1 and mods[2]["colors"] == ["Black"]
    else:
        assert mods == expected


def test_a_permanent_with_nothing_to_become_has_no_harness() -> None:
    with pytest.raises(NoHarness):
        type_change_card(PERMANENT_CARDS["Forest"], creature=True)


def test_a_creature_stops_being_one_and_becomes_one_again(adapter: PhaseEngineAdapter) -> None:
    state = board(("bear", "Grizzly Bears", P0))
    actions = (
        A.ChangeType(target="bear", creature=False),
        A.ChangeType(target="bear", creature=True),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert "power" not in got[1].cards["bear"]  # phase.rs: not a creature
    assert (got[2].cards["bear"]["power"], got[2].cards["bear"]["toughness"]) == (2, 2)


def test_a_permanent_with_no_card_type_left_can_be_targeted(adapter: PhaseEngineAdapter) -> None:
    """A Grizzly Bears that isn't a creature has no card type, yet is a permanent (110.4c): the
    type-change spells still find it (phase.rs's "target permanent" would not)."""
    state = _start(CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], P0, noncreature=True))
    actions = (
        A.ChangeType(target="bear", creature=False),
        A.ChangeType(target="bear", creature=True),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert "power" not in got[1].cards["bear"] and got[2].cards["bear"]["power"] == 2


def test_a_change_type_animates_spawning_pool(adapter: PhaseEngineAdapter) -> None:
    """The effect gives it its animation: a 1/1 (613.4b) that Lightning Bolt destroys."""
    state = board(("pool", "Spawning Pool", P0))
    actions = (
        A.ChangeType(target="pool", creature=True),
        cast(P0, "Lightning Bolt", "pool"),
        *passes(P0, P1),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert "power" not in got[0].cards["pool"]
    assert (got[1].cards["pool"]["power"], got[1].cards["pool"]["toughness"]) == (1, 1)
    assert got[-1].cards["pool"] == {"zone": "graveyard"}


def test_spawning_pool_animates_itself_and_regenerates(adapter: PhaseEngineAdapter) -> None:
    """Its own animation (ability 0), then the ability the animation grants (ability 1,
    613.1f) makes a shield that saves it from Lightning Bolt."""
    state = board(("pool", "Spawning Pool", P0))
    actions = (
        A.ActivateAbility(player=P0, source="pool", ability=0),
        *passes(P0, P1),
        A.ActivateAbility(player=P0, source="pool", ability=1),
        *passes(P0, P1),
        cast(P0, "Lightning Bolt", "pool"),
        *passes(P0, P1),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert got[3].cards["pool"]["power"] == 1
    assert got[6].cards["pool"]["shields"] == 1
    assert got[-1].events is not None and "regenerated:pool" in got[-1].events
    assert got[-1].cards["pool"]["zone"] == "battlefield"


def test_an_animated_start_is_set_up_by_the_animation(adapter: PhaseEngineAdapter) -> None:
    """A start with ``animated``: the adapter resolves the animation before anything else, so
    the granted regeneration ability is there at once."""
    state = _start(CardSpec("pool", PERMANENT_CARDS["Spawning Pool"], P0, animated=True))
    assert start_effects(state) == (A.ChangeType(target="pool", creature=True),)
    actions = (
        A.ActivateAbility(player=P0, source="pool", ability=1),
        *passes(P0, P1),
        cast(P0, "Lightning Bolt", "pool"),
        *passes(P0, P1),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert (got[0].cards["pool"]["power"], got[0].cards["pool"]["toughness"]) == (1, 1)
    assert got[-1].cards["pool"]["zone"] == "battlefield"


def test_a_noncreature_start_keeps_its_damage(adapter: PhaseEngineAdapter) -> None:
    """A start with ``noncreature`` and marked damage: the damage stays while it is not a
    creature and counts again once it is one (120.6)."""
    state = _start(
        CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], P0, noncreature=True, damage=1)
    )
    assert start_effects(state) == (A.ChangeType(target="bear", creature=False),)
    actions = (
        A.ChangeType(target="bear", creature=True),
        A.DealDamage(source="Shock", shares=(A.DamageShare(1, card="bear"),)),
        A.CheckStateBasedActions(),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert "power" not in got[0].cards["bear"] and got[0].cards["bear"]["damage"] == 1
    assert got[1].cards["bear"]["toughness"] == 2
    assert got[-1].cards["bear"] == {"zone": "graveyard"}


def test_an_animation_then_a_stop_is_set_up_in_that_order(adapter: PhaseEngineAdapter) -> None:
    """``animated`` and ``noncreature`` together: the latest change made it stop being a
    creature, so the animation is resolved first (613.7); its granted ability stays (613.1f)
    while it is not a creature."""
    pool = CardSpec("pool", PERMANENT_CARDS["Spawning Pool"], P0, animated=True, noncreature=True)
    state = _start(pool)
    assert start_effects(state) == (
        A.ChangeType(target="pool", creature=True),
        A.ChangeType(target="pool", creature=False),
    )
    actions = (A.ChangeType(target="pool", creature=True),)
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert "power" not in got[0].cards["pool"] and got[1].cards["pool"]["power"] == 1
    damaged = _start(replace(pool, damage=1))  # phase.rs would destroy it in between
    assert "animation is set up" in str(adapter.supports(damaged, ()))


def test_effect_damage_from_a_lifelink_source_gains_life(adapter: PhaseEngineAdapter) -> None:
    """702.15b: the adapter marks effect damage by a state edit, so it applies lifelink too."""
    state = board(("hawk", "Vampire Nighthawk", P0), ("bear", "Grizzly Bears", P1))
    actions = (
        A.DealDamage(source="hawk", shares=(A.DamageShare(2, player=P1),)),
        A.DealDamage(source="hawk", shares=(A.DamageShare(1, card="bear"),)),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, adapter)
    assert step_diffs(ref, got) == {}
    assert got[1].players["A"]["life"] == 22 and got[2].players["A"]["life"] == 23
