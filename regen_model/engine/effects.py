"""Effects: what resolving spells and abilities do (and what the direct actions do).

Each function changes one ``Work`` and emits events citing the clause it implements. None of
them checks state-based actions: damage marks, counters and toughness changes only take their
deadly consequences at the next check (704.3), exactly as in the game, where nothing dies
mid-resolution (704.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from regen_model.engine.attachments import attach
from regen_model.engine.destruction import apply_rider, destroy, shield_counter_removed
from regen_model.engine.errors import IllegalAction
from regen_model.engine.phasing import phase_out
from regen_model.engine.triggers import tapped_trigger
from regen_model.engine.typechange import become_creature
from regen_model.engine.work import Work
from regen_model.engine.zones import change_control, move_zone
from regen_model.model.cards import TriggerEffect
from regen_model.model.derived import (
    colors,
    controller,
    is_creature,
    is_creature_on_battlefield,
    keywords,
    shrines,
    toughness,
)
from regen_model.model.effects import STATUS_RULES, TARGET_NEEDS, Effect, EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CardType,
    Color,
    CounterKind,
    Edition,
    Keyword,
    Mutant,
    Rider,
    StackKind,
    Zone,
)
from regen_model.model.events import EventKind
from regen_model.model.state import (
    MILLED,
    SPELL_GONE,
    Card,
    Hit,
    Player,
    Shield,
    StackObject,
    Target,
)


def create_shield(
    w: Work, slot: int, origin: str, rider: Rider, creator: int, via: int | None = None
) -> None:
    """701.19a: a one-use shield for this object, this turn. Creating it is not regenerating
    (701.19c): nothing is tapped and no damage is removed; riders wait for its use. ``via``:
    the Aura or Equipment whose ability made it (bookkeeping, see ``Shield``)."""
    card = w.cards[slot]
    name = w.name(slot)
    shield = Shield(origin=origin, creator=creator, rider=rider, via=via)
    ghost = card.ghost._replace(shields_made=card.ghost.shields_made + 1)
    w.cards[slot] = card._replace(shields=(*card.shields, shield), ghost=ghost)
    w.emit(
        EventKind.SHIELD_CREATED,
        "regen.shield.create",
        name,
        shield=len(card.shields) + 1,
        origin=origin,
        rider=rider.value,
        creator=w.pname(creator),
    )
    if card.cant_regen:
        w.emit(EventKind.NOTE, "regen.cant.this-turn", name, shield_made_but_will_not_apply=True)
    if w.mutant(Mutant.CREATE_TAPS) and not card.tapped:
        w.cards[slot] = w.cards[slot]._replace(tapped=True)
        w.emit(EventKind.BECAME_TAPPED, "regen.shield.create", name, by="mutant")
        tapped_trigger(w, slot)
    if w.mutant(Mutant.RIDER_ON_CREATE) and rider is not Rider.NONE:
        apply_rider(w, slot, rider, creator, origin)


def create_prevention(w: Work, slot: int, effect: Effect) -> None:
    """A prevention effect on the permanent until cleanup (615.3): "prevent the next N damage
    that would be dealt to it this turn" adds N to what is left of its shields (615.7: a shield
    counts damage only, so shields without other effects add up), "prevent all damage that
    would be dealt to it this turn" makes ``prevent_all`` hold (615.1). It prevents only damage
    dealt after it exists (615.4)."""
    card = w.cards[slot]
    if effect.kind is EffectKind.PREVENT_ALL:
        w.cards[slot] = card._replace(prevent_all=True)
        w.emit(EventKind.PREVENTION_CREATED, "prevent.all", w.name(slot))
        return
    w.cards[slot] = card._replace(prevent_next=card.prevent_next + effect.amount)
    w.emit(EventKind.PREVENTION_CREATED, "prevent.next", w.name(slot), amount=effect.amount)


class Damage(NamedTuple):
    """One share of a (possibly simultaneous, multi-source) damage event. ``source_slot``:
    the card slot of the source when it is a permanent (None for a spell)."""

    source: str
    source_slot: int | None
    keywords: frozenset[Keyword]
    controller: int
    hit: Hit


def deal_damage(w: Work, shares: Sequence[Damage], *, combat: bool, cant_regen: bool) -> None:
    """Deal every share at once (120.3, 510.2). Damage to a creature is marked (120.3e) or,
    from a wither/infect source, becomes -1/-1 counters (120.3d). Deathtouch damage is
    recorded for the next check (702.2b), or, before M10, triggers "destroy that creature"
    (pre-M10 502.63). Prevention comes first (120.4b, 615): "prevent all damage to it this
    turn", then what is left of its "prevent the next N damage" shields, then its shield
    counters (122.1c): one prevention effect, applied once to all the simultaneous damage the
    permanent would be dealt, so one counter goes however many sources deal it (615.13 speaks
    of one prevention effect applied to simultaneous damage events). Damage that can't be
    prevented meets the same effects, which prevent none of it and reduce no shield, while a
    shield counter is still removed (615.12). Only the damage left is dealt: it is what lifelink
    gains, what deathtouch needs and what damage triggers see. Damage triggers trigger now
    (603.2), whatever happens to the creature later."""
    protected: set[int] = set()  # permanents whose shield counters prevent this event's damage
    # mutant ``prevention-per-source``: each share meets the shields as they were before the event
    before = [c.prevent_next for c in w.cards]
    for share in shares:
        hit = share.hit
        if hit.amount <= 0:
            who = w.pname(hit.player) if hit.player is not None else w.name(hit.card or 0)
            w.emit(EventKind.NO_DAMAGE, "damage.zero", who, source=share.source)
            continue
        if hit.player is not None:
            _damage_player(w, share)
            continue
        assert hit.card is not None
        slot = hit.card
        card = w.cards[slot]
        if not card.on_battlefield or card.gen != hit.gen:
            continue  # the recipient left (310.4c, 608.2b): no damage
        name = w.name(slot)
        amount = _prevention_effects(w, slot, share, before[slot])
        per_source = w.mutant(Mutant.SHIELD_COUNTER_PER_SOURCE)
        card = w.cards[slot]
        if amount > 0 and (card.shield_counters > 0 or (slot in protected and not per_source)):
            _prevent(w, slot, share, protected)
            if not _unpreventable(w, share):
                amount = 0
        if amount == 0:
            if w.mutant(Mutant.LIFELINK_ON_PREVENTED):
                _lifelink(w, share, hit.amount)
            continue
        card = w.cards[slot]  # a shield counter may just have been removed (615.12)
        kws = share.keywords
        if Keyword.WITHER in kws or Keyword.INFECT in kws:
            card = card._replace(minus=card.minus + amount)
            clause = "damage.wither-infect"
        else:
            card = card._replace(damage=card.damage + amount)
            clause = "damage.mark"
        deathtouch = Keyword.DEATHTOUCH in kws
        trigger = deathtouch and _deathtouch_triggers(w)
        if deathtouch and not trigger:
            card = card._replace(deathtouched=True)
        w.cards[slot] = card
        w.emit(
            EventKind.DAMAGE_DEALT,
            clause,
            name,
            amount=amount,
            source=share.source,
            combat=combat,
            deathtouch=deathtouch,
            as_counters=clause == "damage.wither-infect",
        )
        gained = hit.amount if w.mutant(Mutant.LIFELINK_ON_PREVENTED) else amount
        _lifelink(w, share, gained)
        if trigger:
            _deathtouch_trigger(w, slot, share)
        elif deathtouch:
            w.emit(EventKind.NOTE, "damage.deathtouch", name, deathtouch_recorded=True)
        if cant_regen and not card.cant_regen:
            w.cards[slot] = w.cards[slot]._replace(cant_regen=True)
            w.emit(EventKind.UNREGENERABLE, "cant-regen.make", name, source=share.source)
        _damage_trigger(w, slot, amount, combat)


def _unpreventable(w: Work, share: Damage) -> bool:
    """615.12: damage from a source with "damage that would be dealt by this can't be
    prevented" (the mutant ``unpreventable-prevented`` prevents it anyway)."""
    return Keyword.UNPREVENTABLE in share.keywords and not w.mutant(Mutant.UNPREVENTABLE_PREVENTED)


