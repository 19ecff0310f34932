"""Running one scenario on our engine and on phase.rs, step by step, for the adapter tests.

The comparison is the framework's (``conform.observe.compare``); these helpers only line up the
observations so that a test can also assert facts about either side.
"""

from __future__ import annotations

from collections.abc import Sequence

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.conform.observe import Observation, compare, project
from regen_model.engine import step
from regen_model.model.actions import Action
from regen_model.model.state import GameState


def on_reference(state: GameState, actions: Sequence[Action]) -> list[Observation]:
    """Our engine's projection of the start and after each action."""
    out = [project(state)]
    for action in actions:
        state, events = step(state, action)
        out.append(project(state, events))
    return out


def on_phase(
    state: GameState, actions: Sequence[Action], adapter: PhaseEngineAdapter
) -> list[Observation]:
    """phase.rs's observation of the start and after each action (the scenario must be
    supported)."""
    found = adapter.supports(state, actions)
    assert found is None, f"phase.rs cannot run this scenario: {found}"
    adapter.start(state)
    try:
        out = [adapter.observe()]
        for action in actions:
            adapter.apply(action)
            out.append(adapter.observe())
        return out
    finally:
        adapter.close()


def step_diffs(ours: Sequence[Observation], theirs: Sequence[Observation]) -> dict[int, list[str]]:
    """Step index -> the differences found there (only steps that differ)."""
    return {
        i: [d.describe() for d in diffs]
        for i, (want, got) in enumerate(zip(ours, theirs, strict=True))
        if (diffs := compare(want, got))
    }
