"""Every clause of the catalog is implemented and tested, and code cites only real clauses.

The catalog (spec/clauses.yaml, read through ``regen_model.clauses.catalog()``) is the list of
rules this project claims to model. Three checks keep code, tests and catalog in step:

* implementation: each clause ID appears as a string literal in the engine (an event or an
  error citing it), found by parsing regen_model/engine/*.py;
* tests: each clause is cited by an event (or an announced engine error) of some scenario
  under tests/scenarios;
* no invented IDs: every string literal under regen_model/ that looks like a clause ID (an
  area of the catalog, then dot-separated lowercase words) is in the catalog.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import regen_model
from regen_model.clauses import catalog
from regen_model.scenario import load_scenario, run_scenario, scenario_files

PACKAGE = Path(regen_model.__file__).resolve().parent
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
WORD = r"[a-z0-9]+(?:-[a-z0-9]+)*"


def _string_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _clause_like() -> re.Pattern[str]:
    areas = sorted({cid.split(".")[0] for cid in catalog().clauses}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(map(re.escape, areas))})(?:\.{WORD})+$")


@cache
def _exercised() -> frozenset[str]:
    cited: set[str] = set()
    for path in scenario_files([SCENARIOS]):
        cited |= run_scenario(load_scenario(path)).clauses_exercised
    return frozenset(cited)


def test_catalog_is_not_empty() -> None:
    assert len(catalog().clauses) >= 50


def test_every_clause_has_an_implementation_site_in_the_engine() -> None:
    literals = {
        value for path in (PACKAGE / "engine").glob("*.py") for _, value in _string_literals(path)
    }
    missing = sorted(set(catalog().clauses) - literals)
    assert not missing, f"clauses no engine code cites: {missing}"


def test_every_clause_is_exercised_by_a_scenario() -> None:
    missing = sorted(set(catalog().clauses) - _exercised())
    assert not missing, f"clauses no scenario under tests/scenarios exercises: {missing}"


def test_scenarios_exercise_only_catalog_clauses() -> None:
    unknown = sorted(_exercised() - set(catalog().clauses))
    assert not unknown, f"events cite clauses missing from the catalog: {unknown}"


def test_code_cites_only_catalog_clauses() -> None:
    pattern = _clause_like()
    known = set(catalog().clauses)
    bad = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {value!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, value in _string_literals(path)
        if pattern.match(value) and value not in known
    ]
    assert not bad, "clause-like strings that are not catalog clauses:\n" + "\n".join(bad)


def test_the_clause_pattern_recognises_clause_ids() -> None:
    pattern = _clause_like()
    assert all(pattern.match(cid) for cid in catalog().clauses)
    assert not pattern.match("scenario.schema.json")
    assert not pattern.match("regen_model.cli")
