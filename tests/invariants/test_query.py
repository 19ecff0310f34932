"""The find query language: parsing, errors with columns, and meaning."""

from __future__ import annotations

import pytest

from regen_model.engine import step
from regen_model.invariants.concrete import ConcreteView
from regen_model.invariants.query import EXAMPLES, QueryError, example, parse
from regen_model.invariants.view import evaluate
from regen_model.model.actions import Destroy
from regen_model.model.enums import Zone

from .helpers import card, shields, state

S = state(card("troll", "Horned Troll", shields=shields(2)), card("bears", "Grizzly Bears"))


def holds(text: str) -> bool:
    return bool(evaluate(parse(text).formula, ConcreteView(S)))


def holds_after_destroy(text: str) -> bool:
    r = step(S, Destroy(targets=("troll", "bears")))
    from regen_model.encoding.outputs import outputs_of

    view = ConcreteView(r.state, S, outputs_of(S, r.events, r.state), "destroy")
    return bool(evaluate(parse(text).formula, view))


def test_state_queries() -> None:
    assert holds("exists c: c.unused_shields == 2")
    assert not holds("exists c: c.unused_shields == 3")
    assert holds("forall c: c.zone == battlefield")
    assert holds("count(c: c.creature) == 2 and step == main1")
    assert holds("exists c, d: c.shields > d.shields")
    assert holds("not (exists c: c.tapped)")
    assert holds("exists c: c.toughness - c.damage >= 2 implies c.on_battlefield")
    assert holds("c.shields == 2")  # free variables are existential


def test_step_queries() -> None:
    assert parse("step: regenerations[c] > 0").step
    assert holds_after_destroy("step: action == destroy and regenerations[c] == 1")
    assert holds_after_destroy("step: exists c: c.out.destroyed == 1 and c.post.zone == graveyard")
    assert holds_after_destroy("step: c.pre.tapped == false and c.post.tapped")
    assert not holds_after_destroy("step: action != destroy")
    assert parse("step: countered > 0").step and parse("countered == 0").step
    assert holds_after_destroy("step: countered == 0")
    assert not holds_after_destroy("step: countered >= 1")


def test_enum_literals_follow_the_field() -> None:
    q = parse("exists c: c.zone == exile")
    assert "IntConst(value=2)" in repr(q.formula)
    assert Zone.EXILE.value == "exile"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("exists c: c.zone == battlefeld", 21, "not a Zone"),
        ("c.colour > 1", 3, "no field 'colour'"),
        ("step: regen_taps[c] >", 22, "expected a value"),
        ("action == destroyy", 11, "unknown action kind"),
        ("exists c: c.tapped and", 23, "expected a value"),
        ("exists c: c.damage", 19, "condition"),
        ("c.tapped @ 1", 10, "unexpected character"),
        ("frobs[c] > 0", 1, "no step output 'frobs'"),
    ],
)
def test_errors_point_at_the_problem(text: str, column: int, message: str) -> None:
    with pytest.raises(QueryError) as err:
        parse(text)
    assert message in str(err.value)
    assert err.value.column == column


def test_examples_parse_and_are_named() -> None:
    assert len({e.name for e in EXAMPLES}) == len(EXAMPLES)
    for ex in EXAMPLES:
        parse(ex.query)
    assert example("shield-survives-cleanup").depth == 4
    with pytest.raises(KeyError):
        example("nope")
