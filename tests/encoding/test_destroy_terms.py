"""The destroy relation's Z3 terms against its folded evaluation on the umbra-armor boards.

A simultaneous destruction decides each permanent's questions on the values as the event began
(608.2f, 704.3; ``SymWork.event_start``) and destroys an umbra-armor Aura the same event
destroys once (702.89a rulings of 2010-06-15). The concrete evaluation runs each slot's
destruction in place, but the symbolic build runs it in a fork of ``w.branch``: a fork that lost
the event's start values (``SymWork._fork``) would decide the slots one after the other in the Z3
terms only, which no concrete check sees (the mutation screen of 2026-12-06, docs/agreement.md).
Here the terms are compared with the folded evaluation (``crosscheck.cross_check``) at each
destroy step of the umbra scenarios, whose boards the sampled points of ``test_crosscheck`` do
not hold."""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

import pytest

from regen_model.encoding.crosscheck import Z3Evaluator, cross_check
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.scope import Scope, widest
from regen_model.encoding.system import RegenSystem
from regen_model.engine import EngineError, step
from regen_model.model.rules import CORRECT
from regen_model.scenario import load_scenario, run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "destroy"
FILES = [
    SCENARIOS / "umbra-and-its-aura-at-once.yaml",
    SCENARIOS / "umbra-aura-first-then-last.yaml",
    # a destruction a shield replaces, of a creature with "exile it instead" and an Aura
    # (slice 3 of issue 10's screen: a move written without its condition in the terms only)
    SCENARIOS.parent / "replace" / "exile-instead-waits-while-a-shield-saves.yaml",
    # a pre-M10 combat damage source destroyed and regenerated while its damage waits on the
    # stack: no last known information is taken (record_lki under its condition)
    SCENARIOS.parent / "combat" / "pre-m10-regenerated-source-keeps-dealing-as-it-is.yaml",
    # a dies trigger pushed under the destruction's condition (the waiting triggers' size is
    # a sum of conditional terms: SymWork.add_if)
    SCENARIOS.parent / "zone" / "dies-trigger-not-on-regeneration.yaml",
    # a "whenever a creature dies" watcher destroyed by the same instruction, before the
    # other creature in slot order: read as the event began in every fork (SymWork.before)
    SCENARIOS.parent / "zone" / "creature-dies-watcher-destroyed-by-one-instruction.yaml",
]


@cache
def _evaluator(scope: Scope) -> Z3Evaluator:
    """One compiled relation per scope, shared by the boards of that size."""
    return Z3Evaluator(RegenSystem(scope, CORRECT))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_destroy_terms_equal_the_folded_evaluation(path: Path) -> None:
    scenario = load_scenario(path)
    state = scenario.start
    scope = widest(len(state.setup.handles))
    evaluator = _evaluator(scope)
    checked = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            if action.kind == "destroy":
                assert cross_check(evaluator, prepare(state, scope), action) == [], repr(action)
                checked += 1
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    assert checked > 0
