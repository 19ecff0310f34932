"""The ``agreement`` section of ``regen-model verify``: the engine and the Z3 relation agree.

Runs the bounded agreement check (``bounded.py``) of ``VERIFY_PRESET`` under the correct
rules and reports one row per search: PROVED when every candidate action was checked with no
disagreement, FAILED with the first disagreement's clause IDs otherwise, VACUOUS when the
search checked nothing. ``seconds`` is the search's time summed over worker processes.

Two more rows come from solver queries about the relation itself (``queries.py``) at
``QUERY_SCOPE``, once per action kind: **determinism** (the relation admits one successor
per state and parameters, so "the engine's successor satisfies the relation" means "it is
the relation's only successor") and the **704.3 loop bound** (the unrolled state-based-action
loop never stops while an action is still pending). At the agreement's three card slots the
solver gives up (rlimit) on determinism for the kinds that run the state-based-action loop,
so the queries run at two slots, where every kind is decided in about half a minute.
"""

from __future__ import annotations

from regen_model.encoding.agreement import Status
from regen_model.encoding.bounded import PRESETS, AgreementReport, bounded_agreement
from regen_model.encoding.queries import QueryResult, determinism, sba_bound
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.model.rules import CORRECT
from regen_model.verdicts import Verdict, worst
from regen_model.verify import Row, VerifyOptions

VERIFY_PRESET = "default"
QUERY_SCOPE = Scope(cards=2, shields=2, stack=1, pending=1, targets=1, max_amount=2)


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


def verify_agreement(options: VerifyOptions) -> list[Row]:
    """The bounded agreement check of the ``VERIFY_PRESET`` preset, correct rules, then the
    determinism and loop-bound queries."""
    return agreement_rows(bounded_agreement(PRESETS[VERIFY_PRESET], CORRECT)) + query_rows()


def query_rows(scope: Scope = QUERY_SCOPE) -> list[Row]:
    """Determinism and the 704.3 loop bound, each over every action kind of the relation at
    ``scope``: one row per query, its verdict the worst of the kinds (an UNKNOWN kind is
    named, never counted as proved)."""
    system = RegenSystem(scope=scope)
    kinds = system.action_kinds()
    slots = f"{scope.cards} card slots"
    rows = []
    for title, query in (
        (f"no other successor: the relation is deterministic ({slots})", determinism),
        (f"704.3 loop bound: no state-based action left pending ({slots})", sba_bound),
    ):
        results: list[QueryResult] = [query(system, kind) for kind in kinds]
        bad = [r for r in results if r.verdict is not Verdict.PROVED]
        rows.append(
            Row(
                item=title,
                verdict=worst(r.verdict for r in results),
                seconds=sum(r.seconds for r in results),
                details=(("actions checked", f"{len(kinds)} action kinds"),),
                message="; ".join(f"{r.kind}: {r.verdict.value} {r.reason}".strip() for r in bad),
            )
        )
    return rows
