"""Agreement on solver-chosen states: one state per branch of the relation.

The bounded agreement (``bounded.py``) compares the views on the states its searches reach;
a branch of the relation those states never take is a place where the views could differ
unnoticed. Here the solver picks the states: for every branch of the relation (both
outcomes of every site ``branches.relation_sites`` lists) and every action kind whose
relation passes the site, Z3 is asked for a state of the **state space** and parameters of
that kind under which the relation's folded evaluation takes that outcome there
(``paths.Paths.reach``; the action enabled if it can be, refused otherwise). The model is
decoded into an engine state and action (``frame.read``, ``params.to_action``), and both
views are compared on it by ``agreement.check_agreement``, exactly as the walk compares them.

The state space is what the induction proofs quantify over, plus the abstraction's image:

* ``RegenSystem.domain`` (the frame's types and shapes, the printed cards the scope allows)
  and the state invariants of the built-in catalog (``inv.shield.used-once``,
  ``inv.shield.made-this-turn``, ``inv.survival.needs-shields``), which ``verify``'s proofs
  section proves inductive: every reachable state satisfies them, so a state outside them is
  reachable by neither view and nothing either view does there can be observed;
* ``frame.representable``: the frame is the abstraction of some engine state (a frame
  outside that image is the image of no engine state, so the engine cannot be asked there);
* the ``well_formed`` facts that hold at every legal start and that every action kind keeps
  (proved before driving, Houdini-style: ``initiation``, ``_Driver.prove_all``).

Why nothing is lost outside it: along a run from a legal start, the first step at which the
views would differ starts from a state both reached the same way, so a reachable state of
the relation, and every part of the space holds there (each holds at the start and each
step keeps it). A state outside the space is reached by neither view.

Each branch ends as one of:

* ``agree`` / ``disagree``: a chosen state took it (the state chosen for it, or one chosen
  for another branch: every check's evaluation is measured, and a branch already taken is
  not asked for again), and the views agreed or not there;
* ``unreachable-in-scope``: no state of the space at ``DRIVEN_SCOPE`` takes it in any kind
  (unsat everywhere): a branch the scope's slots cannot reach, or one no legal state takes;
* ``unknown``: the solver gave up (rlimit) in some kind and found it in none;
* ``not-taken``: the solver found states, but the folded evaluation of none of them took
  the branch (``ATTEMPTS`` models per kind, each new one excluding the printed cards and
  parameters of the last): the evaluation specialises on concrete printed cards where the
  build cannot (``derived._base`` skips the animation ``If`` for a card with no animation
  ability), so ``reach`` over-approximates there.

Crossed targets (``cross``): a change that deletes a write made under a condition the
relation already tests (issue 10's "a creature whose controller changes stays in combat",
506.4, deletes the removal from combat under "the controller changed") leaves no branch of
its own, and shows only on a state taking the surviving branch *while* the deleted write
would have changed something: the creature was in combat. Whether the state the solver
chose for that branch had one was its luck (a new field in the frame changed the models and
the catch was lost). So every branch outcome is also asked for together with each card's
status in turn (``card_statuses``: attacking, blocking, enchanted or equipped, shielded,
damaged, tapped: what the rules' cross-cutting writes clear, 506.4, 704.5m, 400.7, 701.15a),
unless a state already checked took it with that status.

Rows (``driven_rows``): one per action kind (the branches first taken in that kind, states
checked, disagreements) and one for the branches no kind drove, each named.
"""

from __future__ import annotations

import ast
import os
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import z3

from regen_model.encoding import params as P
from regen_model.encoding.agreement import AgreementResult, Status, check_agreement
from regen_model.encoding.branches import Branch, Hits, Recorder, relation_branches, relation_sites
from regen_model.encoding.frame import NONE, read, read_statics, representable
from regen_model.encoding.paths import Extra, Paths
from regen_model.encoding.probe import FALSE, TRUE, Site, recording
from regen_model.encoding.relation import KindRelation
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.encoding.system import RegenStep, RegenSystem
from regen_model.encoding.work import layout
from regen_model.invariants import builtin
from regen_model.invariants.spec import Kind
from regen_model.invariants.symbolic import SymbolicView, controller, creature_on_battlefield
from regen_model.invariants.view import evaluate
from regen_model.model.actions import Action
from regen_model.model.enums import (
    COMBAT_STEPS,
    Attachment,
    Decision,
    StackKind,
    Step,
    Zone,
    ordinal,
)
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.pools import forked_pool
from regen_model.verdicts import Verdict
from regen_model.verify import Row

# Two card slots (blocks, Auras, control changes and triggers of both players need two),
# two waiting triggers (603.3b orders triggers of both players), one stack object.
DRIVEN_SCOPE = Scope(cards=2, shields=2, stack=1, pending=2, targets=1, max_amount=2)
# The extras (``paths.Paths.extras``) also at two stack slots: triggers of both players
# going on the stack at once (603.3b) need room for both.
EXTRAS_SCOPE = Scope(cards=2, shields=2, stack=2, pending=2, targets=1, max_amount=2)
DEFAULT_RLIMIT = 20_000_000
PROOF_RLIMIT = 300_000_000  # consecution of the facts: the ``pass`` kind needs about 10x
ATTEMPTS = 3
RICH_ROUNDS = 3

Target = tuple[Site, int]  # a site and an outcome bit (``probe.TRUE``/``FALSE``)
ExtraKey = tuple[str, tuple[str, Site, str]]  # an action kind and ``Extra.key``
CrossKey = tuple[Site, int, str]  # a branch (site and outcome bit) and a card status's name
Span = tuple[str, int, int]  # a module file name and a range of lines, both ends included


class Outcome(StrEnum):
    AGREE = "agree"
    DISAGREE = "disagree"
    NOT_TAKEN = "not-taken"
    UNKNOWN = "unknown"
    UNREACHABLE = "unreachable-in-scope"


