"""Fixtures of the conformance tests: a small start and the expensive corpora.

The clause-witness search and the random corpus are deterministic and cached per session,
so the tests that need them pay for them once.
"""

from __future__ import annotations

import pytest

from regen_model.conform.case import Case
from regen_model.conform.start import Start

from .helpers import card, shields


@pytest.fixture
def troll_and_bear() -> Start:
    """A's Horned Troll with one Death Ward shield, B's Grizzly Bears."""
    return Start(
        ("A", "B"),
        (
            card("troll", "Horned Troll", 0, shields=shields("Death Ward")),
            card("bear", "Grizzly Bears", 1),
        ),
    )


@pytest.fixture(scope="session")
def witnesses() -> list[Case]:
    from regen_model.conform.sources import witness_cases

    return witness_cases()


@pytest.fixture(scope="session")
def corpus(witnesses: list[Case]) -> list[Case]:
    """Witnesses, scenario files and 1500 random cases (seed 0): the power test's input."""
    from regen_model.conform.generate import random_cases
    from regen_model.conform.sources import default_scenario_paths, scenario_cases

    scenarios, _ = scenario_cases(default_scenario_paths())
    return [*witnesses, *scenarios, *random_cases(1500, 0, corpus=witnesses)]
