"""Every trace the tool writes is read back by ``check-trace``, is valid ITF (ADR-015) and
loads in an outside reader (the ``itf-py`` package); Quint's own ITF output loads after the
mapping documented in docs/itf.md; ``loop`` and ``params`` are handled.

One test per writer: ``find --out`` (and the trace inside ``find --json``), ``explore --itf``,
and crosscheck's two files per finding (the specification's run and the engine's).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import itf_py
import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.adapter import ReferenceAdapter
from regen_model.conform.case import Case
from regen_model.conform.codec import action_to_json
from regen_model.conform.differential import crosscheck
from regen_model.conform.itf import parse_trace, read_trace
from regen_model.conform.itf_map import load_map
from regen_model.conform.jsonpos import FormatError
from regen_model.conform.start import Start
from regen_model.conform.trace_check import MAX_LAPS, check_trace
from regen_model.model import actions as A
from regen_model.model.enums import Edition, Mutant
from regen_model.model.rules import Rules
from regen_model.verdicts import Verdict

from .helpers import REPO, card, card_fields, shields, trace_of, write

QUINT = REPO / "examples" / "quint"
ENCODINGS = ("#bigint", "#tup", "#set", "#map", "#unserializable")
SAFE = 2**53 - 1


def assert_adr015(doc: Any) -> None:
    """The shape ADR-015 gives an ITF trace: the top-level fields, every variable of ``vars``
    in every state, and expressions built only from its forms (no null, no float, integers
    in the safe range or as ``#bigint``, records without ``#`` fields)."""
    assert isinstance(doc, dict)
    assert set(doc) <= {"#meta", "params", "vars", "states", "loop"}
    assert isinstance(doc["vars"], list) and all(isinstance(v, str) for v in doc["vars"])
    assert isinstance(doc["states"], list) and doc["states"]
    for i, state in enumerate(doc["states"]):
        missing = set(doc["vars"]) - set(state)
        assert not missing, f"state {i} lacks {missing}"
        assert set(state) <= {*doc["vars"], *doc.get("params", []), "#meta"}
        for var in doc["vars"]:
            _expression(state[var], f"states[{i}].{var}")


def _expression(value: Any, where: str) -> None:
    if isinstance(value, bool | str):
        return
    if isinstance(value, int):
        assert -SAFE <= value <= SAFE, f"{where}: {value} needs #bigint"
        return
    if isinstance(value, list):
        for j, v in enumerate(value):
            _expression(v, f"{where}[{j}]")
        return
    assert isinstance(value, dict), f"{where}: {value!r} is not an ITF expression"
    tags = [k for k in value if k.startswith("#")]
    if tags:
        assert len(value) == 1 and tags[0] in ENCODINGS, f"{where}: {value!r}"
        inner = value[tags[0]]
        if tags[0] == "#bigint":
            int(inner)
        elif tags[0] == "#map":
            for pair in inner:
                assert isinstance(pair, list) and len(pair) == 2
                _expression(pair[0], where)
                _expression(pair[1], where)
        elif tags[0] != "#unserializable":
            _expression(inner, where)
        return
    for k, v in value.items():
        _expression(v, f"{where}.{k}")


def load_outside(doc: dict[str, Any]) -> itf_py.Trace:
    """The trace as itf-py reads it, with its card records checked against ours."""
    trace = itf_py.trace_from_json(doc)
    assert len(trace.states) == len(doc["states"])
    for state, raw in zip(trace.states, doc["states"], strict=True):
        for handle, record in raw["cards"]["#map"]:
            assert state.values["cards"][handle]._asdict() == record
    return trace


def check_file(path: Path, *args: str) -> int:
    _register_all()
    return CliRunner().invoke(app, ["check-trace", str(path), *args]).exit_code


# --- one test per writer ------------------------------------------------------------------------


def test_find_traces_read_back(tmp_path: Path) -> None:
    _register_all()
    out = tmp_path / "found.itf.json"
    result = CliRunner().invoke(
        app, ["find", "--example", "shield-left-after-regeneration", "-o", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert_adr015(doc)
    load_outside(doc)
    assert doc["#meta"]["source"] == "regen-model find" and "printed" in doc["#meta"]
    assert json.loads(result.stdout)["trace"] == doc  # --json carries the same trace
    assert check_file(out) == 0


def test_explore_traces_read_back_under_their_rules(tmp_path: Path) -> None:
    _register_all()
    result = CliRunner().invoke(
        app, ["explore", "-m", "create-taps", "--itf", str(tmp_path), "--continue", "-d", "1"]
    )
    assert result.exit_code == 1, result.output
    (path,) = tmp_path.glob("*.itf.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert_adr015(doc)
    load_outside(doc)
    assert doc["#meta"]["rules"] == "create-taps"
    assert check_file(path, "--rules", "create-taps") == 0
    assert check_file(path) == 1  # the correct rules do not tap a creature given a shield


def test_crosscheck_cases_read_back(tmp_path: Path, troll_and_bear: Start) -> None:
    case = Case("destroy", troll_and_bear, (A.Destroy(targets=("troll",)),))
    report = crosscheck(
        lambda: ReferenceAdapter(Rules(frozenset({Mutant.REGEN_DOES_NOT_TAP}))),
        [case],
        out_dir=tmp_path,
    )
    assert report.verdict is Verdict.DIVERGED
    expected, observed = (Path(p) for p in report.findings[0].files)
    for path in (expected, observed):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert_adr015(doc)
        load_outside(doc)
    assert check_file(expected) == 0
    assert check_file(observed) == 1  # the engine's log: the troll was not tapped
    assert check_file(observed, "--rules", "regen-does-not-tap") == 0


def test_a_trace_re_encoded_by_itf_py_reads_back(tmp_path: Path, troll_and_bear: Start) -> None:
    """itf-py writes every integer as #bigint, sequences as lists, and ``loop: null``."""
    data = trace_of(troll_and_bear, A.CreateShield(target="bear"), A.Destroy(targets=("bear",)))
    again = itf_py.trace_to_json(itf_py.trace_from_json(data))
    assert again["loop"] is None and again["params"] == []
    assert again["states"][0]["players"]["#map"][0][1]["life"] == {"#bigint": "20"}
    assert check_trace(read_trace(write(tmp_path, again))).verdict is Verdict.PASSED


# --- Quint ----------------------------------------------------------------------------------------


def test_quints_output_loads_with_the_documented_mapping() -> None:
    """``quint run examples/quint/regen.qnt --mbt --out-itf``: Quint's own file, unchanged."""
    path = QUINT / "regen.itf.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert "mbt::actionTaken" in raw["vars"] and raw["#meta"]["source"] == "regen.qnt"
    trace = read_trace(path, load_map(QUINT / "regen.map.yaml"))
    kinds = {s.action.kind for s in trace.steps if s.action is not None}
    assert kinds == {"create-shield", "deal-damage", "destroy", "check-sba"}
    assert [c.template.name for c in trace.start.cards] == ["Grizzly Bears", "Horned Troll"]
    report = check_trace(trace)
    assert report.verdict is Verdict.PASSED
    assert {"regen.shield.apply", "sba.lethal-damage"} <= set(report.clauses)
    assert report.run is not None  # one run of the specification that explains it
    assert [a.kind for a in report.run.actions] == [s.action.kind for s in trace.steps if s.action]


def test_quints_output_without_the_mapping_names_the_pick_it_cannot_read() -> None:
    with pytest.raises(FormatError) as info:
        read_trace(QUINT / "regen.itf.json")
    err = info.value
    assert err.field.endswith(".mbt::nondetPicks.amount")
    assert err.line == 1 and err.col > 1  # Quint writes the whole trace on one line
    assert "unknown field 'amount'" in err.message


def test_a_wrong_quint_model_fails_where_it_goes_wrong(tmp_path: Path) -> None:
    """A model whose regeneration forgets to tap: check-trace points at the first such step."""
    raw = json.loads((QUINT / "regen.itf.json").read_text(encoding="utf-8"))
    step = next(
        i
        for i, s in enumerate(raw["states"])
        if s["mbt::actionTaken"] in ("destroy", "checkSba")
        and any(rec["tapped"] for _, rec in s["cards"]["#map"])
    )
    for state in raw["states"][step:]:
        for _, rec in state["cards"]["#map"]:
            rec["tapped"] = False
    report = check_trace(
        read_trace(write(tmp_path, raw, "wrong.itf.json"), load_map(QUINT / "regen.map.yaml"))
    )
    assert report.verdict is Verdict.FAILED
    assert report.failure is not None and report.failure.step == step
    assert "regen.apply.tap" in report.failure.clauses


def test_quint_naming_rules_and_repeated_record_fields(tmp_path: Path) -> None:
    """Without a mapping: camelCase action names and picks, ``card``/``owner`` in every
    state, and a changed card name is an error at its line."""
    raw = json.loads((QUINT / "regen.itf.json").read_text(encoding="utf-8"))
    first_other = next(
        i
        for i, s in enumerate(raw["states"])
        if s["mbt::actionTaken"] not in ("init", "createShield")
    )
    raw["states"] = raw["states"][:first_other]
    assert len(raw["states"]) >= 2
    trace = parse_trace(json.dumps(raw), "shields.itf.json")
    assert all(s.action is not None and s.action.kind == "create-shield" for s in trace.steps)
    assert check_trace(trace).verdict is Verdict.PASSED
    raw["states"][1]["cards"]["#map"][0][1]["card"] = "Hill Giant"
    with pytest.raises(FormatError) as info:
        parse_trace(json.dumps(raw, indent=1), "shields.itf.json")
    assert info.value.field == "states[1].cards.bear.card"
    assert "never changes" in info.value.message


def test_a_mapping_renames_variables_fields_and_params(tmp_path: Path) -> None:
    raw = json.loads((QUINT / "regen.itf.json").read_text(encoding="utf-8"))
    for state in raw["states"]:
        state["board"] = state.pop("cards")
        for _, rec in state["board"]["#map"]:
            rec["isTapped"] = rec.pop("tapped")
        state["phase"] = "main1"
        state["EDITION"] = "M10"
    raw["vars"] = ["board", "players", "phase", "mbt::actionTaken", "mbt::nondetPicks"]
    raw["params"] = ["EDITION"]
    mapping = tmp_path / "map.yaml"
    mapping.write_text(
        (QUINT / "regen.map.yaml").read_text(encoding="utf-8")
        + "vars: {board: cards, phase: game.step}\n"
        + "fields: {cards: {isTapped: tapped}}\n"
        + "params: {EDITION: edition}\n",
        encoding="utf-8",
    )
    path = write(tmp_path, raw, "renamed.itf.json")
    trace = read_trace(path, load_map(mapping))
    assert trace.start.edition is Edition.M10 and trace.params == {"edition": Edition.M10}
    assert trace.steps[0].observation.game == {"step": "main1"}
    assert check_trace(trace).verdict is Verdict.PASSED
    raw["states"][3]["board"]["#map"][1][1]["isTapped"] = "yes"
    with pytest.raises(FormatError) as info:
        read_trace(write(tmp_path, raw, "renamed.itf.json"), load_map(mapping))
    assert info.value.field == "states[3].board.troll.isTapped"
    assert "expected true or false" in info.value.message
    text = json.dumps(raw, indent=1).splitlines()
    assert '"yes"' in text[info.value.line - 1]


def test_a_bad_mapping_file_is_one_error_line(tmp_path: Path) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text("vars:\n  board: cardz\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_map(mapping)
    assert (info.value.line, info.value.field) == (2, "vars.board")
    assert check_file(QUINT / "regen.itf.json", "--map", str(mapping)) == 2


# --- params and loop ------------------------------------------------------------------------------


def test_params_are_set_in_state_0_and_constant(tmp_path: Path, troll_and_bear: Start) -> None:
    data = trace_of(troll_and_bear, A.CreateShield(target="bear"))
    data["params"] = ["edition"]
    for state in data["states"]:
        state["edition"] = "FDN"
    assert read_trace(write(tmp_path, data)).params == {"edition": Edition.FDN}
    changed = copy.deepcopy(data)
    changed["states"][1]["edition"] = "M10"
    unset = copy.deepcopy(data)
    del unset["states"][0]["edition"]
    unknown = copy.deepcopy(data)
    unknown["params"] = ["N"]
    against = copy.deepcopy(data)
    for state in against["states"]:
        state["edition"] = "M10"
    for bad, field, message in (
        (changed, "states[1].edition", "changes in state 1"),
        (unset, "states[0]", "must be set in state 0"),
        (unknown, "params[0]", "unknown parameter 'N'"),
        (against, "states[0].edition", "disagrees with #meta.setup"),
    ):
        with pytest.raises(FormatError) as info:
            read_trace(write(tmp_path, bad))
        assert info.value.field == field and message in info.value.message


def _lasso(
    start: Start, loop: int, *actions: A.Action, back: A.Action | None = None
) -> dict[str, Any]:
    data = trace_of(start, *actions)
    data["loop"] = loop
    if back is not None:
        data["#meta"]["loop_action"] = action_to_json(back, start.players)
    return data


def test_a_loop_that_repeats_is_explained() -> None:
    """Cleanup forever, the step back logged in ``#meta.loop_action``."""
    start = Start(("A", "B"), (card("troll", "Horned Troll", 0),))
    data = _lasso(start, 1, A.Cleanup(), back=A.Cleanup())
    report = check_trace(parse_trace(json.dumps(data), "lasso.itf.json"))
    assert report.verdict is Verdict.PASSED
    assert report.loop == 1 and report.laps == 1
    assert "closes after 1 lap" in report.note


def test_an_unlogged_step_back_is_searched() -> None:
    """A destroyed troll, then nothing but cleanups: the step back is found among the
    actions that keep the observed state (cleanup, a state-based-action check, ...)."""
    start = Start(("A", "B"), (card("troll", "Horned Troll", 0),))
    data = _lasso(start, 2, A.Destroy(targets=("troll",)), A.Cleanup())
    report = check_trace(parse_trace(json.dumps(data), "lasso.itf.json"))
    assert report.verdict is Verdict.PASSED, report.note
    assert report.gap_steps >= 1


def test_a_loop_the_rules_cannot_close_fails_on_its_lap(tmp_path: Path) -> None:
    """Back from the graveyard to the battlefield is no action of the rules."""
    start = Start(("A", "B"), (card("troll", "Horned Troll", 0),))
    data = _lasso(start, 0, A.Destroy(targets=("troll",)))
    report = check_trace(parse_trace(json.dumps(data), "lasso.itf.json"))
    assert report.verdict is Verdict.FAILED
    assert report.failure is not None and report.failure.step == 0
    assert "lap 1 of the loop back to state 0" in report.note
    bad = dict(data, loop=5)
    with pytest.raises(FormatError) as info:
        read_trace(write(tmp_path, bad))
    assert info.value.field == "loop" and "0..1" in info.value.message


def test_a_loop_whose_state_keeps_growing_is_unknown() -> None:
    """A destruction replaced by a shield, a new shield, forever: every lap is explained,
    but the used shields pile up (shield#N counts them), so the rules' state never repeats
    and no number of laps proves the loop."""
    troll = card("troll", "Horned Troll", 0, tapped=True, shields=shields("Regenerate"))
    data = _lasso(
        Start(("A", "B"), (troll,)),
        1,
        A.Destroy(targets=("troll",)),
        A.CreateShield(target="troll"),
        back=A.Destroy(targets=("troll",)),
    )
    report = check_trace(parse_trace(json.dumps(data), "lasso.itf.json"))
    assert report.verdict is Verdict.UNKNOWN
    assert f"did not close within {MAX_LAPS} laps" in report.note


def test_an_unserializable_value_is_unobserved(tmp_path: Path, troll_and_bear: Start) -> None:
    """ITF's ``#unserializable`` (a value the writer could not write) is read as absent."""
    data = trace_of(
        troll_and_bear, A.DealDamage(source="x", shares=(A.DamageShare(1, card="bear"),))
    )
    card_fields(data, 1, "bear")["damage"] = {"#unserializable": "Damage(1)"}
    trace = read_trace(write(tmp_path, data))
    assert "damage" not in trace.steps[0].observation.cards["bear"]
    assert check_trace(trace).verdict is Verdict.PASSED
