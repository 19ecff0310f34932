"""The sections of ``regen-model verify``, the project's main job.

``verify`` runs a list of sections and reports one table per section and an overall verdict.
A section is any function returning ``Row``s (one per scenario, proof obligation, mutant...),
named in ``SECTIONS`` as ``"module:function"`` so the CLI imports only what it runs. Adding a
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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Section:
    name: str  # what ``--section`` selects
    title: str  # the table title
    item_label: str  # the header of the first column
    runner: str  # "module:function", a function taking nothing and returning list[Row]
    weight: int = 1  # how heavy it is, roughly: heavier sections start first

    def load(self) -> Callable[[], list[Row]]:
        module_name, _, function = self.runner.partition(":")
        module = importlib.import_module(module_name)
        fn: Callable[[], list[Row]] = getattr(module, function)
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


def _timed(runner: str) -> tuple[list[Row], float]:
    module_name, _, function = runner.partition(":")
    fn: Callable[[], list[Row]] = getattr(importlib.import_module(module_name), function)
    started = time.perf_counter()
    rows = fn()
    return rows, time.perf_counter() - started


def run_sections(
    sections: Sequence[Section], jobs: int = 1
) -> Iterator[tuple[Section, list[Row], float]]:
    """Each section's rows and wall time, in the given order. With ``jobs`` > 1 the sections
    run in that many worker processes at once, heaviest first; each result is yielded as
    soon as it and every section before it are done."""
    if jobs <= 1 or len(sections) <= 1:
        for section in sections:
            rows, seconds = _timed(section.runner)
            yield section, rows, seconds
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(sections))) as pool:
        futures: dict[str, Future[tuple[list[Row], float]]] = {}
        for section in sorted(sections, key=lambda s: -s.weight):
            futures[section.name] = pool.submit(_timed, section.runner)
        for section in sections:
            rows, seconds = futures[section.name].result()
            yield section, rows, seconds