# which outcome wins when kinds end differently for one branch
_RANK = {
    Outcome.DISAGREE: 0,
    Outcome.AGREE: 1,
    Outcome.NOT_TAKEN: 2,
    Outcome.UNKNOWN: 3,
    Outcome.UNREACHABLE: 4,
}


@dataclass(frozen=True)
class Witness:
    """A solver-chosen state and action (``target``: the branch it was asked for), and the
    check's result on it."""

    kind: str
    target: Target
    state: GameState
    action: Action
    result: AgreementResult
    enabled: bool  # the solver was asked for an action the relation enables

    def describe(self) -> str:
        return f"{self.kind}: {self.action!r} on {sketch(self.state)}: {self.result.describe()}"


@dataclass
class Tally:
    """What one worker's share of kinds found (picklable)."""

    outcomes: dict[Target, tuple[Outcome, str]] = field(default_factory=dict)  # (how, kind)
    first_kind: Counter[str] = field(default_factory=Counter)  # kind -> branches it drove
    states: Counter[str] = field(default_factory=Counter)  # kind -> states checked
    queries: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    disagreements: list[Witness] = field(default_factory=list)
    unknown: dict[Target, str] = field(default_factory=dict)  # the solver's reason
    hits: Hits = field(default_factory=Hits)
    broken: dict[str, str] = field(default_factory=dict)  # facts not inductive: why
    extras: dict[ExtraKey, Outcome] = field(default_factory=dict)  # boundaries, mixed passes

    def note_extra(self, key: ExtraKey, outcome: Outcome) -> None:
        old = self.extras.get(key)
        if old is None or _RANK[outcome] < _RANK[old]:
            self.extras[key] = outcome

    def note(self, target: Target, outcome: Outcome, kind: str) -> None:
        old = self.outcomes.get(target)
        if old is None or _RANK[outcome] < _RANK[old[0]]:
            self.outcomes[target] = (outcome, kind)

    def merge(self, other: Tally, keep: int = 20) -> None:
        for target, (outcome, kind) in other.outcomes.items():
            self.note(target, outcome, kind)
        self.first_kind.update(other.first_kind)
        self.states.update(other.states)
        self.queries.update(other.queries)
        self.seconds.update(other.seconds)
        self.disagreements += other.disagreements[: max(0, keep - len(self.disagreements))]
        self.unknown.update(other.unknown)
        self.hits.merge(other.hits)
        self.broken.update(other.broken)
        for key, outcome in other.extras.items():
            self.note_extra(key, outcome)


@dataclass(frozen=True)
class DriveTask:
    """Some action kinds' share of the work (sent to a worker process)."""

    kinds: tuple[str, ...]
    scope: Scope = DRIVEN_SCOPE
    rules: Rules = CORRECT  # the engine's rules (and the relation's unless ``relation_rules``)
    relation_rules: Rules | None = None
    rlimit: int = DEFAULT_RLIMIT
    assumed: frozenset[str] = frozenset()  # names of ``well_formed`` facts to assume
    prove_only: bool = False  # prove the assumed facts' consecution instead of driving
    every: bool = False  # ask for every branch, even one a state chosen for another took
    extras: bool = False  # also the boundaries and mixed passes (``paths.Paths.extras``)
    cross: bool = False  # also every branch crossed with each card's status (``card_statuses``)
    focus: tuple[Span, ...] = ()  # drive the targets at sites in these spans first
    stop: bool = False  # stop at the first disagreement


def state_space(system: RegenSystem, frame: Any) -> list[Any]:
    """The states a driven check may choose (module docstring)."""
    out = [t.formula for t in system.domain(frame)]
    out += representable(frame)
    out += [
        evaluate(inv.formula, SymbolicView(frame)) for inv in builtin() if inv.kind is Kind.STATE
    ]
    return out


