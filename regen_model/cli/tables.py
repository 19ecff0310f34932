"""How the tables of every command reach the user: ``--format rich|plain|tsv``, IDs kept whole.

A clause or invariant ID (``regen.shield.one-per-destruction``) is what a reader greps for and
pastes into ``--invariant``, so no table may split one across lines or cut it with "...",
whatever the terminal's or the pipe's width (``COLUMNS``, which Rich honours, piped or not).
Rich's own layout squeezes the widest columns first when a table does not fit and then folds
or truncates the words of their cells; ``fit`` lays a table out instead so that every column
is at least as wide as its longest word (the longest line, for a ``no_wrap`` column) and gives
the rest of the width in proportion to what each column would like. A table that still does
not fit is printed wider than the terminal (the terminal wraps the line; a pipe keeps it whole).

Every command prints to stdout through ``output_console(format)``, a Rich ``Console`` whose
``print`` applies this to each table it is given (also inside a ``Group`` or a ``Panel``):

* ``rich``: boxes and colour (colour only on a terminal, as Rich decides);
* ``plain``: the same columns aligned with spaces, no box drawing and no colour, for logs;
* ``tsv``: each table as a header row and tab-separated rows, tables separated by one empty
  line, a cell's lines joined with "; "; what is not a table (titles, verdict lines, notes)
  goes to stderr, so stdout holds only the data.

The option is defined once, ``FORMAT_OPTION`` (``--format``), for every command that prints
tables.
"""

from __future__ import annotations

import io
from enum import StrEnum
from typing import Any

import typer
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_UNLIMITED = 100_000  # a width no table reaches: measures what each cell would like


class TableFormat(StrEnum):
    """``--format``: how tables are printed."""

    RICH = "rich"
    PLAIN = "plain"
    TSV = "tsv"


def format_option() -> Any:
    """The ``--format`` option of every command that prints tables."""
    return typer.Option(
        "--format",
        help="How tables are printed: rich (boxes, colour on a terminal), plain (aligned "
        "text, no boxes or colour) or tsv (a header row and tab-separated rows per table; "
        "the other lines go to stderr).",
        case_sensitive=False,
    )


def output_console(table_format: TableFormat = TableFormat.RICH, **settings: Any) -> Console:
    """The stdout console of a command, printing tables in ``table_format``."""
    return TableConsole(table_format, highlight=False, **settings)


class TableConsole(Console):
    """A Rich console whose tables keep every word whole and follow ``--format``."""

    def __init__(self, table_format: TableFormat, **settings: Any) -> None:
        if table_format is not TableFormat.RICH:
            settings.setdefault("color_system", None)
        super().__init__(**settings)
        self.table_format = table_format
        self._aside: Console | None = None

    def print(self, *objects: Any, **settings: Any) -> None:
        if not any(_holds_table(o) for o in objects):
            if self.table_format is TableFormat.TSV:
                self.aside.print(*objects, **settings)
            else:
                super().print(*objects, **settings)
            return
        for renderable in objects:
            self._print_one(renderable, settings)

    def rule(self, title: Any = "", **settings: Any) -> None:
        """A rule with its title, the title on a line of its own when it does not fit (Rich
        would cut it with "...")."""
        if self.table_format is TableFormat.TSV:
            self.aside.rule(title, **settings)
            return
        if self.table_format is TableFormat.PLAIN:
            settings["characters"] = "-"
        text = self.render_str(title) if isinstance(title, str) else title
        if isinstance(text, Text) and text.cell_len + 6 > self.width:
            super().print(text)
            title = ""
        super().rule(title, **settings)

    @property
    def aside(self) -> Console:
        """Where ``tsv`` sends what is not a table: stderr."""
        if self._aside is None:
            self._aside = Console(stderr=True, highlight=False, width=self.width)
        return self._aside

    def _print_one(self, renderable: Any, settings: dict[str, Any]) -> None:
        if self.table_format is TableFormat.TSV:
            self._tsv(renderable)
            return
        if self.table_format is TableFormat.PLAIN:
            renderable = plain(renderable)
        width = self.width
        fitted, needed = fit(self, renderable, width)
        self.width = max(width, needed)  # a panel is never wider than its console
        try:
            super().print(fitted, **{**settings, "crop": False})
        finally:
            self.width = width

    def _tsv(self, renderable: Any) -> None:
        if isinstance(renderable, Table):
            if renderable.title:
                self.aside.print(renderable.title, soft_wrap=True)
            self.file.write(tsv(self, renderable) + "\n")
        elif isinstance(renderable, Group):
            for part in renderable.renderables:
                self._tsv(part)
        elif isinstance(renderable, Panel):
            if renderable.title:
                self.aside.print(renderable.title, soft_wrap=True)
            self._tsv(renderable.renderable)
        else:
            self.aside.print(renderable)


