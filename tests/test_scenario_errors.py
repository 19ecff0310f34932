"""Bad scenario input gets one line naming file, line and field, exit code 2, no traceback.

Each case writes a small broken file and runs ``regen-model run`` on it through Typer's test
runner (and once through the real console script), checking the exact ``file:line: field:``
prefix so the message keeps pointing at the right place.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from regen_model.cli import run as run_cli
from regen_model.cli import verify as verify_cli
from regen_model.verdicts import EXIT_INPUT_ERROR

BASE = """\
name: base
description: A troll and a dead bear.
players: [A, B]
permanents:
  troll: {card: Uthden Troll, controller: B}
  dead: {card: Grizzly Bears, owner: A, zone: graveyard}
events:
  - create-shield: {target: troll, origin: Death Ward}
    expect:
      troll: {shields: 1}
"""


# Dark Privilege's "Sacrifice a creature" (601.2h) beside Vigilant Martyr's sacrifice-itself cost:
# the loader checks the ``sacrifice`` field against the ability before the engine runs.
SACRIFICE = """\
name: sacrifice
description: An Aura whose ability costs a creature, and a creature whose ability costs itself.
players: [A, B]
permanents:
  giant: {card: Hill Giant, controller: A}
  privilege: {card: Dark Privilege, controller: A, attached-to: giant}
  bears: {card: Grizzly Bears, controller: A}
  martyr: {card: Vigilant Martyr, controller: A}
events:
  - activate: {player: A, source: privilege, sacrifice: bears}
"""

# Inline cards written with the fields of issue 13's mechanics: an ability cost, a death
# watcher, a Shrine, a Merfolk. Each case breaks one field that the schema lets through.
INLINE = """\
name: inline
description: Inline cards with costs, watchers and subtypes.
players: [A, B]
permanents:
  hermit: {types: [creature], power: 1, toughness: 1, abilities: [{kind: regenerate-target, cost: [tap]}], controller: A}
  pact: {types: [enchantment], attachment: aura, abilities: [{kind: regenerate-host, cost: [sacrifice-creature]}], controller: A}
  harvest: {types: [enchantment], dies-draw: {watch: any, cards: 1}, controller: A}
  keeper: {types: [enchantment, creature], power: 1, toughness: 1, shrine: true, controller: A}
  scout: {types: [creature], power: 1, toughness: 1, merfolk: true, controller: A}
events:
  - pass: [A, B]
