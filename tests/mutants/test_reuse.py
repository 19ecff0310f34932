"""A mutant's search that reuses the correct rules' record is the same search (``explore.reuse``).

The matrix runs each mutant's battery on top of the baseline's record: a step that never
consulted the mutant is taken from the record. These tests run searches both ways and
compare everything the matrix reads from them, so a hole in the reuse (a flag consulted
outside ``Rules.mutants``, a step whose outcome depends on something else) fails here.
"""

from __future__ import annotations

import dataclasses

import pytest

from regen_model.explore import explore
from regen_model.explore.bfs import ExploreResult
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.reuse import Transitions
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.mutants.battery import BATTERY

# Mutants the battery's baseline consults in several scopes, one of them killed early.
MUTANTS = (Mutant.SHIELD_NOT_CONSUMED, Mutant.REGEN_DOES_NOT_TAP, Mutant.DEATHTOUCH_REMEMBERED)


def _summary(result: ExploreResult) -> tuple[object, ...]:
    return (
        result.states,
        result.progress.transitions,
        result.progress.candidates,
        result.progress.levels,
        {
            name: (cex.length, tuple(s.action for s in cex.trace.steps), cex.message)
            for name, cex in result.violations.items()
        },
    )


@pytest.mark.parametrize("scope", BATTERY, ids=lambda s: s.name)
def test_reusing_the_record_gives_the_same_search(scope: object) -> None:
    config = dataclasses.replace(scope.config, stop_at_first=False)  # type: ignore[attr-defined]
    monitor = CatalogMonitor()
    record = Transitions()
    baseline = explore(config, monitor, record=record)
    assert _summary(baseline) == _summary(explore(config, monitor))
    asked = record.questions()
    for m in MUTANTS:
        mutated = dataclasses.replace(config, rules=Rules(frozenset({m})))
        fresh = explore(mutated, monitor)
        reused = explore(mutated, monitor, reuse=record)
        assert _summary(reused) == _summary(fresh), m
        if m not in asked:  # never consulted here: the mutant's search is the baseline's
            assert _summary(fresh) == _summary(baseline)
        if reused.as_recorded:  # taken as the record only when it is the record's search
            assert _summary(fresh) == _summary(baseline), m
            assert reused.exhausted == fresh.exhausted and not fresh.violations


# (scope, mutant): consulted there on many steps yet changes none (no creature of the combat
# scope has deathtouch), and one that changes some (a shield that is not used up).
ASKED_UNCHANGED = ("combat", Mutant.DEATHTOUCH_REMEMBERED)
ASKED_CHANGED = ("combat", Mutant.SHIELD_NOT_CONSUMED)


def test_a_mutant_that_changes_no_step_is_the_recorded_search_without_a_walk() -> None:
    scope = next(s for s in BATTERY if s.name == ASKED_UNCHANGED[0])
    config = dataclasses.replace(scope.config, stop_at_first=False)
    monitor = CatalogMonitor()
    record = Transitions()
    baseline = explore(config, monitor, record=record)
    for m, taken in ((ASKED_UNCHANGED[1], True), (ASKED_CHANGED[1], False)):
        assert record.changeable(frozenset({m})), m  # consulted: the shortcut has work to do
        mutated = dataclasses.replace(config, rules=Rules(frozenset({m})))
        reused = explore(mutated, monitor, reuse=record)
        assert reused.as_recorded is taken, m
        assert (_summary(reused) == _summary(baseline)) is taken, m
    unchanged = Rules(frozenset({ASKED_UNCHANGED[1]}))
    deeper = dataclasses.replace(config, depth=config.depth - 1, rules=unchanged)
    assert not explore(deeper, monitor, reuse=record).as_recorded  # other bounds: walked


def test_a_record_is_only_reused_by_the_same_search() -> None:
    record = Transitions()
    first, other = BATTERY[0].config, BATTERY[1].config
    explore(first, CatalogMonitor(), record=record)
    with pytest.raises(ValueError, match="same starts"):
        explore(other, CatalogMonitor(), reuse=record)
    with pytest.raises(ValueError, match="correct rules"):
        explore(
            dataclasses.replace(first, rules=Rules(frozenset({MUTANTS[0]}))),
            CatalogMonitor(),
            record=Transitions(),
        )
    assert CORRECT.mutants == frozenset()
