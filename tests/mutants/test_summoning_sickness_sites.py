"""The ``summoning-sickness-ignored`` mutant lets a creature that came under its controller's
control this turn act as if it had haste (302.6). It acts at two sites of the engine: the
declaration of attackers (508.1a, ``combat``) and the payment of a {T} cost (602.2b,
``step._pay_tap``). ``test_every_mutant_is_observable`` is content once either site differs,
so each site gets its scenario here: passing under the correct rules, failing under the mutant.
Without it, switching the mutant off at one site goes unnoticed (slice 13 of the mutation
screen: ``step.x__pay_tap__mutmut_13``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.mark.parametrize(
    "name", ["combat/summoning-sickness.yaml", "costs/tap-cost-niall-silvain.yaml"]
)
def test_each_site_of_the_summoning_sickness_mutant_is_observable(name: str) -> None:
    scenario = load_scenario(SCENARIOS / name)
    assert run_scenario(scenario).verdict is Verdict.PASSED
    mutant = Rules(frozenset({Mutant.SUMMONING_SICKNESS_IGNORED}))
    assert run_scenario(scenario, mutant).verdict is Verdict.FAILED
