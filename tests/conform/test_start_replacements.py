"""A scenario whose start holds "this turn" destruction replacement effects becomes a case.

``replace/start-with-exile-and-remove-damage.yaml`` starts with Disintegrate's "if it would die
this turn, exile it instead" (614.6) and an unused Pyramids effect (614.1a) on an animated
Spawning Pool. The conformance start format used to have no field for either, so the file was
"not used" (a default crosscheck skipped it, ``--case`` made the run exit 2). These tests hold
the format to carrying them through every form a start is written in: the start JSON (both
JSON Schemas), an ITF trace's ``#meta.setup`` (read back and explained by ``check-trace``)
and a conformance vector.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from regen_model.conform.case import read_case, to_trace
from regen_model.conform.itf import read_trace
from regen_model.conform.schemas import jsonl_schema, vector_schema
from regen_model.conform.sources import scenario_cases
from regen_model.conform.start import Start
from regen_model.conform.trace_check import check_trace
from regen_model.conform.vectors import read_vectors, vector
from regen_model.verdicts import Verdict

from .helpers import REPO

SCENARIO = REPO / "tests" / "scenarios" / "replace" / "start-with-exile-and-remove-damage.yaml"


def test_the_scenario_becomes_a_case_with_both_effects_in_its_start() -> None:
    cases, skipped = scenario_cases([SCENARIO])
    assert skipped == []  # it used to be "start not expressible: pool would be exiled if it died"
    (case,) = cases
    pool = case.start.to_json()["permanents"][0]
    assert pool["handle"] == "pool"
    assert pool["exile_if_dies"] is True
    assert pool["remove_damage_instead"] == 1
    built = case.start.build()
    assert built.card("pool").exile_if_dies
    assert built.card("pool").remove_damage == 1


def test_the_start_json_is_valid_and_reads_back_equal() -> None:
    (case,), _ = scenario_cases([SCENARIO])
    data = json.loads(json.dumps(case.start.to_json()))
    for schema in (vector_schema(), jsonl_schema()):
        jsonschema.validate(data, {"$defs": schema["$defs"], "$ref": "#/$defs/start"})
    bad = {**data, "permanents": [{**data["permanents"][0], "remove_damage_instead": -1}]}
    try:
        jsonschema.validate(bad, {"$defs": jsonl_schema()["$defs"], "$ref": "#/$defs/start"})
    except jsonschema.ValidationError:
        pass
    else:  # pragma: no cover - the assertion below says what went wrong
        raise AssertionError("a negative remove_damage_instead passed the schema")
    again = Start.from_json(data)
    assert again == case.start
    assert again.build().cards == case.start.build().cards


def test_an_itf_trace_of_it_reads_back_as_the_same_case_and_is_explained(tmp_path: Path) -> None:
    (case,), _ = scenario_cases([SCENARIO])
    path = tmp_path / "case.itf.json"
    path.write_text(json.dumps(to_trace(case)), encoding="utf-8")
    setup = json.loads(path.read_text(encoding="utf-8"))["#meta"]["setup"]
    assert setup["permanents"][0]["exile_if_dies"] is True
    again = read_case(path)
    assert again.start == case.start
    assert again.actions == case.actions
    # the specification explains its own log only with both effects in place: without the
    # Pyramids effect the Pool would die to Murder, without the exile effect go to the graveyard
    assert check_trace(read_trace(path)).verdict is Verdict.PASSED
    for field in ("exile_if_dies", "remove_damage_instead"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        del doc["#meta"]["setup"]["permanents"][0][field]
        stripped = tmp_path / f"without-{field}.itf.json"
        stripped.write_text(json.dumps(doc), encoding="utf-8")
        assert check_trace(read_trace(stripped)).verdict is Verdict.FAILED, field


def test_a_vector_of_it_is_valid_and_replays_as_the_same_case(tmp_path: Path) -> None:
    (case,), _ = scenario_cases([SCENARIO])
    data = vector(case, "start-with-replacements", case.name, "the scenario")
    jsonschema.validate(data, vector_schema())
    assert data["start"]["permanents"][0]["remove_damage_instead"] == 1
    (tmp_path / "v.json").write_text(json.dumps(data), encoding="utf-8")
    (again,), bad = read_vectors(tmp_path)
    assert bad == []
    assert again.start.build().cards == case.start.build().cards
    assert again.actions == case.actions
