"""Zone changes, removal from combat and control changes.

These are the three ways a permanent's relation to the game changes without its
characteristics changing, and each has consequences the regeneration rules lean on: a zone
change makes a new object (400.7, so shields do not follow), and both leaving the battlefield
and changing control take a creature out of combat (506.4).
"""

from __future__ import annotations

from dataclasses import replace

from regen_model.engine.attachments import shields_when_leaving
from regen_model.engine.triggers import creature_dies_triggers, life_trigger
from regen_model.engine.work import Work
from regen_model.model.derived import (
    blocks_now,
    controller,
    declared_for,
    is_creature,
    is_creature_on_battlefield,
    keywords,
)
from regen_model.model.effects import EffectKind
from regen_model.model.enums import CounterKind, Keyword, Mutant, StackKind, Zone
from regen_model.model.events import EventKind
from regen_model.model.state import Card, Shield, SourceLKI, StackObject


def remove_from_combat(w: Work, slot: int, clause: str, reason: str) -> None:
    """506.4: the creature stops being attacking, blocking, blocked or unblocked.

    A creature that was blocking it is still a blocking creature but no longer blocks it
    (510.1d): one that blocks two attackers keeps blocking the other (``combat.blocks_now``,
    clause combat.removal.multi-blocked); an attacker it blocked stays blocked (509.1h), both
    attackers of a removed creature that blocked two.
    """
    card = w.cards[slot]
    if not card.in_combat and not card.blocked:
        return
    two = declared_for(card)
    card = card._replace(blocking_also=None)  # both attackers it was declared blocking
    w.cards[slot] = card._replace(attacking=False, blocking=None, blocked=False)
    w.emit(EventKind.REMOVED_FROM_COMBAT, clause, w.name(slot), reason=reason)
    if card.eoc_destroy and w.mutant(Mutant.EOC_DESTROY_NEEDS_COMBAT):
        # Mutant: "destroy it at end of combat" read as "destroy each creature still blocking
        # or blocked by it", so a creature that left combat escapes it.
        w.cards[slot] = w.cards[slot]._replace(eoc_destroy=0, eoc_destroy_by=None)
    _note_multi_blocks(w, slot, two)
    # 509.2a (M10): a creature removed from combat leaves every damage assignment order.
    if w.combat.orders:
        orders = tuple(
            (attacker, tuple(b for b in order if b != slot))
            for attacker, order in w.combat.orders
            if attacker != slot
        )
        w.combat = w.combat._replace(orders=orders)


def _note_multi_blocks(w: Work, slot: int, declared: tuple[int, ...]) -> None:
    """Narrate combat.removal.multi-blocked: a removed creature that blocked two attackers
    leaves both blocked (509.1h); a creature that blocked the removed attacker and another one
    still blocks the other (510.1d)."""
    if len(declared) == 2:
        w.emit(
            EventKind.NOTE,
            "combat.removal.multi-blocked",
            w.name(slot),
            stays_blocked=",".join(w.name(a) for a in declared),
        )
    for j, c in enumerate(w.cards):
        others = [a for a in declared_for(c) if a != slot]
        if j != slot and c.on_battlefield and len(others) == 1 and others != list(declared_for(c)):
            still = blocks_now(w, j)
            if still:
                w.emit(
                    EventKind.NOTE,
                    "combat.removal.multi-blocked",
                    w.name(j),
                    still_blocks=",".join(w.name(a) for a in still),
                )


def dies_exiled(w: Work, card: Card) -> bool:
    """Whether a move of this card to the graveyard is a death that a "if it would die this
    turn, exile it instead" effect replaces: it is a creature on the battlefield (700.4) and
    the effect applies to it (``Card.exile_if_dies``)."""
    return card.exile_if_dies and is_creature_on_battlefield(w, card)


def _only_destruction(w: Work, clause: str) -> bool:
    """Mutant ``exile-instead-only-if-destroyed``: the exile effect (wrongly) replaces only a
    destruction's move, so 0 toughness or a sacrifice still puts the creature into the
    graveyard."""
    return w.mutant(Mutant.EXILE_ONLY_IF_DESTROYED) and clause not in DESTRUCTION_MOVES


