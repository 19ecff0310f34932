"""Explicit-state exploration with the reference engine: action enumeration, breadth-first
search with state hashing and shortest counterexamples, and their reports.

``enumerate_actions`` is also the action list of the agreement check between the engine and
the Z3 encoding (``regen_model.encoding``).
"""

from regen_model.explore.actions import ActionFamily, enumerate_actions
from regen_model.explore.bfs import (
    EXPLORE_SCOPE,
    Counterexample,
    ExploreConfig,
    ExploreResult,
    explore,
)
from regen_model.explore.monitor import Finding, Monitor
from regen_model.explore.starts import StartError, StartSpec, start_states

__all__ = [
    "EXPLORE_SCOPE",
    "ActionFamily",
    "Counterexample",
    "ExploreConfig",
    "ExploreResult",
    "Finding",
    "Monitor",
    "StartError",
    "StartSpec",
    "enumerate_actions",
    "explore",
    "start_states",
]
