"""CHC certificates on the real model: every invariant of the catalog PROVED, each
obligation re-checked as unsatisfiable by z3's own program and by cvc5 (``certificates.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regen_model.checks.certificates import (
    cvc5_available,
    recheck_cvc5,
    recheck_z3_program,
    z3_program,
)
from regen_model.cli.prove import run_prove
from regen_model.invariants.loading import load, user_paths


@pytest.mark.slow
def test_prove_chc_certifies_the_catalog(tmp_path: Path) -> None:
    program = z3_program()
    assert program is not None, "the z3-solver wheel installs a z3 program next to Python"
    assert cvc5_available(), "the test extra installs cvc5"
    code = run_prove(
        [], ["chc"], None, None, 200_000_000, 0, 3, 4, False, tmp_path, json_output=True
    )
    assert code == 0
    catalog = load(user_paths(None))
    checked: dict[str, str] = {}
    for inv in catalog:
        manifest = json.loads((tmp_path / f"{inv.id}.certificate.json").read_text())
        assert set(manifest["checks"]) == {"z3", "cvc5"}
        for solver, answers in manifest["checks"].items():
            assert set(answers) == set(manifest["obligations"]), solver
            assert set(answers.values()) == {"unsat"}, (inv.id, solver)
        assert {"initiation", "consecution.pass"} <= set(manifest["obligations"])
        checked.update(manifest["obligations"])
    # the files on disk are what was checked: re-read the two smallest with both solvers
    files = sorted(checked.values(), key=lambda f: (tmp_path / f).stat().st_size)[:2]
    for name in files:
        text = (tmp_path / name).read_text()
        assert text.rstrip().endswith("(check-sat)")
        assert recheck_z3_program(text, program) == "unsat"
        assert recheck_cvc5(text) == "unsat"


def test_a_false_claim_is_answered_sat(tmp_path: Path) -> None:
    """The re-checkers are not rubber stamps: an obligation that has a model says so."""
    program = z3_program()
    assert program is not None
    text = "(set-logic ALL)\n(declare-fun x () Int)\n(assert (> x 2))\n(check-sat)\n"
    assert recheck_z3_program(text, program) == "sat"
    if cvc5_available():
        assert recheck_cvc5(text) == "sat"
