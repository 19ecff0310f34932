"""Probing refusals (``run_case(probe_refusals=True)``, ``crosscheck --probe-refusals``): the
actions the rules refuse are sent to the engine, which must refuse them too; a saved case keeps
them (``#meta.refused`` of its ITF trace), so a finding replays as it was found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regen_model.conform.adapter import ReferenceAdapter
from regen_model.conform.case import Case, Outcome, case_from_trace, run_case, to_trace
from regen_model.conform.itf import parse_trace
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.sources import scenario_cases
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules

NIALL = Path(__file__).parents[1] / "scenarios" / "costs" / "tap-cost-niall-silvain.yaml"


@pytest.fixture(scope="module")
def niall() -> Case:
    cases, skipped = scenario_cases([NIALL])
    assert not skipped and len(cases) == 1
    return cases[0]


def test_a_scenario_keeps_its_one_action_refusals(niall: Case) -> None:
    # the summoning-sick Niall and the tapped Niall: two events the file expects to fail
    run = run_case(niall, ReferenceAdapter())
    assert run.outcome is Outcome.PASSED
    assert run.skipped_actions == 2


def test_an_engine_refusing_what_the_rules_refuse_passes_and_counts_the_probes(
    niall: Case,
) -> None:
    run = run_case(niall, ReferenceAdapter(), probe_refusals=True)
    assert run.outcome is Outcome.PASSED
    assert run.probed == 2


def test_an_engine_that_accepts_more_diverges_only_when_probed(niall: Case) -> None:
    lax = Rules(frozenset({Mutant.TAP_COST_WHILE_TAPPED}))
    assert run_case(niall, ReferenceAdapter(lax)).outcome is Outcome.PASSED
    run = run_case(niall, ReferenceAdapter(lax), probe_refusals=True)
    assert run.outcome is Outcome.DIVERGED and run.divergence is not None
    d = run.divergence
    assert "cost.tap" in d.accepted and d.clauses == ("cost.tap",)
    assert d.signature()[-1] == "accepted"
    assert "accepted an action the rules refuse" in d.summary()
    assert d.diffs, "what the engine did instead of nothing is shown"
    assert d.to_json()["accepted"] == d.accepted


def test_a_saved_case_keeps_its_refused_actions_in_place(niall: Case) -> None:
    trace = to_trace(niall)
    refused = trace["#meta"]["refused"]
    assert [e["after"] for e in refused] == [0, 4]  # activate, flicker, two passes
    back = case_from_trace(parse_trace(json.dumps(trace)))
    assert back.actions == niall.actions


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"after": 99, "action": {"kind": "pass", "player": "A"}}, "after"),
        ({"after": 0}, "action"),
        ({"after": 0, "action": {"kind": "pass", "player": "A"}, "extra": 1}, "extra"),
    ],
)
def test_a_malformed_refused_entry_names_its_field(
    niall: Case, entry: dict[str, object], field: str
) -> None:
    trace = to_trace(niall)
    trace["#meta"]["refused"] = [entry]
    with pytest.raises(FormatError) as err:
        parse_trace(json.dumps(trace, indent=1), "t.itf.json")
    assert err.value.field.startswith("#meta.refused[0]")
    assert field in err.value.field or field in err.value.message
    assert err.value.line > 0
