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

from regen_model.verdicts import EXIT_INTERNAL_ERROR

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
