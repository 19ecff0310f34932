"""``step(state, action) -> (state, events)``: the one entry point of the reference engine.

The engine is deterministic: every choice a player makes is a field of the action, so the same
state and action always give the same successor. Illegal actions raise an ``EngineError``
subclass and leave nothing half-done (the input state is immutable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from regen_model.engine import effects as fx
from regen_model.engine import granted, turn
from regen_model.engine import typechange as types
from regen_model.engine.attachments import attach, equip_target_ok
from regen_model.engine.destruction import destroy
from regen_model.engine.errors import IllegalAction
from regen_model.engine.sba import cleanup_effects, run_sba_loop
from regen_model.engine.triggers import tapped_trigger
from regen_model.engine.work import Work
from regen_model.engine.zones import change_control, move_zone
from regen_model.model import actions as A
from regen_model.model.cards import AbilityKind, ActivatedAbility
from regen_model.model.derived import (
    ability_at,
    controller,
    is_creature_on_battlefield,
    keywords,
    summoning_sick,
)
from regen_model.model.effects import TARGETED_KINDS, EffectKind, TargetRule
from regen_model.model.enums import Attachment, Mutant, StackKind, Step, Zone
from regen_model.model.events import Event, EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Hit, StackObject, Target


class StepResult(NamedTuple):
    state: GameState
    events: tuple[Event, ...]


def step(state: GameState, action: A.Action, rules: Rules = CORRECT) -> StepResult:
    """Apply ``action`` to ``state`` under ``rules``; return the successor and its events."""
    w = Work(state, rules, action.choices)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"unknown action {type(action).__name__}")
    handler(w, action)
    return StepResult(w.freeze(), tuple(w.events))


# --- effects ---------------------------------------------------------------------------------


def _create_shield(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.CreateShield)
    slot = w.on_battlefield(a.target, "regen.shield.create")
    creator = controller(w.cards[slot]) if a.creator is None else a.creator
    w.check_player(creator, "creator")
    fx.create_shield(w, slot, a.origin, a.rider, creator)


def _deal_damage(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.DealDamage)
    kws = a.keywords
    ctrl = a.controller
    source_slot: int | None = None
    if a.source in w.setup.handles:
        source_slot = w.slot(a.source, "source")
        src = w.cards[source_slot]
        if src.on_battlefield:
            kws = kws | keywords(w, src)
        if ctrl is None:
            ctrl = controller(src)
    if ctrl is None:
        ctrl = 0
    w.check_player(ctrl, "controller")
    shares = []
    for share in a.shares:
        if share.amount < 0:
            raise IllegalAction("damage amounts can't be negative", "damage.mark", "amount")
        if (share.card is None) == (share.player is None):
            raise IllegalAction(
                "each damage share names exactly one card or one player", "damage.mark", "to"
            )
        if share.card is not None:
            slot = w.on_battlefield(share.card, "damage.mark", "to")
            if not is_creature_on_battlefield(w, w.cards[slot]):
                raise IllegalAction(
                    f"{share.card} is not a creature and can't be dealt damage", "damage.mark", "to"
                )
            hit = Hit(share.amount, card=slot, gen=w.cards[slot].gen)
        else:
            assert share.player is not None
            w.check_player(share.player, "to")
            hit = Hit(share.amount, player=share.player)
        shares.append(fx.Damage(a.source, source_slot, kws, ctrl, hit))
    fx.deal_damage(w, shares, combat=a.combat, cant_regen=a.cant_regen)


def _destroy(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.Destroy)
    slots = [w.on_battlefield(t, "destroy.effect", "targets") for t in a.targets]
    if len(set(slots)) != len(slots):
        raise IllegalAction("a permanent is listed twice", "destroy.effect", "targets")
    if len(slots) > 1:
        w.emit(EventKind.NOTE, "destroy.simultaneous", None, permanents=len(slots))
    # at once (608.2f, 701.8): each watcher sees every death (603.10a), each destruction is
    # decided on the game as the event began (``Work.event_start``); the slots are taken in
    # slot order whatever order the action lists them in, as in the relation: the order of
    # the dies triggers this makes is their controller's choice (603.3b), not modelled
    with w.simultaneous(slots):
        for slot in sorted(slots):
            destroy(
                w, slot, cant_regen=a.cant_be_regenerated, by_effect=True, clause="destroy.effect"
            )


_OneTarget = A.Sacrifice | A.Exile | A.MakeUnregenerable


def _one_target(clause: str, fn: Callable[[Work, int], None]) -> Callable[[Work, A.Action], None]:
    def handler(w: Work, a: A.Action) -> None:
        assert isinstance(a, _OneTarget)
        fn(w, w.on_battlefield(a.target, clause))

    return handler


def _leave_and_return(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.LeaveAndReturn)
    slot = w.on_battlefield(a.target, "zone.new-object")
    if a.controller is not None:
        w.check_player(a.controller, "controller")
    fx.leave_and_return(w, slot, a.controller)


def _change_control(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.ChangeControl)
    slot = w.on_battlefield(a.target, "control.change")
    w.check_player(a.player)
    change_control(w, slot, a.player, a.until_end_of_turn, "control.change")


def _modify_pt(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.ModifyPowerToughness)
    fx.modify_pt(w, w.on_battlefield(a.target, "pt.modify"), a.power, a.toughness)


def _add_counters(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.AddCounters)
    if a.amount < 1:
        raise IllegalAction("the number of counters must be at least 1", "counters.add", "amount")
    fx.add_counters(w, w.on_battlefield(a.target, "counters.add"), a.counter, a.amount)


def _grant_keyword(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.GrantKeyword)
    fx.grant_keyword(w, w.on_battlefield(a.target, "keyword.grant"), a.keyword, a.remove)


def _change_type(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.ChangeType)
    if a.creature:
        types.become_creature(w, w.on_battlefield(a.target, "type.become-creature"))
    else:
        types.stop_being_creature(w, w.on_battlefield(a.target, "type.stop-being-creature"))


def _check_sba(w: Work, a: A.Action) -> None:
    run_sba_loop(w)
    if not any(e.kind is EventKind.SBA_CHECK for e in w.events):
        w.emit(EventKind.SBA_CHECK, "sba.loop", None, checks=1, performed=False)


def _cleanup(w: Work, a: A.Action) -> None:
    """514.2's actions as an effect, refused while a creature is in combat: the game
    performs them in the cleanup step of the ending phase only (514.2, 500.1), after the
    combat phase has taken every creature out of combat (511.3). On a creature still
    attacking or blocking, the end of a temporary control change or animation would leave
    it in combat under the defending player or as a noncreature (506.4 would remove it), a
    state no game has."""
    if any(card.in_combat for card in w.cards):
        raise IllegalAction(
            "the cleanup step's actions happen after combat, never while a creature is "
            "attacking or blocking (514.2, 511.3)",
            "cleanup.simultaneous",
        )
    cleanup_effects(w)


# --- game actions ----------------------------------------------------------------------------


def _pass(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.PassPriority)
    w.check_player(a.player)
    w.decline = a.decline  # read only by a "may draw" or "you may pay" it resolves (608.2d)
    # read only by a triggered ability whose target is chosen as it goes on the stack (603.3d)
    w.reflexive_target = None if a.target is None else w.slot(a.target, "target")
    turn.pass_priority(w, a.player)


def _cast(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.CastSpell)
    w.check_player(a.player)
    turn.require_priority(w, a.player, "stack.cast")
    if a.sorcery and not (
        w.step in (Step.MAIN1, Step.MAIN2) and w.active == a.player and not w.stack
    ):
        raise IllegalAction(
            f"{a.name} is a sorcery: only the active player, in a main phase, with an empty stack (117.1a)",
            "stack.cast",
            "player",
        )
    targets = _targets(w, a)
    obj = StackObject(StackKind.SPELL, a.name, a.player, a.effect, targets, target_rule=a.rule)
    w.stack.append(obj)
    w.emit(
        EventKind.SPELL_CAST,
        "stack.cast",
        a.name,
        caster=w.pname(a.player),
        targets=",".join(_target_name(w, t) for t in targets),
        effect=a.effect.describe(),
    )
    w.passed = frozenset()
    turn.give_priority(w, a.player)  # 117.3c


def _targets(w: Work, a: A.CastSpell) -> tuple[Target, ...]:
    """601.2c: the targets must be legal for the spell's target rule when it is cast."""
    needs = a.effect.kind in TARGETED_KINDS
    if needs and not a.targets:
        raise IllegalAction(f"{a.name} needs a target", "stack.cast", "targets")
    if not needs and a.targets:
        raise IllegalAction(f"{a.name} has no targets", "stack.cast", "targets")
    rule = a.rule
    if rule is TargetRule.NONE and a.targets:
        # 601.2c: a spell with no target requirement has no targets to choose
        raise IllegalAction(f"{a.name} has no target rule", "stack.cast", "targets")
    if a.effect.kind is EffectKind.MILL and (
        rule is not TargetRule.PLAYER or a.effect.amount < 0 or a.effect.draw < 0
    ):
        # 701.17a: a player mills; the model's mill is "target player mills N cards" (then
        # "draw M cards"), N and M numbers of cards
        raise IllegalAction(
            f"{a.name} mills: its target is a player, its numbers of cards 0 or more",
            "stack.cast",
            "targets",
        )
    if a.effect.kind is EffectKind.DAMAGE and rule is TargetRule.LAND:
        # 120.1a: damage is dealt to creatures, planeswalkers and battles (and players), never
        # to a land as such; the scenario loader refuses such a spell before it gets here
        raise IllegalAction(
            f"{a.name} deals damage: it can't target a land (120.1a)", "stack.cast", "targets"
        )
    if rule is TargetRule.SPELL or a.effect.kind is EffectKind.COUNTER_SPELL:
        return (_spell_target(w, a),)
    out = []
    for t in a.targets:
        if t.spell is not None:
            raise IllegalAction(f"{a.name} can't target a spell", "stack.cast", "targets")
        if t.player is not None:
            # 115.2: a player is a legal target only where the spell says so: "any target"
            # (damage) or "target player"
            anyone = a.effect.kind is EffectKind.DAMAGE and rule is TargetRule.ANY
            if not anyone and rule is not TargetRule.PLAYER:
                raise IllegalAction(f"{a.name} can only target creatures", "stack.cast", "targets")
            w.check_player(t.player, "targets")
            out.append(Target(player=t.player))
            continue
        if t.card is None:
            raise IllegalAction("a target names a card or a player", "stack.cast", "targets")
        slot = w.on_battlefield(t.card, "stack.cast", "targets")
        card = w.cards[slot]
        unmet = fx.unmet_target_need(w, card, rule, a.player)
        if unmet is not None:
            raise IllegalAction(
                f"{a.name} targets {_NEEDS_TEXT[rule]} ({t.card} is not one)",
                "stack.cast",
                "targets",
            )
        out.append(Target(card=slot, gen=card.gen))
    return tuple(out)


