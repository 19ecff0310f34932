"""Serve any Python engine adapter over the JSON-lines protocol (``jsonl.py``).

    python -m regen_model.conform.serve ENGINE

runs the adapter named ENGINE (any ``--engine`` name: ``reference``, ``reference:MUTANT``,
``phase``, an entry point, ``python:MODULE:FACTORY``) as a JSON-lines engine. The
cross-checker uses it for ``crosscheck --isolate``: the adapter then runs in a child process,
so a hang inside it (phase.rs runs in-process and cannot be interrupted) is cut by the
per-request timeout instead of hanging the checker. It is also a reference implementation of
the engine side of the protocol.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from typing import IO, Any

from regen_model.conform.adapter import (
    ActionRejected,
    EngineAdapter,
    SpecStep,
    StepUnsupported,
    UnknownEngine,
    apply_step,
    engine_factory,
    lacked_features,
    resync,
)
from regen_model.conform.codec import Players, action_from_json
from regen_model.conform.jsonpos import FieldError
from regen_model.conform.observe import Observation
from regen_model.conform.start import Start
from regen_model.engine import EngineError, step
from regen_model.model.actions import ACTION_BY_KIND
from regen_model.model.state import GameState


def handle(
    adapter: EngineAdapter,
    request: dict[str, Any],
    players: list[Players],
    mirror: list[GameState] | None = None,
) -> dict[str, Any]:
    """One request, one reply. ``players`` holds the current game's player names, ``mirror``
    the specification's state of the current game (for adapters that follow its steps)."""
    if mirror is None:
        mirror = []
    op = request.get("op")
    if op == "hello":
        return {
            "ok": True,
            "name": adapter.name,
            "version": adapter.version,
            "actions": sorted(ACTION_BY_KIND),
            "supports": True,
            "lacks": sorted(lacked_features(adapter)),
            "spec_steps": hasattr(adapter, "apply_step"),
            "resync": hasattr(adapter, "resync"),
        }
    if op == "supports":
        start = Start.from_json(request["state"])
        p = Players(start.players)
        actions = [action_from_json(a, p) for a in request.get("actions", [])]
        found = adapter.supports(start.build(), actions)
        if found is None:
            return {"ok": True, "supported": True}
        return {"ok": True, "supported": False, "reason": found.reason}
    if op == "start":
        start = Start.from_json(request["state"])
        players[0] = Players(start.players)
        mirror[:] = [start.build()]
        adapter.start(mirror[0])
        return {"ok": True}
    if op == "resync":
        start = Start.from_json(request["state"])
        players[0] = Players(start.players)
        mirror[:] = [start.build()]
        if resync(adapter, mirror[0]):
            return {"ok": True}
        return {"ok": False, "unsupported": "this engine cannot resync here"}
    if op == "apply":
        action = action_from_json(request["action"], players[0])
        try:
            if "spec" in request and hasattr(adapter, "apply_step"):
                # Over the wire the spec's own state is not sent: the adapter gets the start that
                # builds the state it reached, when there is one (the projection is in "after").
                # ``SpecStep.state`` is not sent over the wire: the server follows the game on
                # the reference engine itself (the checker sends only actions it accepts).
                spec = request["spec"]
                after = Observation.from_json(spec.get("after", {}), "spec.after")
                mirror[:] = [step(mirror[0], action).state]
                apply_step(adapter, action, SpecStep(tuple(spec.get("did", ())), after, mirror[0]))
            else:
                adapter.apply(action)
                if mirror:
                    with contextlib.suppress(EngineError):
                        mirror[:] = [step(mirror[0], action).state]
        except ActionRejected as exc:
            return {"ok": False, "error": exc.message}
        except StepUnsupported as exc:
            return {"ok": False, "unsupported": str(exc)}
        return {"ok": True}
    if op == "observe":
        return {"ok": True, "observation": adapter.observe().to_json()}
    if op == "close":
        adapter.close()
        return {"ok": True}
    return {"ok": False, "error": f"unknown op {op!r}"}


def serve(adapter: EngineAdapter, stdin: IO[str], stdout: IO[str]) -> None:
    players = [Players()]
    mirror: list[GameState] = []
    for line in stdin:
        if not line.strip():
            continue
        request: Any = None
        try:
            request = json.loads(line)
            reply = handle(adapter, request, players, mirror)
        except (FieldError, KeyError, ValueError) as exc:
            reply = {"ok": False, "error": f"bad request: {exc}"}
        except Exception as exc:  # report, keep serving: the checker decides what to do
            traceback.print_exc(file=sys.stderr)
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if isinstance(request, dict) and request.get("op") == "close":
            return


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m regen_model.conform.serve ENGINE", file=sys.stderr)
        return 2
    try:
        adapter = engine_factory(args[0])()
    except UnknownEngine as exc:  # one line on stderr: the checker quotes it
        print(f"serve: {exc}", file=sys.stderr)
        return 2
    serve(adapter, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
