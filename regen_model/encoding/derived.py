"""Characteristics computed from a frame: the counterpart of ``model/derived.py``.

Same definitions, same names: controller (layer 2), keywords (layer 6: printed, then
until-end-of-turn grants and removals), power and toughness (layer 7c: printed + counters +
Aura/Equipment bonuses + until-end-of-turn changes), and the state-based-action conditions of
704.5 that decide whether a check would do anything.
"""

from __future__ import annotations

from regen_model.encoding.frame import GRANTABLE, NONE
from regen_model.encoding.ops import Val, add, and_, eq, ge, gt, ite, le, ne, not_, or_, sub
from regen_model.encoding.work import SymWork
from regen_model.model.enums import Attachment, Keyword, Zone, ordinal

BF = ordinal(Zone.BATTLEFIELD)
AURA = ordinal(Attachment.AURA)
EQUIPMENT = ordinal(Attachment.EQUIPMENT)


def on_battlefield(w: SymWork, i: int) -> Val:
    """On the battlefield and phased in: what the game treats as existing (702.26b)."""
    c = w.c(i)
    return and_(eq(w[c.zone], BF), eq(w[c.phased_out], NONE))


def in_battlefield_zone(w: SymWork, i: int) -> Val:
    """In the battlefield zone, phased in or out (cleanup, 514.2; the untap step, 502.1)."""
    return eq(w[w.c(i).zone], BF)


def controller(w: SymWork, i: int) -> Val:
    """A later until-end-of-turn control change wins over the base controller."""
    c = w.c(i)
    return ite(eq(w[c.control_eot], NONE), w[c.control], w[c.control_eot])


def has(w: SymWork, i: int, k: Keyword) -> Val:
    """(printed | by its attachments | granted) - removed (613.7: the latest grant or removal
    wins; an attachment's grant, 613.1f, counts as the earliest, ``model.derived.keywords``)."""
    c = w.c(i)
    return and_(
        or_(w.st(i).kw(k), granted_by_attachments(w, i, k), w[c.granted(k)]),
        not_(w[c.removed(k)]),
    )


def granted_by_attachments(w: SymWork, i: int, k: Keyword) -> Val:
    """An Aura or Equipment on the battlefield attached to ``i`` grants ``k`` (611.3a)."""
    if k not in GRANTABLE:
        return False
    terms = []
    for j in range(w.n):
        if j == i:
            continue  # a card is never attached to itself (frame domain)
        grant = w.st(j).grant(k)
        if grant is False:
            continue
        terms.append(and_(grant, attached_on_battlefield(w, j, i)))
    return or_(*terms)


def attached_on_battlefield(w: SymWork, j: int, i: int) -> Val:
    """Card ``j`` is on the battlefield and attached to card ``i``."""
    return and_(on_battlefield(w, j), eq(w[w.c(j).attached_to], i))


def _bonus(w: SymWork, i: int, toughness: bool) -> Val:
    terms = []
    for j in range(w.n):
        if j == i:
            continue  # a card is never attached to itself (frame domain)
        st = w.st(j)
        bonus = st.bonus_toughness if toughness else st.bonus_power
        if type(bonus) is int and bonus == 0:  # only Auras and Equipment give a bonus
            continue
        terms.append(ite(attached_on_battlefield(w, j, i), bonus, 0))
    return add(*terms)


def _base(w: SymWork, i: int, toughness: bool) -> Val:
    """Printed power/toughness, or its animation's (layer 7b, 613.4b)."""
    st = w.st(i)
    printed, animated = (
        (st.toughness, st.anim_toughness) if toughness else (st.power, st.anim_power)
    )
    if st.animate_ability is False:
        return printed
    return ite(w[w.c(i).animated], animated, printed)


def power(w: SymWork, i: int) -> Val:
    c = w.c(i)
    return add(_base(w, i, False), w[c.plus], sub(w[c.power_eot], w[c.minus]), _bonus(w, i, False))


def toughness(w: SymWork, i: int) -> Val:
    c = w.c(i)
    return add(
        _base(w, i, True), w[c.plus], sub(w[c.toughness_eot], w[c.minus]), _bonus(w, i, True)
    )


def shrines(w: SymWork, player: Val) -> Val:
    """How many Shrines ``player`` controls: permanents on the battlefield (phased in) whose
    subtypes include Shrine, creatures or not (205.3h; ``model.derived.shrines``)."""
    return add(
        0,
        *[
            ite(and_(w.st(j).shrine, on_battlefield(w, j), eq(controller(w, j), player)), 1, 0)
            for j in range(w.n)
        ],
    )