"""


def _app() -> typer.Typer:
    app = typer.Typer()
    run_cli.register(app)
    verify_cli.register(app)
    return app


def _run(tmp_path: Path, text: str, *args: str, name: str = "x.yaml") -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(_app(), ["run", *args, str(path)])
    return result.exit_code, result.stdout, result.stderr


CASES = [
    pytest.param(
        BASE.replace("controller: B}", "controller: B"),
        ":6: broken YAML: expected ',' or '}', but got ':' "
        "(while parsing a flow mapping that starts on line 5)",
        id="broken-yaml",
    ),
    pytest.param(
        BASE.replace(
            "{card: Uthden Troll, controller: B}", "{card: Uthden Troll, controller: B, powr: 3}"
        ),
        ":5: permanents.troll.powr: unknown field 'powr' (did you mean 'power'?)",
        id="unknown-card-field",
    ),
    pytest.param(
        BASE.replace("Uthden Troll", "Uthden Trol"),
        ":5: permanents.troll.card: 'Uthden Trol' is not a built-in card (did you mean 'Uthden Troll'?)",
        id="unknown-card-name",
    ),
    pytest.param(
        BASE.replace("target: troll", "target: trol"),
        ":8: events[0].create-shield.target: 'trol' is not a permanent of this scenario",
        id="unknown-handle",
    ),
    pytest.param(
        BASE.replace("      troll: {shields: 1}", "      trol: {shields: 1}"),
        ":10: events[0].expect.trol: 'trol' is not a permanent of this scenario",
        id="unknown-handle-in-expect",
    ),
    pytest.param(
        BASE.replace("target: troll", "target: dead"),
        ":8: events[0].create-shield.target: dead is not on the battlefield (it is in the graveyard)",
        id="shield-event-on-graveyard-card",
    ),
    pytest.param(
        BASE.replace("zone: graveyard}", "zone: graveyard, shields: [Death Ward]}"),
        ":6: permanents.dead.shields: dead is in the graveyard; only a permanent on the battlefield",
        id="shield-setup-on-graveyard-card",
    ),
    pytest.param(
        BASE.replace("origin: Death Ward}", "origin: Death Ward}\n  - pass: B"),
        ":9: events[1].pass: B can't pass: A holds priority [priority.pass]",
        id="unexpected-engine-error",
    ),
    pytest.param(
        BASE.replace("create-shield:", "create-sheild:"),
        ":8: events[0]: unknown action 'create-sheild' (did you mean 'create-shield'?)",
        id="unknown-action",
    ),
    pytest.param(
        BASE.replace("players: [A, B]", "players: [A]"),
        ":3: players: the model plays two-player games",
        id="one-player",
    ),
    pytest.param(
        BASE.replace("      troll: {shields: 1}", "      stpe: main1"),
        ":10: events[0].expect.stpe: 'stpe' is neither a permanent of this scenario nor an "
        "expectation key (did you mean 'step'?)",
        id="unknown-expect-key",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: Shock, targets: [troll]}\n  - pass-until: end\n",
        ":12: events[2].pass-until: the stack is not empty (Shock); pass explicitly",
        id="pass-until-with-a-spell-on-the-stack",
    ),
    pytest.param(
        BASE + "  - pass-until: main1\n",
        ":11: events[1].pass-until: the game is already in the main1 step",
        id="pass-until-already-there",
    ),
    pytest.param(
        BASE + "  - pass-until: combat-damage\n",
        ":11: events[1].pass-until: the game waits for declare-attackers",
        id="pass-until-past-a-declaration",
    ),
    pytest.param(
        BASE.replace("shields: 1}", "shields: one}"),
        ":10: events[0].expect.troll.shields: expected a whole number or a list, got the text 'one'",
        id="wrong-type",
    ),
    pytest.param(
        SACRIFICE.replace(", sacrifice: bears}", "}"),
        ":10: events[0].activate.sacrifice: privilege's ability costs a creature to sacrifice: "
        "name it under 'sacrifice'",
        id="sacrifice-cost-unnamed",
    ),
    pytest.param(
        SACRIFICE.replace("sacrifice: bears}", "sacrifice: bear}"),
        ":10: events[0].activate.sacrifice: 'bear' is not a permanent of this scenario "
        "(did you mean 'bears'?)",
        id="sacrifice-unknown-handle",
    ),
    pytest.param(
        SACRIFICE.replace("source: privilege,", "source: martyr, target: giant,"),
        ":10: events[0].activate.sacrifice: martyr's regenerate-target ability costs no "
        "creature to sacrifice",
        id="sacrifice-named-for-an-ability-without-that-cost",
    ),
    pytest.param(
        INLINE.replace(
            "kind: regenerate-target, cost: [tap]", "kind: regenerate-self, cost: [tap]"
        ),
        ":5: permanents.hermit.abilities[0].cost: a tap cost is run only on regenerate-target, "
        "not on regenerate-self",
        id="inline-cost-on-an-ability-kind-without-it",
    ),
    pytest.param(
        INLINE.replace("cost: [sacrifice-creature]", "cost: [sacrifice-self, sacrifice-creature]"),
        ":6: permanents.pact.abilities[0].cost: sacrifice-self and sacrifice-creature together "
        "are not run: give one of them",
        id="inline-two-sacrifice-costs",
    ),
    pytest.param(
        INLINE.replace(
            "kind: regenerate-target, cost: [tap]", "kind: equip, cost: [sacrifice-creature]"
        ),
        ":5: permanents.hermit.abilities[0].cost: a sacrifice-creature cost is run only on "
        "regenerate-host, not on equip",
        id="inline-sacrifice-creature-on-equip",
    ),
    pytest.param(
        INLINE.replace("cards: 1}", "cards: 1}, dies-drain: {watch: any, life: 1}"),
        ":7: permanents.harvest.dies-draw: a 'whenever a creature dies' ability has one effect: "
        "give dies-drain or dies-draw",
        id="inline-dies-draw-and-dies-drain",
    ),
    pytest.param(
        INLINE.replace("types: [enchantment, creature]", "types: [creature]"),
        ":8: permanents.keeper.shrine: Shrine is an enchantment type (205.3h): give types: "
        "[enchantment]",
        id="inline-shrine-not-an-enchantment",
    ),
    pytest.param(
        INLINE.replace("scout: {types: [creature]", "scout: {types: [artifact]"),
        ":9: permanents.scout.merfolk: Merfolk is a creature type (205.3m): give types: [creature]",
        id="inline-merfolk-not-a-creature",
    ),
    # Counterspell's target is a spell on the stack (115.1): by name or by stack position
    pytest.param(
        BASE + "  - cast: {player: A, spell: Counterspell, targets: Shok}\n",
        ":11: events[1].cast.targets: 'Shok' is neither a built-in spell nor one of this "
        "scenario's spells (did you mean 'Shock'?)",
        id="counterspell-unknown-spell",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: Counterspell, targets: Shock}\n",
        ":11: events[1].cast.targets: no spell named 'Shock' is on the stack",
        id="counterspell-target-not-on-the-stack",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: Counterspell, targets: [Shock, Murder]}\n",
        ":11: events[1].cast.targets: Counterspell has one target: a spell on the stack (115.1)",
        id="counterspell-two-targets",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: Counterspell, targets: 0}\n",
        ":11: events[1].cast.targets: Counterspell targets a spell: the stack has no object "
        "at position 0 [stack.cast]",
        id="counterspell-empty-stack-position",
    ),
    # 120.1a: damage is dealt to no land that is not a creature, so no spell aims it at one
    pytest.param(
        BASE.replace(
            "permanents:",
            "spells:\n  Land Scorch: {effect: damage, amount: 2, targets: land}\npermanents:",
        ),
        ":5: spells.Land Scorch.targets: damage is dealt only to creatures, planeswalkers, "
        "battles and players (120.1a): a damage effect can't have targets: land",
        id="damage-spell-targets-a-land",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: {name: Land Scorch, effect: damage, targets: land}, "
        "targets: [troll]}\n",
        ":11: events[1].cast.spell.targets: damage is dealt only to creatures, planeswalkers, "
        "battles and players (120.1a): a damage effect can't have targets: land",
        id="inline-damage-spell-targets-a-land",
    ),
    pytest.param(
        BASE + "  - cast: {player: A, spell: Shock, targets: 0}\n",
        ":11: events[1].cast.targets: Shock targets no spell: name a permanent or a player",
        id="spell-position-for-a-card-spell",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_bad_input_is_one_line_with_file_line_and_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    code, out, err = _run(tmp_path, text)
    assert code == EXIT_INPUT_ERROR
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(str(tmp_path / "x.yaml") + expected), lines[0]
    assert "Traceback" not in err + out


def test_broken_json_names_the_json_line(tmp_path: Path) -> None:
    text = '{\n  "name": "x",\n  "players": ["A", "B"],,\n  "events": []\n}\n'
    code, _, err = _run(tmp_path, text, name="x.json")
    assert code == EXIT_INPUT_ERROR
    assert err.strip().startswith(f"{tmp_path / 'x.json'}:3: broken JSON: ")


def test_json_output_reports_input_errors(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, BASE.replace("target: troll", "target: trol"), "--json")
    assert code == EXIT_INPUT_ERROR
    doc = json.loads(out)
    assert doc["exit_code"] == EXIT_INPUT_ERROR
    assert doc["verdict"] == "INPUT_ERROR"
    (error,) = doc["errors"]
    assert (error["line"], error["field"]) == (8, "events[0].create-shield.target")


def test_a_failed_expectation_exits_1_and_names_its_line(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, BASE.replace("shields: 1}", "shields: 2}"), "--quiet")
    assert code == 1
    assert "FAILED" in out
    assert "x.yaml:10: troll.shields: expected 2, got 1" in out


def test_a_passing_file_exits_0_and_narrates_clauses_and_rules(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, BASE)
    assert code == 0
    assert "regen.shield.create" in out
    assert "701.19a" in out  # the clause's current rule number, from the catalog
    assert "✓" in out


def test_json_output_shape(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, BASE, "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["format"], doc["version"], doc["verdict"]) == ("regen-model/run", 1, "PASSED")
    (scenario,) = doc["scenarios"]
    (event,) = scenario["events"]
    assert event["actions"][0]["kind"] == "create-shield"
    created = [e for e in event["engine_events"] if e["kind"] == "shield-created"]
    assert created[0]["clause"] == "regen.shield.create"
    assert created[0]["data"]["origin"] == "Death Ward"
    assert event["checks"] == [
        {"what": "troll.shields", "line": 10, "expected": "1", "actual": "1", "ok": True}
    ]


def test_verify_runs_the_shipped_examples() -> None:
    result = CliRunner().invoke(_app(), ["verify", "--json"])
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    (section,) = [s for s in doc["sections"] if s["name"] == "examples"]
    assert len(section["rows"]) >= 15
    assert {r["verdict"] for r in section["rows"]} == {"PASSED"}


def test_verify_rejects_an_unknown_section() -> None:
    result = CliRunner().invoke(_app(), ["verify", "--section", "nope"])
    assert result.exit_code == EXIT_INPUT_ERROR


def test_console_script_reports_bad_input_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(BASE.replace("target: troll", "target: dead"), encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from regen_model.cli import main; raise SystemExit(main())",
            "run",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == EXIT_INPUT_ERROR
    assert proc.stderr.strip().splitlines() == [
        f"{path}:8: events[0].create-shield.target: dead is not on the battlefield "
        "(it is in the graveyard) [regen.shield.create]"
    ]


# A refusal expected with the field it is about (EngineError.field): the field an unexpected
# refusal's error line would point at, so a refusal that names another field misleads a user.
REFUSED_BLOCK = """\
name: refused block
description: B tries to block a card in A's graveyard (509.1a).
players: [A, B]
permanents:
  giant: {card: Hill Giant, controller: A}
  corpse: {card: Grizzly Bears, owner: A, zone: graveyard}
  troll: {card: Horned Troll, controller: B}
