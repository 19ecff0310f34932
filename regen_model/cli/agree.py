"""``regen-model agree``: the engine and the Z3 relation agree on every reachable state.

Runs the bounded agreement check (``regen_model.encoding.bounded``) of a preset scope: every
state its searches reach (from seed runs or start boards), every candidate action, both
views compared field by field, and which branches of each view the checks exercised
(``regen_model.encoding.branches``). Prints one row per search (states, actions checked,
outcomes, time), the first disagreements with the clause IDs of the differing conjuncts,
the branch coverage per view and module and every branch never exercised; ``--json``
prints the same as one document. Exit code: the verdict's (PROVED 0, FAILED 1 on any
disagreement, VACUOUS 5 when nothing was checked or a branch of either view was never
exercised; ``--no-coverage`` skips the measurement).

``--mutant/-m`` applies rule mutants to both views (the check must still agree: both views
consult the same mutant switches); with ``--view engine`` or ``--view relation`` only to that
view, which the check must catch as a disagreement naming the mutated clause.

``--driven`` also compares the views on solver-chosen states, one per branch of the relation
(``regen_model.encoding.driven``): a row per action kind, the disagreements with a sketch of
the state, and every branch no state of the driven scope takes.

``--z3-sample N`` also evaluates the Z3 terms of the relation (compiled once per action kind)
at the first N checked points of each search and compares them with the folded evaluation
that the check uses; it costs about a minute to build and compile the symbolic relation.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regen_model.cli.options import COUNT, WORKERS
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.encoding.agreement import Status
from regen_model.encoding.bounded import (
    PRESETS,
    AgreementReport,
    AgreementScope,
    bounded_agreement,
)
from regen_model.encoding.branches import CoverageReport, coverage_rows
from regen_model.encoding.driven import (
    DRIVEN_SCOPE,
    EXTRAS_SCOPE,
    DrivenReport,
    Outcome,
    driven_agreement,
    driven_document,
    driven_rows,
    sketch,
)
from regen_model.jsondoc import envelope
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, Verdict, worst

STYLE = {Verdict.PROVED: "bold green"}
VIEWS = ("both", "engine", "relation")


def register(app: typer.Typer) -> None:
    @app.command("agree")
    def agree(
        scope: Annotated[
            str,
            typer.Option("--preset", help=f"Preset scope ({', '.join(PRESETS)}).", metavar="NAME"),
        ] = "seeded",
        run: Annotated[
            list[str] | None,
            typer.Option("--run", "-r", help="Only these searches of the preset (repeat)."),
        ] = None,
        mutant: Annotated[
            list[Mutant] | None,
            typer.Option(
                "--mutant",
                "-m",
                help="Apply a rule mutant (repeat; `regen-model mutants --list`); see --view.",
            ),
        ] = None,
        view: Annotated[
            str,
            typer.Option(
                "--view", help="Where the mutants apply: both, engine or relation (one view)."
            ),
        ] = "both",
        workers: Annotated[
            int | None,
            WORKERS.option(
                "--jobs", "-j", "--workers", help="Processes (default: one per CPU).", metavar="N"
            ),
        ] = None,
        z3_sample: Annotated[
            int,
            COUNT.option(
                "--z3-sample", help="Also compare with Z3's terms at N points per search."
            ),
        ] = 0,
        json_output: Annotated[
            bool, typer.Option("--json", help="Print one JSON document instead of tables.")
        ] = False,
        measure: Annotated[
            bool,
            typer.Option(
                "--coverage/--no-coverage",
                help="Measure the branches of both views the checks exercise.",
            ),
        ] = True,
        driven: Annotated[
            bool,
            typer.Option(
                "--driven/--no-driven",
                help="Also compare the views on solver-chosen states, one per relation branch "
                "(a minute or two).",
            ),
        ] = False,
        boundaries: Annotated[
            bool,
            typer.Option(
                "--boundaries/--no-boundaries",
                help="Implies --driven: also every comparison of the relation at its boundary "
                "and every repeated branch with its passes going opposite ways, at two stack "
                "slots (much longer).",
            ),
        ] = False,
        cross: Annotated[
            bool,
            typer.Option(
                "--cross/--no-cross",
                help="With --driven: also every relation branch together with each card's "
                "combat, attachment, shield, damage and tapped status in turn (on by default; "
                "about 1.3-1.4x the driven check's time).",
            ),
        ] = True,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Check that the engine and the Z3 relation agree at every reachable state."""
        err = Console(stderr=True)
        config = PRESETS.get(scope)
        if config is None:
            err.print(
                f"agree: no preset scope {scope!r} (presets: {', '.join(PRESETS)})", markup=False
            )
            raise typer.Exit(EXIT_INPUT_ERROR)
        if run:
            unknown = [r for r in run if r not in {x.name for x in config.runs}]
            if unknown:
                names = ", ".join(x.name for x in config.runs)
                err.print(
                    f"agree: no search {unknown[0]!r} in {scope} (searches: {names})", markup=False
                )
                raise typer.Exit(EXIT_INPUT_ERROR)
            config = AgreementScope(config.scope, tuple(r for r in config.runs if r.name in run))
        if view not in VIEWS:
            err.print(
                f"agree: --view must be one of {', '.join(VIEWS)}, not {view!r}", markup=False
            )
            raise typer.Exit(EXIT_INPUT_ERROR)
        mutated = Rules(frozenset(mutant or ()))
        rules = CORRECT if view == "relation" else mutated
        relation_rules = CORRECT if view == "engine" else mutated
        with Progress("agree", f"searches of {scope}", unit="searches", quiet=quiet) as bar:
            report = bounded_agreement(
                config,
                rules,
                relation_rules=relation_rules,
                workers=workers,
                measure=measure,
                on_progress=lambda done, total: bar.update(done=done, total=total),
            )
            problems: list[str] = []
            if z3_sample:
                from regen_model.encoding.sampling import z3_sample_check

                bar.update("comparing with Z3's terms")
                problems = z3_sample_check(config, relation_rules, z3_sample)
            solver_states = None
            if driven or boundaries:
                bar.update("comparing on solver-chosen states")
                solver_states = driven_agreement(
                    EXTRAS_SCOPE if boundaries else DRIVEN_SCOPE,
                    rules=rules,
                    relation_rules=relation_rules,
                    workers=workers,
                    extras=boundaries,
                    cross=cross,
                )
        verdicts = [report.verdict, Verdict.FAILED if problems else Verdict.PROVED]
        if solver_states is not None:
            verdicts.append(solver_states.verdict)
        cov = report.coverage
        if cov is not None and not report.mutated:  # a mutant's own branches are not the rules'
            verdicts += [r.verdict for r in coverage_rows(cov)]
        verdict = worst(verdicts)
        if json_output:
            doc = document(report, verdict, problems)
            if solver_states is not None:
                doc["driven"] = driven_document(solver_states)
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        else:
            out = output_console(table_format)
            print_report(out, report, verdict, problems, solver_states)
        raise typer.Exit(EXIT_CODES[verdict])