def well_formed(frame: Any) -> list[tuple[str, Any]]:
    """Candidate facts about every reachable state that the domain leaves open, by name:
    ``prove_well_formed`` keeps those it proves inductive (relative to the state space)
    and the driven check assumes only those. Without them the solver picks states that no
    run reaches (a card in the graveyard still attacking, a spell among the waiting
    triggers, an attacker in the untap step), on which the two views may well differ
    without either being wrong about the game."""
    combat_steps = [frame.step == ordinal(s) for s in sorted(COMBAT_STEPS, key=ordinal)]
    in_combat_step = z3.Or(*combat_steps)
    out: list[tuple[str, Any]] = []
    for i, c in enumerate(frame.cards):
        st = frame.statics.cards[i]
        off = c.zone != ordinal(Zone.BATTLEFIELD)
        out_of_combat = z3.And(
            z3.Not(c.attacking), c.blocking == NONE, c.blocking_also == NONE, z3.Not(c.blocked)
        )
        out += [
            (
                f"c{i}: off the battlefield, out of combat",
                z3.Implies(off, out_of_combat),
            ),
            (
                f"c{i}: off the battlefield, attached to nothing",
                z3.Implies(off, c.attached_to == NONE),
            ),
            *[
                (f"c{i}: off the battlefield, {what}", z3.Implies(off, fact))
                for what, fact in (
                    ("untapped", z3.Not(c.tapped)),
                    ("no damage", z3.And(c.damage == 0, z3.Not(c.deathtouched))),
                )
            ],
            (
                f"c{i}: in combat only during combat",
                z3.Implies(z3.Not(in_combat_step), out_of_combat),
            ),
            # 508.1a, 509.1a: the active player declares their own creatures as attackers,
            # the defending player (the other one, two players) theirs as blockers; what
            # ends that is a removal from combat (506.4: leaving the battlefield, a change of
            # controller, phasing out, regenerating, stopping being a creature; both views)
            (
                f"c{i}: attacking only as a creature of the active player",
                z3.Implies(
                    c.attacking,
                    z3.And(creature_on_battlefield(frame, i), controller(c) == frame.active),
                ),
            ),
            (
                f"c{i}: blocking only as a creature of the defending player",
                z3.Implies(
                    z3.Or(c.blocking != NONE, c.blocking_also != NONE),
                    z3.And(creature_on_battlefield(frame, i), controller(c) != frame.active),
                ),
            ),
            (f"c{i}: blocked only if attacking", z3.Implies(c.blocked, c.attacking)),
            (f"c{i}: ordered only if attacking", z3.Implies(c.ordered, c.attacking)),
            (
                f"c{i}: attached only as an Aura or Equipment on the battlefield",
                z3.Implies(
                    c.attached_to != NONE,
                    z3.And(
                        c.zone == ordinal(Zone.BATTLEFIELD),
                        st.attachment != ordinal(Attachment.NONE),
                        *[
                            z3.Implies(c.attached_to == j, cj.zone == ordinal(Zone.BATTLEFIELD))
                            for j, cj in enumerate(frame.cards)
                            if j != i
                        ],
                    ),
                ),
            ),
        ]
    # 303.4, 301.5c, 701.3b: our Auras enchant and our Equipment equips creatures, never
    # another Aura or Equipment (``attachments.can_attach``; no printed card is both, and a
    # printed attachment kind never changes): without it the solver chose two Auras attached
    # to each other, where the relation asks umbra armor one Aura deep
    # (``destruction._umbra``) and the engine looped through both (issue 10)
    for i, c in enumerate(frame.cards):
        for j in range(len(frame.cards)):
            if j != i:
                out.append(
                    (
                        f"c{i}: attached to c{j} only if it is no Aura or Equipment",
                        z3.Implies(
                            c.attached_to == j,
                            frame.statics.cards[j].attachment == ordinal(Attachment.NONE),
                        ),
                    )
                )
    # 508.1, 509.1: attackers are declared as the declare attackers step begins, blockers as
    # the declare blockers step begins, each once; before that nothing attacks, or blocks
    # (and no attacker has a damage assignment order, 509.2): without it the solver chose a
    # creature already blocking while the blockers were still to be declared (issue 10)
    before_attackers = z3.Or(
        frame.step == ordinal(Step.BEGIN_COMBAT),
        frame.decision == ordinal(Decision.DECLARE_ATTACKERS),
    )
    before_blockers = z3.Or(
        before_attackers,
        frame.step == ordinal(Step.DECLARE_ATTACKERS),
        frame.decision == ordinal(Decision.DECLARE_BLOCKERS),
    )
    for i, c in enumerate(frame.cards):
        out += [
            (
                f"c{i}: attacking only once attackers are declared",
                z3.Implies(before_attackers, z3.Not(c.attacking)),
            ),
            (
                f"c{i}: blocking or ordered only once blockers are declared",
                z3.Implies(
                    before_blockers,
                    z3.And(
                        c.blocking == NONE,
                        c.blocking_also == NONE,
                        z3.Not(c.blocked),
                        z3.Not(c.ordered),
                    ),
                ),
            ),
        ]
    # a turn-based choice is made in its own step (508.1, 509.1, 510.1)
    for decision, step in (
        (Decision.DECLARE_ATTACKERS, Step.DECLARE_ATTACKERS),
        (Decision.DECLARE_BLOCKERS, Step.DECLARE_BLOCKERS),
        (Decision.ORDER_BLOCKERS, Step.DECLARE_BLOCKERS),
    ):
        out.append(
            (
                f"the {decision.value} choice is made in the {step.value} step",
                z3.Implies(frame.decision == ordinal(decision), frame.step == ordinal(step)),
            )
        )
    for j, obj in enumerate(frame.pending):
        out.append(
            (
                f"waiting {j}: a triggered ability",
                z3.Implies(j < frame.pending_size, obj.kind == ordinal(StackKind.TRIGGER)),
            )
        )
    out += _targets_name_something(frame)
    return out


def _targets_name_something(frame: Any) -> list[tuple[str, Any]]:
    """Every target of an object on the stack or waiting names a card or a player.

    Why a fact here and not a part of ``frame.representable`` or a case the engine handles:
    the engine's ``Target`` can hold neither a card nor a player (``Target()``), so a frame
    with such a target *is* the image of an engine state, and ``representable`` (the image
    of the abstraction, nothing more) rightly allows it. But no run reaches one: casting
    refuses a target naming neither (601.2c, ``engine.step._targets``, and the relation's
    ``cast`` the same), and every trigger and ability names its permanent or player. So it
    is a fact of the reachable states, proved inductive for every action kind like the
    others before anything is driven. The engine keeps its assertion for it
    (``engine.effects.illegal_target``, ``deal_damage``): a stack object naming nothing is
    no game situation, and a rule for it would be invented, not the game's. Without this
    fact the boundaries of ``pass`` at two stack slots chose such states and the engine
    crashed on them (issue 10, ``tests/encoding/test_driven.py``).

    Nor does a target name both (the engine's ``Target`` could: every engine construction
    names one, ``engine.step._targets``, ``effects``, ``destruction``, and so does the
    relation): on ``pass`` at two stack slots the solver chose a flicker whose target named
    both a phased-out creature and a player. The engine's ``illegal_target`` took it for a
    player target, legal, and the flicker moved the creature, which no run does (702.26b: a
    phased-out permanent is treated as though it did not exist, so a target naming it is
    illegal, 608.2b); the views then counted its departures differently (the ``left``
    output, issue 10)."""
    out: list[tuple[str, Any]] = []
    for area, objs, size in (
        ("stack", frame.stack, frame.stack_size),
        ("waiting", frame.pending, frame.pending_size),
    ):
        for j, obj in enumerate(objs):
            for t in range(frame.scope.targets):
                card, player = obj.target_card[t] != NONE, obj.target_player[t] != NONE
                # a spell on the stack (Counterspell's "target spell", ``Target.spell``)
                spell = obj.target_spell[t] != NONE
                here = z3.And(j < size, t < obj.n_targets)
                out += [
                    (
                        f"{area} {j}: target {t} names a card, a player or a spell",
                        z3.Implies(here, z3.Or(card, player, spell)),
                    ),
                    (
                        f"{area} {j}: target {t} names not both a card and a player",
                        z3.Implies(here, z3.Not(z3.And(card, player))),
                    ),
                    (
                        f"{area} {j}: target {t} names a spell and nothing else",
                        z3.Implies(here, z3.Implies(spell, z3.Not(z3.Or(card, player)))),
                    ),
                ]
    return out


