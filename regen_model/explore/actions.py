"""Every action instance a state offers, with parameters drawn from a scope's finite domains.

``enumerate_actions(state, scope)`` is the successor generator of the explicit-state search
and the action list of the agreement check: for each action kind it yields every instance
whose parameters come from the scope (targets among the card slots, amounts
``0..scope.max_amount``, keywords, riders, players, 616.1 answers, attackers, blockers,
damage-assignment orders and damage divisions). It does not ask the engine: the engine is the
judge, and an instance it rejects (``EngineError``) is simply not enabled. That keeps this
function independent of the rules, so the same candidates serve the correct rules and every
mutant, and a mutant that enables an action the rules forbid is observable.

Guarantees the callers rely on:

* **Deterministic and stable**: the same state and arguments give the same sequence, ordered
  by action kind (game actions first, then effects), then by card slot, player index and enum
  declaration order. No set or dict iteration order leaks into it.
* **Complete for the domains**: with ``prefilter=False`` every candidate of the domains is
  yielded. With ``prefilter=True`` (the default) candidates the engine would reject for an
  evident reason are left out (a target not on the battlefield, a game action by a player
  not holding priority, a sorcery at instant speed), and so are candidates whose successor
  would evidently leave the scope (a shield on a card whose ``scope.shields`` slots are full,
  a spell or ability when the stack already holds ``scope.stack`` objects). Apart from the
  reductions below, pre-filtering never removes an action the engine accepts within the
  scope (``tests/explore`` checks this against ``prefilter=False``).
* **Small reductions, stated**: parameters that cannot change anything are not varied (the
  creator of a shield without a rider is its target's controller; ``combat=True`` damage is
  offered only to a creature with a combat-only damage trigger; a creature is dealt wither
  damage but not infect damage, which does the same to it; a player is never dealt
  deathtouch or wither damage; a leave-and-return never names the owner as the player it
  returns under, which is the default; a pass answers no to "that player may draw a card",
  ``decline``, only when such an ability is on top of the stack, the one object a pass may
  resolve, and the same for "you may pay {1}. When you do, ..." (Go-Shintai's), with whose
  yes the pass also names each creature as the target its reflexive trigger may take, 603.3d),
  and 616.1 answers name outcome classes (``answers.py``).
  With ``prefilter=False`` these reductions are off too.

Action families: ``effects`` ("an effect now does this", ignoring priority), ``game`` (a real
turn: priority, casting the scope's spells, activating, combat decisions), ``all`` (both).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterator, Sequence
from enum import StrEnum
from itertools import combinations, permutations, product

from regen_model.encoding.scope import DEFAULT_SCOPE, Scope
from regen_model.engine import combat as cb
from regen_model.engine.work import Work
from regen_model.explore.answers import Answers, answer_sets
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS, AbilityKind, ActivatedAbility, SpellTemplate
from regen_model.model.derived import (
    colors,
    controller,
    givable,
    has_ability,
    is_creature_on_battlefield,
)
from regen_model.model.effects import MAY_KINDS, EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CardType,
    Color,
    CounterKind,
    Decision,
    Keyword,
    Rider,
    StackKind,
    Step,
)
from regen_model.model.rules import CORRECT
from regen_model.model.state import Card, GameState, StackObject


class ActionFamily(StrEnum):
    ALL = "all"
    EFFECTS = "effects"
    GAME = "game"


# Kinds during which a permanent may be destroyed (directly, or by the state-based actions
# run before a player receives priority), so that a 616.1 answer can matter.
MAY_DESTROY: tuple[type[A.Action], ...] = (
    A.PassPriority,
    A.CastSpell,
    A.ActivateAbility,
    A.DeclareAttackers,
    A.DeclareBlockers,
    A.OrderBlockers,
    A.AssignCombatDamage,
    A.Destroy,
    A.Sacrifice,  # only a mutant destroys here, but candidates do not depend on the rules
    A.CheckStateBasedActions,
)

RIDER_ORIGINS: dict[Rider, str] = {
    Rider.NONE: "regeneration shield",
    Rider.GAIN_CONTROL: "Debt of Loyalty",
    Rider.MINUS_COUNTER: "Matopi Golem",
    Rider.PLUS_COUNTER: "Skeleton Scavengers",
    Rider.OPPONENT_MAY_DRAW: "Soldevi Sentry",
}
DAMAGE_KEYWORDS: tuple[frozenset[Keyword], ...] = (
    frozenset(),
    frozenset({Keyword.DEATHTOUCH}),
    frozenset({Keyword.WITHER}),
    frozenset({Keyword.INFECT}),
)
# Wither and infect damage to a creature are the same thing (-1/-1 counters, 120.3d); to a
# player, wither and deathtouch change nothing and infect gives poison (120.3b).
CARD_DAMAGE_KEYWORDS: tuple[frozenset[Keyword], ...] = DAMAGE_KEYWORDS[:3]
PLAYER_DAMAGE_KEYWORDS: tuple[frozenset[Keyword], ...] = (frozenset(), frozenset({Keyword.INFECT}))
EFFECT_SOURCE = "effect"


def enumerate_actions(
    state: GameState,
    scope: Scope = DEFAULT_SCOPE,
    *,
    family: ActionFamily = ActionFamily.ALL,
    spells: Sequence[str] | None = None,
    kinds: Collection[str] | None = None,
    prefilter: bool = True,
) -> Iterator[A.Action]:
    """Every candidate action in ``state`` (see the module docstring for the contract).

    ``spells`` names the built-in spells players may cast (default: all of them, in the
    built-in list's order). ``kinds``, if given, keeps only actions of those kinds (``kind``
    names such as ``"destroy"``): a narrower next-state relation, as a TLC model may use.
    Each action that may destroy something is followed by its variants carrying 616.1
    answers when some permanent could face that question.
    """
    answers = answer_sets(state)
    if family is not ActionFamily.EFFECTS:
        names = tuple(SPELLS) if spells is None else tuple(spells)
        for action in game_actions(state, scope, names, prefilter=prefilter):
            if kinds is None or action.kind in kinds:
                yield from _with_answers(action, answers)
    if family is not ActionFamily.GAME:
        for action in effect_actions(state, scope, prefilter=prefilter):
            if kinds is None or action.kind in kinds:
                yield from _with_answers(action, answers)


def _with_answers(action: A.Action, answers: tuple[Answers, ...]) -> Iterator[A.Action]:
    yield action
    if answers and isinstance(action, MAY_DESTROY):
        for choice in answers:
            yield dataclasses.replace(action, choices=choice)


# --- game actions ------------------------------------------------------------------------------


def game_actions(
    state: GameState, scope: Scope, spells: Sequence[str], *, prefilter: bool = True
) -> Iterator[A.Action]:
    """Turn-based decisions and priority actions (pass, cast, activate)."""
    players = range(len(state.players))
    d = state.decision
    if d is Decision.DECLARE_ATTACKERS or not prefilter:
        who = (state.active,) if prefilter else players
        for p in who:
            for attackers in _subsets(_handles(state, attack_candidates(state))):
                yield A.DeclareAttackers(player=p, attackers=attackers)
    if d is Decision.DECLARE_BLOCKERS or not prefilter:
        who = (state.defending,) if prefilter else players
        for p in who:
            for blocks in block_assignments(state):
                yield A.DeclareBlockers(player=p, blocks=blocks)
    if d is Decision.ORDER_BLOCKERS or not prefilter:
        who = (state.active,) if prefilter else players
        for p in who:
            for attacker, order in blocker_orders(state):
                yield A.OrderBlockers(player=p, attacker=attacker, order=order)
    if d is Decision.ASSIGN_COMBAT_DAMAGE or not prefilter:
        who = (state.active,) if prefilter else players
        for p in who:
            for divisions in division_sets(state):
                yield A.AssignCombatDamage(player=p, divisions=divisions)
    if prefilter and (d is not Decision.NONE or state.priority is None):
        return
    holders = (state.priority,) if prefilter and state.priority is not None else players
    stack_full = prefilter and len(state.stack) >= scope.stack
    # a pass may resolve "that player may draw a card" (Fecundity's trigger) or "you may gain
    # N life" (Judge of Currents'): its player's answer is part of the action, so both answers
    # are offered (608.2d)
    may = bool(state.stack) and _may(state.stack[-1])
    # a pass may resolve "you may pay {1}. When you do, ..." (Go-Shintai of Hidden Cruelty's):
    # its controller's answer, and the target of the reflexive trigger paying makes (chosen
    # as that trigger goes on the stack, 603.3d), are part of the action
    when_you_do = bool(state.stack) and _when_you_do(state.stack[-1])
    reflexive_targets = (
        _handles(state, creatures(state) if prefilter else range(len(state.cards)))
        if when_you_do
        else []
    )
    for p in holders:
        yield A.PassPriority(player=p)
        if may or when_you_do:
            yield A.PassPriority(player=p, decline=True)
        for handle in reflexive_targets:
            yield A.PassPriority(player=p, target=handle)
        if stack_full:
            continue
        for name in spells:
            yield from _casts(state, p, SPELLS[name], prefilter=prefilter)
        yield from _activations(state, p, prefilter=prefilter)


def _may(obj: StackObject) -> bool:
    """Whether ``obj`` is an ability whose effect asks the player it names "may ..." as it
    resolves: "that player may draw" or "you may gain N life" (``MAY_KINDS``)."""
    return obj.effect is not None and obj.effect.kind in MAY_KINDS


def _when_you_do(obj: StackObject) -> bool:
    """Whether ``obj`` is an ability whose effect is "you may pay {1}. When you do, ..."
    (``WHEN_YOU_DO``)."""
    return obj.effect is not None and obj.effect.kind is EffectKind.WHEN_YOU_DO


def _casts(
    state: GameState, player: int, spell: SpellTemplate, *, prefilter: bool
) -> Iterator[A.CastSpell]:
    if prefilter and spell.sorcery and not _sorcery_timing(state, player):
        return
    for targets in spell_targets(state, player, spell.targets, prefilter=prefilter):
        yield spell.cast(player, targets)


def _nonartifact_nonblack(state: GameState, slot: int) -> bool:
    template = state.setup.templates[slot]
    return CardType.ARTIFACT not in template.types and Color.BLACK not in colors(
        state, state.cards[slot]
    )


def _sorcery_timing(state: GameState, player: int) -> bool:
    return state.step in (Step.MAIN1, Step.MAIN2) and state.active == player and not state.stack


def spell_targets(
    state: GameState, player: int, rule: TargetRule, *, prefilter: bool = True
) -> list[tuple[A.TargetChoice, ...]]:
    """The target tuples a spell with ``rule`` may be cast with (one target per spell)."""
    if rule is TargetRule.NONE:
        return [()]
    if rule is TargetRule.SPELL:
        # "target spell" (Counterspell): a spell on the stack (115.1), by its position; without
        # the prefilter every object there, abilities too, for the refusals
        return [
            (A.TargetChoice(spell=j),)
            for j, obj in enumerate(state.stack)
            if obj.kind is StackKind.SPELL or not prefilter
        ]
    players: list[tuple[A.TargetChoice, ...]] = [
        (A.TargetChoice(player=p),) for p in range(len(state.players))
    ]
    if rule is TargetRule.PLAYER and prefilter:
        return players  # "target player" (Thought Scour): never a card (115.2)
    slots = creatures(state) if prefilter else list(range(len(state.cards)))
    if rule is TargetRule.CREATURE_YOU_CONTROL and prefilter:
        slots = [s for s in slots if controller(state.cards[s]) == player]
    if rule is TargetRule.NONARTIFACT_NONBLACK_CREATURE and prefilter:
        slots = [s for s in slots if _nonartifact_nonblack(state, s)]
    if rule is TargetRule.ATTACKING_CREATURE and prefilter:
        slots = [s for s in slots if state.cards[s].attacking]
    if rule is TargetRule.UNTAPPED_CREATURE and prefilter:
        slots = [s for s in slots if not state.cards[s].tapped]
    out: list[tuple[A.TargetChoice, ...]] = [
        (A.TargetChoice(card=state.setup.handles[s]),) for s in slots
    ]
    if rule in (TargetRule.ANY, TargetRule.PLAYER):
        out += players
    return out


def _activations(state: GameState, player: int, *, prefilter: bool) -> Iterator[A.ActivateAbility]:
    for card in state.cards:
        if prefilter and not card.on_battlefield:
            continue
        abilities = state.setup.templates[card.slot].abilities
        for index, ability in enumerate(abilities):
            if prefilter and ability.opponent_only == (controller(card) == player):
                continue
            if prefilter and not has_ability(state, card, index):
                continue
            source = state.setup.handles[card.slot]
            for target, sacrifice in _choices(state, ability, player, prefilter=prefilter):
                yield A.ActivateAbility(
                    player=player,
                    source=source,
                    ability=index,
                    target=target,
                    sacrifice=sacrifice,
                )
        # after its printed abilities, the one an Aura or Equipment gives it (613.1f): offered
        # only on boards with such an attachment, so other boards' candidates are unchanged
        if givable(state):
            given = len(abilities)
            if prefilter and (not has_ability(state, card, given) or controller(card) != player):
                continue
            yield A.ActivateAbility(
                player=player, source=state.setup.handles[card.slot], ability=given
            )


def _choices(
    state: GameState, ability: ActivatedAbility, player: int, *, prefilter: bool
) -> list[tuple[str | None, str | None]]:
    """The (target, creature to sacrifice) pairs an activation of ``ability`` is offered
    with: a card for each target it may have (``_target_filter``), or for each creature the
    activating player controls to pay "Sacrifice a creature" (601.2h, 701.21a), or neither;
    without ``prefilter``, every card (the engine refuses the wrong ones)."""
    handles = state.setup.handles
    fits = _target_filter(state, ability.kind, player)
    if fits is not None:
        return [(handles[t.slot], None) for t in state.cards if not prefilter or fits(t)]
    if ability.sacrifice_creature:
        return [
            (None, handles[c.slot])
            for c in state.cards
            if not prefilter or (is_creature_on_battlefield(state, c) and controller(c) == player)
        ]
    return [(None, None)]


def _target_filter(
    state: GameState, kind: AbilityKind, player: int
) -> Callable[[Card], bool] | None:
    """What a targeted ability of ``kind`` may target, as a test of a card (``None``: the
    ability has no target): equip, a creature its controller controls (702.6a); "Regenerate
    target creature", any creature (602.2b); Pyramids, a land, a land creature included."""
    if kind is AbilityKind.REMOVE_DAMAGE_TARGET:
        return lambda t: t.on_battlefield and CardType.LAND in state.setup.templates[t.slot].types
    if kind is AbilityKind.REGENERATE_TARGET:
        return lambda t: is_creature_on_battlefield(state, t)
    if kind is AbilityKind.EQUIP:
        return lambda t: is_creature_on_battlefield(state, t) and controller(t) == player
    return None


