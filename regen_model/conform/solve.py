"""A gap resolver that solves for what a log left out, on the Z3 encoding of the rules.

The enumeration resolver (``gaps.py``) lists candidate actions over small domains; a log that
leaves out an action with large parameters (7 damage, a +5/+5 pump) or a choice among many
options is beyond it. ``SolvingResolver`` asks the solver instead:

* a fully logged action runs once on the engine (the fast path, as in enumeration); a logged
  action missing only *lazy* fields (616.1 answers, a spell's targets, damage divisions) first
  runs with their defaults, which the engine accepts exactly when no choice was needed;
* otherwise the transition relation of the action's kind (of every kind in turn when the
  action itself is missing) is taken at the concrete state: the encoding's rule functions
  (``encoding.step.run``, from which ``encoding.relation`` builds ``RegenSystem``'s relation)
  run on the state's frame values (``encoding.frame.values``) and the printed cards of the
  trace's setup (``frame.statics_values``) with *symbolic* action parameters, which is the
  relation with its pre-state and statics pinned, already simplified; the logged fields of the
  action are pinned through the parameter record (``encoding.params.of_action``); the
  post-state's observed fields are constrained to the observation (``observed_constraints``),
  the unobserved ones are left free;
* each model is decoded into an engine ``Action`` (``params.to_action``) and **run on the
  engine, which decides**: a proposal the engine rejects, or whose successor does not match
  the observation, is only a failed attempt. The successor it leads to is then blocked and
  the solver asked again (so each proposal is a new successor for the frontier); when none of
  them matched, the free parameters' values are blocked instead (the engine's events, which
  the encoding lacks, may tell apart two actions with one successor). At most
  ``max_attempts`` engine runs per action kind, each query under an ``rlimit`` budget.

Parameter amounts are bounded by the values in sight (``amount_bound``), not by the encoding's
small search scope, so a log that omits "7 damage to the troll" is explained.

Not everything is solved: a state outside the encoding's scope (``OutOfScope``), a solver that
answers unknown, a step where the solver's proposals explain nothing (no model, or the engine
rejected them or their successors) or where they were cut at ``max_attempts`` falls back to
enumeration, so this resolver never
finds less than ``EnumerationResolver``, and ``name`` says where that happened. Observed events
are not constrained (the encoding has no event list; the checker compares the engine's).

``AutoResolver`` is the default of ``check-trace``: enumeration first (cheap on small
states), the solver only at steps where enumeration finds no successor that matches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import z3

from regen_model.checks.solver import Budget, Query, Status
from regen_model.conform.codec import default_of
from regen_model.conform.gaps import (
    Attempt,
    EnumerationResolver,
    GapResolver,
    run_attempt,
    spell_fields,
)
from regen_model.conform.itf import LoggedAction
from regen_model.conform.moves import choice_fields
from regen_model.conform.observe import Matcher, Observation
from regen_model.encoding import params as P
from regen_model.encoding.frame import NONE, Frame, statics_values, values
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    eq,
    implies,
    is_concrete,
    ite,
    ne,
    not_,
    sub,
    to_z3,
)
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.encoding.step import run
from regen_model.encoding.work import Context, layout
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import Step, Zone, ordinal
from regen_model.model.rules import Rules
from regen_model.model.state import GameState, Setup

Z3Ref = Any  # z3 ships no type stubs

MAX_ATTEMPTS = 16  # solver proposals per action kind at one step
SOLVE_BUDGET = Budget(rlimit=50_000_000, retries=1)
_MAX_SETUPS = 8  # traces whose scope a resolver remembers

# Which parameters (``params.names``) each action field is encoded in; a trailing ``*`` is a
# prefix. Fields absent here (a shield's origin, a spell's name) are not encoded.
_COMMON: dict[str, tuple[str, ...]] = {"choices": ("choice*",)}
_TARGET: dict[str, tuple[str, ...]] = {"target": ("target",)}
FIELD_PARAMS: dict[str, dict[str, tuple[str, ...]]] = {
    "create-shield": {**_TARGET, "rider": ("rider",), "creator": ("creator",)},
    "deal-damage": {
        "source": ("source",),
        "shares": ("share*",),
        "keywords": ("dmg_kw.*",),
        "controller": ("dmg_controller",),
        "combat": ("combat",),
        "cant_regen": ("cant_regen",),
    },
    "destroy": {"targets": ("seq*",), "cant_be_regenerated": ("cant_regen",)},
    "sacrifice": _TARGET,
    "exile": _TARGET,
    "leave-and-return": _TARGET,
    "make-unregenerable": _TARGET,
    "change-control": {**_TARGET, "player": ("player",), "until_end_of_turn": ("until_eot",)},
    "modify-pt": {**_TARGET, "power": ("power",), "toughness": ("toughness",)},
    "add-counters": {**_TARGET, "counter": ("counter",), "amount": ("amount",)},
    "grant-keyword": {**_TARGET, "keyword": ("keyword",), "remove": ("remove",)},
    "change-type": {**_TARGET, "creature": ("remove",)},  # creature is "not remove"
    "check-sba": {},
    "cleanup": {},
    "pass": {"player": ("player",)},
    "cast": {
        "player": ("player",),
        "effect": ("eff_*",),
        "sorcery": ("sorcery",),
        "targets": ("n_targets", "tgt*"),
    },
    "activate": {
        "player": ("player",),
        "source": ("target",),
        "ability": ("ability",),
        "target": ("n_targets", "tgt*"),  # equip's creature (702.6a)
    },
    "attach": {"attachment": ("source",), "target": ("target",)},
    "declare-attackers": {"player": ("player",), "attackers": ("seq*",)},
    "declare-blockers": {"player": ("player",), "blocks": ("blocks*",)},
    "order-blockers": {"player": ("player",), "attacker": ("target",), "order": ("seq*",)},
    "assign-combat-damage": {"player": ("player",), "divisions": ("div*",)},
}
_CLASSES: dict[str, type[A.Action]] = {cls.kind: cls for cls in A.ALL_ACTIONS}


def _keys_of(patterns: tuple[str, ...], keys: tuple[str, ...]) -> list[str]:
    out = []
    for key in keys:
        for p in patterns:
            if key == p or (p.endswith("*") and key.startswith(p[:-1])):
                out.append(key)
                break
    return out


def field_keys(kind: str, fields: list[str], keys: tuple[str, ...]) -> list[str]:
    """The parameter keys that encode ``fields`` of an action of ``kind``."""
    table = {**FIELD_PARAMS[kind], **_COMMON}
    patterns = tuple(p for f in fields for p in table.get(f, ()))
    return _keys_of(patterns, keys)


# --- the observation as constraints on the post-state -----------------------------------------


def observed_constraints(
    frame: Frame, post: Mapping[str, Val], state: GameState, observation: Observation
) -> list[Val]:
    """Conditions stating that the successor ``post`` (frame values, Python values or Z3
    terms, keyed by the field names of ``frame``, a frame of names as ``work.layout`` makes)
    shows ``observation``, as ``observe.card_rows`` projects a state.
    Off the battlefield only a card's zone is compared, as the checker does; power and
    toughness only for creatures. Events are not constrained. Every card and player the
    observation names must exist (``_known``). A condition that folds to ``False`` means no
    successor of this kind can match."""
    setup = state.setup
    handles, names = setup.handles, setup.player_names
    out: list[Val] = []
    for handle, rec in observation.cards.items():
        slot = handles.index(handle)
        c = frame.cards[slot]
        on_bf = eq(post[c.zone], ordinal(Zone.BATTLEFIELD))
        template = setup.templates[slot]

        def on(cond: Val, on_bf: Val = on_bf) -> None:
            out.append(implies(on_bf, cond))

        for name, value in rec.items():
            if name == "zone":
                out.append(eq(post[c.zone], ordinal(Zone(str(value)))))
            elif name == "controller":
                p = names.index(str(value))
                eot = post[c.control_eot]
                on(eq(ite(ne(eot, NONE), eot, post[c.control]), p))
            elif name in _CARD_INTS:
                on(eq(post[getattr(c, _CARD_INTS[name])], value))
            elif name in ("tapped", "attacking", "unregenerable"):
                on(eq(post[getattr(c, _CARD_BOOLS[name])], bool(value)))
            elif name in ("power", "toughness") and template.is_creature:
                on(eq(_pt(frame, post, setup, slot, name), value))
            elif name == "blocking":
                on(eq(ne(post[c.blocking], NONE), bool(value)))
            elif name == "shields":
                unused = add(
                    *[ite(and_(post[s.present], not_(post[s.used])), 1, 0) for s in c.shields]
                )
                on(eq(unused, value))
    for pname, prec in observation.players.items():
        pv = frame.players[names.index(pname)]
        for name, value in prec.items():
            # life, poison, hand, library: the frame's player variables of the same names
            out.append(eq(post[getattr(pv, name)], value))
    for name, value in observation.game.items():
        if name == "turn":
            out.append(eq(post[frame.turn], value))
        elif name == "step":
            out.append(eq(post[frame.step], ordinal(Step(str(value)))))
        elif name == "active":
            out.append(eq(post[frame.active], names.index(str(value))))
        elif name == "priority":
            out.append(eq(post[frame.priority], NONE if value is None else names.index(str(value))))
        elif name == "stack":
            out.append(eq(post[frame.stack_size], value))
    return out


_CARD_INTS = {
    "damage": "damage",
    "plus_counters": "plus",
    "minus_counters": "minus",
    "shield_counters": "shield_counters",
}
_CARD_BOOLS = {"tapped": "tapped", "attacking": "attacking", "unregenerable": "cant_regen"}


def _pt(frame: Frame, post: Mapping[str, Val], setup: Setup, slot: int, name: str) -> Val:
    """Power or toughness after all effects (``observe.card_rows``)."""
    c = frame.cards[slot]
    t = setup.templates[slot]
    power = name == "power"
    terms: list[Val] = [
        t.power if power else t.toughness,
        post[c.plus],
        sub(0, post[c.minus]),
        post[c.power_eot if power else c.toughness_eot],
    ]
    for j, other in enumerate(frame.cards):
        b = setup.templates[j].attach_bonus[0 if power else 1]
        if j != slot and b:
            attached = and_(
                eq(post[other.attached_to], slot),
                eq(post[other.zone], ordinal(Zone.BATTLEFIELD)),
            )
            terms.append(ite(attached, b, 0))
    return add(*terms)


def _known(state: GameState, observation: Observation) -> bool:
    setup = state.setup
    return (
        all(h in setup.handles for h in observation.cards)
        and all(p in setup.player_names for p in observation.players)
        and all(
            v in setup.player_names
            for k, v in observation.game.items()
            if k == "active" or (k == "priority" and v is not None)
        )
        and all(
            r.get("controller", setup.player_names[0]) in setup.player_names
            for r in observation.cards.values()
        )
    )


def amount_bound(state: GameState, observation: Observation, scope: Scope) -> int:
    """How large a damage, counter or P/T parameter the solver may choose: the largest value
    in sight (life, damage, counters, P/T, in the state and the observation), doubled, and at
    least the scope's ``max_amount``."""
    values = [scope.max_amount]
    for p in state.players:
        values += [abs(p.life), abs(p.poison)]
    for c in state.cards:
        values += [abs(c.damage), c.plus, c.minus, c.shield_counters]
        values += [abs(c.power_eot), abs(c.toughness_eot)]
    for t in state.setup.templates:
        values += [abs(t.power), abs(t.toughness)]
    for rec in (*observation.cards.values(), *observation.players.values()):
        values += [abs(v) for v in rec.values() if isinstance(v, int) and not isinstance(v, bool)]
    return 2 * max(values)


