"""State-based actions (704) and the cleanup step's simultaneous actions (514.2).

``run_sba_loop`` is the whole process of 704.3: look at the state once, perform every
applicable state-based action at the same time, repeat while something was performed; then put
waiting triggered abilities on the stack and check again. The game runs it whenever a player
would receive priority (117.5), so no player ever holds priority with lethal damage pending:
a shield must already exist when the damage is dealt (614.4).
"""

from __future__ import annotations

from regen_model.engine.attachments import unattach_illegal_equipment
from regen_model.engine.destruction import destroy
from regen_model.engine.effects import trigger_target
from regen_model.engine.work import Work
from regen_model.engine.zones import move_zone
from regen_model.model.derived import (
    aura_illegal,
    controller,
    counters_annihilate,
    deathtouch_pending,
    equipment_illegal,
    lethal_damage_pending,
    player_loses,
    zero_toughness_pending,
)
from regen_model.model.enums import Mutant, Zone
from regen_model.model.events import EventKind
from regen_model.model.state import Shield

# A pass can only make permanents leave or lose damage, so a handful of passes always ends the
# loop; the bound only guards against a modelling error turning into an endless loop.
MAX_PASSES = 64


def sba_pass(w: Work) -> bool:
    """One check (704.3): perform all applicable state-based actions as one event.
    Returns whether anything was performed."""
    zero: list[int] = []
    destroyed: list[tuple[int, bool, bool]] = []  # (slot, lethal damage, deathtouch)
    auras: list[int] = []
    equipment: list[int] = []
    annihilate: list[int] = []
    for i, card in enumerate(w.cards):
        if not card.on_battlefield:
            continue
        if zero_toughness_pending(w, card):
            zero.append(i)
            continue  # 704.5g/h require toughness greater than 0
        lethal = lethal_damage_pending(w, card)
        touched = deathtouch_pending(w, card)
        if lethal or touched:
            destroyed.append((i, lethal, touched))
        if aura_illegal(w, card):
            auras.append(i)
        if equipment_illegal(w, card):
            equipment.append(i)
        if counters_annihilate(card):
            annihilate.append(i)
    losers = [p for p in range(len(w.players)) if player_loses(w, p)]

    # The deathtouch record covers damage since the last check only (704.5h).
    if not w.mutant(Mutant.DEATHTOUCH_REMEMBERED):
        for i, card in enumerate(w.cards):
            if card.deathtouched:
                w.cards[i] = card._replace(deathtouched=False)
                w.emit(EventKind.NOTE, "sba.deathtouch-reset", w.name(i), deathtouch_record=False)

    performed = bool(zero or destroyed or auras or equipment or annihilate or losers)
    if not performed:
        return False
    # 704.3: one event, so each watcher sees every death (603.10a) and each destruction is
    # decided on the game as the check found it (``Work.event_start``)
    dying = [i for i, _, _ in destroyed]
    if w.mutant(Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION):
        dying += zero
    with w.simultaneous(dying):
        _perform(w, zero, destroyed, auras, equipment, annihilate, losers)
    return True


def _perform(
    w: Work,
    zero: list[int],
    destroyed: list[tuple[int, bool, bool]],
    auras: list[int],
    equipment: list[int],
    annihilate: list[int],
    losers: list[int],
) -> None:
    """The state-based actions of one check, performed as one event (704.3)."""
    for i in zero:
        if w.mutant(Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION):
            destroy(w, i, cant_regen=False, by_effect=False, clause="sba.toughness-zero")
        else:
            move_zone(w, i, Zone.GRAVEYARD, "sba.toughness-zero", "toughness 0 or less")
    for i, lethal, touched in destroyed:
        if lethal and touched:
            # 704.7: both checks destroy the same creature: one event, one replacement.
            w.emit(
                EventKind.NOTE, "sba.single-replacement", w.name(i), lethal=True, deathtouch=True
            )
        clause = "sba.lethal-damage" if lethal else "sba.deathtouch"
        destroy(w, i, cant_regen=False, by_effect=False, clause=clause)
    for i in auras:
        if w.cards[i].on_battlefield:
            move_zone(w, i, Zone.GRAVEYARD, "sba.aura", "Aura attached to nothing")
    # 704.5n: unattached, it stays on the battlefield (its host may have left in this pass)
    for i in equipment:
        if equipment_illegal(w, w.cards[i]):
            unattach_illegal_equipment(w, i)
    for i in annihilate:
        card = w.cards[i]
        if card.on_battlefield and card.plus and card.minus:
            n = min(card.plus, card.minus)
            w.cards[i] = card._replace(plus=card.plus - n, minus=card.minus - n)
            w.emit(
                EventKind.COUNTERS_REMOVED,
                "sba.counters",
                w.name(i),
                counter="+1/+1 and -1/-1",
                amount=n,
            )
    for p in losers:
        why = w.players[p].drew_empty
        # 704.5b looks at draws since the last check only: this check uses the record up
        w.players[p] = w.players[p]._replace(lost=True, drew_empty=False)
        w.emit(EventKind.PLAYER_LOST, "sba.player-loses", w.pname(p))
        if why:
            w.emit(EventKind.NOTE, "draw.empty-library", None, player=w.pname(p), loses=True)


