"""Destruction and the effects that replace it: regeneration shields, static regeneration,
umbra armor, shield counters and Pyramids' "remove all damage instead" (701.8, 701.19,
702.89, 122.1c, 614.1a, 614.5, 616.1).

The order of questions for one permanent that would be destroyed:

1. Is it indestructible? Then nothing happens at all (702.12b): no effect is asked, no shield
   is used.
2. Which replacement effects apply? Shields and static regeneration apply unless "can't be
   regenerated" covers this destruction (a rider on the effect, or the permanent is
   unregenerable this turn, 701.19c). Umbra armor always applies; shield counters only to a
   destruction caused by an effect (122.1c), not to the lethal-damage or deathtouch checks.
   Pyramids' effect (not regeneration) always applies while one is unused.
3. If effects with different outcomes apply, the permanent's controller chooses one (616.1);
   the answer must be among the action's choices. Only one is applied: the event is replaced
   and no longer exists, so the other effects are not used (614.6, 616.1f) and remain.
4. If none applies, the permanent goes to its owner's graveyard as a new object.
"""

from __future__ import annotations

from typing import NamedTuple

from regen_model.engine.errors import IllegalAction, MissingChoice
from regen_model.engine.triggers import creature_dies_triggers, tapped_trigger
from regen_model.engine.work import Work
from regen_model.engine.zones import (
    change_control,
    dies_exiled,
    dies_trigger,
    move_zone,
    remove_from_combat,
)
from regen_model.model.derived import controller, has, is_creature, opponent
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CounterKind,
    Keyword,
    Mutant,
    ReplacementKind,
    Rider,
    StackKind,
    Step,
    Zone,
)
from regen_model.model.events import EventKind
from regen_model.model.state import Card, StackObject, Target

# What a damage trigger does (``effects._damage_trigger``): gain life, or deal damage to you.
DAMAGE_TRIGGER_EFFECTS = (EffectKind.LIFE, EffectKind.DAMAGE)


class Option(NamedTuple):
    """One applicable replacement effect. ``ref``: the shield's index, or the Aura's slot."""

    kind: ReplacementKind
    ref: int = -1

    def label(self, w: Work, slot: int) -> str:
        if self.kind is ReplacementKind.SHIELD:
            s = w.cards[slot].shields[self.ref]
            return f"shield#{self.ref + 1} ({s.origin})"
        if self.kind is ReplacementKind.UMBRA:
            return f"umbra:{w.name(self.ref)}"
        return self.kind.value


def destroy(w: Work, slot: int, *, cant_regen: bool, by_effect: bool, clause: str) -> None:
    """One permanent would be destroyed; apply 702.12b, 701.19, 616.1 as described above."""
    card = w.cards[slot]
    if not card.on_battlefield:
        return
    name = w.name(slot)
    # in a simultaneous event, as it began (608.2f, 704.3): an Equipment destroyed beside it
    # in the same event still gives it indestructible (``Work.event_start``)
    start = w.event_start()
    indestructible = has(start, start.cards[slot], Keyword.INDESTRUCTIBLE)
    if indestructible and not w.mutant(Mutant.INDESTRUCTIBLE_USES_SHIELD):
        w.emit(EventKind.NOT_DESTROYED, "destroy.indestructible", name, reason="indestructible")
        return
    w.cards[slot] = card._replace(
        ghost=card.ghost._replace(destructions=card.ghost.destructions + 1)
    )
    w.emit(EventKind.WOULD_BE_DESTROYED, clause, name)
    options = applicable_options(w, slot, cant_regen=cant_regen, by_effect=by_effect)
    if not options:
        if indestructible:  # mutant path: nothing applied, still not destroyed
            w.emit(EventKind.NOT_DESTROYED, "destroy.indestructible", name, reason="indestructible")
            return
        w.emit(EventKind.DESTROYED, clause, name)
        move_zone(w, slot, Zone.GRAVEYARD, "zone.new-object", "destroyed")
        return
    option = choose(w, slot, options)
    apply_option(w, slot, option)
    if w.mutant(Mutant.EXILED_THOUGH_REGENERATED) and dies_exiled(w, w.cards[slot]):
        # Mutant: "exile it instead" applied although a replacement saved it from dying.
        move_zone(w, slot, Zone.GRAVEYARD, "replace.exile-instead", "exiled though saved")


