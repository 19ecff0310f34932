"""The card data for phase.rs builds, means what the model's cards mean, and its gaps are known."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

import json

import phase

from regen_model.adapters.phase.board import SHIELD_TEMPLATE, prevention_definition
from regen_model.adapters.phase.carddata import (
    FILLER,
    KEYWORDS,
    MODEL_CARDS,
    harness_card,
    keyword_grant_card,
)
from regen_model.adapters.phase.database import CardDatabase
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import CounterKind, Keyword, Rider

# What phase.rs 0.103 cannot parse; a new phase.rs that parses them makes this test fail.
KNOWN_PARTIAL = {
    "Matopi Golem": "When it regenerates this way, put a -1/-1 counter on it",
    "Skeleton Scavengers": "When it regenerates this way, put a +1/+1 counter on it",
    "Knight of the Holy Nimbus": "Only any opponent may activate this ability",
    # Its regeneration is parsed (a sub-ability of "choose target opponent"), not its rider.
    "Soldevi Sentry": "When it regenerates this way, that player may draw a card",
    # Its static ability read as a spell's effect, which does nothing on the battlefield (PH-23).
    "Excruciator": "parsed as a spell ability: AddRestriction",
    # Pyramids' second mode (issue 13 item 6): no destruction replacement of its own in 0.103.
    "Pyramids": (
        "The next time target land would be destroyed this turn, remove all damage marked on "
        "it instead"
    ),
}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> CardDatabase:
    return CardDatabase(tmp_path_factory.mktemp("cache"))


def _grants_regenerate(node: object) -> bool:
    """A "GrantAbility" modification whose ability regenerates (a manland's animation, an
    Aura's static ability giving its creature one: Skeletal Grimace)."""
    if isinstance(node, dict):
        if node.get("type") == "GrantAbility":
            return "'Regenerate'" in repr(node)
        return any(_grants_regenerate(v) for v in node.values())
    if isinstance(node, list):
        return any(_grants_regenerate(v) for v in node)
    return False


def _chained(abilities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each ability with its chain of sub-abilities (Soldevi Sentry's "Choose target
    opponent." is the ability, its "Regenerate this creature." the sub-ability after it)."""
    out: list[dict[str, Any]] = []
    for a in abilities:
        node: object = a
        while isinstance(node, dict):
            out.append(node)
            node = node.get("sub_ability")
    return out


def test_every_model_card_has_phase_card_data() -> None:
    assert set(MODEL_CARDS) == set(PERMANENT_CARDS) | set(SPELLS)


@pytest.mark.parametrize("name", sorted(PERMANENT_CARDS))
def test_permanent_card_data_matches_the_model(name: str, database: CardDatabase) -> None:
    template, card = PERMANENT_CARDS[name], MODEL_CARDS[name]
    face = phase.build_oracle_face(card.mtgjson(), None)
    status = database.build(card)
    assert status.built and not status.problems, status.describe()
    if template.is_creature:
        assert (face["power"]["value"], face["toughness"]["value"]) == (
            template.power,
            template.toughness,
        )
    assert card.keywords == template.keywords & KEYWORDS.keys()  # unpreventable is no keyword
    regenerates = any(
        (a.get("effect") or {}).get("type") == "Regenerate" for a in _chained(face["abilities"])
    ) or any(map(_grants_regenerate, [*face["abilities"], *face["static_abilities"]]))
    assert regenerates == any(
        a.kind.value in ("regenerate-self", "regenerate-host", "regenerate-target")
        for a in (*template.abilities, *template.grants_abilities)
    )
    static = any(r.get("event") == "Destroy" for r in face["replacements"])
    assert static == template.static_regeneration


@pytest.mark.parametrize("name", sorted(SPELLS))
def test_spell_card_data_parses(name: str, database: CardDatabase) -> None:
    status = database.build(MODEL_CARDS[name])
    assert status.complete, status.describe()


def test_cant_be_regenerated_is_parsed(database: CardDatabase) -> None:
    terror = phase.build_oracle_face(MODEL_CARDS["Terror"].mtgjson(), None)
    wrath = phase.build_oracle_face(MODEL_CARDS["Wrath of God"].mtgjson(), None)
    murder = phase.build_oracle_face(MODEL_CARDS["Murder"].mtgjson(), None)
    assert terror["abilities"][0]["effect"]["cant_regenerate"] is True
    assert wrath["abilities"][0]["effect"]["cant_regenerate"] is True
    assert murder["abilities"][0]["effect"]["cant_regenerate"] is False


def test_parse_gaps_are_the_known_ones(database: CardDatabase) -> None:
    partial = {
        name: status.unimplemented
        for name in MODEL_CARDS
        if (status := database.build(MODEL_CARDS[name])).unimplemented
    }
    assert partial == {name: (text,) for name, text in KNOWN_PARTIAL.items()}


def test_keywords_come_only_from_the_keyword_list(database: CardDatabase) -> None:
    rats = MODEL_CARDS["Typhoid Rats"].mtgjson()
    del rats["keywords"]
    face = phase.build_oracle_face(rats, None)
    assert "Deathtouch" not in face["keywords"]


@pytest.mark.parametrize(
    "effect",
    [
        Effect(EffectKind.DAMAGE, amount=4),
        Effect(EffectKind.DAMAGE, amount=1, keywords=frozenset({Keyword.DEATHTOUCH})),
        Effect(EffectKind.DAMAGE, amount=2, keywords=frozenset({Keyword.WITHER})),
        Effect(EffectKind.DAMAGE, amount=3, cant_regen=True),
        Effect(EffectKind.DAMAGE_EACH_CREATURE, amount=1),
        Effect(EffectKind.DESTROY),
        Effect(EffectKind.DESTROY, cant_regen=True),
        Effect(EffectKind.DESTROY_ALL_CREATURES, cant_regen=True),
        Effect(EffectKind.REGENERATE),
        Effect(EffectKind.PUMP, power=2, toughness=-1),
        Effect(EffectKind.UNREGENERABLE),
        Effect(EffectKind.COUNTERS, amount=2, counter=CounterKind.MINUS),
        Effect(EffectKind.COUNTERS, amount=1, counter=CounterKind.SHIELD),
        Effect(EffectKind.FLICKER),
        Effect(EffectKind.GAIN_CONTROL, until_end_of_turn=True),
    ],
)
def test_harness_cards_parse_completely(effect: Effect, database: CardDatabase) -> None:
    card = harness_card(effect)
    status = database.build(card)
    assert status.complete, status.describe()
    assert card.mana_cost == "{0}"


def test_harness_rider_shield_is_not_complete(database: CardDatabase) -> None:
    card = harness_card(Effect(EffectKind.REGENERATE, rider=Rider.MINUS_COUNTER))
    assert not database.build(card).complete


@pytest.mark.parametrize("keyword", [k for k in KEYWORDS if k is not Keyword.UMBRA_ARMOR])
def test_keyword_grant_cards_parse(keyword: Keyword, database: CardDatabase) -> None:
    assert database.build(keyword_grant_card(keyword, remove=False)).complete


def test_card_data_json_is_written_to_the_cache(database: CardDatabase) -> None:
    engine, path = database.engine(MODEL_CARDS.values())
    assert path.is_relative_to(database.cache_dir)
    data = json.loads(Path(path).read_text())
    assert set(data) == {name.lower() for name in MODEL_CARDS}
    assert engine.card_count() == len(MODEL_CARDS)
    assert database.engine(MODEL_CARDS.values())[0] is engine  # cached per card set


def test_shield_template_is_what_phase_writes(database: CardDatabase) -> None:
    """The shield the adapter writes into states is byte for byte the one phase.rs makes."""
    assert _resolve_on_bears(database, "Death Ward")["replacement_definitions"] == [SHIELD_TEMPLATE]


def _resolve_on_bears(database: CardDatabase, spell: str) -> dict[str, object]:
    """phase.rs's Grizzly Bears after ``spell`` (cost {W}, one target: the Bears) resolved."""
    cards = [MODEL_CARDS["Grizzly Bears"], MODEL_CARDS[spell], FILLER]
    engine, _ = database.engine(cards)
    game = engine.new_game(
        player=["Grizzly Bears", spell] + ["Plains"] * 20,
        opponent=["Plains"] * 22,
        seed=1,
        first_player=0,
    )
    for seat in (0, 1):
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    st = game.state()
    st["state"]["debug_mode"] = True
    game = engine.load_game(st)
    objects = game.state()["state"]["objects"]
    bear = next(int(k) for k, o in objects.items() if o["name"] == "Grizzly Bears")
    card = next(int(k) for k, o in objects.items() if o["name"] == spell)
    for oid, zone in ((bear, "Battlefield"), (card, "Hand")):
        game.apply(
            0,
            {
                "type": "Debug",
                "data": {"type": "MoveToZone", "data": {"object_id": oid, "to_zone": zone}},
            },
        )
    game.apply(
        0,
        {"type": "Debug", "data": {"type": "AddMana", "data": {"player_id": 0, "mana": ["White"]}}},
    )
    game.apply(
        0, {"type": "CastSpell", "data": {"object_id": card, "card_id": card, "targets": []}}
    )
    while game.stack():
        game.apply(game.priority_player(), {"type": "PassPriority"})
    found: dict[str, object] = game.object(bear)
    return found


@pytest.mark.parametrize(("spell", "amount"), [("Mending Hands", 4), ("Shielded Passage", None)])
def test_prevention_definition_matches_phase(
    database: CardDatabase, spell: str, amount: int | None
) -> None:
    """The prevention shield the adapter writes for a start's prevent-next / prevent-all
    (615.7, 615.1) is byte for byte the one phase.rs makes when the spell resolves."""
    bears = _resolve_on_bears(database, spell)
    assert bears["replacement_definitions"] == [prevention_definition(amount)]


def test_phase_status_matches_phase(database: CardDatabase) -> None:
    """A phased-out permanent of the start gets the status phase.rs gives it (702.26b)."""
    bears = _resolve_on_bears(database, "Galadriel's Dismissal")
    assert bears["phase_status"] == {"status": "PhasedOut", "cause": "Directly"}


@pytest.mark.parametrize("name", sorted(PERMANENT_CARDS) + sorted(SPELLS))
def test_phase_card_leaves_out_what_the_model_does_not_run(name: str) -> None:
    """What a model card does not run (its ``deviations``) is left out of its phase.rs card too,
    and the phase.rs card says so in its note (else it would show as a false divergence)."""
    template = PERMANENT_CARDS.get(name) or SPELLS[name]
    card = MODEL_CARDS[name]
    for deviation in template.deviations:
        if deviation.part in template.type_line:
            continue  # a supertype (Legendary): the adapter skips what depends on it
        kept = deviation.part in card.note  # kept on purpose, and the note says why
        assert kept or deviation.part not in card.text, f"{name}: phase.rs runs {deviation.part!r}"
        assert card.note, f"{name}: the phase.rs card does not say what it leaves out"
