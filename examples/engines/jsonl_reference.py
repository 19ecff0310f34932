#!/usr/bin/env python3
"""A JSON-lines engine that wraps the regen-model reference engine.

This is the engine side of the protocol of docs/crosscheck.md, written out in full so that it
can be ported to any language: read one JSON request per line from stdin, write exactly one
JSON reply per line to stdout, flush after each reply, log to stderr only.

    regen-model crosscheck --engine "jsonl:python examples/engines/jsonl_reference.py"

Since it runs our own engine, the crosscheck must find no divergence; with ``--mutant NAME``
it runs a deliberately wrong rule variant instead (``reference:NAME`` over a pipe).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from regen_model.conform.adapter import package_version, parse_rules
from regen_model.conform.codec import Players, action_from_json
from regen_model.conform.observe import project
from regen_model.conform.start import Start
from regen_model.engine import EngineError, step
from regen_model.model.actions import ACTION_BY_KIND, Action
from regen_model.model.enums import Edition
from regen_model.model.events import Event
from regen_model.model.rules import Rules
from regen_model.model.state import GameState


class Game:
    """The engine's own state between requests."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.state: GameState | None = None
        self.events: tuple[Event, ...] = ()
        self.players = Players()

    def transform(self, action: Action) -> Action:
        """Hook for deliberately buggy variants (see jsonl_buggy.py)."""
        return action

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "hello":
            return {
                "ok": True,
                "name": "jsonl-reference",
                "version": package_version(),
                "actions": sorted(ACTION_BY_KIND),
                "editions": [e.value for e in Edition],
            }
        if op == "start":
            start = Start.from_json(request["state"])
            self.state, self.events = start.build(), ()
            self.players = Players(start.players)
            return {"ok": True}
        if self.state is None:
            return {"ok": False, "error": f"{op!r} before 'start'"}
        if op == "apply":
            action = self.transform(action_from_json(request["action"], self.players))
            try:
                self.state, self.events = step(self.state, action, self.rules)
            except EngineError as exc:  # an illegal action: say why, keep the game as it was
                return {"ok": False, "error": str(exc)}
            return {"ok": True}
        if op == "observe":
            return {"ok": True, "observation": project(self.state, self.events).to_json()}
        if op == "close":
            return {"ok": True}
        return {"ok": False, "error": f"unknown op {op!r}"}


def serve(game: Game) -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = game.handle(request)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if request.get("op") == "close":
            break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutant", default=None, help="run a mutant of the rules")
    args = parser.parse_args()
    serve(Game(parse_rules(args.mutant)))


if __name__ == "__main__":
    main()
