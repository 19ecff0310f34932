"""Zone changes, removal from combat and control changes.

These are the three ways a permanent's relation to the game changes without its
characteristics changing, and each has consequences the regeneration rules lean on: a zone
change makes a new object (400.7, so shields do not follow), and both leaving the battlefield
and changing control take a creature out of combat (506.4).
"""

from __future__ import annotations

from regen_model.engine.work import Work
from regen_model.model.derived import controller
from regen_model.model.enums import Mutant, Zone
from regen_model.model.events import EventKind
from regen_model.model.state import Card, Shield


def remove_from_combat(w: Work, slot: int, clause: str, reason: str) -> None:
    """506.4: the creature stops being attacking, blocking, blocked or unblocked.

    A creature that was blocking it is still a blocking creature but blocks nothing now
    (510.1d); an attacker it blocked stays blocked (509.1h).
    """
    card = w.cards[slot]
    if not card.in_combat and not card.blocked:
        return
    w.cards[slot] = card._replace(attacking=False, blocking=None, blocked=False)
    w.emit(EventKind.REMOVED_FROM_COMBAT, clause, w.name(slot), reason=reason)
    # 509.2a (M10): a creature removed from combat leaves every damage assignment order.
    if w.combat.orders:
        orders = tuple(
            (attacker, tuple(b for b in order if b != slot))
            for attacker, order in w.combat.orders
            if attacker != slot
        )
        w.combat = w.combat._replace(orders=orders)


def move_zone(w: Work, slot: int, to: Zone, clause: str, cause: str) -> None:
    """Move a card to another zone: it becomes a new object (400.7, clause zone.new-object).

    Everything that belonged to the old object is gone: damage, counters, shields, "this turn"
    effects, combat status, attachments both ways. The card returns to its owner's control.
    Under the ``shield-follows-zone-change`` mutant, unused shields are (wrongly) kept through
    every zone change, so a flicker (exile, then return) brings them back.
    """
    card = w.cards[slot]
    was = card.zone
    if card.on_battlefield and card.in_combat:
        remove_from_combat(w, slot, "combat.removal", "left the battlefield")
        card = w.cards[slot]
    owner = w.setup.owners[slot]
    kept: tuple[Shield, ...] = ()
    if w.mutant(Mutant.SHIELD_FOLLOWS_ZONE_CHANGE):
        # Kept on the way out too: a flicker is two zone changes (to exile and back), and a
        # mutant that dropped them on the way to exile could never show (it was equivalent).
        kept = tuple(s for s in card.shields if not s.used)
    w.cards[slot] = Card(slot=slot, zone=to, gen=card.gen + 1, control=owner, shields=kept)
    w.emit(
        EventKind.ZONE_CHANGE,
        clause,
        w.name(slot),
        origin=was.value,
        to=to.value,
        cause=cause,
        new_object=True,
    )
    if card.on_battlefield:
        # Things attached to it are now attached to nothing; an Aura then goes to the
        # graveyard at the next state-based-action check (704.5m).
        for i, other in enumerate(w.cards):
            if other.attached_to == slot and i != slot:
                w.cards[i] = other._replace(attached_to=None)
                w.emit(EventKind.UNATTACHED, "zone.new-object", w.name(i), origin=w.name(slot))


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
    w.cards[slot] = card
    after = controller(card)
    if after != before:
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