def applicable_options(w: Work, slot: int, *, cant_regen: bool, by_effect: bool) -> list[Option]:
    """The destruction-replacement effects that would apply to this destruction."""
    card = w.cards[slot]
    template = w.setup.templates[slot]
    name = w.name(slot)
    options: list[Option] = []
    regen_blocked = (cant_regen or card.cant_regen) and not w.mutant(Mutant.CANT_REGEN_IGNORED)
    regen_effects = list(card.active_shields)
    has_static = template.static_regeneration and not (
        w.mutant(Mutant.STATIC_REGEN_USED_UP) and card.ghost.by_static > 0
    )
    if regen_blocked:
        if regen_effects or has_static:
            which = "regen.cant.rider" if cant_regen else "regen.cant.this-turn"
            w.emit(
                EventKind.SHIELD_NOT_APPLIED,
                which,
                name,
                shields=len(regen_effects),
                static=has_static,
            )
    else:
        options.extend(Option(ReplacementKind.SHIELD, i) for i in regen_effects)
        if has_static:
            options.append(Option(ReplacementKind.STATIC))
    # the Auras attached as the event began (608.2f, 704.3): one the same event destroys still
    # saves the permanent it enchants (702.89a rulings; ``apply_option``)
    start = w.event_start()
    for i, other in enumerate(start.cards):
        if (
            other.on_battlefield
            and other.attached_to == slot
            and w.setup.templates[i].attachment is Attachment.AURA
            and has(start, other, Keyword.UMBRA_ARMOR)
        ):
            options.append(Option(ReplacementKind.UMBRA, i))
    if by_effect and card.shield_counters > 0:
        options.append(Option(ReplacementKind.SHIELD_COUNTER))
    # Pyramids' "the next time it would be destroyed this turn, remove all damage marked on it
    # instead" applies to every destruction, by an effect or by the lethal-damage and
    # deathtouch checks alike (614.1a); it is not regeneration, so "can't be regenerated"
    # does not stop it (701.19c speaks of regeneration only)
    stopped = regen_blocked and w.mutant(Mutant.CANT_REGEN_STOPS_REMOVE_DAMAGE)
    if card.remove_damage > 0 and not stopped:
        options.append(Option(ReplacementKind.REMOVE_DAMAGE))
    return options


def _outcome_class(w: Work, slot: int, option: Option) -> tuple[object, ...]:
    """Options with the same class have the same outcome: plain shields are interchangeable,
    shields with a rider differ by rider and by who would benefit."""
    if option.kind is ReplacementKind.SHIELD:
        s = w.cards[slot].shields[option.ref]
        return (option.kind, s.rider, s.creator if s.rider is not Rider.NONE else None)
    return (option.kind, option.ref)


def choose(w: Work, slot: int, options: list[Option]) -> Option:
    """616.1: the affected permanent's controller picks one option. Their answer, when the
    action carries one, is always used, even between shields that look alike: which shield is
    spent shows in the events and in which one is left, and 616.1 lets the controller pick any
    applicable effect. Without an answer, options with the same outcome (plain shields) need
    no choice and the oldest is used; options with different outcomes need one."""
    classes: dict[tuple[object, ...], Option] = {}
    for option in options:  # the first (oldest shield) of each class represents it
        classes.setdefault(_outcome_class(w, slot, option), option)
    several = len(classes) > 1
    card = w.cards[slot]
    chooser = w.setup.owners[slot] if w.mutant(Mutant.CHOICE_BY_OWNER) else controller(card)
    name = w.name(slot)
    answer = next((c for c in w.choices if c.permanent == name and c.by == chooser), None)
    if answer is not None and (several or not w.mutant(Mutant.ALIKE_CHOICE_IGNORED)):
        picked = _resolve_use(w, slot, answer.use, options)
        w.emit(
            EventKind.NOTE,
            "replace.choice",
            name,
            chooser=w.pname(chooser),
            chose=picked.label(w, slot),
            among=", ".join(o.label(w, slot) for o in options),
        )
        return picked
    if not several:
        return options[0]
    labels = ", ".join(o.label(w, slot) for o in classes.values())
    raise MissingChoice(
        f"{name} would be destroyed and several replacement effects apply ({labels}); "
        f"its controller {w.pname(chooser)} must choose one (616.1)",
        "replace.choice",
        "choices",
    )


