"""How the parallel induction splits its work (``checks/parallel.py``): a scheduling choice
that must not lose or repeat an obligation."""

from __future__ import annotations

from regen_model.checks import parallel

KINDS = ("grant", "pass", "destroy", "cleanup", "assign-combat-damage")
IDS = ("a", "inv.priority.no-sba-pending", "b", "inv.damage-trigger.kept")


def _pairs(tasks: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, str]]:
    return [(k, i) for k, only in tasks for i in (only or IDS)]


def test_every_obligation_is_in_exactly_one_task() -> None:
    pairs = _pairs(parallel.tasks(KINDS, IDS))
    assert sorted(pairs) == sorted((k, i) for k in KINDS for i in IDS)


def test_split_kinds_go_one_property_at_a_time_the_slow_ones_first() -> None:
    tasks = parallel.tasks(KINDS, IDS)
    assert tasks[0] == ("pass", ("inv.damage-trigger.kept",))
    assert tasks[1] == ("pass", ("inv.priority.no-sba-pending",))
    for kind, only in tasks:
        assert len(only) == (1 if kind in parallel.SPLIT else 0)
    # the heavy kinds before the rest
    kinds = list(dict.fromkeys(k for k, _ in tasks))
    assert kinds[:3] == ["pass", "assign-combat-damage", "destroy"]