# --- the resolver -----------------------------------------------------------------------------


def _scope_for(state: GameState, base: Scope | None) -> Scope:
    """A scope the state and its successor fit: its cards, one more shield per card, one more
    stack object and waiting triggers for every card; at least ``base`` (so that a trace keeps
    one relation while its states grow)."""
    shields = max((len(c.shields) for c in state.cards), default=0) + 1
    targets = max((len(o.targets) for o in (*state.stack, *state.pending)), default=0)
    scope = Scope(
        cards=len(state.cards),
        shields=max(2, shields),
        stack=max(2, len(state.stack) + 1),
        pending=max(2, len(state.pending) + len(state.cards)),
        targets=max(2, targets),
        players=len(state.players),
    )
    if base is None:
        return scope
    return Scope(
        cards=scope.cards,
        shields=max(scope.shields, base.shields),
        stack=max(scope.stack, base.stack),
        pending=max(scope.pending, base.pending),
        targets=max(scope.targets, base.targets),
        players=scope.players,
    )


def _fits(scope: Scope, base: Scope) -> bool:
    return (
        scope.cards == base.cards
        and scope.players == base.players
        and scope.shields <= base.shields
        and scope.stack <= base.stack
        and scope.pending <= base.pending
        and scope.targets <= base.targets
    )


