"""Attaching Auras and Equipment: the counterpart of ``engine/attachments.py`` (701.3, 702.6).

What an attachment grants is read off ``attached_to`` by ``derived.has`` and the bonus terms,
so moving it needs only the new ``attached_to``. Shields stay where they are: a frame has no
record of which attachment made a shield (``Shield.via`` is engine bookkeeping that no rule
reads), so under the correct rules nothing else changes. The ``shield-on-attachment`` mutant
needs that record and is the engine's only (docs/attachments.md): its scenario catches it.
"""

from __future__ import annotations

from regen_model.encoding.derived import controller as control_of
from regen_model.encoding.derived import creature_on_battlefield, on_battlefield
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import Val, and_, eq, gt, lt, ne, not_, or_, select
from regen_model.encoding.work import SymWork
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Attachment, ordinal

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
        w.set_if(follows, obj.target_card[0], host, clause)
        w.set_if(follows, obj.target_gen[0], host_gen, clause)
    w.set_if(moves, key, host, clause)
    w.bump("attached", item, 1, when=moves)


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
