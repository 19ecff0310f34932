"""Zone changes, removal from combat and control changes: the counterpart of
``engine/zones.py`` (400.7, 506.4, 509.2a of the M10 era, 613.1b).

Each rule takes ``when``: the condition under which the engine would call it here. Its
writes are conditional (``SymWork.set_if``) instead of a branch, which keeps the symbolic
relation small; on concrete values ``when`` is a plain bool and nothing changes.
"""

from __future__ import annotations

from regen_model.encoding.derived import (
    controller,
    creature_on_battlefield,
    has,
    in_combat,
    is_creature,
    on_battlefield,
)
from regen_model.encoding.derived import controller as controller_of
from regen_model.encoding.frame import KEYWORDS, NONE, ShieldVars
from regen_model.encoding.ops import Val, add, and_, b2i, eq, gt, ite, ne, not_, or_, sub
from regen_model.encoding.triggers import creature_dies_triggers, push_life_trigger
from regen_model.encoding.work import SymWork, Watcher
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Mutant, StackKind, Zone, ordinal


def remove_from_combat(w: SymWork, i: int, clause: str, when: Val = True) -> None:
    """506.4: no longer attacking, blocking or blocked (only if it was). A creature it
    blocked stays blocked (509.1h); a creature that blocked it (and perhaps another attacker,
    combat.removal.multi-blocked) keeps naming it but no longer blocks it (``blocks_now``).
    M10 orders (frame: ``ordered`` per attacker, ``order_pos``/``order_pos_also`` per blocker
    and attacker it blocks): it leaves every order, later blockers move up one place, and its
    own order is gone."""
    c = w.c(i)
    go = and_(when, or_(in_combat(w, i), w[c.blocked]))
    if w.skip(go):
        return
    # the orders it was in: as a blocker of ``blocking`` and of ``blocking_also``
    left = ((w[c.blocking], w[c.order_pos]), (w[c.blocking_also], w[c.order_pos_also]))
    refile = and_(go, or_(*[w[w.c(j).ordered] for j in range(w.n)]))
    w.set_if(go, c.attacking, False, clause)
    w.set_if(go, c.blocking, NONE, clause)
    # a creature blocking two attackers: both stay blocked, it blocks neither
    two = and_(go, ne(w[c.blocking_also], NONE))
    w.set_if(two, c.blocking_also, NONE, "combat.removal.multi-blocked")
    w.set_if(go, c.blocked, False, clause)
    if w.mutant(Mutant.EOC_DESTROY_NEEDS_COMBAT):
        # mutant: leaving combat ends "destroy it at end of combat" (``engine.zones``)
        w.set_if(go, c.eoc_destroy, 0, "trigger.eoc-destroy")
        w.set_if(go, c.eoc_destroy_by, NONE, "trigger.eoc-destroy")
    if w.skip(refile):
        return
    w.set_if(refile, c.ordered, False, clause)
    w.set_if(refile, c.order_pos, NONE, clause)
    w.set_if(refile, c.order_pos_also, NONE, clause)
    for j in range(w.n):
        if j == i:
            continue
        cj = w.c(j)
        for blk_key, pos_key in (
            (cj.blocking, cj.order_pos),
            (cj.blocking_also, cj.order_pos_also),
        ):
            blk, pos = w[blk_key], w[pos_key]
            mine = eq(blk, i)  # it blocked the removed attacker: that order is gone
            later = or_(
                *[
                    and_(ne(old_pos, NONE), eq(blk, old_blk), gt(pos, old_pos))
                    for old_blk, old_pos in left
                ]
            )
            w.set_if(and_(refile, mine), pos_key, NONE, clause)
            w.set_if(and_(refile, not_(mine), later), pos_key, sub(pos, 1), clause)


ShieldValue = tuple[Val, Val, Val, Val, Val]  # present, used, rider, creator, via


