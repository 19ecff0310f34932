"""Narrating a scenario run for people: one Rich table per event of the file.

Each table lists what the engine did, one row per engine event with the clause that made it
happen and that clause's rule numbers (from the catalog), then the expectations written under
that event with ✓ or ✗ and, for a failure, what was expected and what the game showed. Priority
passes are dimmed: they are most of the rows of a turn and the least interesting.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from regen_model.model.events import Event, EventKind
from regen_model.scenario import clause_info
from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.run import CheckResult, EventResult, ScenarioResult
from regen_model.verdicts import Verdict

QUIET_KINDS = frozenset({EventKind.PASSED, EventKind.PRIORITY})
VERDICT_STYLE = {Verdict.PASSED: "bold green", Verdict.FAILED: "bold red"}


def narrate(console: Console, result: ScenarioResult) -> None:
    """The full story of one run."""
    sc = result.scenario
    console.rule(f"[bold]{escape(sc.name)}[/]  ({sc.edition.value})")
    console.print(Text(sc.file, style="dim"))
    console.print(Text(sc.description))
    if sc.clauses:
        console.print(Text("clauses: " + ", ".join(_cite(c, result) for c in sc.clauses)))
    for step in result.steps:
        console.print(_event_table(result, step))
    if result.final:
        table = _table(f"after the last event (expect, line {sc.expect_line})")
        _add_checks(table, result.final)
        console.print(table)
    console.print(verdict_line(result))


def _cite(clause: str, result: ScenarioResult) -> str:
    numbers = clause_info.rule_numbers(clause, result.scenario.edition)
    return f"{clause} ({numbers})" if numbers else clause


def _table(title: str) -> Table:
    table = Table(title=escape(title), title_justify="left", expand=False, show_lines=False)
    table.add_column("clause", style="cyan", no_wrap=True)
    table.add_column("rules", style="magenta")
    table.add_column("what happened")
    return table


def _event_table(result: ScenarioResult, step: EventResult) -> Table:
    ev = step.event
    table = _table(f"#{ev.index + 1}  line {ev.line}: {ev.summary}")
    if ev.note:
        table.caption = escape(ev.note)
    for e in step.events:
        _add_engine_event(table, e, result)
    if step.error is not None:
        table.add_row("refused", "", Text(step.error, style="yellow"))
    if not step.events and step.error is None:
        table.add_row("", "", Text("nothing happened", style="dim"))
    if step.checks:
        table.add_section()
        _add_checks(table, step.checks)
    return table


def _add_engine_event(table: Table, e: Event, result: ScenarioResult) -> None:
    style = "dim" if e.kind in QUIET_KINDS else ""
    numbers = clause_info.rule_numbers(e.clause, result.scenario.edition)
    table.add_row(
        Text(e.clause, style=style or "cyan"),
        Text(numbers, style=style or "magenta"),
        Text(e.describe(), style=style),
    )


def _add_checks(table: Table, checks: tuple[CheckResult, ...]) -> None:
    for c in checks:
        if c.ok:
            table.add_row(
                Text("✓ expect", style="green"),
                Text(f"line {c.line}", style="dim"),
                Text(f"{c.what}: {c.actual}"),
            )
        else:
            table.add_row(
                Text("✗ expect", style="bold red"),
                Text(f"line {c.line}", style="dim"),
                Text(f"{c.what}: expected {c.expected}, got {c.actual}", style="red"),
            )


def verdict_line(result: ScenarioResult) -> Text:
    v = result.verdict
    failed = len(result.failures)
    total = len(result.checks)
    detail = f"{total - failed}/{total} expectations held" if total else "no expectations"
    text = Text()
    text.append(f"{v.value:<7}", style=VERDICT_STYLE.get(v, "bold"))
    sc = result.scenario
    text.append(f" {sc.file}  {sc.name}  ({detail}, {result.seconds * 1000:.1f} ms)")
    return text


def summarize(console: Console, result: ScenarioResult) -> None:
    """``--quiet``: the verdict line, and one line per failed expectation."""
    console.print(verdict_line(result), soft_wrap=True)
    file = result.scenario.file
    for c in result.failures:
        line = f"  {file}:{c.line}: {c.what}: expected {c.expected}, got {c.actual}"
        console.print(Text(line, style="red"), soft_wrap=True)


def input_error(console: Console, error: ScenarioError) -> None:
    """Bad input: one line, no traceback."""
    console.print(Text(str(error), style="bold red"), soft_wrap=True)
