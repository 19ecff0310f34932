#!/usr/bin/env python3
"""A deliberately buggy JSON-lines engine: its board wipes ignore "can't be regenerated".

A real bug of that kind shipped in more than one engine: the single-target "destroy, it can't
be regenerated" path honoured the rider, the "destroy all" path did not. Here every
destruction of several permanents at once (Wrath of God, a destroy of several targets) drops
the rider; everything else is the reference engine (``jsonl_reference.py``).

    regen-model crosscheck --engine "jsonl:python examples/engines/jsonl_buggy.py"

finds it and shrinks it to a two- or three-step scenario.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from jsonl_reference import Game, serve

from regen_model.model import actions as A
from regen_model.model.effects import EffectKind
from regen_model.model.rules import CORRECT


class BuggyGame(Game):
    def transform(self, action: A.Action) -> A.Action:
        if isinstance(action, A.Destroy) and len(action.targets) > 1:
            return dataclasses.replace(action, cant_be_regenerated=False)
        if (
            isinstance(action, A.CastSpell)
            and action.effect.kind is EffectKind.DESTROY_ALL_CREATURES
        ):
            effect = dataclasses.replace(action.effect, cant_regen=False)
            return dataclasses.replace(action, effect=effect)
        return action

    def handle(self, request: dict[str, object]) -> dict[str, object]:
        reply = super().handle(request)
        if request.get("op") == "hello":
            reply["name"] = "jsonl-buggy"
        return reply


if __name__ == "__main__":
    serve(BuggyGame(CORRECT))
