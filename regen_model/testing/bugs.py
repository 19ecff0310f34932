"""Realistic engine bugs, as adapters wrapping the reference engine: what the cross-checker
must catch (``tests/conform/test_power.py``) and what the pytest plugin's worked example
catches (``examples/pytest_plugin``, docs/testing.md).

Each bug is one an engine author could plausibly write and one the rule mutants of
``model.enums.Mutant`` do not already cover. They are built by transforming the action before
our engine sees it, or the state after, so the bug is exactly the described one and nothing
else.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

from regen_model.conform.adapter import ActionRejected, EngineAdapter, ReferenceAdapter
from regen_model.engine import EngineError, destruction, sba, step, turn
from regen_model.engine.work import Work
from regen_model.model import actions as A
from regen_model.model.derived import has, power, sba_pending, toughness
from regen_model.model.effects import EffectKind
from regen_model.model.enums import CardType, Keyword, Mutant, Step
from regen_model.model.events import Event, EventKind
from regen_model.model.rules import Rules
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

    def patched(self) -> contextlib.AbstractContextManager[object]:
        """A context in which the engine's own functions misbehave (for bugs deep inside one
        rule); the patch lasts for one step of this adapter only."""
        return contextlib.nullcontext()

    def apply(self, action: A.Action) -> None:
        before = self.state
        try:
            with self.patched():
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


# --- the bug classes of issue 15, item 5: each must be found by the generator alone ------------


class RegenStaysInCombatInFirstStrikeStep(PatchedReference):
    """A creature regenerated in the first-strike combat damage step is not removed from combat
    (the engine removes regenerated creatures from combat in the regular damage step only), so
    it deals or receives regular combat damage."""

    bug = "regenerated in the first-strike step, still in combat"

    def after(
        self, before: GameState, state: GameState, events: tuple[Event, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        if state.step is not Step.FIRST_STRIKE_DAMAGE:
            return state, events
        cards = list(state.cards)
        kept = []
        for e in events:
            if (
                e.kind is EventKind.REMOVED_FROM_COMBAT
                and e.clause == "regen.apply.remove-from-combat"
                and e.subject is not None
            ):
                slot = state.setup.slot_of(e.subject)
                old = before.cards[slot]
                cards[slot] = cards[slot]._replace(
                    attacking=old.attacking, blocking=old.blocking, blocked=old.blocked
                )
                continue
            kept.append(e)
        return state._replace(cards=tuple(cards)), tuple(kept)


class ShieldCounterReplacesSbaDestruction(PatchedReference):
    """A shield counter also replaces destruction by a state-based action (lethal damage,
    deathtouch); 122.1c has it replace only destruction "as the result of an effect"."""

    bug = "a shield counter replaces a state-based destruction"

    def patched(self) -> contextlib.AbstractContextManager[object]:
        original = destruction.applicable_options

        def buggy(w: Work, slot: int, *, cant_regen: bool, by_effect: bool) -> Any:
            return original(w, slot, cant_regen=cant_regen, by_effect=True)

        return mock.patch.object(destruction, "applicable_options", buggy)


def deathtouch_record_kept() -> ReferenceAdapter:
    """The deathtouch record outlives the check that read it (704.5h: damage since the last
    check only): a creature regenerated from deathtouch damage is destroyed at the next check.
    This is the rule mutant ``deathtouch-remembered`` of the reference engine."""
    return ReferenceAdapter(Rules(frozenset({Mutant.DEATHTOUCH_REMEMBERED})))


class LandCreatureIgnoresCantRegen(PatchedReference):
    """ "Can't be regenerated" is not applied to a creature that is also a land (the engine
    keeps its "can't be regenerated" effects in a table of nonland permanents)."""

    bug = 'a land creature ignores "can\'t be regenerated"'

    def patched(self) -> contextlib.AbstractContextManager[object]:
        original = destruction.applicable_options

        def buggy(w: Work, slot: int, *, cant_regen: bool, by_effect: bool) -> Any:
            if CardType.LAND not in w.setup.templates[slot].types:
                return original(w, slot, cant_regen=cant_regen, by_effect=by_effect)
            card = w.cards[slot]
            w.cards[slot] = card._replace(cant_regen=False)
            try:
                return original(w, slot, cant_regen=False, by_effect=by_effect)
            finally:
                w.cards[slot] = card

        return mock.patch.object(destruction, "applicable_options", buggy)


class IndestructibleRepeatsCleanup(PatchedReference):
    """The cleanup step looks for state-based actions before removing damage and counts an
    indestructible creature with lethal damage as one, so players get priority in cleanup and
    another cleanup step follows (514.3a) where the rules go on to the next turn."""

    bug = "an indestructible creature makes cleanup repeat"

    def patched(self) -> contextlib.AbstractContextManager[object]:
        original = sba.cleanup_effects  # turn.py's name for it is what gets patched
        seen: list[bool] = []

        def looks_first(w: Work) -> None:
            seen.append(
                any(
                    c.on_battlefield
                    and c.damage > 0
                    and has(w, c, Keyword.INDESTRUCTIBLE)
                    and c.damage >= toughness(w, c)
                    for c in w.cards
                )
            )
            original(w)

        def pending(w: Work) -> bool:
            return (bool(seen) and seen[-1]) or sba_pending(w)

        @contextlib.contextmanager
        def both() -> Iterator[None]:
            with (
                mock.patch.object(turn, "cleanup_effects", looks_first),
                mock.patch.object(turn, "sba_pending", pending),
            ):
                yield

        return both()


# The bug classes the generator must reach alone (tests/conform/test_bug_classes.py): a name,
# what is wrong, and the engine.
BUG_CLASSES: tuple[tuple[str, str, Callable[[], EngineAdapter]], ...] = (
    (
        "first-strike-combat",
        RegenStaysInCombatInFirstStrikeStep.bug,
        RegenStaysInCombatInFirstStrikeStep,
    ),
    (
        "shield-counter-sba",
        ShieldCounterReplacesSbaDestruction.bug,
        ShieldCounterReplacesSbaDestruction,
    ),
    (
        "deathtouch-record",
        "the deathtouch record is kept past the next check",
        deathtouch_record_kept,
    ),
    ("land-creature-cant-regen", LandCreatureIgnoresCantRegen.bug, LandCreatureIgnoresCantRegen),
    ("indestructible-cleanup", IndestructibleRepeatsCleanup.bug, IndestructibleRepeatsCleanup),
)


BUG_ADAPTERS: tuple[type[PatchedReference], ...] = (
    WrathIgnoresCantRegen,
    RegenClearsMinusCounters,
    UnregenerableForgottenOnControlChange,
    RegeneratedStillDealsCombatDamage,
)
