"""The JSON form of actions and start states: every action kind round-trips, errors point at
the field."""

from __future__ import annotations

import dataclasses
import json

import pytest

from regen_model.conform.codec import action_from_json, action_to_json
from regen_model.conform.jsonpos import FieldError
from regen_model.conform.start import NotExpressible, Start
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import CounterKind, Edition, Keyword, Rider, Step, Zone
from regen_model.model.state import Shield

from .helpers import card

PLAYERS = ("A", "B")

SAMPLES: list[A.Action] = [
    A.CreateShield(target="troll", origin="Debt of Loyalty", rider=Rider.GAIN_CONTROL, creator=1),
    A.DealDamage(
        source="rats",
        shares=(A.DamageShare(3, card="troll"), A.DamageShare(1, player=1)),
        keywords=frozenset({Keyword.DEATHTOUCH, Keyword.WITHER}),
        controller=1,
        combat=True,
        cant_regen=True,
    ),
    A.Destroy(
        targets=("troll", "bear"),
        cant_be_regenerated=True,
        choices=(A.ReplacementChoice("troll", 0, "shield#2"),),
    ),
    A.Sacrifice(target="troll"),
    A.Exile(target="troll"),
    A.LeaveAndReturn(target="troll"),
    A.ChangeControl(target="troll", player=1, until_end_of_turn=True),
    A.ModifyPowerToughness(target="troll", power=-2, toughness=-2),
    A.AddCounters(target="troll", counter=CounterKind.SHIELD, amount=2),
    A.GrantKeyword(target="troll", keyword=Keyword.FIRST_STRIKE, remove=True),
    A.MakeUnregenerable(target="troll"),
    A.CheckStateBasedActions(),
    A.Cleanup(),
    A.PassPriority(player=1),
    A.CastSpell(
        player=1,
        name="Lightning Bolt",
        effect=SPELLS["Lightning Bolt"].effect,
        targets=(A.TargetChoice(card="troll"),),
    ),
    A.CastSpell(
        player=0,
        name="Home-made Wipe",
        effect=Effect(EffectKind.DESTROY_ALL_CREATURES, cant_regen=True),
        sorcery=True,
    ),
    A.ActivateAbility(player=0, source="troll", ability=0),
    A.DeclareAttackers(player=0, attackers=("troll",)),
    A.DeclareBlockers(player=1, blocks=(("bear", "troll"),)),
    A.OrderBlockers(player=0, attacker="troll", order=("bear", "wall")),
    A.AssignCombatDamage(player=0, divisions=(A.Division("troll", (("bear", 1), ("player", 1))),)),
    A.ChangeType(target="troll", creature=False),
    A.Attach(attachment="splitter", target="troll"),
    A.ActivateAbility(player=1, source="splitter", ability=0, target="bear"),
]


def test_samples_cover_every_action_kind() -> None:
    assert {a.kind for a in SAMPLES} == set(A.ACTION_BY_KIND)


@pytest.mark.parametrize("action", SAMPLES, ids=lambda a: a.kind)
def test_every_action_round_trips(action: A.Action) -> None:
    data = action_to_json(action, PLAYERS)
    assert data["kind"] == action.kind
    assert action_from_json(data, PLAYERS) == action
    # Players may also be given by index.
    by_index = action_to_json(action)
    assert action_from_json(by_index) == action


def test_builtin_spells_leave_out_their_effect() -> None:
    data = action_to_json(SAMPLES[14], PLAYERS)
    assert data == {
        "kind": "cast",
        "player": "B",
        "name": "Lightning Bolt",
        "targets": [{"card": "troll"}],
    }


def test_action_errors_name_the_field() -> None:
    with pytest.raises(FieldError) as info:
        action_from_json({"kind": "destroy", "targets": ["troll"], "cant_be_regenerated": 1})
    assert info.value.node.label == "cant_be_regenerated"
    assert "expected true or false" in info.value.message
    with pytest.raises(FieldError, match="unknown action kind 'destory'"):
        action_from_json({"kind": "destory", "targets": ["troll"]})
    with pytest.raises(FieldError, match="unknown player 'C'"):
        action_from_json({"kind": "pass", "player": "C"}, PLAYERS)
    with pytest.raises(FieldError, match="missing required field 'target'"):
        action_from_json({"kind": "exile"})
    with pytest.raises(FieldError, match="not a built-in spell"):
        action_from_json({"kind": "cast", "player": 0, "name": "Fireball"})
    with pytest.raises(FieldError, match="unknown field 'amount'"):
        action_from_json({"kind": "exile", "target": "troll", "amount": 2})


