"""Every scenario file under tests/scenarios and regen_model/examples must pass.

Scenario files are the readable oracle of this project: each states a situation, plays it on the
reference engine and says what the rules require. This test runs all of them, and also checks
that each one exercises the clauses it claims (so a file's ``clauses:`` list cannot drift from
what it really shows) and that the shipped examples are verbatim copies of tested scenarios.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.scenario import load_scenario, run_scenario, scenario_files
from regen_model.verdicts import Verdict
from regen_model.verify.examples import example_files

TESTS = Path(__file__).resolve().parent
SCENARIO_DIR = TESTS / "scenarios"
TEST_SCENARIOS = scenario_files([SCENARIO_DIR])
ALL = TEST_SCENARIOS + example_files()


def _id(path: Path) -> str:
    return path.name if path.parent.name == "examples" else str(path.relative_to(SCENARIO_DIR))


@pytest.mark.parametrize("path", ALL, ids=[_id(p) for p in ALL])
def test_scenario_passes(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    failures = "\n".join(
        f"{path}:{c.line}: {c.what}: expected {c.expected}, got {c.actual}" for c in result.failures
    )
    assert result.verdict is Verdict.PASSED, failures


@pytest.mark.parametrize("path", TEST_SCENARIOS, ids=[_id(p) for p in TEST_SCENARIOS])
def test_scenario_exercises_the_clauses_it_claims(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result.scenario.clauses, "say which clauses the scenario is about (clauses:)"
    missing = set(result.scenario.clauses) - result.clauses_exercised
    assert not missing, f"claimed but never cited by an event or announced error: {sorted(missing)}"


def test_there_are_scenarios() -> None:
    assert len(TEST_SCENARIOS) >= 60
    assert any(p.suffix == ".json" for p in TEST_SCENARIOS), "JSON scenarios are tested too"


@pytest.mark.parametrize("path", example_files(), ids=[p.name for p in example_files()])
def test_example_is_a_copy_of_a_tested_scenario(path: Path) -> None:
    twins = [p for p in TEST_SCENARIOS if p.name == path.name]
    assert twins, f"{path.name}: add it under tests/scenarios first; examples are a curated subset"
    assert twins[0].read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_examples_cover_every_edition_of_the_seed() -> None:
    editions = {load_scenario(p).edition.value for p in example_files() if "seed-003" in p.name}
    assert editions == {"pre-M10", "M10", "FDN"}
