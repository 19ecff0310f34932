"""The ``proofs`` and ``cover`` sections of ``regen-model verify``.

``proofs``: the whole invariant catalog (built-in, and the user files named by
``--invariants-from``) by induction at the
default scope and, for the per-permanent invariants, for any number of permanents; one row
per invariant and method. ``cover``: every clause branch of the relation and every
antecedent of an invariant's implications reachable from a legal start, on a guide run
checked on the relation or by BMC within ``COVER_DEPTH`` steps; a VACUOUS row fails
``verify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from regen_model.checks.cover import (
    CoverItem,
    Goal,
    Witness,
    clause_goals,
    cover,
    guide_runs,
    invariant_goals,
    script_runs,
    wide_goals,
)
from regen_model.checks.replay import Run
from regen_model.checks.results import brief_clauses, catalog_clauses, summarize
from regen_model.checks.runner import ProveOptions, prove
from regen_model.checks.solver import Budget
from regen_model.checks.system import TransitionSystem
from regen_model.checks.systems import COVER_SCOPE, regen_system
from regen_model.encoding.scope import Scope
from regen_model.encoding.verify_section import shared_relation
from regen_model.invariants.loading import load, user_paths
from regen_model.verdicts import Verdict
from regen_model.verify import Row, VerifyOptions, Workbench

COVER_DEPTH = 4


def verify_proofs(options: VerifyOptions, bench: Workbench) -> list[Row]:
    """One row per invariant and method that applies to it. A method that does not apply
    (any-n for an invariant that is not about one permanent at a time: SKIPPED) gets no row
    of its own, so it cannot make the section look skipped; the invariant's other rows say
    "any-n: n/a" in their method column."""
    catalog = load(user_paths(options.invariant_files))
    prove_options = ProveOptions()
    rows = summarize(
        prove(catalog, prove_options, lambda: regen_system(prove_options.scope), support=catalog)
    )
    about = {inv.id: inv.clauses for inv in catalog}
    not_applicable: dict[str, list[str]] = {}
    for r in rows:
        if not r.applicable:
            not_applicable.setdefault(r.invariant, []).append(r.method.value)
    out = []
    for r in rows:
        if not r.applicable and any(o.invariant == r.invariant and o.applicable for o in rows):
            continue
        method = r.method.value
        if r.applicable and r.invariant in not_applicable:
            method += "".join(f" ({m}: n/a)" for m in not_applicable[r.invariant])
        out.append(
            Row(
                item=r.invariant,
                verdict=r.verdict,
                seconds=r.seconds,
                details=(
                    ("method", method),
                    (
                        "clauses used",
                        brief_clauses(catalog_clauses(r.clauses), about.get(r.invariant, ())),
                    ),
                ),
                message="" if r.verdict is Verdict.PROVED else r.reason,
            )
        )
    return out


def _row(item: CoverItem) -> Row:
    witnessed = item.verdict is Verdict.PROVED
    return Row(
        item=item.item,
        verdict=item.verdict,
        seconds=item.seconds,
        details=(
            ("kind", item.kind),
            (
                "witness",
                f"WITNESSED in {item.depth} step(s) ({item.source})" if witnessed else "-",
            ),
        ),
        message="" if witnessed else item.reason,
    )


def verify_cover(options: VerifyOptions, bench: Workbench) -> list[Row]:
    """Every clause branch and every antecedent of the catalog's invariants (``cover_items``).
    The relation at ``COVER_SCOPE`` comes from ``bench``, shared with the agreement section's
    relation queries when they run in the same process."""
    system = cast(TransitionSystem, shared_relation(bench, COVER_SCOPE))
    catalog = load(user_paths(options.invariant_files))
    return [_row(i) for i in cover_items(system, invariant_goals(system, catalog))]


def cover_items(system: TransitionSystem, extra: Sequence[Goal] = ()) -> list[CoverItem]:
    """Cover at ``COVER_SCOPE`` (two card slots: blocks, Auras and umbra armor need two
    permanents) of every clause branch of ``system`` (the relation there) and of ``extra``:
    guide runs checked on the relation first, BMC up to ``COVER_DEPTH`` steps for the rest
    (``checks.cover``). The clauses only guide scripts with more permanents are written for
    (a creature blocking two attackers: three) are covered at the smallest scope those
    scripts fit (``wide_goals``), guided by them, not refuted by BMC at ``COVER_SCOPE``.
    Clauses in catalog order, then ``extra``."""
    wide = wide_goals(COVER_SCOPE)
    elsewhere = {name for names in wide.values() for name in names}
    every_clause = clause_goals(system)
    clauses = [g for g in every_clause if g.name not in elsewhere]
    guides = guide_runs(COVER_SCOPE, wanted=[g.name for g in clauses])
    items = cover(system, [*clauses, *extra], COVER_DEPTH, Budget(), guides=guides)
    for scope, names in wide.items():
        items += _cover_wide(scope, names)
    order = {g.name: k for k, g in enumerate(every_clause)}
    items.sort(key=lambda it: (it.kind != "clause", order.get(it.item, len(order))))
    return items


def cover_witnesses(system: TransitionSystem | None = None) -> dict[str, Witness]:
    """Clause ID -> the witness ``verify``'s cover section finds for it (``cover_items``; a
    clause without one is left out): a run, replayed on the engine, whose last step fires
    that clause branch of the relation. The conformance stream's cover cases and the
    ``full`` agreement preset's seeds are these, so all three see the same runs."""
    found = cover_items(system if system is not None else regen_system(COVER_SCOPE))
    return {it.item: it.witness for it in found if it.witness is not None}