def is_creature(w: SymWork, i: int) -> Val:
    """Its card types now (layer 4, 613.1d): printed or animated, unless the latest type
    change made it stop being a creature (``model.derived.is_creature``)."""
    c = w.c(i)
    return and_(or_(w.st(i).creature, w[c.animated]), not_(w[c.noncreature]))


def black(w: SymWork, i: int) -> Val:
    """Its color now: printed black, or black from its animation (layer 5, 613.1e)."""
    st = w.st(i)
    if st.animate_ability is False:
        return st.black
    return ite(w[w.c(i).animated], st.anim_black, st.black)


def creature_on_battlefield(w: SymWork, i: int) -> Val:
    return and_(is_creature(w, i), on_battlefield(w, i))


# The conditions below return as soon as a concrete part decides them: they are evaluated
# for every card at every state-based-action check, the hottest path of an evaluation.


def lethal_damage_pending(w: SymWork, i: int, t: Val = None) -> Val:
    """704.5g would destroy it now (never an indestructible one, 702.12b). ``t``: its
    toughness, when the caller has it."""
    dmg = w[w.c(i).damage]
    alive = and_(creature_on_battlefield(w, i), gt(dmg, 0))
    if alive is False:
        return False
    t = toughness(w, i) if t is None else t
    return and_(alive, gt(t, 0), ge(dmg, t), not_(has(w, i, Keyword.INDESTRUCTIBLE)))


def deathtouch_pending(w: SymWork, i: int, t: Val = None) -> Val:
    """704.5h would destroy it now."""
    touched = and_(w[w.c(i).deathtouched], creature_on_battlefield(w, i))
    if touched is False:
        return False
    t = toughness(w, i) if t is None else t
    return and_(touched, gt(t, 0), not_(has(w, i, Keyword.INDESTRUCTIBLE)))


def zero_toughness_pending(w: SymWork, i: int, t: Val = None) -> Val:
    """704.5f."""
    alive = creature_on_battlefield(w, i)
    if alive is False:
        return False
    return and_(alive, le(toughness(w, i) if t is None else t, 0))


def aura_illegal(w: SymWork, i: int) -> Val:
    """704.5m: an Aura on the battlefield attached to nothing or to a non-creature or to an
    object no longer on the battlefield."""
    aura = and_(on_battlefield(w, i), eq(w.st(i).attachment, AURA))
    if aura is False:
        return False
    host = w[w.c(i).attached_to]
    hosted = [and_(eq(host, j), creature_on_battlefield(w, j)) for j in range(w.n) if j != i]
    return and_(aura, or_(eq(host, NONE), not_(or_(*hosted))))


def equipment_illegal(w: SymWork, i: int) -> Val:
    """704.5n: an Equipment on the battlefield attached to something that is not a creature
    on the battlefield."""
    equipment = and_(on_battlefield(w, i), eq(w.st(i).attachment, EQUIPMENT))
    if equipment is False:
        return False
    host = w[w.c(i).attached_to]
    hosted = [and_(eq(host, j), creature_on_battlefield(w, j)) for j in range(w.n) if j != i]
    return and_(equipment, ne(host, NONE), not_(or_(*hosted)))


def counters_annihilate(w: SymWork, i: int) -> Val:
    """704.5q."""
    c = w.c(i)
    return and_(on_battlefield(w, i), gt(w[c.plus], 0), gt(w[c.minus], 0))


def player_loses(w: SymWork, p: int) -> Val:
    """704.5a / 704.5b / 704.5c (``model.derived.player_loses``)."""
    pv = w.f.players[p]
    return and_(not_(w[pv.lost]), or_(le(w[pv.life], 0), ge(w[pv.poison], 10), w[pv.drew_empty]))


def sba_pending(w: SymWork) -> Val:
    """Some state-based action would be performed by a check now (704.3)."""
    terms = []
    for i in range(w.n):
        if on_battlefield(w, i) is False:
            continue
        t = toughness(w, i) if creature_on_battlefield(w, i) is not False else None
        terms.append(
            or_(
                zero_toughness_pending(w, i, t),
                lethal_damage_pending(w, i, t),
                deathtouch_pending(w, i, t),
                aura_illegal(w, i),
                equipment_illegal(w, i),
                counters_annihilate(w, i),
            )
        )
    terms += [player_loses(w, p) for p in range(w.ctx.scope.players)]
    return or_(*terms)


def in_combat(w: SymWork, i: int) -> Val:
    c = w.c(i)
    return or_(w[c.attacking], ne(w[c.blocking], NONE), ne(w[c.blocking_also], NONE))
