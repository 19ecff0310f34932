"""The scenario route plays a scenario under a mutant only if its correct run asked about it.

``mutants.scenarios.scenario_kills`` skips every scenario whose run under the correct rules
never consulted the mutant (the same argument as ``explore.reuse``). These tests play every
scenario under every mutant as well and compare, so a mutant consulted outside
``Rules.has`` (or a scenario whose run depends on something else) fails here.
"""

from __future__ import annotations

import pytest

from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.mutants.scenarios import (
    Suite,
    default_roots,
    load_suite,
    roots_key,
    scenario_kills,
)


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite(roots_key(default_roots()))


@pytest.mark.slow
@pytest.mark.parametrize("mutant", list(Mutant), ids=lambda m: m.value)
def test_skipping_the_scenarios_that_never_ask_changes_no_kill(
    suite: Suite, mutant: Mutant
) -> None:
    rules = Rules(frozenset({mutant}))
    assert scenario_kills(suite, rules) == scenario_kills(suite, rules, every=True)


def test_the_questions_are_recorded_and_narrow_the_runs(suite: Suite) -> None:
    """Every kept scenario has its questions, which name mutants (the record works) but far
    fewer than all of them (the skip saves runs)."""
    assert len(suite.questions) == len(suite.scenarios) > 100
    assert any(suite.questions)
    played = sum(len(q) for q in suite.questions)
    assert played < len(suite.scenarios) * len(Mutant) // 4
