"""How the adapter says "no", in the cross-checking framework's own terms.

Each error is a subclass of the framework's exception for the same outcome
(``regen_model.conform.adapter``), so ``run_case`` and ``crosscheck`` count it correctly without
any translation layer:

| here | framework | counted as |
|---|---|---|
| ``Unsupported`` (returned by ``supports``) | the same class | skipped, with the reason |
| ``Unexpressible`` | ``StepUnsupported`` | skipped: the step has no faithful phase.rs equivalent |
| ``Rejected`` | ``ActionRejected`` | a divergence: phase.rs refused (or could not carry out) an action the rules allow |
| ``AdapterError``, ``AdapterTimeout`` | ``EngineFailure`` | an engine error: the adapter could not map something back |

The line between ``Rejected`` and ``AdapterError`` matters: a refusal of a player's action
(casting, activating, passing, declaring) is phase.rs's rules speaking and must show up as a
divergence, while a failed ``Debug`` action or state edit is the adapter's own instrument
failing and must not be blamed on phase.rs's rules.
"""

from __future__ import annotations

from regen_model.conform.adapter import (
    ActionRejected,
    EngineFailure,
    StepUnsupported,
    Unsupported,
)

__all__ = ["AdapterError", "AdapterTimeout", "Rejected", "Unexpressible", "Unsupported"]


class AdapterError(EngineFailure):
    """The adapter could not set something up or read it back (not phase.rs's rules)."""


class AdapterTimeout(AdapterError):
    """A scenario took longer than its wall-clock budget."""


class Unexpressible(StepUnsupported):
    """Discovered during a run: this step has no faithful phase.rs equivalent."""


class Rejected(ActionRejected):
    """phase.rs refused one of our actions, or needs an answer the rules do not ask for."""