def card_statuses(frame: Any) -> list[tuple[str, Any]]:
    """Each card slot's statuses that a branch outcome is crossed with (``cross``), by name.
    They are what the rules clear as a side effect of other events, in writes a reviewer
    could delete without removing a branch: combat (506.4: leaving the battlefield, a
    change of controller, phasing out, regenerating, stopping being a creature), being
    enchanted or equipped (704.5m, 704.5n: the Aura or Equipment falls off or goes), a
    shield, marked damage and being tapped (400.7: a new object; 701.15a: regenerating
    removes the damage and taps). A deleted clear shows only on a state that has the status
    when the surviving branch is taken."""
    out: list[tuple[str, Any]] = []
    for i, c in enumerate(frame.cards):
        hosts = [cj.attached_to == i for j, cj in enumerate(frame.cards) if j != i]
        out += [
            (f"c{i} attacking", c.attacking),
            (f"c{i} blocking", z3.Or(c.blocking != NONE, c.blocking_also != NONE)),
            (f"c{i} enchanted or equipped", z3.Or(*hosts) if hosts else z3.BoolVal(False)),
            (f"c{i} shielded", z3.Or(*[sh.present for sh in c.shields])),
            (f"c{i} damaged", z3.Or(c.damage > 0, c.deathtouched)),
            (f"c{i} tapped", c.tapped),
        ]
    return out


def features(frame: Any) -> list[Any]:
    """What the solver is asked to make true where it can (``_Driver.drive``): a state in
    which many things are going on, so that a change to one view that a branch's own
    condition does not mention still shows. A model of the branch alone is as plain as the
    solver likes; the changes a reviewer makes (issue 10) hide exactly there: a board wipe
    carrying "can't be regenerated", a creature in combat when its controller changes,
    waiting triggers of both players, a shield made by another player, marked damage."""
    out: list[Any] = []
    for i, c in enumerate(frame.cards):
        st = frame.statics.cards[i]
        out += [
            c.attacking,
            c.blocking != NONE,
            c.blocking_also != NONE,
            c.damage > 0,
            c.control != st.owner,
            *[z3.And(s.present, s.creator != c.control) for s in c.shields],
            *[z3.And(s.present, s.rider != 0) for s in c.shields],
            # the two at once: a rider acts for the shield's creator (Debt of Loyalty)
            *[z3.And(s.present, s.rider != 0, s.creator != c.control) for s in c.shields],
        ]
    for objs, size in ((frame.stack, frame.stack_size), (frame.pending, frame.pending_size)):
        for j, obj in enumerate(objs):
            out += [j < size, z3.And(j < size, obj.cant_regen)]
            # objects of both players, in both orders (603.3b: the active player's first)
            other = frame.active if j == 0 else objs[j - 1].controller
            out.append(z3.And(j < size, obj.controller != other))
    return out


def _value(model: Any, term: Any) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


