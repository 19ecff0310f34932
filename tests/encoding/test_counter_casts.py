"""Casts of "target spell" that break 601.2c, refused by both views alike.

Counterspell's one target is a spell on the stack (115.1, 601.2c): the engine refuses a cast
with another target, another count, or "target spell" on an effect that is no counter
(``engine.step._spell_target``), and the relation's cast guard (``encoding.step._cast``) must
refuse the same casts. The seeded walk casts only the spells of the card list, which always
pair the counter effect with its rule and one target, so none of these casts is met there;
each conjunct of the guard was a survivor of the mutation screen
(``benchmarks/mutation-survivors-encoding.yaml``). So was the guard's "a player only where the
spell says so" (115.2), met here by a destroy spell with "any target" cast at a player."""

from __future__ import annotations

import pytest

from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.scope import widest
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

BOARD = make_state(
    ("A", "B"),
    [
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1),
        CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1),
    ],
)
SHOCK = SPELLS["Shock"]
ONE_SPELL = step(BOARD, SHOCK.cast(0, (A.TargetChoice(card="bears"),))).state
TWO_SPELLS = step(ONE_SPELL, SHOCK.cast(0, (A.TargetChoice(card="giant"),))).state


def _cast(name: str, kind: EffectKind, rule: TargetRule, *targets: A.TargetChoice) -> A.CastSpell:
    return A.CastSpell(
        player=0, name=name, effect=Effect(kind), target_rule=rule, targets=tuple(targets)
    )


@pytest.mark.parametrize(
    ("state", "action"),
    [
        # a counter effect with a rule for cards: a creature is no spell
        (
            ONE_SPELL,
            _cast(
                "Counterspell",
                EffectKind.COUNTER_SPELL,
                TargetRule.ANY,
                A.TargetChoice(card="bears"),
            ),
        ),
        # "target spell" on an effect that counters nothing, with a spell target or none
        (
            ONE_SPELL,
            _cast("Hex", EffectKind.DESTROY, TargetRule.SPELL, A.TargetChoice(spell=0)),
        ),
        (ONE_SPELL, _cast("Hex", EffectKind.DESTROY, TargetRule.SPELL)),
        # Counterspell with two targets, both spells on the stack
        (
            TWO_SPELLS,
            _cast(
                "Counterspell",
                EffectKind.COUNTER_SPELL,
                TargetRule.SPELL,
                A.TargetChoice(spell=0),
                A.TargetChoice(spell=1),
            ),
        ),
        # Counterspell at a creature
        (
            ONE_SPELL,
            _cast(
                "Counterspell",
                EffectKind.COUNTER_SPELL,
                TargetRule.SPELL,
                A.TargetChoice(card="bears"),
            ),
        ),
        # "any target" at a player on an effect that is no damage: a player is a legal target
        # only of damage to "any target" or of "target player" (115.2)
        (
            BOARD,
            _cast("Hex", EffectKind.DESTROY, TargetRule.ANY, A.TargetChoice(player=1)),
        ),
    ],
    ids=[
        "counter-effect-with-a-card-rule",
        "spell-rule-on-a-destroy",
        "spell-rule-on-a-destroy-without-target",
        "counterspell-with-two-targets",
        "counterspell-at-a-creature",
        "any-target-destroy-at-a-player",
    ],
)
def test_both_views_refuse_the_cast(state: GameState, action: A.CastSpell) -> None:
    with pytest.raises(EngineError):
        step(state, action, CORRECT)
    result = check_agreement(state, action, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


def test_a_spell_target_beyond_the_scope_stack_is_out_of_scope_by_its_reason() -> None:
    """A cast naming a stack position the scope has no slot for (601.2c, 115.1) can't be
    written as the relation's parameters: the point is set aside as out of scope, before the
    engine is asked, and its reason names the position and the scope's stack (the text
    ``encoding.params._cast`` raises, which the agreement result reports)."""
    scope = widest(len(ONE_SPELL.setup.handles))
    at = scope.stack
    action = _cast(
        "Counterspell", EffectKind.COUNTER_SPELL, TargetRule.SPELL, A.TargetChoice(spell=at)
    )
    result = check_agreement(ONE_SPELL, action, CORRECT, scope)
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == f"a stack position {at} does not fit a stack of {scope.stack}"
