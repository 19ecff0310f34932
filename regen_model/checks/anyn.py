r"""Proofs for any number of permanents: the per-permanent abstraction as a transition system.

Permanents are an uninterpreted sort ``Perm`` (ANCHORS R6): a frame gives each field of the
local record (``local.py``) as a function ``Perm -> Int/Bool``, so a frame describes any
number of permanents at once, and the global record (``local.GLOBAL_INTS``) as constants. The
relation of a step is ``forall x. step_k(x)``, where each ``x`` has its own free inputs (Skolem
functions of ``x``: the havoc of everything else), the global step, and the attachment link
for every two permanents.

An invariant is read at *witnesses* (``_instances``): its "for every permanent" binders in
positive position are pulled out front, one fresh constant per nesting depth, so that its
negation names one or two permanents; the relation and the hypotheses are instantiated at
every witness (and pair of witnesses). Refuting that proves the invariant for every number
of permanents (and every printed card: the printed characteristics are functions of ``x``
too), since the witnesses are arbitrary and the instances are consequences of the universal
relation. Every formula but the attachment link is *monadic* in ``x``, so with one witness
this is even exact: ``(forall x. H(x)) and (forall x. T(x)) and (exists x. not P(x))`` is
unsatisfiable exactly when ``H(x0) and T(x0) and not P(x0)`` is. By default the queries are
built in this instantiated, quantifier-free form, which Z3 answers in milliseconds where MBQI
takes seconds; ``LocalSystem(quantified=True)`` builds the quantified form, and a test checks
that both give the same verdicts.

A failed consecution is reported as CTI, never VIOLATED: a run of the abstraction need not be
a run of the rules. An invariant that reads what the abstraction does not keep, or
quantifies over permanents where no witness can stand for them (a "some permanent" asserted,
a count), is SKIPPED with what it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from regen_model.checks import induction, local
from regen_model.checks.property import Property
from regen_model.checks.results import Method, Result, summarize
from regen_model.checks.solver import Budget
from regen_model.checks.system import Tracked
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
    """Every permanent's local record at one time (field name -> function of ``Perm``), and
    the global record (``local.GLOBAL_INTS``/``GLOBAL_BOOLS``: constants)."""

    tag: str
    shields: int

    def rec(self, x: Z3Ref) -> local.Rec:
        return _record(self.tag, self.shields, x.decl().name())

    def game(self) -> dict[str, Z3Ref]:
        return local.make_global(lambda n, s: z3.Const(f"{self.tag}.game.{n}", s))


# Records, statics and outputs of a permanent named by its constant, built once (a record has
# dozens of fields, and every step, frame and view asks for them again).


@cache
def _record(tag: str, shields: int, x: str) -> local.Rec:
    p = _perm(x)
    return local.make_record(shields, lambda n, s: _fn(f"{tag}.{n}", s)(p))


@cache
def _statics(x: str) -> local.Statics:
    p = _perm(x)
    return local.make_statics(lambda n, s: _fn(f"st.{n}", s)(p))


@cache
def _outputs(tag: str, x: str) -> dict[str, Z3Ref]:
    p = _perm(x)
    return local.make_outputs(lambda n, s: _fn(f"out{tag}.{n}", s)(p))


def _perm(name: str) -> Z3Ref:
    return z3.Const(name, perm_sort())


class Unsupported(ValueError):
    """The invariant reads something the abstraction does not keep."""


# The slot a sum over every permanent is read at (``LocalView.card_slots``): only step
# outputs whose total the global record keeps (``local.TOTALS``) can be read there.
TOTAL = "every permanent"


class LocalView(Z3Ops):
    """A view of the abstraction (see ``invariants.view.View``): a card is a term of sort
    ``Perm`` (a witness, see ``_instances``), or ``TOTAL`` inside a sum."""

    def __init__(
        self, post: LocalFrame, pre: LocalFrame | None = None, step: LocalStep | None = None
    ) -> None:
        self.post_frame, self.pre_frame, self.step = post, pre, step

    def frame(self, time: E.Time) -> LocalFrame:
        frame = self.pre_frame if time == "pre" else self.post_frame
        if frame is None:
            raise ValueError("a state property cannot read the pre-state")
        return frame

    def rec(self, card: Slot, time: E.Time) -> local.Rec:
        if isinstance(card, str):
            raise Unsupported("a field summed over every permanent")
        return self.frame(time).rec(card)

    def _step(self) -> LocalStep:
        if self.step is None:
            raise ValueError("a state property cannot read step outputs or the action")
        return self.step

    def card_slots(self) -> Sequence[Slot]:
        return [TOTAL]  # only sums get here (``_checked``)

    def shield_slots(self, card: Slot) -> Sequence[int]:
        return range(self.post_frame.shields)

    def slot_index(self, card: Slot) -> Value:
        return self.static_int(card, "slot")

    def card_int(self, card: Slot, name: str, time: E.Time) -> Value:
        rec = self.rec(card, time)
        if name in rec.v:
            return rec[name]
        raise Unsupported(f"the field {name!r}")

    def card_bool(self, card: Slot, name: str, time: E.Time) -> Value:
        rec = self.rec(card, time)
        if name == "on_battlefield":
            return rec.on_bf()
        if name == "is_creature":
            return rec["creature"]
        if name in rec.v:
            return rec[name]
        raise Unsupported(f"the field {name!r}")

    def statics(self, card: Slot) -> local.Statics:
        if isinstance(card, str):
            raise Unsupported("a printed field summed over every permanent")
        return statics_of(card)

    def static_int(self, card: Slot, name: str) -> Value:
        st = self.statics(card)
        if name in st.v:
            return st[name]
        raise Unsupported(f"the printed field {name!r}")

    def static_bool(self, card: Slot, name: str) -> Value:
        st = self.statics(card)
        if name == "creature":
            return st["printed_creature"]
        if name in st.v:
            return st[name]
        raise Unsupported(f"the printed field {name!r}")

    def shield_int(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        if name != "rider":
            raise Unsupported(f"the shield field {name!r}")
        return self.rec(card, time)[f"rider{j}"]

    def shield_bool(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        return self.rec(card, time)[f"{name}{j}"]

    def game_int(self, name: str, time: E.Time) -> Value:
        if name in local.GLOBAL_INTS:
            return self.frame(time).game()[name]
        raise Unsupported(f"the game field {name!r}")

    def game_bool(self, name: str, time: E.Time) -> Value:
        raise Unsupported(f"the game field {name!r} where it is not asserted false")

    def output(self, name: str, card: Slot) -> Value:
        step = self._step()
        if isinstance(card, str):
            if name not in local.TOTALS:
                raise Unsupported(f"the output {name!r} summed over every permanent")
            return step.game_out()[local.TOTALS[name]]
        return step.out(card)[name]

    def history(self, name: str, card: Slot) -> Value:
        raise Unsupported("run totals")

    def priority_given(self) -> Value:
        return self._step().game_out()["priority_given"]

    def countered(self) -> Value:
        # the global record's count of spells the resolving object countered (701.6a)
        return self._step().game_out()["countered"]

    def action_is(self, kinds: frozenset[str]) -> Value:
        kind = self._step().kind
        return z3.Or(*[kind == KINDS.index(k) for k in sorted(kinds) if k in KINDS])


def _checked(e: E.Expr, view: LocalView, bound: dict[E.CardVar, Slot]) -> Value:
    """``e`` evaluated as it is, where no permanent is chosen: it may read the permanents
    already bound, the game, and sums of outputs the global record totals; any other
    quantifier over permanents is unsupported."""
    for node in E.walk(e):
        if isinstance(node, E.CardQuant | E.CardCount):
            raise Unsupported("other permanents")
        if isinstance(node, E.CardSum) and not (
            isinstance(node.body, E.OutputInt)
            and node.body.card is node.var
            and node.body.name in local.TOTALS
        ):
            raise Unsupported("a sum over every permanent")
    return evaluate(e, view, bound)


def _instances(
    e: E.BoolExpr,
    view: LocalView,
    witnesses: Sequence[Z3Ref],
    goal: bool,
    bound: dict[E.CardVar, Slot] | None = None,
    depth: int = 0,
) -> Value:
    """``e`` with its "for every permanent" binders in positive position (under
    conjunctions and the consequents of implications; a negated "some permanent" or "a
    state-based action is pending" is one too) replaced by witnesses.

    ``goal``: each binder takes the witness of its nesting depth, so a formula with nested
    binders needs as many witnesses (``_depth``); what a consecution or initiation query
    refutes. Its validity for free witnesses is the formula's: the binders are in positive
    position, so pulling them out front (prenex form, one variable per depth; binders side by
    side may share one) gives an equivalent formula.

    Otherwise (a hypothesis): each binder is the conjunction over every witness, which the
    formula implies."""
    bound = bound or {}

    def go(sub: E.BoolExpr, b: dict[E.CardVar, Slot]) -> Value:
        return _instances(sub, view, witnesses, goal, b, depth + 1)

    def chosen() -> Sequence[Z3Ref]:
        if not goal:
            return witnesses
        if depth >= len(witnesses):
            raise ValueError(f"a goal of binder depth {depth + 1} on {len(witnesses)} witnesses")
        return [witnesses[depth]]

    if isinstance(e, E.And):
        return view.and_([_instances(a, view, witnesses, goal, bound, depth) for a in e.args])
    if isinstance(e, E.Implies):
        then = _instances(e.consequent, view, witnesses, goal, bound, depth)
        return view.or_([view.not_(_checked(e.antecedent, view, bound)), then])
    if isinstance(e, E.CardQuant) and e.kind == "all":
        return view.and_([go(e.body, {**bound, e.var: w}) for w in chosen()])
    if isinstance(e, E.Not) and isinstance(e.arg, E.CardQuant) and e.arg.kind == "any":
        inner = e.arg
        return view.and_([go(E.Not(inner.body), {**bound, inner.var: w}) for w in chosen()])
    if isinstance(e, E.Not) and isinstance(e.arg, E.GameBool) and e.arg.name == "sba_pending":
        # 704.3: nothing pending is "no player about to lose, and no permanent with an action"
        time = e.arg.time
        game = view.frame(time).game()
        per = [local.pending(view.rec(w, time), statics_of(w)) for w in chosen()]
        return z3.And(z3.Not(game["player_sba"]), *[z3.Not(p) for p in per])
    return _checked(e, view, bound)


def _depth(e: E.Expr) -> int:
    """How many witnesses ``_instances`` needs for ``e`` in goal form."""
    if isinstance(e, E.And):
        return max((_depth(a) for a in e.args), default=0)
    if isinstance(e, E.Implies):
        return _depth(e.consequent)
    if isinstance(e, E.CardQuant) and e.kind == "all":
        return 1 + _depth(e.body)
    if isinstance(e, E.Not) and isinstance(e.arg, E.CardQuant) and e.arg.kind == "any":
        return 1 + _depth(e.arg.body)
    if isinstance(e, E.Not) and isinstance(e.arg, E.GameBool) and e.arg.name == "sba_pending":
        return 1
    return 0


@dataclass(frozen=True)
class LocalStep:
    pre: LocalFrame
    post: LocalFrame
    kind: Z3Ref
    tag: str
    system: LocalSystem

    def out(self, x: Z3Ref) -> dict[str, Z3Ref]:
        return _outputs(self.tag, x.decl().name())

    def game_out(self) -> dict[str, Z3Ref]:
        return _game_outputs(self.tag)

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        """One tracked constraint per clause label: for every permanent x, the parts of that
        label of x's step of the chosen kind, linked to the global step; the global step;
        and for every two permanents, the attachment link."""
        system = self.system
        g0, g1, gout = self.pre.game(), self.post.game(), self.game_out()
        per: dict[str, list[Z3Ref]] = {}  # per permanent, over the system's instances
        game: dict[str, list[Z3Ref]] = {}
        kinds = KINDS if kind is None else (kind,)
        first, *others = system.instances()
        for k in kinds:
            code = KINDS.index(k)
            parts = _kind_parts(self.pre, self.post, self.tag, k, first.decl().name())
            for label, f in parts:
                guarded = z3.Implies(self.kind == code, f)
                per.setdefault(label, []).append(guarded)
                # the same constraint at another permanent: every term is a function of it
                per[label] += [z3.substitute(guarded, (first, x)) for x in others]
            for label, f in local.global_step(k, g0, g1, gout):
                game.setdefault(label, []).append(z3.Implies(self.kind == code, f))
        pairs = [
            local.attachment_link(
                self.pre.rec(a),
                self.post.rec(a),
                statics_of(h),
                self.out(h),
                self.out(a),
                self.post.rec(h),
            )
            for a, h in system.pair_instances()
        ]
        for label, f in pairs:
            per.setdefault(label, []).append(f)
        tracked = []
        for label in {**per, **game}:
            tracked.append(
                Tracked(
                    label,
                    z3.And(
                        *[system.close(f) for f in per.get(label, [])],
                        *game.get(label, []),
                    ),
                )
            )
        tracked.append(Tracked("kinds", z3.And(self.kind >= 0, self.kind < len(KINDS))))
        return tracked


@cache
def _game_outputs(tag: str) -> dict[str, Z3Ref]:
    return local.make_global_outputs(lambda n, s: z3.Const(f"out{tag}.game.{n}", s))


@cache
def _kind_parts(
    pre: LocalFrame, post: LocalFrame, tag: str, kind: str, x: str
) -> tuple[local.Part, ...]:
    """The parts of the step of ``kind`` on permanent ``x`` (``local.step``), linked to the
    global step of the frames ``pre`` and ``post``."""
    p = _perm(x)
    g0, g1 = pre.game(), post.game()
    link = local.Link(local.cleaned(kind, g0, g1), _game_outputs(tag)["priority_given"])

    def fresh(n: str, s: Z3Ref) -> Z3Ref:
        return _fn(f"free{tag}.{kind}.{n}", s)(p)

    rec0, rec1 = pre.rec(p), post.rec(p)
    return tuple(local.step(kind, rec0, rec1, _outputs(tag, x), statics_of(p), fresh, link))


def statics_of(x: Z3Ref) -> local.Statics:
    return _statics(x.decl().name())


class LocalSystem:
    """The per-permanent abstraction over the sort ``Perm`` with the global record (a
    ``TransitionSystem``). ``witnesses``: the permanents a goal names (one per nesting depth
    of its binders); the relation and every hypothesis hold for each of them."""

    # Permanents are interchangeable: a goal is read at its witnesses (``_instances``) and a
    # hypothesis at every witness (``induction._Consecution``).
    symmetric = True

    def __init__(self, shields: int = 2, *, witnesses: int = 1, quantified: bool = False) -> None:
        self.shields = shields
        self.quantified = quantified
        # the bound variables of the quantified form, or the witnesses of the instantiated one
        names = [f"x{i}" if quantified else f"w{i}" for i in range(max(2, witnesses))]
        self._bound = tuple(z3.Const(n, perm_sort()) for n in names)
        self.witnesses = self._bound[:witnesses]
        self.assumed: tuple[Property, ...] = ()  # state invariants already proved (``prove``)

    def instances(self) -> Sequence[Z3Ref]:
        """The permanents a per-permanent constraint is stated at: the bound variable of the
        quantified form, or every witness."""
        return self._bound[:1] if self.quantified else self.witnesses

    def pair_instances(self) -> Sequence[tuple[Z3Ref, Z3Ref]]:
        """The (attachment, host) pairs the attachment link is stated at: two bound
        variables, or every ordered pair of witnesses. (A witness paired with itself adds
        nothing, but two witnesses may be one permanent in a model: the link holds for a
        permanent and itself too, and the soundness test checks that pair as well.)"""
        if self.quantified:
            return [(self._bound[1], self._bound[0])]
        return [(a, h) for a in self.witnesses for h in self.witnesses if not a.eq(h)]

    def close(self, body: Z3Ref) -> Z3Ref:
        """``body`` for every permanent (or pair): the quantified form binds its variables."""
        if not self.quantified:
            return body
        free = [v for v in self._bound if _mentions(body, v)]
        return z3.ForAll(free, body) if free else body

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
        body = [
            self.close(z3.And(*local.domain(frame.rec(x)), *local.static_domain(statics_of(x))))
            for x in self.instances()
        ]
        return [
            Tracked("scope:local", z3.And(*body, *local.global_domain(frame.game()))),
            *[Tracked(f"inv:{p.id}", p.at_state(frame)) for p in self.assumed],
        ]

    def init(self, frame: Any) -> list[Tracked]:
        body = [self.close(z3.And(*local.init(frame.rec(x)))) for x in self.instances()]
        return [Tracked("init", z3.And(*body, *local.global_init(frame.game())))]

    def step(self, pre: Any, post: Any, tag: str) -> LocalStep:
        return LocalStep(pre, post, z3.Int(f"kind@{tag}"), tag, self)

    def decode(self, model: Z3Ref, frames: Sequence[Any], steps: Sequence[Any]) -> LocalRun:
        universe = model.get_universe(perm_sort()) or []
        states = []
        games = []
        for f in frames:
            per = []
            for x in universe:
                rec = f.rec(x)
                per.append({n: _value(model, t) for n, t in rec.v.items()})
            states.append(per)
            games.append({n: _value(model, t) for n, t in f.game().items()})
        actions = [KINDS[model.eval(s.kind, model_completion=True).as_long()] for s in steps]
        return LocalRun(states, games, actions)


def _mentions(body: Z3Ref, var: Z3Ref) -> bool:
    todo, seen = [body], set()
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if t.eq(var):
            return True
        todo.extend(t.children())
    return False


@dataclass(frozen=True)
class LocalRun:
    """A decoded abstract run: per frame, one record per permanent of the model, and the
    global record."""

    states: list[list[dict[str, int | bool]]]
    games: list[dict[str, int | bool]]
    actions: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"actions": self.actions, "permanents": self.states, "game": self.games}


def _value(model: Z3Ref, term: Z3Ref) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


def witnesses_needed(inv: Invariant) -> int:
    """How many witnesses the goal of ``inv`` names (at least one)."""
    return max(1, _depth(inv.formula))


def local_property(system: LocalSystem, inv: Invariant) -> Property:
    """``inv`` on the abstraction: as a hypothesis, at every witness; as a goal, at its
    witnesses (``_instances``). Raises ``Unsupported`` if it reads what the abstraction does
    not keep or quantifies over permanents where no witness can stand for them."""
    formula = inv.formula
    ws = system.witnesses

    def state(frame: Any, goal: bool = False) -> Z3Ref:
        return system.close(_instances(formula, LocalView(frame), ws, goal))

    def step(pre: Any, st: Any, post: Any, goal: bool = False) -> Z3Ref:
        return system.close(_instances(formula, LocalView(post, pre, st), ws, goal))

    if inv.kind is Kind.STATE:
        prop = Property(
            inv.id,
            inv.kind,
            state=state,
            clauses=inv.clauses,
            goal_state=lambda f: state(f, True),
        )
    else:
        prop = Property(
            inv.id,
            inv.kind,
            step=step,
            clauses=inv.clauses,
            goal_step=lambda pre, st, post: step(pre, st, post, True),
        )
    # Build it once now so that an unsupported field is reported before any solving.
    probe_pre, probe_post = system.frame("probe0"), system.frame("probe1")
    probe = system.step(probe_pre, probe_post, "probe")
    if inv.kind is Kind.STATE:
        prop.at_state(probe_post)
    else:
        prop.at_step(probe_pre, probe, probe_post)
    prop.goal_at_step(probe_pre, probe, probe_post, True)
    return prop


def prove(
    invariants: Sequence[Invariant], budget: Budget, shields: int = 2, *, quantified: bool = False
) -> list[Result]:
    """Every invariant on the abstraction, grouped by the witnesses its goal needs (one
    system per number, since every witness carries its own copy of the relation). The groups
    of more than one witness assume, at every witness, the state invariants the one-witness
    group proved (they hold in every reachable state, for any number of permanents)."""
    systems: dict[int, LocalSystem] = {}
    groups: dict[int, list[Property]] = {}
    results: list[Result] = []
    for inv in invariants:
        n = witnesses_needed(inv)
        system = systems.setdefault(n, LocalSystem(shields, witnesses=n, quantified=quantified))
        try:
            groups.setdefault(n, []).append(local_property(system, inv))
        except Unsupported as why:
            results.append(
                Result(
                    inv.id,
                    Method.ANY_N,
                    "any-n",
                    Verdict.SKIPPED,
                    reason=f"not applicable to the per-permanent abstraction (it reads {why})",
                )
            )
    state = [i for i in invariants if i.kind is Kind.STATE and witnesses_needed(i) == 1]
    proved: set[str] = set()
    for n, props in sorted(groups.items()):
        if n > 1:
            systems[n].assumed = tuple(
                local_property(systems[n], i) for i in state if i.id in proved
            )
        found = [_any_n(r) for r in induction.prove(systems[n], props, budget, bmc_depth=-1)]
        results += found
        if n == 1:
            proved = {s.invariant for s in summarize(found) if s.verdict is Verdict.PROVED}
    return results


def _any_n(r: Result) -> Result:
    """An induction result on the abstraction as an any-n row: a failed obligation is a CTI,
    never VIOLATED (a run of the abstraction need not be a run of the rules)."""
    verdict = Verdict.CTI if r.verdict is Verdict.VIOLATED else r.verdict
    reason = r.reason
    if r.verdict is Verdict.VIOLATED:
        reason = "an initial state of the abstraction violates it (not a real run)"
    return Result(
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
