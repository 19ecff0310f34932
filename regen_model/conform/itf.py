"""Traces in the Informal Trace Format (ITF) of Apalache and Quint, with our actions in ``#meta``.

A trace is what an engine logged during one game, or what the specification did in one run:

    {"#meta": {"format": "ITF", "source": "...", "setup": {...a Start...},
               "event_kinds": ["regenerated", "destroyed"]},
     "vars": ["cards", "players", "events"],
     "states": [
       {"#meta": {"index": 0},
        "cards": {"#map": [["troll", {"zone": "battlefield", "tapped": false, "shields": 0}]]},
        "players": {"#map": [["A", {"life": 20, "poison": 0}]]}},
       {"#meta": {"index": 1, "action": {"kind": "create-shield", "target": "troll"}},
        "cards": {"#map": [["troll", {"shields": 1}]]},
        "events": ["shield-created:troll"]}]}

* State 0 is the start. Its setup (card names, owners, edition) is ``#meta.setup`` (see
  ``start.py``); without one, state 0 must name each card's ``card`` (and ``owner`` if it is
  not the controller) and observe its other fields, which then become the start.
* State *i* > 0 carries the action that led to it in ``#meta.action`` (see ``codec.py``); a
  missing action, or a missing choice field in it, is unobserved (``gaps.py``).
* Variables and fields may be left out of any state: they are unobserved. ``events`` lists
  the tokens of ``observe.EVENT_KINDS`` for the step that led to the state;
  ``#meta.event_kinds`` says which kinds the log records (default: all).
* Values may use the ITF encodings ``#bigint``, ``#map``, ``#tup`` and ``#set``. ITF has no
  null: "nobody holds priority" is written ``"priority": ""`` (``null`` is read too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regen_model.conform import codec, jsonout
from regen_model.conform.jsonpos import FieldError, FormatError, Node, parse_text, read_file
from regen_model.conform.moves import unloggable_missing
from regen_model.conform.observe import (
    CARD_FIELDS,
    EVENT_KINDS,
    Observation,
    Value,
    observation_from_node,
)
from regen_model.conform.start import Start
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Edition, Rider, Step, Zone
from regen_model.model.state import Shield

ITF_VARS = ("cards", "players", "game", "events")
ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
_SAFE_INT = 2**53 - 1


@dataclass(frozen=True)
class LoggedAction:
    """An action as logged: its class and the fields present (others are unobserved choices
    or take their defaults, see ``gaps.py``). ``node`` locates it for error messages."""

    cls: type[Action]
    fields: dict[str, Any]
    raw: Any
    node: Node | None = None

    @property
    def kind(self) -> str:
        return self.cls.kind


@dataclass(frozen=True)
class TraceStep:
    index: int
    action: LoggedAction | None  # None: the action was not logged
    observation: Observation
    node: Node | None = None


@dataclass(frozen=True)
class Trace:
    file: str
    start: Start
    initial: Observation
    steps: tuple[TraceStep, ...]
    meta: dict[str, Any] = field(default_factory=dict)


# --- reading ------------------------------------------------------------------------------------


def read_trace(path: Path) -> Trace:
    """Read an ITF trace; raises ``FormatError`` naming file, line and field."""
    return _read(read_file(path))


def parse_trace(text: str, name: str = "<trace>") -> Trace:
    return _read(parse_text(text, name))


def _read(root: Node) -> Trace:
    try:
        return _read_root(root)
    except FieldError as exc:
        raise exc.located() from None


def _read_root(root: Node) -> Trace:
    root.obj_raw()
    meta_node = root.get("#meta")
    meta: dict[str, Any] = meta_node.obj_raw() if meta_node is not None else {}
    kinds: frozenset[str] | None = None
    if meta_node is not None and (k := meta_node.get("event_kinds")) is not None:
        kinds = frozenset(x.choice(list(EVENT_KINDS)) for x in k.elements())
    if (v := root.get("vars")) is not None:
        for name in v.elements():
            name.choice(list(ITF_VARS))
    states = root.req("states").elements()
    if not states:
        raise root.req("states").error("a trace needs at least its start state (state 0)")
    for i, s in enumerate(states):
        s.check_keys(set(ITF_VARS) | {"#meta"}, f"state {i}")
        m = s.get("#meta")
        ix = m.get("index") if m is not None else None
        if ix is not None and ix.integer() != i:
            raise ix.error(f"state {i} has index {ix.integer()}")
    setup = meta_node.get("setup") if meta_node is not None else None
    if setup is not None:
        start = Start.from_node(setup)
        initial = _observation(states[0], kinds)
    else:
        start, initial = _start_from_state(states[0], meta_node, kinds)
    players = codec.Players(start.players)
    handles = set(start.handles)
    steps = []
    for i, s in enumerate(states[1:], start=1):
        logged = None
        m = s.get("#meta")
        if m is not None and (a := m.get("action")) is not None:
            cls, fields = codec.decode_action_fields(a, players)
            missing = unloggable_missing(cls, fields)
            if missing:
                raise a.error(
                    f"field {missing[0]!r} of {cls.kind!r} must be logged "
                    "(only choice fields can be left out)"
                )
            logged = LoggedAction(cls, fields, a.value, a)
        obs = _observation(s, kinds)
        _check_handles(s, obs, handles)
        steps.append(TraceStep(i, logged, obs, s))
    _check_handles(states[0], initial, handles)
    return Trace(root.doc.file, start, initial, tuple(steps), meta)


def _observation(state: Node, kinds: frozenset[str] | None) -> Observation:
    return observation_from_node(state, kinds, top_level=False)


def _check_handles(state: Node, obs: Observation, handles: set[str]) -> None:
    for handle in obs.cards:
        if handle not in handles:
            cards = state.req("cards")
            raise cards.error(f"card {handle!r} is not in the setup ({', '.join(sorted(handles))})")


def _start_from_state(
    state: Node, meta: Node | None, kinds: frozenset[str] | None
) -> tuple[Start, Observation]:
    """No ``#meta.setup``: state 0 describes the start (card names, owners, observed fields)."""
    players_node = state.get("players")
    if players_node is None:
        raise state.error("without #meta.setup, state 0 must list the players")
    names = tuple(name for name, _ in players_node.items())
    if len(names) != 2:
        raise players_node.error("the model plays two players")
    p = codec.Players(names)
    life = tuple(
        (rec.get("life").integer() if rec.get("life") is not None else 20)  # type: ignore[union-attr]
        for _, rec in players_node.items()
    )
    specs: list[CardSpec] = []
    cards_node = state.get("cards")
    for handle, rec in cards_node.items() if cards_node is not None else []:
        rec.check_keys(set(CARD_FIELDS) | {"card", "owner"}, f"card {handle!r}")
        name_node = rec.req("card")
        template = PERMANENT_CARDS.get(name_node.string())
        if template is None:
            raise name_node.error(f"unknown card {name_node.string()!r} (define it in #meta.setup)")
        ctrl = p.decode(c) if (c := rec.get("controller")) is not None else None
        owner = p.decode(o) if (o := rec.get("owner")) is not None else (ctrl or 0)
        if ctrl == owner:
            ctrl = None

        def num(key: str, node: Node = rec) -> int:
            n = node.get(key)
            return 0 if n is None else n.integer()

        def flag(key: str, node: Node = rec) -> bool:
            n = node.get(key)
            return False if n is None else n.boolean()

        zone = Zone(z.choice([m.value for m in Zone])) if (z := rec.get("zone")) else None
        creator = owner if ctrl is None else ctrl
        specs.append(
            CardSpec(
                handle=handle,
                template=template,
                owner=owner,
                controller=ctrl,
                zone=zone or Zone.BATTLEFIELD,
                tapped=flag("tapped"),
                cant_regen=flag("unregenerable"),
                damage=num("damage"),
                plus=num("plus_counters"),
                minus=num("minus_counters"),
                shield_counters=num("shield_counters"),
                shields=tuple(
                    Shield("regeneration shield", creator, Rider.NONE)
                    for _ in range(num("shields"))
                ),
            )
        )
    edition = Edition.FDN
    step = Step.MAIN1
    if meta is not None:
        if (e := meta.get("edition")) is not None:
            edition = Edition(e.choice([m.value for m in Edition]))
        if (s := meta.get("step")) is not None:
            step = Step(s.choice([m.value for m in Step]))
    start = Start(names, tuple(specs), edition, step=step, life=life)
    # The observed fields of state 0 are still checked against the built start.
    base = observation_from_node(_without_setup_fields(state), kinds, top_level=False)
    return start, base


