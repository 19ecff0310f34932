"""Attaching Auras and Equipment: the counterpart of ``engine/attachments.py`` (701.3, 702.6).

What an attachment grants is read off ``attached_to`` by ``derived.has`` and the bonus terms,
so moving it needs only the new ``attached_to``. Shields stay where they are: a frame has no
record of which attachment made a shield (``Shield.via`` is engine bookkeeping that no rule
reads), so under the correct rules nothing else changes. Each shield slot records which attachment's
ability made it (``ShieldVars.via``, as ``Shield.via``), read only by the
``shield-on-attachment`` mutant: a real engine kept such a shield with the attachment, lost
when it leaves or falls off (``drop_shields_made_by``), moved when it moves (``attach``).
"""

from __future__ import annotations

from regen_model.encoding.derived import controller as control_of
from regen_model.encoding.derived import creature_on_battlefield, on_battlefield
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    b2i,
    eq,
    gt,
    implies,
    ite,
    le,
    lt,
    ne,
    not_,
    or_,
    select,
)
from regen_model.encoding.work import SymWork
from regen_model.encoding.zones import SHIELDS_STAY, ShieldValue, compact, made_by, write_shields
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Attachment, Mutant, ordinal

NO_ATTACHMENT = ordinal(Attachment.NONE)


def can_attach(w: SymWork, item: int, host: Val) -> Val:
    """701.3b (``engine.attachments.can_attach``): ``item`` is an Aura or Equipment on the
    battlefield and ``host`` another permanent, a creature on the battlefield, not itself an
    Aura or Equipment."""
    return and_(
        on_battlefield(w, item),
        ne(w.st(item).attachment, NO_ATTACHMENT),
        or_(
            *[
                and_(
                    eq(host, j),
                    eq(w.st(j).attachment, NO_ATTACHMENT),
                    creature_on_battlefield(w, j),
                )
                for j in range(w.n)
                if j != item
            ]
        ),
    )


def attach(w: SymWork, item: int, host: Val, clause: str) -> None:
    """Attach ``item`` to ``host`` (701.3a); nothing if it can't go there or is already there
    (701.3b). A "Regenerate enchanted creature" of ``item`` on the stack follows it."""
    key = w.c(item).attached_to
    moves = and_(can_attach(w, item, host), ne(w[key], host))
    gen = w[w.c(item).gen]
    host_gen = select(host, [w[w.c(j).gen] for j in range(w.n)], 0)
    size = w[w.f.stack_size]
    for j, obj in enumerate(w.f.stack):
        follows = and_(
            moves,
            lt(j, size),
            eq(w[obj.source], item),
            eq(w[obj.source_gen], gen),
            eq(w[obj.effect], ordinal(EffectKind.REGENERATE)),
            or_(not_(gt(w[obj.n_targets], 0)), ne(w[obj.target_card[0]], item)),
        )
        w.set_if(follows, obj.n_targets, 1, clause)
        # the engine's ``_retarget_host_abilities`` names the host with a new card target,
        # so a player the old one named is gone too (issue 10: the boundaries of ``pass``
        # chose such an ability naming a player, and the views differed on it)
        w.set_if(follows, obj.target_card[0], host, clause)
        w.set_if(follows, obj.target_gen[0], host_gen, clause)
        w.set_if(follows, obj.target_player[0], NONE, clause)
    if w.mutant(Mutant.SHIELD_ON_ATTACHMENT):
        _move_shields(w, item, w[key], host, moves)
    w.set_if(moves, key, host, clause)
    w.bump("attached", item, 1, when=moves)


def _move_shields(w: SymWork, item: int, old: Val, new: Val, moves: Val) -> None:
    """Mutant ``shield-on-attachment``: the unused shields ``item`` made for ``old`` go with
    it to ``new``, after the new host's own (``engine.attachments._shields_when_moved``)."""
    slots = w.ctx.scope.shields
    for j in range(w.n):
        if j == item:
            continue
        shields = w.c(j).shields
        made = made_by(w, j, item)
        here = and_(moves, eq(old, j))
        if w.skip(here):
            continue
        moving = compact(w, shields, made)
        keep = [and_(w[s.present], not_(m)) for s, m in zip(shields, made, strict=True)]
        left = compact(w, shields, keep)
        count = add(*[b2i(m) for m in made])
        for h in range(w.n):
            if h in (j, item):
                continue
            target = w.c(h).shields
            there = and_(here, eq(new, h))
            have = add(*[b2i(w[s.present]) for s in target])
            w.require(implies(there, le(add(have, count), slots)), "scope:shields")
            out: list[ShieldValue] = []
            for t, s in enumerate(target):
                value: ShieldValue = (w[s.present], w[s.used], w[s.rider], w[s.creator], w[s.via])
                for k in range(t + 1):  # slot t takes moving shield k when t == have + k
                    hit = eq(have, t - k)
                    mk = moving[k]
                    value = (
                        ite(hit, mk[0], value[0]),
                        ite(hit, mk[1], value[1]),
                        ite(hit, mk[2], value[2]),
                        ite(hit, mk[3], value[3]),
                        ite(hit, mk[4], value[4]),
                    )
                out.append(value)
            write_shields(w, target, out, SHIELDS_STAY, there)
        write_shields(w, shields, left, SHIELDS_STAY, here)


def equip_still_legal(w: SymWork, source: Val, target: Val, gen: Val, controller: Val) -> Val:
    """608.2b for equip (``engine.turn.equip_still_legal``): the target is the same object,
    a creature on the battlefield its controller controls, other than the Equipment."""
    return or_(
        *[
            and_(
                eq(target, j),
                eq(w[w.c(j).gen], gen),
                creature_on_battlefield(w, j),
                eq(control_of(w, j), controller),
                eq(w.st(j).attachment, NO_ATTACHMENT),
                ne(source, j),
                ne(source, NONE),
            )
            for j in range(w.n)
        ]
    )
