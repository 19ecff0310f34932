"""The allowed range of every numeric option, defined once and shared by every command.

A negative depth, a k of 0 (k-induction with no step proves nothing and would turn a
violation into a CTI), a negative solver budget or an absurd scope are usage errors: Click's
own range types (``IntRange`` / ``FloatRange``, made by typer's ``min``/``max``) reject them before the command
runs, with one line naming the option and its range (exit 2, ``cli.main``), and the range is
shown in ``--help``. The scope fields given as ``--scope cards=2,...`` are checked against
the same limits (``SCOPE_LIMITS``, used by ``checks.systems.parse_scope``).

Each ``Bounds`` makes the ``typer.Option`` of one kind of number::

    depth: Annotated[int, DEPTH.option("--depth", "-d", help="...")] = 2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import typer

from regen_model.encoding.scope import SCOPE_LIMITS


@dataclass(frozen=True)
class Bounds:
    """An inclusive range ``low..high`` (``high`` None: unbounded) of an int or float option."""

    low: int | float
    high: int | float | None = None

    def option(self, *declarations: str, help: str, **settings: Any) -> Any:
        """The ``typer.Option`` of an option with this range (typer's ``OptionInfo``; typer
        makes it a Click ``IntRange`` or ``FloatRange`` after the parameter's type)."""
        return typer.Option(*declarations, help=help, min=self.low, max=self.high, **settings)


def scope_bounds(field: str) -> Bounds:
    low, high = SCOPE_LIMITS[field]
    return Bounds(low, high)


# Steps of a bounded search: explore's BFS depth, find's and prove's BMC depth.
DEPTH = Bounds(0, 64)
# k-induction needs at least one step (k = 0 proves nothing).
K = Bounds(1, 32)
# Z3's resource limit per query (0: unlimited).
RLIMIT = Bounds(0, 10**12)
# Random seeds (Z3's and Python's): 32 bits, as Z3 takes them.
SEED = Bounds(0, 2**32 - 1)
# Processes of a pool (crosscheck's shrinking, agree, mutants).
WORKERS = Bounds(1, 256)
# check-trace: specification states kept open at once.
FRONTIER = Bounds(1, 1_000_000)
# Seconds an engine has to answer one request.
TIMEOUT = Bounds(0.1, 3600.0)
# Seconds for a whole phase of work (0: no limit).
BUDGET_SECONDS = Bounds(0.0, 24 * 3600.0)
# How many cases, candidates, steps, states or sample points a run may draw.
COUNT = Bounds(0, 1_000_000)
POSITIVE_COUNT = Bounds(1, 1_000_000)
STATES = Bounds(1, 10**9)
# Actions of one random scenario.
MAX_STEPS = Bounds(1, 1000)


def name_metavars(command: Any) -> None:
    """Give every option and argument of the Click ``command`` (a group: of its
    subcommands) a metavar that says what to write (``N``, ``SECONDS``, ``PATH``, ``NAME``,
    ``TEXT``) instead of typer's Python types (``<list[str]>``, ``<int range>``) and
    20-choice enum dumps (the choices are in the help text or a ``--list``); flags show
    none. An explicit ``metavar=`` is kept."""
    import enum
    from pathlib import Path
    from typing import get_args, get_origin

    for sub in getattr(command, "commands", {}).values():
        name_metavars(sub)
    import typer

    help_option = command.get_help_option(typer.Context(command))
    if help_option is not None:  # a flag, like the others: no ``<bool>``
        help_option.metavar = ""
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "argument":
            # An argument's name is its metavar already; typer would add its Python type.
            setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010
            continue
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
            continue
        descriptor = getattr(param, "type_descriptor", None)
        base = getattr(descriptor, "annotation", None)
        while get_origin(base) is not None:  # list[X], X | None
            base = next(a for a in get_args(base) if a is not type(None))
        if base is int:
            param.metavar = "N"
        elif base is float:
            param.metavar = "SECONDS"
        elif isinstance(base, type) and issubclass(base, Path):
            param.metavar = "PATH"
        elif isinstance(base, type) and issubclass(base, enum.Enum):
            values = [str(m.value) for m in base]
            param.metavar = "|".join(values) if len(values) <= 4 else "NAME"
        elif base is str:
            param.metavar = "TEXT"
