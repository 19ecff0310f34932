"""Induction on both cores: the consecution queries of each action kind in a worker process.

The obligations of one action kind need only that kind's relation and solver, so the kinds are
independent tasks: each worker builds the transition system and the properties once
(``_start``), then answers every property's consecution for the kinds it is handed, the
heaviest first. The heaviest kinds (``SPLIT``) are handed out one property at a time, so
both workers share them: at four card slots ``pass`` alone was about half of the work, and a
worker holding all of it finished long after the other (each worker that takes a property of
a split kind builds that kind's relation, a few seconds at four slots). The sequential prover (``induction.prove``) prunes the state invariants
Houdini-style; here every state invariant is assumed in every query, which is exactly the
first round of that pruning. When every obligation is then proved, the survivors are all of
them and the answers are the sequential prover's; otherwise ``prove`` returns None and the
caller runs the sequential prover, which prunes, reports CTIs and searches for violations.
So the verdicts never depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from regen_model.checks import induction
from regen_model.checks.property import Property, from_invariant
from regen_model.checks.results import Result
from regen_model.checks.solver import Budget
from regen_model.checks.system import TransitionSystem
from regen_model.invariants.spec import Invariant, Kind
from regen_model.verdicts import Verdict

# Kinds whose relation runs the state-based-action loop, heaviest first: handing them out
# first keeps both workers busy to the end (a scheduling hint; the answers do not depend on it).
HEAVY_FIRST = (
    "pass",
    "assign-combat-damage",
    "destroy",
    "cast",
    "activate",
    "declare-attackers",
    "declare-blockers",
    "order-blockers",
    "check-sba",
)

# Kinds handed out one property at a time (the rest one kind at a time), and the properties
# whose obligations on them took longest at four card slots, handed out first. Both are
# scheduling hints: the answers do not depend on them.
SPLIT = ("pass", "assign-combat-damage", "destroy")
SLOW_FIRST = ("inv.damage-trigger.kept", "inv.priority.no-sba-pending")

# The worker's transition system, properties and consecution queries (set by ``_start``,
# once per worker process).
_WORKER: dict[str, Any] = {}


def _properties(
    system: TransitionSystem, invariants: Sequence[Invariant], support: Sequence[Invariant]
) -> tuple[list[Property], list[Property]]:
    """The properties to report, and the state invariants assumed (theirs and the support's)."""
    props = [from_invariant(system, inv) for inv in invariants]
    reported = {p.id for p in props}
    extra = [
        from_invariant(system, inv)
        for inv in support
        if inv.kind is Kind.STATE and inv.id not in reported
    ]
    return props, [p for p in props if p.kind is Kind.STATE] + extra


def _start(
    factory: Callable[[], TransitionSystem],
    invariants: Sequence[Invariant],
    support: Sequence[Invariant],
    budget: Budget,
) -> None:
    system = factory()
    props, state = _properties(system, invariants, support)
    enc = induction._Consecution(system, budget)
    for p in state:
        enc.hypothesis(p)
    for p in {p.id: p for p in [*props, *state]}.values():
        enc.goal(p)
    _WORKER.update(enc=enc, props=props, state=state)


def _kind(kind: str, only: tuple[str, ...] = ()) -> list[Result]:
    """Every property's consecution for ``kind`` (or only those of ``only``)."""
    enc: induction._Consecution = _WORKER["enc"]
    props: list[Property] = _WORKER["props"]
    state: list[Property] = _WORKER["state"]
    alive = [p.id for p in state]
    out = []
    for p in {p.id: p for p in [*state, *props]}.values():
        if only and p.id not in only:
            continue
        r = induction._consecution_result(enc, p, kind, enc.check(p.id, kind, alive))
        out.append(replace(r, evidence=None))  # a CTI sends the caller to the sequential prover
    return out


def tasks(kinds: Sequence[str], ids: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The work as (kind, properties) tasks, the heaviest first: one task per property of
    each ``SPLIT`` kind (``SLOW_FIRST`` ones first), one per kind for the others (an empty
    tuple: every property). Every (kind, property) pair is in exactly one task."""
    order = sorted(kinds, key=lambda k: HEAVY_FIRST.index(k) if k in HEAVY_FIRST else 99)
    by_weight = sorted(ids, key=lambda i: SLOW_FIRST.index(i) if i in SLOW_FIRST else 99)
    out: list[tuple[str, tuple[str, ...]]] = []
    for k in order:
        if k in SPLIT:
            out += [(k, (i,)) for i in by_weight]
        else:
            out.append((k, ()))
    return out


def prove(
    factory: Callable[[], TransitionSystem],
    invariants: Sequence[Invariant],
    support: Sequence[Invariant],
    budget: Budget,
    jobs: int,
    meanwhile: Callable[[], None] = lambda: None,
) -> list[Result] | None:
    """The results ``induction.prove`` gives, computed by ``jobs`` worker processes, or None
    when some obligation is not proved (module docstring). ``factory`` is sent to the
    workers, so it must be picklable (a module-level function or a ``functools.partial``).
    ``meanwhile`` runs in this process while the workers do (other work of the caller)."""
    system = factory()
    props, state = _properties(system, invariants, support)
    initiation = induction._initiation(system, state, budget)
    if any(r.verdict is not Verdict.PROVED for r in initiation):
        return None
    kinds = list(system.action_kinds())
    ids = list({p.id: p for p in [*state, *props]})
    work = tasks(kinds, ids)
    with ProcessPoolExecutor(
        max_workers=jobs, initializer=_start, initargs=(factory, invariants, support, budget)
    ) as pool:
        pending = [pool.submit(_kind, k, only) for k, only in work]
        meanwhile()
        answers = [f.result() for f in pending]
    if any(r.verdict is not Verdict.PROVED for rs in answers for r in rs):
        return None
    by = {(r.invariant, r.action): r for rs in answers for r in rs}
    reported = {p.id for p in props}
    results = [r for r in initiation if r.invariant in reported]
    ordered = [p for p in state if p.id in reported] + [p for p in props if p.kind is Kind.STEP]
    results += [by[(p.id, k)] for p in ordered for k in kinds]
    return results