def _prevention_effects(w: Work, slot: int, share: Damage, before: int) -> int:
    """The damage of ``share`` left after the prevention effects of spells and abilities on the
    permanent (615.1, 615.7): "prevent all damage that would be dealt to it this turn" stops
    all of it and stays; a "prevent the next N damage" shield stops up to what is left of it
    and is reduced by as much, counting damage over every share of the event in order (615.7:
    the number of sources does not matter). Unpreventable damage is neither prevented nor
    reduces a shield (615.12). Prevented deathtouch damage was never dealt, so it destroys
    nothing (702.2b); the mutant ``prevented-deathtouch-destroys`` records it anyway.

    The order of the event's shares is the order in which a "next N" shield meets them, and
    the effects apply in the order above: the choices of 615.7 and 616.1 are not parameters
    (docs/rules-decisions.md)."""
    card = w.cards[slot]
    amount = share.hit.amount
    if _unpreventable(w, share):
        if card.prevent_all or card.prevent_next:
            w.emit(
                EventKind.NOTE,
                "prevent.unpreventable",
                w.name(slot),
                reason="the damage can't be prevented",
            )
        return amount
    left = before if w.mutant(Mutant.PREVENTION_PER_SOURCE) else card.prevent_next
    if card.prevent_all:
        prevented, clause = amount, "prevent.all"
    elif left > 0:
        prevented, clause = min(amount, left), "prevent.next"
        if not w.mutant(Mutant.PREVENTION_NOT_REDUCED):
            card = card._replace(prevent_next=max(0, card.prevent_next - prevented))
    else:
        return amount
    if Keyword.DEATHTOUCH in share.keywords and w.mutant(Mutant.PREVENTED_DEATHTOUCH_DESTROYS):
        card = card._replace(deathtouched=True)
    w.cards[slot] = card
    w.emit(EventKind.DAMAGE_PREVENTED, clause, w.name(slot), amount=prevented, source=share.source)
    return amount - prevented


