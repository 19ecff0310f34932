"""Combat: who deals damage in which step, the legal damage divisions of each rule edition,
and the damage a step deals: the counterpart of ``engine/combat.py``.

The engine lists every legal division (``legal_divisions``); the encoding states membership
in that list as constraints on a division, which is what a relation needs:

* the recipients are distinct, among the attacker's current blockers (and the defending
  player if it has trample, 702.19b), the amounts positive and summing to its power;
* trample: the player gets damage only if every blocker got lethal damage (702.19b);
* M10 (510.1c of 2009-2024): a blocker gets damage only if every blocker before it in the
  damage assignment order got lethal damage; FDN and pre-M10 divide freely.

"Lethal" is toughness minus marked damage, or 1 from a deathtouch source (702.2c). When an
attacker's damage can be divided in only one way, that way is "all of it to the first blocker"
(the first division the engine lists), or to the player for a trampler whose blockers are all
gone (702.19d); ``several_divisions`` says when there is a choice.
"""

from __future__ import annotations

from regen_model.encoding.derived import (
    controller,
    creature_on_battlefield,
    has,
    in_combat,
    on_battlefield,
    power,
    toughness,
)
from regen_model.encoding.effects import Share
from regen_model.encoding.frame import KEYWORDS, NONE
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
    max_,
    ne,
    not_,
    or_,
    sub,
)
from regen_model.encoding.work import SymWork
from regen_model.model.enums import Edition, Keyword, Mutant, ordinal


def dealers(w: SymWork, first_strike_step: bool) -> list[Val]:
    """Per card: it assigns combat damage in this step (510.1, 510.4)."""
    out = []
    for i in range(w.n):
        base = and_(creature_on_battlefield(w, i), in_combat(w, i))
        if first_strike_step:
            out.append(and_(base, strikes_first(w, i)))
        else:
            out.append(
                and_(
                    base,
                    not_(and_(w[w.f.first_strike_step], w[w.c(i).first_striker])),
                )
            )
    return out


def strikes_first(w: SymWork, i: int) -> Val:
    """First strike or double strike (``engine.combat.strikes_first``, 510.4, 702.4b)."""
    return or_(has(w, i, Keyword.FIRST_STRIKE), has(w, i, Keyword.DOUBLE_STRIKE))


def is_blocker(w: SymWork, b: int, a: int) -> Val:
    """``b`` is blocking ``a``: declared blocking it, as its first or (a creature that can
    block an additional creature, 509.1a) its second attacker."""
    if b == a:
        return False
    c = w.c(b)
    return and_(on_battlefield(w, b), or_(eq(w[c.blocking], a), eq(w[c.blocking_also], a)))


def blocks_now(w: SymWork, b: int, a: int) -> Val:
    """Blocker ``b`` blocks ``a`` now: declared blocking it and ``a`` still attacking (510.1d,
    ``derived.blocks_now``)."""
    if b == a:
        return False
    c = w.c(b)
    declared = or_(eq(w[c.blocking], a), eq(w[c.blocking_also], a))
    return and_(declared, on_battlefield(w, a), w[w.c(a).attacking])


def order_pos(w: SymWork, b: int, a: int) -> Val:
    """``b``'s position in attacker ``a``'s damage assignment order (M10), through the field
    of the attacker it blocks as ``a``."""
    c = w.c(b)
    return ite(eq(w[c.blocking_also], a), w[c.order_pos_also], w[c.order_pos])


def ranks_before(w: SymWork, a: int, x: int, y: int) -> Val:
    """Among attacker ``a``'s blockers, ``x`` comes before ``y``: ordered blockers first by
    their place in the damage assignment order, then the others by slot."""
    px, py = order_pos(w, x, a), order_pos(w, y, a)
    return or_(
        and_(ne(px, NONE), or_(eq(py, NONE), lt(px, py))),
        and_(eq(px, NONE), eq(py, NONE), x < y),
    )


def first_blocker(w: SymWork, a: int) -> list[Val]:
    """Per card: it is the first of ``a``'s current blockers."""
    out = []
    for b in range(w.n):
        earlier = [
            and_(is_blocker(w, x, a), ranks_before(w, a, x, b)) for x in range(w.n) if x != b
        ]
        out.append(and_(is_blocker(w, b, a), not_(or_(*earlier))))
    return out


