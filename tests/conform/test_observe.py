"""The observable projection and its one-sided comparison."""

from __future__ import annotations

import pytest

from regen_model.conform.jsonpos import FieldError
from regen_model.conform.observe import (
    CARD_FIELDS,
    Observation,
    compare,
    event_tokens,
    graveyards_agree,
    make_groups,
    matches,
    project,
)
from regen_model.conform.start import Start
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.enums import Keyword


def _destroy_troll(start: Start) -> tuple[Observation, A.Action]:
    action = A.Destroy(targets=("troll",))
    res = step(start.build(), action)
    return project(res.state, res.events), action


def test_projection_of_a_regeneration(troll_and_bear: Start) -> None:
    obs, _ = _destroy_troll(troll_and_bear)
    troll = obs.cards["troll"]
    assert troll["zone"] == "battlefield"
    assert troll["controller"] == "A"
    assert troll["tapped"] is True
    assert troll["shields"] == 0
    assert (troll["power"], troll["toughness"]) == (2, 2)
    assert set(troll) == set(CARD_FIELDS)
    assert obs.events is not None
    assert "regenerated:troll" in obs.events
    assert "tapped:troll" in obs.events
    assert obs.players == {
        "A": {"life": 20, "poison": 0, "hand": 0, "library": 0},
        "B": {"life": 20, "poison": 0, "hand": 0, "library": 0},
    }


def test_off_the_battlefield_only_the_zone_is_defined(troll_and_bear: Start) -> None:
    res = step(troll_and_bear.build(), A.Destroy(targets=("bear",)))
    obs = project(res.state, res.events)
    assert obs.cards["bear"] == {"zone": "graveyard"}
    # An engine reporting more about a card in the graveyard is not contradicted ...
    extra = Observation({"bear": {"zone": "graveyard", "tapped": True}}, {})
    assert compare(obs, extra) == []
    assert matches(res.state, res.events, extra)
    # ... but the zone itself is compared.
    wrong = Observation({"bear": {"zone": "battlefield"}}, {})
    assert [d.path for d in compare(obs, wrong)] == ["cards.bear.zone"]
    assert not matches(res.state, res.events, wrong)


def test_absent_fields_are_unobserved_never_assumed(troll_and_bear: Start) -> None:
    obs, _ = _destroy_troll(troll_and_bear)
    partial = Observation({"troll": {"zone": "battlefield"}}, {})
    assert compare(obs, partial) == []
    nothing = Observation()
    assert compare(obs, nothing) == []
    assert nothing.field_count() == 0


def test_one_wrong_field_is_reported_with_both_values(troll_and_bear: Start) -> None:
    state = troll_and_bear.build()
    res = step(state, A.Destroy(targets=("troll",)))
    observed = Observation({"troll": {"tapped": False, "damage": 0}}, {"B": {"life": 20}})
    diffs = compare(project(res.state, res.events), observed)
    assert [(d.path, d.expected, d.observed) for d in diffs] == [
        ("cards.troll.tapped", True, False)
    ]
    assert diffs[0].describe() == "cards.troll.tapped: expected true, observed false"
    assert not matches(res.state, res.events, observed)


def test_events_compare_as_multisets_restricted_to_observed_kinds(
    troll_and_bear: Start,
) -> None:
    res = step(troll_and_bear.build(), A.Destroy(targets=("troll",)))
    expected = project(res.state, res.events)
    assert expected.events is not None
    reordered = Observation(events=tuple(reversed(expected.events)))
    assert compare(expected, reordered) == []
    only_regen = Observation(events=("regenerated:troll",), event_kinds=frozenset({"regenerated"}))
    assert compare(expected, only_regen) == []
    assert matches(res.state, res.events, only_regen)
    missing = Observation(events=(), event_kinds=frozenset({"regenerated"}))
    (diff,) = compare(expected, missing)
    assert diff.path == "events"
    assert diff.describe() == "events: missing [regenerated:troll]"


def test_unknown_card_or_player_is_a_difference(troll_and_bear: Start) -> None:
    expected = project(troll_and_bear.build())
    observed = Observation({"goblin": {"zone": "battlefield"}}, {"C": {"life": 20}})
    assert [d.path for d in compare(expected, observed)] == ["cards.goblin", "players.C"]
    assert not matches(troll_and_bear.build(), (), observed)


def test_damage_tokens_for_creatures_and_players(troll_and_bear: Start) -> None:
    action = A.DealDamage(
        source="x",
        shares=(A.DamageShare(1, card="bear"), A.DamageShare(2, player=1)),
        keywords=frozenset({Keyword.WITHER}),
    )
    res = step(troll_and_bear.build(), action)
    assert event_tokens(res.events) == ("damage:bear:1", "player-damage:B:2")
    assert project(res.state, res.events).cards["bear"]["minus_counters"] == 1


