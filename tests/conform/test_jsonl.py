"""The JSON-lines protocol end to end, and engines that crash, hang or talk nonsense.

A misbehaving engine must never take the checker down: each failure is recorded as an
engine error, the engine is restarted, the run goes on, and every result is already in
results.jsonl when the run ends.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from regen_model.conform.adapter import ActionRejected, EngineFailure
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.differential import crosscheck
from regen_model.conform.jsonl import JsonlAdapter
from regen_model.conform.observe import project
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.verdicts import Verdict

from .helpers import ENGINES, EXAMPLES

REFERENCE = [sys.executable, str(EXAMPLES / "jsonl_reference.py")]
BUGGY = [sys.executable, str(EXAMPLES / "jsonl_buggy.py")]
SERVE = [sys.executable, "-m", "regen_model.conform.serve"]


def misbehaving(mode: str, nth: int = 1) -> list[str]:
    return [sys.executable, str(ENGINES / "misbehaving.py"), mode, str(nth)]


def _cases(start: Start, n: int = 3) -> list[Case]:
    actions = (A.Destroy(targets=("troll",)), A.Destroy(targets=("troll",)), A.Cleanup())
    return [Case(f"c{i}", start, actions) for i in range(n)]


def test_the_reference_over_a_pipe_agrees_and_speaks_the_schema(troll_and_bear: Start) -> None:
    adapter = JsonlAdapter(REFERENCE, timeout=20)
    try:
        assert adapter.name == "jsonl-reference"
        state = troll_and_bear.build()
        assert adapter.supports(state, ()) is None
        adapter.start(state)
        assert adapter.observe().cards == project(state).cards
        adapter.apply(A.Destroy(targets=("troll",)))
        assert adapter.observe().cards["troll"]["tapped"] is True
        adapter.apply(A.Sacrifice(target="bear"))
        with pytest.raises(ActionRejected, match="not on the battlefield"):
            adapter.apply(A.Sacrifice(target="bear"))
        assert adapter.observe().cards["bear"] == {"zone": "graveyard"}
    finally:
        adapter.close()


def test_messages_follow_the_protocol_schema(troll_and_bear: Start) -> None:
    from regen_model.conform.schemas import jsonl_schema

    schema = jsonl_schema()
    defs = schema["$defs"]

    def valid(kind: str, message: object) -> None:
        jsonschema.validate(message, {"$defs": defs, "$ref": f"#/$defs/{kind}"})

    from regen_model.conform.codec import action_to_json

    valid("request", {"op": "hello"})
    valid("request", {"op": "start", "state": troll_and_bear.to_json()})
    valid("request", {"op": "apply", "action": action_to_json(A.Destroy(targets=("troll",)))})
    valid("observe_reply", {"ok": True, "observation": project(troll_and_bear.build()).to_json()})
    valid("error_reply", {"ok": False, "error": "no"})
    with pytest.raises(jsonschema.ValidationError):
        valid("request", {"op": "apply", "action": {"kind": "destroy", "target": "troll"}})
    with pytest.raises(jsonschema.ValidationError):
        valid("request", {"op": "dance"})


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("crash", "engine exited (code 3)"),
        ("garbage", "non-JSON reply"),
        ("wrong", 'is not {"ok": true|false'),
        ("bad-observation", "bad observation: cards.troll.tapped"),
    ],
)
def test_a_misbehaving_engine_is_reported_and_restarted(
    tmp_path: Path, troll_and_bear: Start, mode: str, expected: str
) -> None:
    out = tmp_path / "out"
    report = crosscheck(
        lambda: JsonlAdapter(misbehaving(mode, 2), timeout=20),
        _cases(troll_and_bear),
        out_dir=out,
    )
    assert report.counts[Outcome.ENGINE_ERROR] == 3  # every case, after a restart each time
    assert all(expected in err for _, err in report.errors), report.errors
    if mode == "crash":
        assert "panic: index out of range" in report.errors[0][1]  # stderr is quoted
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert [x["outcome"] for x in lines] == ["engine-error"] * 3
    assert (out / "report.md").exists()


def test_a_hanging_engine_is_timed_out(troll_and_bear: Start) -> None:
    started = time.perf_counter()
    report = crosscheck(
        lambda: JsonlAdapter(misbehaving("hang", 1), timeout=1.0), _cases(troll_and_bear, 2)
    )
    assert report.counts[Outcome.ENGINE_ERROR] == 2
    assert "no reply to 'apply' within 1s" in report.errors[0][1]
    assert time.perf_counter() - started < 20


def test_an_engine_that_cannot_start_stops_the_run_with_an_error(
    troll_and_bear: Start,
) -> None:
    report = crosscheck(lambda: JsonlAdapter(misbehaving("no-hello")), _cases(troll_and_bear))
    assert report.stopped_early
    assert report.verdict is Verdict.DIVERGED
    assert "cannot start: missing card database" in report.errors[0][1]
    with pytest.raises(EngineFailure, match="cannot start"):
        JsonlAdapter(["/nonexistent/engine"]).supports(troll_and_bear.build(), ())


def test_an_engine_rejecting_a_legal_action_diverges(troll_and_bear: Start) -> None:
    adapter = JsonlAdapter(misbehaving("reject"), timeout=20)
    try:
        result = run_case(_cases(troll_and_bear, 1)[0], adapter)
    finally:
        adapter.close()
    assert result.outcome is Outcome.DIVERGED
    assert result.divergence is not None
    assert result.divergence.rejected == "not implemented"


def test_the_buggy_example_engine_is_caught_and_shrunk(
    tmp_path: Path, witnesses: list[Case]
) -> None:
    report = crosscheck(
        lambda: JsonlAdapter(BUGGY, timeout=20), witnesses, out_dir=tmp_path, stop_after=1
    )
    assert report.verdict is Verdict.DIVERGED
    (finding,) = report.findings
    assert finding.minimal_steps <= 3
    assert "regen.cant.rider" in finding.divergence.clauses
    assert any(p.endswith(".observed.itf.json") for p in finding.files)


def test_any_python_engine_can_be_served_over_the_protocol(troll_and_bear: Start) -> None:
    report = crosscheck(
        lambda: JsonlAdapter([*SERVE, "reference:regen-does-not-tap"], timeout=20),
        _cases(troll_and_bear, 1),
    )
    assert report.verdict is Verdict.DIVERGED
    assert report.findings[0].divergence.diffs[0].path == "cards.troll.tapped"
