"""CI's bounded crosscheck against phase.rs, held against the list of known divergences.

Two directions, both of which can fail:

* every divergence of a fixed-seed run of random scenarios must be explained by an entry of
  ``regen_model/adapters/phase/known_divergences.yaml`` (a new divergence fails the build, with
  the command that reproduces it), and the run must not have engine errors (an adapter bug would
  otherwise hide scenarios);
* every entry's pinned minimal scenario must still diverge the way the entry says (when phase.rs
  fixes one, this fails, so the list and docs/phase-report.md are updated), and must pass on our
  engine (the pinned scenario states what the rules require).

The run is sized for CI: about a minute on the 2-core CI machine, well under three.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter, make_adapter
from regen_model.adapters.phase.database import phase_version
from regen_model.adapters.phase.known import (
    VERDICTS,
    KnownDivergence,
    classify,
    known_version,
    load_known,
)
from regen_model.conform.case import CaseResult, Outcome, run_case
from regen_model.conform.differential import crosscheck
from regen_model.conform.generate import random_cases
from regen_model.conform.guided import guided_cases
from regen_model.conform.sources import saved_cases, witness_cases
from regen_model.scenario import load_scenario, run_scenario
from regen_model.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]
SEED = 2026
RANDOM = 300
GUIDED = 40  # the skip-rate check: cases generated inside phase.rs's declared features
MAX_STEPS = 20
KNOWN = load_known()
REPRODUCE = (
    f"regen-model crosscheck --engine phase --seed {SEED} --random {RANDOM} --no-scenarios "
    f"--no-witnesses --out crosscheck-phase"
)


@pytest.fixture(scope="module")
def results() -> list[CaseResult]:
    # The list was made with Hypothesis-drawn cases that know nothing of phase.rs's declared
    # features; they are run as they were (nothing excluded), so the list stays comparable.
    corpus = witness_cases()
    cases = random_cases(RANDOM, SEED, MAX_STEPS, corpus)
    seen: list[CaseResult] = []
    crosscheck(
        make_adapter,
        cases,
        seed=SEED,
        shrink_findings=False,
        on_result=seen.append,
        lacks=frozenset(),
    )
    return seen


def test_declared_features_keep_skips_under_a_tenth() -> None:
    """Coverage-guided cases built inside ``PhaseEngineAdapter.lacks`` are rarely skipped
    (issue 15: under 10 %; the Hypothesis-drawn cases of the fixture skip about a third)."""
    cases = list(
        guided_cases(GUIDED, SEED, MAX_STEPS, witness_cases(), lacks=PhaseEngineAdapter.lacks)
    )
    report = crosscheck(make_adapter, cases, seed=SEED, shrink_findings=False)
    assert not report.excluded
    assert report.skip_rate < 0.10, report.skipped


def test_the_list_was_made_with_the_installed_phase_python() -> None:
    """A different phase.rs can add or fix divergences: move the pin deliberately."""
    assert known_version() == phase_version(), (
        f"known_divergences.yaml is for phase-python {known_version()}, installed is "
        f"{phase_version()}: rerun the crosscheck (docs/phase-report.md) and update the list"
    )


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_known_entry_is_complete(entry: KnownDivergence) -> None:
    assert entry.verdict in VERDICTS
    assert entry.rules, "name the rule that decides it"
    assert (ROOT / entry.scenario).is_file(), f"{entry.scenario} is missing"
    report = (ROOT / "docs" / "phase-report.md").read_text(encoding="utf-8")
    assert f"| {entry.id} |" in report, f"{entry.id} has no row in docs/phase-report.md"


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_pinned_scenario_states_the_rules(entry: KnownDivergence) -> None:
    result = run_scenario(load_scenario(ROOT / entry.scenario))
    assert result.verdict is Verdict.PASSED, [c.what for c in result.failures]


@pytest.mark.parametrize("entry", KNOWN, ids=[k.id for k in KNOWN])
def test_known_divergence_still_occurs(entry: KnownDivergence) -> None:
    """If this fails, phase.rs changed: if it now follows the rules, remove the entry."""
    (case,) = saved_cases([ROOT / entry.scenario])
    result = run_case(case, PhaseEngineAdapter())
    assert result.outcome is Outcome.DIVERGED, (
        f"{entry.id} ({entry.title}) no longer diverges: {result.outcome.value} "
        f"{result.reason}".strip()
    )
    assert result.divergence is not None
    found = classify(result.divergence, KNOWN)
    assert found.known and found.ids == (entry.id,), (
        f"{entry.id}: the pinned scenario now diverges differently: "
        f"{result.divergence.summary()} (explained by {found.ids}, unexplained "
        f"{found.unexplained})"
    )


def test_bounded_crosscheck_finds_only_known_divergences(results: list[CaseResult]) -> None:
    unknown = []
    for r in results:
        if r.outcome is not Outcome.DIVERGED or r.divergence is None:
            continue
        found = classify(r.divergence, KNOWN)
        if not found.known:
            unknown.append(f"{r.case.name} step {r.divergence.step}: {found.unexplained}")
    assert not unknown, (
        f"{len(unknown)} divergences are not in known_divergences.yaml (reproduce and shrink "
        f"with: {REPRODUCE}):\n" + "\n".join(unknown[:20])
    )


def test_bounded_crosscheck_has_no_engine_errors(results: list[CaseResult]) -> None:
    errors = [f"{r.case.name}: {r.reason}" for r in results if r.outcome is Outcome.ENGINE_ERROR]
    assert not errors, "\n".join(errors[:20])


def test_bounded_crosscheck_compares_something(results: list[CaseResult]) -> None:
    """Agreement counts only if scenarios really ran: a broken adapter that skips everything
    (or observes nothing) must not pass."""
    assert len(results) == RANDOM
    passed = [r for r in results if r.outcome is Outcome.PASSED]
    assert len(passed) >= RANDOM // 5, {
        o.value: sum(r.outcome is o for r in results) for o in Outcome
    }
    assert sum(r.fields_compared for r in passed) > 100 * len(passed)
    assert any(r.outcome is Outcome.DIVERGED for r in results), "phase.rs has known divergences"
