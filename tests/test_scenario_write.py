"""Cases written as scenario files (``scenario/write.py``) load back as the same game: the
same start state, and events that step exactly the same actions (choices included)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from regen_model.conform.case import Case, reference_run
from regen_model.conform.generate import random_cases
from regen_model.conform.start import Start
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec
from regen_model.model.cards import (
    PERMANENT_CARDS,
    SPELLS,
    AbilityKind,
    ActivatedAbility,
    CardTemplate,
)
from regen_model.model.enums import (
    Attachment,
    CardType,
    DiesWatch,
    Edition,
    Keyword,
    Rider,
    Step,
)
from regen_model.model.state import Shield
from regen_model.scenario import load_scenario, run_scenario
from regen_model.scenario.spec import Scenario
from regen_model.scenario.write import graveyard_expect, scenario_yaml
from regen_model.testing.scenario import case_document, case_yaml
from regen_model.verdicts import Verdict

CASES = random_cases(60, 11)


def replay(scenario: Scenario) -> list[Action]:
    state = scenario.start
    taken: list[Action] = []
    for event in scenario.events:
        assert event.make is not None
        for action in event.make(state):
            if event.choices:
                action = dataclasses.replace(action, choices=event.choices)
            state = step(state, action).state
            taken.append(action)
    return taken


def round_trip(case: Case, tmp_path: Path) -> None:
    path = tmp_path / f"{case.name}.yaml"
    path.write_text(case_yaml(case), encoding="utf-8")
    scenario = load_scenario(path)
    built = case.start.build()
    loaded = scenario.start
    # A Setup compares by identity (the states of one run share it): compare its fields.
    assert dataclasses.astuple(loaded.setup) == dataclasses.astuple(built.setup)
    assert loaded._replace(setup=built.setup) == built
    assert replay(scenario) == list(reference_run(case).actions)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_random_cases_round_trip(case: Case, tmp_path: Path) -> None:
    round_trip(case, tmp_path)


def test_a_case_with_inline_cards_riders_choices_and_combat(tmp_path: Path) -> None:
    golem = CardTemplate(
        "Odd Golem",
        frozenset({CardType.ARTIFACT, CardType.CREATURE}),
        1,
        3,
        keywords=frozenset({Keyword.TRAMPLE}),
        static_regeneration=True,
    )
    start = Start(
        ("A", "B"),
        (
            CardSpec(
                "golem", golem, 0, shields=(Shield("Debt of Loyalty", 1, Rider.GAIN_CONTROL),)
            ),
            CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 1, damage=1),
        ),
        edition=Edition.M10,
        step=Step.BEGIN_COMBAT,
        active=0,
        priority=0,
        life=(20, 7),
    )
    case = Case(
        "inline",
        start,
        (
            A.Destroy(targets=("golem",), choices=(A.ReplacementChoice("golem", 0, "static"),)),
            A.DealDamage(
                source="Pyre", shares=(A.DamageShare(1, card="bear"), A.DamageShare(2, player=1))
            ),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
            A.DeclareAttackers(player=0, attackers=("golem",)),
        ),
    )
    round_trip(case, tmp_path)
    text = case_yaml(case)
    assert "name: Odd Golem" in text and "rider: gain-control" in text
    assert "choices: [{permanent: golem, by: A, use: static}]" in text


def test_an_inline_death_watcher_round_trips(tmp_path: Path) -> None:
    """An inline 'whenever a creature dies, each opponent loses N life and you gain N life'
    (``dies-drain``) is written and read back as the same card, and its trigger replays."""
    watcher = CardTemplate(
        "Watcher",
        frozenset({CardType.CREATURE}),
        1,
        1,
        dies_watch=DiesWatch.ANY,
        dies_drain=2,
    )
    start = Start(
        ("A", "B"),
        (
            CardSpec("watcher", watcher, 1),
            CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 0),
        ),
        active=0,
        priority=0,
    )
    case = Case(
        "watcher",
        start,
        (A.Destroy(targets=("bear",)), A.PassPriority(player=0), A.PassPriority(player=1)),
    )
    round_trip(case, tmp_path)
    assert "dies-drain: {watch: any, life: 2}" in case_yaml(case)


def test_inline_costs_watchers_and_subtypes_round_trip(tmp_path: Path) -> None:
    """The inline fields of issue 13's mechanics (ability costs, ``dies-draw``,
    ``end-step-reflexive``, ``shrine``, ``merfolk``, ``tapped-watch-life``,
    ``enters-with-plus-counters``) are written and read back as the same cards: a writer that
    dropped one would load another card, and the start would differ."""
    hermit = CardTemplate(
        "Hermit",
        frozenset({CardType.CREATURE}),
        1,
        1,
        abilities=(
            ActivatedAbility(AbilityKind.REGENERATE_TARGET, tap_cost=True, sacrifice_cost=True),
        ),
        merfolk=True,
        tapped_watch_life=2,
        enters_plus=1,
    )
    pact = CardTemplate(
        "Pact",
        frozenset({CardType.ENCHANTMENT}),
        attachment=Attachment.AURA,
        abilities=(ActivatedAbility(AbilityKind.REGENERATE_HOST, sacrifice_creature=True),),
    )
    keeper = CardTemplate(
        "Keeper",
        frozenset({CardType.ENCHANTMENT, CardType.CREATURE}),
        1,
        1,
        shrine=True,
        end_step_reflexive=True,
        dies_watch=DiesWatch.YOURS,
        dies_draw=2,
    )
    start = Start(
        ("A", "B"),
        (
            CardSpec("hermit", hermit, 0),
            CardSpec("pact", pact, 0, attached_to="keeper"),
            CardSpec("keeper", keeper, 0),
            CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 0),
        ),
        active=0,
        priority=0,
        library=(2, 2),
    )
    case = Case(
        "inline",
        start,
        (
            A.ActivateAbility(player=0, source="pact", sacrifice="bear"),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
        ),
    )
    round_trip(case, tmp_path)
    text = case_yaml(case)
    assert "cost: [tap, sacrifice-self]" in text
    assert "cost: [sacrifice-creature]" in text
    assert "dies-draw: {watch: yours, cards: 2}" in text
    assert "enters-with-plus-counters: 1" in text


def test_a_library_and_a_declined_draw_round_trip(tmp_path: Path) -> None:
    """A start's library (121.1) and a pass answering no to Fecundity's "may draw"
    (``decline``, 608.2d) are written and read back, and the run replays."""
    start = Start(
        ("A", "B"),
        (
            CardSpec("fecundity", PERMANENT_CARDS["Fecundity"], 1),
            CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 0),
            CardSpec("elf", PERMANENT_CARDS["Grizzly Bears"], 0),
        ),
        library=(1, 0),
    )
    case = Case(
        "fecundity",
        start,
        (
            A.Destroy(targets=("bear",)),
            A.PassPriority(player=0),
            A.PassPriority(player=1, decline=True),
            A.Destroy(targets=("elf",)),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
        ),
    )
    round_trip(case, tmp_path)
    text = case_yaml(case)
    assert "{name: A, library: 1}" in text
    assert "{player: B, decline: true}" in text


def test_graveyards_written_from_a_run_read_back_as_the_same_expectation(tmp_path: Path) -> None:
    """``graveyard_expect`` writes a state's graveyards (groups as lists) so that the scenario
    expecting them passes on that run and fails when two groups are swapped."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    start = Start(
        ("A", "B"),
        (CardSpec("bears", bears, 0), CardSpec("elf", bears, 0), CardSpec("b1", bears, 1)),
    )
    case = Case(
        "yards",
        start,
        (
            SPELLS["Wrath of God"].cast(0),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
        ),
    )
    run = reference_run(case)
    last = run.states[-1]
    yards = {last.player_name(p): {"graveyard": graveyard_expect(last, p)} for p in (0, 1)}
    assert yards["A"]["graveyard"] == [["bears", "elf"], "Wrath of God"]
    doc = case_document(case, expect={2: {"players": yards}})
    path = tmp_path / "yards.yaml"
    path.write_text(scenario_yaml(doc), encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.PASSED
    swapped = scenario_yaml(doc).replace(
        "[[bears, elf], Wrath of God]", "[Wrath of God, [elf, bears]]"
    )
    path.write_text(swapped, encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.FAILED


def test_a_mill_and_the_sentrys_rider_round_trip_with_their_graveyards(tmp_path: Path) -> None:
    """Thought Scour and an inline mill (``effect: mill`` with ``draw``, 701.17a) are written
    and read back; the milled cards' group is expected as ``[milled, milled]`` and the
    scenario fails when the group is written as two; Soldevi Sentry's rider (603.7e) replays."""
    from regen_model.model.effects import Effect, EffectKind, TargetRule

    start = Start(
        ("A", "B"),
        (CardSpec("sentry", PERMANENT_CARDS["Soldevi Sentry"], 0),),
        library=(3, 4),
    )
    inline = A.CastSpell(
        player=0,
        name="Deep Scour",
        effect=Effect(EffectKind.MILL, amount=1, draw=2),
        targets=(A.TargetChoice(player=1),),
        target_rule=TargetRule.PLAYER,
    )
    case = Case(
        "mill",
        start,
        (
            SPELLS["Thought Scour"].cast(0, (A.TargetChoice(player=1),)),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
            inline,
            A.PassPriority(player=0),
            A.PassPriority(player=1),
            A.ActivateAbility(player=0, source="sentry"),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
            A.Destroy(targets=("sentry",)),
            A.PassPriority(player=0),
            A.PassPriority(player=1, decline=True),
        ),
    )
    round_trip(case, tmp_path)
    text = case_yaml(case)
    assert "{name: Deep Scour, effect: mill, amount: 1, draw: 2}" in text
    run = reference_run(case)
    last = run.states[-1]
    assert (last.players[0].hand, last.players[1].hand, last.players[1].library) == (3, 0, 1)
    yards = {last.player_name(p): {"graveyard": graveyard_expect(last, p)} for p in (0, 1)}
    assert yards["B"]["graveyard"] == [["milled", "milled"], "milled"]
    doc = case_document(case, expect={len(case.actions) - 1: {"players": yards}})
    path = tmp_path / "mill.yaml"
    path.write_text(scenario_yaml(doc), encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.PASSED
    split = scenario_yaml(doc).replace("[[milled, milled], milled]", "[milled, milled, milled]")
    path.write_text(split, encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.FAILED


def test_a_counterspell_round_trips_with_its_target_spells_position(tmp_path: Path) -> None:
    """Counterspell's target, a spell on the stack (115.1), is written as its stack position
    and read back to the same cast; the countered Regenerate makes no shield and lies in B's
    graveyard, Counterspell in A's (701.6a, 608.2n), and the scenario fails when the two
    graveyards are swapped."""
    start = Start(("A", "B"), (CardSpec("troll", PERMANENT_CARDS["Uthden Troll"], 1),))
    case = Case(
        "counter",
        start,
        (
            A.PassPriority(player=0),
            SPELLS["Regenerate"].cast(1, (A.TargetChoice(card="troll"),)),
            A.PassPriority(player=1),
            SPELLS["Counterspell"].cast(0, (A.TargetChoice(spell=0),)),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
        ),
    )
    round_trip(case, tmp_path)
    text = case_yaml(case)
    assert "{player: A, spell: Counterspell, targets: [0]}" in text
    last = reference_run(case).states[-1]
    assert last.card("troll").shields == ()
    yards = {last.player_name(p): {"graveyard": graveyard_expect(last, p)} for p in (0, 1)}
    assert yards == {"A": {"graveyard": ["Counterspell"]}, "B": {"graveyard": ["Regenerate"]}}
    doc = case_document(case, expect={len(case.actions) - 1: {"players": yards}})
    path = tmp_path / "counter.yaml"
    path.write_text(scenario_yaml(doc), encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.PASSED
    swapped = (
        scenario_yaml(doc)
        .replace("[Counterspell]", "[X]")
        .replace("[Regenerate]", "[Counterspell]")
        .replace("[X]", "[Regenerate]")
    )
    path.write_text(swapped, encoding="utf-8")
    assert run_scenario(load_scenario(path)).verdict is Verdict.FAILED
