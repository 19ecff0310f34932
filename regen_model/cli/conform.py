"""Cross-checking other engines: ``check-trace``, ``crosscheck`` and ``export-vectors``.

* ``check-trace FILE``: does some run of the specification explain this ITF trace (an engine's
  game log)? Gaps of the log are filled by ``--resolver`` (``conform/solve.py``). Exit 0
  PASSED, 1 FAILED, 4 UNKNOWN (frontier cut), 5 VACUOUS (nothing to check), 2 bad file (one
  line naming file:line:col and the field).
* ``crosscheck --engine NAME``: run scenarios on the reference and on the engine, shrink each
  divergence, write a report. Scenarios: the scenario files, the clause witnesses of
  ``conform/witness.py``, the Z3 cover check's witnesses (``--cover``), saved cases and
  Hypothesis-drawn random ones. Exit 0 agreement, 6 divergences, 7 the engine crashed or could
  not be started (and no divergence was found), 5 nothing was compared, 2 bad arguments.
* ``export-vectors DIR``: conformance vectors for engines in any language, into a new or empty
  folder (``--force`` replaces an earlier export, and only its files). Exit 0 when every clause
  of the catalog is covered, 1 when one is not, 2 when the folder is refused.
"""

from __future__ import annotations

import json
import random
import shlex
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from regen_model.conform.adapter import (
    UnknownEngine,
    engine_factory,
    jsonl_command,
    parse_rules,
)
from regen_model.conform.case import Case, CaseResult, Outcome
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.trace_check import MAX_FRONTIER
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, Verdict


def register(app: typer.Typer) -> None:
    app.command("check-trace")(check_trace_command)
    app.command("crosscheck")(crosscheck_command)
    app.command("export-vectors")(export_vectors_command)


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


# --- check-trace -------------------------------------------------------------------------------


class Resolver(StrEnum):
    """``check-trace --resolver`` (``conform.solve.RESOLVERS``)."""

    ENUMERATE = "enumerate"
    Z3 = "z3"
    AUTO = "auto"


def check_trace_command(
    file: Annotated[Path, typer.Argument(help="An ITF trace (.itf.json).", show_default=False)],
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON report.")] = False,
    rules: Annotated[
        str,
        typer.Option(help="Check against these rules: 'correct' or mutant names joined by '+'."),
    ] = "correct",
    max_frontier: Annotated[
        int, typer.Option(help="Most specification states kept open at once.")
    ] = MAX_FRONTIER,
    resolver: Annotated[
        Resolver,
        typer.Option(
            help="How gaps of the log are filled: 'enumerate' small domains, solve with "
            "'z3', or 'auto' (enumeration, then z3 at a step it cannot explain)."
        ),
    ] = Resolver.AUTO,
) -> None:
    """Check that some run of the specification explains a trace (exit 0 passed, 1 failed,
    4 unknown, 5 vacuous, 2 bad file)."""
    from regen_model.conform.itf import read_trace
    from regen_model.conform.report import render_trace_report
    from regen_model.conform.solve import RESOLVERS
    from regen_model.conform.trace_check import check_trace

    err = Console(stderr=True, highlight=False)
    try:
        rule_set = parse_rules(rules)
        trace = read_trace(file)
    except UnknownEngine as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    except FormatError as exc:
        if json_output:
            sys.stdout.write(json.dumps({"error": exc.to_json()}, indent=2) + "\n")
        else:
            err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    report = check_trace(
        trace, rule_set, resolver=RESOLVERS[resolver.value](), max_frontier=max_frontier
    )
    if json_output:
        sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        render_trace_report(report, Console(highlight=False))
    raise typer.Exit(EXIT_CODES[report.verdict])


# --- crosscheck -----------------------------------------------------------------------------------