def attack_candidates(state: GameState) -> list[int]:
    """Untapped creatures the active player controls (508.1a)."""
    return [
        c.slot
        for c in state.cards
        if is_creature_on_battlefield(state, c) and controller(c) == state.active and not c.tapped
    ]


def block_assignments(state: GameState) -> list[tuple[tuple[str, str], ...]]:
    """Every way the defending player's untapped creatures can each block one attacker or
    none (509.1a), blockers in slot order."""
    h = state.setup.handles
    blockers = [
        c.slot
        for c in state.cards
        if is_creature_on_battlefield(state, c)
        and controller(c) == state.defending
        and not c.tapped
    ]
    attackers: list[int | None] = [c.slot for c in state.cards if c.attacking]
    out = []
    for chosen in product([None, *attackers], repeat=len(blockers)):
        out.append(
            tuple((h[b], h[a]) for b, a in zip(blockers, chosen, strict=True) if a is not None)
        )
    return out


def blocker_orders(state: GameState) -> list[tuple[str, tuple[str, ...]]]:
    """M10: each damage assignment order still to be chosen (attacker, blockers in order)."""
    w = Work(state, CORRECT)
    h = state.setup.handles
    return [
        (h[a], tuple(h[b] for b in order))
        for a in cb.needs_order(w)
        for order in permutations(cb.current_blockers(w, a, ()))
    ]


