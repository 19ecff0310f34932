"""Counterexample traces: replayed on the engine, shown as a table of changed fields, and
written in the Informal Trace Format (ITF) of Apalache and Quint by ``conform.itf``.

A trace is stored as its start state and actions only; ``replay`` recomputes every state and
event with the engine (it is deterministic), so the printed trace is exactly what the engine
does and needs no bookkeeping during the search. The table follows TLC's ``-difftrace``: each
step shows the action, the fields that changed (``troll.damage: 3 -> 0``) and the clause IDs of
the events that changed them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from regen_model.conform.itf import engine_trace
from regen_model.engine import EngineError, step
from regen_model.model.actions import Action
from regen_model.model.derived import blocks_now, controller, power, toughness
from regen_model.model.events import Event
from regen_model.model.rules import Rules
from regen_model.model.state import Card, GameState

PLAYER_FIELDS = frozenset({"player", "creator", "controller", "by"})


@dataclass(frozen=True)
class TraceStep:
    action: Action
    state: GameState
    events: tuple[Event, ...]
    error: str | None = None  # the step crashed (the state is then the one before it)


@dataclass(frozen=True)
class Trace:
    start: GameState
    steps: tuple[TraceStep, ...]

    @property
    def states(self) -> list[GameState]:
        return [self.start, *(s.state for s in self.steps)]


def replay(start: GameState, actions: Iterable[Action], rules: Rules) -> Trace:
    """Run ``actions`` from ``start``; a step that raises ends the trace with its error."""
    steps: list[TraceStep] = []
    state = start
    for action in actions:
        try:
            result = step(state, action, rules)
        except EngineError:
            raise
        except Exception as crash:  # recorded in the trace, not hidden
            steps.append(TraceStep(action, state, (), f"{type(crash).__name__}: {crash}"))
            break
        steps.append(TraceStep(action, result.state, result.events))
        state = result.state
    return Trace(start, tuple(steps))


# --- flat view of a state, for diffs ---------------------------------------------------


def flatten(state: GameState) -> dict[str, Any]:
    """Every observable field of ``state`` as ``name -> plain value`` (stable key order)."""
    names = state.setup.player_names
    out: dict[str, Any] = {
        "turn": state.turn,
        "active": names[state.active],
        "step": state.step.value,
        "priority": "" if state.priority is None else names[state.priority],
        "decision": state.decision.value,
        "stack": [o.name for o in state.stack],
        "pending": [o.name for o in state.pending],
    }
    for i, p in enumerate(state.players):
        out[f"{names[i]}.life"] = p.life
        out[f"{names[i]}.poison"] = p.poison
        out[f"{names[i]}.lost"] = p.lost
    for card in state.cards:
        h = state.setup.handles[card.slot]
        out[f"{h}.zone"] = card.zone.value
        out[f"{h}.object"] = card.gen
        if not card.on_battlefield:
            continue
        out[f"{h}.controller"] = names[controller(card)]
        out[f"{h}.tapped"] = card.tapped
        out[f"{h}.damage"] = card.damage
        out[f"{h}.power"] = power(state, card)
        out[f"{h}.toughness"] = toughness(state, card)
        out[f"{h}.plus_counters"] = card.plus
        out[f"{h}.minus_counters"] = card.minus
        out[f"{h}.shield_counters"] = card.shield_counters
        out[f"{h}.shields"] = [
            f"{s.origin}{'' if s.rider.value == 'none' else ' [' + s.rider.value + ']'}"
            f"{' (used)' if s.used else ''}"
            for s in card.shields
        ]
        out[f"{h}.cant_regen"] = card.cant_regen
        out[f"{h}.deathtouched"] = card.deathtouched
        out[f"{h}.summoning_sick"] = card.sick
        out[f"{h}.keywords"] = sorted(
            [f"+{k.value}" for k in card.kw_granted] + [f"-{k.value}" for k in card.kw_removed]
        )
        out[f"{h}.attached_to"] = (
            "" if card.attached_to is None else state.setup.handles[card.attached_to]
        )
        out[f"{h}.combat"] = _combat(state, card)
    return out


def _combat(state: GameState, card: Card) -> str:
    if card.attacking:
        return "attacking, blocked" if card.blocked else "attacking"
    if card.blocking_also is not None:
        # a creature declared blocking two attackers: those it blocks now (510.1d)
        now = blocks_now(state, card.slot)
        return "blocking " + (" and ".join(state.setup.handles[a] for a in now) or "nothing")
    if card.blocking is not None:
        return f"blocking {state.setup.handles[card.blocking]}"
    return ""


def diff(before: GameState, after: GameState) -> list[tuple[str, Any, Any]]:
    """The fields that differ: (name, old value, new value); absent fields are None."""
    a, b = flatten(before), flatten(after)
    keys = list(dict.fromkeys([*a, *b]))
    return [(k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]


def describe_action(action: Action, players: Sequence[str]) -> str:
    """``destroy targets=[troll] cant_be_regenerated=true``: the kind and non-default fields."""
    parts = [action.kind]
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        if f.name == "effect":
            continue  # implied by a built-in spell's name
        parts.append(f"{f.name}={_text(_plain(value, f.name, players))}")
    return " ".join(parts)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items() if v != "") + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _plain(value: Any, name: str, players: Sequence[str]) -> Any:
    """A JSON value for an action field (player indices become names)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return players[value] if name in PLAYER_FIELDS and 0 <= value < len(players) else value
    if value is None:
        return ""
    if isinstance(value, frozenset):
        return sorted(_plain(v, name, players) for v in value)
    if isinstance(value, tuple):
        return [_plain(v, name, players) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name), f.name, players)
            for f in dataclasses.fields(value)
        }
    return value


def clauses(events: Iterable[Event]) -> list[str]:
    """The clause IDs of ``events``, each once, in order of first appearance."""
    return list(dict.fromkeys(e.clause for e in events))


# --- ITF -----------------------------------------------------------------------------------


def to_itf(trace: Trace, meta: dict[str, Any]) -> dict[str, Any]:
    """The trace in ITF, written by the one codec (``conform.itf``): each state the
    observable projection, each later state's ``#meta`` the action, the clause IDs of its
    events and, for a step that crashed, the error."""
    return engine_trace(
        trace.states,
        [s.action for s in trace.steps],
        [s.events for s in trace.steps],
        source="regen-model explore",
        meta=meta,
        errors=[s.error for s in trace.steps],
    )