def _prevent(w: Work, slot: int, share: Damage, protected: set[int]) -> None:
    """122.1c: the damage is prevented; the first share of this event to reach the permanent
    removes one shield counter (each share does, under ``shield-counter-per-source``). Damage
    that can't be prevented is dealt, and the counter is still removed (615.12: the effect
    applies, prevents nothing, and its other part happens)."""
    name = w.name(slot)
    if _unpreventable(w, share):
        w.emit(
            EventKind.NOTE, "prevent.unpreventable", name, reason="the damage can't be prevented"
        )
    else:
        w.emit(
            EventKind.DAMAGE_PREVENTED,
            "replace.shield-counter",
            name,
            amount=share.hit.amount,
            source=share.source,
        )
    card = w.cards[slot]
    if slot in protected and not w.mutant(Mutant.SHIELD_COUNTER_PER_SOURCE):
        return  # the prevention effect already applied to this event
    protected.add(slot)
    w.cards[slot] = card._replace(shield_counters=card.shield_counters - 1)
    shield_counter_removed(w, name)


def _lifelink(w: Work, share: Damage, amount: int) -> None:
    """702.15b, 120.3f: damage dealt by a source with lifelink makes the source's controller
    gain that much life, as part of the damage event (also damage dealt as -1/-1 counters or
    poison counters). Damage that was prevented was not dealt, so it gains nothing (615.6);
    the mutant ``lifelink-on-prevented`` counts it anyway."""
    if Keyword.LIFELINK not in share.keywords or amount <= 0:
        return
    gainer = share.controller
    p = w.players[gainer]
    w.players[gainer] = p._replace(life=p.life + amount)
    w.emit(
        EventKind.LIFE_CHANGED,
        "damage.lifelink",
        w.pname(gainer),
        amount=amount,
        source=share.source,
    )


def _deathtouch_triggers(w: Work) -> bool:
    """Before M10, deathtouch is a triggered ability (pre-M10 502.63)."""
    return w.edition is Edition.PRE_M10 and not w.mutant(Mutant.DEATHTOUCH_STATIC_PRE_M10)


def _deathtouch_trigger(w: Work, slot: int, share: Damage) -> None:
    """Pre-M10 deathtouch: "whenever this deals damage to a creature, destroy that creature"
    triggers, controlled by the source's controller. It resolves like any trigger, so the
    creature may regenerate from it again (a second shield), after the lethal-damage check."""
    card = w.cards[slot]
    source = share.source_slot
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"deathtouch of {share.source}",
        controller=share.controller,
        effect=Effect(EffectKind.DESTROY),
        targets=(Target(card=slot, gen=card.gen),),
        source=source,
        source_gen=0 if source is None else w.cards[source].gen,
        target_rule=TargetRule.CREATURE,
    )
    w.trigger(obj, "damage.deathtouch-trigger", w.name(slot))


def _damage_player(w: Work, share: Damage) -> None:
    hit = share.hit
    assert hit.player is not None
    p = w.players[hit.player]
    if Keyword.INFECT in share.keywords:
        w.players[hit.player] = p._replace(poison=p.poison + hit.amount)
        w.emit(EventKind.POISONED, "damage.player", w.pname(hit.player), amount=hit.amount)
    else:
        w.players[hit.player] = p._replace(life=p.life - hit.amount)
        w.emit(
            EventKind.LIFE_CHANGED,
            "damage.player",
            w.pname(hit.player),
            amount=-hit.amount,
            source=share.source,
        )
    _lifelink(w, share, hit.amount)


def _damage_trigger(w: Work, slot: int, amount: int, combat: bool) -> None:
    """ "Whenever this creature is dealt (combat) damage, ...": its controller gains that much
    life (Wall of Essence), or it deals that much damage to its controller (Jackal Pup)."""
    trigger = w.setup.templates[slot].damage_trigger
    if trigger is None or (trigger.combat_only and not combat):
        return
    card = w.cards[slot]
    owner = controller(card)
    gain = trigger.effect is TriggerEffect.GAIN_LIFE
    effect = Effect(EffectKind.LIFE if gain else EffectKind.DAMAGE, amount=amount)
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"damage trigger of {w.name(slot)}",
        controller=owner,
        effect=effect,
        targets=(Target(player=owner),),
        source=slot,
        source_gen=card.gen,
    )
    w.trigger(
        obj, "damage.trigger", w.name(slot), **({"life": amount} if gain else {"damage": amount})
    )


def modify_pt(w: Work, slot: int, dp: int, dt: int) -> None:
    card = w.cards[slot]
    w.cards[slot] = card._replace(
        power_eot=card.power_eot + dp, toughness_eot=card.toughness_eot + dt
    )
    w.emit(EventKind.PT_MODIFIED, "pt.modify", w.name(slot), power=dp, toughness=dt)


def add_counters(w: Work, slot: int, kind: CounterKind, amount: int) -> None:
    card = w.cards[slot]
    if kind is CounterKind.PLUS:
        card = card._replace(plus=card.plus + amount)
    elif kind is CounterKind.MINUS:
        card = card._replace(minus=card.minus + amount)
    else:
        card = card._replace(shield_counters=card.shield_counters + amount)
    w.cards[slot] = card
    w.emit(
        EventKind.COUNTERS_PLACED, "counters.add", w.name(slot), counter=kind.value, amount=amount
    )


