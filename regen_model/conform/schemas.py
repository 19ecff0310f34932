"""JSON Schemas of the conformance formats, built from the model so they cannot drift.

The schemas (``vector.schema.json`` for conformance vectors, ``jsonl.schema.json`` for the
JSON-lines protocol messages) are shipped as files, for engine authors to validate against.
They are generated here from the same dataclasses the codecs walk (``model/actions.py``,
``CardTemplate``) and from the projection's field list; a test checks that the shipped files
equal what this module builds, and ``python -m regen_model.conform.schemas`` rewrites them.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import StrEnum
from pathlib import Path
from typing import Any, Union, get_args, get_origin

from regen_model.conform import jsonout
from regen_model.conform.codec import PLAYER_FIELDS
from regen_model.conform.observe import _CARD_TYPES, EVENT_KINDS
from regen_model.conform.observe import PLAYER_FIELDS as PFIELDS
from regen_model.conform.start import PERMANENT_FIELDS
from regen_model.model import actions as A
from regen_model.model.cards import CardTemplate
from regen_model.model.enums import Edition, Keyword, Rider, Step, Zone

HERE = Path(__file__).resolve().parent
Schema = dict[str, Any]

PLAYER: Schema = {"$ref": "#/$defs/player"}


def _type_schema(hint: Any, field: str) -> Schema:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(hint) if a is not type(None)]
        return {"anyOf": [_type_schema(inner, field), {"type": "null"}]}
    if origin is frozenset:
        (inner,) = get_args(hint)
        return {"type": "array", "items": _type_schema(inner, field), "uniqueItems": True}
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _type_schema(args[0], field)}
        return {
            "type": "array",
            "prefixItems": [_type_schema(a, field) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return {"enum": [m.value for m in hint]}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return PLAYER if field in PLAYER_FIELDS else {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return record_schema(hint)
    raise TypeError(f"no schema for {hint!r}")  # pragma: no cover - closed model


def record_schema(cls: type, skip: frozenset[str] = frozenset()) -> Schema:
    hints = typing.get_type_hints(cls)
    props: Schema = {}
    required = []
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        props[f.name] = _type_schema(hints[f.name], f.name)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
    out: Schema = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    return out


def action_schema() -> Schema:
    """One ``if kind == K then fields of K`` per action kind."""
    branches = []
    for kind, cls in A.ACTION_BY_KIND.items():
        body = record_schema(cls)
        body["properties"] = {"kind": {"const": kind}, **body["properties"]}
        if cls is A.CastSpell:  # built-in spells may leave out their effect
            body["required"] = [r for r in body.get("required", []) if r != "effect"]
        branches.append({"if": {"properties": {"kind": {"const": kind}}}, "then": body})
    return {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": sorted(A.ACTION_BY_KIND)}},
        "allOf": branches,
    }


def observation_schema() -> Schema:
    types_ = {int: "integer", bool: "boolean", str: "string"}
    card_props = {
        name: {"type": [types_[t] for t in allowed]}
        if len(allowed) > 1
        else {"type": types_[allowed[0]]}
        for name, allowed in _CARD_TYPES.items()
    }
    card_props["zone"] = {"enum": [z.value for z in Zone]}
    return {
        "type": "object",
        "properties": {
            "cards": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": card_props,
                    "additionalProperties": False,
                },
            },
            "players": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        **{f: {"type": "integer"} for f in PFIELDS if f in ("life", "poison")},
                        # how many cards the player's hand and library hold (402.1, 401.1)
                        **{
                            f: {"type": "integer", "minimum": 0}
                            for f in PFIELDS
                            if f in ("hand", "library")
                        },
                        # bottom to top; a list is a group of cards in any order (404.3)
                        "graveyard": {
                            "type": "array",
                            "items": {
                                "oneOf": [
                                    {"type": "string"},
                                    {"type": "array", "items": {"type": "string"}, "minItems": 1},
                                ]
                            },
                        },
                    },
                    "additionalProperties": False,
                },
            },
            "game": {
                "type": "object",
                "properties": {
                    "turn": {"type": "integer"},
                    "step": {"enum": [s.value for s in Step]},
                    "active": {"type": "string"},
                    "priority": {"type": ["string", "null"]},
                    "stack": {"type": "integer", "minimum": 0},
                },
                "additionalProperties": False,
            },
            "events": {
                "type": "array",
                "items": {"type": "string", "pattern": "^(" + "|".join(EVENT_KINDS) + "):"},
            },
            "event_kinds": {
                "type": "array",
                "items": {"enum": list(EVENT_KINDS)},
                "uniqueItems": True,
            },
        },
        "additionalProperties": False,
    }


def start_schema() -> Schema:
    nat = {"type": "integer", "minimum": 0}
    flag = {"type": "boolean"}
    permanent = {
        "type": "object",
        "required": ["handle", "card", "owner"],
        "properties": {
            "handle": {"type": "string"},
            "card": {"type": "string"},
            "owner": PLAYER,
            "controller": PLAYER,
            "zone": {"enum": [z.value for z in Zone]},
            "tapped": flag,
            "damage": nat,
            "plus_counters": nat,
            "minus_counters": nat,
            "shield_counters": nat,
            "attached_to": {"type": "string"},
            "unregenerable": flag,
            "deathtouched": flag,
            "summoning_sick": flag,
            "animated": flag,
            "not_a_creature": flag,
            "prevent_next": nat,
            "prevent_all": flag,
            # "this turn" destruction replacements made earlier (614.6, 614.1a; start.py)
            "exile_if_dies": flag,
            "remove_damage_instead": nat,
            "phased_out": flag,
            "keywords": {"type": "array", "items": {"enum": [k.value for k in Keyword]}},
            "shields": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "origin": {"type": "string"},
                        "creator": PLAYER,
                        "rider": {"enum": [r.value for r in Rider]},
                        "used": flag,
                        "via": {"type": "string"},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    }
    assert set(permanent["properties"]) == PERMANENT_FIELDS  # type: ignore[call-overload]
    return {
        "type": "object",
        "required": ["players", "permanents"],
        "properties": {
            "players": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 2,
                "maxItems": 2,
            },
            "edition": {"enum": [e.value for e in Edition]},
            "turn": {"type": "integer", "minimum": 1},
            "step": {"enum": [s.value for s in Step]},
            "active": PLAYER,
            "priority": {"anyOf": [PLAYER, {"type": "null"}]},
            "life": {"type": "object", "additionalProperties": {"type": "integer"}},
            "library": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0},
            },
            "permanents": {"type": "array", "items": permanent},
            # Self-contained vectors define the built-in cards too, with their deviations.
            "definitions": {"type": "array", "items": record_schema(CardTemplate)},
        },
        "additionalProperties": False,
    }


def _defs() -> Schema:
    return {
        "player": {
            "description": "a player's name, or index (0 = the first player)",
            "type": ["string", "integer"],
        },
        "start": start_schema(),
        "action": action_schema(),
        "observation": observation_schema(),
    }


def vector_schema() -> Schema:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://regen-model.invalid/schemas/vector.schema.json",
        "title": "regen-model conformance vector",
        "description": "A start state, actions, and the observation expected after each action.",
        "type": "object",
        "required": [
            "format",
            "version",
            "id",
            "cr_edition",
            "edition",
            "clauses",
            "start",
            "steps",
        ],
        "properties": {
            "format": {"const": "regen-model-vector"},
            "version": {"const": 1},
            "id": {"type": "string"},
            "goal": {"type": "string"},
            "description": {"type": "string"},
            "cr_edition": {"type": "string"},
            "edition": {"enum": [e.value for e in Edition]},
            "clauses": {"type": "array", "items": {"type": "string"}},
            "start": {"$ref": "#/$defs/start"},
            "initial": {"$ref": "#/$defs/observation"},
            "steps": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["action", "expect"],
                    "properties": {
                        "action": {"$ref": "#/$defs/action"},
                        "expect": {"$ref": "#/$defs/observation"},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
        "$defs": _defs(),
    }


def _request(op: str, **props: Schema) -> Schema:
    return {
        "type": "object",
        "required": ["op", *props],
        "properties": {"op": {"const": op}, **props},
        "additionalProperties": False,
    }


def jsonl_schema() -> Schema:
    ok = {"const": True}
    reply_ok: Schema = {
        "type": "object",
        "required": ["ok"],
        "properties": {"ok": ok},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://regen-model.invalid/schemas/jsonl.schema.json",
        "title": "regen-model JSON-lines engine protocol",
        "description": "One request per line on the engine's stdin, one reply per line on stdout.",
        "$defs": {
            **_defs(),
            "request": {
                "oneOf": [
                    _request("hello"),
                    _request(
                        "supports",
                        state={"$ref": "#/$defs/start"},
                        actions={"type": "array", "items": {"$ref": "#/$defs/action"}},
                    ),
                    _request("start", state={"$ref": "#/$defs/start"}),
                    _request("apply", action={"$ref": "#/$defs/action"}),
                    _request("observe"),
                    _request("close"),
                ]
            },
            "hello_reply": {
                "type": "object",
                "required": ["ok"],
                "properties": {
                    "ok": ok,
                    "name": {"type": "string"},
                    "version": {"type": "string"},
                    "actions": {"type": "array", "items": {"enum": sorted(A.ACTION_BY_KIND)}},
                    "editions": {"type": "array", "items": {"enum": [e.value for e in Edition]}},
                    "supports": {"type": "boolean"},
                },
            },
            "supports_reply": {
                "type": "object",
                "required": ["ok", "supported"],
                "properties": {
                    "ok": ok,
                    "supported": {"type": "boolean"},
                    "reason": {"type": "string"},
                },
            },
            "observe_reply": {
                "type": "object",
                "required": ["ok", "observation"],
                "properties": {"ok": ok, "observation": {"$ref": "#/$defs/observation"}},
            },
            "ok_reply": reply_ok,
            "error_reply": {
                "type": "object",
                "required": ["ok"],
                "properties": {
                    "ok": {"const": False},
                    "error": {"type": "string"},
                    "unsupported": {"type": "string"},
                },
                "anyOf": [{"required": ["error"]}, {"required": ["unsupported"]}],
            },
        },
        "oneOf": [{"$ref": "#/$defs/request"}],
    }


FILES = {"vector.schema.json": vector_schema, "jsonl.schema.json": jsonl_schema}


def write_all(directory: Path = HERE) -> list[Path]:
    out = []
    for name, build in FILES.items():
        path = directory / name
        jsonout.write(path, build())
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write_all():
        print(f"wrote {p}")
