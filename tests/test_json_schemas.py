"""Every command's ``--json`` document has the one envelope (``format``, ``version``,
``verdict``, ``exit_code``, ``incomplete``, ``interrupted_by``) and validates against the JSON
Schema shipped for it in ``regen_model/schemas/`` (``jsondoc.schema``)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from regen_model.cli import main
from regen_model.jsondoc import ENVELOPE_KEYS, schema

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "regen_model" / "examples" / "new-object.yaml"
QUERY = "exists c: c.by_shield >= 1"

RUNS: list[tuple[str, list[str]]] = [
    ("run", ["run", str(EXAMPLE), "--json"]),
    ("run", ["run", str(ROOT / "no-such.yaml"), "--json"]),
    ("find", ["find", QUERY, "-d", "3", "--json", "--out-itf", "{tmp}/run.itf.json"]),
    ("find", ["find", "--list-examples", "--json"]),
    ("check-trace", ["check-trace", "{tmp}/run.itf.json", "--json"]),
    ("check-trace", ["check-trace", "{tmp}/bad.itf.json", "--json"]),
    ("explore", ["explore", "-d", "1", "--json"]),
    ("mutants", ["mutants", "--list", "--json"]),
    ("prove", ["prove", "-i", "inv.shield.used-once", "--method", "kind", "--k", "1", "--json"]),
    ("verify", ["verify", "-s", "examples", "--json"]),
    (
        "crosscheck",
        [
            "crosscheck",
            "--engine",
            "reference",
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--random",
            "2",
            "--seed",
            "1",
            "--json",
        ],
    ),
]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("json")
    (folder / "bad.itf.json").write_text("{", encoding="utf-8")
    return folder


@pytest.mark.parametrize(("command", "argv"), RUNS, ids=[" ".join(r[1][:3]) for r in RUNS])
def test_the_json_has_the_envelope_and_its_schema(
    tmp: Path, capsys: pytest.CaptureFixture[str], command: str, argv: list[str]
) -> None:
    code = main([a.replace("{tmp}", str(tmp)) for a in argv])
    doc = json.loads(capsys.readouterr().out)
    assert list(doc)[: len(ENVELOPE_KEYS)] == list(ENVELOPE_KEYS)
    assert doc["format"] == f"regen-model/{command}"
    assert doc["exit_code"] == code
    assert doc["incomplete"] is False
    jsonschema.validate(doc, schema(command))


@pytest.mark.parametrize(
    "command",
    [
        "run",
        "verify",
        "prove",
        "find",
        "explore",
        "agree",
        "mutants",
        "check-trace",
        "crosscheck",
        "export-vectors",
    ],
)
def test_every_command_ships_a_valid_schema_that_requires_the_envelope(command: str) -> None:
    shipped = schema(command)
    jsonschema.Draft202012Validator.check_schema(shipped)
    assert set(ENVELOPE_KEYS) <= set(shipped["required"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": f"regen-model/{command}", "version": 1}, shipped)
