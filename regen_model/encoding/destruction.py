"""Destruction and the effects that replace it: the counterpart of ``engine/destruction.py``
(701.8, 701.19, 702.12b, 702.89, 122.1c, 616.1).

The questions are asked in the engine's order: indestructible (nothing happens, 702.12b);
which replacement effects apply (shields and static regeneration unless "can't be
regenerated" covers this destruction, 701.19c; umbra armor; shield counters only against an
effect, 122.1c); if they fall in several outcome classes, the controller's answer picks one
(616.1) and a missing or inapplicable answer makes the action illegal; otherwise the first
applies. Exactly one option is applied; the others remain (614.6, 616.1f).

One departure from the engine's shape, exact on every reachable state: when umbra armor
replaces a destruction, the Aura's own destruction (702.89a) asks every question above except
umbra armor (``_umbra``). Asking it generically would nest, for every slot, the destruction of
an Aura inside the destruction of another card, a term that grows like n! with the slots.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from regen_model.encoding import stack
from regen_model.encoding.derived import controller, has, is_creature, on_battlefield
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    eq,
    gt,
    implies,
    ite,
    ne,
    not_,
    or_,
    select,
    sub,
)
from regen_model.encoding.params import Use
from regen_model.encoding.triggers import creature_dies_triggers, tapped_trigger
from regen_model.encoding.work import Label, SymWork, Watcher
from regen_model.encoding.zones import (
    change_control,
    dies_exiled,
    move_zone,
    push_dies_trigger,
    remove_from_combat,
)
from regen_model.model.effects import EffectKind
from regen_model.model.enums import (
    Attachment,
    CounterKind,
    Keyword,
    Mutant,
    ReplacementKind,
    Rider,
    Step,
    Zone,
    ordinal,
)

AURA = ordinal(Attachment.AURA)
NO_RIDER = ordinal(Rider.NONE)


@dataclass(frozen=True)
class Option:
    """One replacement effect that may apply: ``ref`` is the shield slot or the Aura's slot;
    ``applies`` says whether it does (a value, decided on the state before any is applied)."""

    kind: ReplacementKind
    ref: int
    applies: Val


def destroy(
    w: SymWork,
    i: int,
    *,
    cant_regen: Val,
    by_effect: bool,
    clause: Label,
    umbra: bool = True,
) -> None:
    """Card ``i`` would be destroyed. ``clause`` labels the destruction (``(cond, a, b)``
    when it depends on a value). ``umbra``: whether umbra-armor Auras attached to ``i`` are
    asked; False only for the Aura that umbra armor destroys (see ``_umbra``)."""
    # in a simultaneous event, as it began (608.2f, 704.3; ``SymWork.event_start``)
    indestructible = has(w.event_start(), i, Keyword.INDESTRUCTIBLE)
    reached = on_battlefield(w, i)
    if not w.mutant(Mutant.INDESTRUCTIBLE_USES_SHIELD):
        # 702.12b: nothing happens, no replacement effect is even asked
        reached = and_(reached, not_(indestructible))
        indestructible = False
    w.branch(
        reached,
        lambda w: _would_be_destroyed(w, i, cant_regen, by_effect, clause, umbra, indestructible),
    )


def _would_be_destroyed(
    w: SymWork,
    i: int,
    cant_regen: Val,
    by_effect: bool,
    clause: Label,
    umbra: bool,
    indestructible: Val,
) -> None:
    g = w.c(i).ghost
    w.set(g.destructions, add(w[g.destructions], 1), clause)
    w.bump("would_destroy", i)
    options = applicable_options(w, i, cant_regen=cant_regen, by_effect=by_effect, umbra=umbra)
    replaced = or_(*[o.applies for o in options])
    # no option: destroyed (only the indestructible-uses-shield mutant gets here with an
    # indestructible card, which then stays)
    destroyed = and_(not_(replaced), not_(indestructible))
    w.bump("destroyed", i, when=destroyed)
    move_zone(w, i, Zone.GRAVEYARD, "zone.new-object", destroyed)
    w.branch(replaced, lambda w: choose_and_apply(w, i, options))
    if w.mutant(Mutant.EXILED_THOUGH_REGENERATED):
        # Mutant: "exile it instead" applied although a replacement saved it from dying.
        saved = and_(replaced, dies_exiled(w, i))
        move_zone(w, i, Zone.GRAVEYARD, "replace.exile-instead", saved)


def applicable_options(
    w: SymWork, i: int, *, cant_regen: Val, by_effect: bool, umbra: bool = True
) -> list[Option]:
    """The destruction-replacement effects that would apply, in the engine's order: shields
    by slot, static regeneration, umbra-armor Auras by slot (only if ``umbra``), a shield
    counter."""
    c = w.c(i)
    blocked: Val = and_(or_(cant_regen, w[c.cant_regen]), not w.mutant(Mutant.CANT_REGEN_IGNORED))
    regen_ok = not_(blocked)
    options = [
        Option(ReplacementKind.SHIELD, j, and_(regen_ok, w[s.present], not_(w[s.used])))
        for j, s in enumerate(c.shields)
    ]
    static: Val = w.st(i).static_regen
    if w.mutant(Mutant.STATIC_REGEN_USED_UP):
        static = and_(static, not_(gt(w[c.ghost.by_static], 0)))
    options.append(Option(ReplacementKind.STATIC, -1, and_(regen_ok, static)))
    # the Auras attached as the event began (608.2f, 704.3): one the same event destroys
    # still saves the card it enchants (702.89a rulings; ``_umbra``)
    start = w.event_start()
    for j in range(w.n) if umbra else ():
        if j == i:  # never attached to itself (frame domain)
            continue
        options.append(
            Option(
                ReplacementKind.UMBRA,
                j,
                and_(
                    on_battlefield(start, j),
                    eq(start[start.c(j).attached_to], i),
                    eq(start.st(j).attachment, AURA),
                    has(start, j, Keyword.UMBRA_ARMOR),
                ),
            )
        )
    if by_effect:
        options.append(Option(ReplacementKind.SHIELD_COUNTER, -1, gt(w[c.shield_counters], 0)))
    # Pyramids' effect: every destruction, not regeneration, so "can't be regenerated" does
    # not stop it (614.1a, 701.19c; the mutant ``cant-regen-stops-remove-damage``: it does)
    pyramids: Val = gt(w[c.remove_damage], 0)
    if w.mutant(Mutant.CANT_REGEN_STOPS_REMOVE_DAMAGE):
        pyramids = and_(pyramids, regen_ok)
    options.append(Option(ReplacementKind.REMOVE_DAMAGE, -1, pyramids))
    return options


def _same_class(w: SymWork, i: int, a: Option, b: Option) -> Val:
    """Options with the same outcome: shields with the same rider (and, for a rider, the
    same beneficiary); every other option is its own class."""
    if a.kind is not ReplacementKind.SHIELD or b.kind is not ReplacementKind.SHIELD:
        return False
    sa, sb = w.c(i).shields[a.ref], w.c(i).shields[b.ref]
    ra, rb = w[sa.rider], w[sb.rider]
    return and_(eq(ra, rb), or_(eq(ra, NO_RIDER), eq(w[sa.creator], w[sb.creator])))


def _answer_matches(w: SymWork, i: int, options: list[Option]) -> list[Val]:
    """616.1: the chooser's answer (``Params.choice_*``) names an option; guards: an answer
    exists (else ``MissingChoice``) and names an applicable option (else ``IllegalAction``)."""
    chooser = w.st(i).owner if w.mutant(Mutant.CHOICE_BY_OWNER) else controller(w, i)
    p = w.p
    players = range(len(p.choice_use[i]))
    use = select(chooser, [p.choice_use[i][q] for q in players], 0)
    slot = select(chooser, [p.choice_slot[i][q] for q in players], -1)
    matches = []
    for o in options:
        if o.kind is ReplacementKind.SHIELD:
            s = w.c(i).shields[o.ref]
            bit = select(chooser, [p.choice_mask[i][q][o.ref] for q in players], False)
            hit = or_(
                and_(eq(use, int(Use.PLAIN_SHIELD)), eq(w[s.rider], NO_RIDER)),
                and_(eq(use, int(Use.SHIELD_MASK)), bit),
            )
        elif o.kind is ReplacementKind.STATIC:
            hit = eq(use, int(Use.STATIC))
        elif o.kind is ReplacementKind.UMBRA:
            hit = and_(eq(use, int(Use.UMBRA)), eq(slot, o.ref))
        elif o.kind is ReplacementKind.REMOVE_DAMAGE:
            hit = eq(use, int(Use.REMOVE_DAMAGE))
        else:
            hit = eq(use, int(Use.SHIELD_COUNTER))
        matches.append(and_(o.applies, hit))
    return [ne(use, int(Use.NONE)), *matches]


def choose_and_apply(w: SymWork, i: int, options: list[Option]) -> None:
    """616.1: the controller's answer, when there is one, decides (and must name an
    applicable option); without one, options of two or more outcome classes are an error and
    otherwise the first applies. Exactly one option is then applied."""
    several = or_(
        *[
            and_(a.applies, b.applies, not_(_same_class(w, i, a, b)))
            for k, a in enumerate(options)
            for b in options[k + 1 :]
        ]
    )
    answered, *matches = _answer_matches(w, i, options)
    if w.mutant(Mutant.ALIKE_CHOICE_IGNORED):
        answered = and_(answered, several)  # an answer between alike shields is dropped
    w.require(implies(several, answered), "replace.choice")  # MissingChoice
    w.require(implies(answered, or_(*matches)), "replace.choice")  # names no applicable option
    flags = [ite(answered, m, o.applies) for m, o in zip(matches, options, strict=True)]
    # the first option whose flag holds is the one applied
    picked = []
    earlier: Val = False
    for f in flags:
        picked.append(and_(f, not_(earlier)))
        earlier = or_(earlier, f)
    _apply(w, i, options, picked)


def _apply(w: SymWork, i: int, options: list[Option], picked: list[Val]) -> None:
    """Apply the picked option (exactly one of ``picked`` holds)."""
    c = w.c(i)
    g = c.ghost
    shields = [
        (o, f) for o, f in zip(options, picked, strict=True) if o.kind is ReplacementKind.SHIELD
    ]
    by_shield = or_(*[f for _, f in shields])
    by_static = or_(
        *[f for o, f in zip(options, picked, strict=True) if o.kind is ReplacementKind.STATIC]
    )
    # a shield (701.19a): used up (one per destruction, 614.6), the destruction regenerates
    rider = add(*[ite(f, w[c.shields[o.ref].rider], 0) for o, f in shields])
    creator = add(*[ite(f, w[c.shields[o.ref].creator], 0) for o, f in shields])
    if w.mutant(Mutant.ONE_DESTRUCTION_USES_ALL):
        for s in c.shields:
            w.set_if(by_shield, s.used, or_(w[s.used], w[s.present]), "regen.shield.apply")
    elif not w.mutant(Mutant.SHIELD_NOT_CONSUMED):
        for o, f in shields:
            w.set_if(f, c.shields[o.ref].used, True, "regen.shield.apply")
    w.set_if(by_shield, g.by_shield, add(w[g.by_shield], 1), "regen.shield.apply")
    w.bump("regenerations", i, when=by_shield)
    # static regeneration (701.19b): never used up
    w.set_if(by_static, g.by_static, add(w[g.by_static], 1), "regen.static")
    w.bump("static_regens", i, when=by_static)
    regenerate(w, i, or_(by_shield, by_static))
    apply_rider(w, i, rider, creator, by_shield)
    for o, f in zip(options, picked, strict=True):
        if o.kind is ReplacementKind.UMBRA:
            w.branch(f, partial(_umbra, i=i, aura=o.ref))
        elif o.kind is ReplacementKind.SHIELD_COUNTER:
            w.set_if(f, c.shield_counters, sub(w[c.shield_counters], 1), "replace.shield-counter")
            w.set_if(f, g.by_other, add(w[g.by_other], 1), "replace.shield-counter")
        elif o.kind is ReplacementKind.REMOVE_DAMAGE:
            # 614.1a, 614.5: used up; only the damage is removed (no tap, no removal from
            # combat, unlike 701.19a); the mutant ``remove-damage-regenerates`` regenerates
            clause = "replace.remove-damage"
            if not w.mutant(Mutant.REMOVE_DAMAGE_NOT_USED_UP):
                w.set_if(f, c.remove_damage, sub(w[c.remove_damage], 1), clause)
            w.set_if(f, g.by_other, add(w[g.by_other], 1), clause)
            if w.mutant(Mutant.REMOVE_DAMAGE_REGENERATES):
                regenerate(w, i, f)
            else:
                w.set_if(f, c.damage, 0, clause)


def _umbra(w: SymWork, i: int, aura: int) -> None:
    """702.89a: remove all damage from it and destroy the Aura instead. That destruction is
    caused by an effect and can itself be replaced (indestructible, 702.12b; the Aura's shields
    or static regeneration, 701.19; its shield counters, 122.1c), but not by umbra armor of an
    Aura attached to this Aura: no reachable state has one, so it is not asked
    (``umbra=False``), which keeps the chain one Aura deep instead of n! terms.

    Why no reachable state has one: an umbra-armor option needs an Aura on the battlefield
    attached to the card being destroyed, here ``aura``, itself an Aura. In the model a card
    becomes attached only at the start, and only to a creature on the battlefield (303.4:
    our Auras enchant creatures; ``system.legal_start``, ``explore.starts``); afterwards an
    attachment is removed (leaving the battlefield, 400.7 / ``zones.move_zone``; 704.5n; the
    ``REGEN_UNATTACHES`` mutant) or made or moved only onto a creature that is no Aura or
    Equipment (equip, attach effects: ``attachments.can_attach``, 701.3b), under every mutant.
    No printed card is both an Aura or Equipment and a creature (``Statics.domain``), and no
    effect of the model makes an Aura or Equipment a creature. So whatever is attached to
    something is attached to a creature, never to an Aura; an Aura attached to a non-creature
    would anyway be put into the graveyard by 704.5m before anyone got priority. Granting the
    umbra-armor keyword changes nothing here: the option also needs the attached card to be an
    Aura attached to ``aura``. The engine asks generically and finds no such Aura, so both
    views agree on every reachable state."""
    c = w.c(i)
    w.set(c.ghost.by_other, add(w[c.ghost.by_other], 1), "replace.umbra-armor")
    w.set(c.damage, 0, "replace.umbra-armor")
    # an Aura the same event destroys is destroyed once, by its own part of the event
    # (702.89a rulings; ``engine.destruction.apply_option``)
    twice: Val = False if w.mutant(Mutant.DESTRUCTIONS_IN_SEQUENCE) else w.destroying[aura]
    w.branch(
        not_(twice),
        partial(
            destroy,
            i=aura,
            cant_regen=False,
            by_effect=True,
            clause="replace.umbra-armor",
            umbra=False,
        ),
    )


def regenerate(w: SymWork, i: int, when: Val) -> None:
    """The replacement event of 701.19a/b: remove all damage, tap (if untapped), remove from
    combat; the same object stays (no zone change) and keeps its waiting damage triggers."""
    c = w.c(i)
    attacking = w[c.attacking]  # as the destruction would have happened (a mutant's)
    if not w.mutant(Mutant.REGEN_KEEPS_DAMAGE):
        w.set_if(when, c.damage, 0, "regen.apply.remove-damage")
    untapped: Val = False
    if not w.mutant(Mutant.REGEN_DOES_NOT_TAP):
        untapped = and_(when, not_(w[c.tapped]))
        w.set_if(untapped, c.tapped, True, "regen.apply.tap")
        w.bump("regen_taps", i, when=untapped)
    if not w.mutant(Mutant.REGEN_STAYS_IN_COMBAT):
        remove_from_combat(w, i, "regen.apply.remove-from-combat", and_(when, not_(_stays(w, i))))
    if w.mutant(Mutant.REGEN_UNATTACHES):  # wrongly treated like leaving the battlefield
        for j in range(w.n):
            if j != i:
                key = w.c(j).attached_to
                w.set_if(
                    and_(when, on_battlefield(w, j), eq(w[key], i)), key, NONE, "regen.same-object"
                )
    if w.mutant(Mutant.REGEN_CANCELS_EOC_DESTROY):  # wrongly ends the Basilisk's trigger
        w.set_if(when, c.eoc_destroy, 0, "trigger.eoc-destroy")
        w.set_if(when, c.eoc_destroy_by, NONE, "trigger.eoc-destroy")
    if w.mutant(Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN):
        _drop_damage_triggers(w, i, when)
    if w.mutant(Mutant.TAPPED_REGEN_BECOMES_TAPPED) and not w.mutant(Mutant.REGEN_DOES_NOT_TAP):
        untapped = when  # wrongly: an already tapped creature "becomes tapped" too
    if w.mutant(Mutant.REGEN_TAP_TRIGGERS_NOTHING):
        untapped = False  # wrongly: the tap makes no trigger, the watchers' neither (PH-33)
    # 603.2e, after the rest as in the engine
    tapped_trigger(w, i, untapped, by_regeneration=True)
    if w.mutant(Mutant.REGEN_TRIGGERS_DIES):  # wrongly treated as dying (700.4)
        dies = and_(when, is_creature(w, i), gt(w.st(i).dies_life, 0))
        push_dies_trigger(w, i, controller(w, i), w[c.gen], dies)
    if w.mutant(Mutant.REGEN_TRIGGERS_CREATURE_DIES):  # wrongly a death for the watchers
        me = Watcher(True, controller(w, i), w[c.gen])
        creature_dies_triggers(w, i, me, attacking, and_(when, is_creature(w, i)))


def _stays(w: SymWork, i: int) -> Val:
    """Mutant ``double-striker-stays-in-combat``: a double striker regenerated in the
    first-strike damage step stays in combat (``engine.destruction._stays_in_combat``)."""
    if not w.mutant(Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT):
        return False
    first_step = eq(w[w.f.step], ordinal(Step.FIRST_STRIKE_DAMAGE))
    return and_(first_step, has(w, i, Keyword.DOUBLE_STRIKE))


def _drop_damage_triggers(w: SymWork, i: int, when: Val) -> None:
    """Mutant: the waiting damage triggers of the regenerated creature are lost."""
    f = w.f
    size = w[f.pending_size]
    keep = []
    for j, names in enumerate(f.pending):
        effect = w[names.effect]
        damage_trigger = or_(
            eq(effect, ordinal(EffectKind.LIFE)), eq(effect, ordinal(EffectKind.DAMAGE))
        )
        mine = and_(eq(w[names.source], i), damage_trigger)
        keep.append(and_(gt(size, j), not_(and_(when, mine))))
    positions = []
    running: Val = 0
    for k in keep:
        positions.append(running)
        running = add(running, ite(k, 1, 0))
    stack.rearrange(w, "pending", "pending", positions, keep, "regen.damage-triggers")
    w.set(f.pending_size, running, "regen.damage-triggers")


def apply_rider(w: SymWork, i: int, rider: Val, creator: Val, when: Val) -> None:
    """An "if it regenerates this way" rider of the shield just used (701.19c): Debt of
    Loyalty's control change is part of the replacement; counter riders and Soldevi Sentry's
    draw are delayed triggers controlled by the shield's creator
    (``engine.destruction.apply_rider``)."""
    control = and_(when, eq(rider, ordinal(Rider.GAIN_CONTROL)))
    changed = change_control(w, i, creator, False, "regen.rider.control", control)
    w.bump("riders", i, when=changed)
    minus = and_(when, eq(rider, ordinal(Rider.MINUS_COUNTER)))
    plus = and_(when, eq(rider, ordinal(Rider.PLUS_COUNTER)))
    counters = or_(minus, plus)
    # a delayed trigger controlled by the shield's creator (603.7a, 603.7d-e)
    owner = controller(w, i) if w.mutant(Mutant.RIDER_TRIGGER_BY_CONTROLLER) else creator
    if not w.skip(counters):
        kind = ite(minus, ordinal(CounterKind.MINUS), ordinal(CounterKind.PLUS))
        trig = stack.counters_trigger(w, i, kind, owner)
        stack.push(w, "pending", trig, "regen.rider.trigger", when=counters)
        w.bump("riders", i, when=counters)
    draws = and_(when, eq(rider, ordinal(Rider.OPPONENT_MAY_DRAW)))
    if not w.skip(draws):
        # Soldevi Sentry: controlled by the creator (603.7e), naming the opponent the creator
        # chose on activation, the creator's one opponent (102.2, 115.1c;
        # ``engine.destruction.opponent_draws``)
        chosen = controller(w, i) if w.mutant(Mutant.RIDER_DRAW_BY_CONTROLLER) else sub(1, creator)
        trig = stack.may_draw_trigger(w, i, chosen, owner)
        stack.push(w, "pending", trig, "regen.rider.opponent-draws", when=draws)
        w.bump("riders", i, when=draws)
