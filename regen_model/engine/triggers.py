"""Triggered abilities that wait for a permanent's status to change: "whenever this creature
becomes tapped" (603.2e), and the Basilisk's "whenever this creature blocks or becomes blocked
by a non-Wall creature, destroy that creature at end of combat" with its delayed trigger
(509.1i, 603.7, 511.2); and one that waits for a step to begin: Go-Shintai of Hidden
Cruelty's "at the beginning of your end step" (513.1, 603.2), whose reflexive trigger is made
where it resolves (``effects.when_you_do``, 603.12). Damage triggers are dealt with where
damage is (``effects``), riders where a shield is used (``destruction``), "when this creature
dies" where zones change (``zones``).

"Whenever a Merfolk you control becomes tapped" (Judge of Currents) is the same event seen by
another permanent (``watched_taps``).

"Becomes tapped" happens only when an untapped permanent on the battlefield is tapped (603.2e):
attacking (508.1f), paying {T} (602.2b), and the tap a regeneration makes (701.19a). Making a
shield taps nothing (701.19c is about using it), so it triggers nothing; nor does a permanent
that is already tapped when it regenerates.
"""

from __future__ import annotations

from regen_model.engine.work import Work
from regen_model.model.derived import controller
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import DiesWatch, Mutant, StackKind
from regen_model.model.events import EventKind
from regen_model.model.state import Card, StackObject, Target


def life_trigger(
    w: Work,
    slot: int,
    card: Card,
    life: int,
    gainer: int | None,
    what: str,
    clause: str,
    kind: EffectKind = EffectKind.LIFE,
) -> None:
    """A triggered ability of the permanent in ``slot`` (as ``card``, the object it triggered
    from) whose effect is "``gainer`` gains ``life`` life" triggers: it waits to be put on the
    stack (603.3), controlled by that object's controller (603.3a). ``what`` names it
    ("tapped", "dies"); ``clause`` is the rule it triggers under. With ``kind`` ``DRAIN`` and
    no ``gainer`` it is "each opponent loses ``life`` life and you gain ``life`` life"
    (119.3), untargeted."""
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"{what} trigger of {w.name(slot)}",
        controller=controller(card),
        effect=Effect(kind, amount=life),
        targets=() if gainer is None else (Target(player=gainer),),
        source=slot,
        source_gen=card.gen,
    )
    w.trigger(obj, clause, w.name(slot), life=life)


# The clause each kind of "whenever ... dies" ability of another permanent triggers under.
WATCH_CLAUSES: dict[DiesWatch, str] = {
    DiesWatch.ANY: "trigger.creature-dies",
    DiesWatch.YOURS: "trigger.creature-dies",
    DiesWatch.ATTACKING: "trigger.attacking-dies",
}


def watched_death(w: Work, watcher: Card, dying: Card, attacking: bool) -> bool:
    """Whether the death of ``dying`` (as it last existed on the battlefield, 603.10a; it was
    ``attacking`` then) triggers ``watcher``'s "whenever ... dies" ability: the watcher was on
    the battlefield (phased in, 702.26b) as the event happened, and the creature is one it
    watches: any, one with the watcher's controller ("you control", both as they last
    existed), or an attacking one, whoever controlled it or whom it attacked (506.3)."""
    watch = w.setup.templates[watcher.slot].dies_watch
    if watch is DiesWatch.NONE or not watcher.on_battlefield:
        return False
    if watch is DiesWatch.YOURS:
        return controller(dying) == controller(watcher)
    if watch is DiesWatch.ATTACKING:
        return attacking
    return True