_PLACEHOLDERS: dict[str, Callable[[GameState], Any]] = {
    "player": lambda s: 0,
    "target": lambda s: s.setup.handles[0],
    "source": lambda s: s.setup.handles[0],
    "attacker": lambda s: s.setup.handles[0],
    "name": lambda s: "?",
    "effect": lambda s: Effect(EffectKind.DAMAGE),
    "shares": lambda s: (),
}


def _placeholder(cls: type[A.Action], name: str, state: GameState) -> Any:
    """A value for a field the log left out: its default, or any value of its type (the
    parameters it is encoded in stay free)."""
    default = default_of(cls, name)
    if default is not dataclasses.MISSING:
        return default
    make = _PLACEHOLDERS.get(name)
    return () if make is None else make(state)


@dataclass(frozen=True)
class _Goal:
    """One action kind to solve for: the parameters fixed by the log, the free ones that tell
    proposals apart, and the logged fields to copy into every decoded action."""

    kind: str
    fixed: dict[str, int | bool]
    free: tuple[str, ...]  # parameter keys blocked after each proposal (choices excluded)
    logged: dict[str, Any]


def absent_fields(logged: LoggedAction) -> list[tuple[str, bool]]:
    """The choice fields a logged action leaves out, each with whether it is lazy."""
    return [(n, lazy) for n, _, lazy in choice_fields(logged.kind) if n not in logged.fields]