# The clauses of the moves to the graveyard that are a destruction's (``destruction.destroy``).
DESTRUCTION_MOVES = frozenset({"zone.new-object", "replace.exile-instead"})


def move_zone(
    w: Work, slot: int, to: Zone, clause: str, cause: str, controller: int | None = None
) -> None:
    """Move a card to another zone: it becomes a new object (400.7, clause zone.new-object).

    Everything that belonged to the old object is gone: damage, counters, shields, "this turn"
    effects, combat status, attachments both ways. A card put onto the battlefield comes under
    its owner's control, or under ``controller``'s when the effect names that player (110.2a),
    arrives summoning sick (302.6) and with the counters it enters with (614.1c). Before the
    old object goes, objects on the stack that use its last known information take it (a
    trigger's damage, pre-M10 combat damage: ``record_lki``). Under the
    ``shield-follows-zone-change`` mutant, unused shields are (wrongly) kept through every zone
    change, so a flicker (exile, then return) brings them back.
    """
    card = w.cards[slot]
    was = card.zone
    if to is Zone.GRAVEYARD and dies_exiled(w, card) and not _only_destruction(w, clause):
        # 614.6, 700.4: "if it would die this turn, exile it instead" (Disintegrate) replaces
        # this move, whatever causes it (destruction, 0 toughness, sacrifice): it never reaches
        # the graveyard, so nothing sees it die.
        w.emit(EventKind.REPLACED, "replace.exile-instead", w.name(slot), by="exile-instead")
        to = Zone.EXILE
    # 700.4: put into a graveyard from the battlefield (so not when exiled instead);
    # 603.10a: as it last existed there
    dies = card.on_battlefield and to is Zone.GRAVEYARD and is_creature(w, card)
    attacking = card.attacking  # 603.10a: "an attacking creature dies", before it leaves combat
    if card.on_battlefield:
        record_lki(w, slot)
    if card.on_battlefield:
        shields_when_leaving(w, slot)
    if card.on_battlefield and card.in_combat:
        remove_from_combat(w, slot, "combat.removal", "left the battlefield")
        card = w.cards[slot]
    owner = w.setup.owners[slot]
    kept: tuple[Shield, ...] = ()
    if w.mutant(Mutant.SHIELD_FOLLOWS_ZONE_CHANGE):
        # Kept on the way out too: a flicker is two zone changes (to exile and back), and a
        # mutant that dropped them on the way to exile could never show (it was equivalent).
        kept = tuple(s for s in card.shields if not s.used)
    entering = to is Zone.BATTLEFIELD
    new = Card(slot=slot, zone=to, gen=card.gen + 1, control=owner, shields=kept, sick=entering)
    w.cards[slot] = new
    if to is Zone.GRAVEYARD:
        # 404.1: on top of its owner's graveyard (400.3), with the other cards of this event
        # (404.3: a state-based-action check, one "destroy" instruction; ``Work.together``)
        w.to_graveyard(owner, slot)
        # no subject: bookkeeping beside the zone change, which is the event about the card
        w.emit(
            EventKind.NOTE,
            "zone.graveyard-order",
            None,
            card=w.name(slot),
            graveyard=w.pname(owner),
            group=len(w.players[owner].graveyard),
        )
    w.emit(
        EventKind.ZONE_CHANGE,
        clause,
        w.name(slot),
        origin=was.value,
        to=to.value,
        cause=cause,
        new_object=True,
    )
    if dies:
        dies_trigger(w, slot, card)
        if w.mutant(Mutant.ATTACKING_READ_AFTER_MOVE):
            attacking = w.cards[slot].attacking  # mutant: read from the new object
        creature_dies_triggers(w, slot, card, attacking)
    if entering:
        w.emit(EventKind.NOTE, "combat.summoning-sickness", w.name(slot), summoning_sick=True)
    if entering and controller is not None and controller != owner:
        w.cards[slot] = new._replace(control=controller)
        w.emit(
            EventKind.CONTROL_CHANGED,
            "zone.return-control",
            w.name(slot),
            origin=w.pname(owner),
            to=w.pname(controller),
            until_end_of_turn=False,
        )
    plus = w.setup.templates[slot].enters_plus
    if entering and plus:
        w.cards[slot] = w.cards[slot]._replace(plus=plus)
        w.emit(
            EventKind.COUNTERS_PLACED,
            "zone.enters-with-counters",
            w.name(slot),
            counter=CounterKind.PLUS.value,
            amount=plus,
        )
    if card.on_battlefield:
        # Things attached to it are now attached to nothing; an Aura then goes to the
        # graveyard at the next state-based-action check (704.5m).
        for i, other in enumerate(w.cards):
            if other.attached_to == slot and i != slot:
                w.cards[i] = other._replace(attached_to=None)
                w.emit(EventKind.UNATTACHED, "zone.new-object", w.name(i), origin=w.name(slot))