def _resolve_use(w: Work, slot: int, use: str, options: list[Option]) -> Option:
    card = w.cards[slot]
    for option in options:
        if option.kind is ReplacementKind.SHIELD:
            s = card.shields[option.ref]
            if (
                (use == "shield" and s.rider is Rider.NONE)
                or use == f"shield:{s.origin}"
                or use == f"shield#{option.ref + 1}"
            ):
                return option
        elif option.kind is ReplacementKind.UMBRA:
            if use == f"umbra:{w.name(option.ref)}":
                return option
        elif use == option.kind.value:
            return option
    labels = ", ".join(o.label(w, slot) for o in options)
    raise IllegalAction(
        f"choice {use!r} for {w.name(slot)} is not an applicable replacement effect "
        f"(applicable: {labels})",
        "replace.choice",
        "choices",
    )


def apply_option(w: Work, slot: int, option: Option) -> None:
    card = w.cards[slot]
    name = w.name(slot)
    ghost = card.ghost.replaced_by(option.kind)
    if option.kind is ReplacementKind.SHIELD:
        shield = card.shields[option.ref]
        shields = list(card.shields)
        if w.mutant(Mutant.ONE_DESTRUCTION_USES_ALL):
            shields = [s._replace(used=True) for s in shields]
        elif not w.mutant(Mutant.SHIELD_NOT_CONSUMED):
            shields[option.ref] = shield._replace(used=True)
        w.cards[slot] = card._replace(shields=tuple(shields), ghost=ghost)
        w.emit(
            EventKind.REGENERATED,
            "regen.shield.apply",
            name,
            shield=option.ref + 1,
            origin=shield.origin,
        )
        _regenerate(w, slot)
        remaining = len(w.cards[slot].active_shields)
        if remaining:
            w.emit(
                EventKind.NOTE,
                "regen.shield.one-per-destruction",
                name,
                unused_shields_remain=remaining,
            )
        apply_rider(w, slot, shield.rider, shield.creator, shield.origin)
    elif option.kind is ReplacementKind.STATIC:
        w.cards[slot] = card._replace(ghost=ghost)
        w.emit(EventKind.REGENERATED, "regen.static", name, origin="static regeneration")
        _regenerate(w, slot)
    elif option.kind is ReplacementKind.UMBRA:
        w.cards[slot] = card._replace(ghost=ghost)
        aura = option.ref
        w.emit(EventKind.REPLACED, "replace.umbra-armor", name, by=f"umbra:{w.name(aura)}")
        _remove_damage(w, slot, "replace.umbra-armor")
        if aura in w.destroying and not w.mutant(Mutant.DESTRUCTIONS_IN_SEQUENCE):
            # The same event destroys the Aura itself: destroyed two ways at once, it is
            # destroyed once, by its own part of the event (702.89a rulings, 2010-06-15).
            w.emit(EventKind.NOTE, "replace.umbra-armor", w.name(aura), destroyed_by="event")
        else:
            # The Aura is destroyed instead; that destruction can itself be replaced (its own
            # shields) and is caused by an effect.
            destroy(w, aura, cant_regen=False, by_effect=True, clause="replace.umbra-armor")
    elif option.kind is ReplacementKind.REMOVE_DAMAGE:
        # 614.1a, 614.5: one effect is used up by the destruction it replaces; the event is
        # only "remove all damage marked on it": no tap, no removal from combat (unlike
        # regeneration, 701.19a, 614.8), the same object stays
        # the mutant ``remove-damage-not-used-up``: it replaces every destruction this turn
        spent = 0 if w.mutant(Mutant.REMOVE_DAMAGE_NOT_USED_UP) else 1
        w.cards[slot] = card._replace(remove_damage=card.remove_damage - spent, ghost=ghost)
        w.emit(EventKind.REPLACED, "replace.remove-damage", name, by="remove-damage")
        if w.mutant(Mutant.REMOVE_DAMAGE_REGENERATES):
            _regenerate(w, slot)  # the mutant: treated like a regeneration shield
        else:
            _remove_damage(w, slot, "replace.remove-damage")
    else:
        w.cards[slot] = card._replace(shield_counters=card.shield_counters - 1, ghost=ghost)
        w.emit(EventKind.REPLACED, "replace.shield-counter", name, by="shield-counter")
        shield_counter_removed(w, name)


