"""Small builders for invariant tests: a start state and a run checked by the monitor."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from regen_model.encoding.outputs import StepOutputs, outputs_of
from regen_model.engine import EngineError, step
from regen_model.invariants import builtin, check_step
from regen_model.invariants.monitor import Violation
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield
from regen_model.scenario import load_scenario, run_scenario

# The Counterspell scenarios (701.6a): steps that counter a spell, one whose target is gone
# (608.2b) and the others, for the tests of the global step output ``countered``.
COUNTERS = sorted(
    (Path(__file__).resolve().parents[1] / "scenarios").glob("turn/counterspell-*.yaml")
)
ScenarioStep = tuple[GameState, str, GameState, StepOutputs]  # pre, action kind, post, outputs


def card(handle: str, name: str, owner: int = 0, **fields: Any) -> CardSpec:
    return CardSpec(handle, PERMANENT_CARDS[name], owner, **fields)


def shields(n: int, rider: Rider = Rider.NONE) -> tuple[Shield, ...]:
    return tuple(Shield(f"shield {i}", 0, rider) for i in range(n))


def state(*cards: CardSpec) -> GameState:
    return make_state(("A", "B"), cards)


def violations(start: GameState, actions: Sequence[Action], rules: Rules = CORRECT) -> set[str]:
    """IDs of the built-in invariants violated anywhere along the run."""
    found: list[Violation] = []
    s = start
    for a in actions:
        result = step(s, a, rules)
        found += check_step(s, a, result, builtin())
        s = result.state
    return {v.invariant for v in found}


def scenario_steps(path: Path) -> list[ScenarioStep]:
    """The engine steps of a scenario (the actions the engine refuses left out)."""
    scenario = load_scenario(path)
    s = scenario.start
    out = []
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            try:
                r = step(s, action, CORRECT)
            except EngineError:
                continue
            out.append((s, action.kind, r.state, outputs_of(s, r.events, r.state)))
            s = r.state
    return out