def print_report(
    out: Console,
    report: AgreementReport,
    verdict: Verdict,
    problems: list[str],
    solver_states: DrivenReport | None = None,
) -> None:
    table = Table(
        title=f"Agreement of engine and relation ({report.rules_name})", title_justify="left"
    )
    for col in (
        "search",
        "states",
        "actions checked",
        "agree",
        "out of scope",
        "disagree",
        "diverge",
        "worker s",
    ):
        table.add_column(col, justify="left" if col == "search" else "right")
    rows = [*report.runs.items(), ("total", report.tally)]
    for name, t in rows:
        table.add_row(
            name,
            f"{t.states:,}",
            f"{t.checks:,}",
            f"{t.status[Status.AGREE.value]:,}",
            f"{t.status[Status.OUT_OF_SCOPE.value]:,}",
            f"{t.status[Status.DISAGREE.value]:,}",
            f"{t.status[Status.DIVERGES.value]:,}",
            f"{t.seconds:.1f}",
        )
    out.print(table)
    for d in report.tally.disagreements[:10]:
        out.print(f"[bold red]disagreement[/] in {d.run} at depth {d.depth}: {d.action}")
        out.print(f"  {d.result.describe()}", highlight=False)
        out.print(f"  clauses: {', '.join(d.result.clauses) or '-'}")
    for p in problems[:10]:
        out.print(f"[bold red]z3 terms differ from the folded evaluation:[/] {p}")
    cov = report.coverage
    if cov is not None:
        print_coverage(out, cov)
    if solver_states is not None:
        print_driven(out, solver_states)
    line = Text()
    line.append(f"agree: {verdict.value}", style=STYLE.get(verdict, "bold red"))
    line.append(
        f"  ({report.tally.checks:,} checks on {report.tally.states:,} states in "
        f"{report.seconds:.1f} s, {report.workers} worker(s))"
    )
    out.print(line)


