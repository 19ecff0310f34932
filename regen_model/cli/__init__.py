"""The ``regen-model`` command line: one Typer app, one module per command group.

Each command module exposes ``register(app)``; adding a command means adding its module to
``COMMAND_MODULES``. Commands print with Rich, offer ``--json`` for machines, and exit with the
code of their worst verdict (``regen_model.verdicts``).
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="regen-model",
    help="A model-checked specification of the Magic: The Gathering regeneration rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules under regen_model.cli that define ``register(app)``, in help order.
COMMAND_MODULES: tuple[str, ...] = (
    "run",
    "verify",
    "conform",
    "explore",
    "mutants",
    "prove",
    "find",
    "agree",
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"regen_model.cli.{name}")
        module.register(app)


def main() -> None:
    """Console-script entry point."""
    _register_all()
    app()
