"""What every long command does with its results: the HTML page and the incomplete mark.

A run stopped by SIGINT or SIGTERM (``regen_model.interrupts``) still prints its tables and
writes the ``--json``/``--html``/``--out`` outputs asked for, each marked incomplete: the
table's summary line says so (``incomplete_line``), the JSON envelope has ``incomplete`` and
``interrupted_by`` (``jsondoc.envelope``), and the page's verdict and subtitle say so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from regen_model.interrupts import exit_code

if TYPE_CHECKING:
    from regen_model.html.page import Page


def incomplete_line(command: str, interrupted: str, what: str) -> Text:
    """``verify: INCOMPLETE (interrupted by SIGINT; ...)``: the last line of a stopped run."""
    line = Text(f"{command}: INCOMPLETE", style="bold yellow")
    line.append(f" (interrupted by {interrupted}; {what}; exit {exit_code(interrupted)})")
    return line


def write_page(path: Path, err: Console, page: Callable[[], Page], interrupted: str = "") -> None:
    """Write the ``--html`` page (marked incomplete when the run was stopped)."""
    from regen_model.html import write

    built = page()
    if interrupted:
        note = f"Interrupted by {interrupted}: this page shows what was computed before."
        built = dataclasses.replace(
            built,
            verdict=f"{built.verdict} (incomplete)",
            subtitle=f"{note} {built.subtitle}".strip(),
        )
    write(path, built)
    err.print(f"HTML page: {path}", markup=False, highlight=False)
