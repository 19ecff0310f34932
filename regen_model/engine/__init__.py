"""The executable reference engine: ``step(state, action, rules) -> (state, events)``."""

from regen_model.engine.errors import EngineError, IllegalAction, MissingChoice, UnknownName
from regen_model.engine.step import StepResult, step

__all__ = ["EngineError", "IllegalAction", "MissingChoice", "StepResult", "UnknownName", "step"]
