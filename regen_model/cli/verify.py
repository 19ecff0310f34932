"""``regen-model verify``: the project's main job, one table per verify section.

The sections (``regen_model.verify.SECTIONS``) each return rows with a typed verdict; the
command prints them, a summary, and exits with the code of the worst verdict. ``--json`` prints
the same rows as one JSON document (format ``regen-model/verify``).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regen_model.cli.options import WORKERS
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.reporting import incomplete_line, write_page
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.interrupts import exit_code as interrupt_exit_code
from regen_model.interrupts import signal_name
from regen_model.invariants.loading import load, user_paths
from regen_model.invariants.spec import InvariantError
from regen_model.jsondoc import envelope
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, Verdict, exit_code, worst
from regen_model.verify import (
    SECTIONS,
    Row,
    Section,
    VerifyOptions,
    default_jobs,
    run_sections,
    section_names,
)

STYLE = {
    Verdict.PROVED: "bold green",
    Verdict.PASSED: "bold green",
    Verdict.SKIPPED: "yellow",
}


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify(
        section: Annotated[
            list[str] | None,
            typer.Option(
                "--section",
                "-s",
                help=f"Run only these sections (of: {', '.join(section_names())}).",
                show_default=False,
            ),
        ] = None,
        json_output: Annotated[
            bool, typer.Option("--json", help="Print one JSON document instead of tables.")
        ] = False,
        html: Annotated[
            Path | None,
            typer.Option("--html", help="Write the results as a self-contained HTML page."),
        ] = None,
        invariants_from: Annotated[
            list[Path] | None,
            typer.Option(
                "--invariants-from",
                help="Also prove and cover the invariants of these Python files or folders "
                "(e.g. proofs; their code runs: name only files you trust).",
                show_default=False,
            ),
        ] = None,
        jobs: Annotated[
            int | None,
            WORKERS.option(
                "--jobs",
                "-j",
                help="Sections run at once, in worker processes (default: the cores, at most 2).",
                show_default=False,
                metavar="N",
            ),
        ] = None,
        driven: Annotated[
            bool,
            typer.Option(
                "--driven/--no-driven",
                help="The agreement section also compares the views on solver-chosen states, "
                "one per relation branch (minutes; `regen-model docs agreement`).",
            ),
        ] = False,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Run every verification section and exit with the worst verdict's code."""
        options = VerifyOptions(tuple(invariants_from or ()), driven=driven)
        raise typer.Exit(
            verify_sections(
                section or [],
                json_output=json_output,
                html=html,
                options=options,
                jobs=jobs,
                table_format=table_format,
                quiet=quiet,
            )
        )


def verify_sections(
    selected: list[str],
    *,
    json_output: bool = False,
    html: Path | None = None,
    options: VerifyOptions | None = None,
    jobs: int | None = None,
    table_format: TableFormat = TableFormat.RICH,
    quiet: bool = False,
) -> int:
    unknown = [s for s in selected if s not in section_names()]
    if unknown:
        Console(stderr=True).print(
            f"unknown section {unknown[0]!r} (sections: {', '.join(section_names())})",
            style="bold red",
            markup=False,
        )
        return EXIT_INPUT_ERROR
    chosen = [s for s in SECTIONS if not selected or s.name in selected]
    out = output_console(table_format)
    err = Console(stderr=True, highlight=False)
    results: list[tuple[Section, list[Row], float]] = []
    interrupted = ""
    options = options or VerifyOptions()
    progress = Progress("verify", total=len(chosen), unit="sections", quiet=quiet)
    started = time.perf_counter()
    finished = run_sections(chosen, default_jobs() if jobs is None else jobs, options)
    try:
        if options.invariant_files:
            # a bad file is reported now, not once the sections in other workers have run
            load(user_paths(options.invariant_files))
        while len(results) < len(chosen):
            # on stderr while the next section in order is awaited; its table is printed
            # when it ends, outside the progress display
            progress.update(chosen[len(results)].name, done=len(results))
            with progress:
                section, rows, seconds = next(finished)
            results.append((section, rows, seconds))
            if not json_output:
                out.print(_table(section, rows))
    except InvariantError as problem:  # a user's invariant file: bad input, not a verdict
        err.print(Text(f"verify: {problem}", style="bold red"), soft_wrap=True)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: report the sections done
        interrupted = signal_name(stop)
    finally:
        finished.close()  # the sections not started are cancelled, the workers shut down
    wall = time.perf_counter() - started
    verdicts = [r.verdict for _, rows, _ in results for r in rows]
    code = interrupt_exit_code(interrupted) if interrupted else exit_code(verdicts)
    not_run = [s.name for s in chosen[len(results) :]]
    if html is not None:
        from regen_model.html.pages import verify_page

        write_page(html, err, lambda: verify_page(results, worst(verdicts)), interrupted)
    if json_output:
        document = _document(results, verdicts, code, wall, interrupted, not_run)
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    elif interrupted:
        done = f"{len(results)} of {len(chosen)} section(s) done; not run: {', '.join(not_run)}"
        out.print(incomplete_line("verify", interrupted, done))
    else:
        _summary(out, results, verdicts, wall)
    return code


