"""The ``regen-model`` command line: one Typer app, one module per command group.

Each command module exposes ``register(app)``; adding a command means adding its module to
``COMMAND_MODULES``. Commands print with Rich, offer ``--json`` for machines, and exit with the
code of their worst verdict (``regen_model.verdicts``).

``main`` is the one place that decides how the process ends when a command does not say it
itself: a usage error is exit 2, Ctrl-C is 130, a closed output pipe (``| head``) is 141 as
for SIGPIPE, and any exception that escapes a command is our bug: exit 7 with one line
(``errors.internal_error``), never 1, which is a verdict.
"""

from __future__ import annotations

import errno
import importlib
import sys
from collections.abc import Sequence

import typer

from regen_model.cli.errors import internal_error
from regen_model.verdicts import EXIT_INPUT_ERROR

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


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
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
        code = app(args=args, prog_name="regen-model", standalone_mode=False)
    except typer.TyperException as exc:  # a usage error: typer's message, exit 2
        from typer import rich_utils

        rich_utils.rich_format_error(exc)  # type: ignore[arg-type]  # a ClickException
        return EXIT_INPUT_ERROR
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("regen-model: interrupted\n")
        return EXIT_INTERRUPTED
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