def print_coverage(out: Console, cov: CoverageReport) -> None:
    table = Table(title="Branches of both views exercised by the checks", title_justify="left")
    for col in ("view", "module", "exercised", "unreachable", "clauses cited"):
        table.add_column(col, justify="right" if col in ("exercised", "unreachable") else "left")
    for row in coverage_rows(cov):
        if " branches: " not in row.item:
            continue
        view, _, module = row.item.partition(" branches: ")
        details = dict(row.details)
        done, _, skipped = details["branches"].partition(" (+")
        style = STYLE.get(row.verdict, "bold red")
        table.add_row(
            view,
            module,
            Text(done, style=style),
            skipped.split(" ")[0] if skipped else "",
            details["clauses"],
        )
    out.print(table)
    for view in ("engine", "relation"):
        exercised, reachable = cov.totals(view)
        out.print(f"{view}: {exercised}/{reachable} branches exercised")
    for b in cov.missed[:40]:
        out.print(f"[bold yellow]never exercised[/] ({b.view}) {b.describe()}")
    for b in cov.contradicted:
        out.print(f"[bold red]listed as unreachable but exercised[/] ({b.view}) {b.describe()}")
    for key in cov.stale:
        out.print(f"[bold red]unreachable.yaml names no branch:[/] {key}")


def print_driven(out: Console, report: DrivenReport) -> None:
    """The agreement on solver-chosen states: a row per action kind, the disagreements with
    the state they were found on, and every branch no state took."""
    table = Table(
        title=f"Agreement on solver-chosen states, one per relation branch "
        f"({report.scope.cards} card slots)",
        title_justify="left",
    )
    rows = driven_rows(report)
    for col in ("item", "verdict", *[name for name, _ in rows[0].details], "s"):
        table.add_column(col, justify="left" if col in ("item", "verdict") else "right")
    for row in rows[: len(report.kinds)]:
        table.add_row(
            row.item.removeprefix("solver-chosen states: "),
            Text(row.verdict.value, style=STYLE.get(row.verdict, "bold red")),
            *[value for _, value in row.details],
            f"{row.seconds:.1f}",
        )
    out.print(table)
    for row in rows[len(report.kinds) + 1 :]:  # the extras
        details = ", ".join(f"{name} {value}" for name, value in row.details)
        style = STYLE.get(row.verdict, "bold red")
        out.print(
            f"{row.item.removeprefix('solver-chosen states: ')}: "
            f"[{style}]{row.verdict.value}[/] ({details})"
        )
    for d in report.tally.disagreements[:10]:
        out.print(f"[bold red]disagreement[/] on a solver-chosen state: {d.kind}: {d.action!r}")
        out.print(f"  state: {sketch(d.state)}", highlight=False)
        out.print(f"  {d.result.describe()}", highlight=False)
        out.print(f"  clauses: {', '.join(d.result.clauses) or '-'}")
    counts = report.counts()
    out.print(
        f"relation branches driven: {counts[Outcome.AGREE] + counts[Outcome.DISAGREE]}/"
        f"{sum(counts.values())} ({counts[Outcome.UNREACHABLE]} unreachable in scope, "
        f"{counts[Outcome.NOT_TAKEN]} not taken, {counts[Outcome.UNKNOWN]} unknown; "
        f"{report.seconds:.1f} s)"
    )
    for b, outcome, _ in report.branches():
        if outcome not in (Outcome.AGREE, Outcome.DISAGREE):
            out.print(f"[bold yellow]{outcome.value}[/] {b.describe()}", highlight=False)
    out.print(
        f"facts assumed (proved inductive): {len(report.assumed)}; dropped: {len(report.dropped)}",
        highlight=False,
    )
    for name, why in sorted(report.dropped.items()):
        out.print(f"  dropped: {name} ({why})", highlight=False)


def document(report: AgreementReport, verdict: Verdict, problems: list[str]) -> dict[str, Any]:
    def tally(t: Any) -> dict[str, Any]:
        return {
            "states": t.states,
            "checks": t.checks,
            "seconds": round(t.seconds, 3),
            "outcomes": dict(t.status),
            "enabled_by_kind": dict(sorted(t.enabled.items())),
            "refused_by_kind": dict(sorted(t.disabled.items())),
        }

    return {
        **envelope("agree", verdict, EXIT_CODES[verdict]),
        "rules": report.rules_name,
        "scope": report.config.describe(),
        "seconds": round(report.seconds, 3),
        "workers": report.workers,
        "total": tally(report.tally),
        "searches": {name: tally(t) for name, t in report.runs.items()},
        "disagreements": [
            {
                "search": d.run,
                "depth": d.depth,
                "action": d.action,
                "description": d.result.describe(),
                "clauses": list(d.result.clauses),
            }
            for d in report.tally.disagreements
        ],
        "z3_problems": problems,
        "coverage": None if report.coverage is None else coverage_document(report.coverage),
    }


def coverage_document(cov: CoverageReport) -> dict[str, Any]:
    return {
        view: {
            "exercised": cov.totals(view)[0],
            "reachable": cov.totals(view)[1],
            "branches": [
                {
                    **b.to_json(),
                    "exercised": b.covered,
                    **({"unreachable": b.unreachable} if b.unreachable else {}),
                }
                for b in cov.of(view)
            ],
        }
        for view in ("engine", "relation")
    }
