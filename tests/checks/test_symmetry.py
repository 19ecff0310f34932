"""Card slots are interchangeable: the premise of the representative-slot proofs.

``checks.symmetry`` proves a "for every card" property at representative slots only. That is
sound because renaming the card slots of a state and of an action's parameters renames the
relation's answer (``encoding.slots``). These tests check exactly that on the relation, by
evaluating it on points of the agreement's searches (three card slots, every action kind,
Auras, Equipment, combat in every edition, spells on the stack) under every renaming.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import cast

import pytest
import z3

from regen_model.checks.symmetry import representative
from regen_model.encoding import params as P
from regen_model.encoding import slots
from regen_model.encoding.bounded import DEFAULT_AGREEMENT
from regen_model.encoding.evaluate import Evaluation, Prepared, evaluate_params
from regen_model.encoding.outputs import GAME_FIELDS
from regen_model.encoding.sampling import sample_points
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.encoding.system import RegenSystem
from regen_model.invariants import builtin
from regen_model.invariants.symbolic import SymbolicView
from regen_model.invariants.view import evaluate
from regen_model.model.rules import CORRECT
from regen_model.model.state import Setup

CONFIG = DEFAULT_AGREEMENT  # the breadth-first preset (`agree --preset bfs`)
SCOPE = CONFIG.scope
# A swap and a cycle generate every renaming of the three slots.
GENERATORS = ((1, 0, 2), (1, 2, 0))


@cache
def points() -> list[tuple[Prepared, str, dict[str, int | bool]]]:
    out = []
    for prep, action in sample_points(CONFIG, per_run=120, per_kind=8):  # 15 effect kinds
        try:
            out.append((prep, action.kind, P.of_action(prep.state, action, SCOPE)))
        except OutOfScope:
            continue
    return out


def _renamed(prep: Prepared, params: dict[str, int | bool], pi: tuple[int, ...]) -> Evaluation:
    moves, slot_keys = slots.frame_moves(SCOPE, pi)
    pre = slots.rename(prep.pre, moves, slot_keys, pi)
    statics = slots.rename(prep.statics, slots.statics_moves(SCOPE, pi), set(), pi)
    renamed = Prepared(SCOPE, prep.state, pre, statics)
    return evaluate_params(
        renamed, slots.rename_params(params, SCOPE, pi), kind_of(params), CORRECT
    )


def kind_of(params: dict[str, int | bool]) -> str:
    return P.ACTION_KINDS[int(params["kind"])]


def _stack_objects(values: dict[str, int | bool], scope: Scope) -> Counter[tuple[object, ...]]:
    """The stack and the waiting triggers as multisets of objects: simultaneous triggers are
    taken in slot order, so renaming may reorder objects created by one step."""
    out: Counter[tuple[object, ...]] = Counter()
    for keys in slots.stack_object_keys(scope):
        group = keys[0].split(".")[0].rstrip("0123456789")  # "stack" or "pending"
        out[(group, *sorted((k.split(".", 1)[1], values[k]) for k in keys))] += 1
    return out


def _differences(ev: Evaluation, ev2: Evaluation, pi: tuple[int, ...]) -> list[str]:
    if ev.enabled != ev2.enabled:
        return ["enabled"]
    if not ev.enabled:
        return []
    moves, slot_keys = slots.frame_moves(SCOPE, pi)
    want = slots.rename(ev.post, moves, slot_keys, pi)
    stack_keys = {k for k in want if k.startswith(("stack", "pending"))}
    out = [k for k in want if k not in stack_keys and want[k] != ev2.post[k]]
    if _stack_objects(want, SCOPE) != _stack_objects(ev2.post, SCOPE):
        out.append("stack objects")
    if slots.rename_outputs(ev.outputs, pi) != ev2.outputs:
        out.append("outputs")
    if ev.priority_given != ev2.priority_given:
        out.append("priority_given")
    if ev.countered != ev2.countered:
        out.append("countered")
    if ev.obligations_failed != ev2.obligations_failed:
        out.append("obligations")
    return out


def test_renaming_slots_renames_the_successor() -> None:
    pts = points()
    kinds = {kind_of(params) for _, _, params in pts}
    assert kinds == set(P.ACTION_KINDS), f"no sample for {set(P.ACTION_KINDS) - kinds}"
    problems = []
    for prep, _, params in pts:
        ev = evaluate_params(prep, params, kind_of(params), CORRECT)
        for pi in GENERATORS:
            diff = _differences(ev, _renamed(prep, params, pi), pi)
            if diff:
                problems.append(f"{kind_of(params)} under {pi}: {diff[:3]}")
    assert not problems, problems[:5]


def test_the_check_sees_a_wrong_renaming() -> None:
    """A renaming that forgets that ``attached_to`` holds a slot breaks some point: the test
    above can fail."""
    pi = (1, 2, 0)
    moves, slot_keys = slots.frame_moves(SCOPE, pi)
    broken = 0
    for prep, _, params in points():
        if not any(k.endswith("attached_to") and v != -1 for k, v in prep.pre.items()):
            continue
        ev = evaluate_params(prep, params, kind_of(params), CORRECT)
        wrong = {k for k in slot_keys if not k.endswith("attached_to")}
        pre = slots.rename(prep.pre, moves, wrong, pi)
        statics = slots.rename(prep.statics, slots.statics_moves(SCOPE, pi), set(), pi)
        ev2 = evaluate_params(
            Prepared(SCOPE, prep.state, pre, statics),
            slots.rename_params(params, SCOPE, pi),
            kind_of(params),
            CORRECT,
        )
        broken += bool(_differences(ev, ev2, pi))
    assert broken > 0


@pytest.mark.parametrize("inv", builtin(), ids=lambda i: i.id)
def test_representative_is_implied(inv: object) -> None:
    """The representative form only drops instances: the full formula implies it, and for a
    "for every card" invariant it reads fewer slots."""
    from regen_model.invariants.spec import Invariant, Kind

    assert isinstance(inv, Invariant)
    if inv.kind is not Kind.STATE:
        return
    system = RegenSystem(Scope(cards=3, shields=2, stack=1, pending=1, targets=1))
    f = system.frame("f")
    full = evaluate(inv.formula, SymbolicView(f))
    rep = representative(inv.formula, SymbolicView(f))
    s = z3.Solver()
    s.add(full, z3.Not(rep))
    assert s.check() == z3.unsat


def test_a_pinned_system_is_not_symmetric() -> None:
    assert RegenSystem(SCOPE).symmetric
    setup = Setup(player_names=("A", "B"), handles=(), templates=(), owners=())
    assert not RegenSystem(SCOPE, setup=setup).symmetric


def test_no_pending_state_based_action_is_a_binder_over_cards() -> None:
    """``~sba_pending`` is "for every card, no state-based action about it, and none about a
    player" (704.3): the reduction keeps card 0 and the players, and the full formula is
    exactly that statement over every slot, so the reduction drops only instances."""
    from regen_model.invariants.symbolic import sba_pending_of
    from regen_model.invariants.vocabulary import game

    system = RegenSystem(Scope(cards=3, shields=1, stack=1, pending=1, targets=1))
    f = system.frame("f")
    domain = [t.formula for t in system.domain(f)]
    formula = ~game.sba_pending
    full = evaluate(formula, SymbolicView(f))
    rep = representative(formula, SymbolicView(f))
    every = z3.And(*[z3.Not(sba_pending_of(f, [i])) for i in range(3)])
    for claim in (full == every, rep == z3.Not(sba_pending_of(f, [0]))):
        s = z3.Solver()
        s.add(*domain, z3.Not(claim))
        assert s.check() == z3.unsat, claim
    s = z3.Solver()
    s.add(*domain, rep, z3.Not(full))  # a pending action about card 1 only: not reduced away
    assert s.check() == z3.sat


def test_a_sum_over_every_card_is_asked_with_the_slots_sorted() -> None:
    """A property that names no particular card (``inv.damage-trigger.kept``: a sum over every
    card) is reduced by sorting the slots instead (``symmetry.ordered``): its goal is the full
    formula or "the keys are not sorted", and nothing else. Sound because the formula itself
    is unchanged by renaming the slots (checked here by permuting the per-card output
    constants, the only per-card values it reads), so a counterexample renamed to sort its
    keys is still one; the relation's side of it is the renaming tests above."""
    from itertools import permutations

    from regen_model.checks.property import step_view
    from regen_model.checks.symmetry import ordered, sorts
    from regen_model.checks.system import TransitionSystem
    from regen_model.invariants.expr import CardBool, CardInt, Expr, StaticBool, StaticInt

    system = RegenSystem(Scope(cards=3, shields=1, stack=1, pending=1, targets=1))
    step = system.template_step().with_output_vars()
    view = step_view(cast(TransitionSystem, system), step.pre, step, step.post)
    sorted_ones = []
    for inv in builtin():
        order = ordered(inv.formula, view)
        full = evaluate(inv.formula, view)
        rep = representative(inv.formula, view)
        s = z3.Solver()
        s.add(full, z3.Not(rep))  # the reduced goal is implied: it only drops instances
        assert s.check() == z3.unsat, inv.id
        if order is None or not z3.eq(z3.simplify(rep), z3.simplify(z3.Or(full, z3.Not(order)))):
            assert not sorts(inv.formula, view), inv.id
            continue
        assert sorts(inv.formula, view), inv.id  # what the prover's route choice reads
        sorted_ones.append(inv.id)
        nodes: list[Expr] = [inv.formula]
        while nodes:  # it reads no card field: the outputs are all its per-card values
            e = nodes.pop()
            assert not isinstance(e, CardInt | CardBool | StaticInt | StaticBool), inv.id
            nodes.extend(e.children())
        outputs = step.outputs
        for pi in permutations(range(3)):
            pairs = [
                (outputs[name][i], outputs[name][pi[i]])
                for name in outputs
                if name not in GAME_FIELDS
                for i in range(3)
            ]
            s = z3.Solver()
            s.add(z3.Not(full == z3.substitute(full, *pairs)))
            assert s.check() == z3.unsat, (inv.id, pi)
        keys = outputs["damage_triggers"]
        s = z3.Solver()  # the order is the keys going down from slot 0
        s.add(z3.Not(order == z3.And(keys[0] >= keys[1], keys[1] >= keys[2])))
        assert s.check() == z3.unsat
    assert sorted_ones == ["inv.damage-trigger.kept"]


def test_the_sorted_goal_goes_by_the_preprocessing_route_first() -> None:
    """``induction.first_route``: the consecution queries of a goal asked with the slots
    sorted start on the preprocessing route; every other goal, and every goal at one slot
    (nothing to sort), on the direct route. Only the order of the routes changes."""
    from regen_model.checks import induction
    from regen_model.checks.property import from_invariant
    from regen_model.checks.solver import DEFAULT_BUDGET, Route
    from regen_model.checks.system import TransitionSystem

    for cards, expected in ((2, {"inv.damage-trigger.kept"}), (1, set())):
        system = cast(
            TransitionSystem, RegenSystem(Scope(cards=cards, shields=1, stack=1, pending=1))
        )
        enc = induction._Consecution(system, DEFAULT_BUDGET)
        for inv in builtin():
            enc.goal(from_invariant(system, inv))
        first = {pid for pid, route in enc.first_routes.items() if route is Route.PREPROCESS}
        assert first == expected, cards
