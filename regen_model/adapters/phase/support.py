"""What phase.rs can express: the static check of a scenario before it runs.

Everything here looks only at the start state and the action list, never runs an engine, so a
runner can decide cheaply which scenarios to skip. What can only be found out while running
(phase.rs performing a state-based action that our effect action leaves pending) is raised as
``Unexpressible`` by the translation instead.

The action matrix (docs/phase-adapter.md has the same table with the phase.rs side):

* game actions: pass, cast, activate, declare attackers and blockers, assign combat damage are
  supported; ordering blockers (M10 only) is not, nor is combat in the pre-M10 and M10
  editions, since phase.rs implements the current (FDN) combat damage rules, nor is deathtouch
  in the pre-M10 edition (a trigger then; phase.rs has the current state-based form).
* effects: shields without a rider, damage (no "can't be regenerated" rider, no recipient with a
  damage trigger or a prevention effect), destroying one permanent, sacrifice, exile,
  leave-and-return, control change, P/T change, counters, keyword change, attaching an Aura or
  Equipment, "can't be regenerated this turn" and the SBA check are supported;
* issue 12's mechanics: prevention and unpreventable damage (615), phasing (702.26), a blocker
  of two attackers (509.1a), equip and "Regenerate enchanted creature" are phase.rs's own; a
  start's prevention effects, Disintegrate's "exile it instead" (614.6) and phased-out
  permanents are written into its state (board.py), a start's Pyramids effect (614.1a) is not
  (phase.rs does not parse the mode); a cleanup action is not (phase.rs has no way to run
  514.2 outside its cleanup step);
* type changes (613.1d): a ``change-type`` effect and a start's ``animated`` / ``noncreature``
  are harness spells phase.rs parses into its own layer-4 effects (``type_change_card``);
  Spawning Pool's own animation is its phase.rs card's ability.
"""

from __future__ import annotations

from collections.abc import Sequence

from regen_model.adapters.phase.board import STEP_TO_PHASE
from regen_model.adapters.phase.carddata import (
    MODEL_CARDS,
    NoHarness,
    PhaseCard,
    harness_card,
    keyword_grant_card,
    type_change_card,
)
from regen_model.conform.adapter import Unsupported
from regen_model.model import actions as A
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.derived import controller, has, sba_pending
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import Decision, Edition, Keyword, Rider
from regen_model.model.state import Combat, GameState, Setup


def spell_card(action: A.CastSpell) -> PhaseCard:
    """The phase.rs card a cast maps to: the real card when the action casts a built-in spell
    exactly as defined, else a harness spell with the same effect. Raises ``NoHarness``."""
    builtin = SPELLS.get(action.name)
    if (
        builtin is not None
        and builtin.effect == action.effect
        and builtin.sorcery == action.sorcery
        and action.name in MODEL_CARDS
    ):
        return MODEL_CARDS[action.name]
    if action.effect.kind is EffectKind.LIFE:
        raise NoHarness("a cast life effect has no target in the model and changes nothing")
    if (
        action.effect.exile_if_dies
        and not action.effect.cant_regen_target
        and any(t.card is None for t in action.targets)
    ):
        # the exile rider alone is phase.rs's only for "target creature" (carddata)
        raise NoHarness("'if that creature would die this turn, exile it instead' at a player")
    return harness_card(action.effect, sorcery=action.sorcery)


def effect_card(action: A.Action, setup: Setup) -> PhaseCard | None:
    """The harness spell an effect action is performed with, if it needs one (``setup``: the
    game's cards, for a type change, whose words depend on what its target can become)."""
    if isinstance(action, A.ChangeType):
        if action.target not in setup.handles:
            raise NoHarness(f"unknown card {action.target!r}")
        template = setup.templates[setup.slot_of(action.target)]
        return type_change_card(template, creature=action.creature)
    if isinstance(action, A.Destroy):
        effect = Effect(EffectKind.DESTROY, cant_regen=action.cant_be_regenerated)
        return harness_card(effect, permanent=True)
    if isinstance(action, A.ModifyPowerToughness):
        return harness_card(Effect(EffectKind.PUMP, power=action.power, toughness=action.toughness))
    if isinstance(action, A.MakeUnregenerable):
        return harness_card(Effect(EffectKind.UNREGENERABLE), permanent=True)
    if isinstance(action, A.ChangeControl):
        effect = Effect(EffectKind.GAIN_CONTROL, until_end_of_turn=action.until_end_of_turn)
        return harness_card(effect, permanent=True)
    if isinstance(action, A.GrantKeyword):
        return keyword_grant_card(action.keyword, remove=action.remove)
    return None


