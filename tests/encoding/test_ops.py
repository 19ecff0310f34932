"""The operators of ``encoding/ops.py`` mean on a Z3 term what they mean on numbers.

Each folds concrete operands to a Python value and takes shortcuts for mixed operands (a term
on one side, a number on the other); here every binary operator and ``select`` is compared,
at a few points, with a term on either side against the value on numbers. The agreement walk
evaluates the relation on numbers only, so a wrong shortcut for a term shows only in the
symbolic relation (issue 10, slice 7: ``sub`` with a number subtrahend).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import z3

from regen_model.encoding.ops import Val, add, eq, ge, gt, le, lt, max_, min_, ne, not_, select, sub

BINARY: list[Callable[[Val, Val], Val]] = [add, sub, eq, ne, lt, le, gt, ge, max_, min_]
POINTS = range(-2, 3)


def _value(term: Val, x: z3.ArithRef, at: int) -> Any:
    if not isinstance(term, z3.ExprRef):
        return term
    v = z3.simplify(z3.substitute(term, (x, z3.IntVal(at))))
    return z3.is_true(v) if z3.is_bool(v) else v.as_long()


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_a_binary_operator_on_a_term_and_a_number_means_its_value(
    op: Callable[[Val, Val], Val],
) -> None:
    x = z3.Int("x")
    for a in POINTS:
        for b in POINTS:
            want = op(a, b)
            assert _value(op(x, b), x, a) == want, (a, b)
            assert _value(op(a, x), x, b) == want, (a, b)


def test_select_gives_the_default_outside_the_items_for_a_number_and_a_term() -> None:
    """``items[index]``, or the default for an index outside ``0..len(items)-1``: NONE (-1)
    and one past the end alike."""
    items, default = [10, 11, 12], 99
    x = z3.Int("x")
    for index in range(-2, len(items) + 2):
        want = items[index] if 0 <= index < len(items) else default
        assert select(index, items, default) == want, index
        assert _value(select(x, items, default), x, index) == want, index


def test_not_of_a_term_means_its_negation() -> None:
    """``not_`` builds the negation through Z3's C API (``Z3_mk_not``): on a Bool term it
    means the opposite value at every point, and a double negation gives the term back."""
    b = z3.Bool("b")
    assert not_(b).sort() == z3.BoolSort()  # a term Z3 knows (a made-up node crashes Z3 below)
    for at in (False, True):
        value = z3.simplify(z3.substitute(not_(b), (b, z3.BoolVal(at))))
        assert z3.is_true(value) is (not at), at
    assert not_(not_(b)).eq(b)


def test_add_of_several_terms_and_numbers_means_their_sum() -> None:
    """``add`` folds its numbers into one and adds its terms one by one (the counters the
    relation bumps under many conditions, ``SymWork.add_if``, and the stack's sizes): with
    two or three terms among numbers it means their sum at every point (slice 14: a second
    term subtracted went unseen, each binary check has one term only)."""
    x, y, z = z3.Int("x"), z3.Int("y"), z3.Int("z")
    for a in POINTS:
        for b in POINTS:
            for c in POINTS:
                at = [(x, z3.IntVal(a)), (y, z3.IntVal(b)), (z, z3.IntVal(c))]
                for term, want in ((add(x, y), a + b), (add(x, 2, y, -1, z), a + b + c + 1)):
                    assert z3.simplify(z3.substitute(term, *at)).as_long() == want, (a, b, c)
