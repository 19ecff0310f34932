"""The published scenario schema: valid, in step with the model's vocabularies, and documented.

The schema is written by hand (it is the published contract), so these tests catch drift: an
enum value added to the model but not to the schema, an action the engine has but scenario files
cannot write, an expectation field the loader does not implement, a key the docs forget.
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from regen_model.engine import errors as engine_errors
from regen_model.model.actions import ACTION_BY_KIND
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, AbilityKind, TriggerEffect
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CardType,
    CounterKind,
    Decision,
    Edition,
    Keyword,
    Rider,
    Step,
    Zone,
)
from regen_model.model.events import EventKind
from regen_model.scenario import run_scenario
from regen_model.scenario.load import build_scenario
from regen_model.scenario.parse_events import PARSERS
from regen_model.scenario.schema import action_kinds, expect_keys, schema
from regen_model.scenario.source import read_source

DOCS = Path(__file__).resolve().parent.parent / "docs" / "scenarios.md"


def _defs() -> dict[str, Any]:
    defs: dict[str, Any] = schema()["$defs"]
    return defs


def test_schema_is_valid_draft_2020_12() -> None:
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(
    ("definition", "enum"),
    [
        ("edition", Edition),
        ("step", Step),
        ("keyword", Keyword),
        ("cardType", CardType),
        ("rider", Rider),
        ("counterKind", CounterKind),
        ("zone", Zone),
        ("decision", Decision),
        ("targetRule", TargetRule),
        ("abilityKind", AbilityKind),
        ("eventKind", EventKind),
    ],
)
def test_schema_enums_match_the_model(definition: str, enum: type[StrEnum]) -> None:
    assert _defs()[definition]["enum"] == [e.value for e in enum]


def test_spell_effects_are_the_model_effects_except_life() -> None:
    # A life effect exists only for triggered abilities: a spell could never target a player
    # with it, so the schema leaves it out (see parse_setup.EFFECT_FIELDS). An animation is a
    # permanent's own ability (a manland's): no spell of the model gives creature
    # characteristics to another permanent. Attaching is an ability of the Aura or Equipment
    # itself (equip) or the direct ``attach`` event: a spell has no source to attach. Pyramids'
    # "remove all damage instead" is that artifact's ability, not a spell's (614.1a). A drain
    # ("each opponent loses N life and you gain N life") is a death-watching trigger's only,
    # and so is "that player may draw a card" (Fecundity's), and "you may gain N life" (Judge
    # of Currents' tap-watching trigger's). "You may pay {1}. When you do, ..." is Go-Shintai
    # of Hidden Cruelty's end-step trigger's only (603.12).
    left_out = (
        EffectKind.LIFE,
        EffectKind.ANIMATE,
        EffectKind.ATTACH,
        EffectKind.REMOVE_DAMAGE_INSTEAD,
        EffectKind.DRAIN,
        EffectKind.MAY_DRAW,
        EffectKind.WHEN_YOU_DO,
        EffectKind.MAY_GAIN,
    )
    expected = [e.value for e in EffectKind if e not in left_out]
    assert _defs()["effectKind"]["enum"] == expected


def test_small_enums_match_the_model() -> None:
    props = _defs()["permanent"]["properties"]
    assert props["attachment"]["enum"] == [a.value for a in Attachment]
    assert props["damage-trigger"]["properties"]["effect"]["enum"] == [
        t.value for t in TriggerEffect
    ]
    classes = _defs()["errorExpect"]["oneOf"][1]["properties"]["class"]["enum"]
    engine_classes = {
        name
        for name, obj in vars(engine_errors).items()
        if isinstance(obj, type) and issubclass(obj, engine_errors.EngineError)
    }
    assert set(classes) == engine_classes


def test_every_engine_action_can_be_written_and_parsed() -> None:
    kinds = set(action_kinds())
    assert set(ACTION_BY_KIND) <= kinds
    assert kinds == set(PARSERS) | {"pass-until"}


def test_every_expectation_field_is_implemented(tmp_path: Path) -> None:
    """A scenario expecting every permanent, player and game field loads and runs."""
    path = tmp_path / "all.yaml"
    path.write_text(
        """\
name: all fields
description: every expectation field at once
players: [A, B]
permanents:
  troll: {card: Horned Troll, controller: B}
  aura: {card: Holy Strength, controller: B, attached-to: troll}
events:
  - check-sba:
    expect:
      troll:
        zone: battlefield
        tapped: false
        damage: 0
        counters: {+1/+1: 0, -1/-1: 0, shield: 0}
        controller: B
        owner: B
        power: 3
        toughness: 4
        keywords: []
        shields: 0
        in-combat: false
        attacking: false
        blocking: false
        blocked: false
        blocks-now: []
        cant-be-regenerated: false
        exile-if-dies: false
        remove-damage-instead: 0
        destroy-at-end-of-combat: 0
        prevent-next: 0
        prevent-all: false
        phased-out: false
        summoning-sick: false
        creature: true
        attached-to: null
        same-object: true
      aura: {attached-to: troll, shields: []}
      players: {A: {life: 20, poison: 0, lost: false, graveyard: [], hand: 0, library: 0}}
      step: main1
      turn: 1
      active: A
      priority: A
      decision: none
      stack: []
      events: [sba-check]
      no-events: [{destroyed: null}]
""",
        encoding="utf-8",
    )
    scenario = build_scenario(read_source(path))
    checked = {p.what for p in scenario.events[0].expect.probes}
    for field in _defs()["permanentExpect"]["properties"]:
        assert f"troll.{field}" in checked
    for field in _defs()["playerExpect"]["properties"]:
        assert f"A.{field}" in checked
    result = run_scenario(scenario)
    assert not result.failures, result.failures


def _doc_keys() -> set[str]:
    text = DOCS.read_text(encoding="utf-8")
    return set(re.findall(r"`([a-z0-9+/#:-]+)`", text))


def test_docs_describe_every_key_of_the_schema() -> None:
    documented = _doc_keys()
    d = _defs()
    keys = (
        set(schema()["properties"])
        | set(action_kinds())
        | set(expect_keys())
        | set(d["permanent"]["properties"])
        | set(d["spellDefinition"]["properties"])
        | set(d["permanentExpect"]["properties"])
        | set(d["playerExpect"]["properties"])
        | set(d["turnSetup"]["properties"])
        | set(d["eventKind"]["enum"])
        | set(d["keyword"]["enum"])
        | set(d["effectKind"]["enum"])
    )
    missing = sorted(keys - documented)
    assert not missing, f"docs/scenarios.md does not mention: {missing}"


def test_docs_list_every_built_in_card() -> None:
    """A scenario author finds the built-in cards in docs/scenarios.md: each permanent card
    has a row of the card table (its name alone, or in a comma-joined first cell such as
    "Forest, Mountain"), and each spell is named in the `spells` paragraph. A card added to
    `model/cards.py` without a row fails here (issue 13's audit found five missing)."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("| card | types | P/T |") : text.index("### `spells`")]
    spells = text[text.index("### `spells`") :]
    rows: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            first = line.split(" | ")[0].removeprefix("| ")
            rows.add(first)
            rows.update(part.strip() for part in first.split(", "))
    missing = sorted(name for name in PERMANENT_CARDS if name not in rows)
    assert not missing, f"docs/scenarios.md's card table has no row for: {missing}"
    unnamed = sorted(name for name in SPELLS if name not in spells)
    assert not unnamed, f"docs/scenarios.md's spells paragraph does not name: {unnamed}"
