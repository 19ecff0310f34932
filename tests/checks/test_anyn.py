"""Proofs for any number of permanents on the per-permanent abstraction (checks/anyn.py),
and the abstraction's soundness against the engine (checks/local.py): every engine step, on
random runs and on every scenario, seen from every permanent, from the game around them and
from every pair of permanents, is a step of the abstraction; and a mutant that breaks an
invariant proved here makes a step the abstraction rejects."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest
import z3

from regen_model.checks import anyn, local
from regen_model.checks.local import Conformance, fits
from regen_model.checks.results import Summary, summarize
from regen_model.checks.solver import Budget
from regen_model.conform.generate import random_cases
from regen_model.encoding.outputs import outputs_of
from regen_model.engine import EngineError, step
from regen_model.invariants import (
    BoolExpr,
    all_cards,
    any_card,
    builtin,
    check_step,
    implies,
    invariant,
    post,
    pre,
    step_invariant,
    sum_cards,
)
from regen_model.invariants.spec import Invariant
from regen_model.model import actions as A
from regen_model.model import derived
from regen_model.model.actions import Action, Destroy
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.enums import Mutant, Rider
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield
from regen_model.scenario import load_scenario, run_scenario, scenario_files
from regen_model.verdicts import Verdict

BUDGET = Budget()
SCENARIOS = Path(__file__).parents[1] / "scenarios"


@cache
def _catalog_rows() -> dict[str, Summary]:
    return {r.invariant: r for r in summarize(anyn.prove(builtin(), BUDGET))}


def _by_id(ids: set[str]) -> list[Invariant]:
    return [i for i in builtin() if i.id in ids]


def test_whole_catalog_proved_for_any_number() -> None:
    rows = _catalog_rows()
    assert {k for k, r in rows.items() if r.verdict is Verdict.PROVED} == {i.id for i in builtin()}
    assert "regen.shield.apply" in rows["inv.shield.used-once"].clauses
    # the links to the game and between permanents are what the new proofs rest on
    assert "sba.loop" in rows["inv.priority.no-sba-pending"].clauses
    assert "cleanup.simultaneous" in rows["inv.cleanup.ends-this-turn"].clauses
    assert "stack.triggers" in rows["inv.damage-trigger.kept"].clauses
    assert "regen.same-object" in rows["inv.regen.attachments-stay"].clauses


@invariant("test.never-tapped", "never tapped", ("regen.apply.tap",))
def never_tapped() -> BoolExpr:
    return all_cards(lambda c: ~c.tapped)


@step_invariant("test.reads-controller", "reads a field the record lacks", ("control.change",))
def reads_controller() -> BoolExpr:
    return all_cards(lambda c: c.post.controller >= 0)


@step_invariant("test.any-tapped", "some permanent is tapped after each step", ("tap.untap",))
def any_tapped() -> BoolExpr:
    return any_card(lambda c: c.post.tapped)


@step_invariant("test.count", "counts permanents", ("tap.untap",))
def counts() -> BoolExpr:
    return sum_cards(lambda c: c.post.damage) >= 0


@step_invariant("test.pending-assumed", "reads sba_pending as a premise", ("sba.loop",))
def pending_assumed() -> BoolExpr:
    return implies(pre.sba_pending, all_cards(lambda c: c.post.damage >= 0))


@step_invariant("test.stack-grows", "the stack never shrinks", ("stack.resolve",))
def stack_grows() -> BoolExpr:
    return post.stack_size >= pre.stack_size


@step_invariant("test.attached-never-moves", "attachments never move", ("zone.new-object",))
def attached_never_moves() -> BoolExpr:
    return all_cards(
        lambda h: all_cards(
            lambda a: implies(a.pre.attached_to == h.slot, a.post.attached_to == h.slot),
            name="a",
        )
    )


def test_false_or_unsupported_invariants_are_not_proved() -> None:
    chosen = [
        never_tapped,
        reads_controller,
        any_tapped,
        counts,
        pending_assumed,
        stack_grows,
        attached_never_moves,
    ]
    rows = {r.invariant: r for r in summarize(anyn.prove(chosen, BUDGET))}
    assert rows["test.never-tapped"].verdict is Verdict.CTI  # never VIOLATED on an abstraction
    assert rows["test.reads-controller"].verdict is Verdict.SKIPPED
    assert "'controller'" in rows["test.reads-controller"].reason
    # a "some permanent" asserted, a sum the game does not total, a pending action assumed:
    # no witness stands for every permanent there
    for unsupported in ("test.any-tapped", "test.count", "test.pending-assumed"):
        assert rows[unsupported].verdict is Verdict.SKIPPED, unsupported
    # false about the game, and about two permanents (the host may leave): not proved
    assert rows["test.stack-grows"].verdict is Verdict.CTI
    assert rows["test.attached-never-moves"].verdict is Verdict.CTI


@pytest.mark.slow
def test_quantified_form_gives_the_same_verdicts() -> None:
    chosen = _by_id(
        {
            "inv.shield.used-once",
            "inv.regen.attachments-stay",  # two witnesses, the attachment link
            "inv.cleanup.ends-this-turn",
            "inv.priority.no-sba-pending",
            "inv.damage-trigger.kept",
        }
    )
    quick = {(r.invariant, r.obligation, r.action): r.verdict for r in anyn.prove(chosen, BUDGET)}
    slow = {
        (r.invariant, r.obligation, r.action): r.verdict
        for r in anyn.prove(chosen, BUDGET, quantified=True)
    }
    assert quick == slow and set(quick.values()) == {Verdict.PROVED}


Run = Iterable[tuple[GameState, Action]]


def _random_runs(n_cases: int, seed: int) -> Iterator[Run]:
    for case in random_cases(n_cases, seed=seed, max_steps=20):
        yield ((case.start.build(), a) for a in case.actions)


def _scenario_runs() -> Iterator[Run]:
    """Every scenario's actions from its start (the states follow by replaying them)."""
    for path in scenario_files([SCENARIOS]):
        scenario = load_scenario(path)
        actions = [a for r in run_scenario(scenario).steps for a in r.actions]
        yield ((scenario.start, a) for a in actions)


