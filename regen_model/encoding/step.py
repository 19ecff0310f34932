"""One step of the relation, per action kind: the counterpart of ``engine/step.py``.

``HANDLERS[kind](w)`` states the guard of that kind (``w.require``: the engine raises an
``EngineError`` exactly when one is false) and applies its effect to ``w``; ``run`` adds the
deferred priority (704.3 loop) and the step outputs that are read off the state change.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from regen_model.encoding import combat, granted, stack, turn
from regen_model.encoding import effects as fx
from regen_model.encoding import typechange as types
from regen_model.encoding.attachments import attach
from regen_model.encoding.derived import (
    controller,
    creature_on_battlefield,
    has,
    in_combat,
    on_battlefield,
)
from regen_model.encoding.destruction import destroy
from regen_model.encoding.frame import KEYWORDS, NONE
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    b2i,
    eq,
    ge,
    implies,
    ite,
    le,
    lt,
    ne,
    not_,
    or_,
    select,
)
from regen_model.encoding.sba import cleanup_effects, run_sba_loop
from regen_model.encoding.triggers import simultaneous, tapped_trigger
from regen_model.encoding.work import Context, SymWork
from regen_model.encoding.zones import change_control, move_zone
from regen_model.model.effects import TARGETED_KINDS, EffectKind, TargetRule
from regen_model.model.enums import Attachment, Mutant, Rider, StackKind, Step, Zone, ordinal

TARGETED = tuple(ordinal(k) for k in EffectKind if k in TARGETED_KINDS)


def on_bf(w: SymWork, slot: Val) -> Val:
    """The card ``slot`` names is on the battlefield (false for NONE)."""
    return or_(*[and_(eq(slot, i), on_battlefield(w, i)) for i in range(w.n)])


def _one_target(clause: str, rule: Callable[[SymWork, int], None]) -> Callable[[SymWork], None]:
    def handler(w: SymWork) -> None:
        w.require(on_bf(w, w.p.target), clause)
        fx.on_slot(w, w.p.target, rule)

    return handler


# --- effects ---------------------------------------------------------------------------------


def _create_shield(w: SymWork) -> None:
    p = w.p

    def make(w: SymWork, i: int) -> None:
        creator = ite(eq(p.creator, NONE), controller(w, i), p.creator)
        fx.create_shield(w, i, p.rider, creator)

    _one_target("regen.shield.create", make)(w)


def _deal_damage(w: SymWork) -> None:
    p = w.p
    n = w.n
    clause = "damage.mark"
    src = p.source
    src_on_bf = on_bf(w, src)
    kws = tuple(
        or_(p.kw(k), and_(src_on_bf, or_(*[and_(eq(src, i), has(w, i, k)) for i in range(n)])))
        for k in KEYWORDS
    )
    src_ctrl = select(src, [controller(w, i) for i in range(n)], 0)
    ctrl = ite(eq(p.dmg_controller, NONE), src_ctrl, p.dmg_controller)
    w.require(not_(p.malformed), clause)
    shares = []
    for r in range(n + w.ctx.scope.players):
        present, amount = p.share[r], p.share_amount[r]
        w.require(implies(present, ge(amount, 0)), clause)
        if r < n:
            w.require(implies(present, creature_on_battlefield(w, r)), clause)
            shares.append(fx.Share(present, kws, ctrl, amount, r, w[w.c(r).gen], NONE, src))
        else:
            shares.append(fx.Share(present, kws, ctrl, amount, NONE, 0, r - n, src))
    fx.deal_damage(w, shares, combat=p.combat, cant_regen=p.cant_regen)


def _destroy(w: SymWork) -> None:
    p = w.p
    clause = "destroy.effect"
    for k, s in enumerate(p.seq):
        w.require(implies(ne(s, NONE), on_bf(w, s)), clause)
        for s2 in p.seq[k + 1 :]:
            w.require(not_(and_(ne(s, NONE), eq(s, s2))), clause)
    # at once (608.2f, 701.8): each watcher sees every death (603.10a), each destruction is
    # decided on the values as the event began; slot by slot whatever order ``seq`` lists
    # them in (``engine.step._destroy``), so each slot's destruction is written once
    chosen = [or_(*[eq(s, i) for s in p.seq]) for i in range(w.n)]
    with simultaneous(w, chosen):
        for i in range(w.n):
            w.branch(
                chosen[i],
                partial(destroy, i=i, cant_regen=p.cant_regen, by_effect=True, clause=clause),
            )


def _leave_and_return(w: SymWork) -> None:
    p = w.p
    _one_target("zone.new-object", lambda w, i: fx.leave_and_return(w, i, p.under))(w)


def _change_control(w: SymWork) -> None:
    p = w.p

    def gain(w: SymWork, i: int) -> None:
        change_control(w, i, p.player, p.until_eot, "control.change")

    _one_target("control.change", gain)(w)


def _modify_pt(w: SymWork) -> None:
    p = w.p
    _one_target("pt.modify", lambda w, i: fx.modify_pt(w, i, p.power, p.toughness))(w)


def _change_type(w: SymWork) -> None:
    """``remove``: it stops being a creature; otherwise it becomes one (613.1d)."""
    w.branch(
        w.p.remove,
        _one_target("type.stop-being-creature", types.stop_being_creature),
        _one_target("type.become-creature", types.become_creature),
    )


def _add_counters(w: SymWork) -> None:
    p = w.p
    w.require(ge(p.amount, 1), "counters.add")
    _one_target("counters.add", lambda w, i: fx.add_counters(w, i, p.counter, p.amount))(w)


def _grant_keyword(w: SymWork) -> None:
    p = w.p
    _one_target("keyword.grant", lambda w, i: fx.grant_keyword(w, i, p.keyword, p.remove))(w)


def _check_sba(w: SymWork) -> None:
    run_sba_loop(w)


def _cleanup(w: SymWork) -> None:
    """514.2's actions as an effect (``engine.step._cleanup``): refused while a creature is
    in combat. The game performs them in the ending phase only (514.2, 500.1), after the
    combat phase has ended and taken every creature out of combat (511.3); performed on a
    creature still attacking or blocking, the end of a temporary control change or
    animation would leave it in combat under the defending player or as a noncreature, a
    state no game has (506.4 would remove it). Without this the driven check met such
    states: the defending player declaring an attacker a blocker of itself (issue 10,
    docs/agreement.md)."""
    w.require(not_(or_(*[in_combat(w, i) for i in range(w.n)])), "cleanup.simultaneous")
    cleanup_effects(w)


# --- game actions ----------------------------------------------------------------------------


def _cast(w: SymWork) -> None:
    """117.1a timing, 601.2c targets; the spell goes on the stack and its caster receives
    priority again (117.3c)."""
    f = w.f
    p = w.p
    clause = "stack.cast"
    turn.require_priority(w, clause)
    main = or_(eq(w[f.step], ordinal(Step.MAIN1)), eq(w[f.step], ordinal(Step.MAIN2)))
    sorcery_ok = and_(main, eq(w[f.active], p.player), eq(w[f.stack_size], 0))
    w.require(implies(p.sorcery, sorcery_ok), clause)
    needs = or_(*[eq(p.eff_kind, k) for k in TARGETED])
    w.require(implies(needs, lt(0, p.n_targets)), clause)
    w.require(implies(not_(needs), eq(p.n_targets, 0)), clause)
    rule = p.cast_rule
    # 601.2c: a spell with no target requirement has no targets to choose
    w.require(implies(eq(rule, ordinal(TargetRule.NONE)), eq(p.n_targets, 0)), clause)
    # 701.17a: the model's mill is "target player mills N cards" (then "draw M"), N, M >= 0
    w.require(
        implies(
            eq(p.eff_kind, ordinal(EffectKind.MILL)),
            and_(
                eq(rule, ordinal(TargetRule.PLAYER)),
                ge(p.eff_amount, 0),
                ge(p.eff_draw, 0),
            ),
        ),
        clause,
    )
    # 120.1a: damage is never aimed at "target land" (``engine.step._targets``)
    w.require(
        not_(and_(eq(p.eff_kind, ordinal(EffectKind.DAMAGE)), eq(rule, ordinal(TargetRule.LAND)))),
        clause,
    )
    # "target spell" (Counterspell; ``engine.step._spell_target``): its one target a spell on
    # the stack, named by its position (601.2c, 115.1); the spell cast is not on it yet (115.5)
    spell_rule = or_(
        eq(rule, ordinal(TargetRule.SPELL)), eq(p.eff_kind, ordinal(EffectKind.COUNTER_SPELL))
    )
    pos = p.tgt_spell[0]
    kinds = [w[names.kind] for names in f.stack]
    w.require(
        implies(
            spell_rule,
            and_(
                eq(p.eff_kind, ordinal(EffectKind.COUNTER_SPELL)),
                eq(rule, ordinal(TargetRule.SPELL)),
                eq(p.n_targets, 1),
                ge(pos, 0),
                lt(pos, w[f.stack_size]),
                eq(select(pos, kinds, NONE), ordinal(StackKind.SPELL)),
            ),
        ),
        clause,
    )
    targets = []
    for j in range(len(p.tgt_card)):
        exists = and_(lt(j, p.n_targets), not_(spell_rule))
        # a spell is a target only of "target spell"
        w.require(implies(exists, eq(p.tgt_spell[j], NONE)), clause)
        card, player = p.tgt_card[j], p.tgt_player[j]
        is_player = ne(player, NONE)
        # on the battlefield (the engine's ``Work.on_battlefield``), then the whole target
        # rule, which asks for a creature only where it says so: "target land" may name a
        # land that is no creature (115.1, 601.2c; ``engine.step._targets``)
        card_ok = or_(
            *[
                and_(
                    eq(card, i),
                    on_battlefield(w, i),
                    fx.meets_target_needs(w, i, rule, p.player),
                )
                for i in range(w.n)
            ]
        )
        # 115.2: a player only where the spell says so: "any target" (damage), "target player"
        player_ok = or_(
            and_(eq(p.eff_kind, ordinal(EffectKind.DAMAGE)), eq(rule, ordinal(TargetRule.ANY))),
            eq(rule, ordinal(TargetRule.PLAYER)),
        )
        ok = ite(is_player, player_ok, card_ok)
        w.require(implies(exists, ok), clause)
        gen = select(card, [w[w.c(i).gen] for i in range(w.n)], 0)
        targets.append(
            (
                ite(and_(exists, not_(is_player)), card, NONE),
                ite(and_(exists, not_(is_player)), gen, 0),
                ite(exists, player, NONE),
            )
        )
    obj = stack.entry(
        w,
        kind=StackKind.SPELL,
        controller=p.player,
        effect=p.eff_kind,
        amount=p.eff_amount,
        power=p.eff_power,
        toughness=p.eff_toughness,
        keywords=p.eff_keywords,
        cant_regen=p.eff_cant_regen,
        cant_regen_target=p.eff_cant_regen_target,
        exile_if_dies=p.eff_exile_if_dies,
        rider=p.eff_rider,
        counter=p.eff_counter,
        until_eot=p.eff_until_eot,
        untap=p.eff_untap,
        under_you=p.eff_under_you,
        draw=p.eff_draw,
        target_rule=rule,
        targets=targets,
        n_targets=p.n_targets,
        spells=[ite(spell_rule, pos, NONE)],
    )
    stack.push(w, "stack", obj, clause)
    for q in range(turn.PLAYERS):
        w.set(f.passed[q], False, clause)
    turn.give_priority(w, p.player)


def _sacrifice_creature(w: SymWork, pays: Val) -> None:
    """601.2h, 701.21a: "Sacrifice a creature" (Dark Privilege, ``engine.step
    ._sacrifice_choice``): the action's ``source`` parameter names a creature the activating
    player controls, which goes to the graveyard now, after the stack object read its host
    (608.2h: a host sacrificed to its own ability is a new object, 400.7); an ability without
    that cost names none. The mutant ``sacrifice-any-creature``: any creature pays."""
    p = w.p
    clause = "cost.sacrifice-creature"
    w.require(implies(not_(pays), eq(p.source, NONE)), clause)
    mine = w.mutant(Mutant.SACRIFICE_ANY_CREATURE)
    payable = [
        and_(
            eq(p.source, j),
            creature_on_battlefield(w, j),
            True if mine else eq(controller(w, j), p.player),
        )
        for j in range(w.n)
    ]
    w.require(implies(pays, or_(*payable)), clause)
    for j in range(w.n):
        move_zone(w, j, Zone.GRAVEYARD, clause, and_(pays, eq(p.source, j)))


def _activate(w: SymWork) -> None:
    """602.2: the ability goes on the stack targeting its source; opponents-only abilities
    (Knight of the Holy Nimbus) for an opponent, the others for the controller. An Aura's or
    Equipment's "Regenerate enchanted creature" acts on what it is attached to now, and equip
    targets a creature its controller controls, as a sorcery (702.6a, 602.5d)."""
    f = w.f
    p = w.p
    clause = "stack.activate"
    turn.require_priority(w, clause)
    w.require(on_bf(w, p.target), clause)

    def from_card(w: SymWork, i: int) -> None:
        st = w.st(i)
        # Ability layout (``frame.template_fits``): its own animation first, if any, then
        # "Regenerate this" (granted by that animation on a manland), then the opponents-only
        # "can't be regenerated"; an attachment's are "Regenerate enchanted creature", then
        # equip (the frame domain keeps the two families apart).
        animates = st.animate_ability
        count = add(
            b2i(animates),
            b2i(st.regen_ability),
            b2i(st.unregen_ability),
            b2i(st.host_regen),
            b2i(st.equip),
            b2i(st.target_regen),
            b2i(st.remove_damage_ability),
        )
        # 613.1f: after its printed abilities, the one an attachment gives it, if one does
        given_by = granted.givers(w, i)
        given = and_(or_(*given_by), eq(p.ability, count))
        w.require(and_(le(0, p.ability), or_(lt(p.ability, count), given)), clause)
        anim = and_(animates, eq(p.ability, 0))
        own_regen = and_(st.regen_ability, eq(p.ability, b2i(animates)))
        regen = or_(own_regen, given)
        host_regen = and_(st.host_regen, eq(p.ability, 0))
        equip = and_(st.equip, eq(p.ability, b2i(st.host_regen)))
        # "Regenerate target creature", a creature's only ability (``frame.template_fits``)
        targeted = and_(st.target_regen, eq(p.ability, 0))
        # Pyramids' "target land" ability, a noncreature's only ability (614.1a)
        pyramids = and_(st.remove_damage_ability, eq(p.ability, 0))
        # 613.1f: a granted ability exists only while the animation that grants it applies
        w.require(implies(and_(own_regen, animates), w[w.c(i).animated]), clause)
        # 602.5d, 702.6a: equip only as a sorcery
        main = or_(eq(w[f.step], ordinal(Step.MAIN1)), eq(w[f.step], ordinal(Step.MAIN2)))
        sorcery_ok = and_(main, eq(w[f.active], p.player), eq(w[f.stack_size], 0))
        w.require(implies(equip, sorcery_ok), "attach.equip")
        mine = or_(anim, regen, host_regen, equip, targeted, pyramids)
        ctrl = controller(w, i)
        w.require(implies(not_(given), ite(mine, eq(p.player, ctrl), ne(p.player, ctrl))), clause)
        # 602.2: the creature's controller activates what its attachment gives it
        w.require(implies(given, granted.activator_ok(w, i, p.player, given_by)), granted.CLAUSE)
        # only equip has a target (its creature); the others act on their source or host
        w.require(implies(equip, eq(p.n_targets, 1)), "attach.equip")
        # "Regenerate enchanted creature" names no target: it acts on its source's host
        w.require(implies(host_regen, eq(p.n_targets, 0)), "attach.host-regen")
        w.require(
            implies(not_(or_(equip, host_regen, targeted, pyramids)), eq(p.n_targets, 0)), clause
        )
        tgt = p.tgt_card[0]
        w.require(implies(equip, equip_target_ok(w, i, tgt, p.player)), "attach.equip")
        # 602.2b, 601.2c: its target is a creature on the battlefield as it is activated
        creature_rule = ordinal(TargetRule.CREATURE)
        target_ok = or_(
            *[
                and_(eq(tgt, j), fx.meets_target_needs(w, j, creature_rule, p.player))
                for j in range(w.n)
            ]
        )
        w.require(implies(targeted, and_(eq(p.n_targets, 1), target_ok)), "stack.ability-target")
        # 602.2b, 601.2c: Pyramids' target is a land on the battlefield as it is activated
        land_rule = ordinal(TargetRule.LAND)
        land_ok = or_(
            *[
                and_(eq(tgt, j), on_bf(w, j), fx.meets_target_needs(w, j, land_rule, p.player))
                for j in range(w.n)
            ]
        )
        w.require(implies(pyramids, and_(eq(p.n_targets, 1), land_ok)), "stack.ability-target")
        # 601.2h, 602.2b: then its {T} cost is paid, before it is on the stack (302.6: not by
        # a summoning-sick creature; the mutant ``tap-cost-while-tapped``: also when tapped)
        paying = and_(targeted, st.tap_cost)
        tapped = w[w.c(i).tapped]
        if not w.mutant(Mutant.TAP_COST_WHILE_TAPPED):
            w.require(implies(paying, not_(tapped)), "cost.tap")
        w.require(
            implies(and_(paying, creature_on_battlefield(w, i)), not_(combat.sick(w, i))),
            "cost.tap",
        )
        taps = and_(paying, not_(tapped))
        w.set_if(taps, w.c(i).tapped, True, "cost.tap")
        w.bump("other_taps", i, when=taps)
        tapped_trigger(w, i, taps)
        gen = w[w.c(i).gen]
        host = w[w.c(i).attached_to]
        host_gen = select(host, [w[w.c(j).gen] for j in range(w.n)], 0)
        tgt_gen = select(tgt, [w[w.c(j).gen] for j in range(w.n)], 0)
        effect = ite(
            or_(regen, host_regen, targeted),
            ordinal(EffectKind.REGENERATE),
            ordinal(EffectKind.UNREGENERABLE),
        )
        effect = ite(equip, ordinal(EffectKind.ATTACH), effect)
        effect = ite(pyramids, ordinal(EffectKind.REMOVE_DAMAGE_INSTEAD), effect)
        chosen = or_(equip, targeted, pyramids)  # a target picked on activation
        card = ite(host_regen, host, ite(chosen, tgt, i))
        card_gen = ite(host_regen, host_gen, ite(chosen, tgt_gen, gen))
        obj = stack.entry(
            w,
            kind=StackKind.ABILITY,
            controller=p.player,
            effect=ite(anim, ordinal(EffectKind.ANIMATE), effect),
            rider=ite(own_regen, st.regen_rider, ordinal(Rider.NONE)),
            targets=((ite(eq(card, NONE), NONE, card), ite(eq(card, NONE), 0, card_gen), NONE),),
            n_targets=ite(eq(card, NONE), 0, 1),
            source=i,
            source_gen=gen,
            # 608.2b: re-checked against "creature" as it resolves (``ability.target_rule``)
            target_rule=ite(
                targeted, creature_rule, ite(pyramids, land_rule, ordinal(TargetRule.NONE))
            ),
        )
        # 601.2h, 701.21a: "Sacrifice this" (Carapace, Vigilant Martyr) moves the source to
        # the graveyard now, after its target and host were read above: the stack object keeps
        # the old object's identity and host (113.7a, 608.2h); a self-target is gone (400.7)
        move_zone(
            w, i, Zone.GRAVEYARD, "cost.sacrifice", and_(or_(host_regen, targeted), st.sac_cost)
        )
        _sacrifice_creature(w, and_(host_regen, st.sac_creature))
        stack.push(w, "stack", obj, clause)
        for q in range(turn.PLAYERS):
            w.set(f.passed[q], False, clause)
        turn.give_priority(w, p.player)

    fx.on_slot(w, p.target, from_card)


def equip_target_ok(w: SymWork, item: int, target: Val, player: Val) -> Val:
    """702.6a: "target creature you control", not the Equipment itself (301.5c), and not an
    Aura or Equipment (``engine.attachments.equip_target_ok``)."""
    return or_(
        *[
            and_(
                eq(target, j),
                creature_on_battlefield(w, j),
                eq(controller(w, j), player),
                eq(w.st(j).attachment, ordinal(Attachment.NONE)),
            )
            for j in range(w.n)
            if j != item
        ]
    )


def _attach(w: SymWork) -> None:
    """An effect attaches the Aura or Equipment ``source`` to ``target`` (701.3a)."""
    p = w.p
    clause = "attach.move"
    w.require(on_bf(w, p.source), clause)
    w.require(
        or_(
            *[
                and_(eq(p.source, i), ne(w.st(i).attachment, ordinal(Attachment.NONE)))
                for i in range(w.n)
            ]
        ),
        clause,
    )
    w.require(on_bf(w, p.target), clause)
    fx.on_slot(w, p.source, lambda w, i: attach(w, i, p.target, clause))


HANDLERS: dict[str, Callable[[SymWork], None]] = {
    "create-shield": _create_shield,
    "deal-damage": _deal_damage,
    "destroy": _destroy,
    "sacrifice": _one_target("zone.sacrifice", fx.sacrifice),
    "exile": _one_target("zone.exile", fx.exile),
    "leave-and-return": _leave_and_return,
    "attach": _attach,
    "change-control": _change_control,
    "modify-pt": _modify_pt,
    "add-counters": _add_counters,
    "grant-keyword": _grant_keyword,
    "change-type": _change_type,
    "make-unregenerable": _one_target("cant-regen.make", fx.make_unregenerable),
    "check-sba": _check_sba,
    "cleanup": _cleanup,
    "pass": turn.pass_priority,
    "cast": _cast,
    "activate": _activate,
    "declare-attackers": turn.declare_attackers,
    "declare-blockers": turn.declare_blockers,
    "order-blockers": turn.order_blockers,
    "assign-combat-damage": turn.assign_combat_damage,
}


def run(ctx: Context, pre: dict[str, Val], kind: str) -> SymWork:
    """The step of action kind ``kind`` from the frame values ``pre``: guards, successor
    values, writers and outputs in the returned ``SymWork`` (raises ``GuardFailed`` first
    when ``ctx.eager`` and a guard is false)."""
    w = SymWork(ctx, pre)
    HANDLERS[kind](w)
    turn.finish(w)
    for area in ("stack", "pending"):  # what the step pushed fits the scope (``stack.fits``)
        stack.fits(w, area)
    _shields_used(w, pre)
    return w


def _shields_used(w: SymWork, pre: dict[str, Val]) -> None:
    """``shields_used``: shield slots of the same object that went from unused to used."""
    for i in range(w.n):
        c = w.c(i)
        fresh = [
            and_(w[s.present], w[s.used], not_(and_(pre[s.present], pre[s.used])))
            for s in c.shields
        ]
        same_object = eq(w[c.gen], pre[c.gen])
        w.out["shields_used"][i] = ite(same_object, add(*[b2i(x) for x in fresh]), 0)
