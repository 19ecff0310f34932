"""Rule mutants that act at more than one site of the engine: ``test_every_mutant_is_observable``
is content once any site differs, so each site gets its scenario here, passing under the correct
rules and failing under the mutant. Without it, switching a mutant off at one site goes
unnoticed.

* ``rider-trigger-by-controller`` gives every "when it regenerates this way" delayed trigger to
  the creature's controller instead of the shield's creator (603.7a, 603.7e): at the counter
  riders (Matopi Golem's -1/-1 counter) and at Soldevi Sentry's "that player may draw a card".
* ``summoning-sickness-ignored`` lets a creature that came under its controller's control this
  turn act as if it had haste (302.6): at the declaration of attackers (508.1a, ``combat``) and
  at the payment of a {T} cost (602.2b, ``step._pay_tap``; slice 13 of the mutation screen:
  ``step.x__pay_tap__mutmut_13``).
* ``shield-counter-per-source`` lets each source's share of one damage event remove a shield
  counter (122.1c: one counter for the whole event): at the choice to prevent a share
  (``effects.deal_damage``: a share is prevented while the permanent has a counter) and at the
  removal (``effects._prevent``: each share removes one). A permanent with two counters dealt
  damage by two sources at once meets the removal site (slice 15 of the mutation screen:
  ``effects.x__prevent__mutmut_35``).
* ``lifelink-on-prevented`` makes lifelink gain the damage that would have been dealt, the
  prevented part included (615.6, 702.15b): where a share is wholly prevented
  (``effects.deal_damage``'s prevented branch) and where only part of it is (the gain after the
  damage is dealt). A share partly prevented and nothing wholly prevented meets the second
  site (slice 16 of the mutation screen: ``effects.x_deal_damage__mutmut_136``, which the
  mutant's agreement replay also meets, engine against relation, on Mending Hands' shield).
* ``multi-blocker-first-only`` gives a creature blocking two attackers all its damage to the
  first (510.1d: its controller divides it): where the assignment asks for the blocker's
  division (``combat.attackers_needing_choice``) and where its damage is planned
  (``combat.plan_hits``). An assignment that leaves the blocker out, refused under the correct
  rules, meets the first site alone (slice 19 of the mutation screen:
  ``combat.x_attackers_needing_choice__mutmut_19``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

SITES = [
    (Mutant.RIDER_TRIGGER_BY_CONTROLLER, "regen/rider-trigger-controller.yaml"),
    (Mutant.RIDER_TRIGGER_BY_CONTROLLER, "regen/soldevi-sentry-control-changed.yaml"),
    (Mutant.SUMMONING_SICKNESS_IGNORED, "combat/summoning-sickness.yaml"),
    (Mutant.SUMMONING_SICKNESS_IGNORED, "costs/tap-cost-niall-silvain.yaml"),
    (
        Mutant.SHIELD_COUNTER_PER_SOURCE,
        "combat/shield-counter-meets-two-attackers-damage-at-once-fdn.yaml",
    ),
    (Mutant.LIFELINK_ON_PREVENTED, "replace/lifelink-shield-counter.yaml"),
    (Mutant.LIFELINK_ON_PREVENTED, "prevent/lifelink-damage-partly-prevented.yaml"),
    (Mutant.MULTI_BLOCKER_FIRST_ONLY, "combat/blocker-of-two-all-to-the-first-is-asked-fdn.yaml"),
]


@pytest.mark.parametrize(("mutant", "name"), SITES, ids=[f"{m.value}-{n}" for m, n in SITES])
def test_each_site_of_the_mutant_is_observable(mutant: Mutant, name: str) -> None:
    scenario = load_scenario(SCENARIOS / name)
    assert run_scenario(scenario).verdict is Verdict.PASSED
    assert run_scenario(scenario, Rules(frozenset({mutant}))).verdict is Verdict.FAILED
