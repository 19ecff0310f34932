"""Machine output of ``regen-model run --json`` (the shape is documented in docs/scenarios.md).

Everything is plain JSON: enums as their file spellings, actions as the engine received them
(players by index, cards by handle), events with their clause and the clause's current rule
numbers, and every expectation with its outcome. ``format`` and ``version`` let consumers
detect changes to the shape.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from regen_model.model.actions import Action
from regen_model.model.events import Event
from regen_model.scenario import clause_info
from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.run import CheckResult, EventResult, ScenarioResult
from regen_model.verdicts import EXIT_INPUT_ERROR, Verdict, exit_code, worst

FORMAT = "regen-model/run"
VERSION = 1


def run_document(results: list[ScenarioResult], errors: list[ScenarioError]) -> dict[str, Any]:
    verdict = worst(r.verdict for r in results) if results else Verdict.PASSED
    code = EXIT_INPUT_ERROR if errors else exit_code(r.verdict for r in results)
    return {
        "format": FORMAT,
        "version": VERSION,
        "verdict": "INPUT_ERROR" if errors else verdict.value,
        "exit_code": code,
        "scenarios": [scenario_json(r) for r in results],
        "errors": [error_json(e) for e in errors],
    }


def error_json(error: ScenarioError) -> dict[str, Any]:
    return {
        "file": error.file,
        "line": error.line,
        "field": error.field,
        "message": error.message,
        "text": str(error),
    }


def scenario_json(result: ScenarioResult) -> dict[str, Any]:
    sc = result.scenario
    return {
        "file": sc.file,
        "name": sc.name,
        "description": sc.description,
        "edition": sc.edition.value,
        "clauses": list(sc.clauses),
        "verdict": result.verdict.value,
        "seconds": round(result.seconds, 6),
        "events": [step_json(result, s) for s in result.steps],
        "final": [check_json(c) for c in result.final],
    }


def step_json(result: ScenarioResult, step: EventResult) -> dict[str, Any]:
    ev = step.event
    return {
        "index": ev.index,
        "line": ev.line,
        "kind": ev.kind,
        "args": ev.args,
        "note": ev.note or None,
        "actions": [action_json(a) for a in step.actions],
        "engine_events": [event_json(e, result) for e in step.events],
        "error": step.error,
        "checks": [check_json(c) for c in step.checks],
        "ok": step.ok,
    }


def event_json(e: Event, result: ScenarioResult) -> dict[str, Any]:
    return {
        "kind": e.kind.value,
        "clause": e.clause,
        "rules": clause_info.rule_numbers(e.clause, result.scenario.edition),
        "subject": e.subject,
        "data": dict(e.data),
    }


def check_json(c: CheckResult) -> dict[str, Any]:
    return {
        "what": c.what,
        "line": c.line,
        "expected": c.expected,
        "actual": c.actual,
        "ok": c.ok,
    }


def action_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": action.kind}
    out.update(_plain(action))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