def _spell_target(w: Work, a: A.CastSpell) -> Target:
    """601.2c for "target spell" (Counterspell): its one target is a spell on the stack (115.1),
    named by its position; the spell being cast is not on the stack yet as the choice is
    checked, so it can't be its own target (115.5). An ability, a trigger or pre-M10 combat
    damage on the stack is not a spell; no card or player is one."""
    if (
        a.effect.kind is not EffectKind.COUNTER_SPELL
        or a.rule is not TargetRule.SPELL
        or len(a.targets) != 1
    ):
        raise IllegalAction(
            f"{a.name} counters: its one target is a spell on the stack", "stack.cast", "targets"
        )
    (t,) = a.targets
    if t.spell is None:
        raise IllegalAction(f"{a.name} targets a spell", "stack.cast", "targets")
    if not 0 <= t.spell < len(w.stack):
        raise IllegalAction(
            f"{a.name} targets a spell: the stack has no object at position {t.spell}",
            "stack.cast",
            "targets",
        )
    if w.stack[t.spell].kind is not StackKind.SPELL:
        raise IllegalAction(
            f"{a.name} targets a spell ({w.stack[t.spell].name} is not one)",
            "stack.cast",
            "targets",
        )
    return Target(spell=t.spell)


_NEEDS_TEXT: dict[TargetRule, str] = {
    TargetRule.NONE: "nothing",
    TargetRule.ANY: "a creature or a player",
    TargetRule.CREATURE: "a creature",
    TargetRule.CREATURE_YOU_CONTROL: "a creature you control",
    TargetRule.NONARTIFACT_NONBLACK_CREATURE: "a nonartifact, nonblack creature",
    TargetRule.ATTACKING_CREATURE: "an attacking creature",
    TargetRule.UNTAPPED_CREATURE: "an untapped creature",
    TargetRule.LAND: "a land",
    TargetRule.PLAYER: "a player",
    TargetRule.SPELL: "a spell",
}


