"""``regen-model find QUERY``: the shortest run to a state or step the query describes.

The query language is documented in ``docs/queries.md`` (``--example NAME`` runs a named
example, ``--list-examples`` lists them). The run found is replayed on the engine, shown as
a table of the fields each step changed with the clause IDs of the engine's events, and
written as ITF JSON with ``--out``.

Exit codes (like ``grep``): 0 a run was found, 1 none within the depth, 4 the solver gave
up, 2 bad input (a query that does not parse), 7 the engine disagrees with the solver's run
(the two views of the rules differ: a bug, reported with the first differing field).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regen_model.checks.bmc import Found
from regen_model.checks.find import FindResult, find
from regen_model.checks.replay import ReplayDisagreement
from regen_model.checks.solver import Budget
from regen_model.checks.systems import parse_scope, regen_system
from regen_model.checks.traces import compact, rows, to_itf
from regen_model.cli.options import DEPTH, RLIMIT
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.conform.jsonout import dumps
from regen_model.invariants.query import EXAMPLES, QueryError, example, parse
from regen_model.jsondoc import envelope
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, Verdict

EXIT_FOUND = 0
EXIT_NOT_FOUND = 1


def register(app: typer.Typer) -> None:
    @app.command("find")
    def find_command(
        query: Annotated[
            str | None,
            typer.Argument(help="The query (see `regen-model docs queries`).", show_default=False),
        ] = None,
        example_name: Annotated[
            str | None,
            typer.Option(
                "--example", help="Run a named example query.", metavar="NAME", show_default=False
            ),
        ] = None,
        list_examples: Annotated[
            bool, typer.Option("--list-examples", help="List the example queries.")
        ] = False,
        depth: Annotated[
            int | None,
            DEPTH.option(
                "--depth", "-d", help="Longest run to search (steps).", show_default=False
            ),
        ] = None,
        scope: Annotated[
            str | None,
            typer.Option(
                "--scope", help="Bounded scope, e.g. cards=2,shields=1.", show_default=False
            ),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out-itf",
                "--out",
                "-o",
                help="Write the run as ITF JSON here.",
                metavar="FILE",
                show_default=False,
            ),
        ] = None,
        rlimit: Annotated[
            int, RLIMIT.option("--rlimit", help="Solver resource limit per query (0: none).")
        ] = Budget.rlimit,
        json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        html: Annotated[
            Path | None,
            typer.Option("--html", help="Write the run as a self-contained HTML page."),
        ] = None,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Find the shortest run to what QUERY describes (0 found, 1 none, 7 disagreement)."""
        raise typer.Exit(
            run_find(
                query,
                example_name,
                list_examples,
                depth,
                scope,
                out,
                rlimit,
                json_output,
                html,
                table_format,
                quiet,
            )
        )