def grant_keyword(w: Work, slot: int, keyword: Keyword, remove: bool) -> None:
    """Until end of turn; the latest grant or removal wins (613.7)."""
    card = w.cards[slot]
    if remove:
        card = card._replace(
            kw_granted=card.kw_granted - {keyword}, kw_removed=card.kw_removed | {keyword}
        )
    else:
        card = card._replace(
            kw_granted=card.kw_granted | {keyword}, kw_removed=card.kw_removed - {keyword}
        )
    w.cards[slot] = card
    w.emit(
        EventKind.KEYWORD_CHANGED,
        "keyword.grant",
        w.name(slot),
        keyword=keyword.value,
        gained=not remove,
    )


def target_unregenerable(w: Work, slot: int, gen: int, source: str) -> None:
    """Disintegrate's "if it's a creature, it can't be regenerated this turn": an instruction
    of the spell of its own (608.2c), so it applies to the target, still that object and a
    creature, whether or not the damage reached it (615.6); clause
    ``cant-regen.damage-target``."""
    card = w.cards[slot]
    if card.gen != gen or not is_creature_on_battlefield(w, card) or card.cant_regen:
        return
    w.cards[slot] = card._replace(cant_regen=True)
    w.emit(EventKind.UNREGENERABLE, "cant-regen.damage-target", w.name(slot), source=source)


def target_exiled_if_dies(w: Work, slot: int, gen: int, source: str) -> None:
    """Disintegrate's "if it would die this turn, exile it instead": like its "can't be
    regenerated", an instruction of its own (608.2c), so it covers the target, still that
    object and a creature, whatever the damage did (615.6). It creates a replacement effect
    of the move to the graveyard that lasts the turn (614.1a, 614.6, 700.4; applied by
    ``zones.move_zone``); clause ``replace.exile-instead``."""
    card = w.cards[slot]
    if card.gen != gen or not is_creature_on_battlefield(w, card) or card.exile_if_dies:
        return
    w.cards[slot] = card._replace(exile_if_dies=True)
    w.emit(EventKind.NOTE, "replace.exile-instead", w.name(slot), source=source, exile_if_dies=True)


def remove_damage_next(w: Work, slot: int, source: str) -> None:
    """Pyramids: "the next time target land would be destroyed this turn, remove all damage
    marked on it instead", one more such effect on the (still legal, 608.2b) target: a
    destruction-replacement effect used up by the first destruction it replaces (614.1a,
    614.5), ended at cleanup (514.2); applied by ``destruction.apply_option``; clause
    ``replace.remove-damage``."""
    card = w.cards[slot]
    w.cards[slot] = card._replace(remove_damage=card.remove_damage + 1)
    w.emit(
        EventKind.NOTE,
        "replace.remove-damage",
        w.name(slot),
        source=source,
        remove_damage=card.remove_damage + 1,
    )


def make_unregenerable(w: Work, slot: int) -> None:
    """701.19c: shields can still be made, but none applies to it this turn."""
    card = w.cards[slot]
    w.cards[slot] = card._replace(cant_regen=True)
    w.emit(EventKind.UNREGENERABLE, "cant-regen.make", w.name(slot))


def sacrifice(w: Work, slot: int) -> None:
    """701.21a: not destruction, so no shield applies (the mutant wrongly uses one)."""
    card = w.cards[slot]
    if w.mutant(Mutant.SACRIFICE_USES_SHIELD) and card.active_shields:
        destroy(w, slot, cant_regen=False, by_effect=True, clause="zone.sacrifice")
        return
    move_zone(w, slot, Zone.GRAVEYARD, "zone.sacrifice", "sacrificed")


def exile(w: Work, slot: int) -> None:
    move_zone(w, slot, Zone.EXILE, "zone.exile", "exiled")


def leave_and_return(w: Work, slot: int, under: int | None = None) -> None:
    """Exile and return at once: two zone changes, a new object (400.7). It returns under
    the control of ``under`` when the effect names a player ("under your control"), else
    under its owner's (110.2a)."""
    if w.mutant(Mutant.FLICKER_RETURNS_TO_OWNER):
        under = None
    move_zone(w, slot, Zone.EXILE, "zone.exile", "exiled")
    move_zone(w, slot, Zone.BATTLEFIELD, "zone.new-object", "returned", controller=under)


def untap(w: Work, slot: int, clause: str) -> None:
    """701.26b: an untap effect untaps a tapped permanent; an untapped one stays as it is."""
    card = w.cards[slot]
    if card.tapped:
        w.cards[slot] = card._replace(tapped=False)
        w.emit(EventKind.BECAME_UNTAPPED, clause, w.name(slot))


def live_keywords(w: Work, source: int | None, gen: int) -> frozenset[Keyword]:
    """The keywords of the permanent ``source`` if it is still that object (incarnation
    ``gen``) on the battlefield; nothing otherwise (its last known keywords are then kept on
    the stack object, see ``zones.move_zone``)."""
    if source is None:
        return frozenset()
    card = w.cards[source]
    if not card.on_battlefield or card.gen != gen:
        return frozenset()
    return keywords(w, card)


def set_life(w: Work, player: int, delta: int, clause: str) -> None:
    p: Player = w.players[player]
    w.players[player] = p._replace(life=p.life + delta)
    w.emit(EventKind.LIFE_CHANGED, clause, w.pname(player), amount=delta)


