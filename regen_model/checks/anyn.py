r"""Proofs for any number of permanents: the per-permanent abstraction as a transition system.

Permanents are an uninterpreted sort ``Perm`` (ANCHORS R6): a frame gives each field of the
local record (``local.py``) as a function ``Perm -> Int/Bool``, so a frame describes any
number of permanents at once. The relation of a step is ``forall x. step_k(x)`` where each
``x`` has its own free inputs (Skolem functions of ``x``): that is the havoc of everything
else. An invariant "for every permanent c, P(c)" becomes ``forall x. P(x)``; its initiation
and consecution per action kind are proved by the same engine as the bounded proofs
(``induction.prove``), whose negated goal ``exists x. not P(x)`` Z3 skolemizes.

The sort has no size bound, so a proof here holds for every number of permanents (and
every printed card: the printed characteristics are functions of ``x`` too).

Every formula is *monadic* in ``x``: it mentions one permanent and applies functions to it
directly, never to another permanent. So ``(forall x. H(x)) and (forall x. T(x)) and (exists x.
not P(x))`` is unsatisfiable exactly when ``H(x0) and T(x0) and not P(x0)`` is, for a fresh
``x0``: a model of the latter is a model of the former with ``Perm = {x0}``, and the former
implies the latter by instantiating at the witness. By default the queries are built in this
instantiated, quantifier-free form, which Z3 answers in milliseconds where MBQI takes seconds;
``LocalSystem(quantified=True)`` builds the quantified form, and a test checks that both give
the same verdicts. A failed
consecution is reported as CTI, never VIOLATED: a run of the abstraction need not be a run of
the rules. Only invariants of the right shape (``Invariant.local``) whose fields the record
keeps are attempted; the others are SKIPPED with the field that is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from regen_model.checks import induction, local
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result
from regen_model.checks.solver import Budget
from regen_model.checks.system import Tracked
from regen_model.encoding.outputs import CARD_FIELDS as OUTPUT_FIELDS
from regen_model.invariants import expr as E
from regen_model.invariants.spec import Invariant, Kind
from regen_model.invariants.symbolic import Z3Ops
from regen_model.invariants.view import Slot, Value, evaluate
from regen_model.verdicts import Verdict

Z3Ref = Any
KINDS: tuple[str, ...] = tuple(local.EFFECTS)


@cache
def perm_sort() -> Z3Ref:
    return z3.DeclareSort("Perm")


def _fn(name: str, sort: Z3Ref) -> Z3Ref:
    return _declared(name, sort.kind())


@cache
def _declared(name: str, kind: int) -> Z3Ref:
    """The function symbol ``name: Perm -> Int/Bool`` (declared once: a record has dozens of
    fields and every step and frame asks for them again)."""
    sort = z3.BoolSort() if kind == z3.Z3_BOOL_SORT else z3.IntSort()
    return z3.Function(name, perm_sort(), sort)


@dataclass(frozen=True)
class LocalFrame:
    """Every permanent's local record at one time: field name -> function of ``Perm``."""

    tag: str
    shields: int

    def rec(self, x: Z3Ref) -> local.Rec:
        return local.make_record(self.shields, lambda n, s: _fn(f"{self.tag}.{n}", s)(x))


class Unsupported(ValueError):
    """The invariant reads something the per-permanent record does not keep."""


