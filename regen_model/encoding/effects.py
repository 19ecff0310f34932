"""Effects: the counterpart of ``engine/effects.py`` (what resolving spells and abilities do,
and what the direct effect actions do). None of them checks state-based actions (704.4).

Card arguments may be symbolic slots (a spell's target is a stack field): ``on_slot`` runs a
rule for the slot a value names, one branch per card slot when the value is symbolic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from regen_model.encoding import phasing, stack
from regen_model.encoding import typechange as types
from regen_model.encoding.attachments import attach
from regen_model.encoding.derived import (
    black,
    controller,
    creature_on_battlefield,
    has,
    in_battlefield_zone,
    is_creature,
    on_battlefield,
    shrines,
    toughness,
)
from regen_model.encoding.destruction import apply_rider, destroy
from regen_model.encoding.frame import KEYWORDS, KW_INDEX, NONE, StackVars
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    count,
    eq,
    ge,
    gt,
    implies,
    ite,
    le,
    lt,
    ne,
    not_,
    or_,
    select,
    sub,
)
from regen_model.encoding.triggers import simultaneous, tapped_trigger
from regen_model.encoding.work import SymWork
from regen_model.encoding.zones import change_control, move_zone, to_graveyard
from regen_model.model.effects import STATUS_RULES, EffectKind, TargetRule, rules_needing
from regen_model.model.enums import (
    Attachment,
    CounterKind,
    Edition,
    Keyword,
    Mutant,
    Rider,
    StackKind,
    Zone,
    ordinal,
)

NO_RIDER = ordinal(Rider.NONE)


def _at(w: SymWork, i: int, rule: Callable[[SymWork, int], None]) -> None:
    rule(w, i)


def on_slot(w: SymWork, slot: Val, rule: Callable[[SymWork, int], None]) -> None:
    """Run ``rule(w, i)`` for the card slot ``slot`` names (nothing for NONE)."""
    for i in range(w.n):
        w.branch(eq(slot, i), partial(_at, i=i, rule=rule))


def create_shield(w: SymWork, i: int, rider: Val, creator: Val, via: Val = NONE) -> None:
    """701.19a: one more shield for this object, this turn. Creating it is not regenerating
    (701.19c): nothing is tapped, no damage is removed, riders wait for its use. ``via``: the
    Aura or Equipment whose ability made it (``Shield.via``)."""
    c = w.c(i)
    clause = "regen.shield.create"
    made = count([w[s.present] for s in c.shields])  # shields fill slots from the first
    w.require(lt(made, len(c.shields)), "scope:shields")
    for j, s in enumerate(c.shields):
        here = eq(made, j)
        w.set_if(here, s.present, True, clause)
        w.set_if(here, s.used, False, clause)
        w.set_if(here, s.rider, rider, clause)
        w.set_if(here, s.creator, creator, clause)
        w.set_if(here, s.via, via, clause)
    w.set(c.ghost.shields_made, add(w[c.ghost.shields_made], 1), clause)
    w.bump("shields_made", i)
    if w.mutant(Mutant.CREATE_TAPS):
        untapped = not_(w[c.tapped])
        w.set_if(untapped, c.tapped, True, clause)
        w.bump("other_taps", i, when=untapped)
        tapped_trigger(w, i, untapped)
    if w.mutant(Mutant.RIDER_ON_CREATE):
        apply_rider(w, i, rider, creator, ne(rider, NO_RIDER))


@dataclass(frozen=True)
class Share:
    """One share of a damage event (``engine.effects.Damage``): ``present`` says whether the
    share exists at all (a target that turned illegal has none). ``source``: the card slot of
    the source when it is a permanent, else NONE."""

    present: Val
    keywords: tuple[Val, ...]
    controller: Val
    amount: Val
    card: Val  # slot or NONE
    gen: Val
    player: Val  # player or NONE
    source: Val = NONE

    def kw(self, k: Keyword) -> Val:
        return self.keywords[KW_INDEX[k]]


def deal_damage(w: SymWork, shares: Sequence[Share], *, combat: Val, cant_regen: Val) -> None:
    """Every share at once, in order (120.3, 510.2): prevention first (``prevention``), then
    marked damage (120.3e), -1/-1 counters from wither/infect (120.3d), the deathtouch record
    (702.2b) or, before M10, its trigger (pre-M10 502.63), shield counters preventing it
    (122.1c: one prevention effect for all of the event's damage to the permanent, one counter
    removed), damage triggers (603.2). A share of 0 or less deals nothing (120.8)."""
    protected: list[Val] = [False] * w.n  # a shield counter already prevents this event's damage
    before = [w[w.c(i).prevent_next] for i in range(w.n)]  # mutant prevention-per-source
    for share in shares:
        live = and_(share.present, gt(share.amount, 0))
        if w.skip(live):
            continue
        for q in range(w.ctx.scope.players):
            _to_player(w, q, share, and_(live, eq(share.player, q)))
        for i in range(w.n):
            hit = and_(live, eq(share.player, NONE), eq(share.card, i))
            if not w.skip(hit):
                _to_card(w, i, share, combat, cant_regen, hit, protected, before[i])


def _to_player(w: SymWork, q: int, share: Share, when: Val) -> None:
    """Damage to a player: poison counters from infect, else life loss (120.3a-b)."""
    pv = w.f.players[q]
    infect = share.kw(Keyword.INFECT)
    w.set_if(and_(when, infect), pv.poison, add(w[pv.poison], share.amount), "damage.player")
    w.set_if(and_(when, not_(infect)), pv.life, sub(w[pv.life], share.amount), "damage.player")
    lifelink(w, share, when, share.amount)


def lifelink(w: SymWork, share: Share, dealt: Val, amount: Val) -> None:
    """702.15b, 120.3f: the source's controller gains as much life as the damage dealt
    (``engine.effects._lifelink``); prevented damage gains nothing."""
    gains = and_(dealt, share.kw(Keyword.LIFELINK), gt(amount, 0))
    if gains is False:
        return
    for q in range(w.ctx.scope.players):
        pv = w.f.players[q]
        mine = and_(gains, eq(share.controller, q))
        w.set_if(mine, pv.life, add(w[pv.life], amount), "damage.lifelink")


def unpreventable(w: SymWork, share: Share) -> Val:
    """615.12: the source's damage can't be prevented (``engine.effects._unpreventable``)."""
    if w.mutant(Mutant.UNPREVENTABLE_PREVENTED):
        return False
    return share.kw(Keyword.UNPREVENTABLE)


def prevention(w: SymWork, i: int, share: Share, here: Val, before: Val) -> Val:
    """The share's damage left after the prevention effects on card ``i``
    (``engine.effects._prevention_effects``): "prevent all" stops all of it and stays (615.1),
    a "prevent the next N" shield stops up to what is left of it and is reduced by as much,
    share after share (615.7), unpreventable damage is neither prevented nor reduces a shield
    (615.12). ``before``: the shield as the event began (mutant ``prevention-per-source``)."""
    c = w.c(i)
    unp = unpreventable(w, share)
    can = and_(here, not_(unp))
    all_ = and_(can, w[c.prevent_all])
    current = w[c.prevent_next]
    left = before if w.mutant(Mutant.PREVENTION_PER_SOURCE) else current
    nxt = and_(can, not_(w[c.prevent_all]), gt(left, 0))
    stop = ite(lt(share.amount, left), share.amount, left)
    # 615.1: applying "prevent all" changes nothing on the permanent; the write records the rule
    w.set_if(all_, c.prevent_all, True, "prevent.all")
    if not w.mutant(Mutant.PREVENTION_NOT_REDUCED):
        w.set_if(nxt, c.prevent_next, ite(gt(current, stop), sub(current, stop), 0), "prevent.next")
    else:
        w.set_if(nxt, c.prevent_next, current, "prevent.next")
    meets = and_(here, unp, or_(w[c.prevent_all], gt(current, 0)))
    # 615.12: the shields meet the damage and keep what they had
    w.set_if(meets, c.prevent_next, current, "prevent.unpreventable")
    if w.mutant(Mutant.PREVENTED_DEATHTOUCH_DESTROYS):
        hit = and_(or_(all_, nxt), share.kw(Keyword.DEATHTOUCH))
        w.set_if(hit, c.deathtouched, True, "damage.deathtouch")
    return ite(all_, 0, ite(nxt, sub(share.amount, stop), share.amount))


def _to_card(
    w: SymWork,
    i: int,
    share: Share,
    combat: Val,
    cant_regen: Val,
    when: Val,
    protected: list[Val],
    before: Val,
) -> None:
    c = w.c(i)
    # the recipient left (a new object) or is gone: no damage (310.4c, 608.2b)
    here = and_(when, on_battlefield(w, i), eq(w[c.gen], share.gen))
    amount = prevention(w, i, share, here, before)
    live = and_(here, gt(amount, 0))
    already: Val = False if w.mutant(Mutant.SHIELD_COUNTER_PER_SOURCE) else protected[i]
    removes = and_(live, not_(already), gt(w[c.shield_counters], 0))
    # 615.12: a shield counter meets unpreventable damage, is removed and prevents nothing
    prevented = and_(or_(removes, and_(live, already)), not_(unpreventable(w, share)))
    dealt = and_(live, not_(prevented))
    w.set_if(removes, c.shield_counters, sub(w[c.shield_counters], 1), "replace.shield-counter")
    protected[i] = or_(protected[i], removes)
    if w.mutant(Mutant.LIFELINK_ON_PREVENTED):
        lifelink(w, share, here, share.amount)
    else:
        lifelink(w, share, dealt, amount)
    as_counters = or_(share.kw(Keyword.WITHER), share.kw(Keyword.INFECT))
    w.set_if(and_(dealt, as_counters), c.minus, add(w[c.minus], amount), "damage.wither-infect")
    w.set_if(and_(dealt, not_(as_counters)), c.damage, add(w[c.damage], amount), "damage.mark")
    deathtouch = and_(dealt, share.kw(Keyword.DEATHTOUCH))
    triggers = deathtouch_triggers(w)
    w.set_if(and_(deathtouch, not_(triggers)), c.deathtouched, True, "damage.deathtouch")
    _deathtouch_trigger(w, i, share, and_(deathtouch, triggers))
    w.bump("damage", i, amount, when=dealt)
    w.set_if(and_(dealt, cant_regen, not_(w[c.cant_regen])), c.cant_regen, True, "cant-regen.make")
    _damage_trigger(w, i, amount, combat, dealt)


def deathtouch_triggers(w: SymWork) -> Val:
    """Before M10, deathtouch is a triggered ability (pre-M10 502.63)."""
    if w.mutant(Mutant.DEATHTOUCH_STATIC_PRE_M10):
        return False
    return eq(w[w.f.edition], ordinal(Edition.PRE_M10))


def _deathtouch_trigger(w: SymWork, i: int, share: Share, when: Val) -> None:
    """Pre-M10 deathtouch: "destroy that creature" triggers, controlled by the source's
    controller (``engine.effects._deathtouch_trigger``)."""
    if w.skip(when):
        return
    source = share.source
    source_gen = select(source, [w[w.c(j).gen] for j in range(w.n)], 0)
    obj = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=share.controller,
        effect=ordinal(EffectKind.DESTROY),
        targets=((i, w[w.c(i).gen], NONE),),
        source=source,
        source_gen=source_gen,
        target_rule=ordinal(TargetRule.CREATURE),
    )
    stack.push(w, "pending", obj, "damage.deathtouch-trigger", when=when)


def _damage_trigger(w: SymWork, i: int, amount: Val, combat: Val, when: Val) -> None:
    """A damage trigger ("Whenever this creature is dealt (combat) damage, you gain that much
    life" or "it deals that much damage to you") triggers now (603.2), whatever happens to the
    creature afterwards."""
    st = w.st(i)
    fires = and_(when, ne(st.trigger, 0), not_(and_(st.trigger_combat_only, not_(combat))))
    if w.skip(fires):
        return
    owner = controller(w, i)
    gen = w[w.c(i).gen]
    obj = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=owner,
        effect=ite(eq(st.trigger, 1), ordinal(EffectKind.LIFE), ordinal(EffectKind.DAMAGE)),
        amount=amount,
        targets=((NONE, 0, owner),),
        source=i,
        source_gen=gen,
    )
    stack.push(w, "pending", obj, "damage.trigger", when=fires)
    w.bump("damage_triggers", i, when=fires)


def add_prevention(w: SymWork, i: int, amount: Val) -> None:
    """615.7: "prevent the next N damage that would be dealt to it this turn" adds N to what is
    left of its shields (``engine.effects.create_prevention``)."""
    c = w.c(i)
    w.set(c.prevent_next, add(w[c.prevent_next], amount), "prevent.next")


def prevent_all(w: SymWork, i: int) -> None:
    """615.1: "prevent all damage that would be dealt to it this turn"."""
    w.set(w.c(i).prevent_all, True, "prevent.all")


def absent(w: SymWork) -> None:
    """702.26b: an effect on each creature leaves the phased-out ones alone
    (``engine.effects._absent``); the write changes nothing and records the rule."""
    for i in range(w.n):
        c = w.c(i)
        out = and_(in_battlefield_zone(w, i), ne(w[c.phased_out], NONE), is_creature(w, i))
        w.set_if(out, c.phased_out, w[c.phased_out], "phasing.absent")


def modify_pt(w: SymWork, i: int, dp: Val, dt: Val) -> None:
    c = w.c(i)
    w.set(c.power_eot, add(w[c.power_eot], dp), "pt.modify")
    w.set(c.toughness_eot, add(w[c.toughness_eot], dt), "pt.modify")


def add_counters(w: SymWork, i: int, kind: Val, amount: Val) -> None:
    c = w.c(i)
    for counter, key in (
        (CounterKind.PLUS, c.plus),
        (CounterKind.MINUS, c.minus),
        (CounterKind.SHIELD, c.shield_counters),
    ):
        w.set_if(eq(kind, ordinal(counter)), key, add(w[key], amount), "counters.add")


def grant_keyword(w: SymWork, i: int, keyword: Val, remove: Val) -> None:
    """Until end of turn; the latest grant or removal wins (613.7)."""
    c = w.c(i)
    for index, k in enumerate(KEYWORDS):
        mine = eq(keyword, index)
        w.set_if(mine, c.granted(k), not_(remove), "keyword.grant")
        w.set_if(mine, c.removed(k), remove, "keyword.grant")


def make_unregenerable(w: SymWork, i: int) -> None:
    """701.19c: shields can still be made, but none applies to it this turn."""
    w.set(w.c(i).cant_regen, True, "cant-regen.make")


def sacrifice(w: SymWork, i: int) -> None:
    """701.21a: not destruction, so no shield applies (the mutant wrongly uses one)."""
    c = w.c(i)
    if w.mutant(Mutant.SACRIFICE_USES_SHIELD):
        active = or_(*[and_(w[s.present], not_(w[s.used])) for s in c.shields])
        move_zone(w, i, Zone.GRAVEYARD, "zone.sacrifice", not_(active))
        w.branch(
            active,
            lambda w: destroy(w, i, cant_regen=False, by_effect=True, clause="zone.sacrifice"),
        )
    else:
        move_zone(w, i, Zone.GRAVEYARD, "zone.sacrifice")


def exile(w: SymWork, i: int) -> None:
    move_zone(w, i, Zone.EXILE, "zone.exile")


def leave_and_return(w: SymWork, i: int, under: Val = NONE) -> None:
    """Exile and return at once: a new object (400.7) under its owner's control, or under
    ``under``'s when the effect names that player (110.2a)."""
    if w.mutant(Mutant.FLICKER_RETURNS_TO_OWNER):
        under = NONE
    move_zone(w, i, Zone.EXILE, "zone.exile")
    move_zone(w, i, Zone.BATTLEFIELD, "zone.new-object", controller=under)


def untap(w: SymWork, i: int, clause: str, when: Val = True) -> None:
    """701.26b: untap it (an untapped permanent stays untapped)."""
    key = w.c(i).tapped
    w.set_if(and_(when, w[key]), key, False, clause)


def live_keyword(w: SymWork, source: Val, gen: Val, k: Keyword) -> Val:
    """The permanent ``source`` is still that object (incarnation ``gen``) on the battlefield
    and has ``k`` (``engine.effects.live_keywords``)."""
    return or_(
        *[
            and_(eq(source, j), on_battlefield(w, j), eq(w[w.c(j).gen], gen), has(w, j, k))
            for j in range(w.n)
        ]
    )


def meets_target_needs(w: SymWork, i: int, rule: Val, player: Val) -> Val:
    """Card ``i`` meets every part of the target rule ``rule`` (a ``TargetRule`` ordinal) for
    the controller ``player`` of the spell or ability (``engine.effects.unmet_target_need``):
    the one table ``effects.TARGET_NEEDS`` read for a symbolic rule, checked at casting
    (601.2c) and again at resolution (608.2b)."""

    def needed(part: str) -> Val:
        return or_(*[eq(rule, ordinal(r)) for r in rules_needing(part)])

    return and_(
        implies(needed("creature"), creature_on_battlefield(w, i)),
        implies(needed("yours"), eq(controller(w, i), player)),
        implies(needed("nonartifact"), not_(w.st(i).artifact)),
        implies(needed("nonblack"), not_(black(w, i))),
        implies(needed("attacking"), w[w.c(i).attacking]),
        implies(needed("untapped"), not_(w[w.c(i).tapped])),
        implies(needed("land"), w.st(i).land),  # Pyramids' "target land"
        not_(needed("player")),  # "target player": no card is one (115.2)
        not_(needed("spell")),  # "target spell": no permanent is one (115.1)
        # Go-Shintai's "toughness X or less, where X is the number of Shrines you control"
        implies(needed("toughness_shrines"), _toughness_within_shrines(w, i, player)),
    )


def _toughness_within_shrines(w: SymWork, i: int, player: Val) -> Val:
    """Card ``i``'s toughness is at most the number of Shrines ``player`` controls. Only a
    creature's toughness is read: every rule with this part needs a creature too
    (``effects.TARGET_NEEDS``), so for a card known not to be one the part is left to that
    one (a manland's unanimated toughness is never read, ``unreachable.yaml``)."""
    if creature_on_battlefield(w, i) is False:
        return True
    return le(toughness(w, i), shrines(w, player))


def same_object(w: SymWork, i: int, card: Val, gen: Val) -> Val:
    """The target ``(card, gen)`` is card slot ``i``, still that object on the battlefield
    (400.7, 608.2b)."""
    return and_(eq(card, i), eq(w[w.c(i).gen], gen), on_battlefield(w, i))


def legal_card_target(w: SymWork, card: Val, gen: Val, rule: Val, player: Val) -> Val:
    """608.2b: still the same object (same incarnation) on the battlefield, meeting the whole
    of its target rule for ``player`` (``engine.effects.illegal_target``; the mutant
    ``target-rule-cast-only`` checks only that a creature is still one)."""
    if w.mutant(Mutant.TARGET_RULE_CAST_ONLY):
        creature = or_(*[eq(rule, ordinal(r)) for r in rules_needing("creature")])
        rule = ite(creature, ordinal(TargetRule.CREATURE), ordinal(TargetRule.NONE))
    if w.mutant(Mutant.TARGET_STATUS_CAST_ONLY):
        status = or_(*[eq(rule, ordinal(r)) for r in sorted(STATUS_RULES, key=ordinal)])
        rule = ite(status, ordinal(TargetRule.CREATURE), rule)
    return or_(
        *[
            and_(same_object(w, i, card, gen), meets_target_needs(w, i, rule, player))
            for i in range(w.n)
        ]
    )


def _via(w: SymWork, source: Val, i: int) -> Val:
    """``Shield.via`` of a shield made for card ``i`` by an ability of ``source``: the source
    if it is an Aura or Equipment other than ``i`` ("Regenerate enchanted creature"), else
    NONE (its own ability, a spell, or a creature's "Regenerate target creature";
    ``engine.effects.apply_effect``)."""
    attachment = or_(
        *[
            and_(eq(source, j), ne(w.st(j).attachment, ordinal(Attachment.NONE)))
            for j in range(w.n)
            if j != i
        ]
    )
    return ite(attachment, source, NONE)


def _regenerate(w: SymWork, obj: StackVars, i: int) -> None:
    """701.19a: a shield for card ``i``, also when the Aura whose "Regenerate enchanted
    creature" this is has left since (it was sacrificed to pay for it, 113.7a, 608.2h). The
    mutant ``sacrificed-aura-no-shield`` makes none once that Aura is gone."""
    via = _via(w, obj.source, i)
    if w.mutant(Mutant.SACRIFICED_AURA_NO_SHIELD):
        here = or_(
            *[and_(eq(obj.source, j), eq(w[w.c(j).gen], obj.source_gen)) for j in range(w.n)]
        )
        w.branch(
            or_(eq(via, NONE), here),
            lambda w: create_shield(w, i, obj.rider, obj.controller, via),
        )
        return
    create_shield(w, i, obj.rider, obj.controller, via)


def apply_effect(w: SymWork, obj: StackVars, legal: Sequence[Val]) -> None:
    """Apply a resolving object's effect to its targets whose ``legal`` flag holds, in
    order (``engine.effects.apply_effect``)."""
    kind = obj.effect
    ctrl = obj.controller
    targets = list(zip(legal, obj.target_card, obj.target_gen, obj.target_player, strict=True))

    def for_cards(rule: Callable[[SymWork, int], None]) -> Callable[[SymWork], None]:
        def run(w: SymWork) -> None:
            for ok, card, _, _ in targets:
                w.branch(ok, partial(on_slot, slot=card, rule=rule))

        return run

    def damage(w: SymWork) -> None:
        # a trigger's damage is dealt by its source (last known keywords if it left)
        kws = tuple(
            or_(kw, live_keyword(w, obj.source, obj.source_gen, k))
            for k, kw in zip(KEYWORDS, obj.keywords, strict=True)
        )
        shares = [
            Share(ok, kws, ctrl, obj.amount, card, gen, player, obj.source)
            for ok, card, gen, player in targets
        ]
        # mutant ``target-cant-regen-needs-damage``: Disintegrate read as Incinerate's rider
        needs_damage = w.mutant(Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE)
        rider = or_(obj.cant_regen, obj.cant_regen_target) if needs_damage else obj.cant_regen
        deal_damage(w, shares, combat=False, cant_regen=rider)
        # mutant ``damage-rider-on-prevented``: Incinerate read as Disintegrate (PH-29)
        unconditional: Val = False if needs_damage else obj.cant_regen_target
        if w.mutant(Mutant.DAMAGE_RIDER_ON_PREVENTED):
            unconditional = or_(unconditional, obj.cant_regen)
        if not needs_damage or w.mutant(Mutant.DAMAGE_RIDER_ON_PREVENTED):
            for ok, card, gen, _ in targets:
                for i in range(w.n):
                    aimed = and_(unconditional, ok, eq(card, i))
                    _target_unregenerable(w, i, aimed, gen)
        for ok, card, gen, _ in targets:
            for i in range(w.n):
                _target_exiled_if_dies(w, i, and_(obj.exile_if_dies, ok, eq(card, i)), gen)

    def damage_each(w: SymWork) -> None:
        absent(w)
        shares = [
            Share(
                creature_on_battlefield(w, i),
                obj.keywords,
                ctrl,
                obj.amount,
                i,
                w[w.c(i).gen],
                NONE,
            )
            for i in range(w.n)
        ]
        deal_damage(w, shares, combat=False, cant_regen=obj.cant_regen)

    def destroy_targets(w: SymWork) -> None:
        # its targets at once (608.2f, 701.8), slot by slot (``engine.effects.apply_effect``)
        chosen = [or_(*[and_(ok, eq(card, i)) for ok, card, _, _ in targets]) for i in range(w.n)]
        with simultaneous(w, chosen):
            for i in range(w.n):
                w.branch(
                    chosen[i],
                    partial(
                        destroy,
                        i=i,
                        cant_regen=obj.cant_regen,
                        by_effect=True,
                        clause="destroy.effect",
                    ),
                )

    def destroy_all(w: SymWork) -> None:
        victims = [creature_on_battlefield(w, i) for i in range(w.n)]
        gens = [w[w.c(i).gen] for i in range(w.n)]
        reached = [w[w.c(i).ghost.destructions] for i in range(w.n)]
        absent(w)
        # one event (608.2f): each watcher sees every death (603.10a), each destruction is
        # decided on the values as the event began
        with simultaneous(w, victims):
            for i in range(w.n):
                w.branch(
                    victims[i],
                    partial(
                        destroy,
                        i=i,
                        cant_regen=obj.cant_regen,
                        by_effect=True,
                        clause="destroy.effect",
                    ),
                )
        _gain_for_destroyed(w, obj, victims, gens, reached)

    def life(w: SymWork) -> None:
        for ok, _, _, player in targets:
            for q in range(w.ctx.scope.players):
                key = w.f.players[q].life
                w.set_if(and_(ok, eq(player, q)), key, add(w[key], obj.amount), "stack.resolve")

    def drain(w: SymWork) -> None:
        # 119.3: each opponent of the controller loses the life, the controller gains it
        for q in range(w.ctx.scope.players):
            key = w.f.players[q].life
            delta = ite(eq(ctrl, q), obj.amount, sub(0, obj.amount))
            w.set(key, add(w[key], delta), "stack.resolve")

    def may_draw(w: SymWork) -> None:
        for ok, _, _, player in targets:
            for q in range(w.ctx.scope.players):
                draw_may(w, q, obj.amount, and_(ok, eq(player, q)))

    def may_gain(w: SymWork) -> None:
        # 608.2d: the player it names ("you", its controller) answers as it resolves; the
        # pass's ``decline`` is the answer no (``engine.effects.may_gain``)
        for ok, _, _, player in targets:
            for q in range(w.ctx.scope.players):
                gain_may(w, q, obj.amount, and_(ok, eq(player, q)))

    def mill_then_draw(w: SymWork) -> None:
        # 608.2c: the target player mills, then the controller draws (Thought Scour)
        for ok, _, _, player in targets:
            for q in range(w.ctx.scope.players):
                mill(w, q, obj.amount, and_(ok, eq(player, q)))
        for q in range(w.ctx.scope.players):
            draw(w, q, obj.draw, eq(ctrl, q))

    def counter(w: SymWork) -> None:
        # "counter target spell" (``engine.effects.counter_spell``): its first legal target,
        # if that is a spell (its only one, 601.2c), leaves the stack for its owner's
        # graveyard, a group of its own (701.6a, 404.1), before this spell goes there (608.2n)
        position: Val = NONE
        for ok, spell in reversed(list(zip(legal, obj.target_spell, strict=True))):
            position = ite(ok, spell, position)
        hit = ge(position, 0)
        kind, who = stack.counter_at(w, position, hit, "stack.counter")
        if not w.mutant(Mutant.COUNTERED_SPELL_VANISHES):  # mutant: put nowhere
            to_graveyard(
                w, who, and_(hit, eq(kind, ordinal(StackKind.SPELL))), "zone.spell-to-graveyard"
            )

    by_kind: dict[EffectKind, Callable[[SymWork], None]] = {
        EffectKind.COUNTER_SPELL: counter,
        EffectKind.DAMAGE: damage,
        EffectKind.DAMAGE_EACH_CREATURE: damage_each,
        EffectKind.DESTROY: destroy_targets,
        EffectKind.DESTROY_ALL_CREATURES: destroy_all,
        EffectKind.REGENERATE: for_cards(lambda w, i: _regenerate(w, obj, i)),
        EffectKind.PUMP: for_cards(lambda w, i: modify_pt(w, i, obj.power, obj.toughness)),
        EffectKind.UNREGENERABLE: for_cards(make_unregenerable),
        EffectKind.COUNTERS: for_cards(lambda w, i: add_counters(w, i, obj.counter, obj.amount)),
        EffectKind.LIFE: life,
        EffectKind.DRAIN: drain,
        EffectKind.MAY_DRAW: may_draw,
        EffectKind.MAY_GAIN: may_gain,
        EffectKind.MILL: mill_then_draw,
        EffectKind.WHEN_YOU_DO: lambda w: when_you_do(w, obj),
        EffectKind.FLICKER: for_cards(
            lambda w, i: leave_and_return(w, i, ite(obj.under_you, ctrl, NONE))
        ),
        EffectKind.GAIN_CONTROL: for_cards(lambda w, i: _gain_control(w, i, obj)),
        EffectKind.ANIMATE: for_cards(types.become_creature),
        EffectKind.PREVENT: for_cards(lambda w, i: add_prevention(w, i, obj.amount)),
        EffectKind.PREVENT_ALL: for_cards(prevent_all),
        EffectKind.PHASE_OUT: for_cards(phasing.phase_out),
        EffectKind.ATTACH: for_cards(lambda w, j: _equip(w, obj, j)),
        EffectKind.REMOVE_DAMAGE_INSTEAD: for_cards(remove_damage_next),
    }
    _dispatch(w, kind, list(by_kind.items()))


# The target rule of the model's one trigger whose target is chosen as it goes on the stack
# (Go-Shintai's reflexive trigger, 603.3d; ``engine.effects.CHOSEN_ON_STACK``).
CHOSEN_ON_STACK = TargetRule.TOUGHNESS_SHRINES


def when_you_do(w: SymWork, obj: StackVars) -> None:
    """ "You may pay {1}. When you do, destroy target creature with toughness X or less, where
    X is the number of Shrines you control" resolves (``engine.effects.when_you_do``): the
    pass's ``decline`` is its controller's "I don't pay" (608.2d); paying makes a reflexive
    trigger trigger at once (603.12), with the source of this ability and, as controller, the
    player who controlled this ability as it resolves (603.7e), no target yet: it is chosen as
    it goes on the stack (``trigger_target``, 603.3d). Mutants: ``reflexive-by-source-
    controller`` (the source's controller now), ``reflexive-inline`` (the destruction done now,
    its target chosen now)."""
    declined = w.p.decline
    paid = not_(declined)
    # declining makes nothing; the write changes nothing and records the rule
    key = w.f.pending_size
    w.set_if(declined, key, w[key], "trigger.reflexive")
    who = obj.controller
    if w.mutant(Mutant.REFLEXIVE_BY_SOURCE_CONTROLLER):
        who = select(obj.source, [controller(w, j) for j in range(w.n)], obj.controller)
    rule = ordinal(CHOSEN_ON_STACK)
    if w.mutant(Mutant.REFLEXIVE_INLINE):
        gets, _ = trigger_target(w, rule, who, paid)
        t = w.rtarget
        for i in range(w.n):
            w.branch(
                and_(gets, eq(t, i)),
                partial(destroy, i=i, cant_regen=False, by_effect=True, clause="destroy.effect"),
            )
        return
    reflexive = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=who,
        effect=ordinal(EffectKind.DESTROY),
        target_rule=rule,
        source=obj.source,
        source_gen=obj.source_gen,
    )
    at = w[w.f.pending_size]  # where the push puts it
    stack.push(w, "pending", reflexive, "trigger.reflexive", when=paid)
    w.reflexive_at = ite(paid, at, NONE)
    # it goes on the stack in this same step (``stack.triggers``): this write changes nothing
    # and records the rule on its source
    for j in range(w.n):
        gen = w.c(j).gen
        w.set_if(and_(paid, eq(obj.source, j)), gen, w[gen], "trigger.reflexive")


