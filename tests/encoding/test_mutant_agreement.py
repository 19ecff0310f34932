"""Each rule mutant is the same wrong rule in both views.

A rule mutant (``model/enums.py`` Mutant, docs/mutants.md) is a switch both views consult:
the engine (``Work.mutant``) and the relation (``SymWork.mutant``). The mutant matrix
(``tests/mutants``) runs the engine only, so a relation that stopped consulting a switch
(``w.mutant(Mutant.X)`` turned into ``w.mutant(None)``, or the wrong version's code broken)
was met by no check: the mutation screen of issue 10 left 17 such survivors in
``regen_model/encoding``. Here, for every mutant, the scenarios that kill it (their runs are
where it changes what the engine does, ``mutants.scenarios.scenario_kills``) are replayed
under the mutant, action by action as the correct run plays them, and the engine and the
relation must agree at each step under the same mutant (``check_agreement``; a 704.3 loop
that ends in neither view is agreement too). A relation that ignores the switch then
disagrees at the step where the engine's mutant acts.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from regen_model.encoding.agreement import AgreementResult, Status, check_agreement
from regen_model.encoding.scope import widest
from regen_model.engine import EngineError, step
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.mutants.scenarios import (
    Suite,
    load_suite,
    roots_key,
    scenario_kills,
)
from regen_model.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
ROOTS = (ROOT / "tests" / "scenarios", ROOT / "regen_model" / "examples")


@cache
def _suite() -> Suite:
    return load_suite(roots_key(ROOTS))


def replay(mutant: Mutant, relation: Rules | None = None) -> tuple[int, AgreementResult | None]:
    """How many steps within the agreement scope the killing scenarios of ``mutant`` took
    under it, and the first disagreement of the two views (None: none). ``relation``: other
    rules for the relation (the test that the check can fail)."""
    rules = Rules(frozenset({mutant}))
    suite = _suite()
    by_name = dict(suite.scenarios)
    steps = 0
    for kill in scenario_kills(suite, rules):
        scenario = by_name[kill.file]
        state = scenario.start
        scope = widest(len(state.setup.handles))
        for event in run_scenario(scenario).steps:
            for action in event.actions:
                result = check_agreement(state, action, rules, scope, relation_rules=relation)
                steps += result.status is not Status.OUT_OF_SCOPE
                if result.status is Status.DISAGREE:
                    return steps, result
                try:
                    state = step(state, action, rules).state
                except EngineError:
                    pass  # refused in both views (else a disagreement above): state unchanged
                except RuntimeError:
                    break  # the 704.3 loop does not end: in both views (DIVERGES above)
    return steps, None


@pytest.mark.parametrize("mutant", list(Mutant), ids=[m.value for m in Mutant])
def test_each_rule_mutant_is_the_same_in_both_views(mutant: Mutant) -> None:
    steps, disagreement = replay(mutant)
    assert disagreement is None, disagreement.describe()
    assert steps > 0, f"no scenario killing {mutant.value} runs within the agreement scope"


def test_a_relation_ignoring_a_switch_disagrees() -> None:
    """The check can fail: the engine under a mutant, the relation under the correct rules
    (what ``w.mutant(None)`` in the relation amounts to)."""
    for mutant in (Mutant.SUMMONING_SICKNESS_IGNORED, Mutant.SHIELD_FOLLOWS_ZONE_CHANGE):
        disagreement = replay(mutant, CORRECT)[1]
        assert disagreement is not None, mutant.value
        assert disagreement.status is Status.DISAGREE


def _replay_file(path: Path, rules: Rules) -> int:
    """Replay the scenario at ``path`` under ``rules``, action by action as the correct run
    plays them; every step must be in scope and the same in both views. The steps taken."""
    scenario = load_scenario(path)
    state = scenario.start
    scope = widest(len(state.setup.handles))
    steps = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            result = check_agreement(state, action, rules, scope)
            assert result.status is not Status.OUT_OF_SCOPE, result.describe()
            assert result.status is not Status.DISAGREE, result.describe()
            steps += 1
            state = step(state, action, rules).state
    return steps


def test_two_damage_rider_mutants_together_are_the_same_in_both_views() -> None:
    """Rules may hold several mutants (``agree --mutant X --mutant Y``). With
    ``target-cant-regen-needs-damage`` and ``damage-rider-on-prevented`` both on, only a spell
    with Incinerate's rider makes its target unregenerable regardless of damage: Lightning
    Bolt, which has no rider, still leaves the Jackal Pup its shield (701.19a), in both views."""
    rules = Rules(
        frozenset({Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE, Mutant.DAMAGE_RIDER_ON_PREVENTED})
    )
    path = ROOT / "tests/scenarios/damage/damage-trigger-uses-its-live-sources-keywords.yaml"
    assert _replay_file(path, rules) > 0


def test_two_damage_rider_mutants_together_meet_a_prevented_incinerate_the_same() -> None:
    """The same two mutants on a spell with Incinerate's rider whose damage is prevented
    (615.6): ``damage-rider-on-prevented`` makes its target unregenerable all the same, and
    ``target-cant-regen-needs-damage`` must not switch that off, in both views (slice 14 of
    the screen, ``effects.apply_effect__mutmut_94``: the relation asked only the first switch
    there); Disintegrate's rider, under the second mutant, needs its prevented damage instead."""
    rules = Rules(
        frozenset({Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE, Mutant.DAMAGE_RIDER_ON_PREVENTED})
    )
    path = ROOT / "tests/scenarios/effects/disintegrate-prevented-still-unregenerable.yaml"
    assert _replay_file(path, rules) > 0


