"""The engine and the transition relation agree (``regen_model.encoding.agreement``).

The quick preset agrees under the correct rules; a mutant introduced into only one of the two
views is a disagreement naming the mutated clause, while the same mutant in both views agrees
(both consult the same switch); the relation's enabled actions are the engine's (guard vs
``EngineError``), also on unfiltered candidates; the ``verify`` section reports one row per
search.
"""

from __future__ import annotations

import pytest

from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.bounded import (
    AGREEMENT_FRAME_SCOPE,
    QUICK_AGREEMENT,
    AgreementReport,
    AgreementScope,
    bounded_agreement,
)
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.verify_section import agreement_rows
from regen_model.engine import EngineError, step
from regen_model.explore.actions import ActionFamily, enumerate_actions
from regen_model.explore.starts import StartSpec, start_states
from regen_model.model import actions as A
from regen_model.model.enums import Mutant, Step
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import Verdict

SCOPE = AGREEMENT_FRAME_SCOPE
# The quick preset's effects search: destruction, shields, umbra armor, shield counters.
EFFECTS = AgreementScope(SCOPE, tuple(r for r in QUICK_AGREEMENT.runs if r.name == "effects"))


@pytest.fixture(scope="module")
def quick() -> AgreementReport:
    return bounded_agreement(QUICK_AGREEMENT, CORRECT, workers=2)


def test_quick_preset_agrees(quick: AgreementReport) -> None:
    t = quick.tally
    assert quick.verdict is Verdict.PROVED, [d.result.describe() for d in t.disagreements[:3]]
    assert t.status[Status.DISAGREE.value] == 0 and t.status[Status.DIVERGES.value] == 0
    assert t.checks > 5000 and t.states > 5000
    assert [quick.run_verdict(r.name) for r in QUICK_AGREEMENT.runs] == [Verdict.PROVED] * 3
    # every action kind the searches offer is checked while enabled in both views
    expected = {
        "destroy", "create-shield", "deal-damage", "sacrifice", "exile", "leave-and-return",
        "pass", "declare-attackers", "declare-blockers", "assign-combat-damage", "cast",
        "activate",
    }  # fmt: skip
    assert expected <= {k for k, n in t.enabled.items() if n}


def test_verify_rows(quick: AgreementReport) -> None:
    rows = agreement_rows(quick)
    assert [r.item for r in rows] == [r.name for r in QUICK_AGREEMENT.runs]
    assert all(r.verdict is Verdict.PROVED and not r.message for r in rows)
    assert dict(rows[0].details)["actions checked"] == f"{quick.runs['effects'].checks:,}"


ONE_VIEW = [
    # (mutant, the view it is put in, the clause the disagreement must name)
    (Mutant.REGEN_DOES_NOT_TAP, "engine", "regen.apply.tap"),
    (Mutant.REGEN_DOES_NOT_TAP, "relation", "regen.apply.tap"),
    (Mutant.CREATE_TAPS, "engine", "regen.shield.create"),
    (Mutant.CREATE_TAPS, "relation", "regen.shield.create"),
    (Mutant.REGEN_UNATTACHES, "engine", "regen.same-object"),
    (Mutant.REGEN_UNATTACHES, "relation", "regen.same-object"),
    (Mutant.SHIELD_NOT_CONSUMED, "engine", "regen.shield.apply"),
    (Mutant.SACRIFICE_USES_SHIELD, "relation", "zone.sacrifice"),
]


@pytest.mark.parametrize(("mutant", "view", "clause"), ONE_VIEW)
def test_one_view_mutant_is_caught(mutant: Mutant, view: str, clause: str) -> None:
    mutated = Rules(frozenset({mutant}))
    engine, relation = (mutated, CORRECT) if view == "engine" else (CORRECT, mutated)
    report = bounded_agreement(EFFECTS, engine, relation_rules=relation, workers=1)
    assert report.verdict is Verdict.FAILED
    first = report.tally.disagreements[0]
    assert first.result.status is Status.DISAGREE
    assert clause in first.result.clauses, first.result.describe()
    assert report.rules_name == (
        f"engine {mutant.value}, relation correct"
        if view == "engine"
        else f"engine correct, relation {mutant.value}"
    )
    row = agreement_rows(report)[0]
    assert row.verdict is Verdict.FAILED and clause in row.message


@pytest.mark.parametrize("mutant", [Mutant.REGEN_DOES_NOT_TAP, Mutant.CREATE_TAPS])
def test_mutant_in_both_views_agrees(mutant: Mutant) -> None:
    """The control for the test above: both views consult the same switch."""
    report = bounded_agreement(EFFECTS, Rules(frozenset({mutant})), workers=1)
    assert report.verdict is Verdict.PROVED


def test_refused_action_is_refused_by_the_guard() -> None:
    """An action the engine refuses (``EngineError``) has a false guard in the relation."""
    state = start_states(StartSpec(("Grizzly Bears",), 1, step=Step.MAIN1), SCOPE)[0]
    assert state.priority == 0
    wrong_player = A.PassPriority(player=1)
    with pytest.raises(EngineError):
        step(state, wrong_player)
    result = check_agreement(state, wrong_player, CORRECT, SCOPE)
    assert result.status is Status.AGREE
    assert (result.engine_enabled, result.relation_enabled) == (False, False)
    assert result.guard  # the relation names the guard that refused it
    accepted = check_agreement(state, A.PassPriority(player=0), CORRECT, SCOPE)
    assert accepted.agrees and accepted.engine_enabled and accepted.successor is not None


def test_enabled_actions_are_the_engines_on_unfiltered_candidates() -> None:
    """Every candidate of the domains, evidently illegal ones included: the relation enables
    exactly the actions the engine accepts."""
    spec = StartSpec(
        ("Horned Troll", "Eland Umbra", "Colossal Dreadmaw"), 2, step=Step.BEGIN_COMBAT
    )
    refused = accepted = 0
    for state in start_states(spec, SCOPE)[:6]:
        prep = prepare(state, SCOPE)
        for family in (ActionFamily.GAME, ActionFamily.EFFECTS):
            for action in enumerate_actions(
                state, SCOPE, family=family, spells=("Murder", "Regenerate"), prefilter=False
            ):
                result = check_agreement(state, action, CORRECT, SCOPE, prep)
                if result.status is Status.OUT_OF_SCOPE:
                    continue
                assert result.agrees, result.describe()
                assert result.engine_enabled == result.relation_enabled
                if result.engine_enabled:
                    accepted += 1
                else:
                    refused += 1
    assert accepted > 50 and refused > 50