def lethal_for(w: SymWork, b: int, deathtouch: Val) -> Val:
    """Lethal damage for assignment (``engine.combat.lethal_for``)."""
    return ite(deathtouch, 1, max_(0, sub(toughness(w, b), w[w.c(b).damage])))


def lethal_deathtouch(w: SymWork, a: int) -> Val:
    """Attacker ``a``'s deathtouch makes 1 damage lethal (702.2c), except before M10, when
    deathtouch was a trigger and trample looked at toughness only (pre-M10 502.9d)."""
    return and_(ne(w[w.f.edition], ordinal(Edition.PRE_M10)), has(w, a, Keyword.DEATHTOUCH))


def several_divisions(w: SymWork, a: int, m10: Val) -> Val:
    """The attacker's damage can legally be divided in more than one way now."""
    amount = power(w, a)
    blockers = [is_blocker(w, b, a) for b in range(w.n)]
    k = count(blockers)
    deathtouch = lethal_deathtouch(w, a)
    first = first_blocker(w, a)
    lethal_first = add(*[ite(first[b], lethal_for(w, b, deathtouch), 0) for b in range(w.n)])
    trample = has(w, a, Keyword.TRAMPLE)
    over = gt(amount, lethal_first)
    free = ite(trample, or_(ge(k, 2), and_(eq(k, 1), over)), ge(k, 2))
    ordered = ite(trample, over, and_(ge(k, 2), over))
    return and_(gt(amount, 0), ge(k, 1), ite(m10, ordered, free))


def needs_choice(w: SymWork, first_strike_step: bool, m10: Val) -> list[Val]:
    """Per card: an attacker, or a creature blocking two attackers, dealing damage now whose
    division is a choice (``engine.combat.attackers_needing_choice``)."""
    deal = dealers(w, first_strike_step)
    out = []
    for a in range(w.n):
        c = w.c(a)
        attacker = and_(w[c.attacking], w[c.blocked], several_divisions(w, a, m10))
        if w.mutant(Mutant.MULTI_BLOCKER_FIRST_ONLY):
            out.append(and_(deal[a], attacker))
            continue
        blocker = and_(
            not_(w[c.attacking]), ne(w[c.blocking_also], NONE), blocker_several(w, a, m10)
        )
        out.append(and_(deal[a], or_(attacker, blocker)))
    return out


def _blocker_targets(w: SymWork, b: int) -> tuple[list[Val], list[Val], list[Val]]:
    """Per card ``a``: ``b`` blocks it now; it is the first of them in ``b``'s declared order
    (``blocking`` if still attacking, else ``blocking_also``); it is the second."""
    c = w.c(b)
    now = [blocks_now(w, b, a) for a in range(w.n)]
    first_left = or_(*[and_(eq(w[c.blocking], a), now[a]) for a in range(w.n)])
    first = [
        or_(
            and_(eq(w[c.blocking], a), now[a]),
            and_(eq(w[c.blocking_also], a), now[a], not_(first_left)),
        )
        for a in range(w.n)
    ]
    second = [and_(eq(w[c.blocking_also], a), now[a], first_left) for a in range(w.n)]
    return now, first, second


def _blocker_lethal(w: SymWork, b: int, a: int) -> Val:
    """Lethal damage to attacker ``a`` from blocker ``b`` (``engine.combat.lethal_for``)."""
    return lethal_for(w, a, lethal_deathtouch(w, b))


def blocker_several(w: SymWork, b: int, m10: Val) -> Val:
    """Blocker ``b``'s damage can be divided in more than one way now: it blocks two attackers
    still attacking and has power; under M10, more than lethal for the first (510.1d)."""
    now, first, _ = _blocker_targets(w, b)
    amount = power(w, b)
    lethal_first = add(*[ite(first[a], _blocker_lethal(w, b, a), 0) for a in range(w.n)])
    return and_(gt(amount, 0), ge(count(now), 2), implies(m10, gt(amount, lethal_first)))