def trigger_target(w: SymWork, rule: Val, player: Val, needs: Val) -> tuple[Val, Val]:
    """603.3d (``engine.effects.trigger_target``): where ``needs`` holds, a triggered ability
    with the target rule ``rule`` (an ordinal) controlled by ``player`` chooses its target now,
    among the permanents on the battlefield meeting the rule now: the pass's ``rtarget``, which
    must be one of them when there is one (guard ``stack.trigger-target``). Returns whether it
    gets a target (with none legal it is removed, 603.3d) and that target's incarnation."""
    legal = [and_(on_battlefield(w, i), meets_target_needs(w, i, rule, player)) for i in range(w.n)]
    some = or_(*legal)
    t = w.rtarget
    named = or_(*[and_(eq(t, i), legal[i]) for i in range(w.n)])
    w.require(implies(and_(needs, some), named), "stack.trigger-target")
    return and_(needs, some), select(t, [w[w.c(i).gen] for i in range(w.n)], 0)


def draw_may(w: SymWork, q: int, count: Val, when: Val) -> None:
    """Where ``when`` holds, player ``q`` may draw ``count`` cards (Fecundity's trigger): the
    pass's ``decline`` is their answer (608.2d); drawing is allowed with an empty library
    (121.3) (``engine.effects.may_draw``)."""
    if w.skip(when):
        return
    hand = w.f.players[q].hand
    # declined: nothing is drawn, whatever the library holds
    w.set_if(and_(when, w.p.decline), hand, w[hand], "draw.may")
    draw(w, q, count, and_(when, not_(w.p.decline)))


