"""The built-in catalog is well formed: IDs, sentences, clauses, shapes."""

from __future__ import annotations

import pytest

from regen_model.clauses import catalog
from regen_model.invariants import BoolExpr, Kind, builtin, invariant, step_invariant
from regen_model.invariants.expr import implications
from regen_model.invariants.spec import InvariantError
from regen_model.invariants.vocabulary import all_cards, count_shields


def test_ids_unique_and_clauses_known() -> None:
    ids = [i.id for i in builtin()]
    assert len(ids) == len(set(ids))
    known = catalog()
    for inv in builtin():
        assert inv.sentence and inv.clauses
        assert all(c in known for c in inv.clauses), inv.id


def test_catalog_covers_the_issue_list() -> None:
    ids = {i.id for i in builtin()}
    assert {
        "inv.shield.used-once",
        "inv.shield.one-per-destruction",
        "inv.regen.taps-only-when-applied",
        "inv.regen.same-object",
        "inv.cleanup.ends-this-turn",
        "inv.cant-regen.no-shield-used",
        "inv.indestructible.no-shield",
        "inv.not-destruction.no-shield",
        "inv.survival.needs-shields",
        "inv.priority.no-sba-pending",
        "inv.rider.exactly-when-used",
        "inv.new-object.no-shields",
        "inv.static-regen.never-destroyed",
        "inv.damage-trigger.kept",
    } <= ids


def test_per_permanent_shape_is_recognised() -> None:
    local = {i.id for i in builtin() if i.local is not None}
    assert "inv.shield.used-once" in local and "inv.regen.same-object" in local
    # these read other cards or game-wide fields (the any-n prover handles them through its
    # witnesses and the global record, checks/anyn.py)
    assert not local & {
        "inv.regen.attachments-stay",
        "inv.priority.no-sba-pending",
        "inv.damage-trigger.kept",
    }


def test_implications_are_found_for_cover() -> None:
    by_id = {i.id: i for i in builtin()}
    assert len(implications(by_id["inv.cant-regen.no-shield-used"].formula)) == 2
    assert by_id["inv.shield.used-once"].antecedents == []


def test_a_state_invariant_cannot_read_the_step() -> None:
    with pytest.raises(InvariantError, match="step_invariant"):

        @invariant("bad", "reads the pre-state", ("regen.shield.apply",))
        def bad() -> BoolExpr:
            return all_cards(lambda c: c.pre.tapped)

    ok = step_invariant("ok", "reads the pre-state", ("regen.shield.apply",))(
        lambda: all_cards(lambda c: c.pre.tapped | ~c.post.tapped)
    )
    assert ok.kind is Kind.STEP


def test_formulas_have_no_truth_value() -> None:
    with pytest.raises(TypeError, match="no truth value"):
        all_cards(lambda c: c.tapped and c.damage > 0)
    count = all_cards(lambda c: count_shields(c, lambda s: s.used) <= 1)
    assert count is not None