def run_find(
    text: str | None,
    example_name: str | None,
    list_examples: bool,
    depth: int | None,
    scope_text: str | None,
    out: Path | None,
    rlimit: int,
    json_output: bool,
    html: Path | None = None,
    table_format: TableFormat = TableFormat.RICH,
    quiet: bool = False,
) -> int:
    console = output_console(table_format)
    err = Console(stderr=True, highlight=False)
    if list_examples and json_output:
        listing = [{"name": ex.name, "says": ex.says, "query": ex.query} for ex in EXAMPLES]
        doc = envelope("find", None, 0, examples=listing)
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    if list_examples:
        for ex in EXAMPLES:
            console.print(f"[bold]{ex.name}[/bold]  {ex.says}\n    {ex.query}")
        return 0
    description = ""
    try:
        if example_name is not None:
            ex = example(example_name)
            text, description = ex.query, ex.says
            depth = ex.depth if depth is None else depth
        if text is None:
            raise ValueError("give a QUERY or --example NAME (--list-examples lists them)")
        query = parse(text)
        scope = parse_scope(scope_text)
    except (QueryError, ValueError, KeyError) as problem:
        # A KeyError's str() is the repr of its message (quoted): print the message itself.
        message = problem.args[0] if isinstance(problem, KeyError) and problem.args else problem
        err.print(Text(str(message), style="bold red"))
        return EXIT_INPUT_ERROR
    max_depth = 6 if depth is None else depth
    try:
        searching = f"searching runs of up to {max_depth} steps"
        with Progress("find", searching, quiet=quiet):
            result = find(regen_system(scope), query, max_depth, Budget(rlimit=rlimit))
    except ReplayDisagreement as problem:
        err.print(f"internal error: {problem}", style="bold red")
        if json_output:
            sys.stdout.write(
                json.dumps(
                    {
                        **envelope("find", None, EXIT_INTERNAL_ERROR),
                        "query": text,
                        "disagreement": {
                            "step": problem.step,
                            "field": problem.path,
                            "solver": repr(problem.solver),
                            "engine": repr(problem.engine),
                        },
                    },
                    indent=2,
                )
                + "\n"
            )
        return EXIT_INTERNAL_ERROR
    meta = {
        "query": text,
        "description": description,
        "scope": scope.describe(),
        "source": "regen-model find",
    }
    written = result.found is Found.FOUND and out is not None and result.replayed is not None
    if html is not None:
        from regen_model.html import write
        from regen_model.html.pages import find_page

        write(html, find_page(result, meta, max_depth))
        err.print(f"HTML page: {html}", markup=False, highlight=False)
    if json_output:
        doc = document(result, meta, max_depth)
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        show(console, result, max_depth, description)
    if written:
        # After the run is shown: a path that cannot be written loses nothing already found.
        assert out is not None and result.replayed is not None
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(dumps(to_itf(result.replayed, meta)) + "\n", encoding="utf-8")
        except OSError as problem:
            reason = problem.strerror or str(problem)
            if problem.filename and str(problem.filename) != str(out):
                reason += f": {problem.filename}"
            err.print(
                Text(f"error: cannot write {out}: {reason}", style="bold red"), soft_wrap=True
            )
            return EXIT_INPUT_ERROR
        if not json_output:
            console.print(Text(f"ITF trace written to {out}", style="green"))
    if result.found is Found.FOUND:
        return EXIT_FOUND
    if result.found is Found.UNKNOWN:
        return EXIT_CODES[Verdict.UNKNOWN]
    return EXIT_NOT_FOUND


def show(console: Console, result: FindResult, depth: int, description: str) -> None:
    if description:
        console.print(Text(description, style="italic"))
    if result.found is Found.UNKNOWN:
        console.print(Text(f"unknown: the solver gave up ({result.reason})", style="bold red"))
        return
    if result.found is Found.NONE or result.replayed is None:
        console.print(
            Text(
                f"no run of at most {depth} steps reaches: {result.query.text}", style="bold yellow"
            )
        )
        return
    console.print(trace_table(result))
    console.print(Text(f"found in {result.seconds:.2f} s", style="green"))


def trace_table(result: FindResult) -> Table:
    """One row per step: the action, the fields it changed, the clause IDs of its events.
    Cells are ``Text`` (never markup: ``[unused/by A]`` is a list of shields, not a style)."""
    assert result.replayed is not None
    t = Table(
        title=f"Shortest run: {result.depth} step(s), replayed on the engine",
        title_justify="left",
    )
    t.add_column("#", justify="right")
    t.add_column("action", ratio=2, overflow="fold")
    t.add_column("changed", ratio=3, overflow="fold")
    t.add_column("clauses", ratio=2, overflow="fold")
    for row in rows(result.replayed):
        t.add_row(
            str(row.step),
            Text(row.action),
            Text("\n".join(compact(row.changed))),
            Text("\n".join(row.clauses)),
        )
    return t


def document(result: FindResult, meta: dict[str, Any], depth: int) -> dict[str, Any]:
    code = {Found.FOUND: EXIT_FOUND, Found.UNKNOWN: EXIT_CODES[Verdict.UNKNOWN]}.get(
        result.found, EXIT_NOT_FOUND
    )
    verdict = {Found.FOUND: Verdict.PASSED, Found.UNKNOWN: Verdict.UNKNOWN}.get(
        result.found, Verdict.FAILED
    )
    doc: dict[str, Any] = {
        **envelope("find", verdict, code),
        **meta,
        "max_depth": depth,
        "found": result.found.value,
        "depth": result.depth,
        "seconds": round(result.seconds, 6),
    }
    if result.reason:
        doc["reason"] = result.reason
    if result.replayed is not None:
        doc["trace"] = to_itf(result.replayed, meta)
    return doc
