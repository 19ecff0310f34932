"""Where differential cases come from: scenario files, clause witnesses, saved cases, random.

* Scenario files (``regen_model.scenario``: the per-clause scenarios under tests/scenarios and
  the shipped examples) are played on the reference engine once, and the actions it stepped
  become the case. An event the file expects to fail stays in when it is one action: the
  reference refuses it, so it is skipped, or, when refusals are probed (``case.run_case``),
  sent to the engine, which must refuse it too. (A failing event of several actions is left
  out: the scenario undoes the whole event, which no single action of it does.)
* Clause witnesses (``witness.py``) cover every clause of the catalog, with contexts; the
  Z3 cover check's witnesses (``checks.sections.cover_witnesses``) convert with ``cover_cases``.
* Saved cases (ITF traces written by a previous crosscheck) replay exactly.
* Random cases (``generate.py``) are drawn by Hypothesis from a seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple, Protocol

from regen_model.conform.case import Case, read_case
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.start import NotExpressible, Start
from regen_model.conform.witness import clause_witnesses
from regen_model.limits import regular_files
from regen_model.model.actions import Action
from regen_model.model.state import GameState

PACKAGE_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHECKOUT_SCENARIOS = Path(__file__).resolve().parent.parent.parent / "tests" / "scenarios"


def default_scenario_paths() -> list[Path]:
    """The shipped examples, and the checkout's scenario tree when running from a checkout."""
    return [p for p in (CHECKOUT_SCENARIOS, PACKAGE_EXAMPLES) if p.is_dir()]


class Skipped(NamedTuple):
    """A scenario file that could not become a case, and why."""

    path: str
    reason: str


def iter_scenario_cases(paths: Iterable[Path]) -> Iterator[Case | Skipped]:
    """Cases from scenario files, one file at a time (a crosscheck compares the first case
    while the others are still unread: reading and playing all of them takes seconds), with
    the files that could not become cases in their place."""
    from regen_model.scenario import ScenarioError, load_scenario, run_scenario, scenario_files

    seen: set[str] = set()
    for path in scenario_files(list(paths)):
        try:
            scenario = load_scenario(path)
            result = run_scenario(scenario)
        except ScenarioError as exc:
            yield Skipped(str(path), f"scenario error: {exc}")
            continue
        try:
            start = Start.from_state(scenario.start)
        except NotExpressible as exc:
            yield Skipped(str(path), f"start not expressible: {exc}")
            continue
        actions = tuple(
            a for r in result.steps if r.error is None or len(r.actions) == 1 for a in r.actions
        )
        name = f"scenario-{path.stem}"
        if name in seen:  # the shipped examples copy some test scenarios verbatim
            continue
        seen.add(name)
        yield Case(name, start, actions, f"scenario:{path}", scenario.clauses)


def scenario_cases(paths: Iterable[Path]) -> tuple[list[Case], list[tuple[str, str]]]:
    """Cases from scenario files, and the files that could not become cases (with why)."""
    cases: list[Case] = []
    skipped: list[tuple[str, str]] = []
    for item in iter_scenario_cases(paths):
        if isinstance(item, Skipped):
            skipped.append((item.path, item.reason))
        else:
            cases.append(item)
    return cases, skipped


class WitnessLike(Protocol):
    """A scenario found by another tool, e.g. ``regen_model.checks.cover.Witness``."""

    @property
    def start(self) -> GameState: ...

    @property
    def actions(self) -> tuple[Action, ...]: ...


def cover_cases(witnesses: Mapping[str, WitnessLike]) -> tuple[list[Case], list[tuple[str, str]]]:
    """Cases from clause witnesses found elsewhere (the Z3 cover check's, from
    ``checks.sections.cover_witnesses``: clause ID -> shortest run), and the ones whose start
    cannot be described to another engine (with why)."""
    cases: list[Case] = []
    skipped: list[tuple[str, str]] = []
    for clause, w in witnesses.items():
        try:
            start = Start.from_state(w.start)
        except NotExpressible as exc:
            skipped.append((clause, str(exc)))
            continue
        name = "cover-" + clause.replace(".", "-")
        cases.append(Case(name, start, tuple(w.actions), f"cover:{clause}", (clause,)))
    return cases, skipped


def witness_cases(seed: int = 0, *, cache: bool = True) -> list[Case]:
    """The clause witnesses as cases (kept in the disk cache, ``cache.py``: they depend on the
    model only, not on the engine under test)."""

    def compute() -> list[Case]:
        return [case for _, case in clause_witnesses(seed).cases]

    if not cache:
        return compute()
    from regen_model.conform.cache import cached_cases

    return cached_cases(f"witnesses-{seed}", compute)


def saved_cases(paths: Iterable[Path]) -> list[Case]:
    """``read_saved_cases`` that raises ``FormatError`` on the first bad file."""
    cases, bad = read_saved_cases(paths)
    if bad:
        raise bad[0]
    return cases


def read_saved_cases(paths: Iterable[Path]) -> tuple[list[Case], list[FormatError]]:
    """Cases from ITF files and scenario files.

    A directory means every ``*.itf.json`` in it (but not the engines' ``*.observed.itf.json``
    traces) and every scenario file (``.yaml``, ``.yml``, other ``.json``). A scenario file is
    played on the reference engine as ``scenario_cases`` does; a readable scenario with its
    expectations is how a pinned divergence is kept (tests/adapters/divergences), and ``--case``
    replays it on any engine. A file that is not valid gives a ``FormatError`` (one line, with
    the file) in the second list, and the others are still read: one bad file is reported, not
    fatal to the run.
    """
    out: list[Case] = []
    bad: list[FormatError] = []
    for p in paths:
        if p.is_dir():
            files = sorted(
                f
                for f in regular_files(p)
                if (f.name.endswith(".itf.json") or _is_scenario_file(f))
                and not f.name.endswith(".observed.itf.json")
            )
        else:
            files = [p]
        if not p.exists():
            bad.append(FormatError(str(p), 0, 0, "(file)", "no such file or directory"))
            continue
        for f in files:
            if f.name.endswith(".itf.json"):
                try:
                    out.append(read_case(f))
                except FormatError as exc:
                    bad.append(exc)
                continue
            found, problems = scenario_cases([f])
            if problems:
                bad.append(FormatError(str(f), 0, 0, "scenario", problems[0][1]))
            out += found
    return out, bad


def _is_scenario_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") or (
        path.suffix == ".json" and not path.name.endswith(".itf.json")
    )