def test_observation_json_round_trip_and_type_errors(troll_and_bear: Start) -> None:
    obs, _ = _destroy_troll(troll_and_bear)
    assert Observation.from_json(obs.to_json()) == obs
    with pytest.raises(FieldError, match="expected true or false"):
        Observation.from_json({"cards": {"troll": {"tapped": "yes"}}})
    with pytest.raises(FieldError, match="unknown field 'taped'"):
        Observation.from_json({"cards": {"troll": {"taped": True}}})
    with pytest.raises(FieldError, match="unknown event kind 'exploded'"):
        Observation.from_json({"events": ["exploded:troll"]})


@pytest.mark.parametrize(
    ("expected", "observed", "agree"),
    [
        # an engine's total order fits a group of the model in either order (404.3)
        ((("a", "b"), ("T",)), (("b",), ("a",), ("T",)), True),
        ((("a", "b"), ("T",)), (("a",), ("b",), ("T",)), True),
        # ... but the spell goes on top of the cards its resolution put there (608.2n)
        ((("a", "b"), ("T",)), (("a",), ("T",), ("b",)), False),
        # an engine that keeps no order reports one group: only the cards are compared
        ((("a",), ("T",), ("b",)), (("T", "a", "b"),), True),
        ((("a",), ("T",)), (("T", "a", "b"),), False),
        ((), (), True),
        ((("a",),), (), False),
        # groups overlapping in order: a b | c  against  a | b c
        ((("a", "b"), ("c",)), (("a",), ("b", "c")), True),
        ((("a", "c"), ("b",)), (("a",), ("b", "c")), True),  # a c b
        ((("a", "b"), ("c",)), (("a", "c"), ("b",)), False),
        # duplicates (two copies of a spell)
        ((("S",), ("S",)), (("S",), ("S",)), True),
        ((("S",), ("S",)), (("S",),), False),
    ],
)
def test_graveyards_agree_when_one_order_fits_both(
    expected: tuple[tuple[str, ...], ...], observed: tuple[tuple[str, ...], ...], agree: bool
) -> None:
    assert graveyards_agree(make_groups(expected), make_groups(observed)) is agree


def test_graveyard_in_the_projection_and_its_comparison(troll_and_bear: Start) -> None:
    """The destroyed bear lies in its owner B's graveyard (400.3); an observation in JSON
    (entries and lists of entries) is read and compared as groups."""
    state = troll_and_bear.build()
    res = step(state, A.Destroy(targets=("bear",)))
    obs = project(res.state, res.events)
    assert obs.graveyards == {"A": (), "B": (("bear",),)}
    assert obs.to_json()["players"]["B"]["graveyard"] == ["bear"]
    same = Observation.from_json({"cards": {}, "players": {"B": {"graveyard": [["bear"]]}}})
    assert same.graveyards == {"B": (("bear",),)}
    assert compare(obs, same) == [] and matches(res.state, res.events, same)
    other = Observation.from_json({"cards": {}, "players": {"A": {"graveyard": ["bear"]}}})
    (diff,) = compare(obs, other)
    assert (diff.path, diff.expected, diff.observed) == ("players.A.graveyard", [], ["bear"])
    assert not matches(res.state, res.events, other)
    with pytest.raises(FieldError):
        Observation.from_json({"cards": {}, "players": {"A": {"graveyard": [3]}}})


def test_hand_and_library_sizes_in_the_projection_and_their_comparison() -> None:
    """Fecundity lets the dying Bears' controller A draw (603.10a, 121.1): one card from A's
    library into A's hand. The sizes are compared like life, read from JSON and ITF, and the
    trace matcher checks them (an engine that let the owner B draw, ``dies-draw-by-owner``,
    now differs in the projection)."""
    from regen_model.conform.itf import observation_to_itf
    from regen_model.conform.jsonpos import in_memory
    from regen_model.conform.observe import observation_from_node
    from regen_model.model.build import CardSpec
    from regen_model.model.cards import PERMANENT_CARDS

    start = Start(
        ("A", "B"),
        (
            CardSpec("fecundity", PERMANENT_CARDS["Fecundity"], 1),
            CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1, controller=0),
        ),
        library=(2, 3),
    )
    state = start.build()
    for action in (A.Sacrifice(target="bears"), A.PassPriority(player=0)):
        state = step(state, action).state
    res = step(state, A.PassPriority(player=1))
    obs = project(res.state, res.events)
    assert {n: (p["hand"], p["library"]) for n, p in obs.players.items()} == {
        "A": (1, 1),
        "B": (0, 3),
    }
    assert Observation.from_json(obs.to_json()) == obs
    itf = observation_from_node(in_memory(observation_to_itf(obs), "itf"))
    assert itf.players == obs.players
    owner_drew = Observation(players={"A": {"hand": 0, "library": 2}, "B": {"hand": 1}})
    diffs = compare(obs, owner_drew)
    assert [(d.path, d.expected, d.observed) for d in diffs] == [
        ("players.A.hand", 1, 0),
        ("players.A.library", 1, 2),
        ("players.B.hand", 0, 1),
    ]
    assert not matches(res.state, res.events, owner_drew)
    assert matches(res.state, res.events, Observation(players={"A": {"hand": 1, "library": 1}}))
    with pytest.raises(FieldError):
        Observation.from_json({"players": {"A": {"hand": "one"}}})
