"""The folded evaluation of the relation against Z3's terms, point by point.

``evaluate.py`` evaluates the relation by running its rule functions on concrete values;
the proofs use the Z3 terms the same functions build on symbolic values. ``Z3Evaluator``
compiles those terms once per kind (``compiled.py``) and evaluates them at a concrete point,
so ``cross_check`` can confirm, on any sample of (state, action) points, that the two are the
same relation: same guard, same successor, same outputs, same obligations.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from regen_model.encoding import params as P
from regen_model.encoding.compiled import Compiled, compile_terms
from regen_model.encoding.evaluate import Concrete, Prepared, evaluate_params
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import layout
from regen_model.model.actions import Action


@dataclass(frozen=True)
class Z3Point:
    """The Z3 relation of one kind at one concrete point."""

    enabled: bool
    post: Concrete
    outputs: dict[str, tuple[int, ...]]
    priority_given: bool
    countered: int
    obligations: bool


class Z3Evaluator:
    """Compiled Z3 relations of ``system``, one per action kind (compiled on first use)."""

    def __init__(self, system: RegenSystem) -> None:
        self.system = system
        self._compiled: dict[str, Compiled] = {}

    def _inputs(self) -> list[z3.ExprRef]:
        t = self.system.template
        inputs = [*t.pre.vars(), *t.params.vars()]
        if self.system.setup is None:
            inputs += t.statics.vars()
        return inputs

    def compiled(self, kind: str) -> Compiled:
        if kind not in self._compiled:
            rel = self.system.relation(kind)
            keys = layout(self.system.scope).keys
            roots = [z3.And(*[c.formula for c in rel.guards])]
            roots += [rel.values[k] for k in keys]
            roots += [x for f in CARD_FIELDS for x in rel.outputs[f]]
            roots.append(rel.priority_given)
            roots.append(rel.countered)
            roots.append(z3.And(*[c.formula for c in rel.obligations]))
            self._compiled[kind] = compile_terms(roots, self._inputs())
        return self._compiled[kind]

    def evaluate(self, prep: Prepared, params: Concrete, kind: str) -> Z3Point:
        lay = layout(self.system.scope)
        inputs = [prep.pre[k] for k in lay.keys] + [params[k] for k in lay.param_keys]
        if self.system.setup is None:
            inputs += [prep.statics[k] for k in lay.static_keys]
        out = self.compiled(kind)(inputs)
        n_keys = len(lay.keys)
        n = self.system.scope.cards
        post = dict(zip(lay.keys, out[1 : 1 + n_keys], strict=True))
        rest = out[1 + n_keys :]
        outputs = {
            f: tuple(int(x) for x in rest[k * n : (k + 1) * n]) for k, f in enumerate(CARD_FIELDS)
        }
        return Z3Point(bool(out[0]), post, outputs, bool(rest[-3]), int(rest[-2]), bool(rest[-1]))


def cross_check(evaluator: Z3Evaluator, prep: Prepared, action: Action) -> list[str]:
    """Where the folded evaluation and Z3's terms differ at this point (empty: nowhere).
    Raises ``OutOfScope`` for an action the parameters cannot hold."""
    system = evaluator.system
    params = P.of_action(prep.state, action, prep.scope)
    folded = evaluate_params(prep, params, action.kind, system.rules)
    z = evaluator.evaluate(prep, params, action.kind)
    problems = []
    if folded.enabled != z.enabled:
        problems.append(f"guard: folded {folded.enabled}, z3 {z.enabled}")
    elif folded.enabled:
        problems += [
            f"{k}: folded {folded.post[k]}, z3 {z.post[k]}"
            for k in folded.post
            if folded.post[k] != z.post[k]
        ]
        problems += [
            f"out.{f}: folded {folded.outputs[f]}, z3 {z.outputs[f]}"
            for f in CARD_FIELDS
            if folded.outputs[f] != z.outputs[f]
        ]
        if folded.priority_given != z.priority_given:
            problems.append("out.priority_given")
        if folded.countered != z.countered:
            problems.append(f"out.countered: folded {folded.countered}, z3 {z.countered}")
        if (not folded.obligations_failed) != z.obligations:
            problems.append("obligations")
    return problems