def shield_counter_removed(w: Work, name: str) -> None:
    """The event of one shield counter removed by its effects (122.1c)."""
    w.emit(
        EventKind.COUNTERS_REMOVED,
        "replace.shield-counter",
        name,
        counter=CounterKind.SHIELD.value,
        amount=1,
    )


def _remove_damage(w: Work, slot: int, clause: str) -> None:
    card = w.cards[slot]
    if card.damage:
        w.cards[slot] = card._replace(damage=0)
        w.emit(EventKind.DAMAGE_REMOVED, clause, w.name(slot), amount=card.damage)


def _regenerate(w: Work, slot: int) -> None:
    """The replacement event of 701.19a/b: remove all damage, tap, leave combat."""
    name = w.name(slot)
    attacking = w.cards[slot].attacking  # as the destruction would have happened (a mutant's)
    if not w.mutant(Mutant.REGEN_KEEPS_DAMAGE):
        _remove_damage(w, slot, "regen.apply.remove-damage")
    card = w.cards[slot]
    became_tapped = False
    if not w.mutant(Mutant.REGEN_DOES_NOT_TAP):
        if card.tapped:
            w.emit(EventKind.NOTE, "regen.apply.tap", name, already_tapped=True)
            # Mutant: the regeneration's tap counts as becoming tapped although it was tapped.
            became_tapped = w.mutant(Mutant.TAPPED_REGEN_BECOMES_TAPPED)
        else:
            became_tapped = True
            w.cards[slot] = card._replace(tapped=True)
            w.emit(
                EventKind.BECAME_TAPPED,
                "regen.apply.tap",
                name,
                by=w.pname(controller(card)),
            )
    card = w.cards[slot]
    if (card.in_combat or card.blocked) and not _stays_in_combat(w, card):
        remove_from_combat(w, slot, "regen.apply.remove-from-combat", "regenerated")
    if w.mutant(Mutant.REGEN_UNATTACHES):
        # Mutant: regeneration wrongly treated like leaving the battlefield for attachments.
        for i, other in enumerate(w.cards):
            if other.attached_to == slot and other.on_battlefield:
                w.cards[i] = other._replace(attached_to=None)
                w.emit(EventKind.UNATTACHED, "regen.same-object", w.name(i), origin=name)
    w.emit(EventKind.NOTE, "regen.same-object", name, stays_on_battlefield=True)
    if w.cards[slot].eoc_destroy:
        if w.mutant(Mutant.REGEN_CANCELS_EOC_DESTROY):
            # Mutant: the regeneration also ends "destroy it at end of combat", so one shield
            # saves it from both destructions.
            w.cards[slot] = w.cards[slot]._replace(eoc_destroy=0, eoc_destroy_by=None)
        else:
            # 603.7c: the delayed trigger refers to this object, which is still here
            w.emit(
                EventKind.NOTE,
                "trigger.eoc-destroy",
                name,
                still_destroyed_at_end_of_combat=w.cards[slot].eoc_destroy,
            )
    kept = [
        p
        for p in w.pending
        if p.source == slot and p.effect is not None and p.effect.kind in DAMAGE_TRIGGER_EFFECTS
    ]
    if w.mutant(Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN):
        w.pending = [p for p in w.pending if p not in kept]
    elif kept:
        w.emit(EventKind.NOTE, "regen.damage-triggers", name, damage_triggers_kept=len(kept))
    if became_tapped and not w.mutant(Mutant.REGEN_TAP_TRIGGERS_NOTHING):
        # 603.2e: "whenever this creature becomes tapped" and the watchers' "whenever a
        # Merfolk you control becomes tapped" trigger (they wait with the rest); the mutant
        # taps without either (PH-33)
        tapped_trigger(w, slot, by_regeneration=True)
    if w.mutant(Mutant.REGEN_TRIGGERS_DIES) and is_creature(w, w.cards[slot]):
        # Mutant: regeneration treated as dying, so "when this creature dies" triggers; only a
        # creature dies (700.4), so a permanent that is no creature now does not (as the
        # relation's ``encoding.destruction.regenerate``)
        dies_trigger(w, slot, w.cards[slot])
    if w.mutant(Mutant.REGEN_TRIGGERS_CREATURE_DIES) and is_creature(w, w.cards[slot]):
        # Mutant: regeneration treated as dying by other permanents' "whenever a creature
        # dies", as in engines that fire them from the destruction rather than the zone change.
        creature_dies_triggers(w, slot, w.cards[slot], attacking)


