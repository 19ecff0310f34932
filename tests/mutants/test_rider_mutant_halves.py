"""The ``rider-trigger-by-controller`` mutant gives every "when it regenerates this way" delayed
trigger to the creature's controller instead of the shield's creator (603.7a, 603.7e). It
acts at two sites of the engine: the counter riders (Matopi Golem's -1/-1 counter) and Soldevi
Sentry's "that player may draw a card". ``test_every_mutant_is_observable`` is content once
either site differs, so each site gets its scenario here: passing under the correct rules,
failing under the mutant. Without it, switching the mutant off at one site goes unnoticed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

REGEN = Path(__file__).resolve().parent.parent / "scenarios" / "regen"


@pytest.mark.parametrize(
    "name", ["rider-trigger-controller.yaml", "soldevi-sentry-control-changed.yaml"]
)
def test_each_rider_site_of_the_mutant_is_observable(name: str) -> None:
    scenario = load_scenario(REGEN / name)
    assert run_scenario(scenario).verdict is Verdict.PASSED
    mutant = Rules(frozenset({Mutant.RIDER_TRIGGER_BY_CONTROLLER}))
    assert run_scenario(scenario, mutant).verdict is Verdict.FAILED
