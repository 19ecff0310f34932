"""``regen-model run FILE...``: play scenario files on the reference engine and narrate them.

Exit codes: 0 when every expectation of every file held, 1 when one failed, 2
(``EXIT_INPUT_ERROR``) when a file could not be loaded or asked the engine for something the
rules refuse without saying ``error:``. Bad input is one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from regen_model.cli.errors import internal_error
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.jsondoc import enveloped
from regen_model.scenario import ScenarioError, ScenarioResult, load_scenario, run_scenario
from regen_model.scenario.load import scenario_files
from regen_model.scenario.narrate import input_error, narrate, summarize
from regen_model.scenario.output_json import run_document
from regen_model.verdicts import EXIT_INPUT_ERROR, exit_code


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        files: Annotated[
            list[Path],
            typer.Argument(
                help="Scenario files (.yaml, .yml, .json), or directories holding them.",
                show_default=False,
            ),
        ],
        json_output: Annotated[
            bool, typer.Option("--json", help="Print one JSON document instead of tables.")
        ] = False,
        quiet: Annotated[
            bool,
            typer.Option("--quiet", "-q", help="Only a verdict line per file and any failures."),
        ] = False,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
    ) -> None:
        """Run scenario files and check their expectations (exit 0 passed, 1 failed, 2 bad
        input)."""
        raise typer.Exit(
            run_files(files, json_output=json_output, quiet=quiet, table_format=table_format)
        )


def run_files(
    files: list[Path],
    *,
    json_output: bool = False,
    quiet: bool = False,
    table_format: TableFormat = TableFormat.RICH,
) -> int:
    """Run every file; print as asked; return the exit code."""
    out = output_console(table_format)
    err = Console(stderr=True, highlight=False)
    results: list[ScenarioResult] = []
    errors: list[ScenarioError] = [
        ScenarioError(
            str(d), None, None, "no scenario files (.yaml, .yml, .json) in this directory"
        )
        for d in files
        if d.is_dir() and not scenario_files([d])
    ]
    if not json_output:
        for exc in errors:
            input_error(err, exc)
    for path in scenario_files(files):
        try:
            result = run_scenario(load_scenario(path))
        except ScenarioError as exc:
            errors.append(exc)
            if not json_output:
                input_error(err, exc)
            continue
        except Exception as exc:  # a bug in regen-model, not in the file: say so
            return internal_error(exc, f"run of {path}")
        results.append(result)
        if json_output:
            continue
        if quiet:
            summarize(out, result)
        else:
            narrate(out, result)
    if json_output:
        doc = run_document(results, errors)
        doc = enveloped("run", None, doc["exit_code"], doc)
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    if errors:
        return EXIT_INPUT_ERROR
    return exit_code(r.verdict for r in results)
