"""Every mutant is described, cites real clauses, is documented, and changes the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.clauses import catalog
from regen_model.engine import EngineError, StepResult, step
from regen_model.explore import enumerate_actions
from regen_model.explore.starts import start_states
from regen_model.model.actions import Action
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.mutants.battery import BATTERY
from regen_model.mutants.catalog import MUTANT_INFO
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "mutants.md"
SCENARIOS = ROOT / "tests" / "scenarios"


def test_every_mutant_is_described_with_known_clauses() -> None:
    assert set(MUTANT_INFO) == set(Mutant)
    known = catalog()
    for info in MUTANT_INFO.values():
        assert info.wrong.endswith(".")
        assert info.clauses
        assert all(c in known for c in info.clauses), info.mutant


def test_docs_describe_every_mutant() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for m in Mutant:
        assert f"`{m.value}`" in text, f"docs/mutants.md does not describe {m.value}"


# Mutants the battery's scopes never tell apart from the correct rules: they need an edition,
# a board or an action the battery does not have (pre-M10 combat, summoning-sick creatures, an
# answer between alike shields, several sources damaging a shield counter, a double striker, a
# lifelinker, type changes, prevention effects, a spell destroying its caster's own card).
# Each is caught by the scenario that shows the rule.
ONLY_BY_SCENARIO = {
    Mutant.DEATHTOUCH_STATIC_PRE_M10: SCENARIOS / "damage" / "pre-m10-deathtouch-trigger.yaml",
    Mutant.ALIKE_CHOICE_IGNORED: SCENARIOS / "replace" / "choice-between-alike-shields.yaml",
    Mutant.SUMMONING_SICKNESS_IGNORED: SCENARIOS / "combat" / "summoning-sickness.yaml",
    Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT: SCENARIOS
    / "combat"
    / "pre-m10-keywords-at-resolution.yaml",
    Mutant.SHIELD_COUNTER_PER_SOURCE: SCENARIOS / "replace" / "shield-counter-two-blockers.yaml",
    Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT: SCENARIOS
    / "combat"
    / "double-striker-regenerated-fdn.yaml",
    Mutant.LIFELINK_ON_PREVENTED: SCENARIOS / "replace" / "lifelink-shield-counter.yaml",
    Mutant.EXILED_THOUGH_REGENERATED: SCENARIOS / "replace" / "exile-instead-after-shield.yaml",
    Mutant.EXILE_ONLY_IF_DESTROYED: SCENARIOS / "replace" / "exile-instead-after-shield.yaml",
    # the battery's spells never destroy one of their caster's own cards
    Mutant.SPELL_TO_GRAVEYARD_FIRST: SCENARIOS / "zone" / "spell-to-graveyard.yaml",
    # the battery casts no Counterspell
    Mutant.COUNTERED_SPELL_VANISHES: SCENARIOS / "turn" / "counterspell-on-wrath.yaml",
    Mutant.REMOVE_DAMAGE_REGENERATES: SCENARIOS / "replace" / "pyramids-animated-pool.yaml",
    Mutant.CANT_REGEN_STOPS_REMOVE_DAMAGE: SCENARIOS / "replace" / "pyramids-animated-pool.yaml",
    Mutant.REMOVE_DAMAGE_NOT_USED_UP: SCENARIOS
    / "replace"
    / "pyramids-blocker-stays-in-combat.yaml",
    Mutant.DAMAGE_CLEARED_ON_TYPE_CHANGE: SCENARIOS
    / "types"
    / "damage-stays-when-not-a-creature.yaml",
    Mutant.NONCREATURE_STAYS_IN_COMBAT: SCENARIOS
    / "types"
    / "stop-being-creature-leaves-combat.yaml",
    Mutant.PREVENTION_NOT_REDUCED: SCENARIOS / "prevent" / "prevent-next-used-up.yaml",
    Mutant.PREVENTION_PER_SOURCE: SCENARIOS / "prevent" / "prevent-next-two-blockers.yaml",
    Mutant.UNPREVENTABLE_PREVENTED: SCENARIOS / "prevent" / "unpreventable-shields-stay.yaml",
    Mutant.PREVENTED_DEATHTOUCH_DESTROYS: SCENARIOS / "prevent" / "prevent-all-deathtouch.yaml",
    Mutant.PHASING_LEAVES_BATTLEFIELD: SCENARIOS
    / "phasing"
    / "phase-out-keeps-shields-leaves-combat.yaml",
    Mutant.MULTI_BLOCKER_FIRST_ONLY: SCENARIOS
    / "combat"
    / "multi-blocked-attacker-regenerates-fdn.yaml",
    Mutant.TARGET_RULE_CAST_ONLY: SCENARIOS / "turn" / "cloudshift-control-changed.yaml",
    Mutant.SHIELD_ON_ATTACHMENT: SCENARIOS / "attach" / "aura-regenerates-enchanted-creature.yaml",
    Mutant.GRANTED_ABILITY_AURA_CONTROLLER: SCENARIOS
    / "attach"
    / "granted-ability-not-the-auras-controllers.yaml",
    Mutant.TARGET_STATUS_CAST_ONLY: SCENARIOS / "turn" / "kill-shot-regenerated-attacker.yaml",
    Mutant.TAP_COST_WHILE_TAPPED: SCENARIOS / "costs" / "tap-cost-niall-silvain.yaml",
    Mutant.REGENERATED_COUNTED_AS_DESTROYED: SCENARIOS
    / "destroy"
    / "fumigate-counts-destroyed.yaml",
    Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE: SCENARIOS
    / "effects"
    / "disintegrate-prevented-still-unregenerable.yaml",
    # the battery casts no spell, so no Incinerate whose damage is prevented
    Mutant.DAMAGE_RIDER_ON_PREVENTED: SCENARIOS
    / "effects"
    / "disintegrate-prevented-still-unregenerable.yaml",
    Mutant.SACRIFICED_AURA_NO_SHIELD: SCENARIOS
    / "costs"
    / "sacrifice-carapace-regenerates-its-last-host.yaml",
    Mutant.SACRIFICE_ANY_CREATURE: SCENARIOS / "costs" / "sacrifice-a-creature-dark-privilege.yaml",
    Mutant.REGEN_TRIGGERS_DIES: SCENARIOS / "zone" / "dies-trigger-not-on-regeneration.yaml",
    Mutant.TAPPED_REGEN_BECOMES_TAPPED: SCENARIOS / "zone" / "tapped-trigger-regeneration.yaml",
    # the battery's boards never make triggers of both players at once (603.3b)
    Mutant.TRIGGERS_REVERSED_APNAP: SCENARIOS / "damage" / "trigger-controller.yaml",
    # the battery's boards have no "becomes tapped" ability (Soldevi Steam Beast)
    Mutant.REGEN_TAP_TRIGGERS_NOTHING: SCENARIOS / "zone" / "tapped-trigger-regeneration.yaml",
    Mutant.REGEN_TAP_MISSES_WATCHERS: SCENARIOS / "zone" / "creature-tapped-regeneration.yaml",
    # nor an answer to a "you may gain" (no Judge of Currents)
    Mutant.MAY_GAIN_IGNORES_DECLINE: SCENARIOS / "zone" / "creature-tapped-declined.yaml",
    Mutant.REGEN_TRIGGERS_CREATURE_DIES: SCENARIOS
    / "zone"
    / "attacking-dies-regenerated-attacker.yaml",
    Mutant.ATTACKING_READ_AFTER_MOVE: SCENARIOS / "zone" / "attacking-dies-either-side.yaml",
    Mutant.DYING_OBSERVER_MISSES_DEATHS: SCENARIOS
    / "zone"
    / "creature-dies-simultaneous-watcher.yaml",
    # the battery destroys no umbra-armor Aura with the creature it enchants
    Mutant.DESTRUCTIONS_IN_SEQUENCE: SCENARIOS / "destroy" / "umbra-and-its-aura-at-once.yaml",
    Mutant.EOC_DESTROY_NEEDS_COMBAT: SCENARIOS
    / "combat"
    / "basilisk-regenerated-blocker-still-destroyed.yaml",
    Mutant.REGEN_CANCELS_EOC_DESTROY: SCENARIOS / "combat" / "basilisk-two-shields-survive.yaml",
    # the battery's boards have no Fecundity and no control change of a creature that dies
    Mutant.DIES_DRAW_BY_OWNER: SCENARIOS / "draw" / "fecundity-controller-not-owner.yaml",
    Mutant.DIES_DRAW_NOBODY: SCENARIOS / "draw" / "fecundity-controller-not-owner.yaml",
    # nor a mill (no spell is cast there)
    Mutant.MILL_SHORT_LIBRARY_LOSES: SCENARIOS / "draw" / "mill-short-library-is-no-loss.yaml",
    # the battery's boards have no Go-Shintai and never reach an end step with one
    Mutant.REFLEXIVE_INLINE: SCENARIOS / "zone" / "reflexive-trigger-uses-the-stack.yaml",
    Mutant.REFLEXIVE_BY_SOURCE_CONTROLLER: SCENARIOS
    / "zone"
    / "reflexive-controller-of-parent.yaml",
}


Transition = tuple[GameState, Action, StepResult | None]


@pytest.fixture(scope="module")
def battery_steps() -> list[Transition]:
    """Every step the battery's searches take under the correct rules (``None``: refused),
    in search order. Each mutant is compared against this one list, so the correct engine
    runs once per test process, not once per mutant."""
    steps: list[Transition] = []
    for scope in BATTERY:
        config = scope.config
        frontier = start_states(config.start, config.scope)
        seen = set(frontier)
        for _ in range(config.depth):
            following = []
            for state in frontier:
                for action in enumerate_actions(state, config.scope, kinds=config.kinds):
                    try:
                        good: StepResult | None = step(state, action, CORRECT)
                    except EngineError:
                        good = None
                    steps.append((state, action, good))
                    if good is not None and good.state not in seen:
                        seen.add(good.state)
                        following.append(good.state)
            frontier = following
    return steps


def _changes_a_step(mutant: Mutant, steps: list[Transition]) -> bool:
    """Whether some step of the battery is accepted differently under ``mutant``, or gives a
    different successor or events."""
    rules = Rules(frozenset({mutant}))
    for state, action, good in steps:
        try:
            bad = step(state, action, rules)
        except EngineError:
            bad = None
        except RuntimeError:
            return True  # the mutant breaks the engine: it is observable
        if (good is None) != (bad is None):
            return True
        if (
            good is not None
            and bad is not None
            and (good.state != bad.state or good.events != bad.events)
        ):
            return True
    return False


@pytest.mark.parametrize("mutant", list(Mutant), ids=[m.value for m in Mutant])
def test_every_mutant_is_observable(mutant: Mutant, battery_steps: list[Transition]) -> None:
    """A mutant the engine never distinguishes from the correct rules is dead code (as the
    shield-follows-zone-change mutant once was, when a flicker dropped the shields on the
    way to exile). Within the battery, some action must be accepted differently or give a
    different successor or events; for the few mutants only a scenario can see, that
    scenario must pass under the correct rules and fail under the mutant."""
    if mutant in ONLY_BY_SCENARIO:
        scenario = load_scenario(ONLY_BY_SCENARIO[mutant])
        assert run_scenario(scenario).verdict is Verdict.PASSED
        assert run_scenario(scenario, Rules(frozenset({mutant}))).verdict is Verdict.FAILED
        assert not _changes_a_step(mutant, battery_steps), (
            "then it belongs with the battery mutants"
        )
        return
    assert _changes_a_step(mutant, battery_steps), (
        f"{mutant.value} never changes what the engine does"
    )
