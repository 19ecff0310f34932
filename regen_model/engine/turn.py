"""Priority, the stack, and the progress of a turn through its steps.

Who may act is decided here: the player holding priority casts, activates or passes (117);
when every player has passed in succession, the top of the stack resolves, or, with an empty
stack, the step ends and the next begins with its turn-based actions (500.2, 117.4). Every
time a player would receive priority, ``give_priority`` first runs the state-based-action
loop (117.5, 704.3).
"""

from __future__ import annotations

from regen_model.engine import combat as cb
from regen_model.engine.attachments import equip_target_ok
from regen_model.engine.effects import (
    STATUS_REASONS,
    Damage,
    apply_effect,
    deal_damage,
    illegal_target,
)
from regen_model.engine.errors import IllegalAction
from regen_model.engine.phasing import untap_step_phasing
from regen_model.engine.sba import cleanup_effects, run_sba_loop
from regen_model.engine.triggers import (
    block_destroy_triggers,
    end_of_combat_triggers,
    end_step_triggers,
    tapped_trigger,
)
from regen_model.engine.work import Work
from regen_model.model.derived import (
    controller,
    has,
    keywords,
    sba_pending,
)
from regen_model.model.effects import EffectKind
from regen_model.model.enums import (
    STEP_ORDER,
    Decision,
    Edition,
    Keyword,
    Mutant,
    StackKind,
    Step,
)
from regen_model.model.events import EventKind
from regen_model.model.state import Combat, Hit, SourceLKI, StackObject, Target

NUM_PLAYERS = 2


def give_priority(w: Work, player: int) -> None:
    """117.5: state-based actions and waiting triggers first, then ``player`` gets priority."""
    run_sba_loop(w, check_sba=not w.mutant(Mutant.NO_SBA_BEFORE_PRIORITY))
    w.priority = player
    w.decision = Decision.NONE
    w.emit(EventKind.PRIORITY, "priority.receive", w.pname(player))


def pass_priority(w: Work, player: int) -> None:
    if w.priority != player:
        holder = "nobody" if w.priority is None else w.pname(w.priority)
        raise IllegalAction(
            f"{w.pname(player)} can't pass: {holder} holds priority", "priority.pass", "player"
        )
    w.passed = w.passed | {player}
    w.emit(EventKind.PASSED, "priority.pass", w.pname(player))
    if len(w.passed) < NUM_PLAYERS:
        give_priority(w, (player + 1) % NUM_PLAYERS)
        return
    w.passed = frozenset()
    w.priority = None
    if w.stack:
        resolve_top(w)
        give_priority(w, w.active)  # 117.3b
    else:
        end_step(w)


