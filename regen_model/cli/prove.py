"""``regen-model prove``: prove the invariant catalog, one row per invariant and method.

Exit code: that of the worst verdict (``verdicts.EXIT_CODES``): 0 all proved, 1 a reachable
violation, 3 a counterexample to induction, 4 the solver gave up, 5 vacuous; 2 for bad input
(an unknown invariant, a bad scope or a user file that does not load).
"""

from __future__ import annotations

import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
import z3
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regen_model.checks.results import (
    Method,
    Result,
    Summary,
    brief_clauses,
    catalog_clauses,
    grouped_clauses,
    overall,
    summarize,
)
from regen_model.checks.runner import (
    ALL_METHODS,
    DEFAULT_METHODS,
    ProveOptions,
    iter_prove,
    units,
)
from regen_model.checks.solver import Budget
from regen_model.checks.systems import parse_scope, regen_system
from regen_model.cli.options import DEPTH, RLIMIT, SEED, WORKERS, K
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.reporting import incomplete_line
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.encoding.scope import Scope
from regen_model.interrupts import exit_code as interrupt_exit_code
from regen_model.interrupts import signal_name
from regen_model.invariants.loading import load, user_paths
from regen_model.invariants.spec import Invariant, InvariantError
from regen_model.jsondoc import envelope
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, Verdict
from regen_model.verify import default_jobs

STYLE = {Verdict.PROVED: "bold green", Verdict.SKIPPED: "dim"}
NOT_APPLICABLE = "n/a"  # how a SKIPPED row shows: the method does not apply to the invariant
METHOD_CHOICES = ("induction", "kind", "chc", "any-n", "all")