def creature_dies_triggers(w: Work, slot: int, card: Card, attacking: bool) -> None:
    """The creature in ``slot`` (``card``, the object as it last existed on the battlefield,
    ``attacking`` then) has died (700.4), or regenerated under the mutant
    ``regen-triggers-creature-dies``: each permanent's "whenever a creature ... dies, each
    opponent loses N life and you gain N life" that watches it triggers, in slot order,
    controlled by the watcher's controller (603.3a). The watchers are read as the event
    began (``Work.watcher``): one dying at the same time sees it, itself included (603.10a);
    the mutant ``dying-observer-misses-deaths`` reads them as they are now instead. A watcher
    whose effect is a draw (Fecundity) makes ``dies_draw_trigger``'s ability instead."""
    for j in range(len(w.cards)):
        drain = w.setup.templates[j].dies_drain
        draw = w.setup.templates[j].dies_draw
        if not drain and not draw:
            continue
        if j == slot:
            seen = card  # 603.10a: its own death, from the object as it last existed
        elif w.mutant(Mutant.DYING_OBSERVER_MISSES_DEATHS):
            seen = w.cards[j]  # mutant: a watcher already gone misses the others' deaths
        else:
            seen = w.watcher(j)
        if not watched_death(w, seen, card, attacking):
            if seen.on_battlefield and w.setup.templates[j].dies_watch is DiesWatch.ATTACKING:
                # 603.10a: not attacking as it last existed (a regeneration, 506.4, or never)
                w.emit(
                    EventKind.NOTE,
                    "trigger.attacking-dies",
                    w.name(slot),
                    attacking=False,
                    watcher=w.name(j),
                )
            continue
        watch = w.setup.templates[j].dies_watch
        if draw:
            dies_draw_trigger(w, j, seen, card, draw)
            continue
        clause = WATCH_CLAUSES[watch]
        life_trigger(w, j, seen, drain, None, "creature-dies", clause, EffectKind.DRAIN)


def dies_draw_trigger(w: Work, slot: int, watcher: Card, dying: Card, count: int) -> None:
    """Fecundity's "whenever a creature dies, that creature's controller may draw a card"
    triggers for the death of ``dying`` (as it last existed on the battlefield): controlled
    by the watcher's controller (603.3a), its player the dying creature's controller then
    (603.10a), recorded now as its one target (the ability does not target: the player is
    only named, like a trigger naming only a player); the mutant ``dies-draw-by-owner``
    names the creature's owner instead, ``dies-draw-nobody`` nobody."""
    chooser = controller(dying)
    if w.mutant(Mutant.DIES_DRAW_BY_OWNER):
        chooser = w.setup.owners[dying.slot]  # mutant: the owner, not the controller
    obj = StackObject(
        kind=StackKind.TRIGGER,
        name=f"creature-dies trigger of {w.name(slot)}",
        controller=controller(watcher),
        effect=Effect(EffectKind.MAY_DRAW, amount=count),
        # mutant ``dies-draw-nobody``: no player named, so it resolves drawing nothing (PH-31)
        targets=() if w.mutant(Mutant.DIES_DRAW_NOBODY) else (Target(player=chooser),),
        source=slot,
        source_gen=watcher.gen,
    )
    w.trigger(obj, "trigger.dies-draw", w.name(slot), drawer=w.pname(chooser))


def tapped_trigger(w: Work, slot: int, by_regeneration: bool = False) -> None:
    """The permanent in ``slot`` has just become tapped (603.2e; ``by_regeneration``: by the
    tap of a regeneration, 701.19a): its "whenever this creature becomes tapped, target
    opponent gains N life" (Soldevi Steam Beast) triggers, controlled by its controller now
    (603.3a), the target that player's opponent (the only one, 2 players); then
    ``watched_taps``."""
    life = w.setup.templates[slot].tapped_opponent_life
    card = w.cards[slot]
    if life:
        life_trigger(w, slot, card, life, 1 - controller(card), "tapped", "trigger.tapped")
    watched_taps(w, slot, by_regeneration)


def watched_taps(w: Work, slot: int, by_regeneration: bool) -> None:
    """The permanent in ``slot`` has just become tapped: each permanent's "whenever a Merfolk
    you control becomes tapped, you may gain N life" (Judge of Currents) triggers when the
    tapped permanent is a Merfolk (205.3m) controlled by the watcher's controller, the watcher
    on the battlefield (phased in, 702.26b) as it happens, itself included; in slot order,
    controlled by the watcher's controller (603.3a), untargeted: "you" may gain the life, the
    answer given as it resolves (608.2d, ``EffectKind.MAY_GAIN``). The
    mutant ``regen-tap-misses-watchers`` lets a regeneration's tap trigger no watcher (an
    engine that taps the regenerated permanent without a tap event, 701.19a)."""
    card = w.cards[slot]
    if not w.setup.templates[slot].merfolk:
        return
    if by_regeneration and w.mutant(Mutant.REGEN_TAP_MISSES_WATCHERS):
        return  # mutant: the regeneration's tap is no "becomes tapped" for the watchers
    for j, watcher in enumerate(w.cards):
        life = w.setup.templates[j].tapped_watch_life
        if not life or not watcher.on_battlefield:
            continue
        if controller(watcher) != controller(card):
            w.emit(
                EventKind.NOTE,
                "trigger.creature-tapped",
                w.name(slot),
                controller=w.pname(controller(card)),
                watcher=w.name(j),
            )
            continue
        who = controller(watcher)
        clause = "trigger.creature-tapped"
        life_trigger(w, j, watcher, life, who, "creature-tapped", clause, EffectKind.MAY_GAIN)