def _target_name(w: Work, t: Target) -> str:
    if t.spell is not None:
        return w.stack[t.spell].name
    if t.player is not None:
        return w.pname(t.player)
    return w.name(t.card or 0)


def _activate(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.ActivateAbility)
    w.check_player(a.player)
    turn.require_priority(w, a.player, "stack.activate")
    slot = w.on_battlefield(a.source, "stack.activate", "source")
    card = w.cards[slot]
    ability = ability_at(w, card, a.ability)
    if ability is None:
        raise IllegalAction(
            f"{a.source} has no activated ability number {a.ability}", "stack.activate", "ability"
        )
    given = a.ability == len(w.setup.templates[slot].abilities)  # by an attachment
    if ability.sorcery_speed and not (
        w.step in (Step.MAIN1, Step.MAIN2) and w.active == a.player and not w.stack
    ):
        raise IllegalAction(
            f"{a.source}'s {ability.kind.value} ability is activated only as a sorcery: by the "
            "active player, in a main phase, with an empty stack (602.5d, 702.6a)",
            "attach.equip",
            "player",
        )
    ctrl = controller(card)
    if given:
        granted.require_activator(w, slot, a.player)
    elif ability.opponent_only and a.player == ctrl:
        raise IllegalAction(
            f"only an opponent of {a.source}'s controller may activate this ability",
            "stack.activate",
            "player",
        )
    if not given and not ability.opponent_only and a.player != ctrl:
        # a granted ability's activator is require_activator's to decide (602.2; under the
        # granted-ability-aura-controller mutant, the attachment's controller, as the
        # relation's encoding.granted.activator_ok has it)
        raise IllegalAction(
            f"{w.pname(a.player)} does not control {a.source}", "stack.activate", "player"
        )
    targets = _ability_targets(w, a, slot, ability)  # 601.2c: targets first
    if ability.tap_cost:
        _pay_tap(w, slot, a.source)  # 601.2h: then the costs, before it is on the stack
    if ability.sacrifice_cost:
        # 601.2h, 701.21a: "Sacrifice this" moves the source to the graveyard now; the ability
        # keeps the old object's identity (``source_gen``) and, for "Regenerate enchanted
        # creature", the host it had (its target, taken above): last known information,
        # 113.7a, 608.2h. A source that is its own target is a new object now (400.7).
        move_zone(w, slot, Zone.GRAVEYARD, "cost.sacrifice", "sacrificed")
    sacrificed = _sacrifice_choice(w, a, ability)
    if sacrificed is not None:
        # 601.2h, 701.21a: "Sacrifice a creature" (Dark Privilege): the chosen creature goes
        # now, after the host was read above; the stack object keeps that host (608.2h), so a
        # host sacrificed to its own ability is a new object as it resolves (400.7, 608.2b)
        move_zone(w, sacrificed, Zone.GRAVEYARD, "cost.sacrifice-creature", "sacrificed")
    obj = StackObject(
        StackKind.ABILITY,
        f"{a.source}: {ability.describe()}" + (" (granted by an attachment)" if given else ""),
        a.player,
        ability.effect(),
        targets,
        source=slot,
        source_gen=card.gen,
        target_rule=ability.target_rule,  # re-checked as it resolves (608.2b)
    )
    w.stack.append(obj)
    w.emit(
        EventKind.ABILITY_ACTIVATED,
        "stack.activate",
        a.source,
        by=w.pname(a.player),
        ability=ability.describe(),
    )
    if given:
        granted.note_activated(w, slot)
    if ability.kind in (AbilityKind.REGENERATE_TARGET, AbilityKind.REMOVE_DAMAGE_TARGET):
        # 602.2b: the target chosen as it was activated, re-checked as it resolves (608.2b)
        w.emit(EventKind.NOTE, "stack.ability-target", w.name(obj.targets[0].card or 0))
    w.passed = frozenset()
    turn.give_priority(w, a.player)  # 117.3c