def crosscheck_command(
    engine: Annotated[
        str,
        typer.Option(
            help="Engine under test: reference[:MUTANT], jsonl:COMMAND, python:MODULE:FACTORY, "
            "phase, or an installed entry point.",
            show_default=False,
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="Seed of the random scenarios (printed when drawn).")
    ] = None,
    random_cases: Annotated[
        int, typer.Option("--random", help="Number of random scenarios (Hypothesis).")
    ] = 200,
    out: Annotated[
        Path | None,
        typer.Option(help="Directory for results.jsonl, report.md/json and shrunk cases."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON report.")] = False,
    case: Annotated[
        list[Path] | None,
        typer.Option(help="Replay saved cases (ITF files or directories); repeatable."),
    ] = None,
    scenarios: Annotated[
        bool, typer.Option(help="Include the scenario files (tests/scenarios, examples).")
    ] = True,
    witnesses: Annotated[
        bool, typer.Option(help="Include the clause witnesses (every clause, with contexts).")
    ] = True,
    cover: Annotated[
        bool,
        typer.Option(
            help="Include the witnesses of the Z3 cover check (a shortest run firing each "
            "clause branch of the relation; about half a minute to find)."
        ),
    ] = True,
    shrink: Annotated[bool, typer.Option(help="Shrink each divergence.")] = True,
    timeout: Annotated[
        float, typer.Option(help="Seconds per request for JSON-lines engines.")
    ] = 10.0,
    isolate: Annotated[
        bool,
        typer.Option(help="Run a Python engine in a child process (so a hang can be cut)."),
    ] = False,
    max_steps: Annotated[int, typer.Option(help="Most actions per random scenario.")] = 20,
) -> None:
    """Run scenarios on the reference engine and on ENGINE, compare every step, shrink each
    divergence (exit 0 agree, 6 diverge, 7 engine failed, 5 nothing compared)."""
    from regen_model.conform import sources
    from regen_model.conform.differential import crosscheck
    from regen_model.conform.generate import random_cases as draw_random
    from regen_model.conform.jsonl import JsonlAdapter
    from regen_model.conform.report import render_crosscheck

    out_console = Console(highlight=False, stderr=json_output)
    err = Console(stderr=True, highlight=False)
    spec = engine
    if isolate and not engine.startswith("jsonl:"):
        spec = f"jsonl:{shlex.join([sys.executable, '-m', 'regen_model.conform.serve', engine])}"
    try:
        factory = engine_factory(engine)  # the name is checked here, even when isolated
        if spec != engine:
            factory = engine_factory(spec)
    except UnknownEngine as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    if spec.startswith("jsonl:"):
        command = jsonl_command(spec.removeprefix("jsonl:"))

        def factory() -> JsonlAdapter:
            return JsonlAdapter(command, timeout=timeout)

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    out_console.print(
        f"crosscheck of {engine}: seed {seed} (repeat with --seed {seed})",
        markup=False,
        soft_wrap=True,
    )
    cases: list[Case] = []
    try:
        cases += sources.saved_cases(case or [])
    except FormatError as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    with _progress(out_console) as progress:
        if scenarios:
            task = progress.add_task("loading scenario files", total=None)
            found, skipped = sources.scenario_cases(sources.default_scenario_paths())
            cases += found
            for path, reason in skipped:
                err.print(f"scenario not used: {path}: {reason}", markup=False, soft_wrap=True)
            progress.remove_task(task)
        corpus: list[Case] = []
        if witnesses:
            task = progress.add_task("searching clause witnesses", total=None)
            corpus = sources.witness_cases()
            cases += corpus
            progress.remove_task(task)
        if cover:
            task = progress.add_task("finding the cover check's clause witnesses", total=None)
            found, skipped = _cover_cases()
            cases += found
            for clause, reason in skipped:
                err.print(f"cover witness not used: {clause}: {reason}", markup=False)
            progress.remove_task(task)
        if random_cases > 0:
            task = progress.add_task(f"drawing {random_cases} random scenarios", total=None)
            cases += draw_random(random_cases, seed, max_steps, corpus)
            progress.remove_task(task)
        run_task = progress.add_task(f"running {len(cases)} scenarios", total=len(cases))
        diverged = [0]

        def advance(result: CaseResult) -> None:
            if result.outcome in (Outcome.DIVERGED, Outcome.ENGINE_ERROR):
                diverged[0] += 1
            progress.update(
                run_task,
                advance=1,
                description=f"running {len(cases)} scenarios ({diverged[0]} diverged)",
            )

        report = crosscheck(
            factory,
            cases,
            out_dir=out,
            seed=seed,
            shrink_findings=shrink,
            on_result=advance,
        )
    if json_output:
        sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        render_crosscheck(report, out_console)
        if out is not None:
            out_console.print(f"report: {out / 'report.md'}, results: {out / 'results.jsonl'}")
    raise typer.Exit(
        _crosscheck_exit(report.verdict, report.counts[Outcome.DIVERGED], len(report.errors))
    )


def _cover_cases() -> tuple[list[Case], list[tuple[str, str]]]:
    """The Z3 cover check's witnesses as cases: for each clause branch of the relation, the
    shortest run found (guided by the explorer, else by BMC) that fires it, already replayed
    on the reference engine (``checks.cover``; the same search as ``verify``'s cover)."""
    from regen_model.checks.cover import guide_runs, witnesses
    from regen_model.checks.sections import COVER_DEPTH
    from regen_model.checks.solver import Budget
    from regen_model.checks.systems import COVER_SCOPE, regen_system
    from regen_model.conform import sources

    found = witnesses(
        regen_system(COVER_SCOPE), COVER_DEPTH, Budget(), guides=guide_runs(COVER_SCOPE)
    )
    return sources.cover_cases(found)


def _crosscheck_exit(verdict: Verdict, divergences: int, errors: int) -> int:
    """Divergences first (the engine is wrong), then failures (it crashed or hung)."""
    if divergences:
        return EXIT_CODES[Verdict.DIVERGED]
    if errors:
        return EXIT_INTERNAL_ERROR
    return EXIT_CODES[verdict]


# --- export-vectors ---------------------------------------------------------------------------------


def export_vectors_command(
    directory: Annotated[Path, typer.Argument(help="Output directory.", show_default=False)],
    seed: Annotated[int, typer.Option(help="Seed of the clause-witness search.")] = 0,
    scenarios: Annotated[
        bool, typer.Option(help="Also export the scenario files as vectors.")
    ] = True,
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Write into a non-empty folder that holds an earlier export, removing only "
            "the files that export wrote.",
        ),
    ] = False,
) -> None:
    """Write conformance vectors (JSON cases with expected observations) for every clause
    into a new or empty folder (exit 0 every clause covered, 1 some clause not, 2 the folder
    is refused)."""
    from regen_model.conform.vectors import ExportRefused, export

    console = Console(highlight=False, stderr=json_output)
    err = Console(stderr=True, highlight=False)
    try:
        with _progress(console) as progress:
            progress.add_task("searching clause witnesses and writing vectors", total=None)
            result = export(directory, seed, include_scenarios=scenarios, force=force)
    except (ExportRefused, OSError) as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    if json_output:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
    else:
        console.print(
            f"wrote {result.vectors} vectors to {directory}/cases, index {directory}/index.json; "
            f"{len(result.clauses_covered)} of {len(result.clauses_covered) + len(result.missing)}"
            " clauses covered"
        )
        for clause in result.missing:
            console.print(f"  no vector exercises {clause}", style="bold red")
    raise typer.Exit(0 if not result.missing else EXIT_CODES[Verdict.FAILED])
