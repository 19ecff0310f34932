"""The one ITF codec: every trace the tool writes, and the trace reader of ``check-trace``.

ITF is the Informal Trace Format of Apalache and Quint (ADR-015); docs/itf.md describes our
dialect of it. ``find``, ``explore`` and ``crosscheck`` write their traces with
``engine_trace``/``trace_to_json`` and ``check-trace`` reads them (and other tools' logs) with
``read_trace``, so that every trace the tool writes is one it reads back:

    {"#meta": {"format": "ITF", "source": "...", "setup": {...a Start...},
               "event_kinds": ["regenerated", "destroyed"]},
     "vars": ["cards", "players", "game", "events"],
     "states": [
       {"#meta": {"index": 0},
        "cards": {"#map": [["troll", {"zone": "battlefield", "tapped": false, "shields": 0}]]},
        "players": {"#map": [["A", {"life": 20, "poison": 0}]]}, "game": {...}, "events": []},
       {"#meta": {"index": 1, "action": {"kind": "create-shield", "target": "troll"},
                  "clauses": ["regen.shield.create"]},
        "cards": {"#map": [["troll", {"shields": 1}]]},
        "events": ["shield-created:troll"]}]}

* The variables are the observable projection of ``observe.py``: ``cards`` (a ``#map`` from
  handle to the fields of ``observe.CARD_FIELDS``), ``players`` (life, poison, hand, library, graveyard), ``game``
  (turn, step, active, priority, stack) and ``events`` (the tokens of
  ``observe.EVENT_KINDS`` for the step that led to the state).
* State 0 is the start. Its setup (card names, owners, edition) is ``#meta.setup`` (see
  ``start.py``); without one, state 0 must name each card's ``card`` (and ``owner`` if it is
  not the controller) and observe its other fields, which then become the start. ``card``
  and ``owner`` may be repeated in every state (a Quint record keeps all its fields); they
  must then agree with the setup.
* State *i* > 0 carries the action that led to it in ``#meta.action`` (see ``codec.py``); a
  missing action, or a missing choice field in it, is unobserved (``gaps.py``). Writers add
  ``#meta.clauses``, the clause IDs of the engine's events at that step.
* Reading, variables and fields may be left out of any state: they are unobserved. Writing,
  every state has every variable of ``vars`` (as ADR-015 requires).
* Values may use the ITF encodings ``#bigint``, ``#map``, ``#tup`` and ``#set``. ITF has no
  null: "nobody holds priority" is written ``"priority": ""`` (``null`` is read too).
* ``params`` (names set in state 0, constant through the trace) may give the start's
  ``edition``, ``step``, ``turn``, ``active`` and ``priority``; ``loop`` (the index of the
  state a lasso returns to after the last one) is checked by ``trace_check``, with the
  action of that step back in ``#meta.loop_action`` if the log has it.
* Other vocabularies (Quint's ``mbt::`` variables, a mapping file) are rewritten into this one
  first (``itf_map.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from regen_model.conform import codec, jsonout
from regen_model.conform.itf_map import TraceMap, normalize
from regen_model.conform.jsonpos import (
    Doc,
    FieldError,
    FormatError,
    Node,
    parse_text,
    read_file,
)
from regen_model.conform.moves import unloggable_missing
from regen_model.conform.observe import (
    CARD_FIELDS,
    EVENT_KINDS,
    Observation,
    Value,
    observation_from_node,
    project,
)
from regen_model.conform.start import Start
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Edition, Rider, Step, Zone
from regen_model.model.events import Event
from regen_model.model.state import GameState, Shield

ITF_VARS = ("cards", "players", "game", "events")
ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
TOP_LEVEL = frozenset({"#meta", "params", "vars", "states", "loop"})
SETUP_FIELDS = ("card", "owner")  # describe the setup; allowed in every state's card records
PARAMS = ("edition", "step", "turn", "active", "priority")  # parameters that set the start
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
    loop: int | None = None  # a lasso: after the last state the run goes back to this state
    params: dict[str, Any] = field(default_factory=dict)
    loop_action: LoggedAction | None = None  # the action back to ``loop`` (``#meta``)
    # actions the run refused, each with the number of steps before it (``#meta.refused``)
    refused: tuple[tuple[int, LoggedAction], ...] = ()


# --- reading ------------------------------------------------------------------------------------


def read_trace(path: Path, mapping: TraceMap | None = None) -> Trace:
    """Read an ITF trace; raises ``FormatError`` naming file, line and field."""
    return _read(read_file(path), mapping)


def parse_trace(text: str, name: str = "<trace>", mapping: TraceMap | None = None) -> Trace:
    return _read(parse_text(text, name), mapping)


def _read(root: Node, mapping: TraceMap | None) -> Trace:
    value, origins = normalize(root.value, mapping)
    if origins or value is not root.value:
        root = Node(value, (), "", Doc(root.doc.file, root.doc.text, origins))
    try:
        return _read_root(root)
    except FieldError as exc:
        err = exc.located()
        if "mbt::" in err.field:  # an action of Quint's that our names do not fit
            hint = f"{err.message} (a mapping file says what it stands for: docs/itf.md)"
            err = FormatError(err.file, err.line, err.col, err.field, hint)
        raise err from None


def _read_root(root: Node) -> Trace:
    root.check_keys(TOP_LEVEL, "a trace")
    meta_node = root.get("#meta")
    meta: dict[str, Any] = meta_node.obj_raw() if meta_node is not None else {}
    kinds: frozenset[str] | None = None
    if meta_node is not None and (k := meta_node.get("event_kinds")) is not None:
        kinds = frozenset(x.choice(list(EVENT_KINDS)) for x in k.elements())
    if (v := root.get("vars")) is not None:
        for name in v.elements():
            name.choice(list(ITF_VARS))
    param_names = _param_names(root)
    states = root.req("states").elements()
    if not states:
        raise root.req("states").error("a trace needs at least its start state (state 0)")
    loop = _loop(root, len(states))
    for i, s in enumerate(states):
        s.check_keys(set(ITF_VARS) | set(param_names) | {"#meta"}, f"state {i}")
        m = s.get("#meta")
        ix = m.get("index") if m is not None else None
        if ix is not None and ix.integer() != i:
            raise ix.error(f"state {i} has index {ix.integer()}")
    params = _params(param_names, states)
    setup = meta_node.get("setup") if meta_node is not None else None
    if setup is not None:
        start = Start.from_node(setup)
        initial = _observation(states[0], kinds, start)
    else:
        start, initial = _start_from_state(states[0], meta_node, kinds)
    start = _with_params(start, params, states[0], setup is not None)
    players = codec.Players(start.players)
    handles = set(start.handles)
    steps = []
    for i, s in enumerate(states[1:], start=1):
        m = s.get("#meta")
        logged = _logged(m.get("action"), players) if m is not None else None
        obs = _observation(s, kinds, start)
        _check_handles(s, obs, handles)
        steps.append(TraceStep(i, logged, obs, s))
    _check_handles(states[0], initial, handles)
    back = None
    if meta_node is not None and (b := meta_node.get("loop_action")) is not None:
        if loop is None:
            raise b.error("a loop_action needs a loop (the index of the state it returns to)")
        back = _logged(b, players)
    refused = _refused(meta_node, players, len(steps))
    return Trace(root.doc.file, start, initial, tuple(steps), meta, loop, params, back, refused)


def _refused(
    meta: Node | None, players: codec.Players, n: int
) -> tuple[tuple[int, LoggedAction], ...]:
    """``#meta.refused``: the actions the run's engine refused (a differential case keeps them
    to send them again, ``case.py``), each ``{"after": steps before it, "action": ...}``, in
    order."""
    node = meta.get("refused") if meta is not None else None
    if node is None:
        return ()
    out: list[tuple[int, LoggedAction]] = []
    for entry in node.elements():
        entry.check_keys({"after", "action"}, "a refused action")
        at = entry.req("after")
        after = at.integer()
        if not 0 <= after <= n or (out and after < out[-1][0]):
            raise at.error(f"{after} is not a step count in order (0..{n})")
        out.append((after, _logged_action(entry.req("action"), players)))
    return tuple(out)


def _logged(node: Node | None, players: codec.Players) -> LoggedAction | None:
    """A logged action, or ``None`` where the field is absent."""
    return None if node is None else _logged_action(node, players)


def _logged_action(node: Node, players: codec.Players) -> LoggedAction:
    """The action a node logs: choice fields may be left out, every other field must be
    there."""
    cls, fields = codec.decode_action_fields(node, players)
    missing = unloggable_missing(cls, fields)
    if missing:
        raise node.error(
            f"field {missing[0]!r} of {cls.kind!r} must be logged "
            "(only choice fields can be left out)"
        )
    return LoggedAction(cls, fields, node.value, node)


def _loop(root: Node, n: int) -> int | None:
    """``loop``: the index of the state the run returns to after the last one (a lasso);
    ``null`` is read as no loop (itf-py writes it so)."""
    node = root.get("loop")
    if node is None:
        return None
    index = node.integer()
    if not 0 <= index < n:
        raise node.error(f"loop {index} is not the index of a state (0..{n - 1})")
    return index


def _param_names(root: Node) -> tuple[str, ...]:
    node = root.get("params")
    if node is None:
        return ()
    names = []
    for x in node.elements():
        name = x.string()
        if name not in PARAMS:
            raise x.error(
                f"unknown parameter {name!r} (known: {', '.join(PARAMS)}; a mapping file "
                "can rename it or drop it: docs/itf.md)"
            )
        names.append(name)
    return tuple(names)


def _params(names: tuple[str, ...], states: list[Node]) -> dict[str, Any]:
    """Parameter values: set in state 0 (ADR-015), the same wherever a later state shows them."""
    out: dict[str, Any] = {}
    for name in names:
        first = states[0].get(name)
        if first is None:
            raise states[0].error(f"parameter {name!r} must be set in state 0")
        value = _param_value(name, first)
        for i, s in enumerate(states[1:], start=1):
            later = s.get(name)
            if later is not None and _param_value(name, later) != value:
                raise later.error(
                    f"parameter {name!r} changes in state {i} (a parameter is a constant)"
                )
        out[name] = value
    return out


def _param_value(name: str, node: Node) -> Any:
    if name == "turn":
        return node.integer()
    if name == "edition":
        return Edition(node.choice([m.value for m in Edition]))
    if name == "step":
        return Step(node.choice([m.value for m in Step]))
    if name == "priority" and node.value == "":
        return None
    return node.string()  # a player's name, checked against the start


def _with_params(start: Start, params: dict[str, Any], state0: Node, has_setup: bool) -> Start:
    if not params:
        return start
    changes: dict[str, Any] = {}
    p = codec.Players(start.players)
    for name, value in params.items():
        node = state0.req(name)
        if name in ("active", "priority") and value is not None:
            value = p.decode(node)
        if has_setup and getattr(start, name) != value:
            raise node.error(
                f"parameter {name!r} disagrees with #meta.setup ({getattr(start, name)!r})"
            )
        changes[name] = value
    return replace(start, **changes)


def _observation(state: Node, kinds: frozenset[str] | None, start: Start | None) -> Observation:
    if start is not None:
        state = _without_setup_fields(state, start)
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
        rec.check_keys(set(CARD_FIELDS) | set(SETUP_FIELDS), f"card {handle!r}")
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
    return start, _observation(state, kinds, start)


def _without_setup_fields(state: Node, start: Start) -> Node:
    """The state without the ``card``/``owner`` members of its card records, which describe
    the setup: each must agree with it (a card's name and owner never change)."""
    cards = state.get("cards")
    records = list(cards.items()) if cards is not None else []
    if not any(rec.has(f) for _, rec in records for f in SETUP_FIELDS):
        return state
    by_handle = {c.handle: c for c in start.cards}
    for handle, rec in records:
        spec = by_handle.get(handle)
        if spec is None:
            continue  # reported by _check_handles
        if (n := rec.get("card")) is not None and n.string() != spec.template.name:
            raise n.error(
                f"{handle} is {spec.template.name!r} in the setup (a card's name never changes)"
            )
        if (o := rec.get("owner")) is not None and o.string() != start.players[spec.owner]:
            raise o.error(
                f"{handle} is owned by {start.players[spec.owner]} in the setup (its owner never changes)"
            )
    value = dict(state.obj_raw())
    raw = value["cards"]
    if "#map" in raw:
        value["cards"] = {
            **raw,
            "#map": [
                [k, _strip(rec)] if isinstance(rec, dict) else [k, rec] for k, rec in raw["#map"]
            ],
        }
    else:
        value["cards"] = {
            k: _strip(rec) if isinstance(rec, dict) else rec for k, rec in raw.items()
        }
    return Node(value, state.path, state.label, state.doc)


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    return {f: x for f, x in record.items() if f not in SETUP_FIELDS}


# --- writing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepRecord:
    """One step to write: the action (``None``: not logged), what was observed after it, the
    clause IDs of the engine's events, and an error if the step crashed."""

    action: Action | None
    observation: Observation
    clauses: tuple[str, ...] = ()
    error: str | None = None


def itf_int(n: int) -> Any:
    return n if -_SAFE_INT <= n <= _SAFE_INT else {"#bigint": str(n)}


def _itf_value(v: Value) -> Any:
    if v is None:
        return ""  # ITF has no null
    if isinstance(v, int) and not isinstance(v, bool):
        return itf_int(v)
    return v


def observation_to_itf(obs: Observation) -> dict[str, Any]:
    """The variables of one state; ``game`` is ``{}`` (nothing observed) when absent."""
    out: dict[str, Any] = {
        "cards": {
            "#map": [
                [h, {k: _itf_value(v) for k, v in rec.items()}] for h, rec in obs.cards.items()
            ]
        },
        "players": {
            "#map": [
                [n, {k: v if k == "graveyard" else _itf_value(v) for k, v in rec.items()}]
                for n, rec in obs.players_json().items()
            ]
        },
        "game": {k: _itf_value(v) for k, v in obs.game.items()},
    }
    if obs.events is not None:
        out["events"] = list(obs.events)
    return out


def trace_to_json(
    start: Start,
    initial: Observation,
    steps: Sequence[StepRecord | tuple[Action | None, Observation]],
    *,
    source: str = "regen-model",
    extra_meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ITF trace: state 0 is ``initial``; then one state per step. ``vars`` lists
    ``events`` only when every step reports them (state 0 then has none: nothing happened
    before the start), so that every state sets every variable."""
    records = [s if isinstance(s, StepRecord) else StepRecord(*s) for s in steps]
    players = codec.Players(start.players)
    meta: dict[str, Any] = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "source": source,
        "setup": start.to_json(),
    }
    if extra_meta:
        meta.update(extra_meta)
    with_events = all(r.observation.events is not None for r in records)
    first = observation_to_itf(replace(initial, events=() if with_events else None))
    states: list[dict[str, Any]] = [{"#meta": {"index": 0}, **first}]
    for i, r in enumerate(records, start=1):
        m: dict[str, Any] = {"index": i}
        if r.action is not None:
            m["action"] = codec.action_to_json(r.action, players)
        if r.clauses:
            m["clauses"] = list(r.clauses)
        if r.error is not None:
            m["error"] = r.error
        variables = observation_to_itf(r.observation)
        if not with_events:
            variables.pop("events", None)
        states.append({"#meta": m, **variables})
    names = [v for v in ITF_VARS if v != "events" or with_events]
    return {"#meta": meta, "vars": names, "states": states}


def clause_ids(events: Iterable[Event]) -> tuple[str, ...]:
    """The clause IDs of ``events``, each once, in order of first appearance."""
    return tuple(dict.fromkeys(e.clause for e in events))


def engine_trace(
    states: Sequence[GameState],
    actions: Sequence[Action],
    events: Sequence[tuple[Event, ...]],
    *,
    source: str,
    meta: dict[str, Any] | None = None,
    errors: Sequence[str | None] = (),
) -> dict[str, Any]:
    """A run of our engine as an ITF trace: ``states[0]`` is the start, ``actions[i]`` and
    ``events[i]`` lead to ``states[i + 1]``; ``errors[i]`` marks a step that crashed. The
    start must be one another engine can set up (``Start.from_state``), which every start
    of ``find``, ``explore`` and ``crosscheck`` is."""
    records = [
        StepRecord(
            action,
            project(state, ev),
            clause_ids(ev),
            errors[i] if i < len(errors) else None,
        )
        for i, (action, state, ev) in enumerate(zip(actions, states[1:], events, strict=True))
    ]
    return trace_to_json(
        Start.from_state(states[0]),
        project(states[0]),
        records,
        source=source,
        extra_meta=meta,
    )


def dump(data: Any) -> str:
    """JSON text with small values kept on one line, readable in a diff."""
    return jsonout.dumps(data)


def write_trace(path: Path, data: dict[str, Any]) -> None:
    jsonout.write(path, data)


__all__ = [
    "FormatError",
    "LoggedAction",
    "StepRecord",
    "Trace",
    "TraceStep",
    "engine_trace",
    "observation_to_itf",
    "parse_trace",
    "read_trace",
    "trace_to_json",
    "write_trace",
]
