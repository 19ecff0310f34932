"""Triggered abilities that wait for a permanent's status to change: the counterpart of
``engine/triggers.py`` (603.2e; the Basilisk's "destroy that creature at end of combat",
509.1i, 603.7, 511.2; Go-Shintai of Hidden Cruelty's "at the beginning of your end step",
513.1, whose reflexive trigger ``effects`` makes, 603.12). "When this creature dies" is
pushed by ``zones.move_zone`` (``zones.push_dies_trigger``, with ``push_life_trigger``),
damage triggers by ``effects``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from regen_model.encoding import stack
from regen_model.encoding.derived import controller, on_battlefield
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import Val, add, and_, eq, gt, implies, ite, le, not_, or_, sub
from regen_model.encoding.work import SymWork, Watcher
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import DiesWatch, Mutant, StackKind, ordinal


def push_life_trigger(
    w: SymWork,
    i: int,
    who: Val,
    gen: Val,
    life: Val,
    gainer: Val | None,
    clause: str,
    when: Val,
    kind: EffectKind = EffectKind.LIFE,
) -> None:
    """Where ``when`` holds, a triggered ability of card ``i`` (incarnation ``gen``, the object
    it triggered from) whose effect is "``gainer`` gains ``life`` life" waits to be put on the
    stack, controlled by ``who`` (``engine.triggers.life_trigger``, 603.3, 603.3a); with
    ``kind`` ``DRAIN`` and no ``gainer``, "each opponent loses ``life`` life and you gain
    ``life`` life", untargeted."""
    if w.skip(when):
        return
    obj = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=who,
        effect=ordinal(kind),
        amount=life,
        targets=() if gainer is None else ((NONE, 0, gainer),),
        source=i,
        source_gen=gen,
    )
    stack.push(w, "pending", obj, clause, when=when)


def watcher_now(w: SymWork, j: int) -> Watcher:
    """Card ``j`` as a watcher of deaths now: on the battlefield (phased in), its controller,
    its incarnation."""
    return Watcher(on_battlefield(w, j), controller(w, j), w[w.c(j).gen])


@contextmanager
def simultaneous(w: SymWork, destroying: Sequence[Val] | None = None) -> Iterator[None]:
    """The writes made inside are one event (``engine.work.Work.simultaneous``: one check of
    state-based actions, 704.3; "destroy all creatures", 608.2f): the watchers of deaths are
    read as it began (603.10a), and so are the questions of each destruction in it
    (``SymWork.event_start``). ``destroying``: whether the event destroys each slot."""
    saved = w.before, w.start, w.destroying
    w.before = tuple(watcher_now(w, j) for j in range(w.n))
    w.start = w.snapshot()
    w.destroying = (False,) * w.n if destroying is None else tuple(destroying)
    w.begin_together()  # such events never nest: one group per graveyard (404.3)
    try:
        yield
    finally:
        w.before, w.start, w.destroying = saved
        w.end_together()


def creature_dies_triggers(w: SymWork, i: int, dying: Watcher, attacking: Val, when: Val) -> None:
    """Card ``i`` dies where ``when`` holds (700.4), ``dying`` its controller and incarnation
    as it last existed on the battlefield and ``attacking`` whether it was attacking then
    (603.10a): each card's "whenever a creature ... dies, each opponent loses N life and you
    gain N life" that watches it triggers, in slot order, controlled by the watcher's
    controller (603.3a); the watchers are read as the event began, itself as ``dying``
    (``engine.triggers.creature_dies_triggers``). A watcher whose effect is a draw
    (Fecundity, ``dies_draw``) makes ``_dies_draw_trigger``'s ability instead."""
    for j in range(w.n):
        st = w.st(j)
        maybe = and_(when, or_(gt(st.dies_drain, 0), gt(st.dies_draw, 0)))
        if w.skip(maybe):
            continue
        if j == i:
            seen = dying  # 603.10a: its own death, from the object as it last existed
        elif w.before is None or w.mutant(Mutant.DYING_OBSERVER_MISSES_DEATHS):
            seen = watcher_now(w, j)  # outside an event; or the mutant's watcher read now
        else:
            seen = w.before[j]
        fires = and_(maybe, seen.on_battlefield)
        watch = st.dies_watch
        creature = and_(
            fires,
            or_(
                eq(watch, ordinal(DiesWatch.ANY)),
                and_(eq(watch, ordinal(DiesWatch.YOURS)), eq(dying.controller, seen.controller)),
            ),
        )
        attacker = and_(fires, eq(watch, ordinal(DiesWatch.ATTACKING)), attacking)
        draws = gt(st.dies_draw, 0)
        _dies_draw_trigger(w, j, i, seen, dying, and_(or_(creature, attacker), draws))
        creature = and_(creature, not_(draws))
        attacker = and_(attacker, not_(draws))
        for clause, cond in (
            ("trigger.creature-dies", creature),
            ("trigger.attacking-dies", attacker),
        ):
            push_life_trigger(
                w,
                j,
                seen.controller,
                seen.gen,
                st.dies_drain,
                None,
                clause,
                cond,
                EffectKind.DRAIN,
            )


