"""Case splits of an action kind's relation, for the consecution proofs.

The ``pass`` relation holds every way a pass can go (priority to the other player, the top
object resolving, the step ending and the next one's turn-based actions), merged with ``If``
into one term graph, and the state-based-action loop after it runs over those merged values.
A solver then has to reason about all of them at once. Built once per *case*, with the
variables that choose the way pinned to constants (``relation.build_kind``'s ``case``), each
case's relation keeps only the branches that case can take, and a proof obligation is asked
once per case.

This is sound and complete when the cases cover the kind's domain: every predecessor the
frame's domain allows has its pinned variables equal to one case's values. The prover
(``checks.induction``) asks a solver to confirm that, over the cases' ``condition``s, before it
trusts an answer made of per-case answers: the split is checked, not assumed.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from regen_model.encoding.frame import Frame
from regen_model.encoding.scope import Scope
from regen_model.encoding.work import layout

Case = tuple[tuple[str, int], ...]  # (frame variable, value) pins

# The predecessor variables each kind is split on, with their ranges (``Frame.domain``).
# ``pass``: an empty stack ends the step (the next step's turn-based actions, such as combat
# damage, run in it), a non-empty one resolves its top object. Splitting on who has priority
# or on the step was measured too and cost more than it saved (docs/proofs.md).
SPLITS: dict[str, tuple[str, ...]] = {"pass": ("stack_size",)}


def _range(key: str, scope: Scope) -> range:
    if key == "stack_size":
        return range(scope.stack + 1)
    raise KeyError(f"no case range for frame variable {key!r}")


def cases(kind: str, scope: Scope) -> tuple[Case, ...]:
    """The cases of ``kind`` at ``scope`` (one empty case when it is not split)."""
    keys = SPLITS.get(kind, ())
    if not keys:
        return ((),)
    ranges = [_range(k, scope) for k in keys]
    return tuple(tuple(zip(keys, values, strict=True)) for values in itertools.product(*ranges))


def condition(frame: Frame, case: Case) -> Any:
    """``case`` as a formula over ``frame``."""
    by_key = dict(zip(layout(frame.statics.scope).keys, frame.vars(), strict=True))
    return z3.And(*[by_key[k] == v for k, v in case]) if case else z3.BoolVal(True)
