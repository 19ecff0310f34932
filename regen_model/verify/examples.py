"""The ``examples`` section of ``verify``: every scenario in ``regen_model/examples``.

The examples are package data, so an installed copy verifies the same files a checkout does.
A shipped example that does not load is a defect of the package, reported as FAILED with the
loader's one-line message rather than as bad user input.
"""

from __future__ import annotations

import time
from importlib import resources
from pathlib import Path

from regen_model.scenario import ScenarioError, load_scenario, run_scenario
from regen_model.scenario.load import SCENARIO_SUFFIXES
from regen_model.verdicts import Verdict
from regen_model.verify import Row, VerifyOptions, Workbench


def example_files() -> list[Path]:
    """The shipped example scenarios, sorted by name."""
    folder = Path(str(resources.files("regen_model").joinpath("examples")))
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in SCENARIO_SUFFIXES)


def verify_examples(options: VerifyOptions, bench: Workbench) -> list[Row]:
    rows = []
    for path in example_files():
        started = time.perf_counter()
        shown = f"examples/{path.name}"
        try:
            result = run_scenario(load_scenario(path, shown_as=shown))
        except ScenarioError as err:
            rows.append(Row(shown, Verdict.FAILED, time.perf_counter() - started, message=str(err)))
            continue
        sc = result.scenario
        message = "; ".join(
            f"line {c.line}: {c.what}: expected {c.expected}, got {c.actual}"
            for c in result.failures
        )
        rows.append(
            Row(
                item=sc.name,
                verdict=result.verdict,
                seconds=result.seconds,
                details=(("edition", sc.edition.value), ("clauses", ", ".join(sc.clauses))),
                message=message,
            )
        )
    return rows
