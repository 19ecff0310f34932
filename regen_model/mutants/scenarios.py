"""The scenario route: which scenario files stop passing when the rules are mutated.

A scenario kills a mutant when, played under that mutant, one of its expectations fails, or
the engine refuses or crashes on an event the file expected to work (the scenario runner
reports that as bad input: under the correct rules the same file passes, so the difference
is the mutant's). Scenarios that do not pass under the correct rules are left out of every
row and reported, since their failure says nothing about a mutant.

A scenario is played under a mutant only if its run under the correct rules asked about that
mutant: the rule code consults a mutant where it would act differently (``Rules.has``), so a
run that never consulted it takes, event for event, the same path under it and passes again
(the argument of ``explore.reuse``, whose ``Asked`` records the questions here too). The
kills are the same as playing every scenario (``tests/mutants/test_scenario_kills.py``
compares), at a fraction of the runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from regen_model.explore.reuse import Asked
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    run_scenario,
    scenario_files,
)


@dataclass(frozen=True)
class ScenarioKill:
    file: str  # as shown in reports (relative to its root)
    reason: str  # the first failed expectation, or the error


def default_roots() -> list[Path]:
    """The scenario folders: ``tests/scenarios`` of the source checkout (beside an editable
    install, or in the current directory) when there is one, and the examples shipped in the
    package."""
    package = Path(str(resources.files("regen_model")))
    candidates = [
        package.parent / "tests" / "scenarios",
        Path.cwd() / "tests" / "scenarios",
        package / "examples",
    ]
    roots: list[Path] = []
    for root in candidates:
        if root.is_dir() and root.resolve() not in {r.resolve() for r in roots}:
            roots.append(root)
    return roots


@dataclass(frozen=True)
class Suite:
    """Loaded scenarios that pass under the correct rules, and those left out.
    ``questions``: per kept scenario, in the same order, the mutants its run under the
    correct rules asked about (only those can change it)."""

    scenarios: tuple[tuple[str, Scenario], ...]
    excluded: tuple[ScenarioKill, ...]
    questions: tuple[frozenset[Mutant], ...]


@cache
def load_suite(roots: tuple[Path, ...]) -> Suite:
    """Load every scenario under ``roots`` and keep those that pass under the correct rules."""
    kept: list[tuple[str, Scenario]] = []
    questions: list[frozenset[Mutant]] = []
    excluded: list[ScenarioKill] = []
    seen: set[bytes] = set()  # shipped examples are verbatim copies of test scenarios
    for root in roots:
        for path in scenario_files([root]):
            text = path.read_bytes()
            if text in seen:
                continue
            seen.add(text)
            shown = f"{root.name}/{path.relative_to(root)}"
            try:
                scenario = load_scenario(path, shown_as=shown)
            except ScenarioError as err:
                excluded.append(ScenarioKill(shown, f"does not load: {err}"))
                continue
            asked = Asked()  # the correct rules, remembering the mutants consulted
            outcome = _failure(scenario, Rules(asked))
            if outcome is not None:
                excluded.append(ScenarioKill(shown, f"fails under the correct rules: {outcome}"))
                continue
            kept.append((shown, scenario))
            questions.append(frozenset(asked.questions))
    return Suite(tuple(kept), tuple(excluded), tuple(questions))


def _failure(scenario: Scenario, rules: Rules) -> str | None:
    """Why ``scenario`` does not pass under ``rules`` (None when it passes)."""
    try:
        result = run_scenario(scenario, rules)
    except ScenarioError as err:
        return f"engine refused an event: {err.message}"
    except Exception as crash:  # a mutant may crash the engine: that is a kill
        return f"engine crashed: {type(crash).__name__}: {crash}"
    if not result.failures:
        return None
    c = result.failures[0]
    return f"line {c.line}: {c.what}: expected {c.expected}, got {c.actual}"


def scenario_kills(suite: Suite, rules: Rules, *, every: bool = False) -> list[ScenarioKill]:
    """The scenarios of ``suite`` that fail under ``rules``, in file order. Only those whose
    correct run asked about one of ``rules``' mutants are played (the module docstring);
    ``every`` plays them all (the same kills, for the test that says so)."""
    kills = []
    for (shown, scenario), asked in zip(suite.scenarios, suite.questions, strict=True):
        if not every and not (asked & rules.mutants):
            continue
        reason = _failure(scenario, rules)
        if reason is not None:
            kills.append(ScenarioKill(shown, reason))
    return kills


def roots_key(roots: Sequence[Path]) -> tuple[Path, ...]:
    return tuple(Path(r).resolve() for r in roots)
