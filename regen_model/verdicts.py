"""Typed verdicts and the process exit codes they map to.

A verdict is never a bool: "unknown" and "timed out" are their own values and are never
reported as proved. Every command of the CLI ends with the exit code of the worst verdict it
produced (``worst``), so scripts can tell a counterexample from a solver that gave up.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Verdict(StrEnum):
    PROVED = "PROVED"  # holds (in the stated scope, or unbounded when the method says so)
    PASSED = "PASSED"  # a scenario, trace or differential run met every expectation
    VIOLATED = "VIOLATED"  # a reachable counterexample exists (a real trace is attached)
    FAILED = "FAILED"  # a scenario expectation or conformance check did not hold
    CTI = "CTI"  # not inductive, and no reachable violation was found
    UNKNOWN = "UNKNOWN"  # the solver gave up (its reason is attached); never a proof
    VACUOUS = "VACUOUS"  # an antecedent or clause branch is never reachable/enabled
    DIVERGED = "DIVERGED"  # another engine disagrees with the specification
    SKIPPED = "SKIPPED"  # not run (e.g. an engine cannot express the scenario); counted


EXIT_CODES: dict[Verdict, int] = {
    Verdict.PROVED: 0,
    Verdict.PASSED: 0,
    Verdict.SKIPPED: 0,
    Verdict.VIOLATED: 1,
    Verdict.FAILED: 1,
    Verdict.CTI: 3,
    Verdict.UNKNOWN: 4,
    Verdict.VACUOUS: 5,
    Verdict.DIVERGED: 6,
}
EXIT_INPUT_ERROR = 2  # bad file or arguments (also typer's code for usage errors)
EXIT_INTERNAL_ERROR = 7  # a bug in regen-model itself or a crashed engine under test

# Which verdict wins when several are combined: a real counterexample outranks everything. A
# SKIPPED item (not applicable, or an engine that cannot express it) is counted in every
# summary but decides the overall verdict only when nothing else was run.
_SEVERITY: tuple[Verdict, ...] = (
    Verdict.VIOLATED,
    Verdict.FAILED,
    Verdict.DIVERGED,
    Verdict.VACUOUS,
    Verdict.CTI,
    Verdict.UNKNOWN,
    Verdict.PASSED,
    Verdict.PROVED,
    Verdict.SKIPPED,
)


def worst(verdicts: Iterable[Verdict]) -> Verdict:
    """The most severe verdict (PROVED when there are none; SKIPPED only when all are)."""
    found = set(verdicts)
    for v in _SEVERITY:
        if v in found:
            return v
    return Verdict.PROVED


def exit_code(verdicts: Iterable[Verdict]) -> int:
    return EXIT_CODES[worst(verdicts)]