def may_draw(w: Work, named: Target, count: int) -> None:
    """A "that player may draw a card" resolves (Fecundity's trigger): the player ``named``
    chooses as it resolves (608.2d; the answer is ``PassPriority.decline``), and may choose
    to draw with an empty library (121.3, 121.3a), which makes them lose at the next check
    (121.4)."""
    player = named.player
    assert player is not None  # the trigger names a player, never a card (dies_draw_trigger)
    if w.decline:
        w.emit(EventKind.NOTE, "draw.may", None, player=w.pname(player), draws=False)
        return
    w.emit(EventKind.NOTE, "draw.may", None, player=w.pname(player), draws=True)
    draw(w, player, count)


def may_gain(w: Work, named: Target, life: int) -> None:
    """A "you may gain N life" resolves (Judge of Currents' trigger): the player ``named``,
    the trigger's controller (603.3a), chooses as it resolves, not as it triggers (608.2d; the
    answer no is ``PassPriority.decline``); declining changes no life total. The mutant
    ``may-gain-ignores-decline`` gains whatever the answer."""
    player = named.player
    assert player is not None  # the trigger names its controller, never a card (watched_taps)
    gains = not w.decline or w.mutant(Mutant.MAY_GAIN_IGNORES_DECLINE)
    w.emit(EventKind.NOTE, "trigger.creature-tapped", None, player=w.pname(player), gains=gains)
    if gains:
        set_life(w, player, life, "stack.resolve")


# The target rule of the model's one triggered ability whose target is chosen only as it is
# put on the stack (Go-Shintai of Hidden Cruelty's reflexive trigger, 603.12, 603.3d): the
# reflexive trigger this step made (``Work.reflexive``) gets one in ``sba._triggers_to_stack``.
CHOSEN_ON_STACK = TargetRule.TOUGHNESS_SHRINES


def when_you_do(
    w: Work, controller_: int, source: int | None, source_gen: int, source_name: str
) -> None:
    """ "You may pay {1}. When you do, destroy target creature with toughness X or less, where
    X is the number of Shrines you control" resolves (Go-Shintai of Hidden Cruelty's end-step
    trigger). Its controller ``controller_`` answers as it resolves (608.2d; no means "I
    don't pay", ``PassPriority.decline``; the model pays no mana). Paying creates a reflexive
    triggered ability, checked at once (603.12): it triggers, its source the same as this
    ability's and its controller the player who controlled this ability as it resolved
    (603.7e), and it waits to be put on the stack with no target yet: the target is chosen
    then (603.3d, ``trigger_target``), after this resolution, so players may respond to it.

    Mutants: ``reflexive-by-source-controller`` gives it to the source's controller now;
    ``reflexive-inline`` does the destruction now, as part of this resolution, the target
    chosen as it resolves (the one-ability "if you do" reading)."""
    name = source_name if source is None else w.name(source)
    if w.decline:
        w.emit(EventKind.NOTE, "trigger.reflexive", name, paid=False)
        return
    who = controller_
    if w.mutant(Mutant.REFLEXIVE_BY_SOURCE_CONTROLLER) and source is not None:
        who = controller(w.cards[source])  # mutant: the source's controller now
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"reflexive trigger of {name}",
        controller=who,
        effect=Effect(EffectKind.DESTROY),
        targets=(),
        source=source,
        source_gen=source_gen,
        target_rule=CHOSEN_ON_STACK,
    )
    if w.mutant(Mutant.REFLEXIVE_INLINE):
        w.emit(EventKind.NOTE, "trigger.reflexive", name, paid=True)  # mutant: no trigger
        target = trigger_target(w, obj)
        if target is not None and target.card is not None:
            destroy(w, target.card, cant_regen=False, by_effect=True, clause="destroy.effect")
        return
    w.trigger(obj, "trigger.reflexive", name)
    w.reflexive = obj  # its target is chosen as it goes on the stack, in this step


def trigger_target(w: Work, obj: StackObject) -> Target | None:
    """603.3d: the target of a triggered ability that has none yet (a reflexive trigger,
    603.12) is chosen as it is put on the stack, as for a spell (601.2c): a creature meeting
    its target rule now, for its controller (``unmet_target_need``: Go-Shintai's X is counted
    now). The choice is its controller's, carried by the action under way
    (``PassPriority.target``), and must name a legal target when there is one
    (``IllegalAction`` otherwise). With no legal target the ability is removed from the stack
    (603.3d): ``None``."""
    legal = [
        i
        for i, c in enumerate(w.cards)
        if c.on_battlefield and unmet_target_need(w, c, obj.target_rule, obj.controller) is None
    ]
    if not legal:
        w.emit(
            EventKind.NOTE,
            "stack.trigger-target",
            None,
            target_of=obj.name,
            reason="no legal target",
        )
        return None
    chosen = w.reflexive_target
    if chosen is None or chosen not in legal:
        raise IllegalAction(
            f"{obj.name} needs a target as it is put on the stack: one of "
            + ", ".join(w.name(i) for i in legal),
            "stack.trigger-target",
            "target",
        )
    w.emit(EventKind.NOTE, "stack.trigger-target", w.name(chosen), target_of=obj.name)
    return Target(card=chosen, gen=w.cards[chosen].gen)