def block_destroy_triggers(w: Work, pairs: list[tuple[int, int]]) -> None:
    """Blockers have just been declared (509.1i): for each block of ``pairs`` (blocker,
    attacker) where one side has "whenever this creature blocks or becomes blocked by a
    non-Wall creature, destroy that creature at end of combat" (Thicket Basilisk, Cockatrice)
    and the other is not a Wall as it becomes blocking or blocked (509.3f of 2026, 509.4f of
    2011, 509.5f of 2023-2024), the other creature gets the delayed trigger "destroy it at end
    of combat" (603.7), controlled by the Basilisk's controller (603.3a, 603.7e). One block, one
    trigger (509.3b, 509.3d): a creature blocking two Basilisks gets two.

    The model lets the Basilisk's trigger resolve at once (its delayed trigger exists from the
    declaration on): nothing in the model counters a triggered ability, and the delayed
    trigger depends on that creature alone (docs/rules-decisions.md)."""
    for b, a in pairs:
        # the blocking Basilisk is the defending player's (509.1g), the attacking one the
        # active player's (508.1a; a control change would have removed it from combat, 506.4)
        for source, other, who in ((b, a, w.defending), (a, b, w.active)):
            if not w.setup.templates[source].destroys_combatants:
                continue
            if w.setup.templates[other].wall:
                w.emit(EventKind.NOTE, "trigger.eoc-destroy", w.name(other), wall=True)
                continue
            card = w.cards[other]
            w.cards[other] = card._replace(eoc_destroy=card.eoc_destroy + 1, eoc_destroy_by=who)
            w.emit(
                EventKind.NOTE,
                "trigger.eoc-destroy",
                w.name(other),
                destroy_at_end_of_combat=card.eoc_destroy + 1,
                by=w.name(source),
                controller=w.pname(who),
            )


def end_step_triggers(w: Work) -> None:
    """The end step begins (513.1): "At the beginning of your end step, you may pay {1}. When
    you do, ..." (Go-Shintai of Hidden Cruelty) triggers for each such permanent on the
    battlefield (phased in, 702.26b) that the active player controls ("your" end step),
    controlled by that player (603.3a), in slot order; waiting triggers go on the stack as the
    active player receives priority (603.3b). The ability has no target: the reflexive trigger
    its payment makes chooses one later (603.12, 603.3d)."""
    for i, card in enumerate(w.cards):
        if not w.setup.templates[i].end_step_reflexive or not card.on_battlefield:
            continue
        if controller(card) != w.active:
            continue
        obj = StackObject(
            kind=StackKind.TRIGGER,
            name=f"end-step trigger of {w.name(i)}",
            controller=w.active,
            effect=Effect(EffectKind.WHEN_YOU_DO),
            targets=(),
            source=i,
            source_gen=card.gen,
        )
        w.trigger(obj, "trigger.end-step", w.name(i))


def end_of_combat_triggers(w: Work) -> None:
    """The end of combat step begins (511.2): every delayed "destroy it at end of combat"
    triggers, once (603.7b), controlled by the player who controls it, and is gone. It still
    refers to its object (603.7c): a creature regenerated and removed from combat since
    blockers were declared is still that object and is destroyed when the trigger resolves
    (a second destruction, which needs a second shield). Waiting triggers go on the stack
    in APNAP order as a player would next receive priority (603.3b, ``stack.triggers``)."""
    for i, card in enumerate(w.cards):
        if not card.eoc_destroy:
            continue
        who = card.eoc_destroy_by
        assert who is not None
        for _ in range(card.eoc_destroy):
            obj = StackObject(
                kind=StackKind.TRIGGER,
                name=f"end-of-combat destruction of {w.name(i)}",
                controller=who,
                effect=Effect(EffectKind.DESTROY),
                targets=(Target(card=i, gen=card.gen),),
                target_rule=TargetRule.NONE,
            )
            w.trigger(obj, "trigger.eoc-destroy", w.name(i))
        w.cards[i] = w.cards[i]._replace(eoc_destroy=0, eoc_destroy_by=None)