def _dies_draw_trigger(
    w: SymWork, j: int, i: int, seen: Watcher, dying: Watcher, when: Val
) -> None:
    """Where ``when`` holds, card ``j``'s "whenever a creature dies, that creature's
    controller may draw N cards" (Fecundity) triggers for card ``i``'s death: controlled by
    the watcher's controller (603.3a), the player named the dying creature's controller as
    it last existed (603.10a), or under the mutant ``dies-draw-by-owner`` its owner
    (``engine.triggers.dies_draw_trigger``)."""
    if w.skip(when):
        return
    chooser = w.st(i).owner if w.mutant(Mutant.DIES_DRAW_BY_OWNER) else dying.controller
    obj = stack.entry(
        w,
        kind=StackKind.TRIGGER,
        controller=seen.controller,
        effect=ordinal(EffectKind.MAY_DRAW),
        amount=w.st(j).dies_draw,
        # mutant ``dies-draw-nobody``: no player named, so it resolves drawing nothing (PH-31)
        targets=() if w.mutant(Mutant.DIES_DRAW_NOBODY) else ((NONE, 0, chooser),),
        source=j,
        source_gen=seen.gen,
    )
    stack.push(w, "pending", obj, "trigger.dies-draw", when=when)


def tapped_trigger(w: SymWork, i: int, when: Val, by_regeneration: bool = False) -> None:
    """Card ``i`` has just become tapped where ``when`` holds (``by_regeneration``: by a
    regeneration's tap, 701.19a): its "whenever this creature becomes tapped, target opponent
    gains N life" triggers (``engine.triggers``), controlled by its controller now (603.3a),
    targeting that player's opponent; then ``watched_taps``."""
    st = w.st(i)
    fires = and_(when, gt(st.tapped_opponent_life, 0))
    if not w.skip(fires):
        who = controller(w, i)
        life = st.tapped_opponent_life
        push_life_trigger(w, i, who, w[w.c(i).gen], life, sub(1, who), "trigger.tapped", fires)
    watched_taps(w, i, when, by_regeneration)


def watched_taps(w: SymWork, i: int, when: Val, by_regeneration: bool) -> None:
    """Card ``i`` has just become tapped where ``when`` holds: each card's "whenever a Merfolk
    you control becomes tapped, you may gain N life" (Judge of Currents) triggers where card
    ``i`` is a Merfolk (205.3m) controlled by the watcher's controller and the watcher is on
    the battlefield (phased in), itself included; in slot order, controlled by the watcher's
    controller (603.3a), that player the one who may gain, answering as it resolves (608.2d,
    ``EffectKind.MAY_GAIN``; ``engine.triggers.watched_taps``). The
    mutant ``regen-tap-misses-watchers`` skips them for a regeneration's tap."""
    if by_regeneration and w.mutant(Mutant.REGEN_TAP_MISSES_WATCHERS):
        return  # mutant: the regeneration's tap is no "becomes tapped" for the watchers
    merfolk = and_(when, w.st(i).merfolk)
    if w.skip(merfolk):
        return
    tapped_by = controller(w, i)
    for j in range(w.n):
        st = w.st(j)
        fires = and_(
            merfolk,
            gt(st.tapped_watch_life, 0),
            on_battlefield(w, j),
            eq(controller(w, j), tapped_by),
        )
        who = controller(w, j)
        life = st.tapped_watch_life
        gen = w[w.c(j).gen]
        clause = "trigger.creature-tapped"
        push_life_trigger(w, j, who, gen, life, who, clause, fires, EffectKind.MAY_GAIN)


