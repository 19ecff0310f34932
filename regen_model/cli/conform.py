"""Cross-checking other engines: ``check-trace``, ``crosscheck`` and ``export-vectors``.

* ``check-trace FILE``: does some run of the specification explain this ITF trace (an engine's
  game log)? Gaps of the log are filled by ``--resolver`` (``conform/solve.py``). Exit 0
  PASSED, 1 FAILED, 4 UNKNOWN (frontier cut), 5 VACUOUS (nothing to check), 2 bad file (one
  line naming file:line:col and the field).
* ``crosscheck --engine NAME``: run scenarios on the reference and on the engine, shrink each
  divergence, write a report. Scenarios: the scenario files, the clause witnesses of
  ``conform/witness.py``, the Z3 cover check's witnesses (``--cover``), saved cases and
  coverage-guided random ones, in the order of ``conform/stream.py``. Exit 0 agreement, 6
  divergences, 7 the engine crashed or could not be started (and no divergence was found), 5
  nothing was compared, 2 bad arguments.
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
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from regen_model.cli.options import (
    BUDGET_SECONDS,
    COUNT,
    FRONTIER,
    MAX_STEPS,
    POSITIVE_COUNT,
    SEED,
    TIMEOUT,
    WORKERS,
)
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.reporting import incomplete_line, write_page
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.conform.adapter import (
    UnknownEngine,
    engine_factory,
    jsonl_command,
    parse_rules,
)
from regen_model.conform.case import CaseResult, Outcome
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.trace_check import MAX_FRONTIER
from regen_model.jsondoc import envelope, enveloped
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, Verdict

if TYPE_CHECKING:
    pass


def register(app: typer.Typer) -> None:
    app.command("check-trace")(check_trace_command)
    app.command("crosscheck")(crosscheck_command)
    app.command("export-vectors")(export_vectors_command)


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
        int, FRONTIER.option("--max-frontier", help="Most specification states kept open at once.")
    ] = MAX_FRONTIER,
    resolver: Annotated[
        Resolver,
        typer.Option(
            help="How gaps of the log are filled: 'enumerate' small domains, solve with "
            "'z3', or 'auto' (enumeration, then z3 at a step it cannot explain)."
        ),
    ] = Resolver.AUTO,
    mapping: Annotated[
        Path | None,
        typer.Option(
            "--map",
            help="A mapping file (YAML/JSON) for a trace in another vocabulary, e.g. Quint's "
            "(`regen-model docs itf`).",
            show_default=False,
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the report as a self-contained HTML page."),
    ] = None,
    table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
) -> None:
    """Check that some run of the specification explains a trace (exit 0 passed, 1 failed,
    4 unknown, 5 vacuous, 2 bad file)."""
    from regen_model.conform.itf import read_trace
    from regen_model.conform.itf_map import load_map
    from regen_model.conform.report import render_trace_report
    from regen_model.conform.solve import RESOLVERS
    from regen_model.conform.trace_check import check_trace
    from regen_model.html.pages import trace_page

    err = Console(stderr=True, highlight=False)
    try:
        rule_set = parse_rules(rules)
        trace = read_trace(file, load_map(mapping) if mapping is not None else None)
    except UnknownEngine as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    except FormatError as exc:
        if json_output:
            doc = envelope("check-trace", None, EXIT_INPUT_ERROR, error=exc.to_json())
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        else:
            err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    report = check_trace(
        trace, rule_set, resolver=RESOLVERS[resolver.value](), max_frontier=max_frontier
    )
    if html is not None:
        write_page(html, err, lambda: trace_page(report, trace))
    if json_output:
        code = EXIT_CODES[report.verdict]
        doc = enveloped("check-trace", report.verdict, code, report.to_json())
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        render_trace_report(report, output_console(table_format))
    raise typer.Exit(EXIT_CODES[report.verdict])


# --- crosscheck -----------------------------------------------------------------------------------


def crosscheck_command(
    engine: Annotated[
        str,
        typer.Option(
            help="Engine under test: reference[:MUTANT], jsonl:COMMAND, python:MODULE:FACTORY, "
            "phase, python-mtg, or an installed entry point.",
            show_default=False,
        ),
    ],
    seed: Annotated[
        int | None,
        SEED.option("--seed", help="Seed of the random scenarios (printed; default: a fresh one)."),
    ] = None,
    random_cases: Annotated[
        int,
        COUNT.option(
            "--random", help="Number of random scenarios (coverage-guided, from the seed)."
        ),
    ] = 200,
    out: Annotated[
        Path | None,
        typer.Option(help="Directory for results.jsonl, report.md/json and shrunk cases."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print a JSON report.")] = False,
    case: Annotated[
        list[Path] | None,
        typer.Option(
            help="Replay saved cases (ITF files, scenario files or directories); repeatable. "
            "A bad file is reported and skipped."
        ),
    ] = None,
    vectors: Annotated[
        Path | None,
        typer.Option(help="Replay the conformance vectors of DIR (written by export-vectors)."),
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
            "clause branch of the relation; found once, then cached)."
        ),
    ] = True,
    known: Annotated[
        Path | None,
        typer.Option(
            help="A known-divergence list (YAML): cases go on past the divergences it explains."
        ),
    ] = None,
    shrink: Annotated[bool, typer.Option(help="Shrink each divergent case.")] = True,
    probe_refusals: Annotated[
        bool,
        typer.Option(
            help="Also send the actions the rules refuse (the engine must refuse them too: an "
            "engine that accepts more than the rules allow diverges there)."
        ),
    ] = False,
    shrink_seconds: Annotated[
        float,
        BUDGET_SECONDS.option(
            "--shrink-seconds", help="Seconds for all the shrinking (0: no limit)."
        ),
    ] = 300.0,
    workers: Annotated[
        int,
        WORKERS.option(
            "--jobs",
            "-j",
            "--workers",
            help="Processes that shrink divergent cases in parallel.",
            metavar="N",
        ),
    ] = 2,
    candidates: Annotated[
        int,
        POSITIVE_COUNT.option(
            "--candidates", help="Candidates drawn per random scenario (the most novel is kept)."
        ),
    ] = 10,  # guided.DEFAULT_CANDIDATES (not imported: the CLI loads commands lazily)
    timeout: Annotated[
        float, TIMEOUT.option("--timeout", help="Seconds per request for JSON-lines engines.")
    ] = 10.0,
    isolate: Annotated[
        bool,
        typer.Option(help="Run a Python engine in a child process (so a hang can be cut)."),
    ] = False,
    max_steps: Annotated[
        int, MAX_STEPS.option("--max-steps", help="Most actions per random scenario.")
    ] = 20,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write the report as a self-contained HTML page."),
    ] = None,
    table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
    quiet: Annotated[bool, quiet_option()] = False,
) -> None:
    """Run scenarios on the reference engine and on ENGINE, compare every step, shrink each
    divergence, one finding per root cause (exit 0 agree, 6 diverge, 7 engine failed,
    5 nothing compared)."""
    from regen_model.conform.differential import crosscheck
    from regen_model.conform.jsonl import JsonlAdapter
    from regen_model.conform.known import KnownListError, load_known
    from regen_model.conform.report import render_crosscheck
    from regen_model.conform.stream import CaseStream, StreamOptions
    from regen_model.html.pages import crosscheck_page

    out_console = output_console(table_format, stderr=json_output)
    err = Console(stderr=True, highlight=False)
    spec = engine
    if isolate and not engine.startswith("jsonl:"):
        spec = f"jsonl:{shlex.join([sys.executable, '-m', 'regen_model.conform.serve', engine])}"
    try:
        factory = engine_factory(engine)  # the name is checked here, even when isolated
        if spec != engine:
            factory = engine_factory(spec)
        known_list = load_known(known) if known is not None else ()
    except (UnknownEngine, KnownListError, OSError) as exc:
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
    options = StreamOptions(
        seed,
        random_cases,
        scenarios=scenarios,
        witnesses=witnesses,
        cover=cover,
        max_steps=max_steps,
        candidates=candidates,
        vectors=vectors,
        saved=tuple(case or ()),
    )
    source = CaseStream(options, lambda text: err.print(text, markup=False, soft_wrap=True))
    with Progress("crosscheck", "running scenarios", unit="cases", quiet=quiet) as progress:
        diverged = 0

        def advance(result: CaseResult) -> None:
            nonlocal diverged
            if result.outcome in (Outcome.DIVERGED, Outcome.ENGINE_ERROR):
                diverged += 1
                progress.note(f"{result.case.name}: {result.outcome.value}")
            progress.update(f"{source.now} ({diverged} diverged)", advance=1)

        source.lacks_from(factory)
        report = crosscheck(
            factory,
            source,
            out_dir=out,
            seed=seed,
            shrink_findings=shrink,
            shrink_seconds=shrink_seconds or None,
            workers=workers,
            engine_spec=None if spec.startswith("jsonl:") else spec,
            known=known_list,
            on_result=advance,
            probe_refusals=probe_refusals,
        )
    if html is not None:
        write_page(html, err, lambda: crosscheck_page(report), report.interrupted)
    if json_output:
        sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        render_crosscheck(report, out_console)
        if out is not None:
            out_console.print(f"report: {out / 'report.md'}, results: {out / 'results.jsonl'}")
        if report.interrupted:
            done = f"{report.cases} case(s) compared, divergences not shrunk"
            out_console.print(incomplete_line("crosscheck", report.interrupted, done))
    code = report.exit_code
    if (
        source.bad_inputs
        and not report.interrupted
        and (not report.cases or code == EXIT_CODES[Verdict.PASSED])
    ):
        # The run went on without them (nothing computed is lost), but a clean or empty
        # result must not hide that some of what the user named was never compared.
        err.print(
            f"error: {source.bad_inputs} input(s) named on the command line not used (above)",
            style="bold red",
            markup=False,
            soft_wrap=True,
        )
        code = EXIT_INPUT_ERROR
    raise typer.Exit(code)


# --- export-vectors ---------------------------------------------------------------------------------


def export_vectors_command(
    directory: Annotated[Path, typer.Argument(help="Output directory.", show_default=False)],
    seed: Annotated[int, SEED.option("--seed", help="Seed of the clause-witness search.")] = 0,
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
    quiet: Annotated[bool, quiet_option()] = False,
) -> None:
    """Write conformance vectors (JSON cases with expected observations) for every clause
    into a new or empty folder (exit 0 every clause covered, 1 some clause not, 2 the folder
    is refused)."""
    from regen_model.conform.vectors import ExportRefused, export

    console = Console(highlight=False, stderr=json_output)
    err = Console(stderr=True, highlight=False)
    try:
        with Progress("export-vectors", "searching clause witnesses", quiet=quiet):
            result = export(directory, seed, include_scenarios=scenarios, force=force)
    except (ExportRefused, OSError) as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INPUT_ERROR) from None
    code = 0 if not result.missing else EXIT_CODES[Verdict.FAILED]
    if json_output:
        verdict = Verdict.FAILED if result.missing else Verdict.PASSED
        doc = enveloped("export-vectors", verdict, code, result.to_json())
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        console.print(
            f"wrote {result.vectors} vectors to {directory}/cases, index {directory}/index.json; "
            f"{len(result.clauses_covered)} of {len(result.clauses_covered) + len(result.missing)}"
            " clauses covered"
        )
        for clause in result.missing:
            console.print(f"  no vector exercises {clause}", style="bold red")
    raise typer.Exit(code)
