"""Proof of power: the cross-checker finds every deliberately wrong engine, with a small case.

The engines under test are the reference engine under every rule mutant of
``model.enums.Mutant`` (each one rule broken), and the realistic engine bugs of
``regen_model/testing/bugs.py`` (board wipes ignoring "can't be regenerated", regeneration clearing
-1/-1 counters, "can't be regenerated" lost on a control change, regenerated attackers
still dealing combat damage). The input is the crosscheck's own: clause witnesses, scenario
files and 1500 random cases of seed 0. A table is printed either way.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.console import Console
from rich.table import Table

from regen_model.conform.adapter import EngineAdapter, ReferenceAdapter
from regen_model.conform.case import Case
from regen_model.conform.differential import crosscheck
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.testing.bugs import BUG_ADAPTERS

MAX_MINIMAL_STEPS = 10

# Bugs whose smallest case is longer by the rules, with the bound and why.
LONG_CASES: dict[str, tuple[int, str]] = {
    f"mutant {m.value}": (
        16,
        "from a main phase start a Basilisk's delayed trigger needs the whole combat: steps "
        "to declare attackers and blockers, combat damage, then the end of combat step where "
        "it triggers and resolves, each step ended by both players passing",
    )
    for m in (Mutant.EOC_DESTROY_NEEDS_COMBAT, Mutant.REGEN_CANCELS_EOC_DESTROY)
} | {
    f"mutant {Mutant.TRIGGERS_REVERSED_APNAP.value}": (
        12,
        "it shows only where triggers of both players wait at once; the first case of the "
        "corpus that has them is a Thicket Basilisk blocked by a Cockatrice (both delayed "
        "triggers at end of combat, 603.7), which from the start of combat needs the "
        "declarations and every step ended by both players passing; the shrinker keeps to "
        "the case it found",
    )
}


def _mutant(m: Mutant) -> Callable[[], EngineAdapter]:
    return lambda: ReferenceAdapter(Rules(frozenset({m})))


# Mutants that only let an engine accept an action the rules refuse, with nothing else in the
# game changed: a run that sends only the actions the specification accepts (the default)
# cannot see them; with ``probe_refusals`` the refused actions are sent too and the run finds
# them. Each is also killed by the scenario given, which expects the refusal.
ACCEPTS_MORE: dict[Mutant, tuple[str, str]] = {
    Mutant.TAP_COST_WHILE_TAPPED: (
        "costs/tap-cost-niall-silvain.yaml",
        "a tapped permanent paying {T} again is only ever an extra action",
    ),
    Mutant.SACRIFICE_ANY_CREATURE: (
        "costs/sacrifice-a-creature-dark-privilege.yaml",
        "paying with an opponent's creature is only ever an extra action",
    ),
}

# No mutant is left out as unobservable (it changing only what the projection, ``observe.py``,
# leaves out): those that were left the list when the projection grew what they change, and
# every one is now caught like the others (``test_every_buggy_engine_is_caught_with_a_small_case``):
# ``spell-to-graveyard-first`` (a graveyard's order, 608.2n) with the graveyards, and
# ``dies-draw-by-owner`` (which player Fecundity lets draw, 603.10a) and
# ``rider-draw-by-controller`` (which player Soldevi Sentry's rider lets draw, 603.7e) with the
# hand and library sizes (issue 13's cross-check).

BUGS: list[tuple[str, Callable[[], EngineAdapter]]] = [
    (f"mutant {m.value}", _mutant(m)) for m in Mutant if m not in ACCEPTS_MORE
] + [(f"bug {cls.__name__}: {cls.bug}", cls) for cls in BUG_ADAPTERS]


_BY_SCENARIO = ACCEPTS_MORE


@pytest.mark.parametrize("mutant", list(_BY_SCENARIO), ids=[m.value for m in _BY_SCENARIO])
def test_a_mutant_a_plain_crosscheck_misses_is_killed_by_its_scenario(mutant: Mutant) -> None:
    from pathlib import Path

    from regen_model.scenario import load_scenario, run_scenario
    from regen_model.verdicts import Verdict

    path = Path(__file__).parents[1] / "scenarios" / _BY_SCENARIO[mutant][0]
    scenario = load_scenario(path)
    assert run_scenario(scenario).verdict is Verdict.PASSED
    assert run_scenario(scenario, Rules(frozenset({mutant}))).verdict is Verdict.FAILED


@pytest.mark.parametrize("mutant", list(ACCEPTS_MORE), ids=[m.value for m in ACCEPTS_MORE])
def test_a_mutant_that_accepts_more_is_found_only_by_probing_refusals(
    mutant: Mutant, corpus: list[Case]
) -> None:
    silent = crosscheck(_mutant(mutant), corpus, stop_after=1, shrink_findings=False)
    assert not silent.findings, "a run without probes sees it: move it out of ACCEPTS_MORE"
    report = crosscheck(_mutant(mutant), corpus, stop_after=1, probe_refusals=True)
    assert report.findings, f"{mutant.value} not caught with refusals probed"
    finding = report.findings[0]
    assert finding.divergence.accepted, finding.divergence.summary()
    assert finding.signature[-1] == "accepted"
    assert finding.minimal_steps <= MAX_MINIMAL_STEPS


def test_every_buggy_engine_is_caught_with_a_small_case(
    corpus: list[Case], capsys: pytest.CaptureFixture[str]
) -> None:
    table = Table(title=f"crosscheck power ({len(corpus)} cases available per engine)")
    for col in ("bug", "found", "cases run", "minimal steps", "clauses"):
        table.add_column(col)
    missed = []
    too_long = []
    for name, factory in BUGS:
        report = crosscheck(factory, corpus, stop_after=1)
        finding = report.findings[0] if report.findings else None
        if finding is None:
            missed.append(name)
            table.add_row(name, "NO", str(report.cases), "-", "-")
            continue
        if finding.minimal_steps > LONG_CASES.get(name, (MAX_MINIMAL_STEPS, ""))[0]:
            too_long.append((name, finding.minimal_steps))
        key = [c for c in finding.divergence.clauses if not c.startswith(("priority.", "turn."))]
        table.add_row(
            name,
            "yes",
            str(report.cases),
            str(finding.minimal_steps),
            ", ".join(key[:4]),
        )
    with capsys.disabled():
        Console(width=160).print(table)
    assert not missed, f"not caught: {missed}"
    assert not too_long, f"minimal cases longer than {MAX_MINIMAL_STEPS} steps: {too_long}"
