"""Inline cards reach the Z3 view as written: the scenarios of inline cards with issue 13's
fields (ability costs, ``dies-draw``, ``end-step-reflexive``, ``shrine``, ``merfolk``,
``tapped-watch-life``, ``enters-with-plus-counters``; ``tests/scenarios/*/inline-*.yaml``)
are replayed step by step, and at each step the relation, its printed cards pinned to the
scenario's (``frame.statics_values``), agrees with the engine. A field the parser read but the
encoding's card tables left out (or read otherwise) would make the views disagree here, and a
card the encoding cannot represent (``frame.template_fits``) would be out of scope."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.scope import widest
from regen_model.engine import EngineError, step
from regen_model.model.rules import CORRECT
from regen_model.scenario import load_scenario, run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.glob("*/inline-*.yaml"))


def test_the_inline_scenarios_are_found() -> None:
    assert len(FILES) >= 5, FILES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_an_inline_card_scenario_agrees_in_both_views(path: Path) -> None:
    scenario = load_scenario(path)
    state = scenario.start
    scope = widest(len(state.setup.handles))
    steps = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            result = check_agreement(state, action, CORRECT, scope)
            assert result.status is not Status.OUT_OF_SCOPE, result.describe()
            assert result.status is not Status.DISAGREE, result.describe()
            steps += 1
            # refused in both views (else a disagreement above): the state is unchanged
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    assert steps > 0
