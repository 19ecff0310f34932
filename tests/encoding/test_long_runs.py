"""Hypothesis runs outside the bounded scope, checked step by step against the relation.

The bounded check stops at its searches' depths; here a random board of up to three built-in
permanents plays up to ``STEPS`` actions (whole turns: priority passes through every step,
combat, spells, abilities, effects), and at every step each candidate tried, accepted or not,
is checked with ``check_agreement``: the relation must enable exactly what the engine accepts
and give the engine's successor. A run ends when the game leaves the frames' scope.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from props.strategies import boards

from regen_model.encoding.agreement import AgreementResult, Status, check_agreement
from regen_model.encoding.bounded import AGREEMENT_FRAME_SCOPE
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.scope import OutOfScope
from regen_model.explore.actions import enumerate_actions
from regen_model.explore.space import fits, terminal
from regen_model.model.actions import Action
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

SCOPE = AGREEMENT_FRAME_SCOPE
STEPS = 80  # the bounded searches go 11 deep at most
SPELLS = ("Lightning Bolt", "Murder", "Regenerate", "Debt of Loyalty")
CARDS = sorted(
    name
    for name, t in PERMANENT_CARDS.items()
    if t.power <= SCOPE.max_power and t.toughness + t.attach_bonus[1] <= SCOPE.max_toughness
)


def checked(state: GameState, action: Action) -> AgreementResult:
    result = check_agreement(state, action, CORRECT, SCOPE)
    assert result.status in (Status.AGREE, Status.OUT_OF_SCOPE), f"{action!r}: {result.describe()}"
    return result


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(board=boards(CARDS, max_cards=SCOPE.cards, max_shields=1), data=st.data())
def test_long_runs_agree_step_by_step(board: GameState, data: st.DataObject) -> None:
    try:
        prepare(board, SCOPE)
    except OutOfScope:
        return
    state, taken, turns = board, 0, board.turn
    for _ in range(STEPS):
        candidates = list(enumerate_actions(state, SCOPE, spells=SPELLS))
        if not candidates:
            break
        # passing half the time gets runs through whole turns
        passes = [a for a in candidates if a.kind == "pass"]
        if passes and bool(data.draw(st.booleans(), label="pass")):
            candidates = passes
        first = data.draw(st.integers(0, len(candidates) - 1), label="action")
        successor = None
        for action in candidates[first:] + candidates[:first]:
            result = checked(state, action)  # refused candidates are checked too
            if result.engine_enabled and result.successor is not None:
                note(repr(action))
                successor = result.successor
                break
        if successor is None or not fits(successor, SCOPE) or terminal(successor):
            break
        state, taken = successor, taken + 1
    note(f"{taken} steps, {state.turn - turns} turn(s)")
