"""The built-in cards match their Oracle text, or say where they deviate.

``oracle_snapshot.yaml`` (next to this file) is a checked-in snapshot of the Oracle data of
every built-in card and spell. Each model card must carry exactly that text, mana cost, type
line and power/toughness, and what the model runs must be what the text says: its keywords,
its regeneration abilities and riders, its damage trigger, its target rule. A part of the text
the model does not run must be listed among the card's ``deviations``, each naming text that is
really on the card. So a card that drifts from Oracle (or a deviation nobody wrote down) fails
here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from regen_model.model.cards import (
    PERMANENT_CARDS,
    SPELLS,
    AbilityKind,
    CardTemplate,
    SpellTemplate,
    TriggerEffect,
    card_list,
    colors_of,
)
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import CardType, Color, DiesWatch, Keyword, Rider

SNAPSHOT: dict[str, Any] = YAML(typ="safe").load(
    (Path(__file__).parent / "oracle_snapshot.yaml").read_text(encoding="utf-8")
)
CARDS = {c["name"]: c for c in SNAPSHOT["permanents"]}
SPELL_DATA = {c["name"]: c for c in SNAPSHOT["spells"]}

# Keyword abilities by the word that names them in rules text. The model's keywords map to
# themselves; the others are keywords of built-in cards the model does not run.
MODEL_KEYWORDS = {k.value.replace("-", " "): k for k in Keyword}
OTHER_KEYWORDS = frozenset({"flying", "hexproof", "islandwalk", "flanking", "enchant creature"})
TYPE_WORDS = {t.value.capitalize(): t for t in CardType}


def _keyword_lines(text: str) -> list[list[str]]:
    """The lines that consist only of keyword abilities ("Trample, indestructible")."""
    out = []
    for line in text.split("\n"):
        words = [w.strip().lower() for w in line.split(",")]
        if line and all(w in MODEL_KEYWORDS or w in OTHER_KEYWORDS for w in words):
            out.append(words)
    return out


def _deviation_parts(card: CardTemplate | SpellTemplate) -> list[str]:
    return [d.part for d in card.deviations]


def test_the_snapshot_lists_every_built_in_card() -> None:
    assert set(CARDS) == set(PERMANENT_CARDS)
    assert set(SPELL_DATA) == set(SPELLS)


@pytest.mark.parametrize("name", sorted(PERMANENT_CARDS))
def test_permanent_card_data_is_oracle(name: str) -> None:
    card, data = PERMANENT_CARDS[name], CARDS[name]
    assert card.text == data["text"]
    assert card.mana_cost == data["mana_cost"]
    assert card.type_line == data["type_line"]
    head = data["type_line"].partition(" — ")[0].split()
    assert card.types == frozenset(TYPE_WORDS[w] for w in head if w in TYPE_WORDS)
    assert card.colors == colors_of(data["mana_cost"])
    if card.is_creature:
        assert (card.power, card.toughness) == (data["power"], data["toughness"])
    else:
        assert "power" not in data


@pytest.mark.parametrize("name", sorted(PERMANENT_CARDS))
def test_permanent_runs_what_its_text_says(name: str) -> None:
    card, text = PERMANENT_CARDS[name], CARDS[name]["text"]
    deviations = _deviation_parts(card)
    written: set[Keyword] = set()
    for words in _keyword_lines(text):
        for word in words:
            if word in MODEL_KEYWORDS:
                written.add(MODEL_KEYWORDS[word])
            elif word != "enchant creature":
                assert any(d.lower() == word for d in deviations), (
                    f"{name}: {word!r} is not modelled and not listed as a deviation"
                )
    if "can't be prevented" in text:  # a static ability the model keeps with the keywords
        written.add(Keyword.UNPREVENTABLE)
    assert frozenset(written) == card.keywords
    regen = [a for a in card.abilities if a.kind is AbilityKind.REGENERATE_SELF]
    host = re.search(r": Regenerate (enchanted|equipped) creature\.", text)
    # "Enchanted creature ... has '{B}: Regenerate this creature.'": the Aura gives the
    # ability to its host (613.1f); the Aura itself has no regeneration ability
    given = re.search(
        r'^(?:Enchanted|Equipped) creature .*has "\{[^}]+\}: Regenerate this', text, re.M
    )
    target = re.search(r"^[^\n]*: Regenerate target creature\.", text, re.M)
    # "{1}: Choose target opponent. Regenerate this creature." (Soldevi Sentry) is its own
    # regeneration ability too, with a target chosen as it is activated (115.1c)
    own = re.search(r": (?:Choose target opponent\. )?Regenerate ", text)
    assert bool(regen) == (bool(own) and not host and not given and not target)
    # "{cost}: Regenerate target creature." (Suture Spirit): a targeted ability (602.2b)
    assert any(a.kind is AbilityKind.REGENERATE_TARGET for a in card.abilities) == bool(target)
    # "{T}" in an ability's cost (602.2b, 601.2h): Niall Silvain's
    # (a mana ability's "{T}: Add" is a listed deviation: no mana in the model)
    # (text listed among the deviations is not run: Vigilant Martyr's counterspell ability)
    run = "\n".join(line for line in text.split("\n") if line not in deviations)
    tapping = re.search(r"\{T\}[,:](?! Add)", run)
    assert any(a.tap_cost for a in card.abilities) == bool(tapping)
    # "Sacrifice this <permanent>:" as an ability's cost (601.2h, 602.2b): Carapace's,
    # Vigilant Martyr's; "Sacrifice a creature:" (701.21a): Dark Privilege's
    sacrificing = re.search(r"^Sacrifice this (?:Aura|creature): ", run, re.M)
    assert any(a.sacrifice_cost for a in card.abilities) == bool(sacrificing)
    any_creature = re.search(r"^Sacrifice a creature: ", run, re.M)
    assert any(a.sacrifice_creature for a in card.abilities) == bool(any_creature)
    assert [a.kind for a in card.grants_abilities] == (
        [AbilityKind.REGENERATE_SELF] if given else []
    )
    assert any(a.kind is AbilityKind.REGENERATE_HOST for a in card.abilities) == bool(host)
    # Pyramids' second mode (614.1a, 614.5): "target land", its first mode a deviation
    instead = "The next time target land would be destroyed this turn, remove all damage marked"
    assert any(a.kind is AbilityKind.REMOVE_DAMAGE_TARGET for a in card.abilities) == (
        instead in run
    )
    equip = re.search(r"^Equip \{", text, re.MULTILINE)
    assert any(a.kind is AbilityKind.EQUIP for a in card.abilities) == bool(equip)
    grants = re.findall(r"^(?:Equipped|Enchanted) creature has ([a-z ,]+)\.$", text, re.MULTILINE)
    assert card.grants == frozenset(
        MODEL_KEYWORDS[w.strip()] for line in grants for w in line.split(",")
    )
    riders = {
        Rider.MINUS_COUNTER: "When it regenerates this way, put a -1/-1 counter on it.",
        Rider.PLUS_COUNTER: "When it regenerates this way, put a +1/+1 counter on it.",
        Rider.OPPONENT_MAY_DRAW: "Choose target opponent. Regenerate this creature. When it "
        "regenerates this way, that player may draw a card.",
    }
    for ability in regen:
        if ability.rider in riders:
            assert riders[ability.rider] in text
        else:
            assert "regenerates this way" not in text
    assert card.static_regeneration == ("would be destroyed, regenerate it." in text)
    unregen = [a for a in card.abilities if a.kind is AbilityKind.MAKE_SELF_UNREGENERABLE]
    assert bool(unregen) == ("can't be regenerated this turn" in text)
    if unregen:
        assert all(a.opponent_only for a in unregen) == ("Only any opponent" in text)
    trigger = card.damage_trigger
    if "you gain that much life" in text:
        assert trigger is not None and trigger.effect is TriggerEffect.GAIN_LIFE
        assert trigger.combat_only == ("dealt combat damage" in text)
    elif "it deals that much damage to you" in text:
        assert trigger is not None and trigger.effect is TriggerEffect.DAMAGE_YOU
        assert not trigger.combat_only
    else:
        assert trigger is None
    assert card.enters_plus == (1 if "enters with a +1/+1 counter" in text else 0)
    assert card.extra_block == (
        "This creature can block an additional creature each combat." in text
    )
    # "Whenever this creature blocks or becomes blocked by a non-Wall creature, destroy that
    # creature at end of combat." (Thicket Basilisk, Cockatrice; 509.1i, 603.7, 511.2)
    assert card.destroys_combatants == (
        "blocks or becomes blocked by a non-Wall creature, destroy that creature at end of "
        "combat." in text
    )
    # another permanent's "whenever ... dies, each opponent loses N life and you gain N life"
    # (Zulaport Cutthroat, Kardur, Doomscourge; 700.4, 603.10a)
    drain = re.search(r"dies, each opponent loses (\d+) life and you gain \1 life", text)
    assert card.dies_drain == (int(drain.group(1)) if drain else 0)
    # "whenever a creature dies, that creature's controller may draw a card" (Fecundity;
    # 603.10a, 121.1, 608.2d)
    draws = "dies, that creature's controller may draw a card." in text
    assert card.dies_draw == (1 if draws else 0)
    watch = {
        "Whenever an attacking creature dies": DiesWatch.ATTACKING,
        "Whenever this creature or another creature you control dies": DiesWatch.YOURS,
        "Whenever a creature dies": DiesWatch.ANY,
    }
    found = [w for phrase, w in watch.items() if phrase in text]
    assert card.dies_watch is (found[0] if found else DiesWatch.NONE)
    # the Wall creature type (205.3m) read from the type line ("non-Wall")
    assert card.wall == ("Wall" in CARDS[name]["type_line"].partition(" — ")[2].split())
    # the Shrine enchantment type (205.3h), what Go-Shintai's X counts
    assert card.shrine == ("Shrine" in CARDS[name]["type_line"].partition(" — ")[2].split())
    # "At the beginning of your end step, you may pay {1}. When you do, destroy target creature
    # with toughness X or less, where X is the number of Shrines you control." (Go-Shintai of
    # Hidden Cruelty; 513.1, 603.12, 603.3d)
    assert card.end_step_reflexive == (
        "At the beginning of your end step, you may pay {1}. When you do, destroy target "
        "creature with toughness X or less, where X is the number of Shrines you control." in text
    )
    animation = re.search(r"becomes a (\d+)/(\d+) (black )?\w+ creature", text)
    animate = [a for a in card.abilities if a.kind is AbilityKind.ANIMATE_SELF]
    assert bool(animate) == bool(animation) == (card.animation is not None)
    if animation and card.animation is not None:
        assert (card.animation.power, card.animation.toughness) == tuple(
            int(x) for x in animation.groups()[:2]
        )
        assert (Color.BLACK in card.animation.colors) == bool(animation.group(3))
        granted = [a for a in card.abilities if a.granted]
        assert bool(granted) == ('creature with "{B}: Regenerate this creature"' in text)
    else:
        assert not any(a.granted for a in card.abilities)
    if card.attach_bonus != (0, 0):
        power, toughness = card.attach_bonus
        assert f"gets {power:+d}/{toughness:+d}" in text


@pytest.mark.parametrize("name", sorted(SPELLS))
def test_spell_card_data_is_oracle(name: str) -> None:
    spell, data = SPELLS[name], SPELL_DATA[name]
    assert spell.text == data["text"]
    assert spell.mana_cost == data["mana_cost"]
    assert spell.type_line == data["type_line"]


@pytest.mark.parametrize("name", sorted(SPELLS))
def test_spell_runs_what_its_text_says(name: str) -> None:
    spell, text = SPELLS[name], SPELL_DATA[name]["text"]
    rules = {
        "target nonartifact, nonblack creature": TargetRule.NONARTIFACT_NONBLACK_CREATURE,
        "target creature you control": TargetRule.CREATURE_YOU_CONTROL,
        "target attacking creature": TargetRule.ATTACKING_CREATURE,
        "target untapped creature": TargetRule.UNTAPPED_CREATURE,
        "any target": TargetRule.ANY,
        "target creature": TargetRule.CREATURE,
        "target player mills": TargetRule.PLAYER,
        "counter target spell": TargetRule.SPELL,
    }
    lower = text.lower()
    expected = next((rule for words, rule in rules.items() if words in lower), TargetRule.NONE)
    if expected is TargetRule.ANY and "any target" in _deviation_parts(spell):
        expected = TargetRule.CREATURE  # a declared deviation: creatures only
    assert spell.targets is expected
    effect = spell.effect
    unconditional = "If it's a creature, it can't be regenerated" in text  # Disintegrate
    assert effect.cant_regen == ("can't be regenerated" in text and not unconditional)
    assert effect.cant_regen_target == unconditional
    assert effect.exile_if_dies == ("if it would die this turn, exile it instead" in text)
    kinds = {
        "Prevent the next": EffectKind.PREVENT,
        "Prevent all damage": EffectKind.PREVENT_ALL,
        "phases out": EffectKind.PHASE_OUT,
        "damage to each creature": EffectKind.DAMAGE_EACH_CREATURE,
        "damage to": EffectKind.DAMAGE,
        "Destroy all creatures": EffectKind.DESTROY_ALL_CREATURES,
        "Destroy target": EffectKind.DESTROY,
        "Regenerate target": EffectKind.REGENERATE,
        "Exile target creature": EffectKind.FLICKER,
        "Gain control of": EffectKind.GAIN_CONTROL,
        "until end of turn.": EffectKind.PUMP,
        "mills": EffectKind.MILL,
        "Counter target spell": EffectKind.COUNTER_SPELL,
    }
    kind = next(k for words, k in kinds.items() if words in text)
    assert effect.kind is kind
    assert (effect.rider is Rider.GAIN_CONTROL) == ("You gain control" in text)
    assert effect.under_you == ("under your control" in text)
    assert effect.untap == ("Untap that creature" in text)
    assert (Keyword.HASTE in effect.keywords) == ("gains haste" in text)
    assert (Keyword.UNPREVENTABLE in effect.keywords) == ("can't be prevented" in text)
    prevents = re.search(r"Prevent the next (\d+) damage", text)
    if prevents:
        assert effect.amount == int(prevents.group(1))
    counted = re.search(r"gain (\d+) life for each creature destroyed this way", text)
    if kind is EffectKind.DESTROY_ALL_CREATURES:
        assert effect.amount == (int(counted.group(1)) if counted else 0)
    assert effect.until_end_of_turn == (kind is EffectKind.GAIN_CONTROL and "until end" in text)
    # "Target player mills N cards." then "Draw a card." (Thought Scour; 701.17a, 121.1)
    mills = re.search(r"mills (\w+) cards?\.", text)
    numbers = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    if kind is EffectKind.MILL:
        assert mills is not None and effect.amount == numbers[mills.group(1)]
    assert effect.draw == (1 if re.search(r"^Draw a card\.$", text, re.M) else 0)


@pytest.mark.parametrize("name", sorted(PERMANENT_CARDS) + sorted(SPELLS))
def test_deviations_name_text_on_the_card(name: str) -> None:
    card: CardTemplate | SpellTemplate = PERMANENT_CARDS.get(name) or SPELLS[name]
    on_card = card.text + "\n" + card.type_line
    for d in card.deviations:
        assert d.part in on_card, f"{name}: deviation {d.part!r} is not on the card"
        assert d.reason.strip(), f"{name}: deviation {d.part!r} says no reason"


def test_the_card_list_exports_cards_and_deviations() -> None:
    data = card_list()
    names = [c["name"] for c in data["cards"]]
    assert names == list(PERMANENT_CARDS) + list(SPELLS)
    skithiryx = next(c for c in data["cards"] if c["name"] == "Skithiryx, the Blight Dragon")
    assert {d["part"] for d in skithiryx["deviations"]} >= {"Flying", "Legendary"}
    assert data["global_deviations"]
