"""The symbolic transition relation of one action kind, as tracked conjuncts.

``build_kind`` runs the rule functions once on symbolic inputs (a template frame, template
parameters and the printed cards, symbolic or pinned) and turns the result into conjuncts:

* ``guard``: one conjunct per ``require``, labelled with its clause (or ``scope:...``);
* ``effect``: for every successor variable ``v`` and every clause ``c`` that may write it
  last, ``Implies(cond_c, post.v == value_v)`` labelled ``c``, and ``Implies(cond_none,
  post.v == value_v)`` labelled ``frame`` for "unchanged". The conditions partition the
  guarded space, so the conjunction is ``post.v == value_v``: every successor variable is a
  function of the predecessor and the parameters (deterministic by construction, and
  ``determinism_query`` checks it);
* ``obligations``: what the relation relies on without assuming it (``sba.loop``).

Building the ``pass`` kind takes seconds, so a kind is built once per system and
instantiated for each step by substituting the step's frames and parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.encoding import params as P
from regen_model.encoding.frame import Frame, Statics
from regen_model.encoding.ops import Val
from regen_model.encoding.ops import to_z3 as _z
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.scope import Scope
from regen_model.encoding.step import run
from regen_model.encoding.work import Context, clause_name, layout
from regen_model.model.rules import Rules

Z3 = Any  # z3 terms (no type stubs)


@dataclass(frozen=True)
class Conjunct:
    """A labelled formula: ``label`` is a clause ID, ``scope:...``, ``frame`` or ``action``."""

    label: str
    formula: Z3
    part: str  # "guard", "effect" or "obligation"
    var: str = ""  # for effects: the successor variable it defines


@dataclass(frozen=True)
class KindRelation:
    """One action kind over the template frame ``pre``/``post`` and parameters ``params``."""

    kind: str
    guards: tuple[Conjunct, ...]
    effects: tuple[Conjunct, ...]
    obligations: tuple[Conjunct, ...]
    outputs: dict[str, tuple[Z3, ...]]
    priority_given: Z3
    countered: Z3  # spells countered by the step (701.6a), an Int
    values: dict[str, Z3]  # each successor variable's value, by field name

    def conjuncts(self) -> list[Conjunct]:
        return [*self.guards, *self.effects]


@dataclass(frozen=True)
class Template:
    """The symbolic inputs a kind is built over."""

    scope: Scope
    statics: Statics
    pre: Frame
    post: Frame
    params: P.Params

    @staticmethod
    def make(scope: Scope, statics: Statics, tag: str = "T") -> Template:
        return Template(
            scope,
            statics,
            Frame.fresh(statics, f"{tag}.pre"),
            Frame.fresh(statics, f"{tag}.post"),
            P.fresh(scope, tag),
        )


def build_kind(
    template: Template,
    kind: str,
    rules: Rules,
    statics_values: dict[str, Val] | None = None,
    case: Sequence[tuple[str, int]] = (),
) -> KindRelation:
    """The relation of ``kind`` over ``template``. ``statics_values`` pins the printed cards
    to concrete values (a smaller, specialised relation); by default they are the template's
    symbolic ``Statics``.

    ``case`` pins predecessor variables to values (``cases.py``): the rule functions run
    with those values as constants, so the branches they decide are built on one side only,
    and one guard conjunct per pin (label ``scope:case``) states ``pre.v == value``. The
    result is the relation restricted to that case."""
    lay = layout(template.scope)
    svals = (
        dict(statics_values)
        if statics_values is not None
        else dict(zip(lay.static_keys, template.statics.vars(), strict=True))
    )
    pvals = dict(zip(lay.param_keys, template.params.vars(), strict=True))
    pre_vars = dict(zip(lay.keys, template.pre.vars(), strict=True))
    pre: dict[str, Val] = dict(pre_vars)
    pre.update(case)
    ctx = Context.make(rules, template.scope, svals, pvals, eager=False)
    w = run(ctx, pre, kind)
    pinned = [Conjunct("scope:case", pre_vars[key] == value, "guard") for key, value in case]
    guards = (*pinned, *(Conjunct(label, _z(cond), "guard") for label, cond in w.guards))
    effects: list[Conjunct] = []
    for key, post_var in zip(lay.keys, template.post.vars(), strict=True):
        equal = post_var == _z(w.v[key])
        writer = w.writer.get(key, 0)
        codes = sorted(w.possible.get(key, {0}))
        if type(writer) is int:
            effects.append(Conjunct(clause_name(writer), equal, "effect", key))
            continue
        for code in codes:
            formula = z3.Implies(_z(writer) == code, equal)
            effects.append(Conjunct(clause_name(code), formula, "effect", key))
    obligations = tuple(Conjunct(label, _z(cond), "obligation") for label, cond in w.obligations)
    outputs = {f: tuple(_z(x) for x in w.out[f]) for f in CARD_FIELDS}
    return KindRelation(
        kind,
        guards,
        tuple(effects),
        obligations,
        outputs,
        _z(w.out["priority_given"][0]),
        _z(w.out["countered"][0]),
        {key: _z(value) for key, value in w.v.items()},
    )


def substitution(template: Template, pre: Frame, post: Frame, params: P.Params) -> list[Any]:
    """Pairs mapping the template's variables to a step's."""
    pairs = list(zip(template.pre.vars(), pre.vars(), strict=True))
    pairs += zip(template.post.vars(), post.vars(), strict=True)
    pairs += zip(template.params.vars(), params.vars(), strict=True)
    if template.statics is not pre.statics:
        pairs += zip(template.statics.vars(), pre.statics.vars(), strict=True)
    return pairs


def instantiate(term: Z3, pairs: Sequence[Any]) -> Z3:
    """``z3.substitute(term, *pairs)`` through the C API: the Python wrapper checks the sorts
    of every pair on every call, which made instantiating a step's relation (thousands of
    conjuncts, hundreds of pairs) cost seconds per step; this costs a few percent of that."""
    if not pairs:
        return term
    n = len(pairs)
    src = (z3.Ast * n)()
    dst = (z3.Ast * n)()
    for i, (a, b) in enumerate(pairs):
        src[i] = a.as_ast()
        dst[i] = b.as_ast()
    ctx = term.ctx
    return z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), term.as_ast(), n, src, dst), ctx)


def instantiate_all(terms: Sequence[Z3], pairs: Sequence[Any]) -> list[Z3]:
    """``instantiate`` for many terms at once. The terms of a kind share one large DAG, and
    ``substitute`` walks its argument once: substituting them one by one would walk the
    shared part once per term. So they are packed as the arguments of one uninterpreted
    function application (which substitution does not rewrite) and unpacked afterwards."""
    if not terms or not pairs:
        return list(terms)
    pack = z3.Function("pack", *[t.sort() for t in terms], z3.BoolSort())
    out = instantiate(pack(*terms), pairs).children()
    assert len(out) == len(terms)
    return list(out)
