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
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Edition
from regen_model.model.state import GameState

CARDS = [
    CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
    CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 0),
    CardSpec("spirit", PERMANENT_CARDS["Suture Spirit"], 0),
]
BOARD = make_state(("A", "B"), CARDS)
BOARD_M10 = make_state(("A", "B"), CARDS, edition=Edition.M10)
# Counterspell's "target spell" (115.1, 601.2c): Horned Troll's regeneration ability on the
# stack is an object that is no spell
TROLL = make_state(("A", "B"), [*CARDS, CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 0)])
TROLL_ABILITY_ON_STACK = step(TROLL, A.ActivateAbility(player=0, source="troll")).state
COUNTERSPELL = SPELLS["Counterspell"]


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
        # Counterspell's refusals (engine.step._spell_target, _targets): the scenario loader
        # refuses these casts first (a spell named by name or position, one target)
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0), A.TargetChoice(spell=1))),
            "Counterspell counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Counterspell",
                effect=Effect(EffectKind.COUNTER_SPELL),
                target_rule=TargetRule.ANY,
                targets=(A.TargetChoice(card="bears"),),
            ),
            "Counterspell counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Hex",
                effect=Effect(EffectKind.DESTROY),
                target_rule=TargetRule.SPELL,
                targets=(A.TargetChoice(spell=0),),
            ),
            "Hex counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(card="bears"),)),
            "Counterspell targets a spell [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)),
            "Counterspell targets a spell: the stack has no object at position 0 [stack.cast]",
            "targets",
        ),
        (
            TROLL_ABILITY_ON_STACK,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)),
            "Counterspell targets a spell (troll: Regenerate this permanent is not one) "
            "[stack.cast]",
            "targets",
        ),
        (
            BOARD,
            SPELLS["Murder"].cast(0, (A.TargetChoice(spell=0),)),
            "Murder can't target a spell [stack.cast]",
            "targets",
        ),
    ],
    ids=[
        "ability-without-target",
        "attach-a-creature",
        "damage-to-no-player",
        "negative-damage",
        "order-before-blockers",
        "counterspell-two-targets",
        "counter-effect-with-another-rule",
        "spell-rule-with-another-effect",
        "counterspell-at-a-card",
        "counterspell-at-an-empty-place",
        "counterspell-at-an-ability",
        "murder-at-a-spell",
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
