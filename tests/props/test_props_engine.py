"""Hypothesis runs of the reference engine: random boards, random legal actions over whole
turns, every invariant monitor checked after every step.

Two shapes, both with the CI profile by default (about a minute in all) and a long profile
(``REGEN_PROPS_PROFILE=props-long``):

* ``EngineMachine``: a ``RuleBasedStateMachine`` whose one rule takes a legal action, so
  Hypothesis shrinks a failure to the shortest sequence of actions;
* ``test_long_runs``: a few hundred steps from one board, a run far longer than the
  explorer's depths, checked step by step.

Besides the catalog, each step is checked for what every engine step promises: it is
deterministic, it cites only catalog clauses, and it never crashes (``EngineError`` is the
only way to refuse an action).
"""

from __future__ import annotations

from hypothesis import given, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from regen_model.clauses import catalog
from regen_model.engine import StepResult, step
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.trace import describe_action
from regen_model.model.actions import Action
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

from .strategies import PROFILE, boards, legal_step

MONITOR = CatalogMonitor()
CLAUSES = catalog()


def check(pre: GameState, action: Action, result: StepResult) -> None:
    """Every invariant and step property of the catalog, plus the engine's own promises."""
    violations = MONITOR.check_step(pre, action, result) + MONITOR.check_state(result.state)
    assert not violations, "; ".join(f"{v.invariant}: {v.message}" for v in violations)
    unknown = {e.clause for e in result.events} - set(CLAUSES.clauses)
    assert not unknown, f"events cite unknown clauses {unknown}"
    again = step(pre, action, CORRECT)
    assert again.state == result.state and again.events == result.events, "not deterministic"


class EngineMachine(RuleBasedStateMachine):
    """One game: a random board, then legal actions; the catalog is checked after each."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.turns = 0

    @initialize(board=boards())
    def start(self, board: GameState) -> None:
        self.state = board
        assert not MONITOR.check_state(board), "a legal board satisfies the state invariants"

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        assert self.state is not None
        if any(p.lost for p in self.state.players):
            return  # the game is over
        taken = legal_step(data, self.state, CORRECT)
        if taken is None:
            return
        action, result = taken
        note(describe_action(action, self.state.setup.player_names))
        check(self.state, action, result)
        self.turns += result.state.turn - self.state.turn
        self.state = result.state

    @invariant()
    def somebody_can_act(self) -> None:
        """The game never waits for nobody: a player holds priority or owes a decision."""
        if self.state is None or any(p.lost for p in self.state.players):
            return
        assert self.state.priority is not None or self.state.decision.value != "none"


EngineMachine.TestCase.settings = PROFILE
TestEngineMachine = EngineMachine.TestCase


@PROFILE
@given(board=boards(), data=st.data())
def test_long_runs(board: GameState, data: st.DataObject) -> None:
    """Long runs: 200 steps from one board (several turns when passing dominates)."""
    state = board
    for _ in range(200):
        if any(p.lost for p in state.players):
            break
        taken = legal_step(data, state, CORRECT)
        if taken is None:
            break
        action, result = taken
        note(describe_action(action, state.setup.player_names))
        check(state, action, result)
        state = result.state
