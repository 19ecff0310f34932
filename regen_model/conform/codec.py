"""The JSON form of actions, effects and card definitions, shared by every file format.

One generic codec walks the dataclass fields of ``model/actions.py`` (and ``Effect``,
``CardTemplate``) by their type hints, so a new action or field gets a JSON form without
touching this module. The rules of the form:

* an action is an object with ``"kind"`` (the action's ``kind`` name) and its fields by name;
  fields equal to their default are left out when writing and take their default when read;
* enums are written as their values (``"first-strike"``), frozensets as sorted lists, tuples
  as lists, nested records as objects;
* fields that name a player (``player``, ``creator``, ``controller``, ``by``) hold the player's
  name when the names are known (``"B"``) and may also be given as an index (``1``);
* ``cast`` may leave out ``effect`` and ``sorcery`` for a spell of the built-in list
  (``{"kind": "cast", "player": "B", "name": "Lightning Bolt", "targets": [{"card": "troll"}]}``).

Readers report errors through ``jsonpos.FieldError`` so that a file error names its line.
``decode_action_fields`` returns only the fields present in the file: the trace checker treats
absent choice fields as unobserved (see ``gaps.py``), everything else takes its default.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Union, get_args, get_origin

from regen_model.conform.jsonpos import Node, in_memory
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS

PLAYER_FIELDS = frozenset({"player", "creator", "controller", "by"})

Json = Any  # a value json.dumps accepts


class Players:
    """Player names and indices: actions use indices, files prefer names."""

    __slots__ = ("names",)

    def __init__(self, names: Sequence[str] | None = None) -> None:
        self.names: tuple[str, ...] | None = tuple(names) if names is not None else None

    def encode(self, index: int) -> Json:
        if self.names is not None and 0 <= index < len(self.names):
            return self.names[index]
        return index

    def decode(self, node: Node) -> int:
        value = node.value
        if isinstance(value, str):
            if self.names is None:
                raise node.error(f"player {value!r} given by name, but no player names are known")
            if value not in self.names:
                raise node.error(f"unknown player {value!r} (players: {', '.join(self.names)})")
            return self.names.index(value)
        index = node.integer()
        if self.names is not None and not 0 <= index < len(self.names):
            raise node.error(f"no player with index {index} ({len(self.names)} players)")
        return index


_HINTS: dict[type, dict[str, Any]] = {}
_FIELDS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """Resolved type hints of a dataclass (cached: the model's classes never change)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = dataclasses.fields(cls)
    return fields


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def default_of(cls: type, name: str) -> Any:
    for f in _fields(cls):
        if f.name == name:
            return _default(f)
    raise KeyError(name)


# --- encoding --------------------------------------------------------------------------------


def encode_value(value: Any, hint: Any, field: str, players: Players) -> Json:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [a for a in get_args(hint) if a is not type(None)]
        return encode_value(value, inner, field, players)
    if origin is frozenset:
        (inner,) = get_args(hint)
        return sorted(encode_value(v, inner, field, players) for v in value)
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return [encode_value(v, args[0], field, players) for v in value]
        return [encode_value(v, a, field, players) for v, a in zip(value, args, strict=True)]
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return players.encode(value) if field in PLAYER_FIELDS else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode_record(value, players)
    return value


def encode_record(record: Any, players: Players, *, keep: frozenset[str] = frozenset()) -> Json:
    """A dataclass as an object, leaving out fields equal to their default."""
    cls = type(record)
    hints = _hints(cls)
    out: dict[str, Json] = {}
    for f in _fields(cls):
        value = getattr(record, f.name)
        if f.name not in keep and _default(f) is not dataclasses.MISSING and value == _default(f):
            continue
        out[f.name] = encode_value(value, hints[f.name], f.name, players)
    return out


def action_to_json(
    action: A.Action, players: Sequence[str] | Players | None = None, *, full: bool = False
) -> Json:
    """The JSON object of an action: ``{"kind": ..., field: value, ...}``. A cast of a built-in
    spell leaves out its effect unless ``full`` (self-contained vectors keep it)."""
    p = players if isinstance(players, Players) else Players(players)
    body = encode_record(action, p)
    if isinstance(action, A.CastSpell) and not full:
        builtin = SPELLS.get(action.name)
        if builtin is not None and builtin.effect == action.effect:
            body.pop("effect", None)
            if builtin.sorcery == action.sorcery:
                body.pop("sorcery", None)
            else:
                body["sorcery"] = action.sorcery
            if action.rule is builtin.targets:
                body.pop("target_rule", None)
    choices = body.pop("choices", None)
    out = {"kind": action.kind, **body}
    if choices is not None:
        out["choices"] = choices  # last: the answers read best after the question
    return out


# --- decoding --------------------------------------------------------------------------------


def decode_value(node: Node, hint: Any, field: str, players: Players) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if node.is_null():
            return None
        (inner,) = [a for a in get_args(hint) if a is not type(None)]
        return decode_value(node, inner, field, players)
    if origin is frozenset:
        (inner,) = get_args(hint)
        return frozenset(decode_value(n, inner, field, players) for n in node.elements())
    if origin is tuple:
        args = get_args(hint)
        items = node.elements()
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_value(n, args[0], field, players) for n in items)
        if len(items) != len(args):
            raise node.error(f"expected a list of {len(args)} values, found {len(items)}")
        return tuple(decode_value(n, a, field, players) for n, a in zip(items, args, strict=True))
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return hint(node.choice([m.value for m in hint]))
    if hint is bool:
        return node.boolean()
    if hint is int:
        return players.decode(node) if field in PLAYER_FIELDS else node.integer()
    if hint is str:
        return node.string()
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decode_record(node, hint, players)
    raise node.error(f"cannot read a value of type {hint}")  # pragma: no cover - closed model


