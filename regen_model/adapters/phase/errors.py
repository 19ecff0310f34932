"""How the adapter says "no": before a run (``Unsupported``) and during one (``AdapterError``).

The distinction matters to a cross-check: an unsupported scenario is skipped and counted, an
adapter error ends one scenario and is reported with the message phase.rs gave. ``Unexpressible``
is the in-between case of a scenario that looked expressible but turned out, at run time, to need
something phase.rs cannot do (e.g. a state-based action that phase.rs would perform too early);
a runner should count it like ``Unsupported``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unsupported:
    """Why phase.rs cannot express a scenario. ``action`` is the index of the first
    unsupported action, or ``None`` when the start state is the problem."""

    reason: str
    action: int | None = None

    def __str__(self) -> str:
        where = "start state" if self.action is None else f"action {self.action}"
        return f"{where}: {self.reason}"


class AdapterError(Exception):
    """phase.rs rejected something, or did something the adapter cannot map back."""


class Unexpressible(AdapterError):
    """Discovered during a run: this step has no faithful phase.rs equivalent."""


class AdapterTimeout(AdapterError):
    """A scenario took longer than its wall-clock budget."""
