"""Priority, the stack and the progress of a turn: the counterpart of ``engine/turn.py``
(117, 500-514, 608).

One difference of form, not of meaning: the engine's ``give_priority`` (run the 704.3 loop,
then a player gets priority) is always the last thing a step does, so here it only records
the player (``SymWork.prio_to``) and ``finish`` runs the loop once at the end of the step,
after all branches have merged, instead of once per branch of the relation.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from regen_model.encoding import combat as cb
from regen_model.encoding import stack
from regen_model.encoding.attachments import equip_still_legal
from regen_model.encoding.derived import (
    controller,
    creature_on_battlefield,
    has,
    in_battlefield_zone,
    in_combat,
    is_creature,
    on_battlefield,
    sba_pending,
)
from regen_model.encoding.effects import (
    Share,
    apply_effect,
    deal_damage,
    legal_card_target,
    same_object,
)
from regen_model.encoding.frame import KEYWORDS, NONE, StackVars
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    eq,
    ge,
    gt,
    implies,
    ite,
    lt,
    ne,
    not_,
    or_,
    sub,
)
from regen_model.encoding.phasing import untap_step_phasing
from regen_model.encoding.sba import cleanup_effects, run_sba_loop
from regen_model.encoding.triggers import (
    block_destroy_triggers,
    end_of_combat_triggers,
    end_step_triggers,
    tapped_trigger,
)
from regen_model.encoding.work import SymWork
from regen_model.encoding.zones import to_graveyard
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import Decision, Edition, Keyword, Mutant, StackKind, Step, ordinal

PLAYERS = 2
STEP = {s: ordinal(s) for s in Step}
EDITION_CLAUSE = {
    Edition.PRE_M10: "combat.edition.pre-m10",
    Edition.M10: "combat.edition.m10",
    Edition.FDN: "combat.edition.fdn",
}


def is_m10(w: SymWork) -> Val:
    return eq(w[w.f.edition], ordinal(Edition.M10))


def give_priority(w: SymWork, player: Val) -> None:
    """117.5: (deferred to ``finish``) state-based actions, triggers, then priority."""
    w.prio_to = player


def finish(w: SymWork) -> None:
    """The deferred ``give_priority`` of the step, if any."""
    target = w.prio_to

    def give(w: SymWork) -> None:
        run_sba_loop(w, check_sba=not w.mutant(Mutant.NO_SBA_BEFORE_PRIORITY))
        w.set(w.f.priority, target, "priority.receive")
        w.set(w.f.decision, ordinal(Decision.NONE), "priority.receive")
        w.out["priority_given"][0] = True

    w.branch(ne(target, NONE), give)


def pass_priority(w: SymWork) -> None:
    f = w.f
    player = w.p.player
    # read only by a trigger whose target is chosen as it goes on the stack (603.3d)
    w.rtarget = w.p.target
    w.require(eq(w[f.priority], player), "priority.pass")
    for q in range(PLAYERS):
        w.set(f.passed[q], or_(w[f.passed[q]], eq(player, q)), "priority.pass")
    everyone = and_(*[w[f.passed[q]] for q in range(PLAYERS)])

    def all_passed(w: SymWork) -> None:
        for q in range(PLAYERS):
            w.set(f.passed[q], False, "priority.pass")
        w.set(f.priority, NONE, "priority.pass")

        def resolve(w: SymWork) -> None:
            resolve_top(w)
            give_priority(w, w[f.active])  # 117.3b

        w.branch(gt(w[f.stack_size], 0), resolve, end_step)

    w.branch(everyone, all_passed, lambda w: give_priority(w, sub(1, player)))


def resolve_top(w: SymWork) -> None:
    """608.2: the top object resolves; pre-M10 combat damage is dealt as assigned."""
    obj = stack.top(w)
    stack.pop(w, "stack.resolve")
    w.branch(
        eq(obj.kind, ordinal(StackKind.COMBAT_DAMAGE)),
        lambda w: _resolve_combat_damage(w, obj),
        lambda w: _resolve_spell(w, obj),
    )


def _resolve_combat_damage(w: SymWork, obj: StackVars) -> None:
    """Pre-M10 combat damage resolves: each source deals its damage as it is now, or as it
    last existed if it has left the battlefield (pre-M10 310.4b)."""
    n = w.n
    shares = []
    for s in range(n):
        left = obj.hit_left[s]
        kws = tuple(
            ite(left, obj.hit_keywords[s][index], has(w, s, k)) for index, k in enumerate(KEYWORDS)
        )
        who = ite(left, obj.hit_ctrl[s], controller(w, s))
        for r in range(n + 1):
            amount = obj.hits[s][r]
            shares.append(
                Share(
                    gt(amount, 0),
                    kws,
                    who,
                    amount,
                    r if r < n else NONE,
                    obj.hit_gen[r] if r < n else 0,
                    sub(1, w[w.f.active]) if r == n else NONE,
                    s,
                )
            )
    deal_damage(w, shares, combat=True, cant_regen=False)


def _resolve_spell(w: SymWork, obj: StackVars) -> None:
    """608.2b: each target is checked against the whole of the object's target rule, for its
    controller (``engine.turn.resolve_top``); if every target is illegal it does nothing."""
    legal = []
    equip = eq(obj.effect, ordinal(EffectKind.ATTACH))  # and 702.6a for equip's target
    for j in range(len(obj.target_card)):
        card, gen = obj.target_card[j], obj.target_gen[j]
        # a spell target: still on the stack (608.2b; ``engine.effects.illegal_target``)
        spell = obj.target_spell[j]
        is_spell = ne(spell, NONE)
        spell_ok = and_(ge(spell, 0), lt(spell, w[w.f.stack_size]))
        # the object's own rule first, then equip's 702.6a on top of it, as the engine
        # checks them (a solver-chosen equip with another rule must not pass it by)
        ok = and_(
            lt(j, obj.n_targets),
            ite(
                is_spell,
                spell_ok,
                or_(
                    ne(obj.target_player[j], NONE),
                    legal_card_target(w, card, gen, obj.target_rule, obj.controller),
                ),
            ),
            or_(
                not_(equip),
                and_(
                    eq(obj.target_player[j], NONE),
                    equip_still_legal(w, obj.source, card, gen, obj.controller),
                ),
            ),
        )
        legal.append(ok)
        _note_illegal(w, card, gen, obj.target_rule, and_(lt(j, obj.n_targets), not_(ok)))
        # its target spell was countered since (the engine's notes; the writes change nothing)
        gone = and_(lt(j, obj.n_targets), is_spell, not_(spell_ok))
        key = w.f.stack_size
        w.set_if(gone, key, w[key], "stack.target-legality")
        w.set_if(gone, key, w[key], "stack.counter")
    fizzles = and_(gt(obj.n_targets, 0), not_(or_(*legal)))  # 608.2b
    # 608.2n: a spell goes to its owner's graveyard as the last part of its resolution, and
    # one that does not resolve goes there too (608.2b; ``engine.turn.spell_to_graveyard``)
    spell = eq(obj.kind, ordinal(StackKind.SPELL))
    first = w.mutant(Mutant.SPELL_TO_GRAVEYARD_FIRST)

    def resolves(w: SymWork) -> None:
        if first:  # mutant: before its instructions are followed
            to_graveyard(w, obj.controller, spell, "zone.spell-to-graveyard")
        apply_effect(w, obj, legal)
        if not first:
            to_graveyard(w, obj.controller, spell, "zone.spell-to-graveyard")

    def does_not(w: SymWork) -> None:
        to_graveyard(w, obj.controller, spell, "zone.spell-to-graveyard")

    w.branch(fizzles, does_not, resolves)


def _note_illegal(w: SymWork, card: Val, gen: Val, rule: Val, illegal: Val) -> None:
    """Records 608.2b where a card target is found illegal while its object is still on the
    battlefield (its target rule no longer holds: the engine's ``stack.target-legality``
    note). The write changes nothing; it labels the step with the rule."""
    for i in range(w.n):
        here = and_(illegal, same_object(w, i, card, gen))
        key = w.c(i).gen
        w.set_if(here, key, w[key], "stack.target-legality")
        # the illegality is its combat or tap status (``engine.turn.resolve_top``'s note)
        # (a creature still: a target no longer one is noted as that, its first unmet part)
        status = and_(
            creature_on_battlefield(w, i),
            or_(
                and_(eq(rule, ordinal(TargetRule.ATTACKING_CREATURE)), not_(w[w.c(i).attacking])),
                and_(eq(rule, ordinal(TargetRule.UNTAPPED_CREATURE)), w[w.c(i).tapped]),
            ),
        )
        w.set_if(and_(here, status), key, w[key], "stack.target-status")


# --- steps ----------------------------------------------------------------------------------


def end_step(w: SymWork) -> None:
    """The current step ends (500.2) and the next begins."""
    current = w[w.f.step]  # read once: each branch changes the step
    for s in Step:
        w.branch(eq(current, STEP[s]), partial(_end, s=s))


def _untap(w: SymWork, key: str) -> None:
    w.set(key, False, "turn.untap")


def _mark_ordered(w: SymWork, y: int, clause: str) -> None:
    w.set(w.c(y).ordered, True, clause)


def _end(w: SymWork, s: Step) -> None:
    if s is Step.END_COMBAT:
        _clear_combat(w, "combat.end", cards=True)  # 511.3
    if s is Step.CLEANUP:
        begin_step(w, Step.CLEANUP)  # 514.3a: another cleanup step
        return
    if s is Step.DECLARE_ATTACKERS:
        attacking = or_(*[w[w.c(i).attacking] for i in range(w.n)])
        w.branch(
            attacking,
            lambda w: begin_step(w, Step.DECLARE_BLOCKERS),
            lambda w: begin_step(w, Step.END_COMBAT),  # 508.8
        )
        return
    if s is Step.DECLARE_BLOCKERS:
        w.branch(
            cb.any_first_strike(w),
            lambda w: begin_step(w, Step.FIRST_STRIKE_DAMAGE),
            lambda w: begin_step(w, Step.COMBAT_DAMAGE),
        )
        return
    following = {
        Step.UNTAP: Step.UPKEEP,
        Step.UPKEEP: Step.DRAW,
        Step.DRAW: Step.MAIN1,
        Step.MAIN1: Step.BEGIN_COMBAT,
        Step.BEGIN_COMBAT: Step.DECLARE_ATTACKERS,
        Step.FIRST_STRIKE_DAMAGE: Step.COMBAT_DAMAGE,
        Step.COMBAT_DAMAGE: Step.END_COMBAT,
        Step.END_COMBAT: Step.MAIN2,
        Step.MAIN2: Step.END,
        Step.END: Step.CLEANUP,
    }
    begin_step(w, following[s])


def _clear_combat(w: SymWork, clause: str, *, cards: bool) -> None:
    """Forget the combat bookkeeping (``Combat()``), and with ``cards`` every creature's
    attacking/blocking status too."""
    f = w.f
    w.set(f.first_strike_step, False, clause)
    w.set(f.declared, False, clause)
    for i in range(w.n):
        c = w.c(i)
        w.set(c.first_striker, False, clause)
        w.set(c.ordered, False, clause)
        w.set(c.order_pos, NONE, clause)
        w.set(c.order_pos_also, NONE, clause)
        if cards:
            w.set(c.attacking, False, clause)
            w.set(c.blocking, NONE, clause)
            w.set(c.blocking_also, NONE, clause)
            w.set(c.blocked, False, clause)


def next_turn(w: SymWork) -> None:
    f = w.f
    w.set(f.turn, add(w[f.turn], 1), "turn.steps")
    w.set(f.active, sub(1, w[f.active]), "turn.steps")
    _clear_combat(w, "turn.steps", cards=False)
    # 302.6: what the new active player controls now has been theirs since this turn began
    active = w[f.active]
    for i in range(w.n):
        key = w.c(i).sick
        here = in_battlefield_zone(w, i)  # phased out too: phasing changes no control (702.26d)
        mine = and_(w[key], here, eq(controller(w, i), active))
        w.set_if(mine, key, False, "combat.summoning-sickness")
    begin_step(w, Step.UNTAP)


def begin_step(w: SymWork, s: Step) -> None:
    f = w.f
    w.set(f.step, STEP[s], "turn.steps")
    w.set(f.priority, NONE, "turn.steps")
    for q in range(PLAYERS):
        w.set(f.passed[q], False, "turn.steps")
    if s is Step.UNTAP:
        untap_step_phasing(w)  # 502.1: phasing first, before anything untaps
        active = w[f.active]
        for i in range(w.n):
            c = w.c(i)
            w.branch(
                and_(on_battlefield(w, i), w[c.tapped], eq(controller(w, i), active)),
                partial(_untap, key=c.tapped),  # 502.3
            )
        begin_step(w, Step.UPKEEP)  # 502.4: nobody gets priority in the untap step
    elif s is Step.DECLARE_ATTACKERS:
        w.branch(
            cb.can_attack(w),
            lambda w: w.set(
                f.decision, ordinal(Decision.DECLARE_ATTACKERS), "combat.declare-attackers"
            ),
            lambda w: _declare_attackers(w, [False] * w.n, "combat.no-attackers"),
        )
    elif s is Step.DECLARE_BLOCKERS:
        w.branch(
            cb.can_block(w),
            lambda w: w.set(
                f.decision, ordinal(Decision.DECLARE_BLOCKERS), "combat.declare-blockers"
            ),
            lambda w: _declare_blockers(w, [NONE] * w.n, [NONE] * w.n),
        )
    elif s in (Step.FIRST_STRIKE_DAMAGE, Step.COMBAT_DAMAGE):
        _begin_damage_step(w, s is Step.FIRST_STRIKE_DAMAGE)
    elif s is Step.END_COMBAT:
        end_of_combat_triggers(w)  # 511.2: "at end of combat" triggers as the step begins
        give_priority(w, w[f.active])
    elif s is Step.END:
        end_step_triggers(w)  # 513.1: "at the beginning of your end step" triggers
        give_priority(w, w[f.active])
    elif s is Step.CLEANUP:
        cleanup_effects(w)
        w.branch(
            or_(sba_pending(w), gt(w[f.pending_size], 0)),
            lambda w: give_priority(w, w[f.active]),  # 514.3a
            next_turn,
        )
    else:
        give_priority(w, w[f.active])  # 117.3a


# --- combat ----------------------------------------------------------------------------------


def slot_has(w: SymWork, slot: Val, prop: list[Val]) -> Val:
    """The card that ``slot`` names has the property (``prop`` per card)."""
    return or_(*[and_(eq(slot, i), prop[i]) for i in range(w.n)])


def declare_attackers(w: SymWork) -> None:
    f = w.f
    p = w.p
    active = w[f.active]
    clause = "combat.declare-attackers"
    w.require(
        and_(eq(w[f.decision], ordinal(Decision.DECLARE_ATTACKERS)), eq(p.player, active)), clause
    )
    ok = [
        and_(
            on_battlefield(w, i),
            is_creature(w, i),
            eq(controller(w, i), active),
            not_(w[w.c(i).tapped]),  # 508.1a
            not_(has(w, i, Keyword.DEFENDER)),  # 702.3b
        )
        for i in range(w.n)
    ]
    healthy = [not_(cb.sick(w, i)) for i in range(w.n)]  # 302.6, 702.10b
    for k, s in enumerate(p.seq):
        w.require(implies(ne(s, NONE), slot_has(w, s, ok)), clause)
        w.require(implies(ne(s, NONE), slot_has(w, s, healthy)), "combat.summoning-sickness")
        for s2 in p.seq[k + 1 :]:
            w.require(not_(and_(ne(s, NONE), eq(s, s2))), clause)
    chosen = [or_(*[eq(s, i) for s in p.seq]) for i in range(w.n)]
    _declare_attackers(w, chosen, clause)


def _declare_attackers(w: SymWork, chosen: list[Val], clause: str) -> None:
    for i in range(w.n):

        def attack(w: SymWork, i: int = i) -> None:
            c = w.c(i)
            w.set(c.attacking, True, "combat.declare-attackers")
            w.set(c.tapped, True, "combat.declare-attackers")
            w.bump("other_taps", i)
            tapped_trigger(w, i, True)

        w.branch(chosen[i], attack)
    w.set(w.f.declared, True, clause)
    w.set(w.f.decision, ordinal(Decision.NONE), clause)
    give_priority(w, w[w.f.active])


def declare_blockers(w: SymWork) -> None:
    f = w.f
    p = w.p
    defending = sub(1, w[f.active])
    clause = "combat.declare-blockers"
    w.require(
        and_(eq(w[f.decision], ordinal(Decision.DECLARE_BLOCKERS)), eq(p.player, defending)),
        clause,
    )
    w.require(not_(p.malformed), clause)
    attacking = [and_(on_battlefield(w, a), w[w.c(a).attacking]) for a in range(w.n)]
    for b, (a, a2) in enumerate(zip(p.blocks, p.blocks_also, strict=True)):
        ok = and_(
            on_battlefield(w, b),
            is_creature(w, b),
            eq(controller(w, b), defending),
            not_(w[w.c(b).tapped]),  # 509.1a
            slot_has(w, a, attacking),
        )
        w.require(implies(ne(a, NONE), ok), clause)
        # a second attacker: only with "can block an additional creature" (509.1a, 101.1),
        # attacking, and not the first one again
        second = and_(w.st(b).extra_block, slot_has(w, a2, attacking), ne(a2, a))
        w.require(implies(ne(a2, NONE), second), "combat.block-additional")
    _declare_blockers(w, list(p.blocks), list(p.blocks_also))


def _declare_blockers(w: SymWork, blocks: list[Val], also: list[Val]) -> None:
    clause = "combat.declare-blockers"
    for b, a in enumerate(blocks):
        w.branch(ne(a, NONE), partial(_block, b=b, a=a, clause=clause))
    for b, a in enumerate(also):
        w.branch(ne(a, NONE), partial(_block_also, b=b, a=a))
    block_destroy_triggers(w, blocks, also)  # 509.1i
    w.set(w.f.decision, ordinal(Decision.NONE), clause)

    def m10_orders(w: SymWork) -> None:
        # 509.2 (2009-2024): an attacker with one blocker has that order; several need one
        for a in range(w.n):
            declared = or_(*[eq(x, a) for x in (*blocks, *also)])
            mine = [cb.is_blocker(w, b, a) for b in range(w.n)]
            single = eq(add(*[ite(m, 1, 0) for m in mine]), 1)

            def order_one(w: SymWork, a: int = a, mine: list[Val] = mine) -> None:
                w.set(w.c(a).ordered, True, "combat.edition.m10")
                for b in range(w.n):
                    c = w.c(b)
                    via_also = eq(w[c.blocking_also], a)
                    for key, here in ((c.order_pos, not_(via_also)), (c.order_pos_also, via_also)):
                        w.set(key, ite(and_(mine[b], here), 0, w[key]), "combat.edition.m10")

            w.branch(and_(declared, single), order_one)
        w.branch(
            or_(*cb.needs_order(w)),
            lambda w: w.set(w.f.decision, ordinal(Decision.ORDER_BLOCKERS), "combat.edition.m10"),
            lambda w: give_priority(w, w[w.f.active]),
        )

    w.branch(is_m10(w), m10_orders, lambda w: give_priority(w, w[w.f.active]))


def _block(w: SymWork, b: int, a: Val, clause: str) -> None:
    w.set(w.c(b).blocking, a, clause)
    for x in range(w.n):
        key = w.c(x).blocked
        w.set(key, or_(w[key], eq(a, x)), clause)


def _block_also(w: SymWork, b: int, a: Val) -> None:
    """Its second attacker (``Card.blocking_also``), which becomes blocked too (509.1h)."""
    clause = "combat.block-additional"
    w.set(w.c(b).blocking_also, a, clause)
    for x in range(w.n):
        key = w.c(x).blocked
        w.set(key, or_(w[key], eq(a, x)), clause)


def order_blockers(w: SymWork) -> None:
    f = w.f
    p = w.p
    clause = "combat.edition.m10"
    w.require(is_m10(w), clause)
    w.require(
        and_(eq(w[f.decision], ordinal(Decision.ORDER_BLOCKERS)), eq(p.player, w[f.active])),
        clause,
    )
    a = p.target
    w.require(slot_has(w, a, cb.needs_order(w)), clause)
    for k, s in enumerate(p.seq):
        for s2 in p.seq[k + 1 :]:
            w.require(not_(and_(ne(s, NONE), eq(s, s2))), clause)
    for x in range(w.n):
        blocks_a = or_(*[and_(eq(a, y), cb.is_blocker(w, x, y)) for y in range(w.n)])
        listed = or_(*[eq(s, x) for s in p.seq])
        w.require(eq(blocks_a, listed), clause)
    for y in range(w.n):
        w.branch(eq(a, y), partial(_mark_ordered, y=y, clause=clause))
    for x in range(w.n):
        # its place in a's order, in the field of the attacker it blocks as a
        c = w.c(x)
        for key, blk in ((c.order_pos, c.blocking), (c.order_pos_also, c.blocking_also)):
            pos = w[key]
            for k, s in enumerate(p.seq):
                pos = ite(and_(eq(s, x), eq(w[blk], a)), k, pos)
            w.set(key, pos, clause)
    w.branch(
        or_(*cb.needs_order(w)),
        lambda w: None,
        lambda w: _orders_done(w),
    )


def _orders_done(w: SymWork) -> None:
    w.set(w.f.decision, ordinal(Decision.NONE), "combat.edition.m10")
    give_priority(w, w[w.f.active])


def _begin_damage_step(w: SymWork, first_strike: bool) -> None:
    if first_strike:
        # 510.4: the creatures with first strike as the step begins
        for i in range(w.n):
            c = w.c(i)
            w.set(
                c.first_striker,
                and_(in_combat(w, i), cb.strikes_first(w, i)),
                "combat.damage.first-strike",
            )
        w.set(w.f.first_strike_step, True, "combat.damage.first-strike")
    else:
        _strike_again(w)
    needing = cb.needs_choice(w, first_strike, is_m10(w))
    w.branch(
        or_(*needing),
        lambda w: w.set(
            w.f.decision, ordinal(Decision.ASSIGN_COMBAT_DAMAGE), "combat.damage.assign"
        ),
        lambda w: _assign_and_deal(w, first_strike),
    )


def _strike_again(w: SymWork) -> None:
    """702.4b-d: as the regular step begins, the first strikers still in combat with double
    strike now leave ``first_striker`` and deal damage again (``engine.turn._strike_again``)."""
    for i in range(w.n):
        c = w.c(i)
        again = and_(
            w[w.f.first_strike_step],
            w[c.first_striker],
            on_battlefield(w, i),
            in_combat(w, i),
            has(w, i, Keyword.DOUBLE_STRIKE),
        )
        w.set_if(again, c.first_striker, False, "combat.damage.double-strike")


def assign_combat_damage(w: SymWork) -> None:
    f = w.f
    p = w.p
    clause = "combat.damage.assign"
    w.require(
        and_(
            eq(w[f.decision], ordinal(Decision.ASSIGN_COMBAT_DAMAGE)),
            eq(p.player, w[f.active]),
        ),
        clause,
    )
    w.require(not_(p.malformed), clause)
    w.branch(
        eq(w[f.step], STEP[Step.FIRST_STRIKE_DAMAGE]),
        lambda w: _assign(w, True),
        lambda w: _assign(w, False),
    )


def _assign(w: SymWork, first_strike: bool) -> None:
    p = w.p
    m10 = is_m10(w)
    dealers = cb.dealers(w, first_strike)
    needing = cb.needs_choice(w, first_strike, m10)
    edition = w[w.f.edition]
    for a in range(w.n):
        c = w.c(a)
        # an attacker's division (510.1c) or a two-attacker blocker's (510.1d)
        divides = or_(w[c.attacking], ne(w[c.blocking_also], NONE))
        w.require(implies(p.div[a], and_(dealers[a], divides)), "combat.damage.assign")
        legal = implies(and_(p.div[a], w[c.attacking]), cb.division_legal(w, a, m10))
        w.require(
            implies(and_(p.div[a], not_(w[c.attacking])), cb.blocker_division_legal(w, a, m10)),
            "combat.damage.multi-blocker",
        )
        for e, clause in EDITION_CLAUSE.items():
            w.require(implies(eq(edition, ordinal(e)), legal), clause)
            w.require(implies(eq(edition, ordinal(e)), implies(needing[a], p.div[a])), clause)
    w.set(w.f.decision, ordinal(Decision.NONE), "combat.damage.assign")
    _assign_and_deal(w, first_strike)


def _assign_and_deal(w: SymWork, first_strike: bool) -> None:
    planned = cb.planned_shares(w, first_strike)
    active = w[w.f.active]

    def deal_now(w: SymWork) -> None:  # M10 and FDN: dealt at once (510.2)
        deal_damage(w, [s for _, _, s in planned], combat=True, cant_regen=False)
        give_priority(w, active)

    def on_stack(w: SymWork) -> None:  # pre-M10: the assignment uses the stack (310.4)
        n = w.n
        hits = [
            [
                add(*[ite(s.present, s.amount, 0) for src, r, s in planned if (src, r) == (i, j)])
                for j in range(n + 1)
            ]
            for i in range(n)
        ]
        hit_any = [or_(*[s.present for src, r, s in planned if r == j]) for j in range(n + 1)]
        src_any = [or_(*[s.present for src, r, s in planned if src == i]) for i in range(n)]
        entry = replace(
            stack.entry(w, kind=StackKind.COMBAT_DAMAGE, controller=active),
            hits=tuple(tuple(row) for row in hits),
            hit_gen=tuple(ite(hit_any[j], w[w.c(j).gen], 0) for j in range(n)),
        )
        if w.mutant(Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT):
            # the keywords as assigned, as if every source had already left (310.4b ignored)
            entry = replace(
                entry,
                hit_keywords=tuple(
                    tuple(and_(src_any[i], has(w, i, k)) for k in KEYWORDS) for i in range(n)
                ),
                hit_left=tuple(src_any),
                hit_ctrl=tuple(ite(src_any[i], controller(w, i), 0) for i in range(n)),
            )
        w.branch(
            or_(*src_any),
            lambda w: stack.push(w, "stack", entry, "combat.edition.pre-m10"),
        )
        give_priority(w, active)

    w.branch(eq(w[w.f.edition], ordinal(Edition.PRE_M10)), on_stack, deal_now)


def require_priority(w: SymWork, clause: str) -> None:
    """Only the player holding priority casts, activates or passes (117.1)."""
    w.require(eq(w[w.f.priority], w.p.player), clause)
