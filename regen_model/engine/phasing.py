"""Phasing (702.26): a permanent's status changes from phased in to phased out and back.

Phasing out is no zone change (702.26d): the permanent stays on the battlefield as the same
object, with its marked damage, counters, regeneration shields and attachments, but while it is
phased out the game treats it as though it does not exist (702.26b): ``Card.on_battlefield``
is false for it, so no spell, ability, destruction, combat rule or state-based action sees it.
A permanent that phases out is removed from combat (506.4). Auras and Equipment attached to it
phase out with it, "indirectly", and phase in with it (702.26g); each records the player who
controlled the permanent they phased out with, which is the player whose untap step phases them
in (502.1). Cleanup still reaches a phased-out permanent: its damage is removed and its "this
turn" effects, regeneration shields included, end (514.2, 702.26f; ``engine.sba.cleanup_effects``).
The encoding counterpart is ``encoding/phasing.py``.
"""

from __future__ import annotations

from regen_model.engine.work import Work
from regen_model.engine.zones import remove_from_combat
from regen_model.model.derived import controller, has
from regen_model.model.enums import Keyword, Mutant
from regen_model.model.events import EventKind


def phase_out(w: Work, slot: int, clause: str) -> None:
    """``slot`` phases out directly (a resolving "it phases out"), and everything attached to
    it indirectly (702.26g)."""
    phase_out_all(w, [slot], clause)


def phase_out_all(w: Work, direct: list[int], clause: str) -> None:
    """``direct`` phase out at one moment, each under its controller, and so does everything
    attached to them (and to those), under its host's player: indirectly, even if it would
    also phase out directly (702.26g, 702.26h)."""
    order = list(direct)
    under = {i: controller(w.cards[i]) for i in direct}
    indirect: set[int] = set()
    for host in order:  # grows while it is walked: attachments of attachments
        for j, c in enumerate(w.cards):
            if c.on_battlefield and c.attached_to == host and j != host and j not in indirect:
                indirect.add(j)
                under[j] = under[host]
                order.append(j)
    for i in dict.fromkeys(order):
        label = "phasing.indirect" if i in indirect else clause
        _phase_out(w, i, under[i], label, indirectly=i in indirect)


def _phase_out(w: Work, slot: int, under: int, clause: str, *, indirectly: bool) -> None:
    remove_from_combat(w, slot, "phasing.out", "phased out")
    card = w.cards[slot]
    if w.mutant(Mutant.PHASING_LEAVES_BATTLEFIELD):
        # the wrong version: as if it had left the battlefield, it loses what the object had
        card = card._replace(shields=(), damage=0, plus=0, minus=0, shield_counters=0)
    w.cards[slot] = card._replace(phased_out=under)
    w.emit(
        EventKind.PHASED,
        clause,
        w.name(slot),
        phased_in=False,
        indirectly=indirectly,
        under=w.pname(under),
    )


def untap_step_phasing(w: Work) -> None:
    """502.1, 702.26a: before anything untaps, at one moment, the active player's phased-in
    permanents with phasing phase out and the permanents that phased out under their control
    phase in (an Aura or Equipment that phased out with its host phases in with it)."""
    active = w.active
    outs = [
        i
        for i, c in enumerate(w.cards)
        if c.on_battlefield and controller(c) == active and has(w, c, Keyword.PHASING)
    ]
    ins = [i for i, c in enumerate(w.cards) if c.in_battlefield_zone and c.phased_out == active]
    for i in ins:
        indirectly = w.cards[i].attached_to is not None
        w.cards[i] = w.cards[i]._replace(phased_out=None)
        clause = "phasing.indirect" if indirectly else "phasing.in"
        w.emit(EventKind.PHASED, clause, w.name(i), phased_in=True, indirectly=indirectly)
    phase_out_all(w, outs, "phasing.keyword")
