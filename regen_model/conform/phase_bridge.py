"""The phase.rs adapter (``regen_model.adapters.phase``) behind the generic adapter protocol.

That adapter was written alongside this package with its own ``Observation`` type (players by
index, events as ``"regenerated H"``, a ``game`` section) and its own errors. This bridge
converts, field by field, without changing what is observed:

| phase adapter                       | here                                            |
|-------------------------------------|-------------------------------------------------|
| ``controller`` (player index)       | ``controller`` (player name)                    |
| other card and player fields        | the same names and values                       |
| ``"regenerated H"``, ``"destroyed H"``, ``"damage H N"`` | ``regenerated:H``, ``destroyed:H``, ``damage:H:N`` |
| ``unobserved_events`` for a step    | removed from ``event_kinds``                    |
| ``game``: turn, step                | the same                                        |
| ``game``: active, priority (index)  | the player's name (priority ``None``: nobody)   |
| ``Unsupported`` / ``Unexpressible`` | ``Unsupported`` / ``StepUnsupported`` (skipped) |
| ``AdapterTimeout``, ``AdapterError``| ``EngineFailure`` (an engine error)             |

The scenario's actions, known from ``supports``, are passed to ``start`` as the phase
adapter's stocking hint. phase.rs runs in-process, so a hang inside it can only be caught by
isolating it (``crosscheck --isolate``, which serves the adapter over JSON lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regen_model.conform.adapter import EngineFailure, StepUnsupported, Unsupported
from regen_model.conform.observe import Observation, Value
from regen_model.model.actions import Action
from regen_model.model.state import GameState

PHASE_EVENT_KINDS = frozenset({"regenerated", "destroyed", "damage"})


class PhaseBridge:
    def __init__(self, inner: Any | None = None) -> None:
        if inner is None:
            from regen_model.adapters.phase import PhaseEngineAdapter

            inner = PhaseEngineAdapter()
        self.inner = inner
        self._players: tuple[str, ...] = ()
        self._hint: tuple[Action, ...] = ()

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def version(self) -> str:
        return str(self.inner.version)

    def supports(self, state: GameState, actions: Sequence[Action]) -> Unsupported | None:
        self._hint = tuple(actions)
        found = self.inner.supports(state, actions)
        return None if found is None else Unsupported(str(found))

    def start(self, state: GameState) -> None:
        from regen_model.adapters.phase import AdapterError

        self._players = state.setup.player_names
        try:
            self.inner.start(state, self._hint)
        except AdapterError as exc:
            raise EngineFailure(f"phase.rs start failed: {exc}") from None

    def apply(self, action: Action) -> None:
        from regen_model.adapters.phase import AdapterError, Unexpressible

        try:
            self.inner.apply(action)
        except Unexpressible as exc:
            raise StepUnsupported(str(exc)) from None
        except AdapterError as exc:
            raise EngineFailure(f"{type(exc).__name__}: {exc}") from None

    def observe(self) -> Observation:
        return convert(self.inner.observe(), self._players)

    def close(self) -> None:
        self.inner.close()


def convert(obs: Any, players: Sequence[str]) -> Observation:
    """The phase adapter's observation in this package's terms (see the table above)."""
    cards: dict[str, dict[str, Value]] = {}
    for handle, rec in obs.cards.items():
        out: dict[str, Value] = dict(rec)
        ctrl = out.get("controller")
        if isinstance(ctrl, int) and not isinstance(ctrl, bool) and 0 <= ctrl < len(players):
            out["controller"] = players[ctrl]
        cards[handle] = out
    events = tuple(":".join(e.split(" ")) for e in obs.events)
    kinds = PHASE_EVENT_KINDS - frozenset(obs.unobserved_events)
    game: dict[str, Value] = {}
    for key, value in getattr(obs, "game", {}).items():
        if key in ("active", "priority") and (value is None or isinstance(value, int)):
            game[key] = None if value is None else players[value]
        elif key in ("turn", "step"):
            game[key] = value
    players_obs = {k: dict(v) for k, v in obs.players.items()}
    return Observation(cards, players_obs, events, kinds, game)