def compact(w: SymWork, shields: tuple[ShieldVars, ...], keep: list[Val]) -> list[ShieldValue]:
    """The shields whose ``keep`` holds, in order, packed from slot 0 (the others gone)."""
    kept: list[ShieldValue] = []
    for slot in range(len(shields)):
        present: Val = False
        used: Val = False
        rider: Val = 0
        creator: Val = 0
        via: Val = NONE
        # slot ``slot`` receives shield j when j is kept and ``slot`` shields before it are
        for j in range(slot, len(shields)):
            take = and_(keep[j], eq(add(*[b2i(keep[x]) for x in range(j)]), slot))
            present = or_(present, take)
            used = ite(take, w[shields[j].used], used)
            rider = ite(take, w[shields[j].rider], rider)
            creator = ite(take, w[shields[j].creator], creator)
            via = ite(take, w[shields[j].via], via)
        kept.append((present, used, rider, creator, via))
    return kept


def write_shields(
    w: SymWork, shields: tuple[ShieldVars, ...], values: list[ShieldValue], clause: str, when: Val
) -> None:
    for s, (present, used, rider, creator, via) in zip(shields, values, strict=True):
        w.set_if(when, s.present, present, clause)
        w.set_if(when, s.used, used, clause)
        w.set_if(when, s.rider, rider, clause)
        w.set_if(when, s.creator, creator, clause)
        w.set_if(when, s.via, via, clause)


SHIELDS_STAY = "attach.shields-stay"


def made_by(w: SymWork, j: int, item: int) -> list[Val]:
    """Which shield slots of card ``j`` hold an unused shield ``item``'s ability made."""
    return [and_(w[s.present], not_(w[s.used]), eq(w[s.via], item)) for s in w.c(j).shields]


def drop_shields_made_by(w: SymWork, item: int, when: Val) -> None:
    """Mutant ``shield-on-attachment``: ``item`` leaves its host (it leaves the battlefield or
    falls off, 704.5n) and the unused shields it made for the host go with it
    (``engine.attachments.shields_when_leaving``)."""
    host = w[w.c(item).attached_to]
    for j in range(w.n):
        if j == item:
            continue
        shields = w.c(j).shields
        keep = [
            and_(w[s.present], not_(m)) for s, m in zip(shields, made_by(w, j, item), strict=True)
        ]
        write_shields(w, shields, compact(w, shields, keep), SHIELDS_STAY, and_(when, eq(host, j)))


def keep_unused_shields(w: SymWork, i: int, clause: str, when: Val = True) -> None:
    """Card ``i``'s shields become its unused ones, packed from slot 0 (the mutants that let
    shields survive cleanup or a zone change)."""
    shields = w.c(i).shields
    keep = [and_(w[s.present], not_(w[s.used])) for s in shields]
    write_shields(w, shields, compact(w, shields, keep), clause, when)


# The clauses of the moves to the graveyard that are a destruction's (``destruction.destroy``);
# the same set as ``engine.zones.DESTRUCTION_MOVES`` (mutant ``exile-instead-only-if-destroyed``).
DESTRUCTION_MOVES = frozenset({"zone.new-object", "replace.exile-instead"})


def dies_exiled(w: SymWork, i: int) -> Val:
    """A move of card ``i`` to the graveyard now is a death that its "if it would die this
    turn, exile it instead" replaces: a creature on the battlefield with the effect (700.4)."""
    return and_(w[w.c(i).exile_if_dies], creature_on_battlefield(w, i))


