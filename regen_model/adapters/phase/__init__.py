"""Cross-checking phase.rs (PyPI ``phase-python``, import name ``phase``) against our model.

Install with ``pip install 'regen-model[phase]'`` and run ``regen-model crosscheck --engine
phase``. The engine name comes from the entry point ``phase = regen_model.adapters.phase:
make_adapter`` in the ``regen_model.engines`` group (pyproject.toml), the same route a
third-party engine takes. docs/phase-adapter.md explains the mapping, the field table and the
action matrix; docs/phase-report.md the divergences found, which ``known_divergences.yaml``
lists for the CI check (``known.py``).
"""

from __future__ import annotations

try:
    import phase as _phase  # noqa: F401  (fail early, with the install hint)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "regen_model.adapters.phase needs phase-python: pip install 'regen-model[phase]'"
    ) from exc

from regen_model.adapters.phase.adapter import PhaseEngineAdapter
from regen_model.adapters.phase.database import CardDatabase, CardStatus
from regen_model.adapters.phase.errors import (
    AdapterError,
    AdapterTimeout,
    Rejected,
    Unexpressible,
    Unsupported,
)

ARGUMENTS = {
    "strict": "refuse cards phase.rs parses only in part (PhaseEngineAdapter(strict_cards=True))"
}


def make_adapter(arg: str | None = None) -> PhaseEngineAdapter:
    """The entry point's factory: ``--engine phase`` or ``--engine phase:strict``.

    The framework calls it again to restart the engine after a failure, so each call gives a
    fresh adapter (card faces are rebuilt, which takes well under a second).
    """
    if arg is None or arg == "":
        return PhaseEngineAdapter()
    if arg == "strict":
        return PhaseEngineAdapter(strict_cards=True)
    known = ", ".join(f"phase:{k} ({v})" for k, v in ARGUMENTS.items())
    raise ValueError(f"unknown phase argument {arg!r}; known: {known}")


__all__ = [
    "AdapterError",
    "AdapterTimeout",
    "CardDatabase",
    "CardStatus",
    "PhaseEngineAdapter",
    "Rejected",
    "Unexpressible",
    "Unsupported",
    "make_adapter",
]
