"""``regen-model explore``: breadth-first search of every state within a bounded scope.

The verdict is PROVED when every invariant of the catalog holds on every state and step
reachable within the scope and depth, VIOLATED with the shortest counterexample otherwise
(printed as a table of changed fields and clause IDs, and written as ITF with ``--itf``), or
UNKNOWN when ``--max-states`` stopped the search early. The exit code is the verdict's.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from regen_model.cli.options import DEPTH, STATES, Bounds, scope_bounds
from regen_model.cli.progress import Progress, quiet_option
from regen_model.cli.reporting import incomplete_line, write_page
from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.encoding.scope import SCOPE_LIMITS, Scope
from regen_model.explore import (
    EXPLORE_SCOPE,
    ActionFamily,
    ExploreConfig,
    ExploreResult,
    StartError,
    StartSpec,
    bfs,
    explore,
)
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.report import start_table, summary, trace_table, write_itf
from regen_model.explore.starts import PLAYER_NAMES, check_start
from regen_model.interrupts import exit_code as interrupt_exit_code
from regen_model.invariants import InvariantError, load
from regen_model.model.actions import ALL_ACTIONS
from regen_model.model.cards import SPELLS
from regen_model.model.enums import Edition, Mutant, Step
from regen_model.model.rules import Rules
from regen_model.mutants.battery import BATTERY
from regen_model.verdicts import EXIT_CODES, EXIT_INPUT_ERROR, Verdict

STYLE = {Verdict.PROVED: "bold green", Verdict.UNKNOWN: "bold yellow"}
KINDS = tuple(cls.kind for cls in ALL_ACTIONS)
SHIELDS = Bounds(0, SCOPE_LIMITS["shields"][1])  # unused shields a start gives each creature


class InputError(ValueError):
    """A bad option value (reported in one line, exit code 2)."""


def register(app: typer.Typer) -> None:
    @app.command("explore")
    def explore_command(
        card: Annotated[
            list[str] | None,
            typer.Option(
                "--card", "-c", help="A card of the card set (repeat). Default: Grizzly Bears."
            ),
        ] = None,
        count: Annotated[
            int,
            scope_bounds("cards").option("--count", "-n", help="Permanents on the battlefield."),
        ] = 1,
        depth: Annotated[int, DEPTH.option("--depth", "-d", help="Most steps from a start.")] = 2,
        family: Annotated[
            ActionFamily, typer.Option("--family", "-f", help="Which actions to take.")
        ] = ActionFamily.EFFECTS,
        kind: Annotated[
            list[str] | None,
            typer.Option("--kind", help="Keep only actions of this kind (repeat).", metavar="KIND"),
        ] = None,
        spell: Annotated[
            list[str] | None,
            typer.Option("--spell", help="A spell players may cast (repeat). Default: all."),
        ] = None,
        edition: Annotated[
            list[Edition] | None, typer.Option("--edition", "-e", help="Rule edition (repeat).")
        ] = None,
        start_step: Annotated[
            Step,
            typer.Option(
                "--start-step",
                help="The step the starts are in (untap, upkeep, draw, main1, begin-combat, "
                "..., end, cleanup).",
            ),
        ] = Step.MAIN1,
        owner: Annotated[
            list[str] | None,
            typer.Option("--owner", help="Who may own a permanent (repeat; default A and B)."),
        ] = None,
        shields: Annotated[
            int, SHIELDS.option("--shields", help="Unused shields each creature starts with.")
        ] = 0,
        sick: Annotated[
            bool,
            typer.Option(
                "--sick", help="Every creature came under its controller's control this turn."
            ),
        ] = False,
        max_amount: Annotated[
            int,
            scope_bounds("max_amount").option(
                "--max-amount", help="Largest damage/counter/P/T amount."
            ),
        ] = EXPLORE_SCOPE.max_amount,
        shield_slots: Annotated[
            int,
            scope_bounds("shields").option(
                "--shield-slots", help="Shields a card may have (scope)."
            ),
        ] = EXPLORE_SCOPE.shields,
        stack: Annotated[
            int, scope_bounds("stack").option("--stack", help="Stack objects (scope).")
        ] = EXPLORE_SCOPE.stack,
        battery: Annotated[
            str | None,
            typer.Option(
                "--battery", help="Use a scope of the mutant battery (overrides the above)."
            ),
        ] = None,
        mutant: Annotated[
            list[Mutant] | None,
            typer.Option(
                "--mutant", "-m", help="Apply a rule mutant (repeat; `regen-model mutants --list`)."
            ),
        ] = None,
        proofs: Annotated[
            list[Path] | None,
            typer.Option("--proofs", help="Also check the invariants of these files/folders."),
        ] = None,
        keep_going: Annotated[
            bool,
            typer.Option(
                "--continue", help="Keep going: the shortest violation of each invariant."
            ),
        ] = False,
        max_states: Annotated[
            int | None,
            STATES.option("--max-states", help="Stop (UNKNOWN) beyond this many states."),
        ] = None,
        itf: Annotated[
            Path | None,
            typer.Option(
                "--out-itf",
                "--itf",
                help="Write counterexamples as ITF into this folder.",
                metavar="DIR",
            ),
        ] = None,
        json_output: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
        html: Annotated[
            Path | None,
            typer.Option("--html", help="Write the result as a self-contained HTML page."),
        ] = None,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
        quiet: Annotated[bool, quiet_option()] = False,
    ) -> None:
        """Explore every state reachable within a bounded scope; check every invariant."""
        err = Console(stderr=True)
        try:
            config = _config(
                card,
                count,
                depth,
                family,
                kind,
                spell,
                edition,
                start_step,
                owner,
                (shields, sick),
                Scope(
                    cards=EXPLORE_SCOPE.cards,
                    shields=shield_slots,
                    stack=stack,
                    pending=EXPLORE_SCOPE.pending,
                    targets=EXPLORE_SCOPE.targets,
                    max_amount=max_amount,
                ),
                battery,
            )
            config = dataclasses.replace(
                config,
                rules=Rules(frozenset(mutant or ())),
                stop_at_first=not keep_going,
                max_states=max_states,
            )
            check_start(config.start, config.scope)
            monitor = CatalogMonitor(load(proofs or ()))
        except (InputError, StartError, InvariantError) as e:
            err.print(f"explore: {e}", style="bold red", highlight=False, markup=False)
            raise typer.Exit(EXIT_INPUT_ERROR) from None
        raise typer.Exit(
            run(
                config,
                monitor,
                json_output=json_output,
                itf=itf,
                html=html,
                table_format=table_format,
                quiet=quiet,
            )
        )


def _config(
    cards: list[str] | None,
    count: int,
    depth: int,
    family: ActionFamily,
    kinds: list[str] | None,
    spells: list[str] | None,
    editions: list[Edition] | None,
    start_step: Step,
    owners: list[str] | None,
    creatures: tuple[int, bool],
    scope: Scope,
    battery: str | None,
) -> ExploreConfig:
    """The exploration the options describe. ``creatures``: the unused shields each creature
    starts with, and whether every creature starts summoning sick."""
    if battery is not None:
        for entry in BATTERY:
            if entry.name == battery:
                return entry.config
        names = ", ".join(b.name for b in BATTERY)
        raise InputError(f"no battery scope {battery!r} (scopes: {names})")
    for k in kinds or ():
        if k not in KINDS:
            raise InputError(f"unknown action kind {k!r} (kinds: {', '.join(KINDS)})")
    for s in spells or ():
        if s not in SPELLS:
            raise InputError(f"unknown spell {s!r} (see regen_model/model/cards.py)")
    owner_ids = []
    for o in owners or PLAYER_NAMES:
        if o not in PLAYER_NAMES:
            raise InputError(f"unknown player {o!r} (players: {', '.join(PLAYER_NAMES)})")
        owner_ids.append(PLAYER_NAMES.index(o))
    start = StartSpec(
        cards=tuple(cards or ("Grizzly Bears",)),
        count=count,
        editions=tuple(editions or (Edition.FDN,)),
        step=start_step,
        owners=tuple(owner_ids),
        shields=creatures[0],
        sick=creatures[1],
    )
    return ExploreConfig(
        start=start,
        scope=scope,
        depth=depth,
        family=family,
        spells=None if spells is None else tuple(spells),
        kinds=None if kinds is None else frozenset(kinds),
    )


def run(
    config: ExploreConfig,
    monitor: CatalogMonitor,
    *,
    json_output: bool = False,
    itf: Path | None = None,
    html: Path | None = None,
    table_format: TableFormat = TableFormat.RICH,
    quiet: bool = False,
) -> int:
    """Explore, print the result, and return the exit code."""
    out = output_console(table_format)
    err = Console(stderr=True, highlight=False)
    if not json_output:
        out.print(Text(f"explore: {config.describe()}", style="bold"))
        out.print(f"checking {len(monitor.invariants)} invariant(s) on every state and step")
    with Progress("explore", "exploring", total=config.depth, unit="levels", quiet=quiet) as bar:

        def hook(p: bfs.Progress) -> None:
            bar.update(
                f"depth {p.depth}: {p.states:,} states, {p.transitions:,} steps",
                done=max(0, p.depth - 1),
            )

        result = explore(config, monitor, on_progress=hook)
    files = write_itf(result, itf) if itf is not None and result.violations else {}
    if html is not None:
        from regen_model.html.pages import explore_page

        write_page(html, err, lambda: explore_page(result), result.interrupted)
    if json_output:
        sys.stdout.write(json.dumps(summary(result, files), indent=2) + "\n")
    else:
        _print(out, result, files)
    if result.interrupted:
        return interrupt_exit_code(result.interrupted)
    return EXIT_CODES[result.verdict]


def _print(out: Console, result: ExploreResult, files: dict[str, str]) -> None:
    p = result.progress
    for cex in result.violations.values():
        out.print(start_table(cex))
        out.print(trace_table(cex))
        if cex.invariant in files:
            out.print(f"ITF trace: {files[cex.invariant]}")
    v = result.verdict
    line = Text(f"{v.value}", style=STYLE.get(v, "bold red"))
    scope_note = "whole space within the scope" if result.exhausted else f"depth <= {p.depth}"
    line.append(
        f"  {p.states:,} states ({result.starts} start(s)), {p.transitions:,} steps of "
        f"{p.candidates:,} candidates, {p.pruned:,} beyond the scope; {scope_note}; "
        f"{result.seconds:.2f} s"
    )
    if result.reason:
        line.append(f"\n{result.reason}", style="yellow")
    if v is Verdict.VIOLATED:
        broken = ", ".join(f"{c.invariant} ({c.length} steps)" for c in result.violations.values())
        line.append(f"\nviolated: {broken}", style="red")
    out.print(line)
    out.print(f"states per depth: {', '.join(f'{n:,}' for n in p.levels)}")
    if result.interrupted:
        seen = f"{p.states:,} states seen, depth {p.depth} of {result.config.depth}"
        out.print(incomplete_line("explore", result.interrupted, seen))
