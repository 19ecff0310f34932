"""Evaluating the transition relation on concrete values, without a solver.

The relation is built by the rule functions of this package; given plain Python values for
the state, the printed cards and the action parameters, every operation folds to a constant
(``ops.py``), so running them *is* substituting the values into the relation and simplifying.
The result says whether the guard holds (and, if not, which clause's guard failed first), the
successor frame values, which clause wrote each variable, the step outputs, and any failed
obligation. ``relation.py`` builds the symbolic counterpart from the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from regen_model.encoding import params as P
from regen_model.encoding.frame import statics_values, values
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.scope import Scope
from regen_model.encoding.step import run
from regen_model.encoding.work import Context, GuardFailed, layout
from regen_model.model.actions import Action
from regen_model.model.rules import Rules
from regen_model.model.state import GameState, Setup

Concrete = dict[str, int | bool]


@dataclass(frozen=True)
class Evaluation:
    """The relation at one concrete (state, action) point."""

    enabled: bool
    failed: str | None = None  # label of the first false guard (when not enabled)
    post: Concrete = field(default_factory=dict)
    writers: dict[str, str] = field(default_factory=dict)  # last writer clause per variable
    outputs: dict[str, tuple[int, ...]] = field(default_factory=dict)
    priority_given: bool = False
    countered: int = 0
    obligations_failed: tuple[str, ...] = ()


@dataclass
class Prepared:
    """A state's frame values and printed cards, computed once for all of its actions."""

    scope: Scope
    state: GameState
    pre: Concrete
    statics: Concrete
    contexts: dict[Rules, Context] = field(default_factory=dict)

    def context(self, rules: Rules, params: Concrete) -> Context:
        base = self.contexts.get(rules)
        if base is None:
            base = self.contexts[rules] = Context.make(
                rules, self.scope, self.statics, params, eager=True
            )
            return base
        return base.with_params(params)


def prepare(state: GameState, scope: Scope) -> Prepared:
    """Raises ``OutOfScope`` when the state or its cards do not fit ``scope``."""
    lay = layout(scope)
    return Prepared(
        scope, state, values(lay.frame, state), statics_values(lay.statics, state.setup)
    )


def statics_of(setup: Setup, scope: Scope) -> Concrete:
    return statics_values(layout(scope).statics, setup)


def evaluate(prep: Prepared, action: Action, rules: Rules) -> Evaluation:
    """The relation of ``action``'s kind at (state, parameters of ``action``)."""
    params = P.of_action(prep.state, action, prep.scope)
    return evaluate_params(prep, params, action.kind, rules)


def evaluate_params(prep: Prepared, params: Concrete, kind: str, rules: Rules) -> Evaluation:
    try:
        w = run(prep.context(rules, params), prep.pre, kind)
    except GuardFailed as failed:
        return Evaluation(enabled=False, failed=failed.label)
    # on concrete inputs nothing symbolic can appear; a term here is a bug of ``ops``
    post = w.v
    if not set(map(type, post.values())) <= {int, bool} or w.guards:
        unfolded = [k for k, v in post.items() if type(v) not in (int, bool)]
        raise TypeError(f"the relation did not fold to constants: {(unfolded or w.guards)[:3]}")
    writers = {key: w.writer_of(key) for key in w.writer}
    outputs = {f: tuple(int(x) for x in w.out[f]) for f in CARD_FIELDS}
    return Evaluation(
        enabled=True,
        post=post,
        writers=writers,
        outputs=outputs,
        priority_given=bool(w.out["priority_given"][0]),
        countered=int(w.out["countered"][0]),
        obligations_failed=tuple(label for label, cond in w.obligations if cond is False),
    )
