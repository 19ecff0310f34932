"""The engine's refusals of actions that can't be written as the relation's parameters, so
the agreement check never asks either view about them (``encoding/unreachable.yaml`` points
here): an action class the engine does not know, and a player index the game does not have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from regen_model.engine import EngineError, step
from regen_model.engine.errors import IllegalAction
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS

BOARD = make_state(("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0)])


@dataclass(frozen=True)
class _Unknown(A.Action):
    kind: ClassVar[str] = "unknown"


def test_an_unknown_action_is_refused() -> None:
    with pytest.raises(IllegalAction, match="unknown action _Unknown"):
        step(BOARD, _Unknown())


@pytest.mark.parametrize(
    "action",
    [
        A.CreateShield(target="bears", creator=2),
        A.ChangeControl(target="bears", player=5),
        A.DealDamage(source="effect", shares=(A.DamageShare(1, player=2),)),
    ],
)
def test_a_player_the_game_does_not_have_is_refused(action: A.Action) -> None:
    with pytest.raises(EngineError, match="no player with index"):
        step(BOARD, action)
