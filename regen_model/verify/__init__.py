"""The sections of ``regen-model verify``, the project's main job.

``verify`` runs a list of sections and reports one table per section and an overall verdict.
A section is made of parts, each a function of the command's ``VerifyOptions`` and a
``Workbench`` returning ``Row``s (one per scenario, proof obligation, mutant...), named in
``SECTIONS`` as ``"module:function"`` so the CLI imports only what it runs; the section's rows
are its parts' rows in order. Adding a check to the main job means writing that function and
appending one ``Section`` (or one ``Part`` of a section) here; the command, its table and its
JSON output need no change.

Parts are independent, so ``run_sections`` runs them in worker processes, as many at a time
as there are cores to use (the heaviest first, by weight), and hands the sections back in the
order of ``SECTIONS``. Parts that name the same ``shares`` key run one after the other in one
process with one ``Workbench``, so what they both need (the Z3 relation at one scope, which
the cover section and the agreement section's relation queries both ask for) is built once.
A part may use worker processes of its own (the agreement walk does).
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Generator, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from regen_model.verdicts import Verdict

T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    """One verified item. ``details`` are extra columns, in order (e.g. edition, clauses);
    ``message`` explains a verdict other than a success (a failure, a solver's reason)."""

    item: str
    verdict: Verdict
    seconds: float
    details: tuple[tuple[str, str], ...] = ()
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)  # for pictures (--html)


@dataclass(frozen=True)
class VerifyOptions:
    """What ``verify``'s options tell the sections. ``invariant_files``: users' invariant
    files or folders to prove and cover along with the catalog (``--invariants-from``;
    nothing is imported unless named)."""

    invariant_files: tuple[Path, ...] = ()
    driven: bool = False  # the agreement section also compares on solver-chosen states


class Workbench:
    """What the parts run in one process share: objects that cost seconds to build, each
    built once, by key. A part asks ``get(key, make)``; parts that share nothing get a
    workbench of their own, so a part never depends on another having run."""

    def __init__(self) -> None:
        self._made: dict[Hashable, object] = {}

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The object built for ``key``, made by ``make`` the first time it is asked for
        (every part asking for ``key`` must mean the same object by it)."""
        if key not in self._made:
            self._made[key] = make()
        return cast(T, self._made[key])


Runner = Callable[[VerifyOptions, Workbench], list[Row]]


@dataclass(frozen=True)
class Part:
    """One piece of a section's work that can run in a process of its own."""

    runner: str  # "module:function", a function of (VerifyOptions, Workbench) -> list[Row]
    weight: int = 1  # how heavy it is, roughly: heavier work starts first
    shares: str = ""  # parts naming the same key run in one process, in order, one Workbench

    def load(self) -> Runner:
        module_name, _, function = self.runner.partition(":")
        module = importlib.import_module(module_name)
        fn: Runner = getattr(module, function)
        return fn


@dataclass(frozen=True)
class Section:
    name: str  # what ``--section`` selects
    title: str  # the table title
    item_label: str  # the header of the first column
    runner: str  # the first part's "module:function"
    weight: int = 1  # the first part's weight
    shares: str = ""  # the first part's ``Part.shares``
    more: tuple[Part, ...] = ()  # further parts; their rows follow the first part's

    def parts(self) -> tuple[Part, ...]:
        return (Part(self.runner, self.weight, self.shares), *self.more)


# The key under which the cover section and the agreement section's relation queries share
# the relation at two card slots (both scopes are that one: checked by a test).
RELATION_AT_TWO_SLOTS = "relation:2-slots"