class _Driver:
    """One worker: a solver per kind over the state space, asked branch by branch."""

    def __init__(self, task: DriveTask) -> None:
        self.task = task
        relation = task.relation_rules if task.relation_rules is not None else task.rules
        self.relation_rules = relation
        self.system = RegenSystem(scope=task.scope, rules=relation)
        self.template = self.system.template
        pre = self.template.pre
        self.facts = [(n, f) for n, f in well_formed(pre) if n in task.assumed]
        self.fact_lits = [z3.Bool(f"fact.{k}") for k in range(len(self.facts))]
        self.base = state_space(self.system, pre) + P.domain(self.template.params, task.scope)
        self.sites = {s.site for s in relation_sites()}
        self.tally = Tally()
        self.taken: dict[Site, int] = {}  # outcome bits some checked state took
        self.pending: dict[tuple[str, Site, str], Extra] = {}  # the kind's extras not yet hit
        self.statuses = card_statuses(pre) if task.cross else []
        # the kind's crossed targets not yet hit, and the key of each by branch and status
        self.crossed: dict[tuple[str, Site, str], Extra] = {}
        self.cross_keys: dict[CrossKey, tuple[str, Site, str]] = {}
        self.reaches: dict[Target, Any] = {}  # ``paths.reach`` per branch target, per kind
        lay = layout(task.scope)
        self.param_keys = lay.param_keys
        # what a new model must change (printed cards and parameters)
        self.choices = [*self.template.statics.vars(), *self.template.params.vars()]
        # assumption literals standing for the features (an unsat core names them)
        wanted = features(pre)
        self.features = [z3.Bool(f"feature.{k}") for k in range(len(wanted))]
        self.base += [z3.Implies(lit, f) for lit, f in zip(self.features, wanted, strict=True)]
        self.space = self.base + [f for _, f in self.facts]

    def run(self) -> Tally:
        """``task.prove_only``: the consecution of the assumed facts for each kind; else
        drive each kind's branches."""
        if self.task.prove_only:
            self.prove_all()
            return self.tally
        for kind in self.task.kinds:
            started = time.perf_counter()
            paths = Paths()
            with recording(paths):
                rel = self.system.relation(kind)
            self.kind(kind, paths, rel)
            self.tally.seconds[kind] = time.perf_counter() - started
        return self.tally

    def prove_all(self) -> None:
        """Houdini in this worker: the consecution of the assumed facts for each of its
        kinds, dropping the facts a step breaks (``tally.broken``) until every kind keeps
        the rest. The parent asks again when another worker dropped more."""
        t = self.template
        after = dict(well_formed(t.post))
        solvers = {}
        for kind in self.task.kinds:
            started = time.perf_counter()
            step = RegenStep(self.system, t.pre, t.post, "T", t.params)
            solver = z3.Solver()
            solver.set("rlimit", PROOF_RLIMIT)
            solver.add(*self.base, *[c.formula for c in step.constraints(kind)])
            solver.add(
                *[
                    z3.Implies(lit, f)
                    for lit, (_, f) in zip(self.fact_lits, self.facts, strict=True)
                ]
            )
            solvers[kind] = solver
            self.tally.seconds[kind] = time.perf_counter() - started
        changed = True
        while changed:
            changed = False
            for kind, solver in solvers.items():
                started = time.perf_counter()
                changed |= self.prove(kind, solver, after)
                self.tally.seconds[kind] += time.perf_counter() - started

    def prove(self, kind: str, solver: Any, after: dict[str, Any]) -> bool:
        """One consecution query for ``kind`` over the facts not yet broken: whether it
        broke some (an unknown answer breaks all of them: nothing unproved is assumed)."""
        live = [
            (n, lit)
            for (n, _), lit in zip(self.facts, self.fact_lits, strict=True)
            if n not in self.tally.broken
        ]
        if not live:
            return False
        solver.push()
        solver.add(z3.Or(*[z3.Not(after[n]) for n, _ in live]))
        answer = solver.check(*[lit for _, lit in live])
        self.tally.queries[kind] += 1
        model = solver.model() if answer == z3.sat else None
        reason = solver.reason_unknown() if answer == z3.unknown else ""
        solver.pop()
        if answer == z3.unsat:
            return False
        if model is None:
            self.tally.broken.update({n: f"{kind}: unknown ({reason})" for n, _ in live})
            return True
        for name, _ in live:
            if not z3.is_true(model.eval(after[name], model_completion=True)):
                self.tally.broken[name] = f"a {kind} step breaks it"
        return True

    def kind(self, kind: str, paths: Paths, rel: KindRelation) -> None:
        solver = z3.Solver()
        # ``solve`` drops the features an unsat core names: a minimised core names only the
        # ones that clash with the target, not the combat features beside them (with whole
        # cores, a change-control state with a creature in combat was the solver's luck)
        solver.set("core.minimize", True)
        solver.add(*self.space, self.template.params.kind == P.kind_code(kind))
        guard = z3.And(*[c.formula for c in rel.guards])
        focus = self.task.focus
        targets: list[Target | Extra] = [
            (site, bit) for site in sorted(set(paths.passes) & self.sites) for bit in (TRUE, FALSE)
        ]
        self.reaches = {}
        extras = paths.extras() if self.task.extras else []
        crossed = self._crossed(paths, targets)
        targets += extras + [e for _, e in crossed]
        self.pending = {e.key: e for e in extras}
        self.crossed = {e.key: e for _, e in crossed}
        self.cross_keys = {k: e.key for k, e in crossed}
        # the focus first (branches, then extras), then the rest: a stable sort
        targets.sort(
            key=lambda t: (not _inside(_site_of(t), focus), isinstance(t, Extra) and bool(focus))
        )
        for target in targets:
            if self.task.stop and self.tally.disagreements:
                return
            if isinstance(target, Extra):
                pending = self.crossed if target.what == "crossed" else self.pending
                if target.key not in pending:
                    continue  # a state chosen for another target hit it
                outcome = self.drive(solver, kind, (target.site, 0), target.formula, guard, target)
                pending.pop(target.key, None)
                self.tally.note_extra((kind, target.key), outcome)
                continue
            site, bit = target
            if self.taken.get(site, 0) & bit and not self.task.every:
                continue
            reach = self._reach(paths, target)
            if reach is None:
                continue
            outcome = self.drive(solver, kind, target, reach, guard)
            self.tally.note(target, outcome, kind)

    def _reach(self, paths: Paths, target: Target) -> Any:
        """``paths.reach`` of a branch target, made once per kind (the crossed targets
        need it too, and simplifying it is not free)."""
        if target not in self.reaches:
            self.reaches[target] = paths.reach(target[0], target[1] == TRUE)
        return self.reaches[target]

    def _crossed(self, paths: Paths, targets: list[Target | Extra]) -> list[tuple[CrossKey, Extra]]:
        """Every branch target crossed with each card status (module docstring), with the
        branch and status it stands for; none unless ``task.cross``."""
        out: list[tuple[CrossKey, Extra]] = []
        if not self.statuses:
            return out
        for target in targets:
            if isinstance(target, Extra):
                continue
            site, bit = target
            reach = self._reach(paths, target)
            if reach is None:
                continue
            side = "true" if bit == TRUE else "false"
            for name, status in self.statuses:
                extra = Extra("crossed", site, f"{side} with {name}", z3.And(reach, status))
                out.append(((site, bit, name), extra))
        return out

    def drive(
        self,
        solver: Any,
        kind: str,
        target: Target,
        reach: Any,
        guard: Any,
        extra: Extra | None = None,
    ) -> Outcome:
        """Ask for a state taking ``target`` (or hitting ``extra``: ``reach`` is its
        formula) in ``kind`` (enabled first), check it."""
        found_any = False
        for enabled in (True, False):
            blocks: list[Any] = []
            for _ in range(ATTEMPTS):
                solver.push()
                solver.add(reach, *blocks)
                if enabled:
                    solver.add(guard)
                answer, model, reason = self.solve(solver, kind)
                solver.pop()
                if answer == z3.unknown:
                    self.tally.unknown[target] = reason
                    return Outcome.UNKNOWN
                if model is None:
                    break
                found_any = True
                outcome = self.check(model, kind, target, enabled, extra)
                if outcome is not None:
                    return outcome
                blocks.append(
                    z3.Or(*[v != model.eval(v, model_completion=True) for v in self.choices])
                )
        return Outcome.NOT_TAKEN if found_any else Outcome.UNREACHABLE

    def solve(self, solver: Any, kind: str) -> tuple[Any, Any, str]:
        """(answer, model or None, the solver's reason when unknown): the first model
        found with as many ``features`` as ``RICH_ROUNDS`` rounds of dropping the ones in an
        unsat core leave, or with none of them."""
        wanted = list(self.features)
        for _ in range(RICH_ROUNDS + 1):
            solver.set("rlimit", self.task.rlimit)
            answer = solver.check(*wanted)
            self.tally.queries[kind] += 1
            if answer == z3.sat:
                return answer, solver.model(), ""
            if answer == z3.unknown:
                return answer, None, solver.reason_unknown()
            if not wanted:
                return answer, None, ""
            core = {a.get_id() for a in solver.unsat_core()}
            if not core:
                wanted = []
                continue
            wanted = [a for a in wanted if a.get_id() not in core]
            if len(wanted) == len(self.features):  # nothing dropped: give them all up
                wanted = []
        solver.set("rlimit", self.task.rlimit)
        answer = solver.check()
        self.tally.queries[kind] += 1
        if answer == z3.sat:
            return answer, solver.model(), ""
        return answer, None, solver.reason_unknown() if answer == z3.unknown else ""

    def check(
        self, model: Any, kind: str, target: Target, enabled: bool, extra: Extra | None = None
    ) -> Outcome | None:
        """Decode ``model``, compare the views there; the outcome for ``target`` if the
        evaluation took it, or for ``extra`` (None: the evaluation did not take the branch,
        or the model names no engine action). The extras of the kind the model hits too
        are noted as hit."""
        t = self.template
        setup = read_statics(model, t.statics)
        state = read(model, t.pre, setup)
        values = {
            k: _value(model, v) for k, v in zip(self.param_keys, t.params.vars(), strict=True)
        }
        try:
            action = P.to_action(values, kind, state, self.task.scope)
        except (ValueError, OutOfScope):
            return None  # parameters no engine action has (a missing slot, ...)
        recorder = Recorder()
        result = check_agreement(
            state,
            action,
            self.task.rules,
            self.task.scope,
            relation_rules=self.task.relation_rules,
            recorder=recorder,
        )
        self.tally.states[kind] += 1
        hits = recorder.hits()
        self.tally.hits.merge(hits)
        bad = result.status is Status.DISAGREE or (
            result.status is Status.DIVERGES and not self._mutated
        )
        how = Outcome.DISAGREE if bad else Outcome.AGREE
        new = 0
        for site, bits in hits.relation.items():
            if site not in self.sites:
                continue
            fresh = bits & ~self.taken.get(site, 0)
            self.taken[site] = self.taken.get(site, 0) | bits
            for bit in (TRUE, FALSE):
                if fresh & bit:
                    new += 1
                    self.tally.note((site, bit), how, kind)
        self.tally.first_kind[kind] += new
        for key, e in list(self.pending.items()):
            if z3.is_true(model.eval(e.formula, model_completion=True)):
                self.tally.note_extra((kind, key), how)
                del self.pending[key]
        if self.crossed:
            held = [n for n, f in self.statuses if z3.is_true(model.eval(f, model_completion=True))]
            for site, bits in hits.relation.items():
                for bit in (TRUE, FALSE):
                    for name in held if bits & bit else ():
                        ckey = self.cross_keys.get((site, bit, name))
                        if ckey is not None and ckey in self.crossed:
                            self.tally.note_extra((kind, ckey), how)
                            del self.crossed[ckey]
        if bad and len(self.tally.disagreements) < 20:
            self.tally.disagreements.append(Witness(kind, target, state, action, result, enabled))
        if extra is not None:
            return how  # the model satisfies its formula: the solver was asked for it
        if not hits.relation.get(target[0], 0) & target[1]:
            return None
        return how

    @property
    def _mutated(self) -> bool:
        r = self.task.rules
        return bool(r.mutants or (self.task.relation_rules and self.task.relation_rules.mutants))