def _stays_in_combat(w: Work, card: Card) -> bool:
    """Mutants only: a regenerated creature is left in combat, always (``regen-stays-in-combat``)
    or when it is a double striker regenerated in the first-strike damage step, as an engine
    that fixes the second step's dealers when the first begins does."""
    if w.mutant(Mutant.REGEN_STAYS_IN_COMBAT):
        return True
    return (
        w.mutant(Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT)
        and w.step is Step.FIRST_STRIKE_DAMAGE
        and has(w, card, Keyword.DOUBLE_STRIKE)
    )


def apply_rider(w: Work, slot: int, rider: Rider, creator: int, origin: str) -> None:
    """An "if it regenerates this way" rider of the shield that was just used (701.19c).

    Debt of Loyalty's control change is part of the replacement. The counter riders ("When it
    regenerates this way, ...") are delayed triggered abilities, made by the spell or ability
    that made the shield and controlled by whoever controlled it as it resolved: the shield's
    creator, not the creature's controller now (603.7a, 603.7d-e); that decides the order in
    which they go on the stack (603.3b)."""
    if rider is Rider.GAIN_CONTROL:
        change_control(w, slot, creator, until_eot=False, clause="regen.rider.control")
    elif rider in (Rider.MINUS_COUNTER, Rider.PLUS_COUNTER):
        counter = CounterKind.MINUS if rider is Rider.MINUS_COUNTER else CounterKind.PLUS
        card = w.cards[slot]
        by_controller = w.mutant(Mutant.RIDER_TRIGGER_BY_CONTROLLER)
        trigger = StackObject(
            kind=StackKind.TRIGGER,
            name=f"rider of {origin}",
            controller=controller(card) if by_controller else creator,
            effect=Effect(EffectKind.COUNTERS, amount=1, counter=counter),
            targets=(Target(card=slot, gen=card.gen),),
            source=slot,
            source_gen=card.gen,
            target_rule=TargetRule.CREATURE,
        )
        w.trigger(trigger, "regen.rider.trigger", w.name(slot))
    elif rider is Rider.OPPONENT_MAY_DRAW:
        opponent_draws(w, slot, creator, origin)


def opponent_draws(w: Work, slot: int, creator: int, origin: str) -> None:
    """Soldevi Sentry's "Choose target opponent. ... When it regenerates this way, that player
    may draw a card": a delayed trigger like the counter riders, controlled by the shield's
    creator (603.7e), whose player is the opponent that player chose as the ability was
    activated (115.1c). In a two-player game that is the creator's one opponent (102.2), so
    it is read off the shield's creator, not off the creature's controller now; the player
    answers as it resolves (608.2d, ``EffectKind.MAY_DRAW``). The mutant
    ``rider-draw-by-controller`` names the creature's controller as it regenerates instead;
    ``rider-trigger-by-controller`` gives it that controller, as it does the counter riders."""
    card = w.cards[slot]
    chosen = opponent(creator)
    if w.mutant(Mutant.RIDER_DRAW_BY_CONTROLLER):
        chosen = controller(card)  # mutant: "that player" read as the Sentry's controller
    by_controller = w.mutant(Mutant.RIDER_TRIGGER_BY_CONTROLLER)
    trigger = StackObject(
        kind=StackKind.TRIGGER,
        name=f"rider of {origin}",
        controller=controller(card) if by_controller else creator,
        effect=Effect(EffectKind.MAY_DRAW, amount=1),
        targets=(Target(player=chosen),),
        source=slot,
        source_gen=card.gen,
    )
    w.trigger(trigger, "regen.rider.opponent-draws", w.name(slot), drawer=w.pname(chosen))
