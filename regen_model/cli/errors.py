"""What the user sees when regen-model itself fails: one line, exit code 7, never a verdict.

Exit code 1 means a verdict (violated, failed, none found), so a crash must never end with it,
and a traceback is for us, not for the user. ``internal_error`` prints one line saying what
failed and how to report it; the traceback follows only when ``REGEN_MODEL_DEBUG`` is set
(to anything but ``0`` or the empty string).
"""

from __future__ import annotations

import os
import sys
import traceback

from regen_model.verdicts import EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR

DEBUG_ENV = "REGEN_MODEL_DEBUG"
_MOST = 300  # characters of the exception's message shown


def debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def describe(exc: BaseException) -> str:
    """``Type: message`` on one line, shortened."""
    text = " ".join(str(exc).split())
    if len(text) > _MOST:
        text = text[: _MOST - 3] + "..."
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def internal_error(exc: BaseException, during: str) -> int:
    """Report a bug of ours that ended ``during`` (e.g. "find"); return ``EXIT_INTERNAL_ERROR``."""
    hint = (
        "the traceback follows"
        if debugging()
        else f"set {DEBUG_ENV}=1 to see the traceback, and include it"
    )
    sys.stderr.write(
        f"regen-model: internal error during {during}: {describe(exc)}. This is a bug in "
        f"regen-model, not in your input: please report it with the command you ran ({hint}).\n"
    )
    if debugging():
        traceback.print_exception(exc, file=sys.stderr)
    sys.stderr.flush()
    return EXIT_INTERNAL_ERROR


def usage_error(exc: Exception) -> int:
    """A usage error (a Click/Typer ``UsageError``: unknown option, bad or out-of-range value)
    as one line naming the command, the option and, for a number, its allowed range; exit 2.
    """
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "regen-model"
    format_message = getattr(exc, "format_message", None)
    message = " ".join(str(format_message() if callable(format_message) else exc).split())
    param = getattr(exc, "param", None)
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        shown = f"{_number(low)}..{_number(high)}" if high is not None else f">= {_number(low)}"
        message = f"{message.rstrip('.')} (allowed: {shown})"
    sys.stderr.write(f"{where}: {message} (see '{where} --help')\n")
    sys.stderr.flush()
    return EXIT_INPUT_ERROR


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
