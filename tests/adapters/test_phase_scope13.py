"""Issue 13's scope on phase.rs: graveyards compared (404.2, 608.2n), the Basilisks mapped
(trigger.eoc-destroy), Pyramids' "remove all damage instead" declared as phase.rs's own gap,
Disintegrate's riders on scenario spells cast as harness spells."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.adapter import NOT_IN_PHASE
from regen_model.adapters.phase.carddata import MODEL_CARDS, NoHarness, harness_card
from regen_model.adapters.phase.database import CardDatabase
from regen_model.adapters.phase.known import classifier, load_known
from regen_model.adapters.phase.support import spell_card
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.features import EOC_DESTROY_FEATURES, REFLEXIVE_FEATURES
from regen_model.conform.sources import saved_cases
from regen_model.model import actions as A
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import Keyword

from .phase_helpers import on_phase

ROOT = Path(__file__).resolve().parents[2]


def _case(path: str) -> Case:
    (case,) = saved_cases([ROOT / path])
    return case


@pytest.mark.parametrize(
    "path",
    [
        "tests/scenarios/zone/spell-to-graveyard.yaml",
        "tests/scenarios/zone/graveyard-order-sba-group.yaml",
        "regen_model/examples/spell-to-graveyard.yaml",
    ],
)
def test_graveyards_agree_with_their_order(path: str) -> None:
    """phase.rs keeps each graveyard in order, our spells among the cards (608.2n), and the
    adapter leaves its own cards (harness spells, filler) out of it."""
    result = run_case(_case(path), PhaseEngineAdapter())
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)


def test_the_graveyard_is_observed_by_handle_and_spell_name() -> None:
    case = _case("tests/scenarios/zone/spell-to-graveyard.yaml")
    adapter = PhaseEngineAdapter()
    state = case.start.build()
    assert adapter.supports(state, case.actions) is None
    adapter.start(state)
    for action in case.actions:
        adapter.apply(action)
    seen = adapter.observe().graveyards
    assert seen["A"] == (
        ("bears",),
        ("Terror",),
        ("Lightning Bolt",),
        ("elf",),
        ("troll",),
        ("Shock",),
    )
    assert seen["B"] == ()


@pytest.mark.parametrize(
    "path",
    [
        "tests/scenarios/combat/basilisk-regenerated-blocker-still-destroyed.yaml",
        "tests/scenarios/combat/basilisk-two-shields-survive.yaml",
        "tests/scenarios/combat/basilisk-wall-not-affected.yaml",
        "tests/scenarios/combat/basilisk-dead-creature-trigger-nothing.yaml",
        "tests/adapters/cases/basilisk-blocked-by-two-one-dies.yaml",
        "tests/adapters/cases/basilisk-blocks-basilisk.yaml",
    ],
)
def test_basilisk_scenarios_agree_or_meet_known_entries(path: str) -> None:
    """The block trigger (which the model resolves at once) and the delayed trigger of a
    creature that left the battlefield (which the model drops, 603.7c; ordered on top of its
    controller's others when it shares the stack with a live one) are passed through on
    phase.rs; what is left agrees, or is a known divergence (PH-04 in the dead-creature
    scenario's second turn). An inert trigger that phase.rs put under a live one (the active
    player's, under the other player's, 603.3b) is left out of the stack's size until it comes
    on top (``Translator.inert_on_stack``: Basilisk blocks Basilisk, random-2026-136)."""
    result = run_case(_case(path), PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome in (Outcome.PASSED, Outcome.KNOWN), (result.reason, result.divergence)
    assert all(ids == ("PH-04",) for _, ids in result.known), result.known


def test_a_trigger_whose_creature_leaves_once_on_the_stack_stays_on_it() -> None:
    """Only a Basilisk trigger that was inert as it arrived is left out of phase.rs's stack and
    passed through: one whose creature is destroyed while it waits on the stack stays in the
    model and resolves doing nothing (608.2b), so its size and the later resolution agree (the
    adapter used to leave this one out too: random-2026-53 of the seed-2026 batch). Every
    step is compared, to the end of combat."""
    result = run_case(
        _case("tests/adapters/cases/basilisk-trigger-goes-inert-on-the-stack.yaml"),
        PhaseEngineAdapter(),
        known=classifier(load_known()),
    )
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(result.case.actions) and result.masked == 0, "all compared"


def test_the_basilisks_are_mapped_and_pyramids_is_phase_rs_s_gap() -> None:
    lacks = PhaseEngineAdapter.lacks
    assert not EOC_DESTROY_FEATURES & lacks
    assert {"card:Thicket Basilisk", "card:Cockatrice"} <= EOC_DESTROY_FEATURES
    assert set(NOT_IN_PHASE) <= lacks
    case = _case("tests/scenarios/replace/pyramids-animated-pool.yaml")
    result = run_case(case, PhaseEngineAdapter())
    assert result.outcome is Outcome.SKIPPED
    assert result.reason == NOT_IN_PHASE["card:Pyramids"]


def test_a_division_without_first_strike_is_not_credited_to_ph05() -> None:
    """A combat damage division cites the same clauses with or without first strike, so PH-05's
    division matcher requires the regular damage phase.rs deals too early. A Basilisk blocked by
    two that dies in a combat without first strike shows PH-06's mechanism alone (its blockers
    stop blocking, 506.4, 509.1h); PH-05 took the credit before the requirement."""
    known = load_known()
    result = run_case(
        _case("tests/adapters/cases/basilisk-blocked-by-two-dies.yaml"),
        PhaseEngineAdapter(),
        known=classifier(known),
    )
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PH-06",)]
    first_strike = run_case(
        _case("tests/adapters/cases/first-strike-division.yaml"),
        PhaseEngineAdapter(),
        known=classifier(known),
    )
    assert first_strike.outcome is Outcome.KNOWN, (first_strike.reason, first_strike.divergence)
    assert [ids for _, ids in first_strike.known] == [("PH-05",)]


def test_regeneration_offered_under_can_t_be_regenerated_this_turn_is_ph11() -> None:
    """PH-11 (phase.rs offers static regeneration where "can't be regenerated" leaves a shield
    counter or umbra armor alone, 701.19c, 616.1) under the effect "can't be regenerated this
    turn" as well as under a spell's rider: its second matcher, which this case needs."""
    result = run_case(
        _case("tests/adapters/cases/unregenerable-this-turn-shield-counter.yaml"),
        PhaseEngineAdapter(),
        known=classifier(load_known()),
    )
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PH-11",)]