def division_sets(state: GameState) -> list[tuple[A.Division, ...]]:
    """Every combination of legal damage divisions (``combat.legal_divisions``) for the
    attackers whose damage can be divided in more than one way now."""
    w = Work(state, CORRECT)
    h = state.setup.handles
    per_attacker = []
    for a in cb.attackers_needing_choice(w, state.step):
        options = cb.legal_divisions(state, state.edition, a, state.combat.orders)
        per_attacker.append(
            [
                A.Division(h[a], tuple(("player" if r == cb.PLAYER else h[r], n) for r, n in d))
                for d in options
            ]
        )
    if not per_attacker:
        return []
    return [tuple(combo) for combo in product(*per_attacker)]


# --- effects -----------------------------------------------------------------------------------


def effect_actions(state: GameState, scope: Scope, *, prefilter: bool = True) -> Iterator[A.Action]:
    """The effect actions, by kind in ``EFFECT_ACTIONS`` order."""
    perms = permanents(state) if prefilter else list(range(len(state.cards)))
    cres = creatures(state) if prefilter else perms
    h = state.setup.handles
    yield from _shields(state, scope, perms, prefilter=prefilter)
    yield from _damage(state, scope, cres, prefilter=prefilter)
    for size in range(1, len(perms) + 1):
        for group in combinations(perms, size):
            for rider in (False, True):
                yield A.Destroy(targets=tuple(h[s] for s in group), cant_be_regenerated=rider)
    for s in perms:
        yield A.Sacrifice(target=h[s])
    for s in perms:
        yield A.Exile(target=h[s])
    for s in perms:
        yield A.LeaveAndReturn(target=h[s])
        # Returning under its owner's control is the default; name only another player.
        owner = state.setup.owners[s]
        for p in range(len(state.players)):
            if p != owner or not prefilter:
                yield A.LeaveAndReturn(target=h[s], controller=p)
    for s in perms:
        for p in range(len(state.players)):
            for eot in (False, True):
                yield A.ChangeControl(target=h[s], player=p, until_end_of_turn=eot)
    for s in cres:
        for dp, dt in pt_changes(scope.max_amount):
            yield A.ModifyPowerToughness(target=h[s], power=dp, toughness=dt)
    for s in perms:
        for counter in CounterKind:
            for n in range(1, scope.max_amount + 1):
                yield A.AddCounters(target=h[s], counter=counter, amount=n)
    for s in perms:
        for keyword in Keyword:
            for remove in (False, True):
                yield A.GrantKeyword(target=h[s], keyword=keyword, remove=remove)
    for s in perms:
        yield from _type_changes(state, s, prefilter=prefilter)
    for s in perms:
        yield A.MakeUnregenerable(target=h[s])
    yield A.CheckStateBasedActions()
    yield A.Cleanup()
    yield from _attachments(state, perms, prefilter=prefilter)