def _conformance_failures(
    runs: Iterable[Run], check: Conformance, rules: Rules = CORRECT
) -> tuple[int, list[str]]:
    """Steps of ``runs`` (each from its first state on) the abstraction does not simulate:
    per permanent, for the game, or for a pair of permanents (their attachment)."""
    checked, failures = 0, []
    for run in runs:
        s: GameState | None = None
        for first, action in run:
            s = first if s is None else s
            try:
                r = step(s, action, rules)
            except EngineError:
                continue
            out = outputs_of(s, r.events, r.state)
            what = f"{action.kind} from turn {s.turn} {s.step}"
            checked += 1
            if not check.check_game(action.kind, s, r.events, out, r.state):
                failures.append(f"{what}: the game")
            n = len(s.cards)
            for a, h in ((a, h) for a in range(n) for h in range(n)):
                if not check.check_attachment(s, out, r.state, a, h):
                    failures.append(f"{what}: {s.handle(a)} attached to {s.handle(h)}")
            if fits(s, 2) and fits(r.state, 2):
                for slot in range(n):
                    if not check.check(action.kind, s, out, r.state, slot):
                        failures.append(f"{what}: {s.handle(slot)}")
            s = r.state
    return checked, failures


def test_engine_steps_are_steps_of_the_abstraction() -> None:
    checked, failures = _conformance_failures(_random_runs(25, seed=5), Conformance(2))
    assert checked > 200 and failures == []


def test_scenario_steps_are_steps_of_the_abstraction() -> None:
    """The scenarios reach what random runs rarely do: riders and damage triggers, pre-M10
    deathtouch triggers, Auras losing their host, players at 0 life, new turns."""
    checked, failures = _conformance_failures(_scenario_runs(), Conformance(2))
    assert checked > 500 and failures == []


@pytest.mark.slow
def test_engine_steps_are_steps_of_the_abstraction_long() -> None:
    checked, failures = _conformance_failures(_random_runs(200, seed=7), Conformance(2))
    assert checked > 2000 and failures == []


def _z3(values: dict[str, int | bool]) -> dict[str, z3.ExprRef]:
    return {k: z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v) for k, v in values.items()}


def test_pending_reads_exactly_what_the_engine_calls_pending() -> None:
    """The any-n view reads "a state-based action is pending" as "a player is about to lose,
    or some permanent x has ``pending(x)``": on boards with each state-based action and on
    every state of random runs and scenarios, that is ``derived.sba_pending``."""
    seen = {True: 0, False: 0}
    sbas: list[tuple[str, dict[str, int | bool]]] = [
        ("Grizzly Bears", {"damage": 2}),  # 704.5g
        ("Grizzly Bears", {"deathtouched": True}),  # 704.5h
        ("Grizzly Bears", {"minus": 2}),  # 704.5f
        ("Grizzly Bears", {"plus": 1, "minus": 1}),  # 704.5q
        ("Holy Strength", {}),  # 704.5m: attached to nothing
        ("Darksteel Myr", {"damage": 5, "deathtouched": True}),  # indestructible: none
    ]
    boards = [make_state(("A", "B"), (_card("x", name, **fields),)) for name, fields in sbas]
    states = [s for run in [*_random_runs(25, seed=5), *_scenario_runs()] for s in _states(run)]
    for s in [*boards, *states]:
        game = local.global_values(s)
        per_card = [
            z3.is_true(
                z3.simplify(
                    local.pending(
                        local.Rec(_z3(local.record_values(s, i, 9)), 9),
                        local.Statics(_z3(local.static_values(s, i))),
                    )
                )
            )
            for i in range(len(s.cards))
        ]
        read = bool(game["player_sba"]) or any(per_card)
        assert read == derived.sba_pending(s), (s.turn, s.step)
        seen[read] += 1
    assert seen[True] >= 5 and seen[False] > 500, seen  # both answers were seen