def test_static_regeneration_chosen_over_a_shield_counter_is_ph01() -> None:
    """PH-01 (phase.rs runs static regeneration as "create a shield", 701.19b) beside a shield
    counter: the destruction is still there after the shield and the counter replaces it
    (616.1f), so the Knight keeps a shield and loses its counter. Its third matcher, which this
    case needs (found by a Kill Shot candidate of the guided generator, random-2026-106)."""
    case = _case("tests/adapters/cases/static-regeneration-beside-a-shield-counter.yaml")
    seen = on_phase(case.start.build(), case.actions, PhaseEngineAdapter())
    knight = seen[-1].cards["nimbus"]
    assert (knight["zone"], knight["shield_counters"], knight["shields"]) == ("battlefield", 0, 1)
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PH-01",)]


def test_destroy_all_after_an_unasked_shield_counter_choice_is_ph21() -> None:
    """PH-21 (phase.rs's destroy-all stops after a replacement choice, 701.8a) after the choice
    it asks between a shield counter and a regeneration shield that can't apply (701.19c,
    616.1): its third matcher, which this case needs (found by a Dark Privilege candidate of
    the guided generator, random-2026-53)."""
    case = _case("tests/adapters/cases/destroy-all-after-an-unasked-shield-counter-choice.yaml")
    seen = on_phase(case.start.build(), case.actions, PhaseEngineAdapter())
    assert seen[-1].cards["bear"]["zone"] == "battlefield"
    assert seen[-1].cards["wall"]["shield_counters"] == 0
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PH-21",)]


