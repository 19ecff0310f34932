"""The state space as the explorer sees it: which states count as equal, which are inside the
bounded scope, and which are terminal.

* **View (state hashing).** States are immutable, hashable NamedTuples, so a state is its own
  fingerprint. The one field dropped from the view is the turn number: no rule reads it (the
  engine only reports it), so two states that differ only in it have the same futures up to
  that number, and keeping it would make every turn look new. The graveyards are dropped
  too, for the same reason: no rule reads a graveyard (nothing returns from it or counts it,
  docs/rules-decisions.md), and every spell cast would otherwise make a new state. ``tests/explore`` checks the
  claim on random states. The stored state keeps its real turn number for traces.
* **Scope (TLC's CONSTRAINT).** A successor that does not fit the scope (more shields on a
  card, stack objects, waiting triggers or targets than the scope has room for) is checked
  like any other state but not expanded: the verdict is about the states that fit.
* **Terminal states.** Once a player has lost, the game is over (104.2a): nothing follows.
"""

from __future__ import annotations

from regen_model.encoding.scope import Scope
from regen_model.model.state import GameState


def view(state: GameState) -> GameState:
    """The state as hashed by the explorer (the turn number and the graveyards left out)."""
    if state.turn:
        state = state._replace(turn=0)
    if any(p.graveyard for p in state.players):
        state = state._replace(players=tuple(p._replace(graveyard=()) for p in state.players))
    return state


def fits(state: GameState, scope: Scope) -> bool:
    """Whether ``state`` fits the bounded scope (the same bounds the Z3 frames have)."""
    if len(state.cards) > scope.cards:
        return False
    if len(state.stack) > scope.stack or len(state.pending) > scope.pending:
        return False
    if any(len(c.shields) > scope.shields for c in state.cards):
        return False
    return all(len(o.targets) <= scope.targets for o in (*state.stack, *state.pending))


def terminal(state: GameState) -> bool:
    """The game is over: a player has lost."""
    return any(p.lost for p in state.players)