def move_zone(
    w: SymWork, i: int, to: Zone, clause: str, when: Val = True, controller: Val = NONE
) -> None:
    """A new object in zone ``to`` (400.7): every changing field back to its default, under
    its owner's control (or ``controller``'s, when the effect puts it onto the battlefield
    under that player's control, 110.2a); on the battlefield it is summoning sick (302.6) and
    has the +1/+1 counters it enters with (614.1c); attachments to it end (704.5m takes the
    Aura later). Stack objects that need the old object's last known information take it first
    (``record_lki``). The ``shield-follows-zone-change`` mutant keeps the unused shields
    through any zone change. Leaving combat is ``remove_from_combat``'s alone (506.4), so the
    relation cites ``combat.removal`` for it in every edition (resetting the combat fields here
    too would make that write dead: the cover check found it)."""
    if w.skip(when):
        return
    c = w.c(i)
    was_bf = on_battlefield(w, i)
    # 614.6, 700.4: "if it would die this turn, exile it instead" replaces a creature's move
    # to the graveyard from the battlefield, whatever causes it (``engine.zones.move_zone``)
    exiled = and_(dies_exiled(w, i), to is Zone.GRAVEYARD)
    if w.mutant(Mutant.EXILE_ONLY_IF_DESTROYED) and clause not in DESTRUCTION_MOVES:
        exiled = False  # mutant: only a destruction's move is replaced
    # 700.4, 603.10a: it dies (put into the graveyard, so not when exiled instead), read from
    # the object as it last existed on the battlefield
    died = and_(when, was_bf, not_(exiled), is_creature(w, i)) if to is Zone.GRAVEYARD else False
    dies = and_(died, gt(w.st(i).dies_life, 0))
    dies_controller = controller_of(w, i)
    attacking = w[c.attacking]  # 603.10a: "an attacking creature dies", before leaving combat
    record_lki(w, i, and_(when, was_bf))
    if w.mutant(Mutant.SHIELD_ON_ATTACHMENT):
        drop_shields_made_by(w, i, and_(when, was_bf))
    remove_from_combat(w, i, "combat.removal", and_(when, was_bf, in_combat(w, i)))
    if w.mutant(Mutant.SHIELD_FOLLOWS_ZONE_CHANGE):
        keep_unused_shields(w, i, clause, when)
    else:
        for s in c.shields:
            w.set_if(when, s.present, False, clause)
            w.set_if(when, s.used, False, clause)
            w.set_if(when, s.rider, 0, clause)
            w.set_if(when, s.creator, 0, clause)
            w.set_if(when, s.via, NONE, clause)
    entering = to is Zone.BATTLEFIELD
    owner = w.st(i).owner
    gen = w[c.gen]
    w.set_if(and_(when, not_(exiled)), c.zone, ordinal(to), clause)
    w.set_if(and_(when, exiled), c.zone, ordinal(Zone.EXILE), "replace.exile-instead")
    w.set_if(when, c.gen, add(w[c.gen], 1), clause)
    if to is Zone.GRAVEYARD:
        # 404.1, 400.3: on top of its owner's graveyard, unless exiled instead (614.6)
        to_graveyard(w, owner, and_(when, not_(exiled)), "zone.graveyard-order", i)
    if entering and not (type(controller) is int and controller == NONE):
        named = and_(when, ne(controller, NONE), ne(controller, owner))
        w.set_if(and_(when, not_(named)), c.control, owner, clause)
        w.set_if(named, c.control, controller, "zone.return-control")
    else:
        w.set_if(when, c.control, owner, clause)
    w.set_if(when, c.sick, entering, clause)
    enters_plus = w.st(i).enters_plus if entering else 0
    w.set_if(and_(when, gt(enters_plus, 0)), c.plus, enters_plus, "zone.enters-with-counters")
    w.set_if(and_(when, not_(gt(enters_plus, 0))), c.plus, 0, clause)
    for key, default in (
        (c.control_eot, NONE),
        (c.tapped, False),
        (c.damage, 0),
        (c.deathtouched, False),
        (c.minus, 0),
        (c.shield_counters, 0),
        (c.prevent_next, 0),
        (c.prevent_all, False),
        (c.power_eot, 0),
        (c.toughness_eot, 0),
        (c.cant_regen, False),
        (c.exile_if_dies, False),
        (c.remove_damage, 0),
        (c.animated, False),
        (c.noncreature, False),
        (c.phased_out, NONE),
        (c.eoc_destroy, 0),  # 400.7, 603.7c: the delayed trigger's object is gone
        (c.eoc_destroy_by, NONE),
        (c.attached_to, NONE),
        (c.ghost.shields_made, 0),
        (c.ghost.destructions, 0),
        (c.ghost.by_shield, 0),
        (c.ghost.by_static, 0),
        (c.ghost.by_other, 0),
    ):
        w.set_if(when, key, default, clause)
    for key in (*c.kw_granted, *c.kw_removed):
        w.set_if(when, key, False, clause)
    w.bump("left", i, when=and_(when, was_bf))
    push_dies_trigger(w, i, dies_controller, gen, dies)
    if w.mutant(Mutant.ATTACKING_READ_AFTER_MOVE):
        attacking = w[c.attacking]  # mutant: read from the new object
    creature_dies_triggers(w, i, Watcher(True, dies_controller, gen), attacking, died)
    if entering:
        w.bump("returned", i, when=when)
    for j in range(w.n):
        if j != i:
            cj = w.c(j)
            w.set_if(
                and_(when, was_bf, eq(w[cj.attached_to], i)),
                cj.attached_to,
                NONE,
                "zone.new-object",
            )


