"""Helpers shared by the conformance tests: small starts, card specs and ITF trace editing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from regen_model.conform.case import Case, to_trace
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.state import Shield

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "engines"
ENGINES = Path(__file__).resolve().parent / "engines"


def card(handle: str, name: str, owner: int = 0, **fields: Any) -> CardSpec:
    return CardSpec(handle, PERMANENT_CARDS[name], owner, **fields)


def shields(*origins: str, creator: int = 0) -> tuple[Shield, ...]:
    return tuple(Shield(o, creator, Rider.NONE) for o in origins)


def trace_of(start: Start, *actions: Action) -> dict[str, Any]:
    """The reference run as a fully observed ITF trace."""
    return to_trace(Case("t", start, tuple(actions)))


def write(tmp_path: Path, data: dict[str, Any], name: str = "t.itf.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def card_fields(data: dict[str, Any], index: int, handle: str) -> dict[str, Any]:
    """The card record of ``handle`` in state ``index`` (to edit)."""
    for h, rec in data["states"][index]["cards"]["#map"]:
        if h == handle:
            assert isinstance(rec, dict)
            return rec
    raise KeyError(handle)


def keep_only(data: dict[str, Any], fields: dict[str, list[str]]) -> dict[str, Any]:
    """A copy where each card keeps only some fields in every state (partial observation);
    players, game and events are dropped."""
    out = copy.deepcopy(data)
    for state in out["states"]:
        state["cards"]["#map"] = [
            [h, {k: v for k, v in rec.items() if k in fields.get(h, [])}]
            for h, rec in state["cards"]["#map"]
            if h in fields
        ]
        for var in ("players", "game", "events"):
            state.pop(var, None)
    return out


def knight_destroyed_twice_unlogged_choice(shield_origin: str) -> dict[str, Any]:
    """Knight of the Holy Nimbus (static regeneration) with one shield is destroyed (its
    controller picks static regeneration, 616.1), then destroyed with "can't be
    regenerated"; the log leaves out every 616.1 answer."""
    start = Start(
        ("A", "B"),
        (card("knight", "Knight of the Holy Nimbus", 0, shields=shields(shield_origin)),),
    )
    use_static = (A.ReplacementChoice("knight", 0, "static"),)
    data = trace_of(
        start,
        A.Destroy(targets=("knight",), choices=use_static),
        A.Destroy(targets=("knight",), cant_be_regenerated=True),
    )
    for state in data["states"][1:]:
        state["#meta"]["action"].pop("choices", None)
    return data