def _without_setup_fields(state: Node) -> Node:
    """State 0 without the ``card``/``owner`` members that only describe the setup."""
    value = dict(state.obj_raw())
    cards = value.get("cards")
    if isinstance(cards, dict):
        if "#map" in cards:
            value["cards"] = {
                "#map": [
                    [k, {f: x for f, x in rec.items() if f not in ("card", "owner")}]
                    for k, rec in cards["#map"]
                ]
            }
        else:
            value["cards"] = {
                k: {f: x for f, x in rec.items() if f not in ("card", "owner")}
                for k, rec in cards.items()
            }
    return Node(value, state.path, state.label, state.doc)


# --- writing ------------------------------------------------------------------------------------


def itf_int(n: int) -> Any:
    return n if -_SAFE_INT <= n <= _SAFE_INT else {"#bigint": str(n)}


def _itf_value(v: Value) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return itf_int(v)
    return v


def observation_to_itf(obs: Observation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cards": {
            "#map": [
                [h, {k: _itf_value(v) for k, v in rec.items()}] for h, rec in obs.cards.items()
            ]
        },
        "players": {
            "#map": [
                [n, {k: _itf_value(v) for k, v in rec.items()}] for n, rec in obs.players.items()
            ]
        },
    }
    if obs.game:
        out["game"] = {k: "" if v is None else _itf_value(v) for k, v in obs.game.items()}
    if obs.events is not None:
        out["events"] = list(obs.events)
    return out


def trace_to_json(
    start: Start,
    initial: Observation,
    steps: Sequence[tuple[Action | None, Observation]],
    *,
    source: str = "regen-model",
    extra_meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ITF trace: state 0 is ``initial``; each step is (action or None, observation)."""
    players = codec.Players(start.players)
    meta: dict[str, Any] = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "source": source,
        "setup": start.to_json(),
    }
    if extra_meta:
        meta.update(extra_meta)
    states: list[dict[str, Any]] = [{"#meta": {"index": 0}, **observation_to_itf(initial)}]
    for i, (action, obs) in enumerate(steps, start=1):
        m: dict[str, Any] = {"index": i}
        if action is not None:
            m["action"] = codec.action_to_json(action, players)
        states.append({"#meta": m, **observation_to_itf(obs)})
    return {"#meta": meta, "vars": list(ITF_VARS), "states": states}


def dump(data: Any) -> str:
    """JSON text with small values kept on one line, readable in a diff."""
    return jsonout.dumps(data)


def write_trace(path: Path, data: dict[str, Any]) -> None:
    jsonout.write(path, data)


__all__ = [
    "FormatError",
    "LoggedAction",
    "Trace",
    "TraceStep",
    "observation_to_itf",
    "parse_trace",
    "read_trace",
    "trace_to_json",
    "write_trace",
]
