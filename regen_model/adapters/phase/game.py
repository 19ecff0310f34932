"""A thin wrapper around one live ``phase.Game``: every call in one place.

Why a wrapper: four things must happen around every phase.rs call and are easy to forget at
call sites. Errors (phase.rs raises ``ValueError`` for anything it rejects) become
``Rejected`` (a player's action: phase.rs's rules refused it) or ``AdapterError`` (the adapter's
own instrument failed), with the action that caused them; events are collected for the next
observation; the scenario's wall-clock budget is checked (phase.rs runs in-process, so a slow
call can only be noticed when it returns); and state edits, which replace the ``Game`` object
(``engine.load_game``), keep the wrapper pointing at the current one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import phase

from regen_model.adapters.phase.errors import AdapterError, AdapterTimeout, Rejected

Json = dict[str, Any]


class PhaseGame:
    """One phase.rs game with debug actions enabled, and the events it produced so far."""

    def __init__(self, engine: phase.Engine, game: phase.Game, deadline: float | None) -> None:
        self.engine = engine
        self.game = game
        self.deadline = deadline
        self.events: list[Json] = []
        # ``game.state()["state"]`` as last read, until a call that may change the game: the
        # export and its parse take milliseconds, and the translator and the observation read
        # the same state several times between two actions (callers never change it)
        self._state: Json | None = None

    # --- calls ---------------------------------------------------------------------------------

    def apply(self, seat: int, action: Json | phase.GameAction) -> Any:
        """Apply one of the adapter's own actions (``Debug`` actions, prompts the adapter answers
        for phase.rs) as ``seat``; a refusal is the adapter's failure (``AdapterError``)."""
        return self._apply(seat, action, AdapterError)

    def act(self, seat: int, action: Json | phase.GameAction) -> Any:
        """Apply a player's action that stands for one of ours (cast, activate, pass, declare,
        assign); a refusal is phase.rs's rules refusing it (``Rejected``, a divergence)."""
        return self._apply(seat, action, Rejected)

    def _apply(
        self,
        seat: int,
        action: Json | phase.GameAction,
        error: type[AdapterError] | type[Rejected],
    ) -> Any:
        self._state = None
        try:
            result = self.game.apply(seat, action)
        except ValueError as exc:
            shown = action.to_dict() if isinstance(action, phase.GameAction) else action
            raise error(f"phase.rs rejected {shown} by seat {seat}: {exc}") from exc
        finally:
            self._check_budget()
        self.events.extend(result.events)
        return result

    def debug(self, kind: str, **data: object) -> None:
        """A ``Debug`` action; unit variants (no fields) must be sent without ``data``."""
        inner: Json = {"type": kind, "data": data} if data else {"type": kind}
        self.apply(0, {"type": "Debug", "data": inner})

    def edit(self, change: Callable[[Json], None]) -> None:
        """Edit the full game state and resume from it (phase.rs does not validate edits)."""
        self._state = None
        snapshot = self.game.state()
        change(snapshot["state"])
        try:
            self.game = self.engine.load_game(snapshot)
        except ValueError as exc:
            raise AdapterError(f"phase.rs could not load the edited state: {exc}") from exc
        finally:
            self._check_budget()

    def snapshot(self) -> Json:
        """The whole game as phase.rs exports it (what ``restored`` loads back)."""
        result: Json = self.game.state()
        return result

    def restored(self, snapshot: Json) -> PhaseGame:
        """A new wrapper around the game ``snapshot`` holds, with no events yet: the same
        engine and budget, and the same game as when the snapshot was taken (phase.rs loads
        the export whole, as ``edit`` relies on)."""
        try:
            game = self.engine.load_game(snapshot)
        except ValueError as exc:
            raise AdapterError(f"phase.rs could not load a snapshot: {exc}") from exc
        finally:
            self._check_budget()
        return PhaseGame(self.engine, game, self.deadline)

    # --- reading -------------------------------------------------------------------------------

    def state(self) -> Json:
        """phase.rs's game state, read afresh only after a call that may have changed it."""
        if self._state is None:
            self._state = self.game.state()["state"]
        return self._state

    def waiting(self) -> Json:
        result: Json = self.game.waiting_for()
        return result

    def obj(self, object_id: int) -> Json:
        result: Json = self.game.object(object_id)
        return result

    def legal(self) -> list[phase.GameAction]:
        return self.game.actions()

    def _check_budget(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise AdapterTimeout("the scenario exceeded its wall-clock budget in phase.rs")