def draw(w: Work, player: int, count: int) -> None:
    """``player`` draws ``count`` cards, one at a time (121.2): each the top card of their
    library into their hand (121.1), counted, not named (``Player.hand``). A draw from an
    empty library moves nothing and is remembered for the next check of state-based actions,
    which makes the player lose (121.4, 704.5b)."""
    for _ in range(count):
        p: Player = w.players[player]
        if p.library > 0:
            w.players[player] = p._replace(library=p.library - 1, hand=p.hand + 1)
            w.emit(EventKind.NOTE, "draw.card", None, player=w.pname(player), hand=p.hand + 1)
        else:
            w.players[player] = p._replace(drew_empty=True)
            w.emit(EventKind.NOTE, "draw.empty-library", None, player=w.pname(player), library=0)


def mill(w: Work, named: Target, count: int) -> None:
    """The player ``named`` (a target player, never a card: ``step._targets`` refuses a card
    target for a mill) mills ``count`` cards (701.17a): the top cards of their library into their
    graveyard, or every card it holds if it holds fewer (701.17b). The cards move at the same
    time, so they are one group there (404.3), each the anonymous ``MILLED`` entry (a library
    is a count, ``Player.library``). Milling is not drawing: a short or empty library makes
    nobody lose (704.5b reads only draws); the mutant ``mill-short-library-loses`` records the
    shortfall as an attempted draw from an empty library, as an engine that mills by drawing
    and discarding does."""
    player = named.player
    assert player is not None  # "target player" (601.2c): a player, never a card
    p: Player = w.players[player]
    moved = min(count, p.library)
    w.players[player] = p._replace(library=p.library - moved)
    if moved > 0:
        w.begin_together()  # one event: one group in that graveyard (404.3)
        for _ in range(moved):
            w.to_graveyard(player, MILLED)
        w.end_together()
        w.emit(
            EventKind.NOTE,
            "mill.cards",
            None,
            player=w.pname(player),
            moved=moved,
            library=p.library - moved,
            group=len(w.players[player].graveyard),
        )
    if moved < count:
        # 701.17b: as many as possible; nothing else happens for the rest
        w.emit(EventKind.NOTE, "mill.short-library", None, player=w.pname(player), moved=moved)
        if w.mutant(Mutant.MILL_SHORT_LIBRARY_LOSES):
            w.players[player] = w.players[player]._replace(drew_empty=True)  # mutant


def counter_spell(w: Work, position: int, source_name: str) -> None:
    """701.6a: the spell at stack ``position`` is countered: removed from the stack, it does
    not resolve and none of its effect happens, and it is put on top of its owner's
    graveyard, a group of its own (404.1, 404.3), before the countering spell itself goes
    there as the last part of its resolution (608.2n). Our spells are cast by their owner.
    The objects above it move down one place; a target of theirs that named it is gone
    (608.2b) and one that named an object above it follows that object
    (``state.Target.spell``). The mutant ``countered-spell-vanishes`` removes it from the
    stack without putting it anywhere (the stack object dropped, as if it were no card)."""
    countered = w.stack.pop(position)
    for k in range(position, len(w.stack)):
        obj = w.stack[k]
        if any(t.spell is not None for t in obj.targets):
            w.stack[k] = obj._replace(targets=tuple(_renumbered(t, position) for t in obj.targets))
    w.emit(EventKind.COUNTERED, "stack.counter", countered.name, by=source_name)
    if w.mutant(Mutant.COUNTERED_SPELL_VANISHES) or countered.kind is not StackKind.SPELL:
        # mutant: no card reaches a graveyard. (Only a spell is ever a "target spell", 601.2c;
        # an object that is no card would just cease to exist, 608.2n.)
        return
    w.to_graveyard(countered.controller, countered.name)
    w.emit(
        EventKind.NOTE,
        "zone.spell-to-graveyard",
        None,
        spell=countered.name,
        graveyard=w.pname(countered.controller),
        group=len(w.players[countered.controller].graveyard),
        countered=True,
    )


def _renumbered(t: Target, removed: int) -> Target:
    """A target after the stack object at ``removed`` was countered (``counter_spell``)."""
    if t.spell is None or t.spell == SPELL_GONE or t.spell < removed:
        return t
    return t._replace(spell=SPELL_GONE if t.spell == removed else t.spell - 1)


def unmet_target_need(w: Work, card: Card, rule: TargetRule, player: int) -> str | None:
    """The first part of ``rule``'s requirement (``effects.TARGET_NEEDS``, the one table both
    views read) that the permanent ``card`` fails, or ``None`` if it meets them all; ``player``
    is the controller of the spell or ability ("you"). Checked as a spell is cast (601.2c)
    and again as it resolves (608.2b), so the two checks cannot drift apart."""
    needs = TARGET_NEEDS[rule]
    if needs.player:
        return "not-a-player"  # "target player" (115.2: a player is named as one)
    if needs.spell:
        return "not-a-spell"  # "target spell": a spell is on the stack (115.1)
    if needs.creature and not is_creature_on_battlefield(w, card):
        return "not-a-creature"
    if needs.yours and controller(card) != player:
        return "not-yours"
    if needs.nonartifact and CardType.ARTIFACT in w.setup.templates[card.slot].types:
        return "artifact"
    if needs.nonblack and Color.BLACK in colors(w, card):
        return "black"
    if needs.attacking and not card.attacking:
        return "not-attacking"  # removed from combat (506.4), e.g. by regenerating (701.19a)
    if needs.untapped and card.tapped:
        return "tapped"  # e.g. tapped by regenerating (701.19a)
    if needs.land and CardType.LAND not in w.setup.templates[card.slot].types:
        return "not-a-land"  # Pyramids' "target land"
    if needs.toughness_shrines and toughness(w, card) > shrines(w, player):
        return "toughness-above-shrines"  # Go-Shintai's "toughness X or less"
    return None


