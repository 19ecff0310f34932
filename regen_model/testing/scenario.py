"""A case (a start and actions) as a scenario file: how the test API prints a failing example.

``case_yaml`` writes the reference engine's run of the case (the actions it rejects left out)
in the scenario format of docs/scenarios.md, with ``expect:`` under the divergent action
holding the specification's values of the fields an engine got wrong, so the text is at once
a readable report and a regression test (``regen-model run FILE`` passes it; the engine under
test, replaying it, does not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regen_model.conform.case import Case, Divergence, reference_run
from regen_model.model.rules import CORRECT, Rules
from regen_model.scenario.write import scenario_document, scenario_yaml

_CARD_FIELDS = {
    "zone": "zone",
    "controller": "controller",
    "tapped": "tapped",
    "damage": "damage",
    "shields": "shields",
    "power": "power",
    "toughness": "toughness",
    "attacking": "attacking",
    "unregenerable": "cant-be-regenerated",
}
_COUNTERS = {"plus_counters": "+1/+1", "minus_counters": "-1/-1", "shield_counters": "shield"}
_GAME_FIELDS = ("step", "turn", "active", "priority")


def expectation(divergence: Divergence) -> dict[str, Any]:
    """The specification's values of the fields that differ, as an ``expect:`` mapping (the
    fields the scenario format can check; events are described, not expected)."""
    out: dict[str, dict[str, Any]] = {}
    for d in divergence.diffs:
        head, _, rest = d.path.partition(".")
        if head == "cards":
            handle, _, name = rest.rpartition(".")
            if name in _CARD_FIELDS:
                out.setdefault(handle, {})[_CARD_FIELDS[name]] = d.expected
            elif name in _COUNTERS:
                counters = out.setdefault(handle, {}).setdefault("counters", {})
                counters[_COUNTERS[name]] = d.expected
        elif head == "players":
            player, _, name = rest.rpartition(".")
            out.setdefault("players", {}).setdefault(player, {})[name] = d.expected
        elif head == "game" and rest in _GAME_FIELDS:
            out[rest] = d.expected
    return out


def case_document(
    case: Case,
    *,
    name: str | None = None,
    description: str | None = None,
    expect: Mapping[int, Mapping[str, Any]] | None = None,
    rules: Rules = CORRECT,
) -> dict[str, Any]:
    """The scenario document of ``case``; ``expect[i]`` goes under the ``i``-th legal
    action."""
    run = reference_run(case, rules)
    s = case.start
    return scenario_document(
        name or case.name,
        description or f"A case drawn by {case.origin or 'regen-model'}.",
        s.players,
        s.cards,
        run.actions,
        edition=s.edition,
        turn=s.turn,
        active=s.active,
        step=s.step,
        priority=s.priority,
        life=s.life,
        library=s.library,
        expect=expect,
        clauses=case.clauses,
    )


def case_yaml(
    case: Case,
    divergence: Divergence | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    rules: Rules = CORRECT,
) -> str:
    """``case`` as scenario YAML; with a ``divergence``, the specification's values of the
    differing fields are expected under the divergent action."""
    expect = None
    if divergence is not None and divergence.step > 0:
        wanted = expectation(divergence)
        expect = {divergence.step - 1: wanted} if wanted else None
    return scenario_yaml(
        case_document(case, name=name, description=description, expect=expect, rules=rules)
    )
