"""The proof route of the matrix: the proof engine on the mutated Z3 relation."""

from __future__ import annotations

import pickle

import pytest

from regen_model.invariants import builtin
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.mutants.matrix import Route
from regen_model.mutants.proofs import InductionRoute

TAPS = [inv for inv in builtin() if inv.id == "inv.regen.taps-only-when-applied"]
ROUTE = InductionRoute(kinds=("create-shield",))


@pytest.mark.slow
def test_a_mutant_that_taps_on_creation_fails_the_proof_with_a_one_step_run() -> None:
    (kill,) = ROUTE.kills(Rules(frozenset({Mutant.CREATE_TAPS})), TAPS)
    assert kill.invariant == "inv.regen.taps-only-when-applied"
    assert kill.route is Route.PROOF
    assert kill.length == 1
    assert kill.where == "consecution of create-shield"


@pytest.mark.slow
def test_the_correct_rules_give_no_kill() -> None:
    assert ROUTE.kills(CORRECT, TAPS) == []


def test_the_route_travels_to_worker_processes() -> None:
    assert pickle.loads(pickle.dumps(ROUTE)) == ROUTE
    assert "create-shield" in ROUTE.name
