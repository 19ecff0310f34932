"""find, replay and ITF on the minimal system over real frames (tests/checks/mini.py)."""

from __future__ import annotations

import json

import pytest

from regen_model.checks.bmc import Found
from regen_model.checks.find import find
from regen_model.checks.replay import ReplayDisagreement, Run, diff, replay
from regen_model.checks.solver import Budget
from regen_model.checks.traces import compact, rows, to_itf
from regen_model.conform.observe import CARD_FIELDS
from regen_model.invariants.query import parse

from .mini import MiniSystem

BUDGET = Budget()


def test_shortest_trace_is_found_and_replayed() -> None:
    result = find(
        MiniSystem(), parse("exists c: c.by_shield >= 1 and c.unused_shields >= 1"), 5, BUDGET
    )
    assert result.found is Found.FOUND and result.depth == 3
    assert result.searched == 2  # depths 0, 1 and 2 were refuted first
    assert result.replayed is not None
    kinds = [a.kind for a in result.replayed.run.actions]
    assert sorted(kinds) == ["create-shield", "create-shield", "destroy"]
    table = rows(result.replayed)
    assert table[0].action == "start"
    destroy_row = next(r for r in table if r.action.startswith("destroy"))
    assert "regen.shield.apply" in destroy_row.clauses
    assert any(path.endswith(".tapped") for path, _, _ in destroy_row.changed)


def test_step_queries_with_run_totals() -> None:
    # Without static regeneration in the mini system, regeneration never taps without a shield.
    none = find(
        MiniSystem(), parse("step: regen_taps[c] > 0 and shields_made_total[c] == 0"), 3, BUDGET
    )
    assert none.found is Found.NONE and none.searched == 3
    some = find(
        MiniSystem(), parse("step: regen_taps[c] > 0 and shields_made_total[c] == 1"), 3, BUDGET
    )
    assert some.found is Found.FOUND and some.depth == 2


def test_itf_trace() -> None:
    result = find(MiniSystem(), parse("exists c: c.zone == graveyard"), 3, BUDGET)
    assert result.replayed is not None
    itf = to_itf(result.replayed, {"query": "q"})
    assert itf["vars"] == ["cards", "players", "game", "events"]  # the one ITF vocabulary
    assert itf["#meta"]["format"] == "ITF" and itf["#meta"]["query"] == "q"
    assert result.depth is not None and len(itf["states"]) == result.depth + 1
    last = itf["states"][-1]
    assert last["#meta"]["action"]["kind"] == "destroy"
    assert "destroy.effect" in last["#meta"]["clauses"]
    zones = dict(last["cards"]["#map"])
    assert "graveyard" in {rec["zone"] for rec in zones.values()}
    assert all(set(rec) <= set(CARD_FIELDS) for rec in zones.values())
    assert "null" not in json.dumps(itf["states"])  # ITF has no null


def test_a_tampered_trace_is_a_disagreement() -> None:
    result = find(MiniSystem(), parse("exists c: c.by_shield >= 1"), 3, BUDGET)
    assert result.replayed is not None
    run = result.replayed.run
    last = run.states[-1]
    target = next(i for i, c in enumerate(last.cards) if c.ghost.by_shield)
    tampered_card = last.cards[target]._replace(tapped=False)
    cards = tuple(tampered_card if i == target else c for i, c in enumerate(last.cards))
    tampered = Run((*run.states[:-1], last._replace(cards=cards)), run.actions)
    with pytest.raises(ReplayDisagreement) as err:
        replay(tampered)
    assert err.value.path == f"{last.handle(target)}.tapped"
    assert err.value.step == run.length
    assert err.value.solver is False and err.value.engine is True


def test_an_action_the_engine_refuses_is_a_disagreement() -> None:
    result = find(MiniSystem(), parse("exists c: c.zone == graveyard"), 2, BUDGET)
    assert result.replayed is not None
    run = result.replayed.run
    again = Run((*run.states, run.states[-1]), (*run.actions, run.actions[-1]))
    with pytest.raises(ReplayDisagreement) as err:
        replay(again)
    assert err.value.path == "action" and "rejected" in str(err.value.engine)


def test_a_wrong_relation_is_caught_by_replay() -> None:
    """The broken mini system keeps used shields unused: its trace disagrees with the engine."""
    with pytest.raises(ReplayDisagreement) as err:
        find(MiniSystem(broken="no-consume"), parse("exists c: c.by_shield >= 1"), 3, BUDGET)
    assert err.value.path.endswith(".shields")


def test_diff_orders_fields_and_ignores_descriptions() -> None:
    result = find(MiniSystem(), parse("exists c: c.shields >= 1"), 2, BUDGET)
    assert result.replayed is not None
    state = result.replayed.states[-1]
    renamed = state._replace(
        cards=tuple(
            c._replace(shields=tuple(s._replace(origin="x") for s in c.shields))
            for c in state.cards
        )
    )
    assert diff(state, renamed) == []


def test_trace_rows_for_people() -> None:
    result = find(
        MiniSystem(), parse("exists c: c.by_shield >= 1 and c.unused_shields >= 1"), 5, BUDGET
    )
    assert result.replayed is not None
    table = rows(result.replayed)
    start = compact(table[0].changed)
    assert any(line.startswith("c0: creature") for line in start)  # printed characteristics
    lines = [line for row in table[1:] for line in compact(row.changed)]
    assert any(".shields: [" in line and "used/by" in line for line in lines)
    assert all("'" not in row.action for row in table)  # actions are written without quotes
    appeared = compact(
        [
            ("pending[0].kind", None, "trigger"),
            ("pending[0].effect.kind", None, "counters"),
            ("pending[0].effect.amount", None, 1),
            ("pending[0].targets", None, ()),
            ("c0.tapped", False, True),
        ]
    )
    assert appeared == [
        "pending[0] = {kind: trigger, effect: counters, amount: 1}",
        "c0.tapped: false -> true",
    ]
    assert compact([("stack[0].kind", "spell", None), ("stack[0].source", "c0", None)]) == [
        "stack[0]: gone"
    ]