def gain_may(w: SymWork, q: int, life: Val, when: Val) -> None:
    """Where ``when`` holds, player ``q`` may gain ``life`` life (Judge of Currents' trigger,
    its controller): the pass's ``decline`` is their answer, made as it resolves (608.2d);
    declining leaves the life total as it was (``engine.effects.may_gain``); the mutant
    ``may-gain-ignores-decline`` gains whatever the answer."""
    if w.skip(when):
        return
    key = w.f.players[q].life
    declined: Val = False if w.mutant(Mutant.MAY_GAIN_IGNORES_DECLINE) else w.p.decline
    # declined: the write changes nothing and records the rule
    w.set_if(and_(when, declined), key, w[key], "trigger.creature-tapped")
    w.set_if(and_(when, not_(declined)), key, add(w[key], life), "stack.resolve")


def mill(w: SymWork, q: int, count: Val, when: Val) -> None:
    """Where ``when`` holds, player ``q`` mills ``count`` cards (701.17a): as many as the
    library holds, if fewer (701.17b), leave it for the graveyard, where they are one new group
    (404.3: put there at once; a library card has no identity, so the group is counted, not
    named: ``PlayerVars.gy_size``). No loss for a short library (704.5b reads draws only);
    the mutant ``mill-short-library-loses`` records one (``engine.effects.mill``)."""
    if w.skip(when):
        return
    pv = w.f.players[q]
    library = w[pv.library]
    moved = ite(le(count, library), count, library)
    w.set_if(when, pv.library, sub(library, moved), "mill.cards")
    to_graveyard(w, q, and_(when, gt(moved, 0)), "mill.cards")
    short = and_(when, gt(count, library))
    if w.mutant(Mutant.MILL_SHORT_LIBRARY_LOSES):
        w.set_if(short, pv.drew_empty, True, "mill.short-library")  # mutant
    else:
        # 701.17b: the rest is not milled, and nothing else happens (the write changes nothing;
        # it labels the step with the rule)
        w.set_if(short, pv.library, w[pv.library], "mill.short-library")


