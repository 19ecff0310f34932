"""A test API for engine authors: Hypothesis strategies for games of the specification, a
conformance test for any engine adapter, and the failing example as a scenario file.

* ``starts``, ``action_sequences``, ``scenarios``, ``boards``, ``legal_step``
  (``strategies.py``): start states, legal action sequences and whole scenarios;
* ``conformance(ENGINE)`` (``engines.py``): a test function running the engine and the
  specification side by side on random scenarios, shrunk by Hypothesis on failure;
* ``case_yaml`` (``scenario.py``): a case in the scenario format, as failures print it;
* the pytest plugin (``plugin.py``, entry point ``pytest11``): ``pytest --regen-engine NAME``;
* ``bugs.py``: realistic engine bugs (the reference engine, each with one bug planted).

docs/testing.md is the guide; examples/pytest_plugin is the worked example.

The names are imported when first used (PEP 562), so that pytest loading the plugin, which
lives in this package, imports neither Hypothesis nor the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regen_model.testing.engines import EngineDiverges, check_case, conformance
    from regen_model.testing.scenario import case_yaml
    from regen_model.testing.strategies import (
        action_sequences,
        boards,
        legal_step,
        scenarios,
        starts,
    )

_WHERE = {
    "EngineDiverges": "engines",
    "check_case": "engines",
    "conformance": "engines",
    "case_yaml": "scenario",
    "action_sequences": "strategies",
    "boards": "strategies",
    "legal_step": "strategies",
    "scenarios": "strategies",
    "starts": "strategies",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'regen_model.testing' has no attribute {name!r}")
    return getattr(importlib.import_module(f"regen_model.testing.{_WHERE[name]}"), name)


__all__ = [
    "EngineDiverges",
    "action_sequences",
    "boards",
    "case_yaml",
    "check_case",
    "conformance",
    "legal_step",
    "scenarios",
    "starts",
]