class _Tally:
    """States (by identity, with their observation) per remark, for a resolver's name: the
    checker asks twice at a failing step (once more to explain it)."""

    def __init__(self) -> None:
        self.seen: dict[str, set[tuple[int, int]]] = {}

    def add(self, remark: str, state: GameState, observation: Observation) -> None:
        self.seen.setdefault(remark, set()).add((id(state), id(observation)))

    def count(self, remark: str) -> int:
        return len(self.seen.get(remark, ()))

    def describe(self, skip: str = "") -> list[str]:
        return [f"{r} ({_states(len(ids))})" for r, ids in self.seen.items() if r != skip]


def _states(n: int) -> str:
    return f"{n} state" if n == 1 else f"{n} states"


SOLVED = "solved"
CUT = "cut"  # a kind had more proposals than ``max_attempts``


class SolvingResolver:
    """Solves for the missing parts of a step on the Z3 encoding (module docstring).
    ``fallback`` is asked where the solver cannot help (enumeration by default)."""

    def __init__(
        self,
        budget: Budget = SOLVE_BUDGET,
        max_attempts: int = MAX_ATTEMPTS,
        fallback: GapResolver | None = None,
    ) -> None:
        self.budget = budget
        self.max_attempts = max_attempts
        self.fallback = fallback if fallback is not None else EnumerationResolver()
        self._scopes: dict[Setup, Scope] = {}
        self.tally = _Tally()  # SOLVED, and each reason to fall back

    @property
    def name(self) -> str:
        notes = self.tally.describe(skip=SOLVED)
        if not notes:
            return "z3"
        return f"z3 (and {self.fallback.name} where " + "; ".join(notes) + ")"

    def _fall_back(
        self,
        why: str,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]:
        self.tally.add(why, state, observation)
        yield from self.fallback.attempts(state, logged, observation, rules)

    # --- the relation at one state ----------------------------------------------------------

    def _scope(self, state: GameState) -> Scope:
        """The scope for ``state``: grown from the trace's previous one when needed (the
        layout and the printed cards' values are cached per scope)."""
        setup = state.setup
        base = self._scopes.get(setup)
        scope = _scope_for(state, base)
        if base is not None and _fits(scope, base):
            scope = base
        if len(self._scopes) >= _MAX_SETUPS:
            self._scopes.pop(next(iter(self._scopes)))
        self._scopes[setup] = scope
        return scope

    # --- attempts -----------------------------------------------------------------------------

    def attempts(
        self,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]:
        if logged is not None:
            absent = absent_fields(logged)
            if not absent or all(lazy for _, lazy in absent):
                fields = spell_fields(logged.cls, dict(logged.fields))
                for name, _ in absent:
                    fields[name] = _placeholder(logged.cls, name, state)
                try:
                    first = run_attempt(state, logged.cls(**fields), rules)
                except TypeError:  # pragma: no cover - unloggable_missing rejects it at load
                    first = None
                if first is not None and (first.error is None or not absent):
                    yield first  # fully logged, or no choice was needed
                    return
        if not _known(state, observation):  # nothing can match; enumeration shows why
            why = "the observation names an unknown card or player"
            yield from self._fall_back(why, state, logged, observation, rules)
            return
        try:
            scope = self._scope(state)
            at = _At.make(state, scope)
            goals = self._goals(state, logged, scope)
        except OutOfScope as exc:
            yield from self._fall_back(f"out of scope: {exc}", state, logged, observation, rules)
            return
        self.tally.add(SOLVED, state, observation)
        match = Matcher(observation, state.setup.handles, state.setup.player_names)
        matched = False
        unknown = ""
        cut = False
        for goal in goals:
            outcome: list[str] = []
            for attempt in self._solve(at, goal, observation, rules, match, outcome):
                result = attempt.result
                if result is not None and match(result.state, result.events):
                    matched = True
                yield attempt
            if outcome[0] == Status.UNKNOWN:
                unknown = outcome[1]
            cut = cut or outcome[0] == CUT
        if unknown:
            why = f"the solver gave up ({unknown})"
        elif not matched:
            why = "the solver found no matching successor"
        elif cut:
            why = f"proposals were cut at {self.max_attempts}"
        else:
            return
        yield from self._fall_back(why, state, logged, observation, rules)

    def _goals(self, state: GameState, logged: LoggedAction | None, scope: Scope) -> list[_Goal]:
        keys = tuple(P.names(scope).vars())
        if logged is None:
            goals = []
            for kind in P.ACTION_KINDS:
                free = field_keys(kind, list(FIELD_PARAMS[kind]), keys)
                goals.append(_Goal(kind, {"kind": P.kind_code(kind)}, tuple(free), {}))
            return goals
        cls = logged.cls
        fields = spell_fields(cls, dict(logged.fields))
        absent = [n for n, _, _ in choice_fields(logged.kind) if n not in fields]
        if cls is A.CastSpell and "name" not in fields:
            absent += ["effect", "sorcery"]  # they come with the spell
        complete = dict(fields)
        for name in absent:
            complete[name] = _placeholder(cls, name, state)
        try:
            action = cls(**complete)
        except TypeError as exc:  # pragma: no cover - unloggable_missing rejects it at load
            raise OutOfScope(f"cannot complete the logged action: {exc}") from None
        values = P.of_action(state, action, scope)
        present = [f.name for f in dataclasses.fields(cls) if f.name not in absent]
        fixed = {k: values[k] for k in field_keys(logged.kind, present, keys)}
        fixed["kind"] = P.kind_code(logged.kind)
        if values["malformed"]:
            raise OutOfScope("the logged action is malformed")
        free = field_keys(logged.kind, [n for n in absent if n != "choices"], keys)
        return [_Goal(logged.kind, fixed, tuple(free), fields)]

    def _solve(
        self,
        at: _At,
        goal: _Goal,
        observation: Observation,
        rules: Rules,
        match: Matcher,
        outcome: list[str],
    ) -> Iterator[Attempt]:
        """Proposals for one action kind, each run on the engine; ``outcome`` gets the last
        status (``CUT`` when ``max_attempts`` ran out) and the solver's reason.

        First one proposal per successor (each blocks the successor it leads to, so the
        frontier gets every state the relation allows, not one state many times); if none of
        them matches (the engine's events, which the encoding does not have, may tell two
        actions with one successor apart), one per value of the free parameters."""
        state, scope = at.state, at.scope
        outcome[:] = [Status.UNSAT, ""]
        step_of = at.relation(goal.kind, goal.fixed, rules)
        if step_of is None:
            return  # a guard is false whatever the parameters
        guards, post = step_of
        seen_cond = observed_constraints(layout(scope).frame, post, state, observation)
        conds = [c for c in (*guards, *seen_cond) if c is not True]
        if any(c is False for c in conds):
            return  # the observation rules this kind out whatever the parameters
        var = at.var
        base = [to_z3(c) for c in conds]
        base += _domain(scope, amount_bound(state, observation, scope))
        base += [var[k] == _val(v) for k, v in goal.fixed.items()]
        open_post = [to_z3(v) for v in post.values() if not is_concrete(v)]
        free = [var[k] for k in goal.free]
        runs: dict[A.Action, Attempt] = {}
        proposed: list[dict[str, int | bool]] = []

        def differs(terms: list[Z3Ref], model: Z3Ref) -> Z3Ref:
            return z3.Or(*[t != model.eval(t, model_completion=True) for t in terms])

        phases: list[tuple[list[Z3Ref], list[Z3Ref]]] = [(open_post, [])]
        if free:
            phases.append((free, free))
        for blocked, by_value in phases:
            query = Query(self.budget)
            query.add(*base)
            if not by_value:
                query.add(*_no_empty_shares(goal, var, scope))
            for old in proposed if by_value else []:
                query.add(z3.Or(*[var[k] != _val(old[k]) for k in goal.free]))
            while True:
                if len(runs) >= self.max_attempts or len(proposed) >= 4 * self.max_attempts:
                    outcome[:] = [CUT, ""]
                    return
                answer = query.check()
                outcome[:] = [answer.status, answer.reason]
                if answer.status is not Status.SAT:
                    break
                model = answer.model
                values = {k: _eval(model, v) for k, v in var.items()}
                proposed.append(values)
                if not blocked:
                    outcome[:] = [Status.UNSAT, ""]  # the only proposal: nothing is open
                    query.add(z3.BoolVal(False))
                else:
                    query.add(differs(blocked, model))
                try:
                    action = _decode(values, goal, state, scope)
                except (ValueError, IndexError, TypeError):
                    continue  # parameters no action can hold (the engine never sees them)
                if action in runs:
                    continue
                attempt = runs[action] = run_attempt(state, action, rules)
                yield attempt
            if outcome[0] != Status.UNSAT or any(
                a.result is not None and match(a.result.state, a.result.events)
                for a in runs.values()
            ):
                return