def draw(w: SymWork, q: int, count: Val, when: Val) -> None:
    """Where ``when`` holds, player ``q`` draws ``count`` cards one at a time (121.1, 121.2):
    as many as the library holds move to the hand; if it held fewer, the player attempted a
    draw from an empty library, remembered for the next check (121.4, 704.5b;
    ``engine.effects.draw``)."""
    if w.skip(when):
        return
    pv = w.f.players[q]
    library = w[pv.library]
    moved = ite(le(count, library), count, library)
    w.set_if(when, pv.library, sub(library, moved), "draw.card")
    w.set_if(when, pv.hand, add(w[pv.hand], moved), "draw.card")
    w.set_if(and_(when, gt(count, library)), pv.drew_empty, True, "draw.empty-library")


def remove_damage_next(w: SymWork, i: int) -> None:
    """Pyramids: one more "the next time it would be destroyed this turn, remove all damage
    marked on it instead" effect on card ``i``, its legal target (614.1a, 614.5, 608.2b;
    applied by ``destruction``; ``engine.effects.remove_damage_next``)."""
    c = w.c(i)
    w.set(c.remove_damage, add(w[c.remove_damage], 1), "replace.remove-damage")


def _target_unregenerable(w: SymWork, i: int, aimed: Val, gen: Val) -> None:
    """Disintegrate's "if it's a creature, it can't be regenerated this turn" on card ``i``
    when ``aimed`` (its legal target is ``i``): still that object and a creature, whatever the
    damage did (608.2c, 615.6; ``engine.effects.target_unregenerable``)."""
    c = w.c(i)
    cond = and_(aimed, eq(w[c.gen], gen), creature_on_battlefield(w, i), not_(w[c.cant_regen]))
    w.set_if(cond, c.cant_regen, True, "cant-regen.damage-target")