def _states(run: Run) -> Iterator[GameState]:
    """The states of a run: its start and every state a step reaches."""
    s: GameState | None = None
    for first, action in run:
        if s is None:
            s = first
            yield s
        try:
            s = step(s, action).state
        except EngineError:
            continue
        yield s


def _card(handle: str, name: str, **fields: object) -> CardSpec:
    return CardSpec(handle, PERMANENT_CARDS[name], 0, **fields)  # type: ignore[arg-type]


def _one_shield() -> tuple[Shield, ...]:
    return (Shield("shield", 0, Rider.NONE),)


# Per invariant proved here, a mutant that breaks it and a run that shows it (as in
# tests/invariants/test_monitor.py): the abstraction must reject a step of the mutant's run.
MUTANT_RUNS: list[tuple[str, Mutant, tuple[CardSpec, ...], tuple[Action, ...]]] = [
    (
        "inv.regen.attachments-stay",
        Mutant.REGEN_UNATTACHES,
        (
            _card("troll", "Horned Troll", shields=_one_shield()),
            _card("aura", "Holy Strength", attached_to="troll"),
        ),
        (A.Destroy(targets=("troll",)),),
    ),
    (
        "inv.cleanup.ends-this-turn",
        Mutant.SHIELDS_SURVIVE_CLEANUP,
        (_card("troll", "Horned Troll", shields=_one_shield()),),
        (A.Cleanup(),),
    ),
    (
        "inv.cleanup.ends-this-turn",
        Mutant.CANT_REGEN_SURVIVES_CLEANUP,
        (_card("troll", "Horned Troll", cant_regen=True),),
        (A.Cleanup(),),
    ),
    (
        "inv.priority.no-sba-pending",
        Mutant.NO_SBA_BEFORE_PRIORITY,
        (_card("bears", "Grizzly Bears", damage=2),),
        (A.PassPriority(player=0),),
    ),
    (
        "inv.damage-trigger.kept",
        Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN,
        (_card("pup", "Jackal Pup", shields=_one_shield()),),
        (
            A.DealDamage(source="bolt", shares=(A.DamageShare(3, card="pup"),)),
            A.CheckStateBasedActions(),
        ),
    ),
    (
        # the Bolt resolves above the Shock, the pup regenerates and its trigger is lost: the
        # pass takes two objects off and counters nothing (608.2, 701.6a)
        "inv.damage-trigger.kept",
        Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN,
        (_card("pup", "Jackal Pup", shields=_one_shield()),),
        (
            SPELLS["Shock"].cast(0, (A.TargetChoice(player=1),)),
            SPELLS["Lightning Bolt"].cast(0, (A.TargetChoice(card="pup"),)),
            A.PassPriority(player=0),
            A.PassPriority(player=1),
        ),
    ),
]


@pytest.mark.parametrize(
    ("inv", "mutant", "cards", "actions"),
    MUTANT_RUNS,
    ids=[f"{m[0]}-{m[1].value}" for m in MUTANT_RUNS],
)
def test_a_mutant_breaking_an_any_n_proof_leaves_the_abstraction(
    inv: str, mutant: Mutant, cards: tuple[CardSpec, ...], actions: tuple[Action, ...]
) -> None:
    """The proof of ``inv`` for any number of permanents is falsified by ``mutant``: the
    mutant's run breaks ``inv`` on the engine, so it cannot be a run of the abstraction (on
    which ``inv`` is proved), and the conformance check must find the step that is not."""
    assert _catalog_rows()[inv].verdict is Verdict.PROVED
    start = make_state(("A", "B"), cards)
    run = [(start, a) for a in actions]
    assert _conformance_failures([run], Conformance(2))[1] == []  # the correct rules conform
    mutated = Rules(frozenset({mutant}))
    broken, s = set(), start
    for action in actions:
        r = step(s, action, mutated)
        broken |= {v.invariant for v in check_step(s, action, r, builtin())}
        s = r.state
    assert inv in broken  # the mutant's run breaks the invariant on the engine
    assert _conformance_failures([run], Conformance(2), mutated)[1] != []


def test_the_soundness_check_can_fail() -> None:
    troll = CardSpec(
        "troll", PERMANENT_CARDS["Horned Troll"], 0, shields=(Shield("Death Ward", 0, Rider.NONE),)
    )
    s = make_state(("A", "B"), (troll,))
    action = Destroy(targets=("troll",))
    r = step(s, action)
    out = outputs_of(s, r.events, r.state)
    check = Conformance(shields=2)
    assert check.check("destroy", s, out, r.state, 0)
    untapped = r.state._replace(cards=(r.state.cards[0]._replace(tapped=False),))
    assert not check.check("destroy", s, out, untapped, 0)  # regeneration always taps
    assert not check.check("create-shield", s, out, r.state, 0)  # no destruction there