def _pay_tap(w: Work, slot: int, source: str) -> None:
    """602.2b, 601.2h: a {T} cost is paid as the ability is activated, before the ability is on
    the stack (so before any shield it makes exists): only an untapped permanent can pay it,
    and a creature only if it has been under its controller's control since their most
    recent turn began or has haste (302.6). The mutant ``tap-cost-while-tapped`` lets a
    tapped permanent pay it."""
    card = w.cards[slot]
    if (
        is_creature_on_battlefield(w, card)
        and summoning_sick(w, card)
        and not w.mutant(Mutant.SUMMONING_SICKNESS_IGNORED)
    ):
        raise IllegalAction(
            f"{source} is summoning sick: its {{T}} abilities can't be activated (302.6)",
            "cost.tap",
            "source",
        )
    if card.tapped:
        if w.mutant(Mutant.TAP_COST_WHILE_TAPPED):
            return  # the mutant: a tapped permanent "pays" {T}, and stays tapped
        raise IllegalAction(f"{source} is tapped: it can't pay {{T}}", "cost.tap", "source")
    w.cards[slot] = card._replace(tapped=True)
    w.emit(EventKind.BECAME_TAPPED, "cost.tap", source, by="cost")
    tapped_trigger(w, slot)


def _sacrifice_choice(w: Work, a: A.ActivateAbility, ability: ActivatedAbility) -> int | None:
    """The slot of the creature a "Sacrifice a creature" cost sacrifices: one the activating
    player controls on the battlefield, any one, the Aura's host included (701.21a, 602.2b);
    ``None`` for an ability without that cost, which names none."""
    if not ability.sacrifice_creature:
        if a.sacrifice is not None:
            raise IllegalAction(
                f"{a.source}'s ability has no sacrifice cost",
                "cost.sacrifice-creature",
                "sacrifice",
            )
        return None
    if a.sacrifice is None:
        raise IllegalAction(
            f"{a.source}'s ability costs a creature to sacrifice",
            "cost.sacrifice-creature",
            "sacrifice",
        )
    slot = w.on_battlefield(a.sacrifice, "cost.sacrifice-creature", "sacrifice")
    card = w.cards[slot]
    mine = controller(card) == a.player or w.mutant(Mutant.SACRIFICE_ANY_CREATURE)
    if not is_creature_on_battlefield(w, card) or not mine:
        raise IllegalAction(
            f"{w.pname(a.player)} can sacrifice only a creature they control ({a.sacrifice} is "
            "not one)",
            "cost.sacrifice-creature",
            "sacrifice",
        )
    return slot