def _holds_table(renderable: Any) -> bool:
    if isinstance(renderable, Table):
        return True
    if isinstance(renderable, Group):
        return any(_holds_table(r) for r in renderable.renderables)
    if isinstance(renderable, Panel):
        return _holds_table(renderable.renderable)
    return False


def plain(renderable: Any) -> Any:
    """``renderable`` without box drawing: a table's columns separated by spaces, a panel's
    border replaced by its title on a line of its own."""
    if isinstance(renderable, Table):
        renderable.box = None
        renderable.pad_edge = False
        renderable.show_edge = False
        return renderable
    if isinstance(renderable, Group):
        return Group(*(plain(r) for r in renderable.renderables))
    if isinstance(renderable, Panel):
        title = [Text.from_markup(renderable.title)] if isinstance(renderable.title, str) else []
        if isinstance(renderable.title, Text):
            title = [renderable.title]
        return Group(*title, plain(renderable.renderable))
    return renderable


def fit(console: Console, renderable: Any, width: int) -> tuple[Any, int]:
    """``renderable`` laid out in ``width`` columns with no word split or cut, and the width
    it takes (more than ``width`` when its longest words need more)."""
    if isinstance(renderable, Table):
        return renderable, _fit_table(console, renderable, width)
    if isinstance(renderable, Group):
        parts = [fit(console, r, width) for r in renderable.renderables]
        return Group(*(p for p, _ in parts)), max((w for _, w in parts), default=0)
    if isinstance(renderable, Panel):
        # A panel's border and padding take 4 columns.
        inner, needed = fit(console, renderable.renderable, width - 4)
        renderable.renderable = inner
        if needed + 4 > width:
            renderable.width = needed + 4
        return renderable, max(width, needed + 4)
    return renderable, max(width, _measure(console, renderable).minimum)


def _measure(console: Console, renderable: RenderableType) -> Measurement:
    return Measurement.get(console, console.options.update_width(_UNLIMITED), renderable)


def _fit_table(console: Console, table: Table, width: int) -> int:
    natural = _measure(console, table).maximum
    lows: list[int] = []
    highs: list[int] = []
    for column in table.columns:
        cells: list[RenderableType] = [*column.cells]
        if table.show_header:
            cells.append(column.header)
        sizes = [_measure(console, c) for c in cells] or [Measurement(1, 1)]
        high = max(s.maximum for s in sizes)
        low = high if column.no_wrap or column.width is not None else max(s.minimum for s in sizes)
        if column.width is not None:
            low = high = column.width
        lows.append(low)
        highs.append(high)
    spacing = natural - sum(highs)  # borders and padding
    words = [
        _measure(console, t).minimum
        for t in (table.title, table.caption)
        if isinstance(t, (str, Text)) and t
    ]
    if natural <= width and max(words, default=0) <= natural:
        return natural
    room = width - spacing
    if sum(highs) <= room:
        widths = highs
    elif sum(lows) >= room:
        widths = lows
    else:
        widths = _share(lows, highs, room)
    for column, size in zip(table.columns, widths, strict=True):
        column.width = size
        column.ratio = None
    total = max(sum(widths) + spacing, *words)
    table.width = total
    return total


def _share(lows: list[int], highs: list[int], room: int) -> list[int]:
    """Each column its low, and the rest of ``room`` in proportion to what it would like more."""
    spare = room - sum(lows)
    wants = [h - lo for lo, h in zip(lows, highs, strict=True)]
    wanted = sum(wants)
    widths = [lo + spare * w // wanted for lo, w in zip(lows, wants, strict=True)]
    leftover = room - sum(widths)
    for i in sorted(range(len(widths)), key=lambda i: -wants[i])[:leftover]:
        widths[i] += 1
    return widths


def tsv(console: Console, table: Table) -> str:
    """A header row (for a table that shows one) and one tab-separated row per table row."""
    rows: list[list[str]] = []
    if table.show_header:
        rows.append([_cell_text(console, c.header) for c in table.columns])
    columns = [[_cell_text(console, cell) for cell in c.cells] for c in table.columns]
    rows += [list(r) for r in zip(*columns, strict=True)]
    return "".join("\t".join(r) + "\n" for r in rows)


def _cell_text(console: Console, cell: RenderableType) -> str:
    if isinstance(cell, str):
        text = console.render_str(cell).plain
    elif isinstance(cell, Text):
        text = cell.plain
    else:  # another renderable: its text, drawn on a scratch console
        width = max(1, _measure(console, cell).maximum)
        scratch = Console(file=io.StringIO(), width=width, color_system=None)
        scratch.print(cell, crop=False, soft_wrap=True)
        text = scratch.file.getvalue()  # type: ignore[attr-defined]
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "; ".join(line for line in lines if line)
