"""Every command's ``--json`` document has the one envelope (``format``, ``version``,
``verdict``, ``exit_code``, ``incomplete``, ``interrupted_by``) and validates against the JSON
Schema shipped for it in ``regen_model/schemas/`` (``jsondoc.schema``)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from regen_model.cli import main
from regen_model.jsondoc import ENVELOPE_KEYS, schema
from regen_model.schemas.define import SCHEMAS, rendered

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
    ("check-trace", ["check-trace", "{tmp}/wrong.itf.json", "--json"]),
    ("explore", ["explore", "-d", "1", "--json"]),
    ("mutants", ["mutants", "--list", "--json"]),
    ("mutants", ["mutants", "-m", "shield-not-consumed", "-j", "1", "--json"]),
    ("agree", ["agree", "--preset", "quick", "-r", "effects", "-j", "1", "--json"]),
    ("export-vectors", ["export-vectors", "{tmp}/vectors", "--no-scenarios", "--json"]),
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
    (
        "crosscheck",
        [
            "crosscheck",
            *("--engine", "reference:shield-not-consumed", "--no-scenarios", "--no-witnesses"),
            *("--no-cover", "--random", "5", "--seed", "1", "--shrink-seconds", "5", "--json"),
        ],
    ),
]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("json")
    (folder / "bad.itf.json").write_text("{", encoding="utf-8")
    # A trace the specification refutes at its last step (check-trace's failure document).
    run = folder / "run.itf.json"
    assert main(["find", QUERY, "-d", "3", "--out-itf", str(run), "-q"]) == 0
    trace = json.loads(run.read_text(encoding="utf-8"))
    card = trace["states"][-1]["cards"]["#map"][0][1]
    card["tapped"] = not card["tapped"]
    (folder / "wrong.itf.json").write_text(json.dumps(trace), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("command", "argv"), RUNS, ids=[" ".join(r[1][:4]) for r in RUNS])
def test_the_json_has_the_envelope_and_its_schema(
    tmp: Path, capsys: pytest.CaptureFixture[str], command: str, argv: list[str]
) -> None:
    code = main([a.replace("{tmp}", str(tmp)) for a in argv])
    doc = json.loads(capsys.readouterr().out)
    if argv[1:2] == ["{tmp}/wrong.itf.json"]:
        assert doc["failure"] is not None  # the failure's own shape is checked too
    if command == "crosscheck" and "reference:shield-not-consumed" in argv:
        assert doc["findings"]
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


@pytest.mark.parametrize("command", sorted(SCHEMAS))
def test_the_shipped_schema_is_the_one_defined(command: str) -> None:
    """``regen_model/schemas/define.py`` is the source: ``python -m regen_model.schemas.define``
    rewrites the files after a change."""
    shipped = resources.files("regen_model.schemas").joinpath(f"{command}.schema.json")
    assert shipped.read_text(encoding="utf-8") == rendered(command)


def test_a_schema_describes_the_body_not_only_the_envelope(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["prove", "-i", "inv.shield.used-once", "--method", "kind", "--k", "1", "--json"]) == 0
    )
    doc = json.loads(capsys.readouterr().out)
    jsonschema.validate(doc, schema("prove"))
    for broken in (
        {**doc, "verdict": "MAYBE"},
        {**doc, "rows": [{**doc["rows"][0], "verdict": "probably"}]},
        {**doc, "rows": [{**doc["rows"][0], "method": "guess"}]},
        {k: v for k, v in doc.items() if k != "counts"},
        {**doc, "seconds": "fast"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema("prove"))