def _attachments(state: GameState, perms: list[int], *, prefilter: bool) -> Iterator[A.Attach]:
    """Attach effects (701.3a): an Aura or Equipment onto another permanent. Only boards with
    an Aura or Equipment have any; the prefilter keeps creatures as the new host (anything
    else does nothing, 701.3b)."""
    h = state.setup.handles
    templates = state.setup.templates
    items = [s for s in perms if templates[s].attachment is not Attachment.NONE]
    for s in items:
        for t in perms:
            if prefilter and (t == s or not is_creature_on_battlefield(state, state.cards[t])):
                continue
            yield A.Attach(attachment=h[s], target=h[t])


def _type_changes(state: GameState, slot: int, *, prefilter: bool) -> Iterator[A.ChangeType]:
    """It becomes a creature (only a printed creature or one with its own animation can,
    ``engine.typechange``; the prefilter drops the others), or stops being one."""
    t = state.setup.templates[slot]
    h = state.setup.handles[slot]
    if not prefilter or t.is_creature or t.animation is not None:
        yield A.ChangeType(target=h, creature=True)
    yield A.ChangeType(target=h, creature=False)


def _shields(
    state: GameState, scope: Scope, perms: list[int], *, prefilter: bool
) -> Iterator[A.CreateShield]:
    h = state.setup.handles
    for s in perms:
        card = state.cards[s]
        if prefilter and len(card.shields) >= scope.shields:
            continue
        for rider in Rider:
            # Who made the shield matters only when its rider gives that player control.
            creators: Sequence[int | None] = (None,)
            if rider is Rider.GAIN_CONTROL:
                creators = range(len(state.players))
            elif not prefilter:
                creators = (None, *range(len(state.players)))
            for creator in creators:
                yield A.CreateShield(
                    target=h[s], origin=RIDER_ORIGINS[rider], rider=rider, creator=creator
                )