def _table(section: Section, rows: list[Row]) -> Table:
    table = Table(title=section.title, title_justify="left")
    table.add_column(section.item_label)
    detail_names = list(dict.fromkeys(k for r in rows for k, _ in r.details))
    for name in detail_names:
        table.add_column(name, style="cyan" if name == "edition" else "")
    table.add_column("verdict")
    table.add_column("time", justify="right")
    for r in rows:
        details = dict(r.details)
        item = Text(r.item)
        if r.message:
            item.append("\n" + r.message, style="red")
        table.add_row(
            item,
            *(details.get(n, "") for n in detail_names),
            Text(r.verdict.value, style=STYLE.get(r.verdict, "bold red")),
            f"{r.seconds * 1000:.1f} ms",
        )
    return table


def _summary(
    out: Console,
    results: list[tuple[Section, list[Row], float]],
    verdicts: list[Verdict],
    wall: float,
) -> None:
    overall = worst(verdicts)
    counts: dict[Verdict, int] = {}
    for v in verdicts:
        counts[v] = counts.get(v, 0) + 1
    spent = sum(t for _, _, t in results)
    parts = ", ".join(
        f"{n} {v.value}" for v, n in sorted(counts.items(), key=lambda kv: kv[0].value)
    )
    line = Text()
    line.append(f"verify: {overall.value}", style=STYLE.get(overall, "bold red"))
    timing = f"{wall:.2f} s"
    if spent > wall * 1.05:
        timing += f", {spent:.2f} s of sections side by side"
    line.append(f"  ({parts or 'nothing to verify'}; {len(results)} section(s), {timing})")
    out.print(line)


def _document(
    results: list[tuple[Section, list[Row], float]],
    verdicts: list[Verdict],
    code: int,
    wall: float,
    interrupted: str = "",
    not_run: list[str] | None = None,
) -> dict[str, Any]:
    return envelope(
        "verify",
        worst(verdicts),
        code,
        interrupted=interrupted,
        not_run=not_run or [],
        seconds=round(wall, 6),
        **_body(results),
    )


def _body(results: list[tuple[Section, list[Row], float]]) -> dict[str, Any]:
    return {
        "exit_codes": {v.value: c for v, c in EXIT_CODES.items()},
        "sections": [
            {
                "name": s.name,
                "title": s.title,
                "seconds": round(t, 6),
                "verdict": worst(r.verdict for r in rows).value,
                "rows": [
                    {
                        "item": r.item,
                        "verdict": r.verdict.value,
                        "seconds": round(r.seconds, 6),
                        "details": dict(r.details),
                        "message": r.message,
                    }
                    for r in rows
                ],
            }
            for s, rows, t in results
        ],
    }