def decode_fields(
    node: Node, cls: type, players: Players, *, skip: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The fields of ``cls`` present in the object ``node`` (unknown members are errors)."""
    hints = _hints(cls)
    names = {f.name for f in _fields(cls)}
    node.check_keys(names | skip, cls.__name__)
    out: dict[str, Any] = {}
    for name in names:
        child = node.get(name)
        if child is not None:
            out[name] = decode_value(child, hints[name], name, players)
    return out


def build(node: Node, cls: type, fields: Mapping[str, Any]) -> Any:
    """An instance of ``cls`` from ``fields``; absent fields take their defaults."""
    missing = [
        f.name for f in _fields(cls) if f.name not in fields and _default(f) is dataclasses.MISSING
    ]
    if missing:
        raise node.error(f"missing required field {missing[0]!r} of {cls.__name__}")
    try:
        return cls(**fields)
    except (TypeError, ValueError) as exc:  # pragma: no cover - fields are typed above
        raise node.error(str(exc)) from None


def decode_record(node: Node, cls: type, players: Players) -> Any:
    return build(node, cls, decode_fields(node, cls, players))


def action_class(node: Node) -> type[A.Action]:
    kind = node.req("kind").string()
    cls = A.ACTION_BY_KIND.get(kind)
    if cls is None:
        raise node.req("kind").error(
            f"unknown action kind {kind!r} (known: {', '.join(sorted(A.ACTION_BY_KIND))})"
        )
    return cls


def decode_action_fields(node: Node, players: Players) -> tuple[type[A.Action], dict[str, Any]]:
    """The action class and the fields present in the file (for partially logged actions)."""
    cls = action_class(node)
    fields = decode_fields(node, cls, players, skip=frozenset({"kind"}))
    if cls is A.CastSpell and "effect" not in fields and "name" in fields:
        spell = SPELLS.get(fields["name"])
        if spell is None:
            raise node.req("name").error(
                f"{fields['name']!r} is not a built-in spell: give its 'effect'"
            )
        fields["effect"] = spell.effect
        fields.setdefault("sorcery", spell.sorcery)
        fields.setdefault("target_rule", spell.targets)
    return cls, fields


def action_from_node(node: Node, players: Players) -> A.Action:
    cls, fields = decode_action_fields(node, players)
    action: A.Action = build(node, cls, fields)
    return action


def action_from_json(data: Json, players: Sequence[str] | Players | None = None) -> A.Action:
    """Inverse of ``action_to_json``. Raises ``jsonpos.FieldError`` on a bad value."""
    p = players if isinstance(players, Players) else Players(players)
    return action_from_node(in_memory(data), p)