def _damage(
    state: GameState, scope: Scope, cres: list[int], *, prefilter: bool
) -> Iterator[A.DealDamage]:
    h = state.setup.handles
    amounts = range(scope.max_amount + 1)
    for s in cres:
        trigger = state.setup.templates[s].damage_trigger
        combat_flags = (
            (False, True) if not prefilter or (trigger and trigger.combat_only) else (False,)
        )
        card_kws = CARD_DAMAGE_KEYWORDS if prefilter else DAMAGE_KEYWORDS
        for n in amounts:
            plain = prefilter and n == 0  # no damage: keywords and riders change nothing
            for kws in (frozenset(),) if plain else card_kws:
                for cant in (False,) if plain else (False, True):
                    for combat in combat_flags:
                        yield A.DealDamage(
                            source=EFFECT_SOURCE,
                            shares=(A.DamageShare(n, card=h[s]),),
                            keywords=kws,
                            combat=combat,
                            cant_regen=cant,
                        )
    player_kws = PLAYER_DAMAGE_KEYWORDS if prefilter else DAMAGE_KEYWORDS
    for p in range(len(state.players)):
        for n in amounts:
            for kws in (frozenset(),) if prefilter and n == 0 else player_kws:
                yield A.DealDamage(
                    source=EFFECT_SOURCE, shares=(A.DamageShare(n, player=p),), keywords=kws
                )
    if len(cres) >= 2:  # one source damaging every creature at once (Pyroclasm)
        for n in range(1, scope.max_amount + 1):
            for kws in CARD_DAMAGE_KEYWORDS if prefilter else DAMAGE_KEYWORDS:
                yield A.DealDamage(
                    source=EFFECT_SOURCE,
                    shares=tuple(A.DamageShare(n, card=h[s]) for s in cres),
                    keywords=kws,
                )


def pt_changes(max_amount: int) -> list[tuple[int, int]]:
    """Until-end-of-turn P/T changes: +d/+d and +0/+d for d in -max..max, d != 0."""
    deltas = [d for d in range(-max_amount, max_amount + 1) if d != 0]
    return [(d, d) for d in deltas] + [(0, d) for d in deltas]


# --- small domains -----------------------------------------------------------------------------


def permanents(state: GameState) -> list[int]:
    return [c.slot for c in state.cards if c.on_battlefield]


def creatures(state: GameState) -> list[int]:
    return [c.slot for c in state.cards if is_creature_on_battlefield(state, c)]


def _handles(state: GameState, slots: Sequence[int]) -> list[str]:
    return [state.setup.handles[s] for s in slots]


def _subsets(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    for size in range(len(items) + 1):
        yield from combinations(items, size)
