"""The mutant matrix: nothing survives, the shortest kills are the known ones, and the
matrix itself can fail (survivors, a baseline that violates an invariant)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.model.enums import Mutant
from regen_model.mutants.battery import BATTERY
from regen_model.mutants.matrix import Matrix, Route, compute_matrix
from regen_model.mutants.report import matrix_json, verify_rows
from regen_model.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]
ROOTS = [ROOT / "tests" / "scenarios", ROOT / "regen_model" / "examples"]


# the matrix (tens of seconds) is made once: every test here runs in one worker
pytestmark = pytest.mark.xdist_group("mutant-matrix")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return compute_matrix(scenario_roots=ROOTS, jobs=2)


@pytest.mark.slow
def test_no_mutant_and_no_invariant_survives(matrix: Matrix) -> None:
    assert matrix.baseline.kills == (), "the correct rules must satisfy every invariant"
    assert matrix.surviving_mutants == []
    assert matrix.unkilled_invariants == []
    assert matrix.verdict is Verdict.PASSED
    assert {r.rules for r in matrix.rows} == {m.value for m in Mutant}
    assert matrix.excluded_scenarios == ()


@pytest.mark.slow
def test_known_shortest_kills(matrix: Matrix) -> None:
    rows = {r.rules: r for r in matrix.rows}

    def length(mutant: Mutant, invariant: str) -> int | None:
        kill = rows[mutant.value].kill(invariant)
        return None if kill is None else kill.length

    # Starts may hold a shield already (combat, attachments), so one destroy suffices.
    assert length(Mutant.SHIELD_NOT_CONSUMED, "inv.shield.used-once") == 1
    assert length(Mutant.CREATE_TAPS, "inv.regen.taps-only-when-applied") == 1
    assert length(Mutant.SHIELDS_SURVIVE_CLEANUP, "inv.cleanup.ends-this-turn") == 2
    assert length(Mutant.ONE_DESTRUCTION_USES_ALL, "inv.shield.used-once") == 3
    assert length(Mutant.REGEN_STAYS_IN_COMBAT, "inv.regen.same-object") == 4
    assert length(Mutant.REGEN_UNATTACHES, "inv.regen.attachments-stay") == 1
    kill = rows[Mutant.CANT_REGEN_IGNORED.value].kill("inv.cant-regen.no-shield-used")
    assert kill is not None and kill.route is Route.EXPLORE and kill.length == 2
    # choice-by-owner changes who may answer, not what can happen: only a scenario sees it.
    owner = rows[Mutant.CHOICE_BY_OWNER.value]
    assert owner.kills == ()
    assert [s.file for s in owner.scenarios] == [
        "scenarios/replace/choice-by-controller-not-owner.yaml"
    ]


@pytest.mark.slow
def test_verify_rows_and_json(matrix: Matrix) -> None:
    rows = verify_rows(matrix)
    assert len(rows) == 1 + len(Mutant) + len(matrix.invariants)
    assert all(r.verdict in (Verdict.PASSED, Verdict.PROVED) for r in rows)
    doc = json.loads(json.dumps(matrix_json(matrix)))
    assert doc["verdict"] == "PASSED"
    assert doc["exit_code"] == 0
    row = next(m for m in doc["mutants"] if m["rules"] == "create-taps")
    assert row["clauses"] == ["regen.shield.create", "regen.apply.tap"]
    assert row["kills"][0]["actions"] == ["create-shield target=grizzly-bears"]


def test_a_matrix_without_routes_has_only_survivors() -> None:
    """With no battery and no scenarios nothing can kill: the check must fail."""
    m = compute_matrix([Mutant.CREATE_TAPS], scenario_roots=[], battery=(), jobs=1)
    assert m.surviving_mutants == ["create-taps"]
    assert m.verdict is Verdict.FAILED
    rows = verify_rows(m)
    assert any(r.verdict is Verdict.FAILED and "create-taps" in r.item for r in rows)


def test_unkilled_invariants_fail_only_a_complete_matrix() -> None:
    """A run of some mutants cannot be expected to break every invariant; the full run is."""
    shields = [b for b in BATTERY if b.name == "shields"]
    some = compute_matrix([Mutant.CREATE_TAPS], scenario_roots=[], battery=shields, jobs=1)
    assert some.unkilled_invariants and some.verdict is Verdict.PASSED
    full = Matrix(**{**some.__dict__, "complete": True})
    assert full.verdict is Verdict.FAILED


def test_a_baseline_violation_is_reported_as_violated(tmp_path: Path) -> None:
    """An invariant the correct rules break (no shield is ever made) turns the matrix into a
    counterexample to the rules themselves."""
    (tmp_path / "wrong.py").write_text(
        "from regen_model.invariants import all_cards, count_shields, invariant\n"
        "\n"
        "@invariant('test.no-shields', 'No permanent ever has a shield.', ('regen.shield.create',))\n"
        "def no_shields():\n"
        "    return all_cards(lambda c: count_shields(c, lambda s: s.present) == 0)\n"
    )
    shields = [b for b in BATTERY if b.name == "shields"]
    m = compute_matrix(
        [Mutant.CREATE_TAPS],
        invariant_files=[tmp_path],
        scenario_roots=[],
        battery=shields,
        jobs=1,
    )
    assert m.verdict is Verdict.VIOLATED
    kill = m.baseline.kill("test.no-shields")
    assert kill is not None and kill.length == 1


def test_mutants_cli_lists_and_runs() -> None:
    _register_all()
    runner = CliRunner()
    listed = runner.invoke(app, ["mutants", "--list"])
    assert listed.exit_code == 0
    assert "regen-unattaches" in listed.output
    run = runner.invoke(
        app, ["mutants", "-m", "create-taps", "--scenarios", str(ROOTS[1]), "--json", "-j", "1"]
    )
    assert run.exit_code == 0, run.output
    doc = json.loads(run.stdout)
    assert doc["mutants"][0]["rules"] == "create-taps"
    assert doc["mutants"][0]["killed"] is True
