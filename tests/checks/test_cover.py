"""Cover on the minimal system: every clause branch witnessed, a dead branch VACUOUS, guide
runs witnessing only when they are runs of the relation; and the scripted guides of the
rules' encoding play on the engine."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
import z3

from regen_model.checks.cover import (
    antecedent_goals,
    cover_antecedents,
    cover_clauses,
    script_runs,
)
from regen_model.checks.replay import Run
from regen_model.checks.solver import Budget
from regen_model.checks.system import Tracked
from regen_model.conform.sources import cover_cases
from regen_model.encoding.scope import Scope
from regen_model.engine import step
from regen_model.invariants import builtin
from regen_model.invariants.expr import And, CardQuant
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.verdicts import Verdict

from .mini import MiniStep, MiniSystem

BUDGET = Budget()

# The tests that check the scripted guides against the relation at the cover scope and the
# wide scopes share one relation per scope (``general``): building every action kind's
# relation is most of their time. They run in one xdist worker (``--dist loadgroup``).
SHARES_RELATIONS = pytest.mark.xdist_group("cover-relations")


@pytest.fixture(scope="module")
def general() -> Callable[[Scope], Any]:
    """The relation of the correct rules at a scope, built once for this module's tests
    (each action kind's on first use; the tests only read it)."""
    from regen_model.checks.systems import regen_system

    return cache(regen_system)


def test_every_branch_of_the_mini_relation_is_witnessed() -> None:
    items = {i.item: i for i in cover_clauses(MiniSystem(), 3, BUDGET)}
    assert set(items) == {
        "regen.shield.create",
        "regen.shield.apply",
        "destroy.effect",
        "cleanup.simultaneous",
        "zone.graveyard-order",
    }
    assert all(i.verdict is Verdict.PROVED for i in items.values())
    assert items["regen.shield.apply"].depth == 2  # make a shield, then destroy
    assert items["destroy.effect"].depth == 1


class DeadBranch(MiniSystem):
    """The mini system plus a clause that can never fire (its premise is unsatisfiable)."""

    def step(self, pre: Any, post: Any, tag: str) -> MiniStep:
        base = super().step(pre, post, tag)
        original = base.constraints

        def constraints(kind: str | None = None) -> list[Tracked]:
            extra = Tracked("regen.static", z3.Implies(pre.cards[0].gen < 0, post.cards[0].tapped))
            return [*original(kind), extra] if kind in (None, "destroy") else original(kind)

        object.__setattr__(base, "constraints", constraints)
        return base


def test_a_branch_that_never_fires_is_vacuous() -> None:
    items = {i.item: i for i in cover_clauses(DeadBranch(), 2, BUDGET)}
    assert items["regen.static"].verdict is Verdict.VACUOUS
    assert items["regen.shield.apply"].verdict is Verdict.PROVED


def test_witnesses_are_scenarios() -> None:
    items = cover_clauses(MiniSystem(), 2, BUDGET)
    found = {it.item: it.witness for it in items if it.witness is not None}
    w = found["regen.shield.apply"]
    assert [a.kind for a in w.actions] == ["create-shield", "destroy"]
    assert w.start.turn == 1 and w.depth == 2
    cases, skipped = cover_cases(found)  # what the crosscheck does with them
    assert len(cases) + len(skipped) == len(found)


def _mini_run(actions: list[A.Action], **start: Any) -> Run:
    """An engine run from a board of two vanilla creatures (a mini start unless ``start``
    changes the first one)."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    state = make_state(("A", "B"), [CardSpec("c0", bears, 0, **start), CardSpec("c1", bears, 1)])
    states = [state]
    for action in actions:
        states.append(step(states[-1], action).state)
    return Run(tuple(states), tuple(actions))


def test_a_guide_run_witnesses_beyond_the_bmc_depth() -> None:
    """A guide is checked on the relation, not searched for: with BMC depth 0 it still
    witnesses the branches it fires, at the step they fire."""
    run = _mini_run([A.CreateShield(target="c0"), A.Destroy(targets=("c0",))])
    items = {
        i.item: i
        for i in cover_clauses(MiniSystem(), 0, BUDGET, guides={"regen.shield.apply": [run]})
    }
    apply = items["regen.shield.apply"]
    assert apply.verdict is Verdict.PROVED and apply.depth == 2 and apply.source == "guide"
    assert apply.witness is not None and apply.witness.actions == run.actions
    assert items["regen.shield.create"].depth == 1
    assert items["cleanup.simultaneous"].verdict is Verdict.VACUOUS  # no guide, no BMC


def test_a_guide_that_is_not_a_run_of_the_relation_witnesses_nothing() -> None:
    """A tapped creature is not a mini start: the engine's run from it proves nothing."""
    run = _mini_run([A.Destroy(targets=("c0",))], tapped=True)
    items = {
        i.item: i for i in cover_clauses(MiniSystem(), 0, BUDGET, guides={"destroy.effect": [run]})
    }
    assert items["destroy.effect"].verdict is Verdict.VACUOUS


def test_antecedents_closed_over_their_binders() -> None:
    by_id = {i.id: i for i in builtin()}
    (goal,) = antecedent_goals(by_id["inv.survival.needs-shields"])[:1]
    assert isinstance(goal, CardQuant) and goal.kind == "any"
    items = cover_antecedents(
        MiniSystem(),
        [by_id["inv.regen.same-object"], by_id["inv.indestructible.no-shield"]],
        2,
        BUDGET,
    )
    verdicts = {i.item: i.verdict for i in items}
    assert verdicts["inv.regen.same-object: antecedent 1"] is Verdict.PROVED
    # nothing in the mini system is ever indestructible
    assert verdicts["inv.indestructible.no-shield: antecedent 1"] is Verdict.VACUOUS


def test_a_nested_antecedent_keeps_the_outer_one() -> None:
    """``all c: A(c) => all a: B(a, c) => ...``: the second goal is ``any c: A(c) and any a:
    B(a, c)`` (an Aura on a *regenerated* permanent), not ``B`` alone."""
    inv = {i.id: i for i in builtin()}["inv.regen.attachments-stay"]
    outer, inner = antecedent_goals(inv)
    assert isinstance(outer, CardQuant) and isinstance(inner, CardQuant)
    assert inner.var is outer.var
    assert isinstance(inner.body, And) and isinstance(inner.body.args[-1], CardQuant)


def test_the_scripted_guides_play_on_the_engine() -> None:
    runs = script_runs()
    assert runs and all(run.length == len(run.actions) >= 1 for _, run in runs)


def test_clauses_only_three_permanents_show_are_covered_at_three_card_slots() -> None:
    """A creature blocking two attackers needs three permanents: at ``COVER_SCOPE`` (two
    slots) its clauses never fire, so cover takes them to the scope their scripts fit. A
    counter needs two objects on the stack at once (COVER_SCOPE has room for one): its clause
    is taken to the scope with a stack of two, and no more card slots."""
    from dataclasses import replace

    from regen_model.checks.cover import wide_goals
    from regen_model.checks.systems import COVER_SCOPE

    wide = {scope: set(names) for scope, names in wide_goals(COVER_SCOPE).items()}
    assert wide == {
        replace(COVER_SCOPE, cards=3): {
            "combat.block-additional",
            "combat.damage.multi-blocker",
            "combat.removal.multi-blocked",
        },
        replace(COVER_SCOPE, stack=2): {"stack.counter"},
    }
    assert len(script_runs(COVER_SCOPE)) < len(script_runs())


@pytest.mark.slow
def test_the_wide_clauses_are_witnessed_by_their_scripts() -> None:
    from regen_model.checks.cover import wide_goals
    from regen_model.checks.sections import _cover_wide
    from regen_model.checks.systems import COVER_SCOPE

    for scope, names in wide_goals(COVER_SCOPE).items():
        items = _cover_wide(scope, names)
        assert [i.item for i in items] == list(names)
        assert all(i.verdict is Verdict.PROVED and i.source.startswith("guide") for i in items)


@pytest.mark.slow
@SHARES_RELATIONS
def test_a_wide_witness_on_the_specialised_relation_holds_on_the_general_one(
    general: Callable[[Scope], Any],
) -> None:
    """``_cover_wide`` checks each script on the relation specialised to its printed cards
    first: what fires there must fire on the general relation too, at the same depth (the
    argument in its docstring), and a specialised relation must not see a clause fire on a
    run that is not a run of the relation."""
    from regen_model.checks.cover import Goal, _along, _pinned, wide_goals
    from regen_model.checks.systems import COVER_SCOPE, regen_system

    compared = 0
    for scope, names in wide_goals(COVER_SCOPE).items():
        goals = [Goal(name, "clause") for name in names]
        whole = general(scope)
        pinned_general = _pinned(whole, goals)
        for written_for, run in script_runs(scope):
            if not set(written_for) & set(names):
                continue
            special = regen_system(scope, setup=run.start.setup)
            on_special = _along(special, run, goals, BUDGET, _pinned(special, goals))
            on_general = _along(whole, run, goals, BUDGET, pinned_general)
            assert on_special, written_for
            assert on_special.items() <= on_general.items()
            last = run.states[-1]
            tampered = Run((*run.states[:-1], last._replace(active=1 - last.active)), run.actions)
            assert _along(special, tampered, goals, BUDGET, _pinned(special, goals)) == {}
            compared += 1
    assert compared >= 2


@pytest.mark.slow
@SHARES_RELATIONS
def test_every_scripted_guide_witnesses_the_clauses_it_is_written_for(
    general: Callable[[Scope], Any],
) -> None:
    """A script names the clause branches it exists to show; one that no longer shows them
    on the relation (a rule that changed what the branch's constraint is) leaves them to
    BMC, which is correct but costs most of the main job's time. Each script is checked
    at the scope it fits, for its clause goals (antecedent names are checked by cover)."""
    from regen_model.checks.cover import _along, _pinned, _scripts, clause_goals, script_scope
    from regen_model.checks.systems import COVER_SCOPE

    by_scope: dict[Any, list[tuple[tuple[str, ...], Run]]] = {}
    for script, (names, run) in zip(_scripts(), script_runs(), strict=True):
        by_scope.setdefault(script_scope(script, COVER_SCOPE), []).append((names, run))
    missed, checked = [], 0
    for scope, runs in by_scope.items():
        system = general(scope)
        goals = clause_goals(system)  # the relation's branches (engine-only clauses are not)
        pinned = _pinned(system, goals)
        for names, run in runs:
            mine = [g for g in goals if g.name in names]
            shown = _along(system, run, mine, BUDGET, pinned)
            checked += len(mine)
            missed += [f"{g.name} ({scope.cards} slots)" for g in mine if g.name not in shown]
    assert checked >= 39  # every clause some script is written for (sba.aura among them)
    assert not missed, f"scripts that do not witness their clauses: {missed}"


@pytest.mark.slow
@SHARES_RELATIONS
def test_the_solver_free_guide_check_matches_the_solver(general: Callable[[Scope], Any]) -> None:
    """``_Pinned.along`` reads truth values off Z3's model evaluator, with one evaluation per
    distinct step; the solver route substitutes the run into the relation and asks. On the
    scripted guides at the cover scope, and on one of them with a state tampered with (no
    longer a run of the relation), both find the same goals at the same depths."""
    from regen_model.checks.cover import _along, _pinned, clause_goals, invariant_goals
    from regen_model.checks.systems import COVER_SCOPE

    system = general(COVER_SCOPE)
    goals = clause_goals(system) + invariant_goals(system, builtin())
    pinned = _pinned(system, goals)
    assert pinned is not None
    runs = [run for _, run in script_runs(COVER_SCOPE)][:6]
    broken = runs[0]
    last = broken.states[-1]
    tampered = last._replace(active=1 - last.active)
    runs.append(Run((*broken.states[:-1], tampered), broken.actions))
    answers = []
    for run in runs:
        fast = pinned.along(run)
        assert fast is not None
        solved = _along(system, run, goals, BUDGET)
        assert fast == solved, run
        answers.append(fast)
    assert answers[-1] == {}  # the tampered run is not a run of the relation
    assert all(answers[:-1])  # every script shows something