def _ability_targets(
    w: Work, a: A.ActivateAbility, slot: int, ability: ActivatedAbility
) -> tuple[Target, ...]:
    """What the ability acts on: its source; for "Regenerate enchanted creature" the
    permanent its source is attached to now (none if it is attached to nothing; the stack
    object follows its source if that moves, ``attachments.attach``); for equip, its target,
    a creature its controller controls (702.6a); for "Regenerate target creature", its
    target, a creature chosen as it is activated (602.2b, 601.2c; any creature, its source
    included)."""
    kind = ability.kind
    if kind in (AbilityKind.REGENERATE_TARGET, AbilityKind.REMOVE_DAMAGE_TARGET):
        what = "land" if kind is AbilityKind.REMOVE_DAMAGE_TARGET else "creature"
        if a.target is None:
            raise IllegalAction(
                f"{a.source}'s ability needs a target {what}", "stack.ability-target", "target"
            )
        target = w.on_battlefield(a.target, "stack.ability-target", "target")
        if fx.unmet_target_need(w, w.cards[target], ability.target_rule, a.player) is not None:
            raise IllegalAction(
                f"{a.source}'s ability targets a {what} ({a.target} is not one)",
                "stack.ability-target",
                "target",
            )
        return (Target(card=target, gen=w.cards[target].gen),)
    if kind is AbilityKind.EQUIP:
        if a.target is None:
            raise IllegalAction(
                f"{a.source}'s equip ability needs a target", "attach.equip", "target"
            )
        target = w.on_battlefield(a.target, "attach.equip", "target")
        if not equip_target_ok(w, slot, target, a.player):
            raise IllegalAction(
                f"equip targets a creature you control other than the Equipment ({a.target} "
                "is not one)",
                "attach.equip",
                "target",
            )
        return (Target(card=target, gen=w.cards[target].gen),)
    if a.target is not None:
        raise IllegalAction(f"{a.source}'s ability has no target", "stack.activate", "target")
    if kind is AbilityKind.REGENERATE_HOST:
        host = w.cards[slot].attached_to
        if host is None:
            return ()
        return (Target(card=host, gen=w.cards[host].gen),)
    return (Target(card=slot, gen=w.cards[slot].gen),)