def blocker_division_legal(w: SymWork, b: int, m10: Val) -> Val:
    """The division given for blocker ``b`` is one of the engine's ``blocker_divisions``:
    distinct recipients among the attackers it blocks now, positive amounts summing to its
    power; under M10 the second gets damage only once the first got lethal damage."""
    p = w.p
    n = w.n
    to, amt = p.div_to[b], p.div_amount[b]
    eff = [gt(x, 0) for x in amt]
    amount = power(w, b)
    now, first, second = _blocker_targets(w, b)
    got = [
        add(*[ite(and_(eff[e], eq(to[e], a)), amt[e], 0) for e in range(len(to))]) for a in range(n)
    ]
    distinct = and_(
        *[
            not_(and_(eff[e], eff[f], eq(to[e], to[f])))
            for e in range(len(to))
            for f in range(e + 1, len(to))
        ]
    )
    allowed = and_(
        *[
            implies(eff[e], or_(*[and_(eq(to[e], a), now[a]) for a in range(n)]))
            for e in range(len(to))
        ]
    )
    total = add(*[ite(eff[e], amt[e], 0) for e in range(len(to))])
    order_ok = and_(
        *[
            implies(
                and_(second[a], gt(got[a], 0)),
                and_(*[implies(first[x], ge(got[x], _blocker_lethal(w, b, x))) for x in range(n)]),
            )
            for a in range(n)
        ]
    )
    n_eff = count(eff)
    with_targets = and_(distinct, allowed, eq(total, amount), implies(m10, order_ok))
    return ite(or_(le(amount, 0), not_(or_(*now))), eq(n_eff, 0), with_targets)


def division_legal(w: SymWork, a: int, m10: Val) -> Val:
    """The division given for attacker ``a`` (parameters ``div_to``/``div_amount``) is one of
    the engine's ``legal_divisions``."""
    p = w.p
    n = w.n
    player = n  # recipient code of the defending player
    to, amt = p.div_to[a], p.div_amount[a]
    eff = [gt(x, 0) for x in amt]  # the engine drops entries of 0 or less
    amount = power(w, a)
    trample = has(w, a, Keyword.TRAMPLE)
    deathtouch = lethal_deathtouch(w, a)
    blockers = [is_blocker(w, b, a) for b in range(n)]
    k = count(blockers)
    got = [
        add(*[ite(and_(eff[e], eq(to[e], r)), amt[e], 0) for e in range(len(to))])
        for r in range(n + 1)
    ]
    lethal = [lethal_for(w, b, deathtouch) for b in range(n)]
    distinct = and_(
        *[
            not_(and_(eff[e], eff[f], eq(to[e], to[f])))
            for e in range(len(to))
            for f in range(e + 1, len(to))
        ]
    )
    allowed = and_(
        *[
            implies(
                eff[e],
                or_(
                    *[and_(eq(to[e], b), blockers[b]) for b in range(n)],
                    and_(trample, eq(to[e], player)),
                ),
            )
            for e in range(len(to))
        ]
    )
    total = add(*[ite(eff[e], amt[e], 0) for e in range(len(to))])
    trample_ok = implies(
        gt(got[player], 0), and_(*[implies(blockers[b], ge(got[b], lethal[b])) for b in range(n)])
    )
    order_ok = and_(
        *[
            implies(
                and_(blockers[b], gt(got[b], 0)),
                and_(
                    *[
                        implies(and_(blockers[x], ranks_before(w, a, x, b)), ge(got[x], lethal[x]))
                        for x in range(n)
                        if x != b
                    ]
                ),
            )
            for b in range(n)
        ]
    )
    n_eff = count(eff)
    with_blockers = and_(distinct, allowed, eq(total, amount), trample_ok, implies(m10, order_ok))
    without = ite(
        trample,
        and_(eq(n_eff, 1), eq(got[player], amount)),
        eq(n_eff, 0),
    )
    return ite(
        le(amount, 0),
        eq(n_eff, 0),
        ite(eq(k, 0), without, with_blockers),
    )


