"""The ``agreement`` section of ``regen-model verify``: the engine and the Z3 relation agree.

Runs the bounded agreement check (``bounded.py``) of ``VERIFY_PRESET`` (the seed runs of
``seeds.py``) under the correct rules, measuring which branches of both views its checks
exercise (``branches.py``), and reports:

* one row per search: PROVED when every checked action agreed, FAILED with the first
  disagreement's clause IDs otherwise, VACUOUS when the search checked nothing (``seconds``
  is the search's time summed over worker processes);
* one row per view and module with its branch coverage: PROVED when every branch was
  exercised, VACUOUS naming the ones never exercised (a difference there would go unnoticed),
  FAILED when a branch listed as unreachable (``unreachable.yaml``) was exercised;
* two rows from solver queries about the relation itself (``queries.py``) at
  ``QUERY_SCOPE``, once per action kind (a part of its own, ``verify_relation_queries``,
  which shares the relation at that scope with the cover section: ``shared_relation``):
  **determinism** (the relation admits one successor per state and parameters, so "the
  engine's successor satisfies the relation" means "it is the relation's only successor") and the **704.3 loop bound** (the unrolled
  state-based-action loop never stops while an action is still pending). They run at two
  card slots (at three the loop-bound queries of the kinds that run the loop give up on
  their rlimit, which would read UNKNOWN, never PROVED);
* with ``--driven`` (the part ``verify_driven``; minutes, so not by default), the rows of
  the agreement on solver-chosen states (``driven.py``): one per action kind
  (the views compared on a state the solver chose to take each branch of the relation) and
  one for the branches no state of the scope takes, each named.
"""

from __future__ import annotations

import os

from regen_model.encoding.agreement import Status
from regen_model.encoding.bounded import PRESETS, AgreementReport, bounded_agreement
from regen_model.encoding.branches import coverage_rows
from regen_model.encoding.driven import driven_agreement, driven_rows
from regen_model.encoding.queries import QueryResult, determinism, sba_bound
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.model.rules import CORRECT
from regen_model.pools import forked_pool
from regen_model.verdicts import Verdict, worst
from regen_model.verify import Row, VerifyOptions, Workbench

VERIFY_PRESET = "seeded"
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


def verify_agreement(options: VerifyOptions, bench: Workbench) -> list[Row]:
    """The seeded agreement check with branch coverage, correct rules (the first part of
    the section; its other parts are ``verify_relation_queries`` and ``verify_driven``)."""
    report = bounded_agreement(PRESETS[VERIFY_PRESET], CORRECT, measure=True)
    rows = agreement_rows(report)
    if report.coverage is not None:
        rows += coverage_rows(report.coverage)
    return rows


def shared_relation(bench: Workbench, scope: Scope) -> RegenSystem:
    """The relation of the correct rules at ``scope``, built once per workbench: the parts
    that ask for the same scope (the cover section and the relation queries, both at two
    card slots) share its terms, each action kind's built on first use."""
    return bench.get(("RegenSystem", scope), lambda: RegenSystem(scope=scope))


def verify_relation_queries(options: VerifyOptions, bench: Workbench) -> list[Row]:
    """The determinism and loop-bound rows, on the relation shared at ``QUERY_SCOPE``."""
    return query_rows(system=shared_relation(bench, QUERY_SCOPE))


def verify_driven(options: VerifyOptions, bench: Workbench) -> list[Row]:
    """With ``--driven``: the agreement on solver-chosen states; nothing otherwise."""
    return driven_rows(driven_agreement(cross=True)) if options.driven else []


def _ask(system: RegenSystem, kinds: tuple[str, ...]) -> list[tuple[QueryResult, QueryResult]]:
    """Both queries for each of ``kinds``."""
    return [(determinism(system, k), sba_bound(system, k)) for k in kinds]


def _queries(task: tuple[Scope, tuple[str, ...]]) -> list[tuple[QueryResult, QueryResult]]:
    """Both queries for some action kinds (one worker's share, on a relation of its own)."""
    scope, kinds = task
    return _ask(RegenSystem(scope=scope), kinds)


def query_rows(
    scope: Scope = QUERY_SCOPE, workers: int | None = None, system: RegenSystem | None = None
) -> list[Row]:
    """Determinism and the 704.3 loop bound, each over every action kind of the relation at
    ``scope``: one row per query, its verdict the worst of the kinds (an UNKNOWN kind is
    named, never counted as proved). Given a built ``system`` (whose scope is then the
    scope), the queries are asked of it in this process; otherwise the kinds are dealt out
    over ``workers`` processes (default: one per CPU), each building the relation of its
    own kinds."""
    if system is not None:
        scope = system.scope
        kinds = tuple(system.action_kinds())
        done = [_ask(system, kinds)]
    else:
        kinds = tuple(RegenSystem(scope=scope).action_kinds())
        n = max(1, min(workers if workers is not None else os.cpu_count() or 1, len(kinds)))
        shares = [(scope, kinds[k::n]) for k in range(n)]
        if n == 1:
            done = [_queries(share) for share in shares]
        else:
            with forked_pool(n) as pool:
                done = pool.map(_queries, shares)
    by_kind = {r[0].kind: r for part in done for r in part}
    slots = f"{scope.cards} card slots"
    rows = []
    for title, which in (
        (f"no other successor: the relation is deterministic ({slots})", 0),
        (f"704.3 loop bound: no state-based action left pending ({slots})", 1),
    ):
        results: list[QueryResult] = [by_kind[kind][which] for kind in kinds]
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
