"""Traces written in other vocabularies: Quint's model-based-testing variables and a mapping.

``itf.py`` reads one dialect of ITF (docs/itf.md). A trace written by another tool (Quint's
``quint run --mbt --out-itf``, Apalache, an engine's own logger) usually says the same things
under other names. ``normalize`` rewrites such a trace into the dialect before it is read, and
records where each rewritten value came from (``jsonpos.Origin``), so an error still names the
file's line and the file's field.

Without a mapping, Quint's conventions are understood as they are:

* ``mbt::actionTaken`` (the name of the action Quint took) and ``mbt::nondetPicks`` (a record
  of the ``nondet`` values it picked, each ``{"tag": "Some", "value": v}`` or ``{"tag":
  "None", ...}``) become the state's ``#meta.action``: the kind is the action name in
  kebab case (``createShield`` -> ``create-shield``), the fields are the picks that were made,
  in snake case (``cantBeRegenerated`` -> ``cant_be_regenerated``); a pick that was not made
  leaves its field out (unobserved). State 0's values name Quint's initializer and are not an
  action. A state that has its own ``#meta.action`` keeps it.
* ``vars`` may name a variable more than once (Quint repeats the ``mbt::`` ones).

A mapping file (``check-trace --map FILE``, YAML or JSON) says the rest:

    vars:      {quintCards: cards, stepName: game.step, ghostCounters: drop}
    fields:    {cards: {isTapped: tapped, printed: drop}, players: {hp: life}}
    actions:   {dealDamage: {kind: deal-damage, source: quint,
                             shares: [{card: $target, amount: $amount}]},
                noop: drop}
    params:    {EDITION: edition}
    setup:     {players: [A, B], permanents: [...]}

``vars`` renames a variable of the file to one of ours (``cards``, ``players``, ``game``,
``events``), to one field of ``game`` (``game.step``), or drops it; ``fields`` renames (or
drops) the fields of the records of one of our variables; ``actions`` gives the action a name
of ``mbt::actionTaken`` stands for, where ``$name`` is replaced by the pick ``name`` (a field
that needs a pick that was not made is left out), or ``drop`` (the state's action is then
unlogged); ``params`` renames ITF parameters; ``setup`` is the start when the trace has no
``#meta.setup``. Nothing is dropped unless the mapping says so: a variable, field or parameter
the dialect does not know is still an error, so a typo never becomes "unobserved".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regen_model.conform.jsonpos import FieldError, FormatError, Origin, PathKey

MBT_ACTION = "mbt::actionTaken"
MBT_PICKS = "mbt::nondetPicks"
MBT_VARS = (MBT_ACTION, MBT_PICKS)
DROP = "drop"
OUR_VARS = ("cards", "players", "game", "events")
MAP_FIELDS = frozenset({"vars", "fields", "actions", "params", "setup"})

Path_ = tuple[PathKey, ...]


@dataclass(frozen=True)
class TraceMap:
    """A parsed mapping file (module docstring)."""

    file: str = "<no mapping>"
    vars: dict[str, str] = field(default_factory=dict)
    fields: dict[str, dict[str, str]] = field(default_factory=dict)
    actions: dict[str, Any] = field(default_factory=dict)  # name -> template, or DROP
    params: dict[str, str] = field(default_factory=dict)
    setup: Any = None


def load_map(path: Path) -> TraceMap:
    """Read a mapping file; a problem is a ``FormatError`` naming the file, line and field."""
    from regen_model.scenario.errors import ScenarioError
    from regen_model.scenario.source import read_source

    try:
        source = read_source(path)
    except ScenarioError as exc:
        raise FormatError(exc.file, exc.line or 0, 0, exc.field or "(file)", exc.message) from None

    def error(at: Path_, message: str) -> FormatError:
        line = source.line(at)
        label = ".".join(str(p) for p in at) or "(top level)"
        return FormatError(source.file, line, 0, label, message)

    data = source.data
    for key in data:
        if key not in MAP_FIELDS:
            raise error((key,), f"unknown field {key!r} (known: {', '.join(sorted(MAP_FIELDS))})")

    def table(key: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise error((key,), "expected a mapping of names")
        return dict(value)

    names = table("vars")
    for name, target in names.items():
        if not _var_target_ok(target):
            raise error(
                ("vars", name),
                f"{target!r} is not one of {', '.join(OUR_VARS)}, game.FIELD or {DROP}",
            )
    fields = table("fields")
    for var, renames in fields.items():
        if var not in OUR_VARS:
            raise error(("fields", var), f"{var!r} is not one of {', '.join(OUR_VARS)}")
        if not isinstance(renames, dict) or not all(isinstance(v, str) for v in renames.values()):
            raise error(("fields", var), "expected a mapping from the file's field to ours")
    actions = table("actions")
    for name, template in actions.items():
        if template != DROP and not (isinstance(template, dict) and "kind" in template):
            raise error(("actions", name), f"expected an action with a 'kind', or {DROP}")
    params = table("params")
    for name, target in params.items():
        if not isinstance(target, str):
            raise error(("params", name), "expected the name of one of our parameters")
    setup = data.get("setup")
    if setup is not None:
        from regen_model.conform.start import Start

        try:
            Start.from_json(setup)
        except FieldError as exc:
            raise error(("setup", *exc.node.path), exc.message) from None
    return TraceMap(source.file, names, fields, actions, params, setup)


def _var_target_ok(target: object) -> bool:
    if not isinstance(target, str):
        return False
    if target in (*OUR_VARS, DROP):
        return True
    head, dot, rest = target.partition(".")
    return head == "game" and bool(dot) and bool(rest)


# --- rewriting a trace --------------------------------------------------------------------------


def normalize(value: Any, tmap: TraceMap | None) -> tuple[Any, dict[Path_, Origin]]:
    """``value`` (a decoded ITF document) in our dialect, and where rewritten values came
    from. Values of an unexpected shape are left as they are for the reader to report."""
    if not isinstance(value, dict) or not isinstance(value.get("states"), list):
        return value, {}
    states = value["states"]
    quint = any(isinstance(s, dict) and any(v in s for v in MBT_VARS) for s in states)
    if tmap is None and not quint:
        return value, {}
    tmap = tmap or TraceMap()
    origins: dict[Path_, Origin] = {}
    out = dict(value)
    out["states"] = [
        _state(s, i, tmap, origins) if isinstance(s, dict) else s for i, s in enumerate(states)
    ]
    if isinstance(value.get("vars"), list):
        out["vars"] = _names(value["vars"], tmap.vars, "vars", origins)
    if isinstance(value.get("params"), list):
        out["params"] = _names(value["params"], tmap.params, "params", origins)
    meta = value.get("#meta")
    if tmap.setup is not None and not (isinstance(meta, dict) and "setup" in meta):
        out["#meta"] = {**(meta if isinstance(meta, dict) else {}), "setup": tmap.setup}
    return out, origins


def _names(
    names: list[Any], renames: Mapping[str, str], key: str, origins: dict[Path_, Origin]
) -> list[Any]:
    """A ``vars`` or ``params`` list: renamed, dropped, Quint's variables consumed, each once."""
    out: list[Any] = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            out.append(name)
            continue
        target = renames.get(name, name)
        if target == DROP or name in MBT_VARS:
            continue
        target = target.split(".", 1)[0]  # game.step lives in the variable game
        if target in out:
            continue
        if target != name:
            origins[(key, len(out))] = Origin((key, i), f"{key}[{i}]", f"{key}[{len(out)}]")
        out.append(target)
    return out


