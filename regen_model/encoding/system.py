"""``RegenSystem``: the rules as a symbolic transition system (``checks.system``'s protocol).

A frame is one symbolic state (``frame.Frame``); a step relates two frames through one action
whose parameters are fresh constants (``params.Params``). Each action kind is one disjunct,
made of tracked conjuncts (``relation.py``): unsat cores and counterexamples name rule
clauses. Printed cards are symbolic ``Statics`` shared by all frames, so a proof covers every
card the scope allows; pass ``setup`` to fix them to a scenario's cards, which also
specialises (and shrinks) the relation.

Legal start (``init``): the active player holds priority in a step with nothing in combat
(upkeep, main 1, beginning of combat, main 2 or end) on turn 1, nobody has passed, the stack
and the waiting triggers are empty, no state-based action is pending (a player only gets
priority after the 704.3 check, which also clears every deathtouch record), nothing is
attacking, blocking or ordered, no "until end of turn" effect is active (control, P/T,
keywords), every shield is unused and the ghost counters agree (``shields_made`` counts the
shields, nothing has been destroyed yet), cards off the battlefield are plain new objects
under their owner's control, and only Auras and Equipment on the battlefield are attached,
to a creature on the battlefield. This is the set of boards ``explore.starts`` builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from regen_model.checks.system import Slice, Tracked
from regen_model.encoding import cases as C
from regen_model.encoding import derived as D
from regen_model.encoding import params as P
from regen_model.encoding.frame import (
    NONE,
    Frame,
    Statics,
    pin_statics,
    read,
    read_statics,
    statics_values,
)
from regen_model.encoding.ops import and_, eq, or_, to_z3
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.relation import (
    KindRelation,
    Template,
    build_kind,
    instantiate_all,
    substitution,
)
from regen_model.encoding.scope import DEFAULT_SCOPE, Scope
from regen_model.encoding.work import Context, SymWork, layout
from regen_model.model.actions import Action
from regen_model.model.enums import Attachment, Decision, Step, Zone, ordinal
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Setup

START_STEPS: tuple[Step, ...] = (Step.UPKEEP, Step.MAIN1, Step.BEGIN_COMBAT, Step.MAIN2, Step.END)


@dataclass(frozen=True)
class Run:
    """A decoded run: ``states[0]`` is the start, ``actions[i]`` leads from ``states[i]`` to
    ``states[i + 1]``; ``setup`` holds the printed cards the solver chose."""

    setup: Setup
    states: tuple[GameState, ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class _Instance:
    """One kind's relation instantiated over a step's frames and parameters."""

    conjuncts: list[Tracked]
    obligations: list[Tracked]
    outputs: dict[str, tuple[Any, ...]]  # as ``RegenStep.outputs``, for this kind alone
    guards: int  # the first ``guards`` conjuncts are the guard, the others the effect
    successor: list[Any]  # (post variable, its value) pairs


@dataclass
class RegenStep:
    """One symbolic step ``pre -> post`` with fresh parameters (``StepEncoding``)."""

    system: RegenSystem
    pre: Frame
    post: Frame
    tag: str
    params: P.Params
    _outputs: dict[str, tuple[Any, ...]] | None = field(default=None, repr=False)
    _cache: dict[str, _Instance] = field(default_factory=dict, repr=False)
    _output_vars: dict[str, tuple[Any, ...]] | None = field(default=None, repr=False)
    _slices: dict[str, tuple[Slice, ...]] = field(default_factory=dict, repr=False)

    @property
    def kind(self) -> Any:
        return self.params.kind

    def _pairs(self) -> list[Any]:
        t = self.system.template
        if self.pre is t.pre and self.post is t.post and self.params is t.params:
            return []  # a step over the template itself: nothing to substitute
        return substitution(t, self.pre, self.post, self.params)

    def _instantiated(self, kind: str) -> _Instance:
        """The conjuncts, obligations and outputs of ``kind`` over this step's frames
        (cached; one substitution for all of them, since they share one term graph)."""
        found = self._cache.get(kind)
        if found is None:
            rel = self.system.relation(kind)
            conj = rel.conjuncts()
            n = self.system.scope.cards
            keys = layout(self.system.scope).keys
            outs = [rel.outputs[f][slot] for f in CARD_FIELDS for slot in range(n)]
            terms = instantiate_all(
                [c.formula for c in conj]
                + [c.formula for c in rel.obligations]
                + outs
                + [rel.priority_given, rel.countered]
                + [rel.values[key] for key in keys],
                self._pairs(),
            )
            k = len(conj)
            m = k + len(rel.obligations)
            o = m + len(outs) + 2
            outputs = {
                f: tuple(terms[m + j * n : m + (j + 1) * n]) for j, f in enumerate(CARD_FIELDS)
            }
            outputs["priority_given"] = (terms[o - 2],)
            outputs["countered"] = (terms[o - 1],)
            found = self._cache[kind] = _Instance(
                [Tracked(c.label, t) for c, t in zip(conj, terms[:k], strict=True)],
                [Tracked(c.label, t) for c, t in zip(rel.obligations, terms[k:m], strict=True)],
                outputs,
                len(rel.guards),
                list(zip(self.post.vars(), terms[o:], strict=True)),
            )
        return found

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        """Guard and effect of ``kind`` (with ``params.kind`` fixed to it), or of every kind
        as a disjunction selected by ``params.kind``; plus the parameter domains."""
        out = [Tracked("scope:params", f) for f in P.domain(self.params, self.system.scope)]
        kinds = [kind] if kind is not None else list(self.system.action_kinds())
        selectors = {k: self.params.kind == P.kind_code(k) for k in kinds}
        if kind is not None:
            out.append(Tracked("action", selectors[kind]))
            return out + self._instantiated(kind).conjuncts
        out.append(Tracked("action", z3.Or(*selectors.values())))
        for k in kinds:
            out += [
                Tracked(t.label, z3.Implies(selectors[k], t.formula))
                for t in self._instantiated(k).conjuncts
            ]
        return out

    def obligations(self, kind: str | None = None) -> list[Tracked]:
        """What the relation relies on (``sba.loop``), guarded by the kind like
        ``constraints``."""
        out = []
        for k in [kind] if kind is not None else self.system.action_kinds():
            sel = self.params.kind == P.kind_code(k)
            out += [
                Tracked(t.label, z3.Implies(sel, t.formula))
                for t in self._instantiated(k).obligations
            ]
        return out

    def slices(self, kind: str) -> tuple[Slice, ...]:
        """``kind``'s relation split into the cases of ``cases.py``, each built with its
        pins as constants and indexed by the successor variable and output constant each
        conjunct defines (``checks.system.Slice``). The output constants are
        ``output_vars``. Cached."""
        found = self._slices.get(kind)
        if found is not None:
            return found
        n = self.system.scope.cards
        out_vars = self.output_vars()
        post_names = [v.decl().name() for v in self.post.vars()]
        keys = layout(self.system.scope).keys
        index = dict(zip(keys, post_names, strict=True))
        made = []
        for case in C.cases(kind, self.system.scope):
            rel = self.system.relation(kind, case)
            conj = rel.conjuncts()
            outs = [rel.outputs[f][slot] for f in CARD_FIELDS for slot in range(n)]
            terms = instantiate_all(
                [c.formula for c in conj] + outs + [rel.priority_given, rel.countered],
                self._pairs(),
            )
            guards = [Tracked("scope:params", f) for f in P.domain(self.params, self.system.scope)]
            guards.append(Tracked("action", self.params.kind == P.kind_code(kind)))
            effects: dict[str, list[Tracked]] = {}
            for c, t in zip(conj, terms[: len(conj)], strict=True):
                if c.part == "guard":
                    guards.append(Tracked(c.label, t))
                else:
                    effects.setdefault(index[c.var], []).append(Tracked(c.label, t))
            defined = [out_vars[f][slot] for f in CARD_FIELDS for slot in range(n)]
            defined.append(out_vars["priority_given"][0])
            defined.append(out_vars["countered"][0])
            outputs = {
                var.decl().name(): Tracked("outputs", var == term)
                for var, term in zip(defined, terms[len(conj) :], strict=True)
            }
            made.append(
                Slice(
                    C.condition(self.pre, case),
                    tuple(guards),
                    {k: tuple(v) for k, v in effects.items()},
                    outputs,
                )
            )
        self._slices[kind] = tuple(made)
        return self._slices[kind]

    def output_vars(self) -> dict[str, tuple[Any, ...]]:
        """The step outputs as constants (``outputs``' layout), defined per action kind by
        ``output_equations``: a property read on them is one formula for every kind."""
        if self._output_vars is None:
            n = self.system.scope.cards
            out: dict[str, tuple[Any, ...]] = {
                f: tuple(z3.Int(f"{self.tag}.out.{f}.{slot}") for slot in range(n))
                for f in CARD_FIELDS
            }
            out["priority_given"] = (z3.Bool(f"{self.tag}.out.priority_given"),)
            out["countered"] = (z3.Int(f"{self.tag}.out.countered"),)
            self._output_vars = out
        return self._output_vars

    def with_output_vars(self) -> StepView:
        """This step with its outputs read from ``output_vars``."""
        return StepView(self, self.kind, self.output_vars())

    def output_equations(self, kind: str) -> list[Tracked]:
        """``output_vars`` equal ``kind``'s outputs (tracked as ``outputs``, not a clause)."""
        defined = self._instantiated(kind).outputs
        return [
            Tracked("outputs", var == term)
            for name, terms in defined.items()
            for var, term in zip(self.output_vars()[name], terms, strict=True)
        ]

    def functional(self, kind: str) -> tuple[list[Any], list[Any]]:
        """``kind``'s relation as a function: its guard (with the parameter domains and
        the kind fixed), and (post variable, value) pairs, each value a term over the
        pre-state and the parameters. The guard and ``post == value`` for every pair is
        ``constraints(kind)`` (the effect conjuncts are that equation, split by writer)."""
        inst = self._instantiated(kind)
        guard = [f for f in P.domain(self.params, self.system.scope)]
        guard.append(self.params.kind == P.kind_code(kind))
        guard += [t.formula for t in inst.conjuncts[: inst.guards]]
        return guard, inst.successor

    def for_kind(self, kind: str) -> StepView:
        """This step restricted to one action kind: its outputs are that kind's alone, so a
        property read on it does not carry the other kinds' terms."""
        return StepView(self, z3.IntVal(P.kind_code(kind)), self._instantiated(kind).outputs)

    @property
    def outputs(self) -> dict[str, tuple[Any, ...]]:
        """``outputs[field][slot]`` (Int terms, ``outputs.CARD_FIELDS``) and
        ``outputs["priority_given"][0]`` (Bool) and ``outputs["countered"][0]`` (Int), over
        every kind."""
        if self._outputs is None:
            rels = [(P.kind_code(k), self.system.relation(k)) for k in self.system.action_kinds()]
            terms: list[Any] = []
            for f in CARD_FIELDS:
                for slot in range(self.system.scope.cards):
                    term: Any = z3.IntVal(0)
                    for code, rel in rels:
                        term = z3.If(self.params.kind == code, rel.outputs[f][slot], term)
                    terms.append(term)
            given: Any = z3.BoolVal(False)
            countered: Any = z3.IntVal(0)
            for code, rel in rels:
                given = z3.If(self.params.kind == code, rel.priority_given, given)
                countered = z3.If(self.params.kind == code, rel.countered, countered)
            terms += [given, countered]
            done = instantiate_all(terms, self._pairs())
            n = self.system.scope.cards
            out = {f: tuple(done[k * n : (k + 1) * n]) for k, f in enumerate(CARD_FIELDS)}
            out["priority_given"] = (done[-2],)
            out["countered"] = (done[-1],)
            self._outputs = out
        return self._outputs


@dataclass(frozen=True)
class StepView:
    """A ``RegenStep`` read with other outputs or action-kind term: one kind's outputs
    (``RegenStep.for_kind``) or the output constants (``RegenStep.with_output_vars``)."""

    step: RegenStep
    kind: Any
    outputs: dict[str, tuple[Any, ...]]

    @property
    def pre(self) -> Frame:
        return self.step.pre

    @property
    def post(self) -> Frame:
        return self.step.post

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        return self.step.constraints(kind)


class RegenSystem:
    """The bounded symbolic model of ``rules`` at ``scope`` (see the module docstring)."""

    def __init__(
        self,
        scope: Scope = DEFAULT_SCOPE,
        rules: Rules = CORRECT,
        statics: Statics | None = None,
        setup: Setup | None = None,
    ) -> None:
        self.scope = scope
        self.rules = rules
        self.statics = statics if statics is not None else Statics.fresh(scope, "s")
        self.setup = setup
        self.template = Template.make(scope, self.statics)
        self._pinned = statics_values(layout(scope).statics, setup) if setup is not None else None
        self._kinds: dict[tuple[str, C.Case], KindRelation] = {}

    @property
    def name(self) -> str:
        return f"regen[{self.rules.name}; {self.scope.describe()}]"

    @property
    def symmetric(self) -> bool:
        """Card slots are interchangeable (``checks.symmetry``) unless the printed cards are
        pinned to a scenario's."""
        return self.setup is None

    def action_kinds(self) -> Sequence[str]:
        return P.ACTION_KINDS

    def kind_value(self, kind: str) -> Any:
        return z3.IntVal(P.kind_code(kind))

    def relation(self, kind: str, case: C.Case = ()) -> KindRelation:
        """The relation of one kind over the template frames (built once), or of one case
        of it (``cases.py``)."""
        key = (kind, case)
        if key not in self._kinds:
            self._kinds[key] = build_kind(self.template, kind, self.rules, self._pinned, case)
        return self._kinds[key]

    def frame(self, tag: str) -> Frame:
        return Frame.fresh(self.statics, tag)

    def domain(self, frame: Frame) -> list[Tracked]:
        out = [Tracked("scope:frame", f) for f in frame.domain()]
        if self.setup is not None:
            out += [Tracked("scope:setup", f) for f in pin_statics(frame.statics, self.setup)]
        else:
            out += [Tracked("scope:statics", f) for f in frame.statics.domain()]
        return out

    def step(self, pre: Frame, post: Frame, tag: str) -> RegenStep:
        return RegenStep(self, pre, post, tag, P.fresh(self.scope, tag))

    def template_step(self) -> RegenStep:
        """The step over the template's own frames and parameters: its relation is the
        built one as is, with no substitution (the consecution queries need one step, and
        substituting a kind's whole term graph into fresh frames cost seconds per scope)."""
        t = self.template
        return RegenStep(self, t.pre, t.post, "T", t.params)

    def init(self, frame: Frame) -> list[Tracked]:
        return [Tracked("init", f) for f in legal_start(frame, self.rules, self._pinned)]

    def decode(self, model: Any, frames: Sequence[Frame], steps: Sequence[RegenStep]) -> Run:
        """The run a model describes: printed cards, states and actions (with handles
        ``c0``, ``c1``, ... and player names ``A``, ``B``)."""
        setup = self.setup if self.setup is not None else read_statics(model, self.statics)
        states = tuple(read(model, f, setup) for f in frames)
        actions = []
        for i, st in enumerate(steps):
            values = {
                key: _value(model, var)
                for key, var in zip(layout(self.scope).param_keys, st.params.vars(), strict=True)
            }
            kind = P.ACTION_KINDS[int(values["kind"])]
            actions.append(P.to_action(values, kind, states[i], self.scope))
        return Run(setup, states, tuple(actions))


def _value(model: Any, term: Any) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


def legal_start(frame: Frame, rules: Rules, pinned: dict[str, Any] | None) -> list[Any]:
    """The formulas of ``init`` (module docstring)."""
    sc = frame.scope
    lay = layout(sc)
    svals = (
        pinned
        if pinned is not None
        else dict(zip(lay.static_keys, frame.statics.vars(), strict=True))
    )
    zero_params = {k: 0 for k in lay.param_keys}
    ctx = Context.make(rules, sc, svals, zero_params, eager=False)
    w = SymWork(ctx, dict(zip(lay.keys, frame.vars(), strict=True)))
    f = frame
    out: list[Any] = [
        f.turn == 1,
        z3.Or(*[f.step == ordinal(s) for s in START_STEPS]),
        f.priority == f.active,
        f.decision == ordinal(Decision.NONE),
        f.stack_size == 0,
        f.pending_size == 0,
        z3.Not(f.first_strike_step),
        z3.Not(f.declared),
        *[z3.Not(p) for p in f.passed],
        *[z3.Not(p.lost) for p in f.players],
        *[z3.Not(p.drew_empty) for p in f.players],
        z3.Not(to_z3(D.sba_pending(w))),
    ]
    for i, c in enumerate(f.cards):
        st = ctx.cards[i]
        on_bf = c.zone == ordinal(Zone.BATTLEFIELD)
        present = [s.present for s in c.shields]
        plain_new = z3.And(
            c.control == to_z3(st.owner),
            z3.Not(c.tapped),
            c.damage == 0,
            c.plus == 0,
            c.minus == 0,
            c.shield_counters == 0,
            z3.Not(c.cant_regen),
            *[z3.Not(s) for s in present],
        )
        # ``or_`` of no host is False (a bare ``z3.Or()`` prints as an undeclared symbol)
        host_ok = to_z3(
            or_(
                *[
                    and_(eq(c.attached_to, j), D.creature_on_battlefield(w, j))
                    for j in range(sc.cards)
                    if j != i
                ]
            )
        )
        out += [
            z3.Not(c.attacking),
            c.blocking == NONE,
            c.blocking_also == NONE,
            z3.Not(c.blocked),
            z3.Not(c.first_striker),
            z3.Not(c.ordered),
            c.order_pos == NONE,
            c.order_pos_also == NONE,
            z3.Not(c.deathtouched),
            c.control_eot == NONE,
            c.power_eot == 0,
            c.toughness_eot == 0,
            *[z3.Not(k) for k in (*c.kw_granted, *c.kw_removed)],
            *[z3.Not(s.used) for s in c.shields],
            c.ghost.shields_made == z3.Sum(*[z3.If(p, 1, 0) for p in present]),
            c.ghost.destructions == 0,
            c.ghost.by_shield == 0,
            c.ghost.by_static == 0,
            c.ghost.by_other == 0,
            z3.Implies(z3.Not(on_bf), plain_new),
            z3.Not(c.animated),
            z3.Not(c.noncreature),
            c.prevent_next == 0,
            z3.Not(c.prevent_all),
            z3.Not(c.exile_if_dies),  # no start has a "this turn" exile-instead effect
            c.remove_damage == 0,  # nor a Pyramids effect
            c.phased_out == NONE,
            c.eoc_destroy == 0,  # no start is in a combat with a Basilisk's delayed trigger
            c.eoc_destroy_by == NONE,
            z3.Implies(z3.Not(to_z3(st.creature)), c.damage == 0),
            z3.Implies(
                c.attached_to != NONE,
                z3.And(on_bf, to_z3(st.attachment) != ordinal(Attachment.NONE), host_ok),
            ),
        ]
    # 404.2: a start's graveyards hold only its cards there, one group each in slot order,
    # no spell (``model.build.make_state``; ``Start.from_state``)
    for q, pv in enumerate(f.players):
        mine = [
            z3.And(c.zone == ordinal(Zone.GRAVEYARD), to_z3(ctx.cards[i].owner) == q)
            for i, c in enumerate(f.cards)
        ]
        count = [z3.If(m, 1, 0) for m in mine]
        out.append(pv.gy_size == z3.Sum(0, *count))
        for i, c in enumerate(f.cards):
            out.append(z3.Implies(mine[i], c.gy_pos == z3.Sum(1, *count[:i])))
    return out
