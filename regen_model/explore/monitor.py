"""What the explorer checks on every state and every step: a ``Monitor``.

The explorer does not know any rule invariant itself. It asks a monitor about each state it
discovers (state invariants) and about each step ``pre --action--> result`` it takes (step
properties), and records the ``Finding``s. Keeping the two apart lets the explorer check a
state invariant once per distinct state rather than once per transition into it, which is
sound because a state invariant reads nothing but the state.

``CatalogMonitor`` adapts the project's invariant catalog (``regen_model.invariants``), whose
formulas are written once and also evaluated on Z3 states by the proof engine, so the explorer
checks exactly the invariants the proofs are about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from regen_model.engine import StepResult
from regen_model.invariants import Invariant, Kind, Violation, builtin, check_state, check_step
from regen_model.model.actions import Action
from regen_model.model.state import GameState


class Finding(NamedTuple):
    """One invariant that does not hold: its ID and a one-line explanation."""

    invariant: str
    message: str


class Monitor(Protocol):
    """Invariant checks for the explorer."""

    @property
    def invariants(self) -> Sequence[str]:
        """IDs of every invariant checked, in report order."""

    def check_state(self, state: GameState) -> list[Finding]:
        """The state invariants ``state`` violates."""

    def check_step(self, pre: GameState, action: Action, result: StepResult) -> list[Finding]:
        """The step properties this step violates (not the state invariants of its result)."""


class CatalogMonitor:
    """The invariant catalog (``regen_model.invariants``) as a ``Monitor``.

    ``invariants`` defaults to the built-in catalog; pass ``invariants.load(paths)`` to add a
    user's files under ``proofs/``.
    """

    def __init__(self, invariants: Sequence[Invariant] | None = None) -> None:
        chosen = tuple(builtin() if invariants is None else invariants)
        self.catalog = chosen
        self._state = tuple(i for i in chosen if i.kind is Kind.STATE)
        self._step = tuple(i for i in chosen if i.kind is Kind.STEP)

    @property
    def invariants(self) -> Sequence[str]:
        return tuple(inv.id for inv in self.catalog)

    def check_state(self, state: GameState) -> list[Finding]:
        if not self._state:
            return []
        return [_finding(v) for v in check_state(state, self._state)]

    def check_step(self, pre: GameState, action: Action, result: StepResult) -> list[Finding]:
        if not self._step:
            return []
        return [_finding(v) for v in check_step(pre, action, result, self._step)]


def _finding(v: Violation) -> Finding:
    where = f" (for {', '.join(v.cards)})" if v.cards else ""
    return Finding(v.invariant, v.sentence + where)
