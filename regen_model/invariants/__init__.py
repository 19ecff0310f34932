"""Invariants written once, evaluated on engine states (monitors) and Z3 frames (proofs).

The public API, also what a user's file under ``proofs/`` imports:

* declaring: ``invariant``, ``step_invariant`` (decorators), ``Invariant``, ``Kind``;
* building formulas: ``all_cards``, ``any_card``, ``count_cards``, ``sum_cards``,
  ``all_shields``, ``any_shield``, ``count_shields``, ``and_``, ``or_``, ``not_``,
  ``implies``, ``ite``, ``action_is``, ``priority_given``, ``countered`` (spells countered
  by the step, 701.6a), and the game views ``game``, ``pre``, ``post``;
* checking: ``monitor``, ``check_state``, ``check_step``, ``checked_step``, ``Violation``;
* catalogs: ``builtin``, ``load``.
"""

from regen_model.invariants.expr import (
    BoolExpr,
    IntExpr,
    action_is,
    and_,
    const,
    countered,
    implies,
    ite,
    not_,
    or_,
    priority_given,
)
from regen_model.invariants.loading import builtin, load
from regen_model.invariants.monitor import (
    InvariantViolated,
    Violation,
    check_state,
    check_step,
    checked_step,
    monitor,
)
from regen_model.invariants.spec import Invariant, InvariantError, Kind, invariant, step_invariant
from regen_model.invariants.vocabulary import (
    Card,
    Shield,
    all_cards,
    all_shields,
    any_card,
    any_shield,
    count_cards,
    count_shields,
    game,
    post,
    pre,
    sum_cards,
)

__all__ = [
    "BoolExpr",
    "Card",
    "IntExpr",
    "Invariant",
    "InvariantError",
    "InvariantViolated",
    "Kind",
    "Shield",
    "Violation",
    "action_is",
    "all_cards",
    "all_shields",
    "and_",
    "any_card",
    "any_shield",
    "builtin",
    "check_state",
    "check_step",
    "checked_step",
    "const",
    "count_cards",
    "count_shields",
    "countered",
    "game",
    "implies",
    "invariant",
    "ite",
    "load",
    "monitor",
    "not_",
    "or_",
    "post",
    "pre",
    "priority_given",
    "step_invariant",
    "sum_cards",
]
