"""The JSON Schema of every command's ``--json`` document, defined once here.

The shipped files ``regen_model/schemas/<command>.schema.json`` are written from these
definitions (``python -m regen_model.schemas.define``) and ``tests/test_json_schemas.py``
fails when a file differs from what this module makes, so the two cannot drift. Each schema
describes the whole document: the envelope every command shares (``regen_model.jsondoc``),
then every key of the command's body with its type, the keys always present as ``required``,
and the verdicts, outcomes and methods as enums taken from the enums the code uses.
Objects stay open (a new key is not a breaking change; a removed or retyped one is, and raises
the format's ``version``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from regen_model.verdicts import Verdict

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
COUNT: Schema = {"type": "integer", "minimum": 0}
NUMBER: Schema = {"type": "number"}
SECONDS: Schema = {"type": "number", "minimum": 0}
BOOL: Schema = {"type": "boolean"}
OBJECT: Schema = {"type": "object"}
ANY: Schema = {}
VERDICT: Schema = {"enum": [v.value for v in Verdict]}
EXIT_CODE: Schema = {"type": "integer", "minimum": 0, "maximum": 255}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def strings() -> Schema:
    return array(STRING)


def record(required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """An object with these keys (``required`` always present)."""
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional or {})},
    }


def counts_of(names: list[str]) -> Schema:
    """``{name: count}`` for names of an enum."""
    return {
        "type": "object",
        "propertyNames": {"enum": names},
        "additionalProperties": COUNT,
    }


def document(
    command: str,
    title: str,
    body: dict[str, Schema],
    optional: dict[str, Schema] | None = None,
    *,
    verdict: Schema = VERDICT,
    variants: list[Schema] | None = None,
) -> Schema:
    """The schema of ``regen-model/<command>``: the envelope and ``body``; ``variants``: the
    other shapes the document may take instead of ``body`` (a listing, an error)."""
    envelope: dict[str, Schema] = {
        "format": {"const": f"regen-model/{command}"},
        "version": {"type": "integer", "minimum": 1},
        "verdict": verdict,
        "exit_code": EXIT_CODE,
        "incomplete": BOOL,
        "interrupted_by": {"enum": [None, "SIGINT", "SIGTERM"]},
    }
    shapes = [record(body, optional), *(variants or [])]
    out: Schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"regen-model/{command}.schema.json",
        "title": f"regen-model {command} --json",
        "description": title,
        **record(envelope),
    }
    out["oneOf" if len(shapes) > 1 else "allOf"] = shapes
    return out


# --- shared pieces -------------------------------------------------------------------------

ITF_TRACE = record(
    {"#meta": OBJECT, "vars": strings(), "states": array(OBJECT)},
    {"params": ANY, "loop": nullable(COUNT)},
)
OBSERVATION = record({"cards": OBJECT, "players": OBJECT, "game": OBJECT})
FIELD_DIFF = record({"path": STRING, "expected": ANY, "observed": ANY})
ACTION = record({"kind": STRING})


def methods() -> list[str]:
    from regen_model.checks.results import Method

    return [m.value for m in Method]


# --- the commands ---------------------------------------------------------------------------


def run_schema() -> Schema:
    check = record(
        {"what": STRING, "line": nullable(COUNT), "expected": ANY, "actual": ANY, "ok": BOOL}
    )
    event = record(
        {"kind": STRING, "clause": STRING, "rules": STRING, "subject": ANY, "data": OBJECT}
    )
    step = record(
        {
            "index": COUNT,
            "line": nullable(COUNT),
            "kind": STRING,
            "args": ANY,
            "note": nullable(STRING),
            "actions": array(ACTION),
            "engine_events": array(event),
            "error": nullable(STRING),
            "checks": array(check),
            "ok": BOOL,
        }
    )
    scenario = record(
        {
            "file": STRING,
            "name": STRING,
            "description": STRING,
            "edition": STRING,
            "clauses": strings(),
            "verdict": VERDICT,
            "seconds": SECONDS,
            "events": array(step),
            "final": array(check),
        }
    )
    error = record(
        {
            "file": STRING,
            "line": nullable(COUNT),
            "field": nullable(STRING),
            "message": STRING,
            "text": STRING,
        }
    )
    return document(
        "run",
        "Scenario files played on the reference engine: each event, the engine's events with "
        "their clauses, every expectation; files that could not be loaded under errors "
        "(verdict INPUT_ERROR, exit code 2).",
        {"scenarios": array(scenario), "errors": array(error)},
        verdict={"enum": [*VERDICT["enum"], "INPUT_ERROR"]},
    )


def verify_schema() -> Schema:
    row = record(
        {
            "item": STRING,
            "verdict": VERDICT,
            "seconds": SECONDS,
            "details": {"type": "object", "additionalProperties": STRING},
            "message": STRING,
        }
    )
    section = record(
        {
            "name": STRING,
            "title": STRING,
            "seconds": SECONDS,
            "verdict": VERDICT,
            "rows": array(row),
        }
    )
    return document(
        "verify",
        "The sections of the main job, each with its rows and verdict; not_run: sections a "
        "stopped run did not reach.",
        {
            "not_run": strings(),
            "seconds": SECONDS,
            "exit_codes": {"type": "object", "additionalProperties": EXIT_CODE},
            "sections": array(section),
        },
    )


def prove_schema() -> Schema:
    method = {"enum": methods()}
    obligation = record(
        {
            "invariant": STRING,
            "method": method,
            "obligation": STRING,
            "action": nullable(STRING),
            "verdict": VERDICT,
            "clauses": strings(),
            "uses": strings(),
            "seconds": SECONDS,
        },
        {"reason": STRING, "depth": COUNT, "superseded_by": STRING, "evidence": ANY},
    )
    row = record(
        {
            "invariant": STRING,
            "method": method,
            "verdict": VERDICT,
            "applicable": BOOL,
            "clauses": strings(),
            "seconds": SECONDS,
            "reason": STRING,
            "obligations": array(obligation),
        }
    )
    return document(
        "prove",
        "One row per invariant and method, with the obligations it was made of.",
        {
            "z3": STRING,
            "scope": STRING,
            "counts": counts_of(VERDICT["enum"]),
            "seconds": SECONDS,
            "rows": array(row),
        },
    )


def find_schema() -> Schema:
    from regen_model.checks.bmc import Found

    listing = record({"examples": array(record({"name": STRING, "says": STRING, "query": STRING}))})
    disagreement = record(
        {
            "query": STRING,
            "disagreement": record(
                {"step": COUNT, "field": STRING, "solver": STRING, "engine": STRING}
            ),
        }
    )
    return document(
        "find",
        "The shortest run to what the query describes (trace: ITF, replayed on the engine); "
        "or, for --list-examples, the example queries; or, when the engine disagrees with the "
        "solver's run (exit 7), where.",
        {
            "query": STRING,
            "description": STRING,
            "scope": STRING,
            "source": STRING,
            "max_depth": COUNT,
            "found": {"enum": [f.value for f in Found]},
            "depth": nullable(COUNT),
            "seconds": SECONDS,
        },
        {"reason": STRING, "trace": ITF_TRACE},
        verdict=nullable(VERDICT),
        variants=[listing, disagreement],
    )


def check_trace_schema() -> Schema:
    candidate = record({"action": ANY, "diffs": array(FIELD_DIFF), "clauses": strings()})
    failure = record(
        {
            "step": COUNT,
            "reason": STRING,
            "logged_action": ANY,
            "states_before": array(OBSERVATION),
            "frontier_size": COUNT,
            "closest": nullable(candidate),
            "rejected": strings(),
            "clauses": strings(),
        }
    )
    error = record(
        {
            "error": record(
                {
                    "file": STRING,
                    "line": nullable(COUNT),
                    "col": nullable(COUNT),
                    "field": STRING,
                    "message": STRING,
                }
            )
        }
    )
    return document(
        "check-trace",
        "Whether some run of the specification explains the trace, and if not the first "
        "unmatched step; or, for a file that cannot be read (exit 2), where it is wrong.",
        {
            "file": STRING,
            "steps": COUNT,
            "matched": COUNT,
            "gap_steps": COUNT,
            "max_frontier": COUNT,
            "truncated": BOOL,
            "resolver": STRING,
            "elapsed_s": SECONDS,
            "note": STRING,
            "clauses": strings(),
            "step_clauses": array(strings()),
            "loop": nullable(COUNT),
            "laps": COUNT,
            "failure": nullable(failure),
        },
        verdict=nullable(VERDICT),
        variants=[error],
    )


def explore_schema() -> Schema:
    from regen_model.explore import ActionFamily

    scope = record(
        {
            name: COUNT
            for name in (
                "cards",
                "shields",
                "stack",
                "pending",
                "targets",
                "max_amount",
                "max_power",
                "max_toughness",
            )
        }
    )
    config = record(
        {
            "cards": strings(),
            "count": COUNT,
            "editions": strings(),
            "start_step": STRING,
            "family": {"enum": [f.value for f in ActionFamily]},
            "spells": nullable(strings()),
            "depth": COUNT,
            "rules": STRING,
            "scope": scope,
        }
    )
    violation = record(
        {
            "invariant": STRING,
            "message": STRING,
            "length": COUNT,
            "actions": strings(),
            "itf": nullable(STRING),
        }
    )
    return document(
        "explore",
        "Every state within a bounded scope explored and every invariant checked: the counts, "
        "and the shortest counterexample to each invariant violated.",
        {
            "reason": STRING,
            "config": config,
            "starts": COUNT,
            "states": COUNT,
            "transitions": COUNT,
            "candidates": COUNT,
            "pruned": COUNT,
            "depth_reached": COUNT,
            "levels": array(COUNT),
            "exhausted": BOOL,
            "seconds": SECONDS,
            "invariants": strings(),
            "violations": array(violation),
        },
    )


def mutants_schema() -> Schema:
    kill = record(
        {
            "invariant": STRING,
            "route": STRING,
            "length": COUNT,
            "where": ANY,
            "actions": strings(),
        }
    )
    scenario = record({"file": STRING, "reason": STRING})
    row = record(
        {
            "rules": STRING,
            "killed": BOOL,
            "kills": array(kill),
            "scenarios": array(scenario),
            "states": COUNT,
            "seconds": SECONDS,
        },
        {"wrong": STRING, "clauses": strings()},
    )
    listing = record(
        {"mutants": array(record({"mutant": STRING, "wrong": STRING, "clauses": strings()}))}
    )
    return document(
        "mutants",
        "The mutant x invariant matrix (the correct rules as baseline, then each mutant: what "
        "kills it); or, for --list, the mutants and the clauses each breaks.",
        {
            "routes": strings(),
            "battery": strings(),
            "invariants": strings(),
            "baseline": row,
            "mutants": array(row),
            "surviving_mutants": strings(),
            "unkilled_invariants": strings(),
            "excluded_scenarios": array(scenario),
            "seconds": SECONDS,
        },
        verdict=nullable(VERDICT),
        variants=[listing],
    )


# a branch of one view (``encoding.branches.Branch.to_json``)
BRANCH: dict[str, Schema] = {
    "module": STRING,
    "function": STRING,
    "line": COUNT,
    "code": STRING,
    "outcome": STRING,
    "clauses": {"type": "array", "items": STRING},
}


def agree_schema() -> Schema:
    from regen_model.encoding.agreement import Status

    tally = record(
        {
            "states": COUNT,
            "checks": COUNT,
            "seconds": SECONDS,
            "outcomes": counts_of([s.value for s in Status]),
            "enabled_by_kind": {"type": "object", "additionalProperties": COUNT},
            "refused_by_kind": {"type": "object", "additionalProperties": COUNT},
        }
    )
    branch = record(
        {
            **BRANCH,
            "exercised": BOOL,
        },
        {"unreachable": STRING},
    )
    view = record({"exercised": COUNT, "reachable": COUNT, "branches": array(branch)})
    disagreement = record(
        {
            "search": STRING,
            "depth": COUNT,
            "action": STRING,
            "description": STRING,
            "clauses": strings(),
        }
    )
    return document(
        "agree",
        "The bounded agreement of the engine and the Z3 relation: per search and in total, "
        "the disagreements with their clauses, and the branches of both views exercised.",
        {
            "rules": STRING,
            "scope": STRING,
            "seconds": SECONDS,
            "workers": COUNT,
            "total": tally,
            "searches": {"type": "object", "additionalProperties": tally},
            "disagreements": array(disagreement),
            "z3_problems": strings(),
            "coverage": nullable(record({"engine": view, "relation": view})),
        },
        optional={"driven": nullable(driven_schema())},
    )


def driven_schema() -> Schema:
    """The agreement on solver-chosen states (``encoding/driven.py``), in ``agree``'s
    document: per action kind, and every branch of the relation with its outcome."""
    from regen_model.encoding.driven import Outcome

    per_kind = record(
        {"states": COUNT, "branches_first_taken": COUNT, "queries": COUNT, "seconds": SECONDS}
    )
    branch = record(
        {
            **BRANCH,
            "result": {"enum": [o.value for o in Outcome]},
            "kind": STRING,
        },
        {"solver": STRING},
    )
    disagreement = record(
        {
            "kind": STRING,
            "action": STRING,
            "state": STRING,
            "description": STRING,
            "clauses": strings(),
        }
    )
    return record(
        {
            "verdict": VERDICT,
            "scope": STRING,
            "seconds": SECONDS,
            "workers": COUNT,
            "counts": counts_of([o.value for o in Outcome]),
            "extras": record(
                {
                    "boundary": counts_of([o.value for o in Outcome]),
                    "mixed": counts_of([o.value for o in Outcome]),
                    "crossed": counts_of([o.value for o in Outcome]),
                }
            ),
            "assumed": strings(),
            "dropped": {"type": "object", "additionalProperties": STRING},
            "kinds": {"type": "object", "additionalProperties": per_kind},
            "branches": array(branch),
            "disagreements": array(disagreement),
        }
    )


def crosscheck_schema() -> Schema:
    from regen_model.conform.case import Outcome

    divergence = record(
        {
            "step": COUNT,
            "action": ANY,
            "diffs": array(FIELD_DIFF),
            "clauses": strings(),
            "rejected": STRING,
            "accepted": STRING,
            "expected": ANY,
            "observed": ANY,
        }
    )
    finding = record(
        {
            "signature": strings(),
            "first_case": STRING,
            "occurrences": COUNT,
            "cases": strings(),
            "unshrunk": COUNT,
            "original_steps": COUNT,
            "minimal_steps": COUNT,
            "minimal": record({"start": OBJECT, "actions": array(ACTION)}),
            "divergence": divergence,
            "shrink_calls": COUNT,
            "files": strings(),
        }
    )
    return document(
        "crosscheck",
        "Scenarios run on the reference and on the engine under test: counts per outcome, "
        "and one shrunk finding per root cause of divergence.",
        {
            "engine": STRING,
            "engine_version": STRING,
            "seed": nullable(COUNT),
            "cases": COUNT,
            "counts": counts_of([o.value for o in Outcome]),
            "skip_rate": NUMBER,
            "excluded": COUNT,
            "steps_run": COUNT,
            "fields_compared": COUNT,
            "known": {"type": "object", "additionalProperties": COUNT},
            "masked_steps": COUNT,
            "probe_refusals": BOOL,
            "refusals_probed": COUNT,
            "elapsed_s": SECONDS,
            "first_compared_s": nullable(SECONDS),
            "stopped_early": BOOL,
            "skipped": array(record({"case": STRING, "reason": STRING})),
            "excluded_cases": array(record({"case": STRING, "feature": STRING})),
            "engine_errors": array(record({"case": STRING, "error": STRING})),
            "findings": array(finding),
        },
    )


def export_vectors_schema() -> Schema:
    return document(
        "export-vectors",
        "Conformance vectors written for engines in any language: how many, and the catalog "
        "clauses no vector exercises.",
        {
            "directory": STRING,
            "vectors": COUNT,
            "clauses_covered": COUNT,
            "clauses_in_catalog": COUNT,
            "missing": strings(),
        },
    )


SCHEMAS = {
    "run": run_schema,
    "verify": verify_schema,
    "prove": prove_schema,
    "find": find_schema,
    "check-trace": check_trace_schema,
    "explore": explore_schema,
    "mutants": mutants_schema,
    "agree": agree_schema,
    "crosscheck": crosscheck_schema,
    "export-vectors": export_vectors_schema,
}


def rendered(command: str) -> str:
    """The text of ``<command>.schema.json``."""
    return json.dumps(SCHEMAS[command](), indent=2) + "\n"


def write_all(folder: Path | None = None) -> list[Path]:
    """Write every schema file (into this package's folder by default)."""
    target = folder or Path(__file__).resolve().parent
    written = []
    for command in SCHEMAS:
        path = target / f"{command}.schema.json"
        path.write_text(rendered(command), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(path)