events:
  - pass-until: declare-attackers
  - declare-attackers: [giant]
  - pass-until: declare-blockers
  - declare-blockers: {blocks: {troll: corpse}}
    expect:
      error: {class: IllegalAction, clause: combat.declare-blockers, field: blocks}
"""


def test_an_error_expectation_names_the_refusals_field(tmp_path: Path) -> None:
    code, out, _ = _run(tmp_path, REFUSED_BLOCK, "--json")
    assert code == 0, out
    (event,) = [e for e in json.loads(out)["scenarios"][0]["events"] if e["checks"]]
    (check,) = event["checks"]
    assert check["ok"] and check["expected"].endswith("(field blocks)"), check
    assert check["actual"].endswith("(field blocks)"), check


def test_an_error_expectation_fails_when_the_field_differs(tmp_path: Path) -> None:
    text = REFUSED_BLOCK.replace("field: blocks", "field: attackers")
    code, out, _ = _run(tmp_path, text, "--quiet")
    assert code == 1
    assert "FAILED" in out
    line = " ".join(out.split())
    assert (
        "x.yaml:14: error: expected IllegalAction [combat.declare-blockers] (field attackers)"
        in line
    )
    assert line.endswith("[combat.declare-blockers] (field blocks)"), line


def test_an_error_expectations_field_must_be_a_name(tmp_path: Path) -> None:
    code, _, err = _run(tmp_path, REFUSED_BLOCK.replace("field: blocks", "field: 3"))
    assert code == EXIT_INPUT_ERROR
    assert err.startswith(f"{tmp_path / 'x.yaml'}:14: events[3].expect.error"), err