def function_spans(path: Path, lines: Iterable[int]) -> tuple[Span, ...]:
    """The innermost function of module ``path`` around each of ``lines``: the spans a
    change to those lines touches, for ``driven_agreement(focus=...)``."""
    functions = [
        node
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    out = set()
    for line in lines:
        around = [f for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno)]
        if around:
            f = max(around, key=lambda f: f.lineno)
            out.add((path.name, f.lineno, f.end_lineno or f.lineno))
    return tuple(sorted(out))


def _site_of(target: Target | Extra) -> Site:
    return target.site if isinstance(target, Extra) else target[0]


def _inside(site: Site, spans: tuple[Span, ...]) -> bool:
    return any(site[0] == name and lo <= site[1] <= hi for name, lo, hi in spans)


def drive(task: DriveTask) -> Tally:
    """The driven agreement check of ``task``'s kinds (one process)."""
    return _Driver(task).run()


def sketch(state: GameState) -> str:
    """A short reading of a state: turn and step, who has priority, the stack and waiting
    triggers, and each card's zone, controller and the fields that are not at rest."""
    parts = [f"turn {state.turn} {state.step.value}, active {state.active}"]
    if state.priority is not None:
        parts.append(f"priority {state.priority}")
    if state.stack:
        parts.append("stack " + ", ".join(o.name for o in state.stack))
    if state.pending:
        parts.append("waiting " + ", ".join(f"{o.name} ({o.controller})" for o in state.pending))
    for handle, c in zip(state.setup.handles, state.cards, strict=False):
        notes = [c.zone.value, f"ctrl {c.control}"]
        notes += [
            name
            for name, on in (
                ("tapped", c.tapped),
                ("attacking", c.attacking),
                ("blocked", c.blocked),
                ("can't be regenerated", c.cant_regen),
            )
            if on
        ]
        if c.blocking is not None:
            notes.append(f"blocking c{c.blocking}")
        if c.blocking_also is not None:
            notes.append(f"also blocking c{c.blocking_also}")
        if c.damage:
            notes.append(f"damage {c.damage}")
        if c.shields:
            notes.append(f"{len(c.shields)} shields")
        parts.append(f"{handle}: {' '.join(notes)}")
    return "; ".join(parts)


