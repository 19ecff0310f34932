"""Reading and writing ITF traces; malformed files give one error naming file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.itf import parse_trace, read_trace
from regen_model.conform.jsonpos import FormatError, locate
from regen_model.conform.start import Start
from regen_model.model import actions as A

from .helpers import trace_of, write

GOOD = """{
  "#meta": {"format": "ITF",
            "setup": {"players": ["A", "B"],
                      "permanents": [{"handle": "troll", "card": "Horned Troll", "owner": "A"}]}},
  "vars": ["cards", "players", "events"],
  "states": [
    {"#meta": {"index": 0},
     "cards": {"#map": [["troll", {"zone": "battlefield", "damage": {"#bigint": "0"}}]]}},
    {"#meta": {"index": 1, "action": {"kind": "create-shield", "target": "troll"}},
     "cards": {"troll": {"shields": 1}},
     "events": {"#set": ["shield-created:troll"]}},
    {"#meta": {"index": 2, "action": {"kind": "deal-damage", "source": "x",
                                      "shares": [{"amount": 2, "card": "troll"}]}},
     "cards": {"troll": {"damage": 2, "tapped": false}}}
  ]
}
"""


def _error(text: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        parse_trace(text, "log.itf.json")
    return info.value


def test_itf_encodings_and_plain_json_are_both_read() -> None:
    trace = parse_trace(GOOD, "log.itf.json")
    assert [s.action.kind for s in trace.steps if s.action] == ["create-shield", "deal-damage"]
    assert trace.initial.cards["troll"] == {"zone": "battlefield", "damage": 0}
    assert trace.steps[0].observation.events == ("shield-created:troll",)
    assert trace.steps[1].observation.events is None  # not observed in that state


def test_written_traces_read_back(tmp_path: Path, troll_and_bear: Start) -> None:
    data = trace_of(troll_and_bear, A.Destroy(targets=("troll",)), A.Cleanup())
    trace = read_trace(write(tmp_path, data))
    assert trace.start == troll_and_bear
    assert trace.steps[0].action is not None
    assert trace.steps[0].action.fields == {"targets": ("troll",)}
    assert trace.steps[0].observation.game["priority"] == "A"


@pytest.mark.parametrize(
    ("original", "replacement", "field", "message"),
    [
        ('"damage": {"#bigint": "0"}', '"damage": {"#bigint": "0"', "(syntax)", "Expecting"),
        (
            '"shields": 1',
            '"shields": "one"',
            "states[1].cards.troll.shields",
            "expected an integer",
        ),
        (
            '"tapped": false',
            '"taped": false',
            "states[2].cards.troll.taped",
            "unknown field 'taped'",
        ),
        (
            '"kind": "create-shield"',
            '"kind": "make-shield"',
            "states[1].#meta.action.kind",
            "unknown action kind",
        ),
        (
            ',\n                                      "shares": [{"amount": 2, "card": "troll"}]',
            "",
            "states[2].#meta.action",
            "'shares' of 'deal-damage' must be logged",
        ),
    ],
)
def test_malformed_files_name_the_line_and_field(
    original: str, replacement: str, field: str, message: str
) -> None:
    assert original in GOOD
    text = GOOD.replace(original, replacement)
    err = _error(text)
    marker = replacement.strip(",\n ") or '"deal-damage"'
    line = next(i for i, t in enumerate(text.splitlines(), 1) if marker in t)
    assert err.file == "log.itf.json"
    assert err.line == line, (err, text.splitlines()[err.line - 1])
    assert err.field == field
    assert message in err.message
    assert str(err).startswith(f"log.itf.json:{line}:")


def test_a_trace_without_states_is_an_error_and_index_must_match() -> None:
    err = _error('{"states": []}')
    assert "at least its start state" in err.message
    data = json.loads(GOOD)
    data["states"][1]["#meta"]["index"] = 5
    err = _error(json.dumps(data, indent=1))
    assert err.field == "states[1].#meta.index"


def test_unknown_card_handle_in_a_state_is_an_error() -> None:
    err = _error(
        GOOD.replace('"cards": {"troll": {"shields": 1}}', '"cards": {"goblin": {"shields": 1}}')
    )
    assert "not in the setup" in err.message
    assert err.line == 10


def test_locate_points_into_nested_lists_and_objects() -> None:
    text = '{"a": [1, {"b": [true, {"c": 3}]}]}'
    assert locate(text, ("a", 1, "b", 1, "c")) == (1, 30)
    assert locate(text, ("a", 1, "missing")) == (1, 11)


def test_locate_reads_any_json_text() -> None:
    """Tabs, escapes and keys with colons are JSON that YAML's parser must also read (the
    locator is ruamel.yaml's)."""
    text = '{\n\t"mbt::x": "a\\/b\\u00e9",\n\t"j": 1, "k": [0,\n\t\t{"y": 2}]\n}'
    json.loads(text)
    assert locate(text, ("k", 1, "y")) == (4, 9)
    assert locate(text, ("mbt::x",)) == (2, 12)


def test_cli_reports_a_malformed_file_with_exit_code_2(tmp_path: Path) -> None:
    _register_all()
    path = tmp_path / "bad.itf.json"
    path.write_text(GOOD.replace('"shields": 1', '"shields": "one"'), encoding="utf-8")
    result = CliRunner().invoke(app, ["check-trace", str(path)])
    assert result.exit_code == 2
    assert f"{path}:10:37: states[1].cards.troll.shields: expected an integer" in result.output
    result = CliRunner().invoke(app, ["check-trace", str(path), "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["line"] == 10


def test_a_scenario_format_setup_is_accepted_in_meta() -> None:
    """The setup block of a scenario file (docs/scenarios.md) works as #meta.setup."""
    data = json.loads(GOOD)
    data["#meta"]["setup"] = {
        "players": ["A", {"name": "B", "life": 3}],
        "turn": {"step": "end", "active": "B"},
        "permanents": {"troll": {"card": "Horned Troll", "owner": "A", "counters": {"+1/+1": 1}}},
    }
    data["states"][2]["cards"]["troll"]["damage"] = 2
    trace = parse_trace(json.dumps(data, indent=1), "log.itf.json")
    assert trace.start.life == (20, 3)
    assert trace.start.cards[0].plus == 1
    assert trace.start.step.value == "end"
    data["#meta"]["setup"]["permanents"]["troll"]["card"] = "Horned Trol"
    err = _error(json.dumps(data, indent=1))
    assert err.field == "#meta.setup"
    assert "scenario-format setup" in err.message and "Horned Trol" in err.message
