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
    return and_(on_battlefield(w, b), eq(w[w.c(b).blocking], a)) if b != a else False


def ranks_before(w: SymWork, x: int, y: int) -> Val:
    """Among one attacker's blockers, ``x`` comes before ``y``: ordered blockers first by
    their place in the damage assignment order, then the others by slot."""
    px, py = w[w.c(x).order_pos], w[w.c(y).order_pos]
    return or_(
        and_(ne(px, NONE), or_(eq(py, NONE), lt(px, py))),
        and_(eq(px, NONE), eq(py, NONE), x < y),
    )


def first_blocker(w: SymWork, a: int) -> list[Val]:
    """Per card: it is the first of ``a``'s current blockers."""
    out = []
    for b in range(w.n):
        earlier = [and_(is_blocker(w, x, a), ranks_before(w, x, b)) for x in range(w.n) if x != b]
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
    """Per card: an attacker dealing damage now whose division is the attacking player's
    choice (``engine.combat.attackers_needing_choice``)."""
    deal = dealers(w, first_strike_step)
    return [
        and_(deal[a], w[w.c(a).attacking], w[w.c(a).blocked], several_divisions(w, a, m10))
        for a in range(w.n)
    ]


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
                        implies(and_(blockers[x], ranks_before(w, x, b)), ge(got[x], lethal[x]))
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
        chosen = and_(dealing, attacking, blocked, p.div[i])
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
        # a blocker deals its damage to the attacker it blocks, if that is still attacking
        target = w[c.blocking]
        for a in range(n):
            if a == i:
                continue
            hits = and_(
                dealing,
                not_(attacking),
                eq(target, a),
                on_battlefield(w, a),
                w[w.c(a).attacking],
            )
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
