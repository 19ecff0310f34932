"""Phasing (702.26): the counterpart of ``engine/phasing.py``.

A phased-out permanent keeps its zone, object and everything on it; ``phased_out`` holds the
player it phased out under (``NONE`` while phased in), and ``derived.on_battlefield`` is false
for it, which is how every other rule treats it as though it does not exist (702.26b). Writes
are conditional (``SymWork.set_if``) on the condition the engine would act under.
"""

from __future__ import annotations

from collections.abc import Sequence

from regen_model.encoding.derived import controller, has, in_battlefield_zone, on_battlefield
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import Val, and_, eq, ite, ne, not_, or_
from regen_model.encoding.work import SymWork
from regen_model.encoding.zones import remove_from_combat
from regen_model.model.enums import Keyword, Mutant


def _with_hosts(w: SymWork, direct: Sequence[Val]) -> tuple[list[Val], list[Val], list[Val]]:
    """Which permanents phase out, given those that do directly (702.26g: what is attached to
    one, and to those, goes with it), the player each goes under (its host's controller), and
    which go only indirectly (702.26h)."""
    n = w.n
    out = list(direct)
    under: list[Val] = [controller(w, i) for i in range(n)]
    indirect: list[Val] = [False] * n
    for _ in range(n - 1):  # attachment chains are at most n - 1 long
        for j in range(n):
            cj = w.c(j)
            for k in range(n):
                if k == j:
                    continue
                via = and_(on_battlefield(w, j), eq(w[cj.attached_to], k), out[k])
                if w.skip(via):
                    continue
                indirect[j] = or_(indirect[j], via)
                under[j] = ite(via, under[k], under[j])
                out[j] = or_(out[j], via)
    return out, under, indirect


def _phase_out(w: SymWork, direct: Sequence[Val], clause: str) -> None:
    out, under, indirect = _with_hosts(w, direct)
    for i in range(w.n):
        if w.skip(out[i]):
            continue
        c = w.c(i)
        remove_from_combat(w, i, "phasing.out", out[i])
        if w.mutant(Mutant.PHASING_LEAVES_BATTLEFIELD):
            for s in c.shields:
                w.set_if(out[i], s.present, False, clause)
                w.set_if(out[i], s.used, False, clause)
                w.set_if(out[i], s.rider, 0, clause)
                w.set_if(out[i], s.creator, 0, clause)
                w.set_if(out[i], s.via, NONE, clause)
            for key in (c.damage, c.plus, c.minus, c.shield_counters):
                w.set_if(out[i], key, 0, clause)
        w.set_if(and_(out[i], not_(indirect[i])), c.phased_out, under[i], clause)
        w.set_if(indirect[i], c.phased_out, under[i], "phasing.indirect")


def phase_out(w: SymWork, i: int, when: Val = True) -> None:
    """A resolving "it phases out" for card ``i`` (702.26b)."""
    direct = [and_(when, on_battlefield(w, i)) if j == i else False for j in range(w.n)]
    _phase_out(w, direct, "phasing.out")


def untap_step_phasing(w: SymWork) -> None:
    """502.1, 702.26a: before anything untaps, at one moment, the active player's phased-in
    permanents with phasing phase out (with what is attached to them) and the permanents that
    phased out under that player phase in (attachments with their host)."""
    active = w[w.f.active]
    n = w.n
    ins = [and_(in_battlefield_zone(w, i), eq(w[w.c(i).phased_out], active)) for i in range(n)]
    outs = [
        and_(on_battlefield(w, i), eq(controller(w, i), active), has(w, i, Keyword.PHASING))
        for i in range(n)
    ]
    for i in range(n):
        c = w.c(i)
        hosted = ne(w[c.attached_to], NONE)
        w.set_if(and_(ins[i], not_(hosted)), c.phased_out, NONE, "phasing.in")
        w.set_if(and_(ins[i], hosted), c.phased_out, NONE, "phasing.indirect")
    _phase_out(w, outs, "phasing.keyword")
