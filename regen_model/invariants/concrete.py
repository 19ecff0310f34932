"""The concrete view: expressions read an engine ``GameState`` and a step's ``StepOutputs``.

Values follow the encoding's conventions exactly (``encoding/frame.py``'s ``assignment``), so
that evaluating an expression here and on a frame pinned to the same state gives the same
answer (``tests/invariants/test_views_agree.py`` checks it): enums are ordinals, "none" is -1,
a shield slot beyond a card's list reads as absent with every field zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from regen_model.encoding.outputs import StepOutputs
from regen_model.invariants import expr as E
from regen_model.invariants.view import Slot, Value
from regen_model.model import derived
from regen_model.model.cards import AbilityKind, TriggerEffect
from regen_model.model.enums import Keyword, ordinal
from regen_model.model.state import Card, GameState

NONE = -1


def _opt(value: int | None) -> int:
    return NONE if value is None else value


_CARD_INT: dict[str, Callable[[GameState, Card], int]] = {
    "zone": lambda s, c: ordinal(c.zone),
    "gen": lambda s, c: c.gen,
    "control": lambda s, c: c.control,
    "control_eot": lambda s, c: _opt(c.control_eot),
    "damage": lambda s, c: c.damage,
    "plus": lambda s, c: c.plus,
    "minus": lambda s, c: c.minus,
    "shield_counters": lambda s, c: c.shield_counters,
    "power_eot": lambda s, c: c.power_eot,
    "toughness_eot": lambda s, c: c.toughness_eot,
    "attached_to": lambda s, c: _opt(c.attached_to),
    "blocking": lambda s, c: _opt(c.blocking),
    "shields_made": lambda s, c: c.ghost.shields_made,
    "destructions": lambda s, c: c.ghost.destructions,
    "by_shield": lambda s, c: c.ghost.by_shield,
    "by_static": lambda s, c: c.ghost.by_static,
    "by_other": lambda s, c: c.ghost.by_other,
    "toughness": derived.toughness,
    "power": derived.power,
    "controller": lambda s, c: derived.controller(c),
}
_CARD_BOOL: dict[str, Callable[[GameState, Card], bool]] = {
    "tapped": lambda s, c: c.tapped,
    "deathtouched": lambda s, c: c.deathtouched,
    "cant_regen": lambda s, c: c.cant_regen,
    "attacking": lambda s, c: c.attacking,
    "blocked": lambda s, c: c.blocked,
    "on_battlefield": lambda s, c: c.on_battlefield,
    "in_combat": lambda s, c: c.in_combat,
    "indestructible": lambda s, c: derived.has(s, c, Keyword.INDESTRUCTIBLE),
    "is_creature": derived.is_creature,
}
_GAME_INT: dict[str, Callable[[GameState], int]] = {
    "turn": lambda s: s.turn,
    "active": lambda s: s.active,
    "step": lambda s: ordinal(s.step),
    "priority": lambda s: _opt(s.priority),
    "decision": lambda s: ordinal(s.decision),
    "stack_size": lambda s: len(s.stack),
    "pending_size": lambda s: len(s.pending),
}


def _trigger_code(state: GameState, slot: int) -> int:
    t = state.setup.templates[slot].damage_trigger
    if t is None:
        return 0
    return 1 if t.effect is TriggerEffect.GAIN_LIFE else 2


class ConcreteView:
    """A state (``pre`` is None) or a step ``pre -> post`` with its outputs and action kind.

    ``history`` maps an output name to per-card totals over a run, for queries.
    """

    def __init__(
        self,
        post: GameState,
        pre: GameState | None = None,
        outputs: StepOutputs | None = None,
        kind: str | None = None,
        history: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        self.post = post
        self.pre = pre
        self.outputs = outputs
        self.kind = kind
        self.totals = history

    def _state(self, time: E.Time) -> GameState:
        if time == "pre":
            if self.pre is None:
                raise ValueError("a state property cannot read the pre-state")
            return self.pre
        return self.post

    def card_slots(self) -> Sequence[Slot]:
        return range(len(self.post.cards))

    def shield_slots(self, card: Slot) -> Sequence[int]:
        n = len(self.post.cards[card].shields)
        if self.pre is not None:
            n = max(n, len(self.pre.cards[card].shields))
        return range(n)

    def slot_index(self, card: Slot) -> Value:
        return card

    def card_int(self, card: Slot, name: str, time: E.Time) -> Value:
        s = self._state(time)
        return _CARD_INT[name](s, s.cards[card])

    def card_bool(self, card: Slot, name: str, time: E.Time) -> Value:
        s = self._state(time)
        return _CARD_BOOL[name](s, s.cards[card])

    def static_int(self, card: Slot, name: str) -> Value:
        t = self.post.setup.templates[card]
        if name == "printed_power":
            return t.power
        if name == "printed_toughness":
            return t.toughness
        if name == "trigger":
            return _trigger_code(self.post, card)
        raise KeyError(name)

    def static_bool(self, card: Slot, name: str) -> Value:
        t = self.post.setup.templates[card]
        if name == "creature":
            return t.is_creature
        if name == "static_regen":
            return t.static_regeneration
        if name == "regen_ability":
            return any(a.kind is AbilityKind.REGENERATE_SELF for a in t.abilities)
        raise KeyError(name)

    def shield_int(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        shields = self._state(time).cards[card].shields
        if j >= len(shields):
            return 0
        s = shields[j]
        return ordinal(s.rider) if name == "rider" else s.creator

    def shield_bool(self, card: Slot, j: int, name: str, time: E.Time) -> Value:
        shields = self._state(time).cards[card].shields
        if j >= len(shields):
            return False
        return True if name == "present" else shields[j].used

    def game_int(self, name: str, time: E.Time) -> Value:
        return _GAME_INT[name](self._state(time))

    def game_bool(self, name: str, time: E.Time) -> Value:
        if name == "sba_pending":
            return derived.sba_pending(self._state(time))
        raise KeyError(name)

    def output(self, name: str, card: Slot) -> Value:
        if self.outputs is None:
            raise ValueError("a state property cannot read step outputs")
        return self.outputs.get(name, card)

    def history(self, name: str, card: Slot) -> Value:
        if self.totals is None:
            raise ValueError("run totals are only available while searching a trace")
        return self.totals[name][card]

    def priority_given(self) -> Value:
        if self.outputs is None:
            raise ValueError("a state property cannot read step outputs")
        return self.outputs.priority_given

    def countered(self) -> Value:
        if self.outputs is None:
            raise ValueError("a state property cannot read step outputs")
        return self.outputs.countered

    def action_is(self, kinds: frozenset[str]) -> Value:
        return self.kind in kinds

    def int_const(self, value: int) -> Value:
        return value

    def bool_const(self, value: bool) -> Value:
        return value

    def and_(self, args: Sequence[Value]) -> Value:
        return all(args)

    def or_(self, args: Sequence[Value]) -> Value:
        return any(args)

    def not_(self, arg: Value) -> Value:
        return not arg

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        return then if cond else other
