"""Hostile and mistaken scenario files: refused quickly, with one line naming file and line.

A scenario file may come from anyone. The loader bounds what it reads before validating it
(file size, nesting, YAML aliases, tags, integer size; ``regen_model.limits``) and checks
what the schema cannot see: every key and subject of an event matcher, and attachments.
Each case here crashed, hung or was silently accepted before these checks existed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.limits import MAX_INT
from regen_model.verdicts import EXIT_INPUT_ERROR

HEAD = """\
name: t
description: A troll.
players: [A, B]
permanents:
  troll: {card: Uthden Troll, controller: A}
"""
DESTROY = HEAD + "events:\n  - destroy: troll\n    expect:\n"


_register_all()


def _run(tmp_path: Path, text: str, name: str = "x.yaml") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    result = CliRunner().invoke(app, ["run", "--quiet", str(path)])
    assert time.perf_counter() - started < 20, "the loader must refuse quickly"
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr.strip()


def _bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


REFUSED = [
    pytest.param(
        HEAD.replace("permanents:\n  troll: {card: Uthden Troll, controller: A}", "permanents: 5")
        + "events: []\n",
        ":4: permanents: expected a mapping, got the number 5",
        id="permanents-a-number",
    ),
    pytest.param(
        HEAD + "events: []\nextra: " + "[" * 5000 + "]" * 5000 + "\n",
        ":7: nested more than 64 levels deep",
        id="deep-flow-nesting",
    ),
    pytest.param(
        HEAD.replace("players: [A, B]", "players: [{name: A, life: " + "9" * 4300 + "}, B]")
        + "events: []\n",
        ":3: a 4300-digit integer is too large",
        id="4300-digit-integer",
    ),
    pytest.param(
        HEAD.replace("players: [A, B]", f"players: [{{name: A, life: {MAX_INT + 1}}}, B]")
        + "events: []\n",
        f":3: players[0].life: the integer {MAX_INT + 1} is too large",
        id="integer-past-64-bits",
    ),
    pytest.param(
        HEAD + "events: []\n" + _bomb(),
        ":12: more than 100000 values",
        id="billion-laughs",
    ),
    pytest.param(
        HEAD.replace("name: t", "name: !!binary aGVsbG8=") + "events: []\n",
        ":1: the YAML tag !!binary is not allowed",
        id="binary-tag",
    ),
    pytest.param(
        HEAD.replace("players: [A, B]", "players: !!set {A, B}") + "events: []\n",
        ":3: the YAML tag !!set is not allowed",
        id="set-tag",
    ),
    pytest.param(
        HEAD.replace("description: A troll.", "description: !python/object x") + "events: []\n",
        ":2: the YAML tag !python/object is not allowed",
        id="custom-tag",
    ),
    pytest.param(
        DESTROY + "      events: [{regenerated: trol}]\n",
        ":9: events[0].expect.events[0].regenerated: 'trol' is not a permanent of this scenario",
        id="matcher-subject-typo",
    ),
    pytest.param(
        DESTROY + "      events: [{destroyed: troll, orign: battlefield}]\n",
        ":9: events[0].expect.events[0].orign: a destroyed event has no field 'orign'",
        id="matcher-key-typo",
    ),
    pytest.param(
        DESTROY + "      no-events: [{regenerated: troll, orign: null}]\n",
        ":9: events[0].expect.no-events[0].orign: a regenerated event has no field 'orign' "
        "(did you mean 'origin'?)",
        id="matcher-unknown-key-null",
    ),
    pytest.param(
        DESTROY + "      no-events: [{zone-change: troll, to: graveyrd}]\n",
        ":9: events[0].expect.no-events[0].to: 'graveyrd' is not a value of to (did you mean "
        "'graveyard'?)",
        id="matcher-value-typo",
    ),
    pytest.param(
        DESTROY + "      events: [{passed: troll}]\n",
        ":9: events[0].expect.events[0].passed: 'troll' is not a player of this scenario",
        id="matcher-player-subject",
    ),
    pytest.param(
        DESTROY + "      events: [{step-began: troll}]\n",
        ":9: events[0].expect.events[0].step-began: a step-began event is about the game as a "
        "whole",
        id="matcher-subject-of-a-game-event",
    ),
    pytest.param(
        DESTROY + "      events: [{resolved: Murdr}]\n",
        ":9: events[0].expect.events[0].resolved: 'Murdr' is not a stack object of this "
        "scenario (did you mean 'Murder'?)",
        id="matcher-stack-subject",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  bears: {card: Grizzly Bears, controller: A}\n"
            "  one: {card: Holy Strength, controller: A, attached-to: two}\n"
            "  two: {card: Holy Strength, controller: A, attached-to: one}",
        )
        + "events: []\n",
        ":6: permanents.one.attached-to: two is an Aura: an Aura or Equipment attaches to a "
        "creature",
        id="auras-attached-to-each-other",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  plate: {card: Darksteel Plate, controller: A, attached-to: plate}",
        )
        + "events: []\n",
        ":5: permanents.plate.attached-to: plate can't be attached to itself",
        id="equipment-attached-to-itself",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  aura: {card: Regeneration, controller: A, attached-to: plate}\n"
            "  plate: {card: Darksteel Plate, controller: A, attached-to: aura}",
        )
        + "events: []\n",
        ":5: permanents.aura.attached-to: plate is an Equipment: an Aura or Equipment attaches "
        "to a creature",
        id="aura-and-equipment-in-a-cycle",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  troll: {card: Uthden Troll, controller: A}\n"
            "  plate: {card: Darksteel Plate, controller: A}",
        )
        + "events:\n  - activate: {player: A, source: plate}\n",
        ":8: events[0].activate.target: an equip ability needs a target",
        id="equip-without-target",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  rock: {types: [artifact], grants-abilities: [regenerate-self], controller: A}",
        )
        + "events: []\n",
        ":5: permanents.rock.grants-abilities: only an Aura or Equipment gives its creature "
        "abilities",
        id="grants-abilities-without-attachment",
    ),
    pytest.param(
        HEAD.replace(
            "  troll: {card: Uthden Troll, controller: A}",
            "  kit: {types: [artifact], attachment: equipment, grants-abilities: [equip], "
            "controller: A}",
        )
        + "events: []\n",
        ":5: permanents.kit.grants-abilities[0]: an Aura or Equipment gives only regenerate-self",
        id="grants-abilities-of-another-kind",
    ),
]


@pytest.mark.parametrize(("text", "expected"), REFUSED)
def test_refused_with_one_line_naming_file_and_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    code, err = _run(tmp_path, text)
    assert code == EXIT_INPUT_ERROR, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(str(tmp_path / "x.yaml") + expected), err


def test_a_known_matcher_key_must_be_present_to_match(tmp_path: Path) -> None:
    # A shield is used, so a ``note`` (regen.same-object) is emitted, without the data key
    # ``trample_to_player``: a null value once matched any event lacking the key.
    text = HEAD.replace("controller: A}", "controller: A, shields: [Death Ward]}") + (
        "events:\n  - destroy: troll\n    expect:\n"
        "      events: [{regenerated: troll}]\n"
        "      no-events: [{note: troll, trample-to-player: null}]\n"
    )
    code, err = _run(tmp_path, text)
    assert code == 0, err


def test_a_json_scenario_is_bounded_the_same_way(tmp_path: Path) -> None:
    text = '{"name": "t", "description": "d", "players": ["A", "B"], "events": [], "x": '
    code, err = _run(tmp_path, text + "[" * 3000 + "]" * 3000 + "}", name="x.json")
    assert code == EXIT_INPUT_ERROR and "nested more than 64 levels deep" in err
    code, err = _run(tmp_path, text + "9" * 5000 + "}", name="x.json")
    assert code == EXIT_INPUT_ERROR and "a 5000-digit integer is too large" in err


def test_a_file_too_large_is_refused_before_reading(tmp_path: Path) -> None:
    code, err = _run(tmp_path, HEAD + "events: []\n#" + "x" * (2 << 20) + "\n")
    assert code == EXIT_INPUT_ERROR and "at most 1.0 MiB" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_run_dir_skips_fifos_and_an_explicit_fifo_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(HEAD + "events: [{destroy: troll}]\n", encoding="utf-8")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "loop").symlink_to(tmp_path)  # a link to a folder is not followed
    result = CliRunner().invoke(app, ["run", "--quiet", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("PASSED") == 1
    result = CliRunner().invoke(app, ["run", "--quiet", str(fifo)])
    assert result.exit_code == EXIT_INPUT_ERROR
    assert result.stderr.startswith(f"{fifo}: not a regular file")


def test_a_mapping_used_as_a_key_is_an_input_error(tmp_path: Path) -> None:
    # ruamel hashes such a key and fails with a TypeError (found by benchmarks/fuzz.py).
    text = HEAD + "events: []\nx:\n  {a: b}: 1\n  ? {c: {d: e}}\n  : 2\n"
    code, err = _run(tmp_path, text)
    assert code == EXIT_INPUT_ERROR
    assert "keys must be text, not lists or mappings" in err and len(err.splitlines()) == 1