def _state(state: dict[str, Any], i: int, tmap: TraceMap, origins: dict[Path_, Origin]) -> Any:
    base = f"states[{i}]"
    out: dict[str, Any] = {}
    for key, value in state.items():
        if key in MBT_VARS:
            continue
        target = tmap.vars.get(key, tmap.params.get(key, key))
        if target == DROP:
            continue
        here: Path_ = ("states", i, key)
        if target.startswith("game."):
            name = target.split(".", 1)[1]
            game = out.setdefault("game", {})
            if isinstance(game, dict):
                game[name] = value
                origins[("states", i, "game", name)] = Origin(
                    here, f"{base}.{key}", f"{base}.game.{name}"
                )
            continue
        if target != key:
            origins[("states", i, target)] = Origin(here, f"{base}.{key}", f"{base}.{target}")
        renames = tmap.fields.get(target)
        if renames:
            value = _renamed_records(value, renames, ("states", i, target), here, origins)
        if target == "game" and isinstance(out.get("game"), dict) and isinstance(value, dict):
            out["game"] = {**value, **out["game"]}
        else:
            out[target] = value
    meta = state.get("#meta")
    has_action = isinstance(meta, dict) and "action" in meta
    if i > 0 and MBT_ACTION in state and not has_action:
        action = _mbt_action(state, i, tmap, origins)
        if action is not None:
            out["#meta"] = {**(meta if isinstance(meta, dict) else {}), "action": action}
    return out