def _target_exiled_if_dies(w: SymWork, i: int, aimed: Val, gen: Val) -> None:
    """Disintegrate's "if it would die this turn, exile it instead" on card ``i`` when
    ``aimed``: still that object and a creature, whatever the damage did (608.2c, 615.6,
    614.6; applied by ``zones.move_zone``; ``engine.effects.target_exiled_if_dies``)."""
    c = w.c(i)
    cond = and_(aimed, eq(w[c.gen], gen), creature_on_battlefield(w, i), not_(w[c.exile_if_dies]))
    w.set_if(cond, c.exile_if_dies, True, "replace.exile-instead")


def _gain_for_destroyed(
    w: SymWork, obj: StackVars, victims: list[Val], gens: list[Val], reached: list[Val]
) -> None:
    """Fumigate: the effect's controller gains ``amount`` for each victim the destruction put
    into the graveyard (a new object now); one a replacement saved or an indestructible one
    was not destroyed (701.8a, 614.6; the mutant ``regenerated-counted-as-destroyed`` counts
    every victim a destruction reached)."""
    loose = w.mutant(Mutant.REGENERATED_COUNTED_AS_DESTROYED)
    counted = [
        and_(
            victims[i],
            or_(
                ne(w[w.c(i).gen], gens[i]),
                ne(w[w.c(i).ghost.destructions], reached[i]) if loose else False,
            ),
        )
        for i in range(w.n)
    ]
    gained = add(*[ite(k, obj.amount, 0) for k in counted]) if counted else 0
    for q in range(w.ctx.scope.players):
        key = w.f.players[q].life
        cond = and_(eq(obj.controller, q), ne(gained, 0))
        w.set_if(cond, key, add(w[key], gained), "destroy.counted")


