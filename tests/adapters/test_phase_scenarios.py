"""Scenarios run on our engine and on phase.rs: where phase.rs is right, the observations match.

Each scenario also pins a few facts on the phase.rs side, so that a test cannot pass by both
sides being wrong the same way or by the comparison skipping everything.
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.examples import AGREEING, Scenario
from regen_model.conform.observe import Observation

from .phase_helpers import on_phase, on_reference, step_diffs


@pytest.fixture(scope="module")
def adapter() -> PhaseEngineAdapter:
    return PhaseEngineAdapter()


def both(sc: Scenario, adapter: PhaseEngineAdapter) -> tuple[list[Observation], list[Observation]]:
    return on_reference(sc.state, sc.actions), on_phase(sc.state, sc.actions, adapter)


def by_name(name: str) -> Scenario:
    return next(s for s in AGREEING if s.name == name)


@pytest.mark.parametrize("sc", AGREEING, ids=[s.name for s in AGREEING])
def test_observations_agree_at_every_step(sc: Scenario, adapter: PhaseEngineAdapter) -> None:
    ref, got = both(sc, adapter)
    assert len(ref) == len(got) == len(sc.actions) + 1
    assert step_diffs(ref, got) == {}, sc.rules
    assert all(o.field_count() > 10 for o in got), "phase.rs must report what it sees"


def last_card(sc: Scenario, adapter: PhaseEngineAdapter, handle: str) -> dict[str, object]:
    _, got = both(sc, adapter)
    return dict(got[-1].cards[handle])


def test_bolt_kills_a_bear(adapter: PhaseEngineAdapter) -> None:
    _, got = both(by_name("bolt kills a bear"), adapter)
    assert got[-1].cards["bear"] == {"zone": "graveyard"}
    assert got[-1].events == ("damage:bear:3", "destroyed:bear")


def test_a_shield_saves_the_troll_tapped_without_damage(adapter: PhaseEngineAdapter) -> None:
    _, got = both(by_name("a shield saves the troll from a bolt"), adapter)
    troll = got[-1].cards["troll"]
    assert (troll["zone"], troll["tapped"], troll["damage"], troll["shields"]) == (
        "battlefield",
        True,
        0,
        0,
    )
    assert got[-1].events is not None and "regenerated:troll" in got[-1].events


@pytest.mark.parametrize("name", ["Terror ignores the shield", "toughness 0 ignores the shield"])
def test_shield_does_not_help(name: str, adapter: PhaseEngineAdapter) -> None:
    _, got = both(by_name(name), adapter)
    assert got[-1].cards["troll"] == {"zone": "graveyard"}
    assert got[-1].events is not None and "regenerated:troll" not in got[-1].events


def test_two_shields_survive_two_bolts(adapter: PhaseEngineAdapter) -> None:
    _, got = both(by_name("two shields survive two bolts"), adapter)
    regenerations = [o for o in got if o.events and "regenerated:troll" in o.events]
    assert len(regenerations) == 2
    assert got[-1].cards["troll"]["zone"] == "battlefield"


def test_death_ward_does_not_tap(adapter: PhaseEngineAdapter) -> None:
    bear = last_card(by_name("Death Ward does not tap"), adapter, "bear")
    assert (bear["tapped"], bear["shields"]) == (False, 1)


def test_a_shield_from_the_end_step_is_gone_next_turn(adapter: PhaseEngineAdapter) -> None:
    sc = by_name("a shield from the end step is gone next turn")
    _, got = both(sc, adapter)
    assert got[3].cards["troll"]["shields"] == 1  # made in the end step
    assert got[5].game["turn"] == 2 and got[5].cards["troll"]["shields"] == 0
    assert got[-1].cards["troll"] == {"zone": "graveyard"}


def test_blocking_troll_that_regenerates_leaves_combat(adapter: PhaseEngineAdapter) -> None:
    _, got = both(by_name("giant attacks, troll blocks"), adapter)
    troll, giant = got[-1].cards["troll"], got[-1].cards["giant"]
    assert (troll["tapped"], troll["blocking"], troll["damage"]) == (True, False, 0)
    assert giant["attacking"] is True and giant["damage"] == 2


def test_effect_actions_map_without_early_state_based_actions(
    adapter: PhaseEngineAdapter,
) -> None:
    _, got = both(by_name("effects: shield, damage, check, destroy"), adapter)
    assert got[3].cards["troll"]["damage"] == 3  # damage marked, not yet checked (704.3)
    kinds = got[3].event_kinds
    assert kinds is not None and "damage" not in kinds  # written by a state edit: unobserved
    assert got[4].events == ("regenerated:troll",)
    assert got[-1].cards["troll"] == {"zone": "graveyard"}


def test_prevention_saves_the_bear(adapter: PhaseEngineAdapter) -> None:
    """615.7: Mending Hands's 4 prevents all of Lightning Bolt's 3 in phase.rs too."""
    bear = last_card(by_name("Mending Hands prevents Lightning Bolt's damage"), adapter, "bear")
    assert bear["zone"] == "battlefield" and bear["damage"] == 0


def test_a_phased_out_troll_keeps_its_shield(adapter: PhaseEngineAdapter) -> None:
    """702.26d: phasing out is no zone change; the shield stays on the permanent."""
    troll = last_card(by_name("a phased-out troll keeps its shield"), adapter, "troll")
    assert troll["zone"] == "battlefield" and troll["shields"] == 1


def test_equip_moves_the_bonus(adapter: PhaseEngineAdapter) -> None:
    """702.6a, 301.5: equip attaches Bonesplitter to the target; a second equip moves it."""
    sc = by_name("Bonesplitter is equipped, then moved by equip to another creature")
    _, got = both(sc, adapter)
    after_first, last = got[3].cards, got[-1].cards
    assert after_first["bear"]["power"] == 4 and after_first["troll"]["power"] == 2
    assert last["bear"]["power"] == 2 and last["troll"]["power"] == 4
