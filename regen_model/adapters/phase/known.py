"""The known divergences of phase.rs: ``known_divergences.yaml`` next to this module, read with
the framework's classifier (``regen_model.conform.known``, where the matcher keys are documented).
docs/phase-report.md is the prose version of the same list."""

from __future__ import annotations

from pathlib import Path

from regen_model.conform import known as _known
from regen_model.conform.known import (
    VERDICTS,
    Classification,
    KnownDivergence,
    KnownListError,
    classifier,
    classify,
)

KNOWN_FILE = Path(__file__).resolve().parent / "known_divergences.yaml"


def load_known(path: Path = KNOWN_FILE) -> tuple[KnownDivergence, ...]:
    return _known.load_known(path)


def known_version(path: Path = KNOWN_FILE) -> str:
    """The phase-python version the list was made with."""
    return _known.known_version(path, "phase_python")


__all__ = [
    "KNOWN_FILE",
    "VERDICTS",
    "Classification",
    "KnownDivergence",
    "KnownListError",
    "classifier",
    "classify",
    "known_version",
    "load_known",
]