def to_graveyard(w: SymWork, owner: Val, when: Val, clause: str, slot: int | None = None) -> None:
    """``engine.work.Work.to_graveyard``: where ``when``, a card slot (``slot``) or a spell
    (``slot`` None) is put on top of ``owner``'s graveyard (404.1): a new group, the owner's
    ``gy_size`` one more, unless the current event (``SymWork.together``) already opened one
    there (404.3); the slot's ``gy_pos`` is that group's position."""
    if w.skip(when):
        return
    opened = list(w.gy_open) if w.together else [False] * len(w.f.players)
    sizes: list[Val] = []
    for p, pv in enumerate(w.f.players):
        mine = and_(when, eq(owner, p))
        w.set_if(and_(mine, not_(opened[p])), pv.gy_size, add(w[pv.gy_size], 1), clause)
        sizes.append(w[pv.gy_size])
        opened[p] = or_(opened[p], mine)
    if w.together:
        w.gy_open = opened
    if slot is not None:
        pos = sizes[-1]
        for p in range(len(sizes) - 2, -1, -1):
            pos = ite(eq(owner, p), sizes[p], pos)
        w.set_if(when, w.c(slot).gy_pos, pos, clause)


def push_dies_trigger(w: SymWork, i: int, who: Val, gen: Val, when: Val) -> None:
    """ "When this creature dies, you gain N life" triggers (``engine.zones.dies_trigger``):
    controlled by ``who``, the creature's controller as it last existed (603.3a, 603.10a),
    its source the old object (incarnation ``gen``)."""
    push_life_trigger(w, i, who, gen, w.st(i).dies_life, who, "trigger.dies", when)


def record_lki(w: SymWork, i: int, when: Val) -> None:
    """Card ``i`` is about to leave the battlefield (``when``): stack objects that need its
    last known information keep it (``engine.zones.record_lki``): a trigger's damage keeps its
    keywords; pre-M10 combat damage its keywords and controller, once."""
    if w.skip(when):
        return
    kws = [has(w, i, k) for k in KEYWORDS]
    gen = w[w.c(i).gen]
    who = controller(w, i)
    trigger, combat = ordinal(StackKind.TRIGGER), ordinal(StackKind.COMBAT_DAMAGE)
    damage = ordinal(EffectKind.DAMAGE)
    for area, size_key in (("stack", w.f.stack_size), ("pending", w.f.pending_size)):
        slots = w.f.stack if area == "stack" else w.f.pending
        for j, sv in enumerate(slots):
            present = and_(when, gt(w[size_key], j))
            if w.skip(present):
                continue
            mine = and_(
                present,
                eq(w[sv.kind], trigger),
                eq(w[sv.source], i),
                eq(w[sv.source_gen], gen),
                eq(w[sv.effect], damage),
            )
            for key, k in zip(sv.keywords, kws, strict=True):
                w.set_if(and_(mine, k), key, True, "stack.resolve")
            dealt = or_(*[gt(w[h], 0) for h in sv.hits[i]])
            first = and_(present, eq(w[sv.kind], combat), dealt, not_(w[sv.hit_left[i]]))
            for key, k in zip(sv.hit_keywords[i], kws, strict=True):
                w.set_if(first, key, k, "combat.edition.pre-m10")
            w.set_if(first, sv.hit_left[i], True, "combat.edition.pre-m10")
            w.set_if(first, sv.hit_ctrl[i], who, "combat.edition.pre-m10")


def change_control(
    w: SymWork, i: int, player: Val, until_eot: Val, clause: str, when: Val = True
) -> Val:
    """A control-changing effect (layer 2); returns whether the controller changed. A
    creature in combat whose controller changes is removed from combat (506.4)."""
    c = w.c(i)
    before = controller(w, i)
    w.set_if(when, c.control_eot, ite(until_eot, player, NONE), clause)
    w.set_if(when, c.control, ite(until_eot, w[c.control], player), clause)
    changed = and_(when, ne(controller(w, i), before))
    w.set_if(changed, c.sick, True, "combat.summoning-sickness")  # 302.6
    remove_from_combat(w, i, "control.change", changed)
    return changed