@dataclass(frozen=True)
class DrivenReport:
    scope: Scope
    tally: Tally
    kinds: tuple[str, ...]
    seconds: float  # wall time
    workers: int
    assumed: tuple[str, ...] = ()  # the ``well_formed`` facts proved inductive and assumed
    dropped: dict[str, str] = field(default_factory=dict)  # the others, with why
    proof_seconds: float = 0.0  # proving the facts (summed over workers)

    @property
    def verdict(self) -> Verdict:
        """FAILED on a disagreement, UNKNOWN when the solver gave up on a branch no kind
        drove, PROVED otherwise (branches no state takes are listed, not failed)."""
        counts = Counter(o for o, _ in self.tally.outcomes.values())
        counts.update(self.tally.extras.values())
        if counts[Outcome.DISAGREE] or self.tally.disagreements:
            return Verdict.FAILED
        if counts[Outcome.UNKNOWN]:
            return Verdict.UNKNOWN
        if not counts[Outcome.AGREE]:
            return Verdict.VACUOUS
        return Verdict.PROVED

    def branches(self) -> list[tuple[Branch, Outcome, str]]:
        """Every branch of the relation with its outcome and the kind that decided it (a
        branch no kind's build passes at this scope is unreachable in scope, kind "")."""
        out = []
        for b, site, bit in _relation_branches():
            outcome, kind = self.tally.outcomes.get((site, bit), (Outcome.UNREACHABLE, ""))
            out.append((b, outcome, kind))
        return out

    def counts(self) -> Counter[Outcome]:
        return Counter(outcome for _, outcome, _ in self.branches())

    def extra_counts(self, what: str) -> Counter[Outcome]:
        """Outcomes of the extras (``paths.Extra.what``: "boundary", "mixed" or "crossed"),
        each counted once per action kind."""
        return Counter(o for (_, key), o in self.tally.extras.items() if key[0] == what)


def _relation_branches() -> list[tuple[Branch, Site, int]]:
    """``branches.relation_branches`` with each branch's site and outcome bit."""
    listed = relation_branches(Hits())
    sites = [s.site for s in relation_sites() for _ in (TRUE, FALSE)]
    bits = [bit for _ in relation_sites() for bit in (TRUE, FALSE)]
    return list(zip(listed, sites, bits, strict=True))


def driven_agreement(
    scope: Scope = DRIVEN_SCOPE,
    rules: Rules = CORRECT,
    *,
    relation_rules: Rules | None = None,
    kinds: tuple[str, ...] | None = None,
    workers: int | None = None,
    rlimit: int = DEFAULT_RLIMIT,
    facts: frozenset[str] | None = None,
    every: bool = False,
    extras: bool = False,
    cross: bool = False,
    focus: tuple[Span, ...] = (),
    stop: bool = False,
) -> DrivenReport:
    """The driven check over ``kinds`` (default: every kind), dealt out over ``workers``
    processes (default: one per CPU). The ``well_formed`` facts are pruned Houdini-style
    first: those a legal start breaks are dropped, then the workers prove the consecution
    of the rest for *every* action kind (whatever ``kinds`` says: a fact is assumed only
    when every step keeps it), drop those a step breaks and ask again until none breaks.
    Then the chosen kinds are driven. A branch one worker drove may be asked again by
    another: the shares are independent. ``facts`` (names of ``well_formed``) skips the
    proof and assumes those: for a caller that proved them for the same relation (or, in a
    test of a changed relation, for the correct one: its states are then states the
    correct rules reach, and a disagreement there is the change's). ``every``: a state is
    asked for every branch of every kind, even one a state chosen for another branch took
    already (a rich state per branch: slower, and sees more). ``extras``: also every
    comparison at its boundary and every repeated site with passes going opposite ways
    (``paths.Paths.extras``). ``cross``: also every branch together with each card's
    status in turn (``card_statuses``, module docstring). ``focus``: the targets at sites
    in these spans (a change's functions, ``changed_spans``) are asked first; ``stop``: each
    worker stops at its first disagreement (a quick answer to "does this change show?", not
    a full report)."""
    started = time.perf_counter()
    chosen = tuple(kinds if kinds is not None else P.ACTION_KINDS)
    cpus = workers if workers is not None else os.cpu_count() or 1
    relation = relation_rules if relation_rules is not None else rules
    all_kinds = tuple(P.ACTION_KINDS)
    proof_seconds = 0.0
    if facts is not None:
        dropped: dict[str, str] = {}
        assumed = facts
    else:
        dropped = initiation(scope, relation, rlimit)
        names = [name for name, _ in well_formed(_probe_frame(scope))]
        assumed = frozenset(name for name in names if name not in dropped)
    while assumed and facts is None:
        proved = _map(
            [
                DriveTask(all_kinds[k::cpus], scope, rules, relation_rules, rlimit, assumed, True)
                for k in range(min(cpus, len(all_kinds)))
            ]
        )
        proof_seconds += sum(proved.seconds.values())
        if not proved.broken:
            break
        dropped.update(proved.broken)
        assumed -= set(proved.broken)
    n = max(1, min(cpus, len(chosen)))
    total = _map(
        [
            DriveTask(
                chosen[k::n],
                scope,
                rules,
                relation_rules,
                rlimit,
                assumed,
                every=every,
                extras=extras,
                cross=cross,
                focus=focus,
                stop=stop,
            )
            for k in range(n)
        ]
    )
    return DrivenReport(
        scope,
        total,
        chosen,
        time.perf_counter() - started,
        n,
        tuple(sorted(assumed)),
        dropped,
        proof_seconds,
    )


