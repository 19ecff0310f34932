"""The ``agreement`` section of ``regen-model verify``: the engine and the Z3 relation agree.

Runs the bounded agreement check (``bounded.py``) of ``VERIFY_PRESET`` under the correct
rules and reports one row per search: PROVED when every candidate action was checked with no
disagreement, FAILED with the first disagreement's clause IDs otherwise, VACUOUS when the
search checked nothing. ``seconds`` is the search's time summed over worker processes.
"""

from __future__ import annotations

from regen_model.encoding.agreement import Status
from regen_model.encoding.bounded import PRESETS, AgreementReport, bounded_agreement
from regen_model.model.rules import CORRECT
from regen_model.verdicts import Verdict
from regen_model.verify import Row

VERIFY_PRESET = "default"


def agreement_rows(report: AgreementReport) -> list[Row]:
    """One row per search of ``report``."""
    rows = []
    for name, t in report.runs.items():
        verdict = report.run_verdict(name)
        message = ""
        first = t.disagreements[0] if t.disagreements else None
        if first is None and verdict is Verdict.FAILED and t.diverging:
            first = t.diverging[0]
        if first is not None:
            clauses = ", ".join(first.result.clauses) or "-"
            message = (
                f"clauses {clauses}: depth {first.depth}, {first.action}: {first.result.describe()}"
            )
        elif verdict is Verdict.VACUOUS:
            message = "no state of this search could be checked"
        out_of_scope = t.status[Status.OUT_OF_SCOPE.value]
        rows.append(
            Row(
                item=name,
                verdict=verdict,
                seconds=t.seconds,
                details=(
                    ("states", f"{t.states:,}"),
                    ("actions checked", f"{t.checks:,}"),
                    ("out of scope", f"{out_of_scope:,}"),
                    ("disagree", f"{t.status[Status.DISAGREE.value]:,}"),
                ),
                message=message,
            )
        )
    return rows


def verify_agreement() -> list[Row]:
    """The bounded agreement check of the ``VERIFY_PRESET`` preset, correct rules."""
    return agreement_rows(bounded_agreement(PRESETS[VERIFY_PRESET], CORRECT))
