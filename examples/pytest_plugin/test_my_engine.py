"""Your engine, checked against the specification in your own test suite.

``conformance`` makes a Hypothesis test: random scenarios (starts, spells, abilities, combat,
616.1 answers) run on the specification and on the engine, every observable field compared
after every action. On a divergence Hypothesis shrinks the scenario and the failure prints it
as a scenario file (docs/scenarios.md) with the specification's values under ``expect:``.
"""

from regen_model.testing import conformance

test_my_engine_conforms = conformance("python:my_engine:make_adapter", max_examples=1000)