def illegal_target(w: Work, target: Target, rule: TargetRule, player: int) -> str | None:
    """608.2b: why a target is now illegal, or ``None`` if it is still legal. A card target
    must still be the same object on the battlefield (400.7: ``"gone"``) and still meet every
    part of its target rule for the object's controller ``player`` (``unmet_target_need``):
    "target creature you control" is illegal once another player controls it, "target
    creature" once it is no longer a creature. An ability acting on its own permanent
    ("Regenerate this creature", a manland's animation) has the rule ``NONE``: only that
    object, which may be a land. A player target stays legal (no player leaves the game in
    the model). The mutant ``target-rule-cast-only`` re-checks only the zone and the
    creature type, as this model once did; ``target-status-cast-only`` all but the combat and
    tap status (``effects.STATUS_RULES``)."""
    if target.spell is not None:
        # "target spell": still on the stack (608.2b); the only way one leaves from beneath
        # another object is being countered, which marks it gone (``counter_spell``)
        if target.spell == SPELL_GONE or not 0 <= target.spell < len(w.stack):
            return "gone"
        return None
    if target.player is not None:
        return None
    assert target.card is not None
    card = w.cards[target.card]
    if not card.on_battlefield or card.gen != target.gen:
        return "gone"
    if w.mutant(Mutant.TARGET_RULE_CAST_ONLY):
        rule = TargetRule.CREATURE if TARGET_NEEDS[rule].creature else TargetRule.NONE
    if w.mutant(Mutant.TARGET_STATUS_CAST_ONLY) and rule in STATUS_RULES:
        rule = TargetRule.CREATURE
    return unmet_target_need(w, card, rule, player)


# What ``unmet_target_need`` says of a target whose combat or tap status no longer fits its
# rule (``effects.STATUS_RULES``): the reasons of the clause ``stack.target-status``.
STATUS_REASONS = frozenset({"not-attacking", "tapped"})


def _absent(w: Work) -> None:
    """702.26b: an effect on each creature leaves the phased-out ones alone, as though they did
    not exist (the example of "destroy all creatures")."""
    for i, c in enumerate(w.cards):
        if c.in_battlefield_zone and c.phased_out is not None and is_creature(w, c):
            w.emit(EventKind.NOTE, "phasing.absent", w.name(i), phased_out=True)


