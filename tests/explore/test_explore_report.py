"""Start states, counterexample tables, ITF files and the ``regen-model explore`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.encoding.scope import Scope
from regen_model.explore import ExploreConfig, ExploreResult, StartError, StartSpec, explore
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.report import summary, trace_table
from regen_model.explore.starts import start_states
from regen_model.explore.trace import diff, to_itf
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules

SCOPE = Scope()
_register_all()
RUNNER = CliRunner()


def test_starts_are_multisets_of_cards_and_owners() -> None:
    spec = StartSpec(("Grizzly Bears", "Horned Troll"), 2)
    states = start_states(spec, SCOPE)
    # 4 (card, owner) pairs, multisets of 2: C(5, 2) = 10
    assert len(states) == 10
    boards = {
        tuple(sorted((s.setup.templates[c.slot].name, s.setup.owners[c.slot]) for c in s.cards))
        for s in states
    }
    assert len(boards) == 10
    twins = [s for s in states if s.setup.handles == ("grizzly-bears", "grizzly-bears-2")]
    assert twins, "two copies of a card get distinct handles"


def test_auras_start_attached_to_a_creature() -> None:
    states = start_states(StartSpec(("Grizzly Bears", "Holy Strength"), 2, owners=(0,)), SCOPE)
    # bears+bears, bears+aura (aura on the bears); aura+aura has no host and is skipped
    assert len(states) == 2
    with_aura = [s for s in states if "holy-strength" in s.setup.handles]
    assert [c.attached_to for c in with_aura[0].cards] == [None, 0]


def test_start_shields_are_consistent_with_the_ghost_counters() -> None:
    (state,) = start_states(StartSpec(("Grizzly Bears",), 1, owners=(1,), shields=2), SCOPE)
    card = state.cards[0]
    assert len(card.active_shields) == 2
    assert card.ghost.shields_made == 2
    assert all(s.creator == 1 for s in card.shields)
    assert CatalogMonitor().check_state(state) == []


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (StartSpec(("Nope",), 1), "unknown card"),
        (StartSpec(("Darksteel Colossus",), 1), "outside the scope"),
        (StartSpec(("Grizzly Bears",), 9), "do not fit"),
        (StartSpec(("Grizzly Bears",), 1, shields=3), "shields do not fit"),
        (StartSpec((), 1), "empty"),
    ],
)
def test_bad_starts_are_reported(spec: StartSpec, message: str) -> None:
    with pytest.raises(StartError, match=message):
        start_states(spec, SCOPE)


def _counterexample() -> ExploreResult:
    config = ExploreConfig(
        StartSpec(("Grizzly Bears",), 1, owners=(0,)),
        depth=3,
        rules=Rules(frozenset({Mutant.REGEN_DOES_NOT_TAP})),
    )
    return explore(config, CatalogMonitor())


def test_trace_table_shows_changed_fields_and_clauses() -> None:
    cex = _counterexample().violations["inv.regen.same-object"]
    console = Console(width=200, record=True)
    console.print(trace_table(cex))
    text = console.export_text()
    assert "create-shield target=grizzly-bears" in text
    assert "grizzly-bears.shields: [] -> [regeneration shield]" in text
    assert "regen.shield.apply (701.19a" in text
    changes = diff(cex.trace.start, cex.trace.states[-1])
    assert ("grizzly-bears.tapped", False, True) not in changes, "the mutant does not tap"


def test_itf_trace_has_one_state_per_step_and_the_actions() -> None:
    cex = _counterexample().violations["inv.regen.same-object"]
    itf = json.loads(json.dumps(to_itf(cex.trace, {"invariant": cex.invariant})))
    assert itf["#meta"]["format"] == "ITF"
    assert itf["vars"] == ["cards", "players", "game", "events"]  # the one ITF vocabulary
    assert len(itf["states"]) == cex.length + 1
    assert [s["#meta"]["index"] for s in itf["states"]] == list(range(cex.length + 1))
    last = itf["states"][-1]
    assert last["#meta"]["action"]["kind"] == "destroy"
    assert "regen.shield.apply" in last["#meta"]["clauses"]
    assert dict(last["cards"]["#map"])["grizzly-bears"]["tapped"] is False
    assert "null" not in json.dumps(itf["states"]), "ITF has no null"


def test_summary_json_counts() -> None:
    doc = summary(_counterexample())
    assert doc["verdict"] == "VIOLATED"
    assert doc["exit_code"] == 1
    assert doc["states"] == sum(doc["levels"])
    assert doc["violations"][0]["length"] == 2
    assert doc["config"]["rules"] == "regen-does-not-tap"


def test_cli_proves_and_exits_zero() -> None:
    result = RUNNER.invoke(app, ["explore", "--depth", "2", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "PROVED"
    assert doc["levels"][0] == 2


def test_cli_counterexample_writes_itf(tmp_path: Path) -> None:
    result = RUNNER.invoke(
        app, ["explore", "-m", "create-taps", "--itf", str(tmp_path), "--continue", "-d", "1"]
    )
    assert result.exit_code == 1, result.output
    assert "Counterexample to inv.regen.taps-only-when-applied (1 step(s))" in result.output
    written = json.loads((tmp_path / "inv.regen.taps-only-when-applied.itf.json").read_text())
    assert written["#meta"]["rules"] == "create-taps"


def test_cli_battery_scope_and_bad_input() -> None:
    ok = RUNNER.invoke(app, ["explore", "--battery", "attachments", "--json"])
    assert ok.exit_code == 0, ok.output
    bad = RUNNER.invoke(app, ["explore", "--card", "Black Lotus"])
    assert bad.exit_code == 2
    assert "unknown card 'Black Lotus'" in bad.output
    kind = RUNNER.invoke(app, ["explore", "--kind", "fly"])
    assert kind.exit_code == 2
    assert "unknown action kind 'fly'" in kind.output
