"""Stands for your engine's adapter: how regen-model drives your engine
(``regen_model.conform.adapter.EngineAdapter``: start, apply, observe; docs/crosscheck.md).

Here the "engine" is the reference engine with one bug planted, the kind an engine author
could write: "can't be regenerated this turn" is stored with the controller, so it is lost
when the permanent changes control (701.19c says it sticks to the permanent until cleanup).
An installed engine package would declare its factory under the entry point group
``regen_model.engines`` instead and be named by that name.
"""

from __future__ import annotations

from regen_model.conform.adapter import EngineAdapter
from regen_model.testing.bugs import RegenClearsMinusCounters


def make_adapter(arg: str | None = None) -> EngineAdapter:
    return RegenClearsMinusCounters()