class LocalView(Z3Ops):
    """A view of one permanent ``x`` of the abstraction (see ``invariants.view.View``)."""

    def __init__(
        self,
        post: local.Rec,
        st: local.Statics,
        pre: local.Rec | None = None,
        out: dict[str, Z3Ref] | None = None,
        kind: Z3Ref | None = None,
    ) -> None:
        self.post, self.st, self.pre, self.out, self.kind = post, st, pre, out, kind

    def _rec(self, time: E.Time) -> local.Rec:
        rec = self.pre if time == "pre" else self.post
        if rec is None:
            raise ValueError("a state property cannot read the pre-state")
        return rec

    def card_slots(self) -> Sequence[Slot]:
        raise Unsupported("other permanents")

    def shield_slots(self, card: Slot) -> Sequence[int]:
        return range(self.post.shields)

    def slot_index(self, card: Slot) -> Value:
        raise Unsupported("slot numbers")

    def card_int(self, card: Slot, name: str, time: E.Time) -> Value:
        rec = self._rec(time)
        if name in rec.v:
            return rec[name]
        raise Unsupported(f"the field {name!r}")

    def card_bool(self, card: Slot, name: str, time: E.Time) -> Value:
        rec = self._rec(time)
        if name == "on_battlefield":
            return rec.on_bf()
        if name == "is_creature":
            return rec["creature"]
        if name in rec.v:
            return rec[name]
        raise Unsupported(f"the field {name!r}")

    def static_int(self, card: Slot, name: str) -> Value:
        if name in self.st.v:
            return self.st[name]
        raise Unsupported(f"the printed field {name!r}")

    def static_bool(self, card: Slot, name: str) -> Value:
        if name == "creature":
            return self.st["printed_creature"]
        if name in self.st.v:
            return self.st[name]
        raise Unsupported(f"the printed field {name!r}")

    def shield_int(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        if name != "rider":
            raise Unsupported(f"the shield field {name!r}")
        return self._rec(time)[f"rider{j}"]

    def shield_bool(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        return self._rec(time)[f"{name}{j}"]

    def game_int(self, name: str, time: E.Time) -> Value:
        raise Unsupported(f"the game field {name!r}")

    def game_bool(self, name: str, time: E.Time) -> Value:
        raise Unsupported(f"the game field {name!r}")

    def output(self, name: str, card: Slot) -> Value:
        if self.out is None:
            raise ValueError("a state property cannot read step outputs")
        return self.out[name]

    def history(self, name: str, card: Slot) -> Value:
        raise Unsupported("run totals")

    def priority_given(self) -> Value:
        raise Unsupported("priority")

    def action_is(self, kinds: frozenset[str]) -> Value:
        if self.kind is None:
            raise ValueError("a state property cannot read the action")
        return z3.Or(*[self.kind == KINDS.index(k) for k in sorted(kinds) if k in KINDS])


@dataclass(frozen=True)
class LocalStep:
    pre: LocalFrame
    post: LocalFrame
    kind: Z3Ref
    tag: str
    system: LocalSystem

    def out(self, x: Z3Ref) -> dict[str, Z3Ref]:
        return {n: _fn(f"out{self.tag}.{n}", z3.IntSort())(x) for n in OUTPUT_FIELDS}

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        """One tracked constraint per clause label: for every permanent x, the parts of that
        label of the step of the chosen kind."""
        x = self.system.x
        st = statics_of(x)
        pre, post, out = self.pre.rec(x), self.post.rec(x), self.out(x)
        by_label: dict[str, list[Z3Ref]] = {}
        kinds = KINDS if kind is None else (kind,)
        for k in kinds:
            code = KINDS.index(k)

            def fresh(n: str, s: Z3Ref, k: str = k) -> Z3Ref:
                return _fn(f"free{self.tag}.{k}.{n}", s)(x)

            for label, f in local.step(k, pre, post, out, st, fresh):
                by_label.setdefault(label, []).append(z3.Implies(self.kind == code, f))
        tracked = [
            Tracked(label, self.system.forall(z3.And(*fs))) for label, fs in by_label.items()
        ]
        tracked.append(Tracked("kinds", z3.And(self.kind >= 0, self.kind < len(KINDS))))
        return tracked


def statics_of(x: Z3Ref) -> local.Statics:
    return local.make_statics(lambda n, s: _fn(f"st.{n}", s)(x))


class LocalSystem:
    """The per-permanent abstraction over the sort ``Perm`` (a ``TransitionSystem``)."""

    def __init__(self, shields: int = 2, *, quantified: bool = False) -> None:
        self.shields = shields
        self.quantified = quantified
        # the bound variable of the quantified form, or the witness of the instantiated one
        self.x = z3.Const("x" if quantified else "x0", perm_sort())

    def forall(self, body: Z3Ref) -> Z3Ref:
        """``forall x. body`` (the instantiated form: ``body`` at the witness)."""
        return z3.ForAll([self.x], body) if self.quantified else body

    @property
    def name(self) -> str:
        return f"per-permanent abstraction ({self.shields} shield slots, any number of permanents)"

    def action_kinds(self) -> Sequence[str]:
        return KINDS

    def kind_value(self, kind: str) -> Z3Ref:
        return z3.IntVal(KINDS.index(kind))

    def frame(self, tag: str) -> LocalFrame:
        return LocalFrame(tag, self.shields)

    def domain(self, frame: Any) -> list[Tracked]:
        rec = frame.rec(self.x)
        body = z3.And(*local.domain(rec), *local.static_domain(statics_of(self.x)))
        return [Tracked("scope:local", self.forall(body))]

    def init(self, frame: Any) -> list[Tracked]:
        return [Tracked("init", self.forall(z3.And(*local.init(frame.rec(self.x)))))]

    def step(self, pre: Any, post: Any, tag: str) -> LocalStep:
        return LocalStep(pre, post, z3.Int(f"kind@{tag}"), tag, self)

    def decode(self, model: Z3Ref, frames: Sequence[Any], steps: Sequence[Any]) -> LocalRun:
        universe = model.get_universe(perm_sort()) or []
        states = []
        for f in frames:
            per = []
            for x in universe:
                rec = f.rec(x)
                per.append({n: _value(model, t) for n, t in rec.v.items()})
            states.append(per)
        actions = [KINDS[model.eval(s.kind, model_completion=True).as_long()] for s in steps]
        return LocalRun(states, actions)


@dataclass(frozen=True)
class LocalRun:
    """A decoded abstract run: per frame, one record per permanent of the model."""

    states: list[list[dict[str, int | bool]]]
    actions: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"actions": self.actions, "permanents": self.states}


def _value(model: Z3Ref, term: Z3Ref) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


def local_property(system: LocalSystem, inv: Invariant) -> Property:
    """``forall x. P(x)`` for an invariant of shape ``Invariant.local``; raises
    ``Unsupported`` if P reads a field the local record does not keep."""
    shape = inv.local
    if shape is None:
        raise Unsupported("other permanents or game fields")
    var, body = shape

    x = system.x

    def state(frame: Any) -> Z3Ref:
        view = LocalView(frame.rec(x), statics_of(x))
        return system.forall(evaluate(body, view, {var: x}))

    def step(pre: Any, st: Any, post: Any) -> Z3Ref:
        view = LocalView(post.rec(x), statics_of(x), pre.rec(x), st.out(x), st.kind)
        return system.forall(evaluate(body, view, {var: x}))

    prop = (
        Property(inv.id, inv.kind, state=state, clauses=inv.clauses)
        if inv.kind is Kind.STATE
        else Property(inv.id, inv.kind, step=step, clauses=inv.clauses)
    )
    # Build it once now so that an unsupported field is reported before any solving.
    probe_pre, probe_post = system.frame("probe0"), system.frame("probe1")
    if inv.kind is Kind.STATE:
        prop.at_state(probe_post)
    else:
        prop.at_step(probe_pre, system.step(probe_pre, probe_post, "probe"), probe_post)
    return prop


def prove(
    invariants: Sequence[Invariant], budget: Budget, shields: int = 2, *, quantified: bool = False
) -> list[Result]:
    system = LocalSystem(shields, quantified=quantified)
    props: list[Property] = []
    results: list[Result] = []
    for inv in invariants:
        try:
            props.append(local_property(system, inv))
        except Unsupported as why:
            results.append(
                Result(
                    inv.id,
                    Method.ANY_N,
                    "any-n",
                    Verdict.SKIPPED,
                    reason=f"not about one permanent at a time (it reads {why})",
                )
            )
    for r in induction.prove(system, props, budget, bmc_depth=-1):
        verdict = Verdict.CTI if r.verdict is Verdict.VIOLATED else r.verdict
        reason = r.reason
        if r.verdict is Verdict.VIOLATED:
            reason = "an initial state of the abstraction violates it (not a real run)"
        results.append(
            Result(
                r.invariant,
                Method.ANY_N,
                f"any-n {r.obligation}",
                verdict,
                r.action,
                r.clauses,
                r.uses,
                r.seconds,
                reason,
                None,
                r.evidence,
            )
        )
    return results
