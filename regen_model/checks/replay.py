"""Solver traces, replayed on the engine before anyone sees them.

A trace the solver found (BMC, ``find``, cover) is a claim about the rules; the reference
engine is the judge (mypyvy's ``--smoke-test-solver``, always on here). ``replay`` runs the
decoded actions from the decoded start on the engine and compares every state with the
solver's: the first field that differs raises ``ReplayDisagreement``, which the CLI turns
into exit code 7 (an internal error: the two views of the rules disagree).

States are compared through ``flatten``: every rule-relevant field under a readable path
(``troll.tapped``, ``game.step``, ``stack[0].effect.amount``). Descriptive strings that no
rule reads (a shield's origin, a stack object's name) are left out, since the encoding does
not represent them. The same paths make the "changed fields" column of trace tables and the
state records of ITF traces.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from regen_model.encoding.outputs import StepOutputs, outputs_of
from regen_model.engine import EngineError, step
from regen_model.model.actions import Action
from regen_model.model.effects import Effect
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import Card, GameState, StackObject

Value = Any  # int, bool, str, None, or a tuple of those


@dataclass(frozen=True)
class Run:
    """A run: ``states[0]`` is the start, ``actions[i]`` leads from ``states[i]`` to
    ``states[i + 1]`` (the solver's states, as decoded)."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]

    @property
    def start(self) -> GameState:
        return self.states[0]

    @property
    def length(self) -> int:
        return len(self.actions)


def as_run(decoded: Any) -> Run:
    """A ``Run`` from what ``TransitionSystem.decode`` returned (a ``Run``, or an object or
    mapping with ``states`` and ``actions``)."""
    if isinstance(decoded, Run):
        return decoded
    if isinstance(decoded, dict):
        states, actions = decoded["states"], decoded["actions"]
    else:
        states, actions = decoded.states, decoded.actions
    return Run(tuple(states), tuple(actions))


class ReplayDisagreement(Exception):
    """The engine does not do what the solver's trace says (step 0 is the start)."""

    def __init__(self, step: int, path: str, solver: Value, engine: Value, action: str) -> None:
        super().__init__(
            f"the engine disagrees with the solver at step {step} ({action}): {path} is "
            f"{engine!r} on the engine, {solver!r} in the solver's trace"
        )
        self.step = step
        self.path = path
        self.solver = solver
        self.engine = engine
        self.action = action


@dataclass(frozen=True)
class Replayed:
    """A run as the engine played it: its states, events and step outputs."""

    run: Run
    states: tuple[GameState, ...]
    events: tuple[tuple[Event, ...], ...]
    outputs: tuple[StepOutputs, ...]

    def clauses(self, i: int) -> tuple[str, ...]:
        """Clause IDs of the engine's events at step ``i`` (1-based), in order of appearance."""
        return tuple(dict.fromkeys(e.clause for e in self.events[i - 1]))


def replay(run: Run, rules: Rules = CORRECT) -> Replayed:
    """Play ``run`` on the engine; raise ``ReplayDisagreement`` at the first difference."""
    state = run.states[0]
    states = [state]
    events: list[tuple[Event, ...]] = []
    outputs: list[StepOutputs] = []
    for i, action in enumerate(run.actions, start=1):
        try:
            result = step(state, action, rules)
        except EngineError as err:
            raise ReplayDisagreement(
                i, "action", "legal", f"rejected: {err}", action.kind
            ) from None
        expected = run.states[i]
        for path, solver_value, engine_value in diff(expected, result.state)[:1]:
            raise ReplayDisagreement(i, path, solver_value, engine_value, action.kind)
        outputs.append(outputs_of(state, result.events, result.state))
        state = result.state
        states.append(state)
        events.append(result.events)
    return Replayed(run, tuple(states), tuple(events), tuple(outputs))


def tidy(run: Run, rules: Rules = CORRECT) -> Run:
    """The same run with every 616.1 answer the engine did not need removed.

    A solver fills in an answer for every permanent and player whether or not the rules ask
    (only the affected permanent's controller is asked, and only when effects compete); the
    engine ignores the rest. An answer is dropped when the step without it gives the same
    state and events, so the trace shows the choices that mattered."""
    actions = []
    state = run.states[0]
    for action in run.actions:
        try:
            result = step(state, action, rules)
        except EngineError:
            return run  # not a legal run: leave it for ``replay`` to report
        kept = list(action.choices)
        for choice in action.choices:
            trial = dataclasses.replace(action, choices=tuple(c for c in kept if c != choice))
            try:
                other = step(state, trial, rules)
            except EngineError:
                continue
            if other.events == result.events and not diff(other.state, result.state):
                kept.remove(choice)
        actions.append(dataclasses.replace(action, choices=tuple(kept)))
        state = result.state
    return Run(run.states, tuple(actions))


# --- flattening and diffs -------------------------------------------------------------------

_CARD_SKIP = frozenset({"slot", "shields", "ghost"})


def _plain(value: Any) -> Value:
    if isinstance(value, frozenset):
        return tuple(sorted(str(v) for v in value))
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if hasattr(value, "value") and isinstance(getattr(value, "value", None), str):
        return str(value.value)
    return value


def _card(state: GameState, prefix: str, card: Card) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for name in Card._fields:
        if name in _CARD_SKIP:
            continue
        value = getattr(card, name)
        if name in ("attached_to", "blocking", "blocking_also") and value is not None:
            value = state.handle(value)
        if name in ("control", "control_eot") and value is not None:
            value = state.player_name(value)
        out[f"{prefix}.{name}"] = _plain(value)
    out[f"{prefix}.shields"] = tuple(
        f"{'used' if s.used else 'unused'}"
        + (f"/{s.rider.value}" if s.rider.value != "none" else "")
        + f"/by {state.player_name(s.creator)}"
        for s in card.shields
    )
    for name in card.ghost._fields:
        out[f"{prefix}.ghost.{name}"] = getattr(card.ghost, name)
    return out


def _effect(prefix: str, effect: Effect | None) -> dict[str, Value]:
    if effect is None:
        return {}
    return {f"{prefix}.effect.{f.name}": _plain(getattr(effect, f.name)) for f in fields(effect)}


def _stack(state: GameState, prefix: str, obj: StackObject) -> dict[str, Value]:
    out: dict[str, Value] = {
        f"{prefix}.kind": obj.kind.value,
        f"{prefix}.controller": state.player_name(obj.controller),
        f"{prefix}.targets": tuple(
            (state.handle(t.card), t.gen) if t.card is not None else f"player {t.player}"
            for t in obj.targets
        ),
        f"{prefix}.source": None if obj.source is None else state.handle(obj.source),
        f"{prefix}.combat_hits": tuple(
            (state.handle(s), h.amount, None if h.card is None else state.handle(h.card))
            for s, h in obj.combat_hits
        ),
        f"{prefix}.combat_lki": tuple(
            (state.handle(x.source), _plain(x.keywords), state.player_name(x.controller))
            for x in obj.combat_lki
        ),
    }
    out.update(_effect(prefix, obj.effect))
    return out


def flatten(state: GameState) -> dict[str, Value]:
    """Every rule-relevant field of a state under a readable path, in a fixed order."""
    out: dict[str, Value] = {
        "game.edition": state.edition.value,
        "game.turn": state.turn,
        "game.active": state.player_name(state.active),
        "game.step": state.step.value,
        "game.priority": None if state.priority is None else state.player_name(state.priority),
        "game.passed": tuple(sorted(state.player_name(p) for p in state.passed)),
        "game.decision": state.decision.value,
        "game.stack": len(state.stack),
        "game.pending": len(state.pending),
        "combat_state.orders": tuple(
            (state.handle(a), tuple(state.handle(b) for b in order))
            for a, order in state.combat.orders
        ),
        "combat_state.first_strikers": tuple(
            sorted(state.handle(i) for i in state.combat.first_strikers)
        ),
        "combat_state.first_strike_step": state.combat.first_strike_step,
        "combat_state.declared": state.combat.declared,
    }
    for i, p in enumerate(state.players):
        name = state.player_name(i)
        out[f"{name}.life"] = p.life
        out[f"{name}.poison"] = p.poison
        out[f"{name}.lost"] = p.lost
        out[f"{name}.hand"] = p.hand
        out[f"{name}.library"] = p.library
        # groups bottom to top; a group without a card slot (a spell, 608.2n, or the cards of
        # one mill, 701.17a) as the frame keeps it: counted, its entries not named
        out[f"{name}.graveyard"] = tuple(
            tuple(sorted(state.handle(x) for x in group if isinstance(x, int)))
            or ("(spell or milled cards)",)
            for group in p.graveyard
        )
    for j, obj in enumerate(state.stack):
        out.update(_stack(state, f"stack[{j}]", obj))
    for j, obj in enumerate(state.pending):
        out.update(_stack(state, f"pending[{j}]", obj))
    for i, card in enumerate(state.cards):
        out.update(_card(state, state.handle(i), card))
    return out


def diff(expected: GameState, actual: GameState) -> list[tuple[str, Value, Value]]:
    """(path, expected value, actual value) for every field that differs, in flatten order."""
    a, b = flatten(expected), flatten(actual)
    keys = list(dict.fromkeys([*a, *b]))
    return [(k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]


def changes(before: GameState, after: GameState) -> list[tuple[str, Value, Value]]:
    """The fields one step changed (for trace tables)."""
    return diff(before, after)


def describe_action(action: Action, players: Sequence[str]) -> str:
    """``destroy targets=[c0] choices=[{permanent: c0, by: A, use: static}]``: the action's
    kind and its non-default fields, in the JSON form of actions written without quotes."""
    from regen_model.conform.codec import action_to_json

    data = action_to_json(action, players)
    kind = data.pop("kind")
    parts = [f"{k}={_text(v)}" for k, v in data.items()]
    return " ".join([kind, *parts])


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