SECTIONS: tuple[Section, ...] = (
    Section(
        name="examples",
        title="Example scenarios shipped with the package",
        item_label="scenario",
        runner="regen_model.verify.examples:verify_examples",
    ),
    Section(
        name="mutants",
        title="Rule mutants: each must be killed, and each invariant must kill one",
        item_label="mutant / invariant",
        runner="regen_model.mutants.verify:verify_mutants",
        weight=3,
    ),
    Section(
        name="proofs",
        title="Invariant proofs (induction at the default scope; any-n: any number of permanents)",
        item_label="invariant",
        runner="regen_model.checks.sections:verify_proofs",
    ),
    Section(
        name="agreement",
        title="Engine vs Z3 relation: bounded agreement at the default scope",
        item_label="search",
        runner="regen_model.encoding.verify_section:verify_agreement",
        weight=3,
        more=(
            Part(
                "regen_model.encoding.verify_section:verify_relation_queries",
                weight=2,
                shares=RELATION_AT_TWO_SLOTS,
            ),
            Part("regen_model.encoding.verify_section:verify_driven"),
        ),
    ),
    Section(
        name="cover",
        title="Cover: clause branches and invariant antecedents reachable (VACUOUS fails)",
        item_label="clause / antecedent",
        runner="regen_model.checks.sections:verify_cover",
        weight=2,
        shares=RELATION_AT_TWO_SLOTS,
    ),
)


def section_names() -> tuple[str, ...]:
    return tuple(s.name for s in SECTIONS)


def default_jobs() -> int:
    """Worker processes for ``run_sections``: the cores this process may use, at most 2
    (the main job is sized for a two-core machine)."""
    return max(1, min(2, len(os.sched_getaffinity(0))))


PartKey = tuple[str, int]  # (section name, index of the part in the section)


def _run_job(
    job: Sequence[tuple[PartKey, Part]], options: VerifyOptions
) -> list[tuple[PartKey, list[Row], float]]:
    """Some parts one after the other, sharing one ``Workbench``: each part's rows and wall
    time."""
    bench = Workbench()
    done = []
    for key, part in job:
        started = time.perf_counter()
        rows = part.load()(options, bench)
        done.append((key, rows, time.perf_counter() - started))
    return done


def _jobs(sections: Sequence[Section]) -> list[list[tuple[PartKey, Part]]]:
    """The sections' parts grouped into jobs (one per part, except that parts sharing a key
    make one job, in the order of the sections), heaviest job first."""
    jobs: list[list[tuple[PartKey, Part]]] = []
    shared: dict[str, list[tuple[PartKey, Part]]] = {}
    for section in sections:
        for index, part in enumerate(section.parts()):
            item = ((section.name, index), part)
            if not part.shares:
                jobs.append([item])
            elif part.shares in shared:
                shared[part.shares].append(item)
            else:
                shared[part.shares] = [item]
                jobs.append(shared[part.shares])
    return sorted(jobs, key=lambda job: -sum(part.weight for _, part in job))


def run_sections(
    sections: Sequence[Section], jobs: int = 1, options: VerifyOptions | None = None
) -> Generator[tuple[Section, list[Row], float], None, None]:
    """Each section's rows and wall time (its parts' times added up), in the given order,
    every part given ``options``. With ``jobs`` > 1 the parts run in that many worker
    processes at once, heaviest first (``_jobs``); each section is yielded as soon as its
    parts and every section before it are done. A part's exception is raised here, and the
    parts not yet started are then cancelled."""
    given = options or VerifyOptions()
    work = _jobs(sections)
    if jobs <= 1 or len(work) <= 1:
        # one process: the parts in the order of the sections, each with the workbench it
        # would have in a worker (one per ``shares`` key, a fresh one for a part sharing none)
        benches: dict[str, Workbench] = {}
        for section in sections:
            rows: list[Row] = []
            seconds = 0.0
            for part in section.parts():
                bench = benches.setdefault(part.shares, Workbench()) if part.shares else Workbench()
                started = time.perf_counter()
                rows += part.load()(given, bench)
                seconds += time.perf_counter() - started
            yield section, rows, seconds
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)))
    try:
        futures = [pool.submit(_run_job, job, given) for job in work]
        of_part = {key: futures[k] for k, job in enumerate(work) for key, _ in job}
        results: dict[PartKey, tuple[list[Row], float]] = {}
        for section in sections:
            rows = []
            seconds = 0.0
            for index in range(len(section.parts())):
                key = (section.name, index)
                if key not in results:
                    for done_key, done_rows, done_seconds in of_part[key].result():
                        results[done_key] = (done_rows, done_seconds)
                part_rows, part_seconds = results[key]
                rows += part_rows
                seconds += part_seconds
            yield section, rows, seconds
    finally:
        pool.shutdown(cancel_futures=True)