def _no_empty_shares(goal: _Goal, var: Mapping[str, Z3Ref], scope: Scope) -> list[Z3Ref]:
    """For the proposals per successor: every damage share the log left out deals something.
    A share of 0 deals no damage (120.8) and the relation treats it as absent, so this loses
    no successor and keeps shares of 0 out of the proposed action; the proposals per value
    of the free parameters still try them (the events may tell the two apart)."""
    p = P.names(scope)
    return [
        z3.Implies(var[present], var[amount] > 0)
        for present, amount in zip(p.share, p.share_amount, strict=True)
        if present in goal.free
    ]


@cache
def _params(scope: Scope) -> P.Params:
    return P.fresh(scope, "gap")


@cache
def _domain(scope: Scope, bound: int) -> tuple[Z3Ref, ...]:
    """The parameter domains with amounts up to ``bound`` (``params.domain``)."""
    return tuple(P.domain(_params(scope), replace(scope, max_amount=bound)))


@dataclass(frozen=True)
class _At:
    """The transition relation at one concrete state: the rule functions of the encoding run
    on the state's frame values, the printed cards' values and the action parameters, those
    the log gives as values and the others as Z3 constants (``encoding.step.run``, as
    ``encoding.relation.build_kind`` runs them on a symbolic frame). Every branch on a value
    folds away: what is left is a small formula over the missing parameters."""

    state: GameState
    scope: Scope
    pre: dict[str, int | bool]
    statics: dict[str, int | bool]
    var: dict[str, Z3Ref]  # parameter key -> its Z3 constant

    @staticmethod
    def make(state: GameState, scope: Scope) -> _At:
        lay = layout(scope)
        return _At(
            state,
            scope,
            values(lay.frame, state),  # raises OutOfScope
            statics_values(lay.statics, state.setup),
            dict(zip(lay.param_keys, _params(scope).vars(), strict=True)),
        )

    def relation(
        self, kind: str, fixed: Mapping[str, int | bool], rules: Rules
    ) -> tuple[list[Val], dict[str, Val]] | None:
        """The guards and the successor's values of ``kind`` with the parameters ``fixed``
        (``None`` when a guard is false whatever the other parameters)."""
        params: dict[str, Val] = {**self.var, **fixed}
        ctx = Context.make(rules, self.scope, self.statics, params, eager=False)
        w = run(ctx, self.pre, kind)
        guards = [cond for _, cond in w.guards]
        if any(cond is False for cond in guards):
            return None
        return guards, w.v