def test_two_regeneration_tap_mutants_together_are_the_same_in_both_views() -> None:
    """With ``regen-does-not-tap`` and ``tapped-regen-becomes-tapped`` both on, regeneration
    taps nothing, so nothing becomes tapped either (701.19a broken as the first mutant means;
    the second only misreads an already tapped creature): Soldevi Steam Beast's "whenever this
    creature becomes tapped" (603.2e) never triggers as it regenerates, in both views."""
    rules = Rules(frozenset({Mutant.REGEN_DOES_NOT_TAP, Mutant.TAPPED_REGEN_BECOMES_TAPPED}))
    path = ROOT / "tests/scenarios/zone/tapped-trigger-regeneration.yaml"
    assert _replay_file(path, rules) > 0


def test_a_regeneration_seen_as_a_death_by_fecundity_under_two_mutants_is_the_same() -> None:
    """With ``regen-triggers-creature-dies`` and ``dies-draw-by-owner`` both on, Uthden Troll's
    regeneration is a death for Fecundity (the first mutant, 700.4 broken), whose draw is then
    offered to the Troll's owner (the second, 603.3a broken): the two views make the same
    trigger as the Troll is destroyed and its shield replaces it (701.19a)."""
    rules = Rules(frozenset({Mutant.REGEN_TRIGGERS_CREATURE_DIES, Mutant.DIES_DRAW_BY_OWNER}))
    scenario = load_scenario(ROOT / "tests/scenarios/draw/fecundity-regenerated-did-not-die.yaml")
    state = scenario.start
    destroy = run_scenario(scenario).steps[0].actions[0]
    result = check_agreement(state, destroy, rules, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()
    assert step(state, destroy, rules).state.pending  # the mutants' trigger is made


def test_an_indestructible_creature_under_two_destruction_mutants_is_the_same() -> None:
    """With ``indestructible-uses-shield`` and ``exiled-though-regenerated`` both on, an
    indestructible Darksteel Colossus with "if it would die this turn, exile it instead" and
    no shield is asked for a replacement (702.12b broken), finds none and stays: nothing saved
    it by a replacement, so the second mutant has nothing to exile (614.6), in both views."""
    rules = Rules(frozenset({Mutant.INDESTRUCTIBLE_USES_SHIELD, Mutant.EXILED_THOUGH_REGENERATED}))
    path = ROOT / "tests/scenarios/destroy/indestructible-with-exile-if-dies-stays.yaml"
    assert _replay_file(path, rules) > 0


# A rule mutant on a scenario that does not kill it (the engine's mutant changes nothing
# there), where a relation that overdoes the mutant would still change something.
NOT_KILLING = [
    # only the regenerated creature's damage triggers are lost, not the Cutthroat's
    # creature-dies trigger made in the same event (603.10a)
    (Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN, "zone/regenerated-watcher-still-sees-another-die"),
    # the Aura is still there as its ability resolves: the shield is made as under the correct
    # rules, recording the Aura that made it (Shield.via; 113.7a, 701.19a)
    (Mutant.SACRIFICED_AURA_NO_SHIELD, "attach/aura-regenerates-enchanted-creature"),
    # nothing is prevented; the deathtouch damage meets a new object and is dealt to nothing
    # (400.7), so no deathtouch record is made (702.2b)
    (
        Mutant.PREVENTED_DEATHTOUCH_DESTROYS,
        "combat/pre-m10-deathtouch-damage-to-a-returned-blocker",
    ),
    # no creature blocks two attackers; in the first-strike step an attacker without first
    # strike deals no damage (510.4), so its two blockers ask for no division there (510.1c)
    (
        Mutant.MULTI_BLOCKER_FIRST_ONLY,
        "combat/first-strike-step-asks-no-division-of-a-regular-attacker-fdn",
    ),
    # Disintegrate's damage is dealt, so its "can't be regenerated" applies whether or not the
    # mutant asks for damage first (701.19c)
    (Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE, "replace/exile-instead-after-shield"),
    # Incinerate's own rider needs its damage under every reading: the mutant, which reads
    # Disintegrate's rider as Incinerate's, leaves Incinerate's unregenerable (701.19c)
    (Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE, "effects/cant-regen-make"),
    # a shield counter, not regeneration, saves the Onulet (122.1c): no dies trigger even
    # under the mutant that has regeneration trigger it (700.4, 701.19a)
    (Mutant.REGEN_TRIGGERS_DIES, "zone/dies-trigger-not-on-a-shield-counter"),
    # Shock has no deathtouch: its prevented damage makes no deathtouch record, even under the
    # mutant that has prevented deathtouch damage make one (702.2b, 615.1)
    (Mutant.PREVENTED_DEATHTOUCH_DESTROYS, "prevent/prevented-damage-triggers-nothing"),
    # a permanent that is no creature regenerates: it does not die, even under the mutant that
    # has a regenerating creature trigger its dies ability (700.4, 701.19a)
    (Mutant.REGEN_TRIGGERS_DIES, "regen/noncreature-regenerates-without-dying"),
    # a permanent that is no creature regenerates: no creature died, so even the mutant that
    # has a regenerating creature trigger the watchers' "whenever a creature dies" finds none
    # (700.4, 701.19a)
    (
        Mutant.REGEN_TRIGGERS_CREATURE_DIES,
        "regen/noncreature-regenerates-no-creature-dies-watcher",
    ),
    # the Troll's one shield is used up before it is sacrificed: even the mutant that has a
    # sacrifice use a shield finds none to use (701.21a, 701.19a)
    (Mutant.SACRIFICE_USES_SHIELD, "zone/sacrifice-after-a-used-shield"),
    # Horned Troll has no "when this creature dies" ability: even the mutant that has a
    # regenerating creature trigger its dies ability (700.4, 701.19a) finds none to trigger
    (Mutant.REGEN_TRIGGERS_DIES, "regen/shield-apply"),
    # a deal of 0 deathtouch damage is no damage (120.8): nothing is prevented, so even the
    # mutant that has prevented deathtouch damage make a record finds none (702.2b, 615.1)
    (Mutant.PREVENTED_DEATHTOUCH_DESTROYS, "prevent/zero-deathtouch-damage-meets-no-shield"),
    # each library holds the cards its mill takes: even the mutant that has a short mill
    # lose the game finds no short library, so nobody loses (701.17b, 704.5b; slice 12)
    (Mutant.MILL_SHORT_LIBRARY_LOSES, "draw/thought-scour-mills-one-group"),
    # a double striker regenerated before the first-strike damage step leaves combat even
    # under the mutant that keeps one regenerated in that step in combat (701.19a, 510.4)
    (
        Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT,
        "combat/double-striker-regenerated-before-damage-leaves-combat",
    ),
    # a blocker with neither first strike nor double strike regenerated in the first-strike
    # damage step leaves combat even under the mutant that keeps a double striker regenerated
    # there in combat: the mutant is about double strikers only (701.19a, 702.4b, 510.4)
    (Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT, "combat/first-strike-regenerated-blocker"),
    # B's blocking bears leave before pre-M10 combat damage on the stack resolves: their
    # keywords and their controller (B) as assigned are the ones they last had, so the mutant
    # that reads the sources as assigned changes nothing, in both views (310.4b of pre-M10;
    # the killing scenarios have only A's creatures)
    (Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT, "combat/pre-m10-damage-on-stack"),
    # Cloudshift's "target creature you control" is no combat or tap status: its target,
    # given to B in response, is checked in full even under the mutant that checks the status
    # rules only at casting, so Cloudshift does not resolve (608.2b; slice 14)
    (Mutant.TARGET_STATUS_CAST_ONLY, "turn/cloudshift-control-changed"),
    # the regenerated Troll has no "if it would die this turn, exile it instead" effect: even
    # the mutant that exiles a creature with that effect although a replacement saved it
    # leaves this one on the battlefield, the same object (701.19a, 614.6; slice 15)
    (Mutant.EXILED_THOUGH_REGENERATED, "regen/shield-apply"),
    # the Giant has deathtouch as its damage is assigned and still as it resolves: the mutant
    # that reads the sources' keywords as assigned reads deathtouch too, so the pre-M10
    # deathtouch trigger triggers either way (310.4b and 502.2 of pre-M10; slice 15)
    (Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT, "combat/pre-m10-deathtouch-trampler-assigns-toughness"),
    # B's Nighthawk blocks and is still B's as its lifelink damage resolves: the mutant that
    # reads the sources as assigned reads B as their controller too, so B gains the life
    # either way (702.15b, 310.4b of pre-M10; slice 17: the killing scenarios' sources are
    # all controlled by the active player, whose number the relation's default is)
    (
        Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT,
        "combat/pre-m10-lifelink-blocker-gains-its-controller-life",
    ),
    # a shield counter, not regeneration, saves B's Bears (122.1c): no creature died, so B's
    # Cutthroat does not trigger, even under the mutant that has a regeneration seen as a death
    # by the watchers (700.4, 701.19a; slice 19)
    (Mutant.REGEN_TRIGGERS_CREATURE_DIES, "zone/creature-dies-watcher-not-on-a-shield-counter"),
]


@pytest.mark.parametrize(
    ("mutant", "name"), NOT_KILLING, ids=[f"{m.value}-{n}" for m, n in NOT_KILLING]
)
def test_a_rule_mutant_where_it_changes_nothing_is_the_same_in_both_views(
    mutant: Mutant, name: str
) -> None:
    path = ROOT / "tests" / "scenarios" / f"{name}.yaml"
    assert _replay_file(path, Rules(frozenset({mutant}))) > 0


def test_under_deathtouch_remembered_a_static_regenerator_diverges_in_both_views() -> None:
    """Under the rule mutant ``deathtouch-remembered`` (702.2b broken: the record of deathtouch
    damage outlives the check that reads it), Mossbridge Troll ("If this would be destroyed,
    regenerate it", 701.19a) dealt 1 deathtouch damage is destroyed and regenerated by every
    check, so the 704.3 loop never ends: the engine gives up, and the relation's ``sba.loop``
    obligation (nothing pending after its checks, deathtouch included: ``derived.sba_pending``,
    slice 12) fails too, so both views say the loop diverges."""
    from regen_model.model import actions as A
    from regen_model.model.build import CardSpec, make_state
    from regen_model.model.cards import PERMANENT_CARDS
    from regen_model.model.enums import Keyword

    rules = Rules(frozenset({Mutant.DEATHTOUCH_REMEMBERED}))
    troll = CardSpec("troll", PERMANENT_CARDS["Mossbridge Troll"], 0)
    deathtouch = A.DealDamage(
        source="effect",
        shares=(A.DamageShare(1, card="troll"),),
        keywords=frozenset({Keyword.DEATHTOUCH}),
    )
    state = step(make_state(("A", "B"), [troll]), deathtouch, rules).state
    assert state.cards[0].deathtouched
    result = check_agreement(state, A.CheckStateBasedActions(), rules, widest(1))
    assert result.status is Status.DIVERGES, result.describe()


def test_under_deathtouch_remembered_an_indestructible_creature_keeps_its_record() -> None:
    """Under the rule mutant ``deathtouch-remembered`` (702.2b broken: the record of deathtouch
    damage outlives the check that reads it) no check clears the record, not even the last one
    of a loop whose every unrolled check performed something. Horned Troll with two
    regeneration shields and Darksteel Myr (indestructible, 702.12b) each hold a deathtouch
    record: the Troll is destroyed by three checks in a row (two shields replace the first two,
    701.19a), which is every check the relation unrolls for two slots; the Myr's record never
    makes it pending (704.5h asks a destruction, which does nothing to it) and stays set in
    both views (slice 19's ``sba.run_sba_loop``)."""
    from regen_model.model import actions as A
    from regen_model.model.build import CardSpec, make_state
    from regen_model.model.cards import PERMANENT_CARDS
    from regen_model.model.enums import Rider, Zone
    from regen_model.model.state import Shield

    rules = Rules(frozenset({Mutant.DEATHTOUCH_REMEMBERED}))
    shields = (Shield("Death Ward", 0, Rider.NONE), Shield("Death Ward", 0, Rider.NONE))
    troll = CardSpec(
        "troll", PERMANENT_CARDS["Horned Troll"], 0, shields=shields, deathtouched=True
    )
    myr = CardSpec("myr", PERMANENT_CARDS["Darksteel Myr"], 0, deathtouched=True)
    state = make_state(("A", "B"), [troll, myr])
    after = step(state, A.CheckStateBasedActions(), rules).state
    assert after.cards[0].zone is Zone.GRAVEYARD and after.cards[1].deathtouched
    result = check_agreement(state, A.CheckStateBasedActions(), rules, widest(2))
    assert result.status is Status.AGREE, result.describe()
