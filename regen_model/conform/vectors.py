"""Conformance vectors: JSON cases any engine, in any language, can replay on its own.

A vector is a start state, a list of actions and the observation expected after each one
(the reference engine's full projection), with the clauses the run exercises and the rule
edition. An engine author replays it without running regen-model: set up ``start``, apply
each ``action``, and compare the fields their engine can report with ``expect`` (fields it
cannot report are simply not compared, as in ``observe.compare``).

``export`` writes one file per clause witness (``witness.py``: every clause of the catalog,
plus the contexts shielded/borrowed/again) and per scenario file, an ``index.json`` listing
the vectors per clause, the JSON Schema the files follow (``vector.schema.json``) and a short
README. Vectors whose runs are identical are written once.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from regen_model.clauses import catalog
from regen_model.conform import jsonout
from regen_model.conform.adapter import package_version
from regen_model.conform.case import Case
from regen_model.conform.codec import Players, action_to_json
from regen_model.conform.observe import project
from regen_model.conform.sources import default_scenario_paths, scenario_cases
from regen_model.conform.witness import clause_witnesses, goal_clause
from regen_model.engine import EngineError, step
from regen_model.model.cards import card_list

VECTOR_FORMAT = "regen-model-vector"
VECTOR_VERSION = 1


def schema() -> dict[str, Any]:
    text = resources.files("regen_model.conform").joinpath("vector.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def vector(case: Case, vector_id: str, goal: str, description: str) -> dict[str, Any]:
    """The vector of one case: the reference's observation after each legal action."""
    players = Players(case.start.players)
    state = case.start.build()
    steps = []
    clauses: dict[str, None] = {}
    for action in case.actions:
        try:
            res = step(state, action)
        except EngineError:
            continue
        state = res.state
        for e in res.events:
            clauses.setdefault(e.clause, None)
        steps.append(
            {
                "action": action_to_json(action, players),
                "expect": project(state, res.events).to_json(),
            }
        )
    initial = project(case.start.build()).to_json()
    initial.pop("events", None)
    return {
        "format": VECTOR_FORMAT,
        "version": VECTOR_VERSION,
        "id": vector_id,
        "goal": goal,
        "description": description,
        "cr_edition": catalog().current_edition,
        "edition": case.start.edition.value,
        "clauses": list(clauses),
        "start": case.start.to_json(),
        "initial": initial,
        "steps": steps,
    }


@dataclass(frozen=True)
class ExportResult:
    directory: str
    vectors: int
    clauses_covered: tuple[str, ...]
    missing: tuple[str, ...]  # catalog clauses no vector exercises

    def to_json(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "vectors": self.vectors,
            "clauses_covered": len(self.clauses_covered),
            "clauses_in_catalog": len(self.clauses_covered) + len(self.missing),
            "missing": list(self.missing),
        }


def _describe_goal(goal: str) -> str:
    clause = goal_clause(goal)
    c = catalog().clauses.get(clause)
    title = f"{clause} ({', '.join(c.rules)}): {c.title}" if c else clause
    context = goal.partition("@")[2]
    extra = {
        "shielded": "; it happens to a permanent that has an unused regeneration shield",
        "borrowed": "; it happens to a permanent controlled by a player other than its owner",
        "unregenerable": "; it happens to a permanent that can't be regenerated this turn",
        "again": "; it happens a second time to the same permanent",
    }.get(context, "")
    return f"Witness of {title}{extra}."


def export(directory: Path, seed: int = 0, include_scenarios: bool = True) -> ExportResult:
    """Write the vectors, the index, the schema and a README into ``directory``."""
    cases_dir = directory / "cases"
    if cases_dir.exists():
        shutil.rmtree(cases_dir)
    cases_dir.mkdir(parents=True)
    entries: list[tuple[str, str, Case]] = []  # (goal, description, case)
    for goal, case in clause_witnesses(seed).cases:
        entries.append((goal, _describe_goal(goal), case))
    if include_scenarios:
        for case in scenario_cases(default_scenario_paths())[0]:
            entries.append((case.name, f"Scenario {case.origin.removeprefix('scenario:')}.", case))
    index_vectors: list[dict[str, Any]] = []
    per_clause: dict[str, list[str]] = {c: [] for c in catalog().clauses}
    seen: set[str] = set()
    for goal, description, case in entries:
        vector_id = goal.replace("@", "-at-") if "." in goal else goal
        data = vector(case, vector_id, goal, description)
        fingerprint = json.dumps([data["start"], data["steps"]], sort_keys=True)
        if fingerprint in seen or not data["steps"]:
            continue
        seen.add(fingerprint)
        rel = f"cases/{vector_id}.json"
        jsonout.write(directory / rel, data)
        index_vectors.append(
            {
                "id": vector_id,
                "file": rel,
                "goal": goal,
                "edition": data["edition"],
                "steps": len(data["steps"]),
                "clauses": data["clauses"],
            }
        )
        for clause in data["clauses"]:
            per_clause.setdefault(clause, []).append(vector_id)
    missing = tuple(c for c in catalog().clauses if not per_clause.get(c))
    index = {
        "format": "regen-model-vector-index",
        "version": VECTOR_VERSION,
        "generated_by": f"regen-model {package_version()}",
        "cr_edition": catalog().current_edition,
        "witness_seed": seed,
        "schema": "schema.json",
        "cards": "cards.json",
        "clauses": per_clause,
        "missing": list(missing),
        "vectors": index_vectors,
    }
    jsonout.write(directory / "index.json", index)
    jsonout.write(directory / "schema.json", schema())
    jsonout.write(directory / "cards.json", card_list())
    (directory / "README.md").write_text(_README, encoding="utf-8")
    covered = tuple(c for c in catalog().clauses if per_clause.get(c))
    return ExportResult(str(directory), len(index_vectors), covered, missing)


_README = """# regen-model conformance vectors

Each file in `cases/` is one game situation (`start`), the actions taken in it (`steps[].action`)
and what the specification says an engine must show after each action (`steps[].expect`).
`index.json` lists the vectors per rule clause; `schema.json` is the JSON Schema of a vector.
`cards.json` lists the built-in cards the vectors name: Oracle data (mana cost, type line, text,
power/toughness) and, per card, the `deviations`: parts of its Oracle text the specification
does not run (flying, hexproof, ...). A vector never depends on a deviated part; if your engine
runs the full card, a divergence on such a part is not one of the specification's.

To check an engine:

1. Build the start: players, rule edition (`edition`: pre-M10, M10 or FDN), step, and the
   permanents by handle with their card names and fields.
2. For each step, perform the action (`kind` and its fields; players are named, cards are named
   by handle; `choices` answer "which replacement effect applies" questions, rule 616.1).
3. Compare what your engine can report with `expect`: per card `zone`, `controller`, `tapped`,
   `damage`, `plus_counters`, `minus_counters`, `shield_counters`, `power`, `toughness`,
   `attacking`, `blocking`, `shields` (unused regeneration shields), `unregenerable`; per player
   `life`, `poison`; and the step's `events` (a multiset of tokens such as `regenerated:troll`).
   A field your engine cannot report is not compared; say so in your own mapping table.

The same cases can be run live with `regen-model crosscheck --engine ...` (see the
regen-model documentation, docs/crosscheck.md).
"""
