"""Operations on values that are either concrete Python values or Z3 terms.

The transition relation is written once, as Python functions over these operations (the
modules ``derived`` ... ``step`` of this package). Run on Z3 constants, the functions build the
symbolic relation that proofs use; run on plain ``int``/``bool`` values, every operation folds
to a constant and the same functions *evaluate* the relation: that is "substitute the concrete
state and simplify", done while the term is built instead of after, which is what makes the
agreement check fast (no Z3 call per state). Partly concrete inputs (printed cards fixed,
state symbolic) give a smaller, specialised relation.

The folding must mean exactly what Z3 means, or the two uses would describe different
relations. The rules kept here for that reason:

* ``bool`` and ``int`` are never mixed (Python's ``True + 1`` would silently be 2); Z3 terms
  are only built from values of the right sort (``_z``).
* integer operations are ``+``, ``-``, comparisons and ``If`` only: no division or modulo, whose
  Python and Z3 meanings differ on negative numbers.
* Python control flow never inspects a value: code that must branch on a value calls
  ``SymWork.branch`` (``work.py``), which runs one side for a concrete condition and both
  sides, merged with ``If``, for a symbolic one. ``tests/encoding/test_ops.py`` and the
  agreement check (which compares folded values with Z3's own evaluation on samples) guard
  this.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import z3

from regen_model.encoding.probe import ACTIVE

Val = Any  # bool | int | z3.ExprRef: z3 ships no type stubs, so this stays Any


def is_concrete(x: Val) -> bool:
    return type(x) is bool or type(x) is int


def _z(x: Val) -> Val:
    """``x`` as a Z3 term (numerals and Boolean literals for Python values)."""
    if type(x) is bool:
        return _bool_val(x)
    if type(x) is int:
        return _int_val(x)
    return x


@cache
def _int_val(x: int) -> Val:
    """Numerals are made once each: the relation uses the same few thousands of times, and
    a term is immutable (Z3 shares equal terms anyway)."""
    return z3.IntVal(x)


@cache
def _bool_val(x: bool) -> Val:
    return z3.BoolVal(x)


def to_z3(x: Val) -> Val:
    """``x`` as a Z3 term, for building formulas out of values."""
    return _z(x)


def same(a: Val, b: Val) -> bool:
    """``a`` and ``b`` are certainly the same value (used to avoid building ``If(c, x, x)``)."""
    if a is b:
        return True
    if is_concrete(a) and is_concrete(b):
        return type(a) is type(b) and bool(a == b)
    if isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        # Z3 shares structurally equal terms, so equal terms are one node: compare the
        # pointers instead of asking Z3 (the hottest call of a build)
        return bool(a.ctx is b.ctx and a.as_ast().value == b.as_ast().value)
    return False


def ite(c: Val, a: Val, b: Val) -> Val:
    probe = ACTIVE.get()
    if probe is not None:  # branch coverage of the relation (``probe.py``, ``paths.py``)
        probe.note(c)
    if c is True or c is False:
        return a if c else b
    if same(a, b):
        return a
    return _mk_ite(c, _z(a), _z(b))


def term_ite(c: Val, a: Val, b: Val) -> Val:
    """``If(c, a, b)`` for a symbolic ``c``, as a term only: unlike ``ite`` it is not a
    branch of the rules, so a coverage probe does not record it (``SymWork.add_if`` writes a
    value ``set_if`` has already recorded)."""
    return _mk_ite(c, _z(a), _z(b))


def _mk_ite(c: Val, a: Val, b: Val) -> Val:
    """``z3.If`` through the C API: building the symbolic relation makes tens of thousands
    of these, and the Python wrapper's coercions cost several times the node itself."""
    ctx = a.ctx
    ast = z3.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast())
    return z3.BoolRef(ast, ctx) if isinstance(a, z3.BoolRef) else z3.ArithRef(ast, ctx)


def _mk_nary(make: Any, xs: Sequence[Val]) -> Val:
    """``z3.And``/``z3.Or`` of Bool terms through the C API (as ``_mk_ite``): the wrapper
    casts and sort-checks every argument, and the relation builds many thousands of these.
    Z3's own checks stay: a term of the wrong sort still raises ``Z3Exception``."""
    ctx = xs[0].ctx
    args = (z3.Ast * len(xs))(*[x.as_ast() for x in xs])
    return z3.BoolRef(make(ctx.ref(), len(xs), args), ctx)


def not_(x: Val) -> Val:
    if type(x) is bool:
        return not x
    if z3.is_not(x):
        return x.arg(0)
    ctx = x.ctx
    return z3.BoolRef(z3.Z3_mk_not(ctx.ref(), x.as_ast()), ctx)


def and_(*xs: Val) -> Val:
    rest = []
    for x in xs:
        if x is False:
            return False
        if x is not True:
            rest.append(x)
    if not rest:
        return True
    if len(rest) == 1:
        return rest[0]
    return _mk_nary(z3.Z3_mk_and, rest)


def or_(*xs: Val) -> Val:
    rest = []
    for x in xs:
        if x is True:
            return True
        if x is not False:
            rest.append(x)
    if not rest:
        return False
    if len(rest) == 1:
        return rest[0]
    return _mk_nary(z3.Z3_mk_or, rest)


def implies(a: Val, b: Val) -> Val:
    return or_(not_(a), b)


def eq(a: Val, b: Val) -> Val:
    if is_concrete(a) and is_concrete(b):
        return bool(a == b)
    if a is b:
        return True
    za, zb = _z(a), _z(b)
    ctx = za.ctx
    return z3.BoolRef(z3.Z3_mk_eq(ctx.ref(), za.as_ast(), zb.as_ast()), ctx)


def ne(a: Val, b: Val) -> Val:
    return not_(eq(a, b))


def add(*xs: Val) -> Val:
    total = 0
    terms = []
    for x in xs:
        if type(x) is int:
            total += x
        else:
            terms.append(x)
    if not terms:
        return total
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out + total if total else out


def sub(a: Val, b: Val) -> Val:
    if type(a) is int and type(b) is int:
        return a - b
    if type(b) is int and b == 0:
        return a
    return _z(a) - _z(b)


def lt(a: Val, b: Val) -> Val:
    if type(a) is int and type(b) is int:
        return a < b
    return _z(a) < _z(b)


def le(a: Val, b: Val) -> Val:
    if type(a) is int and type(b) is int:
        return a <= b
    return _z(a) <= _z(b)


def gt(a: Val, b: Val) -> Val:
    return lt(b, a)


def ge(a: Val, b: Val) -> Val:
    return le(b, a)


def max_(a: Val, b: Val) -> Val:
    return ite(ge(a, b), a, b)


def min_(a: Val, b: Val) -> Val:
    return ite(le(a, b), a, b)


def b2i(x: Val) -> Val:
    """1 for true, 0 for false."""
    return ite(x, 1, 0)


def count(xs: Sequence[Val]) -> Val:
    """How many of the Boolean values ``xs`` are true."""
    return add(*[b2i(x) for x in xs])


def select(index: Val, items: Sequence[Val], default: Val) -> Val:
    """``items[index]``, or ``default`` when ``index`` is outside ``0..len(items)-1``."""
    if type(index) is int:
        return items[index] if 0 <= index < len(items) else default
    out = default
    for i in range(len(items) - 1, -1, -1):
        out = ite(eq(index, i), items[i], out)
    return out
