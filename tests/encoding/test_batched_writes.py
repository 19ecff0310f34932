"""``SymWork.set_all_if`` (a stack entry written as a whole) builds the same relation as one
``set_if`` per field: the same value, writer and possible writers for every variable.

The batched write shares each previous writer's new ``If`` among the fields that had it, which
is only a way to build fewer nodes: Z3 shares structurally equal terms, so the two builds of a
kind must give the very same terms (one node each). The ``pass`` kind at two card slots pushes,
pops, counters and moves waiting triggers onto the stack, every way ``write_slot`` is used."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
import z3

from regen_model.checks.systems import parse_scope
from regen_model.encoding import work
from regen_model.encoding.frame import StackVars, Statics, _stack_vars
from regen_model.encoding.ops import Val, same
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


def _work(scope_text: str) -> work.SymWork:
    """A ``SymWork`` over a template frame (symbolic values), as ``build_kind`` makes one."""
    scope = parse_scope(scope_text)
    template = Template.make(scope, Statics.fresh(scope, "s"))
    lay = work.layout(scope)
    statics = dict(zip(lay.static_keys, template.statics.vars(), strict=True))
    params = dict(zip(lay.param_keys, template.params.vars(), strict=True))
    ctx = work.Context.make(CORRECT, scope, statics, params, eager=False)
    return work.SymWork(ctx, dict(zip(lay.keys, template.pre.vars(), strict=True)))


@pytest.mark.parametrize("cond", [True, False, "symbolic"])
def test_a_write_at_once_leaves_what_writes_one_by_one_leave(cond: object) -> None:
    """Whatever the condition (literally true or false, or a term), writing a stack slot at
    once and field by field leave the same values, writers, possible writers and written
    keys. Two earlier writes under different conditions give the fields two different
    previous writers, so the shared ``If`` per previous writer is exercised."""
    w = _work("cards=1,stack=2")
    first, second = w.f.stack
    w.set_all_if(z3.Bool("earlier"), _pairs(first, second, w), "stack.triggers")
    w.set_if(z3.Bool("other"), first.kind, 2, "stack.resolve")
    when: Val = z3.Bool("now") if cond == "symbolic" else bool(cond)
    batched, plain = w.snapshot(), w.snapshot()
    batched.set_all_if(when, _pairs(first, second, w), "stack.counter")
    _one_by_one(plain, when, _pairs(first, second, w), "stack.counter")
    keys = set(batched.v) | set(plain.v)
    assert all(same(batched.v[k], plain.v[k]) for k in keys)
    assert all(same(batched.writer.get(k, 0), plain.writer.get(k, 0)) for k in keys)
    assert batched.possible == plain.possible
    assert batched.dirty == plain.dirty
    assert batched.dirty == (set() if cond is False else set(_keys(first)))


def _keys(names: StackVars) -> list[str]:
    return [k for k in _stack_vars(names) if isinstance(k, str)]


def _pairs(dest: StackVars, source: StackVars, w: work.SymWork) -> list[tuple[str, Val]]:
    """Slot ``dest`` := the values slot ``source`` holds."""
    return [(k, w[s]) for k, s in zip(_stack_vars(dest), _stack_vars(source), strict=True)]