def check_state(state: GameState) -> Unsupported | None:
    """Why phase.rs cannot start from ``state``, or ``None``."""
    if len(state.players) != 2:
        return Unsupported("phase.rs games here have exactly two players")
    if state.stack or state.pending:
        return Unsupported("objects on the stack or waiting triggers cannot be set up in phase.rs")
    if state.decision is not Decision.NONE or state.combat != Combat():
        return Unsupported("a start state in the middle of combat cannot be set up in phase.rs")
    if state.step not in STEP_TO_PHASE:
        return Unsupported(f"a start in the {state.step.value} step cannot be set up in phase.rs")
    if not (
        (state.priority == state.active and not state.passed)
        or (state.priority == state.defending and state.passed == frozenset({state.active}))
    ):
        return Unsupported(
            "priority must be with the active player, or with the other player after the "
            "active player passed"
        )
    if any(p.lost for p in state.players):
        return Unsupported("a player who has lost cannot be set up")
    for slot, card in enumerate(state.cards):
        template = state.setup.templates[slot]
        if PERMANENT_CARDS.get(template.name) != template:
            return Unsupported(f"{template.name!r} is not a built-in card")
        if template.name not in MODEL_CARDS:  # pragma: no cover - every built-in card has one
            return Unsupported(f"{template.name!r} has no phase.rs card definition in the adapter")
        if card.animated and card.noncreature and (card.damage or card.deathtouched):
            return Unsupported(
                "an animated permanent that stopped being a creature, with damage marked: "
                "phase.rs would destroy it while its animation is set up, before the type "
                "change that ends it"
            )
        if card.in_combat or card.blocked:
            return Unsupported("a permanent in combat cannot be set up in phase.rs")
        if any(s.rider is not Rider.NONE for s in card.shields):
            return Unsupported("a shield with a rider at the start: phase.rs shields have none")
        if card.remove_damage:
            # never run without it: the case would be compared without the replacement
            return Unsupported(
                f"remove-damage-instead: {state.handle(slot)} has an unused Pyramids effect "
                "(614.1a), a mode phase.rs 0.103 does not parse"
            )
    legends = [
        (controller(card), state.setup.templates[slot].name)
        for slot, card in enumerate(state.cards)
        if card.on_battlefield
        and MODEL_CARDS[state.setup.templates[slot].name].type_line.startswith("Legendary")
    ]
    if len(legends) != len(set(legends)):
        return Unsupported(
            "two legendary permanents of one name under one controller: phase.rs applies the "
            "legend rule (704.5j), which the model leaves out"
        )
    effects = start_effects(state)
    for action in effects:
        try:
            effect_card(action, state.setup)
        except NoHarness as exc:
            return Unsupported(f"an until-end-of-turn effect at the start: {exc}")
    if effects and sba_pending(state):
        return Unsupported(
            "until-end-of-turn effects at the start are set up by spells, and phase.rs would "
            "perform the pending state-based actions when they resolve"
        )
    return None


