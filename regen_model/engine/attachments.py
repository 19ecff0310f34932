"""Attaching Auras and Equipment, and what moving one does (701.3, 702.6, 301.5, 303.4).

An attachment's static abilities ("equipped creature has indestructible", "+2/+0") apply to
whatever it is attached to at each moment (611.3a): nothing is copied onto the creature, so
when the Aura or Equipment moves, what it grants moves with it, by ``derived.keywords`` and
``derived.power``. What its activated abilities made is another matter: a regeneration shield
made by "{G}: Regenerate enchanted creature" is an effect on the creature (701.19a), not on the
Aura, so it stays with the creature when the Aura moves or leaves. The ``shield-on-attachment``
mutant is the bug of an engine that kept such a shield with the Aura.

Attaching is not a zone change: the attachment stays the same object (701.3a speaks of taking
it from where it is and putting it onto the other object; 400.7 does not apply).
"""

from __future__ import annotations

from regen_model.engine.work import Work
from regen_model.model.derived import controller, is_creature_on_battlefield
from regen_model.model.effects import EffectKind
from regen_model.model.enums import Attachment, Mutant
from regen_model.model.events import EventKind
from regen_model.model.state import Card, Shield, StackObject, Target


def can_attach(w: Work, item: int, host: int) -> bool:
    """701.3b: our Auras enchant creatures (303.4) and Equipment equips creatures (301.5c);
    neither attaches to itself (303.4d, 301.5c) or to another Aura or Equipment."""
    # (the attach action and equip give only an Aura or Equipment as ``item``; a state the
    # driven agreement's solver chooses may not, and the relation refuses it as this does)
    if (
        item == host
        or not w.cards[item].on_battlefield
        or w.setup.templates[item].attachment is Attachment.NONE
    ):
        return False
    if w.setup.templates[host].attachment is not Attachment.NONE:
        return False
    return is_creature_on_battlefield(w, w.cards[host])


def attach(w: Work, item: int, host: int, clause: str) -> None:
    """Attach ``item`` to ``host`` (701.3a). An attempt it can't make, or onto what it is
    already attached to, does nothing (701.3b)."""
    card = w.cards[item]
    if not can_attach(w, item, host):
        w.emit(EventKind.NOTE, "attach.illegal-target", w.name(item), moved=False)
        return
    before = card.attached_to
    if before == host:
        w.emit(EventKind.NOTE, "attach.illegal-target", w.name(item), already_attached=True)
        return
    w.cards[item] = card._replace(attached_to=host)
    w.emit(
        EventKind.ATTACHED,
        clause,
        w.name(item),
        origin="nothing" if before is None else w.name(before),
        to=w.name(host),
    )
    if w.setup.templates[item].grants:
        w.emit(
            EventKind.NOTE,
            "attach.grants",
            w.name(host),
            keywords=",".join(sorted(k.value for k in w.setup.templates[item].grants)),
        )
    _retarget_host_abilities(w, item, host)
    if before is not None:
        _shields_when_moved(w, item, before, host)


def _retarget_host_abilities(w: Work, item: int, host: int) -> None:
    """A "Regenerate enchanted creature" ability on the stack acts on what its source is
    attached to as it resolves (608.2h); the stack object names that permanent, so it is
    renamed when its source moves. Equip is a sorcery-speed ability and a real Aura move
    needs an effect, so this only happens through the direct ``attach`` action."""
    host_card = w.cards[host]
    for j, obj in enumerate(w.stack):
        if _is_host_ability(w, obj, item):
            w.stack[j] = obj._replace(targets=(Target(card=host, gen=host_card.gen),))


def _is_host_ability(w: Work, obj: StackObject, item: int) -> bool:
    return (
        obj.source == item
        and obj.source_gen == w.cards[item].gen
        and obj.effect is not None
        and obj.effect.kind is EffectKind.REGENERATE
        and (not obj.targets or obj.targets[0].card != item)
    )


def _made_by(card: Card, item: int) -> tuple[Shield, ...]:
    return tuple(s for s in card.shields if s.via == item and not s.used)


def _shields_when_moved(w: Work, item: int, old: int, new: int) -> None:
    """The unused shields ``item``'s ability made for ``old`` stay there (701.19a); under the
    ``shield-on-attachment`` mutant they go with the attachment to ``new``."""
    old_card = w.cards[old]
    made = _made_by(old_card, item)
    if not made:
        return
    if not w.mutant(Mutant.SHIELD_ON_ATTACHMENT):
        w.emit(EventKind.NOTE, "attach.shields-stay", w.name(old), shields_kept=len(made))
        return
    w.cards[old] = old_card._replace(shields=tuple(s for s in old_card.shields if s not in made))
    new_card = w.cards[new]
    w.cards[new] = new_card._replace(shields=(*new_card.shields, *made))
    w.emit(EventKind.NOTE, "attach.shields-stay", w.name(new), shields_moved=len(made))


def shields_when_leaving(w: Work, item: int) -> None:
    """``item`` is about to leave the battlefield (``zones.move_zone``): the unused shields
    its ability made for its host stay (701.19a); under the ``shield-on-attachment`` mutant
    they go with it."""
    host = w.cards[item].attached_to
    if host is None:
        return
    card = w.cards[host]
    made = _made_by(card, item)
    if not made:
        return
    if not w.mutant(Mutant.SHIELD_ON_ATTACHMENT):
        w.emit(EventKind.NOTE, "attach.shields-stay", w.name(host), shields_kept=len(made))
        return
    w.cards[host] = card._replace(shields=tuple(s for s in card.shields if s not in made))
    w.emit(EventKind.NOTE, "attach.shields-stay", w.name(host), shields_lost=len(made))


def unattach_illegal_equipment(w: Work, item: int) -> None:
    """704.5n: the Equipment becomes unattached and stays on the battlefield."""
    shields_when_leaving(w, item)  # it leaves its host as if it left the battlefield
    card = w.cards[item]
    host = card.attached_to
    assert host is not None  # 704.5n looks only at attached Equipment
    w.cards[item] = card._replace(attached_to=None)
    w.emit(EventKind.UNATTACHED, "sba.equipment", w.name(item), origin=w.name(host))


def equip_target_ok(w: Work, item: int, target: int, player: int) -> bool:
    """702.6a: "target creature you control", and not the Equipment itself (301.5c)."""
    card = w.cards[target]
    return (
        target != item
        and is_creature_on_battlefield(w, card)
        and controller(card) == player
        and w.setup.templates[target].attachment is Attachment.NONE
    )