def block_destroy_triggers(w: SymWork, blocks: list[Val], also: list[Val]) -> None:
    """Blockers have just been declared, card ``b`` blocking ``blocks[b]`` and ``also[b]``
    (``NONE`` for none): each block with a Basilisk on one side and a non-Wall creature on
    the other gives the other a delayed "destroy it at end of combat" (509.1i, 603.7,
    ``engine.triggers.block_destroy_triggers``): one per block, controlled by the defending
    player when the Basilisk blocks, by the active player when it attacks."""
    active = w[w.f.active]
    defending = sub(1, active)
    basilisk = [w.st(i).destroys_combatants for i in range(w.n)]
    for x in range(w.n):
        c = w.c(x)
        # blocks where x is the attacker and its blocker is a Basilisk
        as_attacker = add(
            *[
                ite(and_(eq(a, x), basilisk[b]), 1, 0)
                for b in range(w.n)
                if b != x
                for a in (blocks[b], also[b])
            ]
        )
        # blocks where x is the blocker and the attacker it blocks is a Basilisk
        as_blocker = add(
            *[
                ite(and_(eq(a, y), basilisk[y]), 1, 0)
                for a in (blocks[x], also[x])
                for y in range(w.n)
                if y != x
            ]
        )
        nonwall = not_(w.st(x).wall)
        hit_att = and_(nonwall, gt(as_attacker, 0))
        hit_blk = and_(nonwall, gt(as_blocker, 0))
        if w.skip(hit_att) and w.skip(hit_blk):
            continue
        count = add(w[c.eoc_destroy], ite(hit_att, as_attacker, 0), ite(hit_blk, as_blocker, 0))
        w.set_if(hit_att, c.eoc_destroy, count, "trigger.eoc-destroy")
        w.set_if(hit_att, c.eoc_destroy_by, defending, "trigger.eoc-destroy")
        w.set_if(hit_blk, c.eoc_destroy, count, "trigger.eoc-destroy")
        w.set_if(hit_blk, c.eoc_destroy_by, active, "trigger.eoc-destroy")


def end_of_combat_triggers(w: SymWork) -> None:
    """The end of combat step begins (511.2): each delayed "destroy it at end of combat"
    triggers once (603.7b), in slot order, its target the object it refers to (603.7c), and
    is gone (``engine.triggers.end_of_combat_triggers``). The waiting list holds at most
    ``scope.pending`` of them: more do not fit the scope."""
    cap = w.ctx.scope.pending
    for i in range(w.n):
        c = w.c(i)
        count = w[c.eoc_destroy]
        some = gt(count, 0)
        if w.skip(some):
            continue
        w.require(implies(some, le(count, cap)), "scope:pending")
        gen = w[c.gen]
        obj = stack.entry(
            w,
            kind=StackKind.TRIGGER,
            controller=w[c.eoc_destroy_by],
            effect=ordinal(EffectKind.DESTROY),
            target_rule=ordinal(TargetRule.NONE),
            targets=((i, gen, NONE),),
        )
        for k in range(cap):
            stack.push(w, "pending", obj, "trigger.eoc-destroy", when=gt(count, k))
        w.set_if(some, c.eoc_destroy, 0, "trigger.eoc-destroy")
        w.set_if(some, c.eoc_destroy_by, NONE, "trigger.eoc-destroy")


def end_step_triggers(w: SymWork) -> None:
    """The end step begins (513.1): each card's "At the beginning of your end step, you may
    pay {1}. When you do, ..." (Go-Shintai of Hidden Cruelty) triggers when it is on the
    battlefield (phased in) and the active player controls it, in slot order, controlled by
    that player (603.3a), untargeted (``engine.triggers.end_step_triggers``)."""
    active = w[w.f.active]
    for i in range(w.n):
        fires = and_(w.st(i).end_step_reflexive, on_battlefield(w, i), eq(controller(w, i), active))
        if w.skip(fires):
            continue
        gen = w.c(i).gen
        obj = stack.entry(
            w,
            kind=StackKind.TRIGGER,
            controller=active,
            effect=ordinal(EffectKind.WHEN_YOU_DO),
            source=i,
            source_gen=w[gen],
        )
        stack.push(w, "pending", obj, "trigger.end-step", when=fires)
        # the waiting list is emptied onto the stack in the same step (``stack.triggers``):
        # this write changes nothing and records the rule on the source
        w.set_if(fires, gen, w[gen], "trigger.end-step")
