"""``regen-model mutants``: the matrix mutant x invariant, and whether anything survives.

Each mutant (a deliberately wrong rule variant) is explored in the explicit-state battery with
the whole invariant catalog checked, every scenario file is played under it, and with
``--prove`` the proof engine also runs on the mutated Z3 relation. The matrix
shows, for each mutant and invariant, the shortest counterexample that kills the mutant, and
how many scenarios fail under it. A mutant nothing catches, or an invariant no mutant breaks,
makes the verdict FAILED (exit code 1).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regen_model.cli.options import WORKERS
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.invariants import InvariantError
from regen_model.jsondoc import envelope, enveloped
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT
from regen_model.mutants.catalog import MUTANT_INFO
from regen_model.mutants.matrix import RulesResult, compute_matrix
from regen_model.mutants.proofs import InductionRoute
from regen_model.mutants.report import cell, matrix_json, matrix_table
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR


def register(app: typer.Typer) -> None:
    @app.command("mutants")
    def mutants_command(
        mutant: Annotated[
            list[Mutant] | None,
            typer.Option(
                "--mutant",
                "-m",
                help="Only these mutants (repeat; --list lists them). Default: all.",
            ),
        ] = None,
        proofs: Annotated[
            list[Path] | None,
            typer.Option("--proofs", help="Also check the invariants of these files/folders."),
        ] = None,
        scenarios: Annotated[
            list[Path] | None,
            typer.Option(
                "--scenarios", help="Scenario folders (default: tests/scenarios, examples)."
            ),
        ] = None,
        jobs: Annotated[int, WORKERS.option("--jobs", "-j", help="Worker processes.")] = 2,
        prove: Annotated[
            bool,
            typer.Option(
                "--prove",
                help="Also run the proof engine on each mutated Z3 relation (slow: about a "
                "minute or two of CPU per mutant).",
            ),
        ] = False,
        list_only: Annotated[
            bool, typer.Option("--list", help="List the mutants and what they break; run nothing.")
        ] = False,
        json_output: Annotated[
            bool, typer.Option("--json", help="Print one JSON document.")
        ] = False,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Print the mutant x invariant matrix; fail if a mutant or an invariant survives."""
        out = output_console(table_format)
        if list_only and json_output:
            listing = [
                {
                    "mutant": m.value,
                    "wrong": MUTANT_INFO[m].wrong,
                    "clauses": list(MUTANT_INFO[m].clauses),
                }
                for m in Mutant
            ]
            sys.stdout.write(
                json.dumps(envelope("mutants", None, 0, mutants=listing), indent=2) + "\n"
            )
            raise typer.Exit(0)
        if list_only:
            out.print(mutant_list())
            raise typer.Exit(0)
        total = 1 + len(mutant or Mutant)
        try:
            with Progress("mutants", "the matrix", total=total, unit="rows", quiet=quiet) as bar:

                def row_done(row: RulesResult) -> None:
                    bar.update(advance=1)
                    bar.note(f"{row.rules}: {_row_verdict(row)} ({row.seconds:.1f} s)")

                matrix = compute_matrix(
                    mutant,
                    invariant_files=proofs or (),
                    scenario_roots=scenarios,
                    jobs=jobs,
                    proof=InductionRoute() if prove else None,
                    on_row=row_done,
                )
        except InvariantError as e:
            Console(stderr=True).print(
                f"mutants: {e}", style="bold red", highlight=False, markup=False
            )
            raise typer.Exit(EXIT_INPUT_ERROR) from None
        if json_output:
            doc = enveloped(
                "mutants", matrix.verdict, EXIT_CODES[matrix.verdict], matrix_json(matrix)
            )
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        else:
            out.print(matrix_table(matrix))
        raise typer.Exit(EXIT_CODES[matrix.verdict])


def _row_verdict(row: RulesResult) -> str:
    """``killed by inv.x (E2)``, ``SURVIVES``; for the correct rules, what they violate."""
    best = min(row.kills, key=lambda k: k.length, default=None)
    if row.rules == CORRECT.name:
        return "VIOLATES " + ", ".join(k.invariant for k in row.kills) if row.kills else "PROVED"
    if best is not None:
        return f"killed by {best.invariant} ({cell(best)})"
    if row.scenarios:
        return f"killed by {len(row.scenarios)} scenario(s)"
    return "SURVIVES"


def mutant_list() -> Table:
    table = Table(title="Rule mutants", title_justify="left")
    table.add_column("mutant")
    table.add_column("what is wrong")
    table.add_column("clauses broken")
    for m in Mutant:
        info = MUTANT_INFO[m]
        table.add_row(m.value, Text(info.wrong), ", ".join(info.clauses))
    return table
