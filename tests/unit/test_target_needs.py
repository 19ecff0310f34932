"""The target rules' table (``effects.TARGET_NEEDS``) as both views read it, and Go-Shintai of
Hidden Cruelty's X (``derived.shrines``)."""

from __future__ import annotations

from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.derived import shrines
from regen_model.model.effects import TARGET_NEEDS


def test_a_toughness_part_comes_with_a_creature_part() -> None:
    """The encoding reads a card's toughness for "toughness X or less" only when it may be a
    creature (``encoding.effects._toughness_within_shrines``): sound only while every rule
    with that part also needs a creature, which fails first for a noncreature (608.2b)."""
    for rule, needs in TARGET_NEEDS.items():
        if needs.toughness_shrines:
            assert needs.creature, rule


def test_shrines_counts_the_players_shrines_on_the_battlefield() -> None:
    """X counts Shrines (205.3h) the player controls on the battlefield, phased in, creature
    or not: a Go-Shintai that stopped being a creature still counts; one phased out (702.26b)
    or controlled by the other player does not."""
    shintai = PERMANENT_CARDS["Go-Shintai of Hidden Cruelty"]
    bears = PERMANENT_CARDS["Grizzly Bears"]
    state = make_state(
        ("A", "B"),
        [
            CardSpec("s1", shintai, 0),
            CardSpec("s2", shintai, 0),
            CardSpec("s3", shintai, 1),
            CardSpec("bears", bears, 0),
        ],
    )
    assert (shrines(state, 0), shrines(state, 1)) == (2, 1)
    cards = list(state.cards)
    cards[0] = cards[0]._replace(noncreature=True)  # not a creature until end of turn
    cards[1] = cards[1]._replace(phased_out=0)
    state = state._replace(cards=tuple(cards))
    assert (shrines(state, 0), shrines(state, 1)) == (1, 1)