def resolve_top(w: Work) -> None:
    """608.2: the top object resolves; pre-M10 combat damage is dealt as assigned (310.4)."""
    obj = w.stack.pop()
    if obj.kind is StackKind.COMBAT_DAMAGE:
        w.emit(EventKind.RESOLVED, "combat.edition.pre-m10", obj.name)
        # pre-M10 310.4b: each source as it is now, or as it last existed if it has left
        lki = {x.source: x for x in obj.combat_lki}
        shares = []
        for source, hit in obj.combat_hits:
            if source in lki:
                kws, who = lki[source].keywords, lki[source].controller
            else:
                kws, who = keywords(w, w.cards[source]), controller(w.cards[source])
            shares.append(Damage(w.name(source), source, kws, who, hit))
        deal_damage(w, shares, combat=True, cant_regen=False)
        return
    assert obj.effect is not None
    targets = list(obj.targets)
    if targets:
        # 608.2b: every target against the whole of its rule, for the object's controller;
        # equip's target also against 702.6a ("target creature you control", not itself)
        legal = []
        for t in targets:
            why = illegal_target(w, t, obj.target_rule, obj.controller)
            if (
                why is None
                and obj.effect.kind is EffectKind.ATTACH
                and not equip_still_legal(w, obj, t)
            ):
                why = "not-equippable"
            if why is None:
                legal.append(t)
            else:
                # only a card target or a spell target can turn illegal (``illegal_target``);
                # a spell that has left the stack has no name left to give
                w.emit(
                    EventKind.NOTE,
                    "stack.target-legality",
                    None if t.card is None else w.name(t.card),
                    reason=why,
                    target_of=obj.name,
                )
                if why in STATUS_REASONS:
                    # removed from combat or tapped since it was targeted (a regeneration in
                    # response does both, 701.19a, 506.4)
                    w.emit(EventKind.NOTE, "stack.target-status", w.name(t.card or 0), reason=why)
                if t.spell is not None:
                    # its target spell was countered since (701.6a): it leaves no target
                    w.emit(EventKind.NOTE, "stack.counter", None, target_gone=True)
        if not legal:
            w.emit(EventKind.FIZZLED, "stack.resolve", obj.name, reason="no legal target")
            spell_to_graveyard(w, obj)  # 608.2b: it does not resolve, and a spell goes there
            return
        targets = legal
    w.emit(EventKind.RESOLVED, "stack.resolve", obj.name, effect=obj.effect.describe())
    first = w.mutant(Mutant.SPELL_TO_GRAVEYARD_FIRST)
    if first:
        spell_to_graveyard(w, obj)  # mutant: before its instructions are followed
    apply_effect(w, obj.effect, obj.controller, targets, obj.name, obj.source, obj.source_gen)
    if not first:
        spell_to_graveyard(w, obj)  # 608.2n: the last part of its resolution


def spell_to_graveyard(w: Work, obj: StackObject) -> None:
    """An instant or sorcery spell that finished resolving (608.2n) or did not resolve
    (608.2b) is put on top of its owner's graveyard (404.1): after every card its own
    instructions put there (those are part of its resolution, 608.2c), before any card the
    state-based actions put there afterwards (they are checked only when a player would
    receive priority, 117.5, 704.3). Our spells are cast by the player who owns them, so its
    owner is its controller. An ability is not a card: it just ceases to exist (608.2n)."""
    if obj.kind is not StackKind.SPELL:
        return
    w.to_graveyard(obj.controller, obj.name)
    owner = w.pname(obj.controller)
    group = len(w.players[obj.controller].graveyard)
    w.emit(
        EventKind.NOTE,
        "zone.spell-to-graveyard",
        None,
        spell=obj.name,
        graveyard=owner,
        group=group,
    )


def equip_still_legal(w: Work, obj: StackObject, t: Target) -> bool:
    """608.2b for equip, on a target already found to be the same object: it is still a
    creature its controller controls, and not an attachment itself (702.6a, 301.5c). Equip's
    stack object has the rule ``NONE`` (an ability of its Equipment), so 702.6a is checked
    here, as ``encoding.attachments.equip_still_legal`` does. Its activation always gives it a
    card target and its Equipment as source; a state with a player target or no source (which
    the driven agreement's solver may choose) is refused as the relation refuses it, not with
    a crash."""
    return (
        t.card is not None
        and obj.source is not None
        and equip_target_ok(w, obj.source, t.card, obj.controller)
    )


def end_step(w: Work) -> None:
    """The current step ends (500.2) and the next begins."""
    step = w.step
    if step is Step.END_COMBAT:
        # 511.3: as the end of combat step ends, every creature leaves combat.
        for i, c in enumerate(w.cards):
            if c.in_combat or c.blocked:
                w.cards[i] = c._replace(
                    attacking=False, blocking=None, blocking_also=None, blocked=False
                )
        w.combat = Combat()
        w.emit(EventKind.NOTE, "combat.end", None, removed_from_combat="all")
    if step is Step.CLEANUP:
        # 514.3a: players only get priority in cleanup when something happened there; once
        # they all pass with an empty stack, another cleanup step begins (it ends the turn
        # when nothing happens in it).
        begin_step(w, Step.CLEANUP)
        return
    begin_step(w, next_step(w, step))


def next_step(w: Work, step: Step) -> Step:
    if step is Step.DECLARE_ATTACKERS and not any(c.attacking for c in w.cards):
        return Step.END_COMBAT  # 508.8: no attackers, skip blockers and damage
    if step is Step.DECLARE_BLOCKERS:
        return Step.FIRST_STRIKE_DAMAGE if cb.any_first_strike(w) else Step.COMBAT_DAMAGE
    if step is Step.FIRST_STRIKE_DAMAGE:
        return Step.COMBAT_DAMAGE
    if step is Step.BEGIN_COMBAT:
        return Step.DECLARE_ATTACKERS
    if step is Step.MAIN1:
        return Step.BEGIN_COMBAT
    index = STEP_ORDER.index(step)
    nxt = STEP_ORDER[index + 1]
    if nxt is Step.FIRST_STRIKE_DAMAGE:  # only reached from declare blockers
        nxt = Step.COMBAT_DAMAGE
    return nxt


def next_turn(w: Work) -> None:
    w.turn += 1
    w.active = (w.active + 1) % NUM_PLAYERS
    w.combat = Combat()
    w.emit(EventKind.TURN_BEGAN, "turn.steps", w.pname(w.active), turn=w.turn)
    # 302.6: what the new active player controls now has been theirs since this turn began
    for i, c in enumerate(w.cards):
        if c.sick and c.in_battlefield_zone and controller(c) == w.active:  # phased out too
            w.cards[i] = c._replace(sick=False)
            w.emit(EventKind.NOTE, "combat.summoning-sickness", w.name(i), summoning_sick=False)
    begin_step(w, Step.UNTAP)


def begin_step(w: Work, step: Step) -> None:
    w.step = step
    w.priority = None
    w.passed = frozenset()
    w.emit(EventKind.STEP_BEGAN, "turn.steps", None, step=step.value)
    if step is Step.UNTAP:
        untap_step_phasing(w)  # 502.1: phasing first, before anything untaps
        for i, c in enumerate(w.cards):  # 502.3
            if c.on_battlefield and c.tapped and controller(c) == w.active:
                w.cards[i] = c._replace(tapped=False)
                w.emit(EventKind.BECAME_UNTAPPED, "turn.untap", w.name(i))
        begin_step(w, Step.UPKEEP)  # 502.4: nobody gets priority in the untap step
    elif step is Step.DECLARE_ATTACKERS:
        if cb.can_attack(w):
            w.decision = Decision.DECLARE_ATTACKERS
        else:
            _declare_attackers(w, [])
    elif step is Step.DECLARE_BLOCKERS:
        if cb.can_block(w):
            w.decision = Decision.DECLARE_BLOCKERS
        else:
            _declare_blockers(w, [])
    elif step in (Step.FIRST_STRIKE_DAMAGE, Step.COMBAT_DAMAGE):
        _begin_damage_step(w, step)
    elif step is Step.END_COMBAT:
        end_of_combat_triggers(w)  # 511.2: "at end of combat" triggers as the step begins
        give_priority(w, w.active)
    elif step is Step.END:
        end_step_triggers(w)  # 513.1: "at the beginning of your end step" triggers
        give_priority(w, w.active)
    elif step is Step.CLEANUP:
        cleanup_effects(w)
        if sba_pending(w) or w.pending:
            # 514.3a: players get priority in this cleanup step; another one follows.
            w.emit(EventKind.NOTE, "cleanup.repeat", None, priority_in_cleanup=True)
            give_priority(w, w.active)
        else:
            w.emit(EventKind.NOTE, "cleanup.repeat", None, priority_in_cleanup=False)
            next_turn(w)
    else:
        give_priority(w, w.active)  # 117.3a


# --- combat ---------------------------------------------------------------------------------


def declare_attackers(w: Work, player: int, handles: tuple[str, ...]) -> None:
    if w.decision is not Decision.DECLARE_ATTACKERS or player != w.active:
        raise IllegalAction(
            "attackers are declared by the active player at the start of the declare attackers step",
            "combat.declare-attackers",
            "player",
        )
    _declare_attackers(w, cb.validate_declared_attackers(w, handles))


def _declare_attackers(w: Work, slots: list[int]) -> None:
    # 508.1f: the attackers become tapped at once; the triggers that makes (Soldevi Steam
    # Beast's) are their controller's to order (603.3b), in slot order here as in the
    # relation, whatever order the declaration lists them in
    for slot in sorted(slots):
        c = w.cards[slot]
        w.cards[slot] = c._replace(attacking=True, tapped=True)
        w.emit(EventKind.BECAME_TAPPED, "combat.declare-attackers", w.name(slot), by="attacking")
        tapped_trigger(w, slot)
    w.combat = w.combat._replace(declared=True)
    w.emit(
        EventKind.ATTACKERS_DECLARED,
        "combat.declare-attackers" if slots else "combat.no-attackers",
        w.pname(w.active),
        attackers=",".join(w.name(s) for s in slots),
    )
    w.decision = Decision.NONE
    give_priority(w, w.active)


def declare_blockers(w: Work, player: int, blocks: tuple[tuple[str, str], ...]) -> None:
    if w.decision is not Decision.DECLARE_BLOCKERS or player != w.defending:
        raise IllegalAction(
            "blockers are declared by the defending player at the start of the declare blockers step",
            "combat.declare-blockers",
            "player",
        )
    _declare_blockers(w, cb.validate_declared_blockers(w, blocks))


def _declare_blockers(w: Work, pairs: list[tuple[int, int]]) -> None:
    for b, a in pairs:
        if w.cards[b].blocking is None:
            w.cards[b] = w.cards[b]._replace(blocking=a)
        else:
            # 509.1a with "can block an additional creature": its second attacker
            w.cards[b] = w.cards[b]._replace(blocking_also=a)
            w.emit(EventKind.NOTE, "combat.block-additional", w.name(b), also_blocks=w.name(a))
        w.cards[a] = w.cards[a]._replace(blocked=True)
    w.emit(
        EventKind.BLOCKERS_DECLARED,
        "combat.declare-blockers",
        w.pname(w.defending),
        blocks=",".join(f"{w.name(b)}->{w.name(a)}" for b, a in pairs),
    )
    block_destroy_triggers(w, pairs)
    if pairs:
        w.emit(
            EventKind.NOTE,
            "combat.blocked-stays",
            None,
            blocked=",".join(sorted({w.name(a) for _, a in pairs})),
        )
    w.decision = Decision.NONE
    if w.edition is Edition.M10:
        # 509.2 (2009-2024): one-blocker orders are forced; several blockers need a choice.
        orders = list(w.combat.orders)
        for a in sorted({a for _, a in pairs}):
            blockers = cb.current_blockers(w, a, ())
            if len(blockers) == 1:
                orders.append((a, (blockers[0],)))
        w.combat = w.combat._replace(orders=tuple(orders))
        if cb.needs_order(w):
            w.decision = Decision.ORDER_BLOCKERS
            return
    give_priority(w, w.active)


def order_blockers(w: Work, player: int, attacker: str, order: tuple[str, ...]) -> None:
    if w.edition is not Edition.M10:
        raise IllegalAction(
            f"damage assignment orders exist only in the M10 edition (this game uses {w.edition.value})",
            "combat.edition.m10",
            "attacker",
        )
    if w.decision is not Decision.ORDER_BLOCKERS or player != w.active:
        raise IllegalAction(
            "blockers are ordered by the active player right after blockers are declared",
            "combat.edition.m10",
            "player",
        )
    a = w.slot(attacker, "attacker")
    if a not in cb.needs_order(w):
        raise IllegalAction(
            f"{attacker} has no blockers to order", "combat.edition.m10", "attacker"
        )
    slots = tuple(w.slot(h, "order") for h in order)
    if sorted(slots) != sorted(cb.current_blockers(w, a, ())):
        raise IllegalAction(
            f"the order must list exactly the creatures blocking {attacker}",
            "combat.edition.m10",
            "order",
        )
    w.combat = w.combat._replace(orders=(*w.combat.orders, (a, slots)))
    w.emit(EventKind.BLOCKERS_ORDERED, "combat.edition.m10", attacker, order=",".join(order))
    if not cb.needs_order(w):
        w.decision = Decision.NONE
        give_priority(w, w.active)


def _begin_damage_step(w: Work, step: Step) -> None:
    if step is Step.FIRST_STRIKE_DAMAGE:
        strikers = frozenset(
            i for i, c in enumerate(w.cards) if c.in_combat and cb.strikes_first(w, c)
        )
        w.combat = w.combat._replace(first_strike_step=True, first_strikers=strikers)
        w.emit(
            EventKind.NOTE,
            "combat.damage.first-strike",
            None,
            first_strikers=",".join(w.name(i) for i in sorted(strikers)),
        )
    elif w.combat.first_strike_step:
        _strike_again(w)
    if cb.attackers_needing_choice(w, step):
        w.decision = Decision.ASSIGN_COMBAT_DAMAGE
        return
    _assign_and_deal(w, step, {})


def _strike_again(w: Work) -> None:
    """702.4b-d, 510.4: as the regular step begins, the remaining attackers and blockers that
    have double strike now deal damage again, whether or not they struck first: they leave
    ``first_strikers``. One that was removed from combat in the first step (a regenerated
    double striker) is not among them and deals no regular damage; the narration says so."""
    again: set[int] = set()
    gone: list[int] = []
    for i in sorted(w.combat.first_strikers):
        card = w.cards[i]
        if not (card.on_battlefield and has(w, card, Keyword.DOUBLE_STRIKE)):
            continue
        if card.in_combat:
            again.add(i)
        else:
            gone.append(i)
    if gone:
        w.emit(
            EventKind.NOTE,
            "combat.damage.double-strike",
            None,
            no_second_strike=",".join(w.name(i) for i in gone),
            reason="removed from combat",
        )
    if not again:
        return
    w.combat = w.combat._replace(first_strikers=w.combat.first_strikers - again)
    w.emit(
        EventKind.NOTE,
        "combat.damage.double-strike",
        None,
        strike_again=",".join(w.name(i) for i in sorted(again)),
    )


def assign_combat_damage(
    w: Work, player: int, divisions: dict[str, tuple[tuple[str, int], ...]]
) -> None:
    if w.decision is not Decision.ASSIGN_COMBAT_DAMAGE or player != w.active:
        raise IllegalAction(
            "combat damage is assigned by the active player as the combat damage step begins",
            "combat.damage.assign",
            "player",
        )
    needing = cb.attackers_needing_choice(w, w.step)
    chosen: dict[int, cb.Division] = {}
    for handle, shares in divisions.items():
        a = w.slot(handle, "divisions")
        legal = cb.divisions_of(w, a)
        division = tuple(
            (cb.PLAYER if r == "player" else w.slot(r, "divisions"), n) for r, n in shares if n > 0
        )
        # An attacker's division (510.1c), or that of a creature blocking two attackers
        # (510.1d; its controller's choice in the rules, carried by this one action).
        divides = w.cards[a].attacking or w.cards[a].blocking_also is not None
        if a not in cb.dealers(w, w.step):
            raise IllegalAction(
                f"{handle} deals no combat damage in this step", "combat.damage.assign", "divisions"
            )
        if not divides:
            # 510.1d: a blocker of one attacker deals all its damage to it; nothing to divide
            raise IllegalAction(
                f"{handle} blocks one attacker and deals all its combat damage to it, with "
                "nothing to divide (510.1d); leave it out of the divisions",
                "combat.damage.assign",
                "divisions",
            )
        legal_here = {_norm(d) for d in legal}
        if w.cards[a].attacking and not w.cards[a].blocked and _norm(division) not in legal_here:
            # 510.1a: an unblocked attacker's damage all goes to the player it attacks; it has
            # no division to choose, so "legal: no damage" would mislead.
            raise IllegalAction(
                f"{handle} is unblocked: all its combat damage goes to the player it attacks, "
                "with nothing to divide; leave it out of the divisions",
                "combat.damage.assign",
                "divisions",
            )
        if _norm(division) not in legal_here:
            raise IllegalAction(
                f"illegal damage division for {handle}: {describe_division(w, division)}; legal: "
                + "; ".join(describe_division(w, d) for d in legal),
                _edition_clause(w.edition)
                if w.cards[a].attacking
                else "combat.damage.multi-blocker",
                "divisions",
            )
        chosen[a] = division
    missing = [w.name(a) for a in needing if a not in chosen]
    if missing:
        raise IllegalAction(
            "the damage assignment must say how to divide the damage of " + ", ".join(missing),
            _edition_clause(w.edition),
            "divisions",
        )
    w.decision = Decision.NONE
    _assign_and_deal(w, w.step, chosen)


def _norm(d: cb.Division) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(d))


def _edition_clause(edition: Edition) -> str:
    return {
        Edition.PRE_M10: "combat.edition.pre-m10",
        Edition.M10: "combat.edition.m10",
        Edition.FDN: "combat.edition.fdn",
    }[edition]


def describe_division(w: Work, d: cb.Division) -> str:
    if not d:
        return "no damage"
    return ", ".join(f"{n} to {'player' if r == cb.PLAYER else w.name(r)}" for r, n in d)


def _assign_and_deal(w: Work, step: Step, chosen: dict[int, cb.Division]) -> None:
    planned = cb.plan_hits(w, step, chosen)
    defending = w.defending
    hits: list[tuple[int, Hit]] = []
    for source, recipient, amount in planned:
        if recipient == cb.PLAYER:
            hits.append((source, Hit(amount, player=defending)))
        else:
            hits.append((source, Hit(amount, card=recipient, gen=w.cards[recipient].gen)))
    w.emit(
        EventKind.COMBAT_DAMAGE_ASSIGNED,
        "combat.damage.assign",
        None,
        assignment="; ".join(
            f"{w.name(s)}: {h.amount} to "
            + (w.pname(h.player) if h.player is not None else w.name(h.card or 0))
            for s, h in hits
        )
        or "none",
    )
    w.emit(EventKind.NOTE, _edition_clause(w.edition), None, edition=w.edition.value)
    if any(has(w, w.cards[s], Keyword.TRAMPLE) and h.player is not None for s, h in hits):
        w.emit(EventKind.NOTE, "combat.damage.trample", None, trample_to_player=True)
    if w.edition is Edition.PRE_M10:
        # 310.1/310.4 (pre-M10): the assignment is one object on the stack; players respond.
        # Its sources' keywords are read when it resolves (310.4b); the mutant reads them now.
        lki: tuple[SourceLKI, ...] = ()
        if w.mutant(Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT):
            lki = tuple(
                SourceLKI(s, keywords(w, w.cards[s]), controller(w.cards[s]))
                for s in sorted({s for s, _ in hits})
            )
        if hits:
            w.stack.append(
                StackObject(
                    kind=StackKind.COMBAT_DAMAGE,
                    name="combat damage",
                    controller=w.active,
                    effect=None,
                    combat_hits=tuple(hits),
                    combat_lki=lki,
                )
            )
            w.emit(EventKind.PUT_ON_STACK, "combat.edition.pre-m10", "combat damage")
        give_priority(w, w.active)
        return
    shares = [
        Damage(w.name(s), s, keywords(w, w.cards[s]), controller(w.cards[s]), h) for s, h in hits
    ]
    w.emit(EventKind.NOTE, "combat.damage.dealt", None, simultaneous=True)
    deal_damage(w, shares, combat=True, cant_regen=False)
    give_priority(w, w.active)


# --- casting and activating -------------------------------------------------------------------


def require_priority(w: Work, player: int, clause: str) -> None:
    if w.priority != player:
        holder = "nobody" if w.priority is None else w.pname(w.priority)
        raise IllegalAction(
            f"{w.pname(player)} does not hold priority ({holder} does)", clause, "player"
        )