def planned_shares(w: SymWork, first_strike_step: bool) -> list[tuple[int, int, Share]]:
    """All combat damage of this step, in the engine's order (dealers by slot; a division in
    its given order), as (source slot, recipient code, share); recipient ``n`` is the
    defending player."""
    n = w.n
    p = w.p
    deal = dealers(w, first_strike_step)
    defending = sub(1, w[w.f.active])
    out: list[tuple[int, int, Share]] = []
    for i in range(n):
        c = w.c(i)
        amount = power(w, i)
        kws = tuple(has(w, i, k) for k in KEYWORDS)
        ctrl = controller(w, i)
        dealing = and_(deal[i], gt(amount, 0))
        attacking = w[c.attacking]
        blocked = w[c.blocked]
        unblocked = and_(dealing, attacking, not_(blocked))
        # a blocker: its chosen division (510.1d), unless the mutant ignores the second one
        blocking_dealer = and_(dealing, not_(attacking))
        two = ne(w[c.blocking_also], NONE)
        first_only = w.mutant(Mutant.MULTI_BLOCKER_FIRST_ONLY)
        b_chosen = and_(blocking_dealer, p.div[i], not_(two) if first_only else True)
        chosen = or_(and_(dealing, attacking, blocked, p.div[i]), b_chosen)
        default = and_(dealing, attacking, blocked, not_(p.div[i]))
        blockers = [is_blocker(w, b, i) for b in range(n)]
        first = first_blocker(w, i)
        trample = has(w, i, Keyword.TRAMPLE)
        nobody = not_(or_(*blockers))
        # the player: unblocked, or the default division of a trampler with no blockers left
        to_player = or_(unblocked, and_(default, nobody, trample))
        out.append((i, n, Share(to_player, kws, ctrl, amount, NONE, 0, defending, i)))
        for b in range(n):
            out.append(
                (
                    i,
                    b,
                    Share(and_(default, first[b]), kws, ctrl, amount, b, w[w.c(b).gen], NONE, i),
                )
            )
        for e in range(n + 1):
            to, amt = p.div_to[i][e], p.div_amount[i][e]
            live = and_(chosen, gt(amt, 0))
            for r in range(n + 1):
                share = Share(
                    and_(live, eq(to, r)),
                    kws,
                    ctrl,
                    amt,
                    r if r < n else NONE,
                    w[w.c(r).gen] if r < n else 0,
                    defending if r == n else NONE,
                    i,
                )
                out.append((i, r, share))
        # a blocker without a chosen division deals all its damage to the first attacker it
        # blocks now (the engine's first division), or with the mutant to ``blocking`` only
        now, first_target, _ = _blocker_targets(w, i)
        b_default = and_(blocking_dealer, not_(b_chosen))
        for a in range(n):
            if a == i:
                continue
            gets = and_(eq(w[c.blocking], a), now[a]) if first_only else first_target[a]
            hits = and_(b_default, gets)
            out.append((i, a, Share(hits, kws, ctrl, amount, a, w[w.c(a).gen], NONE, i)))
    return out


def any_first_strike(w: SymWork) -> Val:
    return or_(
        *[and_(on_battlefield(w, i), in_combat(w, i), strikes_first(w, i)) for i in range(w.n)]
    )


def sick(w: SymWork, i: int) -> Val:
    """302.6: it came under its controller's control this turn and has no haste (702.10b)."""
    if w.mutant(Mutant.SUMMONING_SICKNESS_IGNORED):
        return False
    return and_(w[w.c(i).sick], not_(has(w, i, Keyword.HASTE)))


def can_attack(w: SymWork) -> Val:
    """Some creature of the active player may be declared as an attacker (``engine.combat
    .may_attack``)."""
    active = w[w.f.active]
    return or_(
        *[
            and_(
                creature_on_battlefield(w, i),
                eq(controller(w, i), active),
                not_(w[w.c(i).tapped]),
                not_(has(w, i, Keyword.DEFENDER)),
                not_(sick(w, i)),
            )
            for i in range(w.n)
        ]
    )


def can_block(w: SymWork) -> Val:
    defending = sub(1, w[w.f.active])
    return or_(
        *[
            and_(
                creature_on_battlefield(w, i),
                eq(controller(w, i), defending),
                not_(w[w.c(i).tapped]),
            )
            for i in range(w.n)
        ]
    )


def needs_order(w: SymWork) -> list[Val]:
    """M10: attackers with two or more blockers and no damage assignment order yet."""
    return [
        and_(
            w[w.c(a).attacking],
            not_(w[w.c(a).ordered]),
            ge(count([is_blocker(w, b, a) for b in range(w.n)]), 2),
        )
        for a in range(w.n)
    ]
