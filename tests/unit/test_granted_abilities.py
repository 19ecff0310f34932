"""Abilities an Aura or Equipment gives its creature (613.1f): which index, when, to whom."""

from __future__ import annotations

from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, AbilityKind
from regen_model.model.derived import ability_at, givable, givers
from regen_model.model.state import GameState

TROLL, BEARS = PERMANENT_CARDS["Horned Troll"], PERMANENT_CARDS["Grizzly Bears"]
GRIMACE = PERMANENT_CARDS["Skeletal Grimace"]


def _board(*extra: CardSpec) -> GameState:
    return make_state(
        ("A", "B"), [CardSpec("troll", TROLL, 0), CardSpec("bears", BEARS, 0), *extra]
    )


def test_the_ability_comes_after_the_printed_ones_while_a_giver_is_attached() -> None:
    state = _board(CardSpec("g", GRIMACE, 0, attached_to="troll"))
    troll, bears = state.card("troll"), state.card("bears")
    printed = ability_at(state, troll, 0)
    given = ability_at(state, troll, 1)
    assert printed is not None and given is not None
    assert given.kind is AbilityKind.REGENERATE_SELF and ability_at(state, troll, 2) is None
    assert ability_at(state, bears, 0) is None  # the Bears wear nothing
    assert givers(state, troll) == (2,) and givers(state, bears) == ()


def test_two_givers_give_one_activatable_ability() -> None:
    state = _board(
        CardSpec("g1", GRIMACE, 0, attached_to="bears"),
        CardSpec("g2", GRIMACE, 1, attached_to="bears"),
    )
    bears = state.card("bears")
    assert ability_at(state, bears, 0) is not None and ability_at(state, bears, 1) is None
    assert givers(state, bears) == (2, 3)


def test_a_giver_not_on_the_battlefield_gives_nothing() -> None:
    state = _board(CardSpec("g", GRIMACE, 0, attached_to="bears"))
    gone = state.cards[2]._replace(phased_out=0)  # phased out on its own (702.26b)
    state = state._replace(cards=(*state.cards[:2], gone))
    assert (
        ability_at(state, state.card("bears"), 0) is None
        and givers(state, state.card("bears")) == ()
    )


def test_only_boards_with_a_giver_offer_the_index() -> None:
    assert not givable(_board())
    assert givable(_board(CardSpec("g", GRIMACE, 0)))