def _cover_wide(scope: Scope, names: tuple[str, ...]) -> list[CoverItem]:
    """Cover of the clauses whose guide scripts need more card slots than ``COVER_SCOPE``
    (``wide_goals``), at the scope they fit, guided by those scripts only; the source of
    each witness says the scope.

    Each script is first checked on the relation specialised to its own printed cards
    (``regen_system(scope, setup=...)``), which costs a fraction of the general relation's
    build at this scope. That relation is the general one with the printed cards' values
    folded in, so at the script's states it has the same truth values; folding can only
    remove a constraint (a guard that became literally true) or a case of one, never add
    one, so a clause branch that fires on it fires on the general relation too. Goals the
    scripts do not show that way are asked of the general relation as before (its guides,
    then BMC), so a VACUOUS verdict still means the general relation."""
    # the goals by name: listing the relation's labels would build every action kind at
    # this scope, where only the kinds of the scripts' actions are needed
    goals = [Goal(name, "clause") for name in names]
    guides: dict[str, list[Run]] = {}
    for goal_names, run in script_runs(scope):
        for name in goal_names:
            if name in names:
                guides.setdefault(name, []).append(run)
    shown: dict[str, CoverItem] = {}
    runs = {id(run): run for found in guides.values() for run in found}
    for run in sorted(runs.values(), key=lambda r: r.length):
        open_goals = [g for g in goals if g.name not in shown]
        wanted = {g.name for g in open_goals if run in guides.get(g.name, [])}
        if not wanted:
            continue
        special = regen_system(scope, setup=run.start.setup)
        items = cover(special, open_goals, 0, Budget(), guides={n: [run] for n in wanted})
        shown.update({it.item: it for it in items if it.verdict is Verdict.PROVED})
    rest = [g for g in goals if g.name not in shown]
    if rest:
        general = cover(regen_system(scope), rest, COVER_DEPTH, Budget(), guides=guides)
        shown.update({it.item: it for it in general})
    return [
        replace(
            shown[g.name],
            source=f"{shown[g.name].source}, {scope.cards} card slots, stack {scope.stack}",
        )
        for g in goals
    ]