def _equip(w: SymWork, obj: StackVars, target: int) -> None:
    """Equip resolves: its source, if still that object, is attached to ``target``."""

    def source(w: SymWork, i: int) -> None:
        w.branch(
            eq(w[w.c(i).gen], obj.source_gen),
            lambda w: attach(w, i, target, "attach.equip"),
        )

    on_slot(w, obj.source, source)


def _gain_control(w: SymWork, i: int, obj: StackVars) -> None:
    """Gain control (613.1b); Act of Treason also untaps it and gives it haste until end of
    turn (the effect's keywords)."""
    change_control(w, i, obj.controller, obj.until_eot, "control.change")
    untap(w, i, "tap.untap", obj.untap)
    for index, k in enumerate(KEYWORDS):
        c = w.c(i)
        gains = obj.keywords[index]
        w.set_if(gains, c.granted(k), True, "keyword.grant")
        w.set_if(gains, c.removed(k), False, "keyword.grant")


def _dispatch(
    w: SymWork, kind: Val, cases: list[tuple[EffectKind, Callable[[SymWork], None]]]
) -> None:
    if not cases:
        return
    (k, run), rest = cases[0], cases[1:]
    w.branch(eq(kind, ordinal(k)), run, lambda w: _dispatch(w, kind, rest))