def _attach(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.Attach)
    item = w.on_battlefield(a.attachment, "attach.move", "attachment")
    if w.setup.templates[item].attachment is Attachment.NONE:
        raise IllegalAction(
            f"{a.attachment} is neither an Aura nor an Equipment", "attach.move", "attachment"
        )
    host = w.on_battlefield(a.target, "attach.move", "target")
    attach(w, item, host, "attach.move")


def _declare_attackers(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.DeclareAttackers)
    turn.declare_attackers(w, a.player, a.attackers)


def _declare_blockers(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.DeclareBlockers)
    turn.declare_blockers(w, a.player, a.blocks)


def _order_blockers(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.OrderBlockers)
    turn.order_blockers(w, a.player, a.attacker, a.order)


def _assign(w: Work, a: A.Action) -> None:
    assert isinstance(a, A.AssignCombatDamage)
    divisions: dict[str, tuple[tuple[str, int], ...]] = {}
    for d in a.divisions:
        if d.attacker in divisions:
            raise IllegalAction(
                f"two divisions for {d.attacker}", "combat.damage.assign", "divisions"
            )
        divisions[d.attacker] = d.shares
    turn.assign_combat_damage(w, a.player, divisions)


_HANDLERS: dict[type[A.Action], Callable[[Work, A.Action], None]] = {
    A.CreateShield: _create_shield,
    A.DealDamage: _deal_damage,
    A.Destroy: _destroy,
    A.Sacrifice: _one_target("zone.sacrifice", fx.sacrifice),
    A.Exile: _one_target("zone.exile", fx.exile),
    A.LeaveAndReturn: _leave_and_return,
    A.Attach: _attach,
    A.ChangeControl: _change_control,
    A.ModifyPowerToughness: _modify_pt,
    A.AddCounters: _add_counters,
    A.GrantKeyword: _grant_keyword,
    A.ChangeType: _change_type,
    A.MakeUnregenerable: _one_target("cant-regen.make", fx.make_unregenerable),
    A.CheckStateBasedActions: _check_sba,
    A.Cleanup: _cleanup,
    A.PassPriority: _pass,
    A.CastSpell: _cast,
    A.ActivateAbility: _activate,
    A.DeclareAttackers: _declare_attackers,
    A.DeclareBlockers: _declare_blockers,
    A.OrderBlockers: _order_blockers,
    A.AssignCombatDamage: _assign,
}
