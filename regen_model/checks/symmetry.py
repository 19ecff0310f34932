"""Card slots are interchangeable: a proof obligation about every card needs one representative.

Why it is sound. Rename the card slots by a permutation ``pi`` (card ``i`` becomes card
``pi(i)``, and every field that holds a slot, such as ``attached_to``, ``blocking``, a target
or a 616.1 answer naming an Aura, is renamed the same way). The bounded encoding treats slots
alike, so renaming maps

* a frame in the domain, a legal start and a state satisfying a catalog invariant to the same
  kind of frame (the domain, ``init`` and every invariant are formulas that quantify over all
  slots, or read none);
* a step of the relation to a step of the relation: the successor of the renamed state under
  the renamed parameters is the renamed successor, on every card field, every step output and
  every scalar game field. (Only the order in which several triggers created by one step wait
  or go on the stack may differ, since simultaneous events are taken in slot order; no
  invariant reads that order, only the sizes.)

So when a consecution query "hypotheses, a step, and some card c breaks P(c)" has a model
with c = i, renaming by the swap of 0 and i gives a model with c = 0: asking about card 0 alone
is enough. Nested "for every card" binders need one representative per pattern of equalities
with the cards already chosen: the second binder takes card 0 (the same card) or card 1 (any
other card), the third 0, 1 or 2, and so on. Only binders in positive position are reduced
(a ``for all`` the property asserts, possibly under conjunctions and the consequent of an
implication); everything else, the hypotheses included, is evaluated over every slot.

When no binder is reduced (the property says nothing of a particular card: a sum over every
card compared with the stack's size, as ``inv.damage-trigger.kept`` does), the negated property
is itself invariant under renaming, and the renaming can be chosen to *sort* the slots instead:
by a per-card key read the same way on every slot (the body of the property's first sum or
count over every card), any model of "hypotheses, a step, and the property broken" renamed
so that the keys go down from slot 0 is again such a model. So the query may also require
``key(0) >= key(1) >= ... >= key(n-1)`` (``ordered``): a symmetry-breaking constraint,
satisfiable together with the rest exactly when the rest is. It cuts the orderings of the
same counterexample the solver would otherwise refute one by one (docs/proofs.md).

``tests/checks/test_symmetry.py`` checks the premise on the relation itself: for random states
and parameters from engine runs, evaluating the relation on the renamed inputs gives the
renamed outputs, for every action kind. A system that is not symmetric (a ``RegenSystem`` pinned
to a scenario's cards, the toy systems) says so with ``symmetric = False`` and gets the full
property.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from regen_model.invariants import expr as E
from regen_model.invariants.view import Slot, UnboundVariable, Value, View, evaluate


def is_symmetric(system: Any) -> bool:
    """Whether ``system`` declares its card slots interchangeable (``symmetric = True``)."""
    return bool(getattr(system, "symmetric", False))


def representative(formula: E.BoolExpr, view: View) -> Value:
    """``formula`` with its positive ``all_cards`` binders restricted to representative slots,
    or, when it has none, with the slots sorted by the key of ``ordered`` (``formula`` or
    not sorted).

    The result is implied by ``formula``; its negation is satisfiable together with symmetric
    constraints exactly when the negation of ``formula`` is (module docstring)."""
    return _reduced(formula, view)[0]


def sorts(formula: E.BoolExpr, view: View) -> bool:
    """Whether ``representative`` reduces ``formula`` by sorting the slots: it names no
    particular card (no positive binder) and has a per-card key (``ordered``), so its goal
    is a count over every card against game-wide values. The prover asks such goals by the
    preprocessing route first (``checks.induction.first_route``)."""
    return _reduced(formula, view)[1]


def _reduced(formula: E.BoolExpr, view: View) -> tuple[Value, bool]:
    """``representative``'s value, and whether it sorted the slots."""
    reduced: list[bool] = []
    value = _positive(formula, view, {}, reduced)
    if reduced:
        return value, False
    order = ordered(formula, view)
    if order is None:
        return value, False
    return view.or_([value, view.not_(order)]), True


def ordered(formula: E.BoolExpr, view: View) -> Value | None:
    """``key(0) >= key(1) >= ...`` over the card slots, the key the body of the first sum or
    count over every card in ``formula`` whose body reads no other card variable (a closed
    per-card term), or None when there is no such sum or only one slot."""
    slots = list(view.card_slots())
    if len(slots) < 2:
        return None
    for e in _walk(formula):
        if not isinstance(e, E.CardSum | E.CardCount):
            continue
        try:
            keys = [evaluate(e.body, view, {e.var: s}) for s in slots]
        except UnboundVariable:
            continue  # the body reads an outer card: not the same term on every slot
        if isinstance(e, E.CardCount):
            keys = [view.ite(k, view.int_const(1), view.int_const(0)) for k in keys]
        return view.and_([a >= b for a, b in pairwise(keys)])
    return None


def _walk(e: E.Expr) -> list[E.Expr]:
    """``e`` and its subexpressions, parents first, children left to right."""
    out = [e]
    for child in e.children():
        out += _walk(child)
    return out


def _positive(
    e: E.BoolExpr, view: View, bound: dict[E.CardVar, Slot], reduced: list[bool]
) -> Value:
    if isinstance(e, E.And):
        return view.and_([_positive(a, view, bound, reduced) for a in e.args])
    if isinstance(e, E.Implies):
        return view.or_(
            [
                view.not_(evaluate(e.antecedent, view, bound)),
                _positive(e.consequent, view, bound, reduced),
            ]
        )
    if isinstance(e, E.CardQuant) and e.kind == "all":
        reduced.append(True)
        chosen = _representatives(view, bound)
        return view.and_([_positive(e.body, view, {**bound, e.var: s}, reduced) for s in chosen])
    pending_of = getattr(view, "sba_pending_of", None)
    if (
        pending_of is not None
        and isinstance(e, E.Not)
        and isinstance(e.arg, E.GameBool)
        and e.arg.name == "sba_pending"
    ):
        # "no state-based action is pending" is "for every card, none about it, and none
        # about a player": a positive binder like the one above.
        reduced.append(True)
        return view.not_(pending_of(e.arg.time, _representatives(view, bound)))
    return evaluate(e, view, bound)


def _representatives(view: View, bound: dict[E.CardVar, Slot]) -> list[Slot]:
    """The slots a new positive binder takes: one per pattern of equality with the cards
    already bound (the same as one of them, or the first other slot)."""
    slots = list(view.card_slots())
    used = len(set(bound.values()))
    return slots[: min(used + 1, len(slots))]
