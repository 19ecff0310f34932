"""The sections of ``regen-model verify``, the project's main job.

``verify`` runs a list of sections and reports one table per section and an overall verdict.
A section is any function of the command's ``VerifyOptions`` returning ``Row``s (one per
scenario, proof obligation, mutant...), named in ``SECTIONS`` as ``"module:function"`` so the
CLI imports only what it runs. Adding a
check to the main job means writing that function and appending one ``Section`` here; the
command, its table and its JSON output need no change.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
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


@dataclass(frozen=True)
class Section:
    name: str  # what ``--section`` selects
    title: str  # the table title
    item_label: str  # the header of the first column
    runner: str  # "module:function", a function of VerifyOptions returning list[Row]

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
    ),
    Section(
        name="cover",
        title="Cover: clause branches and invariant antecedents reachable (VACUOUS fails)",
        item_label="clause / antecedent",
        runner="regen_model.checks.sections:verify_cover",
    ),
)


def section_names() -> tuple[str, ...]:
    return tuple(s.name for s in SECTIONS)