def dies_trigger(w: Work, slot: int, card: Card) -> None:
    """ "When this creature dies, you gain N life" (Onulet) triggers: a leaves-the-battlefield
    ability (603.6c) that looks back in time (603.10a), so it triggers from the creature as it
    last existed on the battlefield (``card``, the old object) and is controlled by that
    object's controller (603.3a), who gains the life when it resolves. Regeneration is not
    dying (the same object stays, 701.19a): only ``move_zone`` calls this, except under the
    mutant ``regen-triggers-dies``."""
    life = w.setup.templates[slot].dies_life
    if not life:
        return
    life_trigger(w, slot, card, life, controller(card), "dies", "trigger.dies")


def record_lki(w: Work, slot: int) -> None:
    """The permanent in ``slot`` is about to leave the battlefield: stack objects that will
    need its last known information keep it (608.2h): a trigger's damage keeps the source's
    keywords (Jackal Pup's damage to you is dealt by the Pup as it last existed), and pre-M10
    combat damage keeps its keywords and controller (pre-M10 310.4b)."""
    card = w.cards[slot]
    kws = keywords(w, card)
    who = controller(card)
    for area in (w.stack, w.pending):
        for j, obj in enumerate(area):
            area[j] = _with_lki(obj, slot, card.gen, kws, who)


def _with_lki(
    obj: StackObject, slot: int, gen: int, kws: frozenset[Keyword], who: int
) -> StackObject:
    if (
        obj.kind is StackKind.TRIGGER
        and obj.source == slot
        and obj.source_gen == gen
        and obj.effect is not None
        and obj.effect.kind is EffectKind.DAMAGE
    ):
        effect = replace(obj.effect, keywords=obj.effect.keywords | kws)
        return obj._replace(effect=effect)
    if (
        obj.kind is StackKind.COMBAT_DAMAGE
        and any(s == slot for s, _ in obj.combat_hits)
        and all(x.source != slot for x in obj.combat_lki)
    ):
        lki = (*obj.combat_lki, SourceLKI(slot, kws, who))
        return obj._replace(combat_lki=tuple(sorted(lki, key=lambda x: x.source)))
    return obj


def change_control(w: Work, slot: int, player: int, until_eot: bool, clause: str) -> None:
    """A control-changing effect (layer 2). A later effect wins; one without a duration
    replaces every earlier one. A creature in combat whose controller changes is removed
    from combat (506.4)."""
    card = w.cards[slot]
    before = controller(card)
    if until_eot:
        card = card._replace(control_eot=player)
    else:
        card = card._replace(control=player, control_eot=None)
    after = controller(card)
    if after != before:
        card = card._replace(sick=True)  # 302.6: under this controller only from now on
    w.cards[slot] = card
    if after != before:
        w.emit(EventKind.NOTE, "combat.summoning-sickness", w.name(slot), summoning_sick=True)
        w.emit(
            EventKind.CONTROL_CHANGED,
            clause,
            w.name(slot),
            origin=w.pname(before),
            to=w.pname(after),
            until_end_of_turn=until_eot,
        )
        if card.in_combat or card.blocked:
            remove_from_combat(w, slot, "control.change", "control changed")
