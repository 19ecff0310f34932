"""Random and witness cases: reproducible from their seed, legal, and covering the catalog."""

from __future__ import annotations

from regen_model.clauses import catalog
from regen_model.conform.case import Case, legal_actions
from regen_model.conform.generate import random_cases
from regen_model.conform.witness import goal_clause, reached_goals


def test_random_cases_are_reproducible_and_legal() -> None:
    first = random_cases(25, seed=11)
    assert first == random_cases(25, seed=11)
    assert first != random_cases(25, seed=12)
    for case in first:
        assert legal_actions(case) == case.actions, case.name


def test_witnesses_reach_their_goal_and_cover_every_clause(witnesses: list[Case]) -> None:
    goals = {c.origin.removeprefix("witness:"): c for c in witnesses}
    assert set(catalog().clauses) <= {goal_clause(g) for g in goals}
    for goal, case in goals.items():
        assert goal in reached_goals(case), goal
    assert any("@again" in g for g in goals) and any("@borrowed" in g for g in goals)
    assert sum(len(c.actions) for c in witnesses) / len(witnesses) < 6


def test_witnesses_from_another_tool_become_cases() -> None:
    """The Z3 cover check hands over (start, actions) per clause: they become cases."""
    from types import SimpleNamespace

    from regen_model.conform.sources import cover_cases
    from regen_model.conform.start import Start
    from regen_model.engine import step
    from regen_model.model import actions as A

    from .helpers import card, shields

    start = Start(("A", "B"), (card("troll", "Horned Troll", 0, shields=shields("x")),))
    mid_step = step(
        start.build(), A.ActivateAbility(player=0, source="troll")
    ).state  # an ability on the stack: not a start another engine can set up
    found = {
        "regen.shield.apply": SimpleNamespace(
            start=start.build(), actions=(A.Destroy(targets=("troll",)),)
        ),
        "stack.activate": SimpleNamespace(start=mid_step, actions=()),
    }
    cases, skipped = cover_cases(found)
    assert [c.name for c in cases] == ["cover-regen-shield-apply"]
    assert cases[0].start == start and cases[0].clauses == ("regen.shield.apply",)
    assert skipped[0][0] == "stack.activate" and "stack" in skipped[0][1]
