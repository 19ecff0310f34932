"""The sections of ``regen-model verify``, the project's main job.

``verify`` runs a list of sections and reports one table per section and an overall verdict.
A section is any function of the command's ``VerifyOptions`` returning ``Row``s (one per
scenario, proof obligation, mutant...), named in ``SECTIONS`` as ``"module:function"`` so the
CLI imports only what it runs. Adding a
check to the main job means writing that function and appending one ``Section`` here; the
command, its table and its JSON output need no change.

Sections are independent, so ``run_sections`` runs them in worker processes, as many at a time
as there are cores to use (the heaviest first, by ``Section.weight``), and hands them back in
the order of ``SECTIONS``. A section may use worker processes of its own (the mutant matrix
does).
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regen_model.verdicts import Verdict


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


@dataclass(frozen=True)
class Section:
    name: str  # what ``--section`` selects
    title: str  # the table title
    item_label: str  # the header of the first column
    runner: str  # "module:function", a function of VerifyOptions returning list[Row]
    weight: int = 1  # how heavy it is, roughly: heavier sections start first

    def load(self) -> Callable[[VerifyOptions], list[Row]]:
        module_name, _, function = self.runner.partition(":")
        module = importlib.import_module(module_name)
        fn: Callable[[VerifyOptions], list[Row]] = getattr(module, function)
        return fn


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
    ),
    Section(
        name="cover",
        title="Cover: clause branches and invariant antecedents reachable (VACUOUS fails)",
        item_label="clause / antecedent",
        runner="regen_model.checks.sections:verify_cover",
        weight=2,
    ),
)


def section_names() -> tuple[str, ...]:
    return tuple(s.name for s in SECTIONS)


def default_jobs() -> int:
    """Worker processes for ``run_sections``: the cores this process may use, at most 2
    (the main job is sized for a two-core machine)."""
    return max(1, min(2, len(os.sched_getaffinity(0))))


def _timed(section: Section, options: VerifyOptions) -> tuple[list[Row], float]:
    started = time.perf_counter()
    rows = section.load()(options)
    return rows, time.perf_counter() - started


def run_sections(
    sections: Sequence[Section], jobs: int = 1, options: VerifyOptions | None = None
) -> Generator[tuple[Section, list[Row], float], None, None]:
    """Each section's rows and wall time, in the given order, every section given
    ``options``. With ``jobs`` > 1 the sections run in that many worker processes at once,
    heaviest first; each result is yielded as soon as it and every section before it are
    done. A section's exception is raised here, and the sections not yet started are then
    cancelled."""
    given = options or VerifyOptions()
    if jobs <= 1 or len(sections) <= 1:
        for section in sections:
            rows, seconds = _timed(section, given)
            yield section, rows, seconds
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(sections)))
    try:
        futures: dict[str, Future[tuple[list[Row], float]]] = {}
        for section in sorted(sections, key=lambda s: -s.weight):
            futures[section.name] = pool.submit(_timed, section, given)
        for section in sections:
            rows, seconds = futures[section.name].result()
            yield section, rows, seconds
    finally:
        pool.shutdown(cancel_futures=True)