def _renamed_records(
    value: Any,
    renames: Mapping[str, str],
    at: Path_,
    file_at: Path_,
    origins: dict[Path_, Origin],
) -> Any:
    """A map of records (a ``#map`` or an object keyed by handle) with its fields renamed."""
    if isinstance(value, dict) and isinstance(value.get("#map"), list):
        entries = []
        for j, pair in enumerate(value["#map"]):
            if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str):
                path, file_path = (*at, "#map", j, 1), (*file_at, "#map", j, 1)
                record = _record(pair[1], renames, path, file_path, pair[0], origins)
                entries.append([pair[0], record])
            else:
                entries.append(pair)
        return {**value, "#map": entries}
    if isinstance(value, dict):
        return {
            k: v if k.startswith("#") else _record(v, renames, (*at, k), (*file_at, k), k, origins)
            for k, v in value.items()
        }
    return value


def _record(
    record: Any,
    renames: Mapping[str, str],
    at: Path_,
    file_at: Path_,
    key: str,
    origins: dict[Path_, Origin],
) -> Any:
    if not isinstance(record, dict):
        return record
    out = {}
    for name, v in record.items():
        target = renames.get(name, name)
        if target == DROP:
            continue
        if target != name:
            origins[(*at, target)] = Origin(
                (*file_at, name), _label(file_at, key) + f".{name}", _label(at, key) + f".{target}"
            )
        out[target] = v
    return out


def _label(path: Path_, key: str) -> str:
    """The label ``jsonpos.Node`` gives the record of ``key`` at ``path`` (``states[3].cards
    .troll``): the ``#map`` entry is named by its key."""
    i, var = path[1], path[2]
    return f"states[{i}].{var}.{key}"


# --- Quint's model-based-testing variables ------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def kebab(name: str) -> str:
    """``createShield`` -> ``create-shield``: an action name of Quint as our action kind."""
    return _CAMEL.sub("-", name).lower()


def snake(name: str) -> str:
    """``cantBeRegenerated`` -> ``cant_be_regenerated``: a Quint name as our field name."""
    return _CAMEL.sub("_", name).lower()


_UNSET = object()


def _mbt_action(state: dict[str, Any], i: int, tmap: TraceMap, origins: dict[Path_, Origin]) -> Any:
    """The action of ``mbt::actionTaken``/``mbt::nondetPicks``; ``None``: unlogged."""
    name = state[MBT_ACTION]
    base = f"states[{i}]"
    at: Path_ = ("states", i, "#meta", "action")
    origins[at] = Origin(("states", i, MBT_ACTION), f"{base}.{MBT_ACTION}", f"{base}.#meta.action")
    if not isinstance(name, str):
        return name  # the reader reports the wrong shape, at mbt::actionTaken
    raw_picks = state.get(MBT_PICKS)
    picks: dict[str, Any] = {}
    pick_at: dict[str, Path_] = {}
    if isinstance(raw_picks, dict):
        for pick, option in raw_picks.items():
            made = _made(option)
            if made is not _UNSET:
                picks[pick] = made
                pick_at[pick] = ("states", i, MBT_PICKS, pick, "value")
    template = tmap.actions.get(name)
    if template == DROP:
        return None
    if template is None:
        action = {"kind": kebab(name)}
        for pick, value in picks.items():
            action[snake(pick)] = value
            origins[(*at, snake(pick))] = Origin(
                pick_at[pick], f"{base}.{MBT_PICKS}.{pick}", f"{base}.#meta.action.{snake(pick)}"
            )
        return action
    action = {}
    for key, spec in template.items():
        value = _fill(spec, picks)
        if value is _UNSET:
            continue  # needs a pick that was not made: unobserved
        action[key] = value
        if isinstance(spec, str) and spec.startswith("$") and spec[1:] in pick_at:
            pick = spec[1:]
            origins[(*at, key)] = Origin(
                pick_at[pick], f"{base}.{MBT_PICKS}.{pick}", f"{base}.#meta.action.{key}"
            )
    return action


def _made(option: Any) -> Any:
    """The value of a Quint ``Option`` (``Some(v)``), or ``_UNSET`` for ``None``; a value
    that is not an option is taken as it is (another tool's picks)."""
    if isinstance(option, dict) and set(option) == {"tag", "value"}:
        if option["tag"] == "Some":
            return option["value"]
        if option["tag"] == "None":
            return _UNSET
    return option


def _fill(spec: Any, picks: Mapping[str, Any]) -> Any:
    """A template value with ``$name`` replaced by the pick ``name`` (``_UNSET`` if missing)."""
    if isinstance(spec, str) and spec.startswith("$"):
        return picks.get(spec[1:], _UNSET)
    if isinstance(spec, list):
        items = [_fill(s, picks) for s in spec]
        return _UNSET if any(x is _UNSET for x in items) else items
    if isinstance(spec, dict):
        filled = {k: _fill(v, picks) for k, v in spec.items()}
        return _UNSET if any(x is _UNSET for x in filled.values()) else filled
    return spec


__all__ = ["MBT_ACTION", "MBT_PICKS", "TraceMap", "kebab", "load_map", "normalize", "snake"]
