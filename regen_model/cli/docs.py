"""``regen-model docs [PAGE]``: the documentation pages installed with the package.

The ``docs/`` folder of the repository ships inside the wheel as ``regen_model/_docs`` (see
pyproject's ``force-include``, like ``spec/`` as ``regen_model/_spec``), so every ``--help``
can point to a page that is there wherever the package was installed: ``regen-model docs``
lists the pages, ``regen-model docs queries`` prints one (Markdown), ``--path`` prints where
it is instead.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from regen_model.cli.tables import TableFormat, format_option, output_console
from regen_model.verdicts import EXIT_INPUT_ERROR


def docs_folder() -> Path:
    """Where the pages are: inside the installed package, else in the checkout."""
    packaged = resources.files("regen_model").joinpath("_docs")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "docs"


def pages() -> dict[str, Path]:
    """Page name (the file name without ``.md``) -> file, by name."""
    return {p.stem: p for p in sorted(docs_folder().glob("*.md"))}


def title(page: Path) -> str:
    """The page's first heading."""
    with page.open(encoding="utf-8") as text:
        for line in text:
            if line.startswith("#"):
                return line.lstrip("#").strip().replace("`", "")
    return ""


def register(app: typer.Typer) -> None:
    @app.command("docs")
    def docs_command(
        page: Annotated[
            str | None,
            typer.Argument(help="A page to print (default: list the pages).", show_default=False),
        ] = None,
        path: Annotated[
            bool, typer.Option("--path", help="Print where the page (or the folder) is.")
        ] = False,
        table_format: Annotated[TableFormat, format_option()] = TableFormat.RICH,
    ) -> None:
        """List or print the documentation installed with the package."""
        found = pages()
        if page is None:
            if path:
                sys.stdout.write(f"{docs_folder()}\n")
                raise typer.Exit(0)
            table = Table(title=f"Documentation in {docs_folder()}", title_justify="left")
            table.add_column("page", no_wrap=True)
            table.add_column("about")
            for name, file in found.items():
                table.add_row(name, title(file))
            out = output_console(table_format)
            out.print(table)
            out.print("regen-model docs PAGE prints a page (Markdown).")
            raise typer.Exit(0)
        chosen = found.get(page.removesuffix(".md"))
        if chosen is None:
            Console(stderr=True).print(
                f"docs: no page {page!r} (pages: {', '.join(found)})", markup=False
            )
            raise typer.Exit(EXIT_INPUT_ERROR)
        sys.stdout.write(f"{chosen}\n" if path else chosen.read_text(encoding="utf-8"))
        raise typer.Exit(0)


# The page each command's --help ends by pointing to.
COMMAND_PAGES = {
    "run": "scenarios",
    "verify": "proofs",
    "prove": "proofs",
    "find": "queries",
    "explore": "explore",
    "mutants": "mutants",
    "agree": "agreement",
    "check-trace": "itf",
    "crosscheck": "crosscheck",
    "export-vectors": "crosscheck",
}


def point_to_pages(group: object) -> None:
    """End the help of each command of the Click ``group`` with the page that documents it."""
    for name, command in getattr(group, "commands", {}).items():
        page = COMMAND_PAGES.get(name)
        if page is not None and command.epilog is None:
            command.epilog = f"Documentation: regen-model docs {page}"
