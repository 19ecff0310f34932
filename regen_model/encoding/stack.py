"""The stack and the waiting triggers as fixed arrays of slots (405.1, 603.3).

A frame has ``scope.stack`` stack slots and ``scope.pending`` trigger slots, each a
``StackVars``, plus a size; slots at or above the size hold the canonical empty entry, so equal
stacks are equal frames. Entries are ``StackVars`` records holding values (not names).
Pushing onto a full array is possible in the game but not in the scope: the step's guard
``scope:stack`` / ``scope:pending`` is then false, and the agreement check reports such a
step as out of scope rather than as a disagreement. That guard is stated where a size may
go down and at the end of the step (``fits``), not at each push (why: ``fits``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from regen_model.encoding.frame import KEYWORDS, NONE, SPELL_GONE_Z, StackVars, _stack_vars
from regen_model.encoding.ops import Val, add, and_, eq, ite, le, lt, sub, term_ite
from regen_model.encoding.work import SymWork
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import Rider, StackKind, ordinal


def entry(
    w: SymWork,
    *,
    kind: StackKind,
    controller: Val,
    effect: Val = 0,
    amount: Val = 0,
    power: Val = 0,
    toughness: Val = 0,
    keywords: Sequence[Val] | None = None,
    cant_regen: Val = False,
    cant_regen_target: Val = False,
    exile_if_dies: Val = False,
    rider: Val = 0,
    counter: Val = 0,
    until_eot: Val = False,
    untap: Val = False,
    under_you: Val = False,
    draw: Val = 0,
    target_rule: Val = 0,
    targets: Sequence[tuple[Val, Val, Val]] = (),
    n_targets: Val | None = None,
    spells: Sequence[Val] = (),
    source: Val = NONE,
    source_gen: Val = 0,
) -> StackVars:
    """A stack entry; ``targets`` are (card, gen, player) triples, padded with empty ones, and
    ``spells`` the stack positions of its spell targets, one per target (NONE for a card or
    player target; ``Target.spell``), padded with NONE.
    ``target_rule``: a ``TargetRule`` ordinal (``StackObject.target_rule``; 0 is ``NONE``)."""
    sc = w.ctx.scope
    n = sc.cards
    padded = list(targets) + [(NONE, 0, NONE)] * (sc.targets - len(targets))
    return StackVars(
        kind=ordinal(kind),
        controller=controller,
        effect=effect,
        amount=amount,
        power=power,
        toughness=toughness,
        keywords=tuple(keywords) if keywords is not None else tuple(False for _ in KEYWORDS),
        cant_regen=cant_regen,
        cant_regen_target=cant_regen_target,
        exile_if_dies=exile_if_dies,
        rider=rider,
        counter=counter,
        until_eot=until_eot,
        untap=untap,
        under_you=under_you,
        draw=draw,
        target_rule=target_rule,
        n_targets=len(targets) if n_targets is None else n_targets,
        target_card=tuple(t[0] for t in padded),
        target_gen=tuple(t[1] for t in padded),
        target_player=tuple(t[2] for t in padded),
        target_spell=tuple(list(spells) + [NONE] * (sc.targets - len(spells))),
        source=source,
        source_gen=source_gen,
        hits=tuple(tuple(0 for _ in range(n + 1)) for _ in range(n)),
        hit_gen=tuple(0 for _ in range(n)),
        hit_keywords=tuple(tuple(False for _ in KEYWORDS) for _ in range(n)),
        hit_left=tuple(False for _ in range(n)),
        hit_ctrl=tuple(0 for _ in range(n)),
    )


def empty(w: SymWork) -> StackVars:
    """The canonical content of an unused slot (``frame._zero_stack_values``)."""
    return entry(w, kind=StackKind.SPELL, controller=0, n_targets=0)


def counters_trigger(w: SymWork, slot: int, counter: Val, controller: Val) -> StackVars:
    """The trigger "When it regenerates this way, put a counter on it" (Matopi Golem, Skeleton
    Scavengers), targeting the regenerated object; ``counter`` is a ``CounterKind`` ordinal."""
    gen = w[w.c(slot).gen]
    return entry(
        w,
        kind=StackKind.TRIGGER,
        controller=controller,
        effect=ordinal(EffectKind.COUNTERS),
        amount=1,
        counter=counter,
        rider=ordinal(Rider.NONE),
        targets=((slot, gen, NONE),),
        source=slot,
        source_gen=gen,
        target_rule=ordinal(TargetRule.CREATURE),
    )


def may_draw_trigger(w: SymWork, slot: int, player: Val, controller: Val) -> StackVars:
    """The trigger "When it regenerates this way, that player may draw a card" (Soldevi
    Sentry; ``engine.destruction.opponent_draws``): its one target the player it names (not
    targeted by the trigger, only recorded), its source the regenerated object."""
    gen = w[w.c(slot).gen]
    return entry(
        w,
        kind=StackKind.TRIGGER,
        controller=controller,
        effect=ordinal(EffectKind.MAY_DRAW),
        amount=1,
        targets=((NONE, 0, player),),
        source=slot,
        source_gen=gen,
    )


def _areas(w: SymWork, area: str) -> tuple[str, tuple[StackVars, ...], int]:
    f = w.f
    if area == "stack":
        return f.stack_size, f.stack, w.ctx.scope.stack
    return f.pending_size, f.pending, w.ctx.scope.pending


def read_slot(w: SymWork, names: StackVars) -> StackVars:
    """The values held by one slot (``names`` is the slot's field names)."""
    return StackVars(*[_read(w, getattr(names, f)) for f in StackVars.__dataclass_fields__])


def _read(w: SymWork, names: object) -> Any:
    if isinstance(names, tuple):
        return tuple(_read(w, x) for x in names)
    assert isinstance(names, str)
    return w[names]


def write_slot(w: SymWork, names: StackVars, value: StackVars, when: Val, clause: str) -> None:
    """Slot ``names`` := ``value`` where ``when`` holds (else unchanged)."""
    w.set_all_if(when, zip(_stack_vars(names), _stack_vars(value), strict=True), clause)


def push(w: SymWork, area: str, value: StackVars, clause: str, when: Val = True) -> None:
    """Put ``value`` on top of the stack (or at the end of the waiting triggers) where
    ``when`` holds."""
    size_key, slots, _ = _areas(w, area)
    size = w[size_key]
    for j, names in enumerate(slots):  # beyond the array: out of scope, caught by ``fits``
        write_slot(w, names, value, and_(when, eq(size, j)), clause)
    w.add_if(when, size_key, 1, clause)


def fits(w: SymWork, area: str) -> None:
    """Guard ``scope:<area>``: the area's size is within its array now.

    Pushes do not state it themselves: it is stated before every write that may lower or
    replace a size (``pop``, ``counter_at``, ``rearrange``) and at the end of the step
    (``step.run``). Between two such points a size only grows, one by each push, from a
    value already within the array (the domain, or the previous point), so "the size at
    the next point is within the array" holds exactly when "each push finds a free place"
    holds: the same steps are in scope. One guard per point instead of one per push matters
    to the solver: at four card slots a step can push the dies triggers of every death
    seen by every watcher, and the per-push guards (each a growing partial sum) cost the
    consecution queries of ``inv.damage-trigger.kept`` about half of their work
    (docs/proofs.md, issue 14, 2026-12-07). A push beyond the array writes nothing; the
    step is out of scope either way."""
    size_key, _, cap = _areas(w, area)
    w.require(le(w[size_key], cap), f"scope:{area}")


def top(w: SymWork) -> StackVars:
    """The values of the top stack object (the stack must not be empty)."""
    size = w[w.f.stack_size]
    slots = [read_slot(w, names) for names in w.f.stack]
    fields = list(StackVars.__dataclass_fields__)
    chosen = []
    for f in fields:
        chosen.append(_select_nested(sub(size, 1), [getattr(s, f) for s in slots]))
    return StackVars(*chosen)


def _select_nested(index: Val, items: list[Any]) -> Any:
    first = items[0]
    if isinstance(first, tuple):
        return tuple(_select_nested(index, [it[k] for it in items]) for k in range(len(first)))
    out: Val = items[-1]
    for j in range(len(items) - 2, -1, -1):
        out = ite(eq(index, j), items[j], out)
    return out


def pop(w: SymWork, clause: str) -> None:
    """Remove the top stack object."""
    fits(w, "stack")
    size = w[w.f.stack_size]
    blank = empty(w)
    for j, names in enumerate(w.f.stack):
        write_slot(w, names, blank, eq(size, j + 1), clause)
    w.set(w.f.stack_size, sub(size, 1), clause)


def rearrange(
    w: SymWork,
    source: str,
    dest: str,
    positions: Sequence[Val],
    keep: Sequence[Val],
    clause: str,
) -> None:
    """Move the entries of ``source`` to ``dest``: entry k (if ``keep[k]``) lands at index
    ``positions[k]`` of ``dest``; ``source`` is emptied when it differs from ``dest``.
    Entries of ``dest`` not overwritten keep their value. Used to put waiting triggers on the
    stack (603.3b) and to drop triggers from the waiting list."""
    fits(w, source)
    if dest != source:
        fits(w, dest)
    src_size_key, src_slots, _ = _areas(w, source)
    _, dst_slots, cap = _areas(w, dest)
    entries = [read_slot(w, names) for names in src_slots]
    blank = empty(w)
    if source != dest:
        for names in src_slots:
            write_slot(w, names, blank, True, clause)
        w.set(src_size_key, 0, clause)
    else:
        for names in dst_slots:
            write_slot(w, names, blank, True, clause)
    for k, e in enumerate(entries):
        for j, names in enumerate(dst_slots):
            write_slot(w, names, e, and_(keep[k], eq(positions[k], j)), clause)
        # an entry that would land beyond the array does not fit the scope
        w.require(ite(keep[k], lt(positions[k], cap), True), f"scope:{dest}")


def counter_at(w: SymWork, position: Val, when: Val, clause: str) -> tuple[Val, Val]:
    """701.6a where ``when`` holds: the stack object at ``position`` (below the top; the
    resolving object has been popped already) is removed; the objects above it move down one
    place, and their spell targets are renumbered: one that named it is gone (``SPELL_GONE_Z``,
    608.2b), one above it follows its object (``engine.effects.counter_spell``). The step
    output ``countered`` (``outputs.py``) counts it, as the engine's ``countered`` event does.
    Returns the removed object's kind and controller, read before the move."""
    fits(w, "stack")
    size = w[w.f.stack_size]
    slots = [read_slot(w, names) for names in w.f.stack]
    kind = _select_nested(position, [s.kind for s in slots])
    who = _select_nested(position, [s.controller for s in slots])
    blank = empty(w)
    last = sub(size, 1)
    for k, names in enumerate(w.f.stack):
        moved = _renumbered(slots[k + 1], position) if k + 1 < len(slots) else blank
        shift = and_(when, le(position, k), lt(k, last))
        write_slot(w, names, moved, shift, clause)
        write_slot(w, names, blank, and_(when, le(position, k), eq(k, last)), clause)
    w.set_if(when, w.f.stack_size, last, clause)
    # the output counts what the ``set_if`` just made happen: a term, not another branch of
    # the rules for the coverage probe (as ``SymWork.add_if``)
    one = (1 if when else 0) if when is True or when is False else term_ite(when, 1, 0)
    w.out["countered"][0] = add(w.out["countered"][0], one)
    return kind, who


def _renumbered(obj: StackVars, removed: Val) -> StackVars:
    """``obj`` once the object at ``removed`` is gone (``engine.effects._renumbered``): NONE
    and ``SPELL_GONE_Z`` are below every position and stay."""
    spells = tuple(
        ite(eq(t, removed), SPELL_GONE_Z, ite(lt(removed, t), sub(t, 1), t))
        for t in obj.target_spell
    )
    return replace(obj, target_spell=spells)