def _decode(values: dict[str, int | bool], goal: _Goal, state: GameState, scope: Scope) -> A.Action:
    action = P.to_action(values, goal.kind, state, scope)
    logged = {k: v for k, v in goal.logged.items() if k != "choices" or v}
    if isinstance(action, A.CastSpell) and "name" not in logged:
        for name, spell in SPELLS.items():
            if spell.effect == action.effect and spell.sorcery == action.sorcery:
                logged["name"] = name
                break
    if isinstance(action, A.CreateShield) and "origin" not in logged:
        logged["origin"] = "regeneration shield"
    return replace(action, **logged) if logged else action


def _val(v: int | bool) -> Z3Ref:
    return z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)


def _eval(model: Z3Ref, term: Z3Ref) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


class AutoResolver:
    """Enumeration first; the solver only where no enumerated attempt matches the observation
    and the log left something out (``check-trace --resolver auto``, the command's default).
    ``check_trace`` decides per step (``stages``); ``attempts`` decides per state."""

    def __init__(self, budget: Budget = SOLVE_BUDGET, max_attempts: int = MAX_ATTEMPTS) -> None:
        self.enumeration = EnumerationResolver()
        self.solver = SolvingResolver(budget, max_attempts, fallback=_Nothing())

    @property
    def stages(self) -> tuple[GapResolver, ...]:
        """For ``check_trace``: the solver is asked at a step only when enumeration finds no
        matching successor from any state of the frontier."""
        return (self.enumeration, self.solver)

    @property
    def name(self) -> str:
        tally = self.solver.tally
        used = (
            tally.count(SOLVED)
            + sum(len(ids) for ids in tally.seen.values())
            - len(tally.seen.get(SOLVED, ()))
        )
        if not used:
            return "auto: enumeration"
        notes = [f"z3 at {_states(tally.count(SOLVED))}"] if tally.count(SOLVED) else []
        notes += tally.describe(skip=SOLVED)
        return "auto: enumeration, " + "; ".join(notes)

    def attempts(
        self,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]:
        match = Matcher(observation, state.setup.handles, state.setup.player_names)
        matched = False
        for attempt in self.enumeration.attempts(state, logged, observation, rules):
            result = attempt.result
            if result is not None and match(result.state, result.events):
                matched = True
            yield attempt
        if matched or match.impossible or (logged is not None and not absent_fields(logged)):
            return  # explained, unexplainable, or nothing left out to solve for
        yield from self.solver.attempts(state, logged, observation, rules)


class _Nothing:
    """The solver's fallback inside ``AutoResolver``, where enumeration has already run."""

    name = "nothing"

    def attempts(
        self,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]:
        return iter(())


RESOLVERS: dict[str, Callable[[], GapResolver]] = {
    "enumerate": EnumerationResolver,
    "z3": SolvingResolver,
    "auto": AutoResolver,
}
