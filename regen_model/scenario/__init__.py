"""Scenario files: a situation, events played on the reference engine, and expectations.

``load_scenario`` reads and checks a YAML or JSON file (format: ``docs/scenarios.md``, schema:
``scenario.schema.json`` beside this module); ``run_scenario`` plays it and returns a typed
result. Bad input of any kind raises ``ScenarioError``, whose ``str`` is one line naming the
file, line and field.
"""

from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.load import load_scenario, scenario_files
from regen_model.scenario.run import CheckResult, EventResult, ScenarioResult, run_scenario
from regen_model.scenario.spec import Scenario

__all__ = [
    "CheckResult",
    "EventResult",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "load_scenario",
    "run_scenario",
    "scenario_files",
]
