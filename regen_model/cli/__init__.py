"""The ``regen-model`` command line: one Typer app, one module per command group.

Each command module exposes ``register(app)``; adding a command means adding its module to
``COMMAND_MODULES``. Commands print with Rich, offer ``--json`` for machines, and exit with the
code of their worst verdict (``regen_model.verdicts``).

``main`` is the one place that decides how the process ends when a command does not say it
itself: a usage error is exit 2 with one line, Ctrl-C is 130 and SIGTERM 143
(``regen_model.interrupts``; the long commands first report what they computed, marked
incomplete), a closed output pipe (``| head``) is 141 as for SIGPIPE, and any exception that
escapes a command is our bug: exit 7 with one line (``errors.internal_error``), never 1,
which is a verdict.
"""

from __future__ import annotations

import errno
import importlib
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from regen_model.cli.docs import point_to_pages
from regen_model.cli.errors import internal_error, usage_error
from regen_model.cli.options import name_metavars
from regen_model.interrupts import exit_code as interrupt_exit_code
from regen_model.interrupts import handling_signals, signal_name

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
    "docs",
)


def _version(show: bool) -> None:
    if show:
        from importlib.metadata import version

        import z3

        sys.stdout.write(f"regen-model {version('regen-model')} (z3 {z3.get_version_string()})\n")
        raise typer.Exit(0)


@app.callback(
    epilog="Each command's --help says more. The documentation is installed with the "
    "package: 'regen-model docs' lists its pages, 'regen-model docs PAGE' prints one."
)
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=_version
        ),
    ] = False,
) -> None:
    """A model-checked specification of the Magic: The Gathering regeneration rules."""


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it (SIGTERM: 143)
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of our output went away


def _register_all() -> None:
    if app.registered_commands:
        return
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"regen_model.cli.{name}")
        module.register(app)


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point: run one command and return the process's exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args if not a.startswith("-")), "regen-model")
    try:
        _register_all()
        with handling_signals():
            group = typer.main.get_command(app)
            name_metavars(group)
            point_to_pages(group)
            code = group.main(args=args, prog_name="regen-model", standalone_mode=False)
    except typer.TyperException as exc:  # a usage error: one line naming the option, exit 2
        return usage_error(exc)
    except typer.Abort:
        sys.stderr.write("regen-model: interrupted\n")
        return EXIT_INTERRUPTED
    except KeyboardInterrupt as stop:  # SIGINT or SIGTERM before a command could report
        name = signal_name(stop)
        sys.stderr.write(f"regen-model: interrupted ({name})\n")
        return interrupt_exit_code(name)
    except BrokenPipeError:
        return _broken_pipe()
    except SystemExit as exc:  # typer's own answer to a closed pipe, or foreign code exiting
        if isinstance(exc.__context__, OSError) and exc.__context__.errno == errno.EPIPE:
            return _broken_pipe()
        return internal_error(exc, f"{command} (something called sys.exit({exc.code!r}))")
    except Exception as exc:
        return internal_error(exc, command)
    return code if isinstance(code, int) else 0


def _broken_pipe() -> int:
    # Nothing more can be written to stdout; keep Python from complaining when it closes.
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE
