"""``SymWork.set_all_if`` (a stack entry written as a whole) builds the same relation as one
``set_if`` per field: the same value, writer and possible writers for every variable.

The batched write shares each previous writer's new ``If`` among the fields that had it, which
is only a way to build fewer nodes: Z3 shares structurally equal terms, so the two builds of a
kind must give the very same terms (one node each). The ``pass`` kind at two card slots pushes,
pops, counters and moves waiting triggers onto the stack, every way ``write_slot`` is used."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from regen_model.checks.systems import parse_scope
from regen_model.encoding import work
from regen_model.encoding.frame import Statics
from regen_model.encoding.ops import Val
from regen_model.encoding.relation import KindRelation, Template, build_kind
from regen_model.model.rules import CORRECT


def _one_by_one(
    self: work.SymWork, cond: Val, items: Iterable[tuple[str, Val]], clause: str
) -> None:
    for key, value in items:
        self.set_if(cond, key, value, clause)


def _build(kind: str, template: Template) -> KindRelation:
    return build_kind(template, kind, CORRECT)


@pytest.mark.parametrize("kind", ["pass", "assign-combat-damage", "cast"])
def test_an_entry_written_at_once_is_the_entry_written_field_by_field(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scope = parse_scope("cards=2,stack=2,pending=2")
    template = Template.make(scope, Statics.fresh(scope, "s"))
    batched = _build(kind, template)
    monkeypatch.setattr(work.SymWork, "set_all_if", _one_by_one)
    plain = _build(kind, template)
    assert len(batched.effects) == len(plain.effects)
    for a, b in zip(batched.conjuncts(), plain.conjuncts(), strict=True):
        assert (a.label, a.part, a.var) == (b.label, b.part, b.var)
        assert a.formula.eq(b.formula), (a.label, a.var)
    for key, value in batched.values.items():
        assert value.eq(plain.values[key]), key
