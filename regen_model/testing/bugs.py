"""Realistic engine bugs, as adapters wrapping the reference engine: what the cross-checker
must catch (``tests/conform/test_power.py``) and what the pytest plugin's worked example
catches (``examples/pytest_plugin``, docs/testing.md).

Each bug is one an engine author could plausibly write and one the rule mutants of
``model.enums.Mutant`` do not already cover. They are built by transforming the action before
our engine sees it, or the state after, so the bug is exactly the described one and nothing
else.
"""

from __future__ import annotations

import dataclasses

from regen_model.conform.adapter import ActionRejected, ReferenceAdapter
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.derived import power
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Step
from regen_model.model.events import Event, EventKind
from regen_model.model.state import GameState


class PatchedReference(ReferenceAdapter):
    """The reference engine with one bug, applied through two hooks."""

    bug = "no bug"

    def transform(self, action: A.Action) -> A.Action:
        return action

    def after(
        self, before: GameState, state: GameState, events: tuple[Event, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        return state, events

    @property
    def name(self) -> str:
        return f"bug:{type(self).__name__}"

    def apply(self, action: A.Action) -> None:
        before = self.state
        try:
            state, events = step(before, self.transform(action), self.rules)
        except EngineError as exc:
            raise ActionRejected(exc.message, exc.clause) from None
        self._state, self._events = self.after(before, state, events)


class WrathIgnoresCantRegen(PatchedReference):
    """Board wipes ignore "can't be regenerated" (the single-target path honours it)."""

    bug = 'board wipes ignore "can\'t be regenerated"'

    def transform(self, action: A.Action) -> A.Action:
        if isinstance(action, A.Destroy) and len(action.targets) > 1:
            return dataclasses.replace(action, cant_be_regenerated=False)
        if (
            isinstance(action, A.CastSpell)
            and action.effect.kind is EffectKind.DESTROY_ALL_CREATURES
        ):
            return dataclasses.replace(
                action, effect=dataclasses.replace(action.effect, cant_regen=False)
            )
        return action


class RegenClearsMinusCounters(PatchedReference):
    """Regeneration removes -1/-1 counters along with the damage (wither treated as damage)."""

    bug = "regeneration removes -1/-1 counters too"

    def after(
        self, before: GameState, state: GameState, events: tuple[Event, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        cards = list(state.cards)
        for e in events:
            if e.kind is EventKind.REGENERATED and e.subject is not None:
                slot = state.setup.slot_of(e.subject)
                cards[slot] = cards[slot]._replace(minus=0)
        return state._replace(cards=tuple(cards)), events


class UnregenerableForgottenOnControlChange(PatchedReference):
    """ "Can't be regenerated this turn" is stored per controller and lost when control
    changes."""

    bug = '"can\'t be regenerated" lost on a control change'

    def after(
        self, before: GameState, state: GameState, events: tuple[Event, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        cards = list(state.cards)
        for e in events:
            if e.kind is EventKind.CONTROL_CHANGED and e.subject is not None:
                slot = state.setup.slot_of(e.subject)
                cards[slot] = cards[slot]._replace(cant_regen=False)
        return state._replace(cards=tuple(cards)), events


class RegeneratedStillDealsCombatDamage(PatchedReference):
    """An attacker regenerated during combat is removed from combat, but the engine took its
    list of damage dealers when blockers were declared: it still hits the defending player."""

    bug = "regenerated attackers still deal combat damage"

    def __init__(self) -> None:
        super().__init__()
        self.ghosts: set[int] = set()

    def start(self, state: GameState) -> None:
        super().start(state)
        self.ghosts = set()

    def after(
        self, before: GameState, state: GameState, events: tuple[Event, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        for e in events:
            if (
                e.kind is EventKind.REMOVED_FROM_COMBAT
                and e.clause == "regen.apply.remove-from-combat"
                and e.subject is not None
                and before.card(e.subject).attacking
            ):
                self.ghosts.add(state.setup.slot_of(e.subject))
        if state.step is not before.step and before.step is Step.END_COMBAT:
            self.ghosts = set()
        dealt = (
            any(e.kind is EventKind.COMBAT_DAMAGE_ASSIGNED for e in events)
            and state.step is Step.COMBAT_DAMAGE
        )
        if not (dealt and self.ghosts):
            return state, events
        shares = []
        for slot in sorted(self.ghosts):
            card = state.cards[slot]
            if card.on_battlefield and power(state, card) > 0:
                shares.append(A.DamageShare(power(state, card), player=state.defending))
        self.ghosts = set()
        if not shares:
            return state, events
        extra = step(
            state, A.DealDamage(source="ghost attacker", shares=tuple(shares), combat=True)
        )
        return extra.state, events + extra.events


BUG_ADAPTERS: tuple[type[PatchedReference], ...] = (
    WrathIgnoresCantRegen,
    RegenClearsMinusCounters,
    UnregenerableForgottenOnControlChange,
    RegeneratedStillDealsCombatDamage,
)