def register(app: typer.Typer) -> None:
    @app.command("prove")
    def prove_command(
        invariant: Annotated[
            list[str] | None,
            typer.Option(
                "--invariant", "-i", help="Only this invariant (repeatable).", show_default=False
            ),
        ] = None,
        method: Annotated[
            list[str] | None,
            typer.Option(
                "--method",
                metavar="METHOD",
                help="induction, kind, chc, any-n or all (repeatable; default: "
                "induction and any-n).",
                show_default=False,
            ),
        ] = None,
        scope: Annotated[
            str | None,
            typer.Option(
                "--scope", help="Bounded scope, e.g. cards=2,shields=1.", show_default=False
            ),
        ] = None,
        invariants_from: Annotated[
            list[Path] | None,
            typer.Option(
                "--invariants-from",
                help="Files or folders of user invariants (default: ./proofs if it exists).",
                show_default=False,
            ),
        ] = None,
        rlimit: Annotated[
            int, RLIMIT.option("--rlimit", help="Solver resource limit per query (0: none).")
        ] = Budget.rlimit,
        seed: Annotated[int, SEED.option("--seed", help="Solver random seed.")] = 0,
        k: Annotated[int, K.option("--k", help="Largest k for k-induction.")] = 3,
        depth: Annotated[int, DEPTH.option("--depth", help="BMC depth when a proof fails.")] = 4,
        minimal_cores: Annotated[
            bool, typer.Option(help="Minimise unsat cores (slower, shorter clause lists).")
        ] = False,
        certificates: Annotated[
            Path | None,
            typer.Option(
                help="Write CHC certificates (SMT-LIB) into this folder.", show_default=False
            ),
        ] = None,
        obligations: Annotated[
            bool,
            typer.Option(
                "--obligations",
                help="One line per obligation (invariant and action "
                "kind) instead of one per invariant.",
            ),
        ] = False,
        verbose: Annotated[
            bool,
            typer.Option(
                "--verbose",
                "-v",
                help="List every clause a proof used (default: how many, and the first few).",
            ),
        ] = False,
        json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        jobs: Annotated[
            int | None,
            WORKERS.option(
                "--jobs",
                "-j",
                help="Worker processes for induction (default: the cores, at most 2).",
                show_default=False,
                metavar="N",
            ),
        ] = None,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Prove the invariant catalog (exit code of the worst verdict; rows where a method does
        not apply show n/a and do not count)."""
        raise typer.Exit(
            run_prove(
                invariant or [],
                method or [],
                scope,
                invariants_from,
                rlimit,
                seed,
                k,
                depth,
                minimal_cores,
                certificates,
                json_output,
                obligations,
                verbose,
                jobs,
                table_format,
                quiet,
            )
        )


def methods_of(names: list[str]) -> tuple[Method, ...]:
    if not names:
        return DEFAULT_METHODS
    out: list[Method] = []
    for name in names:
        if name not in METHOD_CHOICES:
            raise ValueError(f"unknown method {name!r} (methods: {', '.join(METHOD_CHOICES)})")
        chosen = ALL_METHODS if name == "all" else (Method(name),)
        out += [m for m in chosen if m not in out]
    return tuple(out)


def select(catalog: tuple[Invariant, ...], ids: list[str]) -> list[Invariant]:
    if not ids:
        return list(catalog)
    by_id = {inv.id: inv for inv in catalog}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ValueError(f"unknown invariant {missing[0]!r} (invariants: {', '.join(by_id)})")
    return [by_id[i] for i in ids]


def run_prove(
    ids: list[str],
    method_names: list[str],
    scope_text: str | None,
    invariants_from: list[Path] | None,
    rlimit: int,
    seed: int,
    k: int,
    depth: int,
    minimal_cores: bool,
    certificates: Path | None,
    json_output: bool,
    obligations: bool = False,
    verbose: bool = False,
    jobs: int | None = None,
    table_format: TableFormat = TableFormat.RICH,
    quiet: bool = False,
) -> int:
    err = Console(stderr=True, highlight=False)
    try:
        catalog = load(user_paths(invariants_from))
        chosen = select(catalog, ids)
        methods = methods_of(method_names)
        scope = parse_scope(scope_text)
    except (ValueError, InvariantError) as problem:
        err.print(Text(str(problem), style="bold red"), soft_wrap=True)
        return EXIT_INPUT_ERROR
    options = ProveOptions(
        methods,
        scope,
        Budget(rlimit, seed, 1, minimal_cores),
        k,
        depth,
        jobs=default_jobs() if jobs is None else jobs,
    )
    started = time.perf_counter()
    results: list[Result] = []
    interrupted = ""
    try:
        _run(chosen, catalog, options, quiet, into=results)
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: report the results already known
        interrupted = signal_name(stop)
    rows = ordered(summarize(results), chosen, options.methods)
    if certificates is not None:
        _write_certificates(results, certificates)
    verdict = overall(r.verdict for r in rows)
    code = interrupt_exit_code(interrupted) if interrupted else EXIT_CODES[verdict]
    seconds = time.perf_counter() - started
    if json_output:
        doc = document(rows, scope, code, seconds, interrupted)
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        about = {inv.id: inv.clauses for inv in chosen}
        out = output_console(table_format)
        if obligations:
            out.print(obligation_table(results, scope, about, verbose))
        else:
            out.print(table(rows, scope, about, verbose))
        if interrupted:
            done = f"{len(rows)} row(s) done of {units(chosen, options)}; {seconds:.2f} s"
            out.print(incomplete_line("prove", interrupted, done))
        else:
            out.print(_summary_line(rows, seconds))
    return code


def ordered(
    rows: list[Summary], chosen: list[Invariant], methods: tuple[Method, ...]
) -> list[Summary]:
    """Rows by invariant (in the order chosen), then method (in the order run; the rows
    induction adds, a BMC violation or a CHC proof that supersedes its CTIs, right after
    it)."""
    inv_rank = {inv.id: i for i, inv in enumerate(chosen)}
    sequence: list[Method] = []
    for m in methods:
        sequence += [m, Method.BMC, Method.CHC] if m is Method.INDUCTION else [m]
    method_rank = {m: i for i, m in enumerate(dict.fromkeys([*sequence, *Method]))}
    return sorted(
        rows, key=lambda r: (inv_rank.get(r.invariant, len(inv_rank)), method_rank[r.method])
    )


def clause_cell(clauses: tuple[str, ...], about: tuple[str, ...], verbose: bool) -> str:
    """The "clauses used" cell: catalog clause IDs only; by default how many and the first
    few (those the invariant is about first), with ``--verbose`` all of them by family."""
    shown = catalog_clauses(clauses)
    if verbose:
        return "; ".join(grouped_clauses(shown)) or "-"
    return brief_clauses(shown, about, limit=2)


def _run(
    chosen: list[Invariant],
    catalog: tuple[Invariant, ...],
    options: ProveOptions,
    quiet: bool,
    *,
    into: list[Result],
) -> None:
    """Prove, appending each result to ``into`` as it is known (a stopped run keeps them),
    with progress on stderr and a line per finished unit (an invariant and method, or a
    method on them all) saying its verdicts."""
    system = partial(regen_system, options.scope)  # picklable: the workers build it too

    total = units(chosen, options)
    with Progress("prove", "proving", total=total, unit="proofs", quiet=quiet) as progress:
        reported = 0

        def tick(what: str, n: int) -> None:
            nonlocal reported
            progress.update(what, advance=n)
            if n:
                progress.note(f"{what}: {_verdict_counts(into[reported:])}")
                reported = len(into)

        into.extend(iter_prove(chosen, options, system, support=catalog, progress=tick))


def _verdict_counts(results: list[Result]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        name = r.verdict.value if r.verdict is not Verdict.SKIPPED else NOT_APPLICABLE
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "nothing to prove"


def _verdict_text(verdict: Verdict, superseded: bool = False) -> Text:
    if verdict is Verdict.SKIPPED:
        return Text(NOT_APPLICABLE, style=STYLE[verdict])
    text = Text(verdict.value, style=STYLE.get(verdict, "bold red"))
    if superseded:
        text.append(" (superseded)", style="yellow")
    return text


def table(
    rows: list[Summary],
    scope: Scope,
    about: dict[str, tuple[str, ...]] | None = None,
    verbose: bool = False,
) -> Table:
    """One row per invariant and method; the invariant's ID is printed once for its rows."""
    about = about or {}
    t = Table(title=f"Invariant proofs ({scope.describe()})", title_justify="left")
    t.add_column("invariant", overflow="fold", ratio=3)
    t.add_column("method", no_wrap=True)
    t.add_column("verdict", no_wrap=True)
    t.add_column("clauses used" + ("" if verbose else " (-v: all)"), overflow="fold", ratio=4)
    t.add_column("time", justify="right", no_wrap=True)
    previous = ""
    for r in rows:
        item = Text("" if r.invariant == previous else r.invariant)
        previous = r.invariant
        if r.reason and r.verdict not in (Verdict.PROVED, Verdict.SKIPPED):
            item.append(("\n" if item else "") + r.reason, style="red")
            bad = sorted({o.action or "" for o in r.obligations if o.verdict is r.verdict})
            if any(bad):
                item.append("\n  for: " + ", ".join(a for a in bad if a), style="red")
        if r.verdict is Verdict.SKIPPED:
            clauses = Text(r.reason or "does not apply", style="dim")
        else:
            clauses = Text(clause_cell(r.clauses, about.get(r.invariant, ()), verbose))
        t.add_row(
            item,
            r.method.value,
            _verdict_text(r.verdict),
            clauses,
            f"{r.seconds * 1000:.0f} ms",
        )
    return t


def obligation_table(
    results: list[Result],
    scope: Scope,
    about: dict[str, tuple[str, ...]] | None = None,
    verbose: bool = False,
) -> Table:
    """One line per obligation: invariant, method, obligation and action kind, verdict,
    clauses used, invariants assumed, time."""
    about = about or {}
    t = Table(title=f"Proof obligations ({scope.describe()})", title_justify="left")
    t.add_column("invariant", overflow="fold", ratio=3)
    for name in ("method", "obligation", "action", "verdict"):
        t.add_column(name)
    t.add_column("clauses used", overflow="fold", ratio=4)
    t.add_column("assumes", ratio=2)
    t.add_column("time", justify="right", no_wrap=True)
    for r in results:
        t.add_row(
            Text(r.invariant),  # user IDs are plain text, never Rich markup
            r.method.value,
            r.obligation,
            r.action or "",
            _verdict_text(r.verdict, bool(r.superseded_by)),
            r.reason
            if r.verdict is Verdict.SKIPPED
            else clause_cell(r.clauses, about.get(r.invariant, ()), verbose),
            Text(", ".join(r.uses)),
            f"{r.seconds * 1000:.1f} ms",
        )
    return t


def _summary_line(rows: list[Summary], seconds: float) -> Text:
    verdict = overall(r.verdict for r in rows)
    counts: dict[str, int] = {}
    for r in rows:
        name = r.verdict.value if r.applicable else "not applicable"
        counts[name] = counts.get(name, 0) + 1
    line = Text()
    line.append(f"prove: {verdict.value}", style=STYLE.get(verdict, "bold red"))
    parts = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    line.append(f"  ({parts or 'nothing to prove'}; {seconds:.2f} s; z3 {z3.get_full_version()})")
    return line


def document(
    rows: list[Summary], scope: Scope, code: int, seconds: float, interrupted: str = ""
) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.verdict.value] = counts.get(r.verdict.value, 0) + 1
    return envelope(
        "prove",
        overall(r.verdict for r in rows),
        code,
        interrupted=interrupted,
        z3=z3.get_full_version(),
        scope=scope.describe(),
        counts=counts,
        seconds=round(seconds, 6),
        rows=[r.to_json() for r in rows],
    )


def _write_certificates(results: list[Result], folder: Path) -> None:
    from regen_model.checks.certificates import Certificate

    for r in results:
        if isinstance(r.evidence, Certificate):
            r.evidence.write(folder, r.invariant)