def start_effects(state: GameState) -> tuple[A.Action, ...]:
    """The effect actions that put a start state's "this turn" effects in place.

    phase.rs has no way to write an until-end-of-turn effect into its state, so the adapter
    resolves the same harness spells the effect actions use (control first, as the later
    effects are cast by the permanent's controller in phase.rs too). Type changes (613.1d)
    come next and last: an animation (``animated``) before the effects that target a creature
    (P/T, keywords), and "it stops being a creature" (``noncreature``) after them and after the
    animation, since in our ``Card`` the latest type change is the one that made it stop (a
    later timestamp wins within layer 4, 613.7). The order does not matter otherwise: the
    other effects do not depend on each other (613 layers apply to all).
    """
    out: list[A.Action] = []
    for slot, card in enumerate(state.cards):
        if not card.on_battlefield:
            continue
        handle = state.handle(slot)
        if card.control_eot is not None:
            out.append(
                A.ChangeControl(target=handle, player=card.control_eot, until_end_of_turn=True)
            )
    for slot, card in enumerate(state.cards):
        if card.on_battlefield and card.animated:
            out.append(A.ChangeType(target=state.handle(slot), creature=True))
    for slot, card in enumerate(state.cards):
        if not card.on_battlefield:
            continue
        handle = state.handle(slot)
        if card.power_eot or card.toughness_eot:
            out.append(
                A.ModifyPowerToughness(
                    target=handle, power=card.power_eot, toughness=card.toughness_eot
                )
            )
        for keyword in sorted(card.kw_granted):
            out.append(A.GrantKeyword(target=handle, keyword=keyword))
        for keyword in sorted(card.kw_removed):
            out.append(A.GrantKeyword(target=handle, keyword=keyword, remove=True))
        if card.cant_regen:
            out.append(A.MakeUnregenerable(target=handle))
    for slot, card in enumerate(state.cards):
        if card.on_battlefield and card.noncreature:
            out.append(A.ChangeType(target=state.handle(slot), creature=False))
    return tuple(out)


def check_action(state: GameState, index: int, action: A.Action) -> Unsupported | None:
    """Why phase.rs cannot perform ``action`` (the ``index``-th), or ``None``."""

    def no(reason: str) -> Unsupported:
        return Unsupported(f"{action.kind}: {reason}", index)

    try:
        if isinstance(action, A.CastSpell):
            spell_card(action)
        else:
            effect_card(action, state.setup)
    except NoHarness as exc:
        return no(str(exc))
    if isinstance(action, A.OrderBlockers):
        return no("damage assignment order exists only in the M10 edition")
    if (
        isinstance(action, A.DeclareAttackers)
        and action.attackers
        and state.edition is not Edition.FDN
    ):
        return no(f"phase.rs implements FDN combat damage, not {state.edition.value}")
    if isinstance(action, A.Cleanup):
        return no("phase.rs performs cleanup only in its cleanup step")
    if isinstance(action, A.CreateShield) and action.rider is not Rider.NONE:
        return no("phase.rs shields carry no rider")
    if isinstance(action, A.Destroy) and len(action.targets) != 1:
        return no("phase.rs destroys several permanents at once only with 'destroy all'")
    if isinstance(action, A.DealDamage):
        if action.cant_regen:
            return no("damage with a can't-be-regenerated rider needs a spell (use CastSpell)")
        for share in action.shares:
            if share.card is None:
                continue
            if share.card not in state.setup.handles:
                return no(f"unknown card {share.card!r}")
            if state.template(state.setup.slot_of(share.card)).damage_trigger is not None:
                return no(f"{share.card} has a damage trigger, which direct damage would skip")
    return None


def check(state: GameState, actions: Sequence[A.Action]) -> Unsupported | None:
    """The first reason phase.rs cannot express the scenario, or ``None``."""
    found = check_state(state)
    if found is not None:
        return found
    for index, action in enumerate(actions):
        found = check_action(state, index, action)
        if found is not None:
            return found
        if state.edition is Edition.PRE_M10 and _deathtouch(state, action):
            return Unsupported(
                f"{action.kind}: deathtouch before M10 is a trigger; phase.rs implements the "
                "current state-based deathtouch",
                index,
            )
    return None


def _deathtouch(state: GameState, action: A.Action) -> bool:
    """The action may bring deathtouch into play: deathtouch damage, a source or spell with
    deathtouch, deathtouch granted (the creature may deal damage later). Combat, where a
    creature's own deathtouch would matter, is refused before FDN anyway."""
    if isinstance(action, A.GrantKeyword):
        return action.keyword is Keyword.DEATHTOUCH and not action.remove
    if isinstance(action, A.CastSpell):
        return Keyword.DEATHTOUCH in action.effect.keywords
    if isinstance(action, A.DealDamage):
        if Keyword.DEATHTOUCH in action.keywords:
            return True
        if action.source in state.setup.handles:
            card = state.card(action.source)
            return has(state, card, Keyword.DEATHTOUCH)
    return False