@pytest.mark.parametrize(
    "path",
    [
        "tests/scenarios/zone/reflexive-target-after-resolution.yaml",
        "tests/scenarios/zone/reflexive-trigger-uses-the-stack.yaml",
        "tests/scenarios/zone/reflexive-controller-of-parent.yaml",
        "tests/scenarios/zone/reflexive-target-checked-again.yaml",
        "tests/scenarios/zone/reflexive-declined-and-no-target.yaml",
        "tests/adapters/cases/reflexive-removed-for-want-of-a-target.yaml",
    ],
)
def test_reflexive_scenarios_agree_or_meet_known_entries(path: str) -> None:
    """Go-Shintai of Hidden Cruelty's "you may pay {1}. When you do, ..." (603.12): the adapter
    answers phase.rs's optional-effect prompt with the pass's ``decline`` (paying the {1}) and
    its trigger-target prompt with the pass's ``target`` (603.3d). What is left agrees, or is
    a known divergence (PH-04 in the declined-and-no-target scenario's second turn, which is
    why the removal is also shown on a case of its own)."""
    result = run_case(_case(path), PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome in (Outcome.PASSED, Outcome.KNOWN), (result.reason, result.divergence)
    assert all(ids == ("PH-04",) for _, ids in result.known), result.known


def test_the_reflexive_trigger_is_mapped() -> None:
    lacks = PhaseEngineAdapter.lacks
    assert not REFLEXIVE_FEATURES & lacks
    assert {"reflexive-trigger", "card:Go-Shintai of Hidden Cruelty"} <= REFLEXIVE_FEATURES


@pytest.mark.parametrize(
    "path",
    [
        "tests/adapters/cases/disintegrate-riders-as-harness-spells.yaml",
        "tests/scenarios/replace/exile-instead-after-shield.yaml",
    ],
)
def test_disintegrate_s_riders_on_scenario_spells_agree(path: str) -> None:
    """Scenario spells with Disintegrate's riders (608.2c, 614.6) at other amounts, or with the
    exile rider alone, are cast as harness spells in Disintegrate's and Magma Spray's words:
    the unregenerable Bears die through their shield, the Giant is exiled, the Cubs whose
    damage was prevented are exiled at 0 toughness; every step agrees."""
    case = _case(path)
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0


@pytest.mark.parametrize(
    ("target", "exile"),
    [(True, False), (True, True), (False, True)],
)
def test_disintegrate_s_riders_make_harness_spells_phase_rs_parses_whole(
    target: bool, exile: bool
) -> None:
    effect = Effect(EffectKind.DAMAGE, amount=2, cant_regen_target=target, exile_if_dies=exile)
    card = harness_card(effect)
    assert card.name not in MODEL_CARDS
    assert CardDatabase().build(card).complete, CardDatabase().build(card).describe()


def test_the_exile_rider_alone_is_refused_at_a_player_and_with_keywords() -> None:
    """phase.rs parses the exile rider alone only as "target creature" (carddata), so such a
    spell aimed at a player is refused rather than cast at a creature-only target; keywords
    and Incinerate's rider beside the riders have no harness text."""
    exile = Effect(EffectKind.DAMAGE, amount=2, exile_if_dies=True)
    at_player = A.CastSpell(
        player=0, name="Spray", effect=exile, targets=(A.TargetChoice(player=1),)
    )
    with pytest.raises(NoHarness):
        spell_card(at_player)
    at_card = A.CastSpell(player=0, name="Spray", effect=exile, targets=(A.TargetChoice(card="x"),))
    assert "target creature" in spell_card(at_card).text
    for other in (
        replace(exile, keywords=frozenset({Keyword.DEATHTOUCH})),
        replace(exile, cant_regen=True),
    ):
        with pytest.raises(NoHarness):
            harness_card(other)


def test_fumigate_s_count_on_scenario_spells_agrees() -> None:
    """Scenario spells with Fumigate's "you gain N life for each creature destroyed this way"
    (701.8a, 614.6) at other amounts, one with "they can't be regenerated", are harness spells
    in Fumigate's words that phase.rs parses whole; the regenerated Boa is not counted, and
    every step agrees."""
    for amount, cant_regen in ((2, False), (3, True)):
        effect = Effect(EffectKind.DESTROY_ALL_CREATURES, amount=amount, cant_regen=cant_regen)
        card = harness_card(effect, sorcery=True)
        assert f"You gain {amount} life for each creature destroyed this way." in card.text
        assert CardDatabase().build(card).complete
    case = _case("tests/adapters/cases/destroyed-count-as-a-harness-spell.yaml")
    seen = on_phase(case.start.build(), case.actions, PhaseEngineAdapter())
    assert [o.players["A"]["life"] for o in seen[-4:]] == [26, 26, 26, 29]
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0
