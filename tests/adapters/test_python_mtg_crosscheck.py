"""CI's bounded crosscheck against python-mtg, held against its list of known divergences.

As for phase.rs (test_phase_crosscheck.py), two directions, both of which can fail:

* a fixed-seed run (clause witnesses and coverage-guided random cases, inside the features the
  adapter declares) given ``regen_model/adapters/python_mtg/known_divergences.yaml`` goes on past
  every known divergence and must end with none unexplained, no engine error, under 10 % of the
  cases skipped, and with every divergence of a run without the list inside some finding;
* every entry's pinned minimal scenario must still diverge the way the entry says, and pass on
  our engine.

Sized for CI: well under a minute once python-mtg's card corpus is loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "mtg", reason="python-mtg is not installed (pip install 'regen-model[python-mtg]')"
)

from regen_model.adapters.python_mtg import KNOWN_FILE, LACKS, PythonMtgAdapter, make_adapter
from regen_model.conform.case import CaseResult, Outcome, run_case
from regen_model.conform.differential import CrosscheckReport
from regen_model.conform.known import (
    VERDICTS,
    KnownDivergence,
    classifier,
    classify,
    known_version,
    load_known,
)
from regen_model.conform.sources import saved_cases
from regen_model.conform.stream import StreamOptions
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

from .ci_crosscheck import ci_crosscheck

ROOT = Path(__file__).resolve().parents[2]
RANDOM = 150
OPTIONS = StreamOptions(seed=2026, random_cases=RANDOM, scenarios=False, cover=False)
KNOWN = load_known(KNOWN_FILE)
REPRODUCE = OPTIONS.command(
    "python-mtg", "--known", str(KNOWN_FILE.relative_to(ROOT)), "--out", "crosscheck-pm"
)


def test_the_list_was_made_with_the_installed_python_mtg() -> None:
    from importlib import metadata

    assert known_version(KNOWN_FILE) == metadata.version("python-mtg"), (
        "known_divergences.yaml is for another python-mtg: rerun the crosscheck "
        "(docs/python-mtg-report.md) and update the list"
    )


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_known_entry_is_complete(entry: KnownDivergence) -> None:
    assert entry.verdict in VERDICTS
    assert entry.rules, "name the rule that decides it"
    assert (ROOT / entry.scenario).is_file(), f"{entry.scenario} is missing"
    report = (ROOT / "docs" / "python-mtg-report.md").read_text(encoding="utf-8")
    assert f"| {entry.id} |" in report, f"{entry.id} has no row in docs/python-mtg-report.md"


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_pinned_scenario_states_the_rules(entry: KnownDivergence) -> None:
    result = run_scenario(load_scenario(ROOT / entry.scenario))
    assert result.verdict is Verdict.PASSED, [c.what for c in result.failures]


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_known_divergence_still_occurs(entry: KnownDivergence) -> None:
    """If this fails, python-mtg changed: if it now follows the rules, remove the entry."""
    (case,) = saved_cases([ROOT / entry.scenario])
    result = run_case(case, PythonMtgAdapter())
    assert result.outcome is Outcome.DIVERGED, f"{entry.id} no longer diverges: {result.reason}"
    assert result.divergence is not None
    found = classify(result.divergence, KNOWN)
    assert found.known and found.ids == (entry.id,), (
        f"{entry.id}: the pinned scenario now diverges differently: "
        f"{result.divergence.summary()} (explained by {found.ids}, unexplained "
        f"{found.unexplained})"
    )


def batch_problems(report: CrosscheckReport, results: list[CaseResult]) -> list[str]:
    """What is wrong with CI's batch, every problem at once (an empty list: none): a
    divergence the known list does not explain, no case compared past a known divergence
    (python-mtg is resynced there: PM-01 alone would otherwise end every case with a combat in
    it), an engine error, over a tenth of the cases skipped, or too little compared."""
    problems: list[str] = []
    unknown = [
        f"{r.case.name} step {r.divergence.step}: {r.divergence.summary()}"
        for r in results
        if r.outcome is Outcome.DIVERGED and r.divergence is not None
    ]
    if unknown:
        problems.append(
            f"{len(unknown)} divergences are not in known_divergences.yaml (reproduce and "
            f"shrink with: {REPRODUCE}):\n" + "\n".join(unknown[:20])
        )
    if report.known.get("PM-01", 0) == 0:
        problems.append("PM-01 was never met")
    if not [r for r in results if r.known and r.steps_run > r.known[0][0] and not r.masked]:
        problems.append("no case was compared past a known divergence")
    errors = [f"{r.case.name}: {r.reason}" for r in results if r.outcome is Outcome.ENGINE_ERROR]
    if errors:
        problems.append(f"{len(errors)} engine errors:\n" + "\n".join(errors[:20]))
    if report.skip_rate >= 0.10:
        problems.append(f"{report.skip_rate:.0%} of the cases skipped: {report.skipped[:10]}")
    compared = [r for r in results if r.outcome in (Outcome.PASSED, Outcome.KNOWN)]
    if len(compared) < RANDOM // 2:
        problems.append(f"only {len(compared)} cases compared")
    if sum(r.fields_compared for r in compared) <= 50 * len(compared):
        problems.append("the compared cases compared 50 fields each or fewer")
    return problems


def test_ci_batch_finds_only_known_divergences_and_compares_enough() -> None:
    """The fixed-seed batch (the cases of REPRODUCE: those the command compares, from the same
    options), run once: its properties are checked together in one test so that pytest-xdist
    never runs the batch on both of its workers (a module-scoped fixture shared by several
    tests was built once per worker that ran one)."""
    report, results, stream = ci_crosscheck(make_adapter, OPTIONS, KNOWN)
    assert stream.lacks == LACKS
    problems = batch_problems(report, results)
    assert not problems, "\n\n".join(problems)


def test_a_resync_after_a_flicker_drops_the_old_objects_effects() -> None:
    """The adapter resyncs python-mtg past PM-12 (the flickered Elf is put back); the resync
    used to keep the old object's "indestructible until end of turn", so the Terror after it
    diverged in a way no entry explains (``crosscheck --seed 1``, random-1-24)."""
    (case,) = saved_cases([ROOT / "tests/adapters/cases/pm-resync-after-flicker.yaml"])
    result = run_case(case, PythonMtgAdapter(), known=classifier(KNOWN))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PM-12",)]
