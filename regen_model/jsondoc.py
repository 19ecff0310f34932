"""The envelope every ``--json`` document of ``regen-model`` starts with.

A program reading our output first looks at the same keys whatever the command: ``format``
(``regen-model/<command>``), ``version`` (of that format; a change that breaks a reader
raises it), ``verdict`` (``verdicts.Verdict``'s value, or null where a command has none,
e.g. a listing), ``exit_code`` (what the process exits with), ``incomplete`` and
``interrupted_by`` (a run stopped by SIGINT or SIGTERM: what follows is what was computed
so far; ``regen_model.interrupts``). Each format has a JSON Schema shipped in
``regen_model/schemas/`` (``schema``) describing the whole document, written from
``regen_model/schemas/define.py`` and checked against real output by
``tests/test_json_schemas.py``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from regen_model.verdicts import Verdict

VERSION = 1
ENVELOPE_KEYS = ("format", "version", "verdict", "exit_code", "incomplete", "interrupted_by")
PASSING = frozenset({Verdict.PROVED, Verdict.PASSED, Verdict.SKIPPED})


def envelope(
    command: str,
    verdict: Verdict | None,
    exit_code: int,
    *,
    interrupted: str = "",
    version: int = VERSION,
    **body: Any,
) -> dict[str, Any]:
    """``{format, version, verdict, exit_code, incomplete, interrupted_by, **body}``.

    An interrupted run's verdict is never a passing one: what was not done is not known, so
    a document whose finished parts all held says UNKNOWN (the rows say what did hold)."""
    if interrupted and verdict in PASSING:
        verdict = Verdict.UNKNOWN
    return {
        "format": f"regen-model/{command}",
        "version": version,
        "verdict": None if verdict is None else verdict.value,
        "exit_code": exit_code,
        "incomplete": bool(interrupted),
        "interrupted_by": interrupted or None,
        **body,
    }


def enveloped(
    command: str, verdict: Verdict | None, exit_code: int, body: dict[str, Any]
) -> dict[str, Any]:
    """``body`` with the envelope's keys it lacks (a document built elsewhere, e.g. a
    report's ``to_json``, keeps its own ``verdict`` or ``format`` where it has them)."""
    return {**envelope(command, verdict, exit_code), **body}


def schema(command: str) -> dict[str, Any]:
    """The shipped JSON Schema of ``regen-model/<command>`` documents."""
    text = resources.files("regen_model.schemas").joinpath(f"{command}.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded
