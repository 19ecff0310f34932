"""State-based actions (704) and the cleanup step's simultaneous actions (514.2): the
counterpart of ``engine/sba.py``.

The engine repeats checks until one performs nothing (704.3). A relation has a fixed size, so
the loop is unrolled as a fixed *schedule* of checks (``schedule``): a check runs only if the
previous one performed something. The engine would run one more check after the last one; the
encoding states as an *obligation* (label ``sba.loop``) that this check would find nothing,
and, for each check of the schedule that looks at fewer state-based actions than a full one,
that the ones it leaves out are not pending then. ``queries.sba_bound`` and the proofs
(``checks.induction``) prove these obligations for every action kind, so the schedule is never
silently assumed. (Why the loop ends quickly: see ``schedule``.)
"""

from __future__ import annotations

from functools import partial

from regen_model.encoding import stack
from regen_model.encoding.derived import (
    aura_illegal,
    counters_annihilate,
    creature_on_battlefield,
    deathtouch_pending,
    equipment_illegal,
    in_battlefield_zone,
    lethal_damage_pending,
    on_battlefield,
    player_loses,
    sba_pending,
    toughness,
    zero_toughness_pending,
)
from regen_model.encoding.destruction import destroy
from regen_model.encoding.effects import CHOSEN_ON_STACK, trigger_target
from regen_model.encoding.frame import NONE
from regen_model.encoding.ops import (
    Val,
    add,
    and_,
    b2i,
    count,
    eq,
    gt,
    ite,
    min_,
    ne,
    not_,
    or_,
    sub,
)
from regen_model.encoding.triggers import simultaneous
from regen_model.encoding.work import Label, SymWork
from regen_model.encoding.zones import drop_shields_made_by, keep_unused_shields, move_zone
from regen_model.model.enums import Mutant, Zone, ordinal

# What a check looks at: every state-based action, or only the ones that a previous check of
# the same loop can make pending under the correct rules.
ALL_CHECKS = frozenset({"zero", "lethal", "deathtouch", "aura", "equipment", "counters", "players"})
AFTER_FIRST = frozenset({"zero", "aura"})
AFTER_SECOND = frozenset({"aura"})


def schedule(w: SymWork) -> tuple[frozenset[str], ...]:
    """The checks the relation unrolls, in order, each with the state-based actions it
    looks at.

    Under the correct rules a loop is at most three checks that perform something, whatever
    the number of permanents: (1) creatures die, regenerate or are saved by umbra armor,
    players lose, counters cancel, illegal Auras fall off; afterwards no lethal damage is
    left (a destruction either moves the creature or removes its damage; shield counters do
    not replace these destructions, 122.1c), every deathtouch record is cleared, counters
    are cancelled and losers have lost; (2) a creature saved by umbra armor lost that Aura's
    toughness bonus and may now have toughness 0 or less (704.5f), and Auras whose creature
    left fall off; an Aura leaving here never lowers the toughness of a creature on the
    battlefield, since its host is gone; (3) Auras of the creatures of (2) fall off; nothing
    is then pending. An Equipment on a noncreature (704.5n) is unattached in (1) and none
    becomes illegal later: no action of a check makes a creature stop being one, and one that
    leaves takes its Equipment off at once (``zones.move_zone``). Attachments are one deep (an Aura or Equipment is attached to a
    creature), which is why the chain does not grow with the permanents. Checks (2) and (3)
    therefore look only at what can be pending then, and the obligations check the rest.

    A rule set with mutants may break that argument (a toughness of 0 treated as
    destruction, a deathtouch record that is never cleared), so it gets the generic unrolling:
    one full check per card slot plus one, which covers every chain of the scope."""
    if w.ctx.rules.mutants:
        return (ALL_CHECKS,) * (w.n + 1)
    return (ALL_CHECKS, AFTER_FIRST, AFTER_SECOND)[: w.n + 1]


def sba_pass(w: SymWork, checks: frozenset[str] = ALL_CHECKS) -> Val:
    """One check (704.3): every applicable state-based action at once, among ``checks``
    (the others are obliged not to be pending, see ``schedule``). Returns whether anything
    was performed."""
    n = w.n
    tough = [
        toughness(w, i) if creature_on_battlefield(w, i) is not False else None for i in range(n)
    ]
    zero_pending = [zero_toughness_pending(w, i, tough[i]) for i in range(n)]
    zero = zero_pending if "zero" in checks else [False] * n
    # 704.5g/h need toughness above 0, so a card going to the graveyard for toughness 0 is
    # not also checked for damage, Auras or counters (the engine's ``continue``)
    found: dict[str, list[Val]] = {
        "lethal": [and_(not_(zero[i]), lethal_damage_pending(w, i, tough[i])) for i in range(n)],
        "deathtouch": [and_(not_(zero[i]), deathtouch_pending(w, i, tough[i])) for i in range(n)],
        "aura": [and_(not_(zero[i]), aura_illegal(w, i)) for i in range(n)],
        "equipment": [and_(not_(zero[i]), equipment_illegal(w, i)) for i in range(n)],
        "counters": [and_(not_(zero[i]), counters_annihilate(w, i)) for i in range(n)],
        "players": [player_loses(w, p) for p in range(w.ctx.scope.players)],
    }
    left_out = [] if "zero" in checks else list(zero_pending)
    for name, conds in found.items():
        if name not in checks:
            left_out += conds
            found[name] = [False] * len(conds)
    if left_out:
        w.oblige(not_(or_(*left_out)), "sba.loop")
    lethal, touched, auras = found["lethal"], found["deathtouch"], found["aura"]
    equipment = found["equipment"]
    annihilate, losers = found["counters"], found["players"]

    if not w.mutant(Mutant.DEATHTOUCH_REMEMBERED):
        reset_deathtouch(w)

    performed = or_(*zero, *lethal, *touched, *auras, *equipment, *annihilate, *losers)

    # 704.3: one event, each watcher sees every death (603.10a), each destruction is decided
    # on the values the check found (``engine.sba.sba_pass``)
    dying = [or_(lethal[i], touched[i]) for i in range(n)]
    if w.mutant(Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION):
        dying = [or_(d, z) for d, z in zip(dying, zero, strict=True)]

    def perform(w: SymWork) -> None:
        with simultaneous(w, dying):
            _perform(w)

    def _perform(w: SymWork) -> None:
        for i in range(n):
            _toughness_zero(w, i, zero[i])
        for i in range(n):
            # 704.7: lethal damage and deathtouch destroy it once, by one event
            label: Label = (
                ("sba.lethal-damage" if lethal[i] else "sba.deathtouch")
                if isinstance(lethal[i], bool)
                else (lethal[i], "sba.lethal-damage", "sba.deathtouch")
            )
            w.branch(
                or_(lethal[i], touched[i]),
                partial(destroy, i=i, cant_regen=False, by_effect=False, clause=label),
            )
        for i in range(n):
            move_zone(w, i, Zone.GRAVEYARD, "sba.aura", and_(auras[i], on_battlefield(w, i)))
        for i in range(n):  # 704.5n: unattached, it stays on the battlefield
            key = w.c(i).attached_to
            falls = and_(equipment[i], equipment_illegal(w, i))
            if w.mutant(Mutant.SHIELD_ON_ATTACHMENT):
                drop_shields_made_by(w, i, falls)
            w.set_if(falls, key, NONE, "sba.equipment")
        for i in range(n):
            c = w.c(i)
            _annihilate(w, c.plus, c.minus, and_(annihilate[i], counters_annihilate(w, i)))
        for p in range(w.ctx.scope.players):
            w.set_if(losers[p], w.f.players[p].lost, True, "sba.player-loses")
            # 704.5b reads draws since the last check: the check that uses it clears it
            w.set_if(losers[p], w.f.players[p].drew_empty, False, "draw.empty-library")

    w.branch(performed, perform)
    return performed


def reset_deathtouch(w: SymWork) -> None:
    """704.5h looks only at damage since the last check: the record is cleared by each check."""
    for i in range(w.n):
        key = w.c(i).deathtouched
        w.set(key, ite(w[key], False, w[key]), "sba.deathtouch-reset")


def _toughness_zero(w: SymWork, i: int, when: Val) -> None:
    """704.5f puts it into the graveyard: not destruction, so nothing replaces it."""
    if w.mutant(Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION):
        w.branch(
            when,
            lambda w: destroy(w, i, cant_regen=False, by_effect=False, clause="sba.toughness-zero"),
        )
    else:
        move_zone(w, i, Zone.GRAVEYARD, "sba.toughness-zero", when)


def _annihilate(w: SymWork, plus: str, minus: str, when: Val) -> None:
    """704.5q: +1/+1 and -1/-1 counters cancel in pairs."""
    k = min_(w[plus], w[minus])
    w.set_if(when, plus, sub(w[plus], k), "sba.counters")
    w.set_if(when, minus, sub(w[minus], k), "sba.counters")


def _pass_into(w: SymWork, checks: frozenset[str], into: list[Val]) -> None:
    into.append(sba_pass(w, checks))


def run_sba_loop(w: SymWork, *, check_sba: bool = True) -> None:
    """704.3: checks until none applies, then waiting triggers go on the stack (603.3b)."""
    if check_sba:
        running: Val = True
        for checks in schedule(w):
            result: list[Val] = []
            w.branch(running, partial(_pass_into, checks=checks, into=result))
            running = and_(running, result[0] if result else False)
        # The engine would check once more: that check must find nothing (the schedule
        # suffices) and, like every check, clears the deathtouch record.
        if running is not False:
            w.oblige(not_(and_(running, sba_pending(w))), "sba.loop")
        if not w.mutant(Mutant.DEATHTOUCH_REMEMBERED):
            w.branch(running, reset_deathtouch)
    w.branch(gt(w[w.f.pending_size], 0), triggers_to_stack)


def triggers_to_stack(w: SymWork) -> None:
    """603.3b: the active player's waiting triggers go on the stack first, then the other
    player's; each player's in the order they triggered. A trigger whose target is chosen
    only now (a reflexive trigger, 603.12) gets it first, or with no legal target is removed
    (603.3d, ``choose_targets``)."""
    f = w.f
    active = w[f.active]
    size = w[f.pending_size]
    base = w[f.stack_size]
    present = [gt(size, k) for k in range(len(f.pending))]
    kept = choose_targets(w, present)
    # 603.3b: the active player's go first (lowest); the mutant puts the other player's first
    first = ne if w.mutant(Mutant.TRIGGERS_REVERSED_APNAP) else eq
    mine = [and_(kept[k], first(w[e.controller], active)) for k, e in enumerate(f.pending)]
    theirs = [and_(kept[k], not_(mine[k])) for k in range(len(f.pending))]
    n_mine = count(mine)
    positions = []
    for k in range(len(f.pending)):
        before_mine = count(mine[:k])
        before_theirs = count(theirs[:k])
        positions.append(add(base, ite(mine[k], before_mine, add(n_mine, before_theirs))))
    stack.rearrange(w, "pending", "stack", positions, kept, "stack.triggers")
    w.set(f.stack_size, add(base, count(kept)), "stack.triggers")
    w.set(f.pending_size, 0, "stack.triggers")


def choose_targets(w: SymWork, present: list[Val]) -> list[Val]:
    """603.3d for the reflexive trigger this step made (``SymWork.reflexive_at``; its target
    rule ``effects.CHOSEN_ON_STACK``, no target yet): its target is chosen as it goes on the
    stack (``effects.trigger_target``, the pass's ``rtarget``) and written into its entry;
    with no legal target it is removed from the stack (``engine.sba._triggers_to_stack``).
    Returns which entries go on the stack. It waits only in the step that made it (the
    waiting triggers go on the stack before the step ends), so no other entry is looked at;
    and the rule is known, so the legality of each card is that rule's own condition, not
    the table read for a symbolic rule."""
    kept: list[Val] = []
    rule = ordinal(CHOSEN_ON_STACK)
    for k, names in enumerate(w.f.pending):
        needs = and_(present[k], eq(w.reflexive_at, k))
        if w.skip(needs):
            kept.append(present[k])
            continue
        gets, gen = trigger_target(w, rule, w[names.controller], needs)
        clause = "stack.trigger-target"
        w.set_if(gets, names.n_targets, 1, clause)
        w.set_if(gets, names.target_card[0], w.rtarget, clause)
        w.set_if(gets, names.target_gen[0], gen, clause)
        w.set_if(gets, names.target_player[0], NONE, clause)
        removed = and_(needs, not_(gets))
        w.set_if(removed, names.n_targets, 0, clause)  # 603.3d; the write records the rule
        kept.append(and_(present[k], not_(removed)))
    w.reflexive_at = NONE  # on the stack now, or removed
    return kept


def cleanup_effects(w: SymWork) -> None:
    """514.2: at one moment, marked damage is removed and every "until end of turn" and "this
    turn" effect ends: P/T and keyword changes, temporary control, "can't be regenerated this
    turn" (701.19c) and regeneration shields (701.19a)."""
    keep_shields = w.mutant(Mutant.SHIELDS_SURVIVE_CLEANUP)
    keep_cant = w.mutant(Mutant.CANT_REGEN_SURVIVES_CLEANUP)
    for i in range(w.n):

        def clean(w: SymWork, i: int = i) -> None:
            c = w.c(i)
            clause = "cleanup.simultaneous"
            # a temporary control change ends; back under its owner only from now on (302.6)
            reverts = and_(ne(w[c.control_eot], NONE), ne(w[c.control_eot], w[c.control]))
            w.set_if(reverts, c.sick, True, "combat.summoning-sickness")
            for key, value in (
                (c.damage, 0),
                (c.power_eot, 0),
                (c.toughness_eot, 0),
                (c.control_eot, NONE),
                (c.ghost.destructions, 0),
                (c.ghost.by_shield, 0),
                (c.ghost.by_static, 0),
                (c.ghost.by_other, 0),
            ):
                w.set(key, value, clause)
            for key in (*c.kw_granted, *c.kw_removed):
                w.set(key, False, clause)
            if not keep_cant:
                w.set(c.cant_regen, False, "regen.cant.this-turn")
            w.set(c.exile_if_dies, False, "replace.exile-instead")  # 514.2: "this turn" ends
            w.set(c.remove_damage, 0, "replace.remove-damage")  # 514.2: Pyramids' effects end
            w.set(c.animated, False, "type.until-end-of-turn")
            w.set(c.noncreature, False, "type.until-end-of-turn")
            w.set(c.prevent_next, 0, "prevent.next")
            w.set(c.prevent_all, False, "prevent.all")
            if keep_shields:
                keep_unused_shields(w, i, "regen.shield.expire")
            else:
                for s in c.shields:
                    for key, value in (
                        (s.present, False),
                        (s.used, False),
                        (s.rider, 0),
                        (s.creator, 0),
                        (s.via, NONE),
                    ):
                        w.set(key, value, "regen.shield.expire")
            w.set(
                c.ghost.shields_made,
                add(*[b2i(w[s.present]) for s in c.shields]),
                "regen.shield.expire",
            )

        # 514.2: phased-out permanents too (702.26f); the write records the rule for them
        out = and_(in_battlefield_zone(w, i), ne(w[w.c(i).phased_out], NONE))
        w.set_if(out, w.c(i).phased_out, w[w.c(i).phased_out], "phasing.cleanup")
        w.branch(in_battlefield_zone(w, i), clean)
