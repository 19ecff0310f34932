"""Engine refusals that no scenario file can ask for (the scenario loader refuses the action
first, or a scenario's message match is a case-insensitive substring) still name the field
they are about and say exactly what they say.

The field is where an unexpected refusal's error line points (``regen_model/scenario/run.py``,
``_input_error``) for a caller that gets past the loader, and the message is what every error
line and ``--json`` output prints; so a refusal that names another field, or words itself
otherwise, is a change a user sees. Each case was a survivor of the mutation screen
(``benchmarks/mutation-survivors-engine.yaml``).
"""

from __future__ import annotations

import pytest

from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Edition
from regen_model.model.state import GameState

CARDS = [
    CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
    CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 0),
    CardSpec("spirit", PERMANENT_CARDS["Suture Spirit"], 0),
]
BOARD = make_state(("A", "B"), CARDS)
BOARD_M10 = make_state(("A", "B"), CARDS, edition=Edition.M10)


@pytest.mark.parametrize(
    ("board", "action", "text", "field"),
    [
        (
            BOARD,
            A.ActivateAbility(player=0, source="spirit"),
            "spirit's ability needs a target creature [stack.ability-target]",
            "target",
        ),
        (
            BOARD,
            A.Attach(attachment="bears", target="giant"),
            "bears is neither an Aura nor an Equipment [attach.move]",
            "attachment",
        ),
        (
            BOARD,
            A.DealDamage(source="effect", shares=(A.DamageShare(1, player=2),)),
            None,
            "to",
        ),
        (
            BOARD,
            A.DealDamage(source="effect", shares=(A.DamageShare(-1, card="bears"),)),
            "damage amounts can't be negative [damage.mark]",
            "amount",
        ),
        (
            BOARD_M10,
            A.OrderBlockers(player=0, attacker="giant", order=("bears",)),
            "blockers are ordered by the active player right after blockers are declared "
            "[combat.edition.m10]",
            "player",
        ),
    ],
    ids=[
        "ability-without-target",
        "attach-a-creature",
        "damage-to-no-player",
        "negative-damage",
        "order-before-blockers",
    ],
)
def test_the_refusal_names_its_field_and_says_exactly_this(
    board: GameState, action: A.Action, text: str | None, field: str
) -> None:
    with pytest.raises(EngineError) as refused:
        step(board, action)
    if text is not None:
        assert str(refused.value) == text
    assert refused.value.field == field