def run_sba_loop(w: Work, *, check_sba: bool = True) -> None:
    """704.3: checks until none applies, then waiting triggers go on the stack, and again."""
    passes = 0
    performed_any = False
    while True:
        passes += 1
        if passes > MAX_PASSES:  # pragma: no cover - guards a modelling error
            raise RuntimeError("state-based actions did not settle")
        if check_sba and sba_pass(w):
            performed_any = True
            continue
        if w.pending:
            _triggers_to_stack(w)
            continue
        break
    if performed_any:
        w.emit(EventKind.SBA_CHECK, "sba.loop", None, checks=passes)


def _triggers_to_stack(w: Work) -> None:
    """603.3b: the active player's waiting triggers go on the stack first (lowest), then the
    other player's. Within one player's triggers the order is the order they triggered in; our
    trigger effects (life and counters) commute, so that choice is not modelled. A trigger
    whose target is chosen only now (a reflexive trigger, 603.12) gets it as it goes on the
    stack, or, with no legal target, is removed (603.3d, ``effects.trigger_target``)."""
    kept = []
    for obj in w.pending:
        if obj is w.reflexive:  # it waits only in the step that made it
            target = trigger_target(w, obj)
            if target is None:
                continue  # 603.3d: removed from the stack
            obj = obj._replace(targets=(target,))
        kept.append(obj)
    w.reflexive = None
    # 603.3b: the active player's first (lowest); the mutant puts the other player's first
    first = w.defending if w.mutant(Mutant.TRIGGERS_REVERSED_APNAP) else w.active
    ordered = sorted(kept, key=lambda t: 0 if t.controller == first else 1)
    w.pending = []
    for obj in ordered:
        w.stack.append(obj)
        w.emit(
            EventKind.PUT_ON_STACK, "stack.triggers", obj.name, controller=w.pname(obj.controller)
        )


def cleanup_effects(w: Work) -> None:
    """514.2: at one moment, all marked damage is removed and every "until end of turn" and
    "this turn" effect ends: P/T changes, keyword changes, temporary control, "can't be
    regenerated this turn", regeneration shields (701.19a: they last this turn) and
    prevention effects (615.3: "prevent ... this turn"). Phased-out permanents are included
    (514.2 says so for damage; their effects expire while they are phased out, 702.26f)."""
    removed_damage = ended_shields = 0
    for i, card in enumerate(w.cards):
        if not card.in_battlefield_zone:  # 514.2: phased-out permanents too (702.26f)
            continue
        name = w.name(i)
        if card.phased_out is not None:
            w.emit(EventKind.NOTE, "phasing.cleanup", name, phased_out=True)
        keep_shields: tuple[Shield, ...] = ()
        if w.mutant(Mutant.SHIELDS_SURVIVE_CLEANUP):
            keep_shields = tuple(s for s in card.shields if not s.used)
        unused = len(card.active_shields)
        if card.damage:
            removed_damage += 1
            w.emit(EventKind.DAMAGE_REMOVED, "cleanup.simultaneous", name, amount=card.damage)
        if unused and not keep_shields:
            ended_shields += unused
            w.emit(EventKind.EFFECTS_ENDED, "regen.shield.expire", name, unused_shields=unused)
        before = controller(card)
        keep_cant = card.cant_regen and w.mutant(Mutant.CANT_REGEN_SURVIVES_CLEANUP)
        if card.cant_regen and not keep_cant:
            w.emit(EventKind.EFFECTS_ENDED, "regen.cant.this-turn", name, unregenerable=False)
        if card.animated or card.noncreature:
            w.emit(EventKind.EFFECTS_ENDED, "type.until-end-of-turn", name, type_change=False)
        if card.exile_if_dies:  # 514.2: "this turn" ends
            w.emit(EventKind.EFFECTS_ENDED, "replace.exile-instead", name, exile_if_dies=False)
        if card.remove_damage:  # 514.2: Pyramids' "this turn" effects end unused
            w.emit(EventKind.EFFECTS_ENDED, "replace.remove-damage", name, remove_damage=0)
        for ends, clause in (
            (card.prevent_next > 0, "prevent.next"),
            (card.prevent_all, "prevent.all"),
        ):
            if ends:  # 514.2, 615.3: "this turn" prevention ends with the other effects
                w.emit(EventKind.EFFECTS_ENDED, clause, name, prevention=False)
        new = card._replace(
            damage=0,
            power_eot=0,
            toughness_eot=0,
            kw_granted=frozenset(),
            kw_removed=frozenset(),
            control_eot=None,
            cant_regen=keep_cant,
            exile_if_dies=False,
            remove_damage=0,
            animated=False,
            noncreature=False,
            prevent_next=0,
            prevent_all=False,
            shields=keep_shields,
            ghost=card.ghost._replace(
                shields_made=len(keep_shields), destructions=0, by_shield=0, by_static=0, by_other=0
            ),
        )
        if controller(new) != before:
            new = new._replace(sick=True)  # 302.6: back under its owner only from now on
            w.emit(EventKind.NOTE, "combat.summoning-sickness", name, summoning_sick=True)
        w.cards[i] = new
        if controller(new) != before:
            w.emit(
                EventKind.CONTROL_CHANGED,
                "cleanup.simultaneous",
                name,
                origin=w.pname(before),
                to=w.pname(controller(new)),
                until_end_of_turn=True,
            )
    w.emit(
        EventKind.CLEANUP,
        "cleanup.simultaneous",
        None,
        damage_removed_from=removed_damage,
        shields_ended=ended_shields,
    )