def _map(shares: list[DriveTask]) -> Tally:
    """Run the shares (in worker processes when there are several) and merge them."""
    if len(shares) == 1:
        done = [drive(shares[0])]
    else:
        with forked_pool(len(shares)) as pool:
            done = pool.map(drive, shares)
    total = Tally()
    for part in done:
        total.merge(part)
    return total


def _probe_frame(scope: Scope) -> Any:
    return RegenSystem(scope=scope).template.pre


def initiation(scope: Scope, rules: Rules, rlimit: int = DEFAULT_RLIMIT) -> dict[str, str]:
    """The ``well_formed`` facts some legal start (``RegenSystem.init``) breaks, with why."""
    system = RegenSystem(scope=scope, rules=rules)
    frame = system.template.pre
    facts = well_formed(frame)
    solver = z3.Solver()
    solver.set("rlimit", rlimit)
    solver.add(*[t.formula for t in system.domain(frame)])
    solver.add(*[t.formula for t in system.init(frame)])
    solver.add(z3.Or(*[z3.Not(f) for _, f in facts]))
    answer = solver.check()
    if answer == z3.unsat:
        return {}
    if answer == z3.unknown:
        return {name: f"initiation unknown ({solver.reason_unknown()})" for name, _ in facts}
    model = solver.model()
    return {
        name: "a legal start breaks it"
        for name, f in facts
        if not z3.is_true(model.eval(f, model_completion=True))
    }


def driven_rows(report: DrivenReport) -> list[Row]:
    """One row per action kind (FAILED naming its first disagreement) and one for the
    branches no kind drove (listed; UNKNOWN when the solver gave up on one)."""
    t = report.tally
    rows = []
    slots = f"{report.scope.cards} card slots"
    for kind in report.kinds:
        bad = [d for d in t.disagreements if d.kind == kind]
        rows.append(
            Row(
                item=f"solver-chosen states: {kind} ({slots})",
                verdict=Verdict.FAILED if bad else Verdict.PROVED,
                seconds=t.seconds.get(kind, 0.0),
                details=(
                    ("states", f"{t.states[kind]:,}"),
                    ("branches first taken", f"{t.first_kind[kind]:,}"),
                    ("queries", f"{t.queries[kind]:,}"),
                ),
                message=(
                    f"clauses {', '.join(bad[0].result.clauses) or '-'}: {bad[0].describe()}"
                    if bad
                    else ""
                ),
            )
        )
    listed = report.branches()
    counts = Counter(o for _, o, _ in listed)
    left = [(b, o) for b, o, _ in listed if o not in (Outcome.AGREE, Outcome.DISAGREE)]
    message = "; ".join(f"{o.value}: {b.describe()}" for b, o in left[:6])
    if len(left) > 6:
        message += f"; ... {len(left) - 6} more"
    rows.append(
        Row(
            item=f"solver-chosen states: relation branches ({slots})",
            verdict=Verdict.UNKNOWN if counts[Outcome.UNKNOWN] else report.verdict,
            seconds=0.0,
            details=_details(counts, "driven", "unreachable in scope"),
            message=message,
        )
    )
    for what, item in (
        ("boundary", "comparisons at their boundary"),
        ("mixed", "repeated sites, passes going opposite ways"),
        ("crossed", "branches crossed with each card's status"),
    ):
        extra = report.extra_counts(what)
        if not extra:
            continue
        rows.append(
            Row(
                item=f"solver-chosen states: {item} ({slots})",
                verdict=(
                    Verdict.FAILED
                    if extra[Outcome.DISAGREE]
                    else Verdict.UNKNOWN
                    if extra[Outcome.UNKNOWN]
                    else Verdict.PROVED
                ),
                seconds=0.0,
                details=_details(extra, "hit", "no state of the space"),
            )
        )
    return rows


def _details(counts: Counter[Outcome], done: str, none: str) -> tuple[tuple[str, str], ...]:
    """A row's figures: targets a checked state met, of all; then the other outcomes."""
    met = counts[Outcome.AGREE] + counts[Outcome.DISAGREE]
    return (
        (done, f"{met}/{sum(counts.values())}"),
        (none, f"{counts[Outcome.UNREACHABLE]}"),
        ("not taken", f"{counts[Outcome.NOT_TAKEN]}"),
        ("unknown", f"{counts[Outcome.UNKNOWN]}"),
    )


def driven_document(report: DrivenReport) -> dict[str, Any]:
    """The ``driven`` part of ``agree --json`` (``schemas.define.driven_schema``)."""
    t = report.tally
    return {
        "verdict": report.verdict.value,
        "scope": report.scope.describe(),
        "seconds": round(report.seconds, 3),
        "workers": report.workers,
        "counts": {o.value: n for o, n in sorted(report.counts().items())},
        "extras": {
            what: {o.value: n for o, n in sorted(report.extra_counts(what).items())}
            for what in ("boundary", "mixed", "crossed")
        },
        "assumed": list(report.assumed),
        "dropped": dict(sorted(report.dropped.items())),
        "kinds": {
            kind: {
                "states": t.states[kind],
                "branches_first_taken": t.first_kind[kind],
                "queries": t.queries[kind],
                "seconds": round(t.seconds.get(kind, 0.0), 3),
            }
            for kind in report.kinds
        },
        "branches": [
            {
                **b.to_json(),
                "result": outcome.value,
                "kind": kind,
                **({"solver": t.unknown.get(target, "")} if outcome is Outcome.UNKNOWN else {}),
            }
            for (b, outcome, kind), target in zip(
                report.branches(), [(s, bit) for _, s, bit in _relation_branches()], strict=True
            )
        ],
        "disagreements": [
            {
                "kind": d.kind,
                "action": repr(d.action),
                "state": sketch(d.state),
                "description": d.result.describe(),
                "clauses": list(d.result.clauses),
            }
            for d in t.disagreements
        ],
    }
