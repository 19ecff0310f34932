"""Cross-checking phase.rs (PyPI ``phase-python``, import name ``phase``) against our model.

Install with ``pip install regen-model[phase]``. docs/phase-adapter.md explains the mapping,
the field table, the action matrix and the known divergences.
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
from regen_model.adapters.phase.driver import run_on_phase, run_on_reference
from regen_model.adapters.phase.errors import (
    AdapterError,
    AdapterTimeout,
    Unexpressible,
    Unsupported,
)
from regen_model.adapters.phase.observation import Observation, diff, observe_reference

__all__ = [
    "AdapterError",
    "AdapterTimeout",
    "CardDatabase",
    "CardStatus",
    "Observation",
    "PhaseEngineAdapter",
    "Unexpressible",
    "Unsupported",
    "diff",
    "observe_reference",
    "run_on_phase",
    "run_on_reference",
]