def test_start_round_trips_with_every_field() -> None:
    custom = dataclasses.replace(PERMANENT_CARDS["Horned Troll"], name="Homebrew Troll", power=5)
    start = Start(
        PLAYERS,
        (
            card(
                "troll",
                "Horned Troll",
                0,
                controller=1,
                tapped=True,
                damage=1,
                plus=2,
                minus=1,
                shield_counters=1,
                shields=(
                    Shield("Death Ward", 0, Rider.NONE),
                    Shield("Debt", 1, Rider.GAIN_CONTROL, used=True),
                    # made by the ability of the card in slot 1 (the umbra), by handle in JSON
                    Shield("an attachment's ability", 0, Rider.NONE, via=1),
                ),
                cant_regen=True,
                deathtouched=True,
                granted=frozenset({Keyword.TRAMPLE}),
                exile_if_dies=True,
                remove_damage=2,
            ),
            card("umbra", "Eland Umbra", 1, attached_to="troll"),
            card("dead", "Grizzly Bears", 1, zone=Zone.GRAVEYARD),
            dataclasses.replace(card("brew", "Horned Troll", 1), template=custom),
        ),
        Edition.M10,
        turn=3,
        active=1,
        step=Step.END,
        priority=None,
        life=(7, 20),
    )
    data = start.to_json()
    assert data["definitions"][0]["name"] == "Homebrew Troll"
    assert data["permanents"][0]["exile_if_dies"] is True
    assert data["permanents"][0]["remove_damage_instead"] == 2
    assert data["permanents"][0]["shields"][2]["via"] == "umbra"
    again = Start.from_json(data)
    assert again == start
    assert again.build().cards == start.build().cards
    data["permanents"][0]["shields"][2]["via"] = "nobody"
    with pytest.raises(FieldError, match="no card with handle 'nobody'"):
        Start.from_json(data)


def test_from_state_inverts_build_and_refuses_mid_step_states(
    troll_and_bear: Start,
) -> None:
    state = troll_and_bear.build()
    assert Start.from_state(state) == troll_and_bear
    cast = A.CastSpell(
        player=0,
        name="Shock",
        effect=SPELLS["Shock"].effect,
        targets=(A.TargetChoice(card="bear"),),
    )
    on_stack = step(state, cast).state
    with pytest.raises(NotExpressible, match="stack"):
        Start.from_state(on_stack)


@pytest.mark.parametrize(
    "change",
    [{"exile_if_dies": True}, {"remove_damage": 1}, {"exile_if_dies": True, "remove_damage": 2}],
)
def test_a_starts_destruction_replacements_round_trip(
    troll_and_bear: Start, change: dict[str, object]
) -> None:
    """A scenario's start may hold Disintegrate's "if it would die this turn, exile it
    instead" (614.6) and unused Pyramids effects (614.1a, 614.5), made earlier in the turn.
    The start format writes them (they used to make the start not expressible, so such a
    scenario was never cross-checked) and loses nothing: state -> start -> JSON -> start ->
    state gives the same cards, and the JSON text itself reads back equal."""
    state = troll_and_bear.build()
    cards = list(state.cards)
    cards[0] = cards[0]._replace(**change)  # type: ignore[arg-type]
    state = state._replace(cards=tuple(cards))
    start = Start.from_state(state)
    data = json.loads(json.dumps(start.to_json()))
    again = Start.from_json(data)
    assert again == start
    assert again.build().cards == state.cards
    troll = data["permanents"][0]
    assert troll.get("exile_if_dies", False) == change.get("exile_if_dies", False)
    assert troll.get("remove_damage_instead", 0) == change.get("remove_damage", 0)
    assert "exile_if_dies" not in data["permanents"][1]  # at the default: left out
    with pytest.raises(FieldError, match="must be 0 or more"):
        Start.from_json({**data, "permanents": [{**troll, "remove_damage_instead": -1}]})
    with pytest.raises(FieldError, match="expected true or false"):
        Start.from_json({**data, "permanents": [{**troll, "exile_if_dies": 1}]})


def test_from_state_still_refuses_a_waiting_delayed_trigger(troll_and_bear: Start) -> None:
    """A Basilisk's "destroy that creature at end of combat" waiting on a permanent (603.7)
    has no field in the start format: such a state is refused, never written without it."""
    state = troll_and_bear.build()
    cards = list(state.cards)
    cards[0] = cards[0]._replace(eoc_destroy=1, eoc_destroy_by=1)
    with pytest.raises(NotExpressible, match="end of combat"):
        Start.from_state(state._replace(cards=tuple(cards)))


def test_start_errors_name_the_field() -> None:
    troll: dict[str, object] = {"handle": "t", "card": "Horned Troll", "owner": "A"}
    base: dict[str, object] = {"players": ["A", "B"], "permanents": [troll]}
    with pytest.raises(FieldError, match="unknown card 'Horned Trol'"):
        Start.from_json(
            {**base, "permanents": [{"handle": "t", "card": "Horned Trol", "owner": "A"}]}
        )
    with pytest.raises(FieldError, match="two players"):
        Start.from_json({**base, "players": ["A"]})
    with pytest.raises(FieldError, match="used twice"):
        Start.from_json({**base, "permanents": [troll, troll]})
    with pytest.raises(FieldError, match="'banana' is not one of"):
        Start.from_json({**base, "edition": "banana"})
