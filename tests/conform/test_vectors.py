"""Conformance vectors: every clause covered, every file valid against the shipped schema,
and every vector replayable by an engine that knows nothing of regen-model's internals."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from regen_model.clauses import catalog
from regen_model.conform import schemas
from regen_model.conform.codec import action_from_json
from regen_model.conform.observe import Observation, compare
from regen_model.conform.start import Start
from regen_model.conform.vectors import export, schema
from regen_model.engine import step


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("vectors")
    export(directory, seed=0)
    return directory


def test_the_shipped_schemas_are_what_the_model_builds() -> None:
    for name, build in schemas.FILES.items():
        shipped = json.loads((schemas.HERE / name).read_text(encoding="utf-8"))
        assert shipped == build(), f"{name} is stale: python -m regen_model.conform.schemas"
        jsonschema.Draft202012Validator.check_schema(shipped)


def test_every_clause_is_covered_and_indexed(exported: Path) -> None:
    index = json.loads((exported / "index.json").read_text())
    assert index["missing"] == []
    for clause in catalog().clauses:
        ids = index["clauses"][clause]
        assert ids, clause
        for vector_id in ids:
            vector = json.loads((exported / "cases" / f"{vector_id}.json").read_text())
            assert clause in vector["clauses"]
    assert len(index["vectors"]) == len(list((exported / "cases").glob("*.json")))


def test_every_vector_is_valid_against_the_schema(exported: Path) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    for path in sorted((exported / "cases").glob("*.json")):
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        assert not errors, (path.name, errors[0].message, list(errors[0].path))


def test_the_schema_rejects_a_broken_vector(exported: Path) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    path = next((exported / "cases").glob("regen.shield.apply*.json"))
    vector = json.loads(path.read_text())
    vector["steps"][0]["expect"]["cards"]["x"] = {"tapped": "yes"}
    assert list(validator.iter_errors(vector))
    del vector["start"]
    assert list(validator.iter_errors(vector))


def test_vectors_replay_from_their_json_alone(exported: Path) -> None:
    """What an engine author does: read start and actions, compare with expect."""
    for path in sorted((exported / "cases").glob("*.json")):
        vector = json.loads(path.read_text())
        start = Start.from_json(vector["start"])
        state = start.build()
        for i, s in enumerate(vector["steps"]):
            res = step(state, action_from_json(s["action"], start.players))
            state = res.state
            expected = Observation.from_json(s["expect"])
            from regen_model.conform.observe import project

            assert compare(expected, project(state, res.events)) == [], (path.name, i)


# --- never deleting what we did not write -------------------------------------------------------


def _fake_export(directory: Path, *names: str) -> None:
    """An earlier export's files, as its index lists them."""
    (directory / "cases").mkdir(parents=True, exist_ok=True)
    for name in names:
        (directory / "cases" / name).write_text("{}", encoding="utf-8")
    for fixed in ("schema.json", "README.md"):
        (directory / fixed).write_text("x", encoding="utf-8")
    index = {
        "format": "regen-model-vector-index",
        "vectors": [{"file": f"cases/{n}"} for n in names],
    }
    (directory / "index.json").write_text(json.dumps(index), encoding="utf-8")


def test_a_crosschecks_cases_are_never_deleted(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from regen_model.cli import _register_all, app

    _register_all()
    shrunk = tmp_path / "run" / "cases" / "phase-cards.troll.tapped.itf.json"
    shrunk.parent.mkdir(parents=True)
    shrunk.write_text("{}", encoding="utf-8")
    for extra in ([], ["--force"]):
        result = CliRunner().invoke(app, ["export-vectors", str(tmp_path / "run"), *extra])
        assert result.exit_code == 2, result.output
        assert shrunk.read_text(encoding="utf-8") == "{}"
    assert "is not empty" in result.stderr or "no earlier export" in result.stderr


def test_force_removes_only_the_files_of_the_earlier_export(tmp_path: Path) -> None:
    from regen_model.conform.vectors import prepare_directory

    _fake_export(tmp_path, "a.json", "b.json")
    mine = tmp_path / "cases" / "mine.json"
    mine.write_text("keep", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("keep", encoding="utf-8")
    prepare_directory(tmp_path, force=True)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["cases", "mine.json", "notes.txt"]


def test_a_symbolic_link_out_of_the_folder_is_never_followed(tmp_path: Path) -> None:
    from regen_model.conform.vectors import ExportRefused, prepare_directory

    outside = tmp_path / "outside"
    _fake_export(outside, "a.json")
    target = tmp_path / "vectors"
    target.mkdir()
    _fake_export(target)
    (target / "cases").rmdir()
    (target / "cases").symlink_to(outside / "cases")
    index = {"format": "regen-model-vector-index", "vectors": [{"file": "cases/a.json"}]}
    (target / "index.json").write_text(json.dumps(index), encoding="utf-8")
    with pytest.raises(ExportRefused, match="symbolic link"):
        prepare_directory(target, force=True)
    assert (outside / "cases" / "a.json").exists()