def apply_effect(
    w: Work,
    effect: Effect,
    controller_: int,
    targets: Sequence[Target],
    source_name: str,
    source: int | None = None,
    source_gen: int = 0,
) -> None:
    """Apply a resolving spell's or ability's effect to its (already checked) targets.
    ``source``: the permanent a resolving ability or trigger comes from; a trigger's damage
    is dealt by it, with its keywords (last known ones, in ``effect.keywords``, if it left)."""
    k = effect.kind
    cards = [t.card for t in targets if t.card is not None]
    if k is EffectKind.DAMAGE:
        kws = effect.keywords | live_keywords(w, source, source_gen)
        shares = [
            Damage(
                source_name if source is None else w.name(source),
                source,
                kws,
                controller_,
                Hit(effect.amount, card=t.card, gen=t.gen, player=t.player),
            )
            for t in targets
        ]
        # mutant ``target-cant-regen-needs-damage``: Disintegrate read as Incinerate's rider
        needs_damage = effect.cant_regen_target and w.mutant(Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE)
        deal_damage(w, shares, combat=False, cant_regen=effect.cant_regen or needs_damage)
        # mutant ``damage-rider-on-prevented``: Incinerate read as Disintegrate (PH-29)
        rider_anyway = effect.cant_regen and w.mutant(Mutant.DAMAGE_RIDER_ON_PREVENTED)
        if (effect.cant_regen_target and not needs_damage) or rider_anyway:
            for t in targets:
                if t.card is not None:
                    target_unregenerable(w, t.card, t.gen, source_name)
        if effect.exile_if_dies:
            for t in targets:
                if t.card is not None:
                    target_exiled_if_dies(w, t.card, t.gen, source_name)
    elif k is EffectKind.DAMAGE_EACH_CREATURE:
        shares = [
            Damage(
                source_name,
                None,
                effect.keywords,
                controller_,
                Hit(effect.amount, card=i, gen=c.gen),
            )
            for i, c in enumerate(w.cards)
            if is_creature_on_battlefield(w, c)
        ]
        _absent(w)
        deal_damage(w, shares, combat=False, cant_regen=effect.cant_regen)
    elif k is EffectKind.DESTROY:
        # its targets at once (608.2f, 701.8), in slot order as in ``step._destroy``; a
        # permanent named by two of its targets is destroyed once, by one event (as 704.7)
        with w.simultaneous(cards):
            for slot in sorted(set(cards)):
                destroy(
                    w, slot, cant_regen=effect.cant_regen, by_effect=True, clause="destroy.effect"
                )
    elif k is EffectKind.DESTROY_ALL_CREATURES:
        victims = [i for i, c in enumerate(w.cards) if is_creature_on_battlefield(w, c)]
        _absent(w)
        if len(victims) > 1:
            w.emit(EventKind.NOTE, "destroy.simultaneous", None, permanents=len(victims))
        destroyed = 0
        # one event (608.2f): each watcher sees every death (603.10a), each destruction is
        # decided on the game as the event began (``Work.event_start``)
        with w.simultaneous(victims):
            for slot in victims:
                gen, reached = w.cards[slot].gen, w.cards[slot].ghost.destructions
                destroy(
                    w, slot, cant_regen=effect.cant_regen, by_effect=True, clause="destroy.effect"
                )
                card = w.cards[slot]
                if card.gen != gen or (
                    w.mutant(Mutant.REGENERATED_COUNTED_AS_DESTROYED)
                    and card.ghost.destructions != reached
                ):
                    destroyed += 1
        if effect.amount:
            w.emit(EventKind.NOTE, "destroy.counted", None, destroyed_this_way=destroyed)
            if destroyed:
                set_life(w, controller_, effect.amount * destroyed, "destroy.counted")
    elif k is EffectKind.REGENERATE:
        for slot in cards:
            # "Regenerate enchanted creature": the shield is the creature's (701.19a); the
            # Aura that made it is only recorded (``Shield.via``). A creature's "Regenerate
            # target creature" (Suture Spirit) at another creature records nothing.
            via = (
                source
                if source is not None
                and source != slot
                and w.setup.templates[source].attachment is not Attachment.NONE
                else None
            )
            # the Aura has left (sacrificed to pay for this): its last known host still gets
            # the shield (113.7a, 608.2h); the mutant's path under its own 'if w.mutant'
            if via is not None and w.cards[via].gen != source_gen:  # noqa: SIM102
                if w.mutant(Mutant.SACRIFICED_AURA_NO_SHIELD):
                    continue  # the mutant: "enchanted creature" looked up on the gone Aura
            if via is not None:
                w.emit(EventKind.NOTE, "attach.host-regen", w.name(slot), made_by=w.name(via))
            create_shield(w, slot, source_name, effect.rider, controller_, via)
    elif k is EffectKind.PUMP:
        for slot in cards:
            modify_pt(w, slot, effect.power, effect.toughness)
    elif k is EffectKind.UNREGENERABLE:
        for slot in cards:
            make_unregenerable(w, slot)
    elif k is EffectKind.COUNTERS:
        for slot in cards:
            add_counters(w, slot, effect.counter, effect.amount)
    elif k is EffectKind.LIFE:
        for t in targets:
            if t.player is not None:
                set_life(w, t.player, effect.amount, "stack.resolve")
    elif k is EffectKind.DRAIN:
        # 119.3: each opponent loses the life, then the effect's controller gains it
        for p in range(len(w.players)):
            if p != controller_:
                set_life(w, p, -effect.amount, "stack.resolve")
        set_life(w, controller_, effect.amount, "stack.resolve")
    elif k is EffectKind.MAY_DRAW:
        for t in targets:  # its one target is the player it names (603.10a), never a card
            may_draw(w, t, effect.amount)
    elif k is EffectKind.MAY_GAIN:
        for t in targets:  # its one target is the player it names ("you"), never a card
            may_gain(w, t, effect.amount)
    elif k is EffectKind.MILL:
        # 608.2c: in the order written: the target player mills, then "Draw a card." is the
        # controller's (Thought Scour), even if the mill emptied their library
        for t in targets:
            mill(w, t, effect.amount)
        draw(w, controller_, effect.draw)
    elif k is EffectKind.WHEN_YOU_DO:
        when_you_do(w, controller_, source, source_gen, source_name)
    elif k is EffectKind.COUNTER_SPELL:
        # "counter target spell": its one target (601.2c allows no other), the first legal
        if targets and targets[0].spell is not None:
            counter_spell(w, targets[0].spell, source_name)
    elif k is EffectKind.FLICKER:
        for slot in cards:
            leave_and_return(w, slot, controller_ if effect.under_you else None)
    elif k is EffectKind.GAIN_CONTROL:
        for slot in cards:
            change_control(w, slot, controller_, effect.until_end_of_turn, "control.change")
            if effect.untap:
                untap(w, slot, "tap.untap")
            for keyword in sorted(effect.keywords):
                grant_keyword(w, slot, keyword, False)
    elif k is EffectKind.ANIMATE:
        for slot in cards:
            become_creature(w, slot)
    elif k in (EffectKind.PREVENT, EffectKind.PREVENT_ALL):
        for slot in cards:
            create_prevention(w, slot, effect)
    elif k is EffectKind.PHASE_OUT:
        for slot in cards:
            phase_out(w, slot, "phasing.out")
    elif k is EffectKind.ATTACH:
        for slot in cards:
            if source is not None and w.cards[source].gen == source_gen:
                attach(w, source, slot, "attach.equip")
    elif k is EffectKind.REMOVE_DAMAGE_INSTEAD:
        for slot in cards:
            remove_damage_next(w, slot, source_name)
    else:  # pragma: no cover - the enum is closed
        raise IllegalAction(f"unknown effect {k}")
