"""The proof engine on the toy system of ANCHORS section 2, where every answer is known."""

from __future__ import annotations

import pytest
import z3

from regen_model.checks import chc, induction, kinduction
from regen_model.checks.bmc import Found, violation
from regen_model.checks.certificates import certify, cvc5_available, recheck_z3
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result, summarize
from regen_model.checks.solver import Budget
from regen_model.invariants.spec import Kind
from regen_model.verdicts import Verdict

from .toy import ToySystem

BUDGET = Budget()
USED_LE_GRANTED = Property("used<=granted", Kind.STATE, state=lambda f: f.used <= f.granted)
STRONG = Property("strong", Kind.STATE, state=lambda f: f.used + f.shields <= f.granted)
NEVER_TAPPED = Property("never-tapped", Kind.STATE, state=lambda f: z3.Not(f.tapped))
TAP_ONLY_ON_USE = Property(
    "tap-only-on-use",
    Kind.STEP,
    step=lambda s, st, t: z3.Implies(z3.And(t.tapped, z3.Not(s.tapped)), t.used == s.used + 1),
)


def by(results: list[Result], inv: str, obligation: str, action: str | None = None) -> Result:
    for r in results:
        if r.invariant == inv and r.obligation == obligation and r.action == action:
            return r
    raise KeyError((inv, obligation, action))


def test_inductive_invariant_is_proved_per_action_with_cores() -> None:
    results = induction.prove(ToySystem(), [STRONG], BUDGET)
    assert by(results, "strong", "initiation").verdict is Verdict.PROVED
    for kind in ("grant", "destroy", "cleanup"):
        r = by(results, "strong", "consecution", kind)
        assert r.verdict is Verdict.PROVED
    assert "toy.destroy.regenerate" in by(results, "strong", "consecution", "destroy").clauses
    assert "toy.grant" in by(results, "strong", "consecution", "grant").clauses


def test_true_but_not_inductive_is_cti_not_proved() -> None:
    results = induction.prove(ToySystem(), [USED_LE_GRANTED], BUDGET)
    r = by(results, "used<=granted", "consecution", "destroy")
    assert r.verdict is Verdict.CTI
    cti = r.evidence
    pre, post = cti.run["states"]
    assert pre["used"] == pre["granted"] and pre["shields"] > 0  # the unreachable pre-state
    assert post["used"] > post["granted"]
    (row,) = [s for s in summarize(results) if s.method is Method.INDUCTION]
    assert row.verdict is Verdict.CTI


def test_strengthening_from_the_catalog_and_from_chc() -> None:
    together = induction.prove(ToySystem(), [USED_LE_GRANTED, STRONG], BUDGET)
    r = by(together, "used<=granted", "consecution", "destroy")
    assert r.verdict is Verdict.PROVED and r.uses == ("strong",)
    found = chc.prove(ToySystem(), USED_LE_GRANTED, BUDGET)
    assert found.verdict is Verdict.PROVED
    cert = found.evidence
    assert set(cert.checks["z3"].values()) == {"unsat"}
    if cvc5_available():
        assert set(cert.checks["cvc5"].values()) == {"unsat"}


def test_a_wrong_invariant_does_not_certify() -> None:
    system = ToySystem()
    x, y = system.frame("h0"), system.frame("h1")
    step = system.step(x, y, "h0")
    weak = certify(system, USED_LE_GRANTED, USED_LE_GRANTED.at_state(x), x, y, step)
    assert not weak.valid and "consecution" in weak.problem  # not inductive
    trivial = certify(system, USED_LE_GRANTED, z3.BoolVal(True), x, y, step)
    assert not trivial.valid and "safety" in trivial.problem
    good = certify(system, USED_LE_GRANTED, STRONG.at_state(x), x, y, step)
    assert good.valid
    assert recheck_z3(good.smt2["consecution"]) == "unsat"


def test_known_false_property_violated_at_its_shortest_depth() -> None:
    found = violation(ToySystem(), NEVER_TAPPED, 5, BUDGET)
    assert found.found is Found.FOUND and found.depth == 2
    assert found.run["actions"] == ["grant", "destroy"]
    results = induction.prove(ToySystem(), [NEVER_TAPPED], BUDGET)
    r = by(results, "never-tapped", "consecution", "destroy")
    assert r.verdict is Verdict.VIOLATED and r.depth == 2
    assert chc.prove(ToySystem(), NEVER_TAPPED, BUDGET).verdict is Verdict.VIOLATED


def test_k_induction() -> None:
    assert kinduction.prove(ToySystem(), STRONG, 3, BUDGET).verdict is Verdict.PROVED
    r = kinduction.prove(ToySystem(), USED_LE_GRANTED, 4, BUDGET)
    assert r.verdict is Verdict.CTI and "not k-inductive" in r.reason
    v = kinduction.prove(ToySystem(), NEVER_TAPPED, 4, BUDGET)
    assert v.verdict is Verdict.VIOLATED and v.depth == 2


def test_step_properties() -> None:
    results = induction.prove(ToySystem(), [TAP_ONLY_ON_USE, STRONG], BUDGET)
    assert all(r.verdict is Verdict.PROVED for r in results if r.invariant == "tap-only-on-use")
    broken = induction.prove(ToySystem("no-consume"), [STRONG], BUDGET)
    assert by(broken, "strong", "consecution", "destroy").verdict is Verdict.VIOLATED


@pytest.mark.parametrize("method", ["induction", "kind", "chc"])
def test_a_tiny_budget_is_unknown_never_proved(method: str) -> None:
    tiny = Budget(rlimit=1, retries=1)
    if method == "induction":
        verdicts = {r.verdict for r in induction.prove(ToySystem(), [STRONG], tiny)}
    elif method == "kind":
        verdicts = {kinduction.prove(ToySystem(), STRONG, 3, tiny).verdict}
    else:
        verdicts = {chc.prove(ToySystem(), USED_LE_GRANTED, tiny).verdict}
    assert Verdict.PROVED not in verdicts
    assert Verdict.UNKNOWN in verdicts
