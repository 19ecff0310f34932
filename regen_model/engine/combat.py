"""Combat: declarations, who deals damage in which step, and the legal damage divisions in
each rule edition (pre-M10, M10, FDN).

The attacking player's choices are explicit: ``legal_divisions`` lists every legal way one
attacker can divide its damage, and ``AssignCombatDamage`` must pick one of them whenever
there is more than one. The three editions differ only in which divisions are legal and in
when the damage is dealt (a creature blocking two attackers divides its damage between them
the same way, ``blocker_divisions``, 510.1d):

* pre-M10 (310.2c, 310.4): any split among the blockers; the assignment goes on the stack
  and players may respond (e.g. regenerate) before it is dealt, as assigned.
* M10 (509.2, 510.1c of 2009-2024): the blockers were put in an order when they were
  declared; a blocker may get damage only if every blocker before it got lethal damage.
* FDN (510.1c from 2024-11-08): any split among the blockers, dealt at once (510.2).

Trample (702.19b) in every edition: the player may get damage only once every blocker has
been assigned lethal damage; a blocked trampler whose blockers are all gone assigns everything
to the player (702.19d). One point of deathtouch damage counts as lethal (702.2c).
"""

from __future__ import annotations

from collections.abc import Iterator

from regen_model.engine.errors import IllegalAction
from regen_model.engine.work import Work
from regen_model.model.derived import (
    Board,
    blocks_now,
    controller,
    has,
    is_creature_on_battlefield,
    power,
    summoning_sick,
    toughness,
)
from regen_model.model.enums import Edition, Keyword, Mutant, Step
from regen_model.model.events import EventKind
from regen_model.model.state import Card

PLAYER = -1  # recipient index meaning "the defending player" in a division
Division = tuple[tuple[int, int], ...]  # (recipient slot or PLAYER, amount), amounts > 0 only


def current_blockers(
    board: Board, attacker: int, orders: tuple[tuple[int, tuple[int, ...]], ...]
) -> list[int]:
    """Creatures blocking ``attacker`` now, in its damage assignment order if it has one."""
    blockers = [
        i
        for i, c in enumerate(board.cards)
        if c.on_battlefield and (c.blocking == attacker or c.blocking_also == attacker)
    ]
    for a, order in orders:
        if a == attacker:
            ranked = [b for b in order if b in blockers]
            return ranked + [b for b in blockers if b not in ranked]
    return blockers


def lethal_for(board: Board, blocker: Card, deathtouch: bool) -> int:
    """Lethal damage for assignment: toughness minus damage already marked; 1 with deathtouch
    (702.2c; not before M10, when deathtouch was a trigger and trample looked at toughness
    only, pre-M10 502.9d: the caller passes ``deathtouch`` False then). Shields do not change
    what counts as lethal."""
    if deathtouch:
        return 1
    return max(0, toughness(board, blocker) - blocker.damage)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 0:
        if total == 0:
            yield ()
        return
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def legal_divisions(
    board: Board,
    edition: Edition,
    attacker: int,
    orders: tuple[tuple[int, tuple[int, ...]], ...],
) -> list[Division]:
    """Every legal damage assignment of a blocked ``attacker`` (510.1c, 702.19)."""
    card = board.cards[attacker]
    amount = power(board, card)
    if amount <= 0:
        return [()]
    blockers = current_blockers(board, attacker, orders)
    trample = has(board, card, Keyword.TRAMPLE)
    if not blockers:
        return [((PLAYER, amount),)] if trample else [()]
    deathtouch = edition is not Edition.PRE_M10 and has(board, card, Keyword.DEATHTOUCH)
    lethal = [lethal_for(board, board.cards[b], deathtouch) for b in blockers]
    recipients = [*blockers, PLAYER] if trample else list(blockers)
    result: list[Division] = []
    for split in _compositions(amount, len(recipients)):
        to_blockers = split[: len(blockers)]
        if (
            trample
            and split[-1] > 0
            and any(g < need for g, need in zip(to_blockers, lethal, strict=False))
        ):
            continue  # 702.19b: the player only after lethal to every blocker
        if edition is Edition.M10 and not _respects_order(to_blockers, lethal):
            continue
        result.append(tuple((r, n) for r, n in zip(recipients, split, strict=False) if n > 0))
    return result


def blocker_divisions(board: Board, edition: Edition, blocker: int) -> list[Division]:
    """Every legal damage assignment of ``blocker`` (510.1d): all of it to the one attacker it
    blocks now, nothing if it blocks none; among two, any split (FDN 510.1d; before M10 as
    its controller announced it with the rest of the combat damage, combat.edition.pre-m10),
    or (M10, 510.1d of 2009-2024) the second in its order only once the first is assigned
    lethal damage (1 from a deathtouch blocker, 702.2c)."""
    card = board.cards[blocker]
    amount = power(board, card)
    targets = blocks_now(board, blocker)
    if amount <= 0 or not targets:
        return [()]
    if len(targets) == 1:
        return [((targets[0], amount),)]
    deathtouch = edition is not Edition.PRE_M10 and has(board, card, Keyword.DEATHTOUCH)
    lethal = [lethal_for(board, board.cards[a], deathtouch) for a in targets]
    result: list[Division] = []
    for split in _compositions(amount, len(targets)):
        if edition is Edition.M10 and not _respects_order(split, lethal):
            continue
        result.append(tuple((a, n) for a, n in zip(targets, split, strict=False) if n > 0))
    return result


def _respects_order(split: tuple[int, ...], lethal: list[int]) -> bool:
    """M10 510.1c: a blocker may get damage only if all earlier blockers got lethal damage."""
    for k, got in enumerate(split):
        if got > 0 and any(split[j] < lethal[j] for j in range(k)):
            return False
    return True


def strikes_first(board: Board, card: Card) -> bool:
    """First strike or double strike: it deals damage in the first-strike step (510.4, 702.4b)."""
    return has(board, card, Keyword.FIRST_STRIKE) or has(board, card, Keyword.DOUBLE_STRIKE)


def dealers(w: Work, step: Step) -> list[int]:
    """Creatures that assign combat damage in this step (510.1, 510.4). In the regular step of
    a combat with a first-strike step: the remaining attackers and blockers not in
    ``first_strikers`` (double strikers left it as the regular step began, 702.4b)."""
    in_combat = [
        i
        for i, c in enumerate(w.cards)
        if c.on_battlefield and c.in_combat and is_creature_on_battlefield(w, c)
    ]
    if step is Step.FIRST_STRIKE_DAMAGE:
        return [i for i in in_combat if strikes_first(w, w.cards[i])]
    if w.combat.first_strike_step:
        return [i for i in in_combat if i not in w.combat.first_strikers]
    return in_combat


def attackers_needing_choice(w: Work, step: Step) -> list[int]:
    """Creatures dealing damage now whose damage can legally be divided in several ways:
    blocked attackers (510.1c) and blockers blocking two attackers (510.1d)."""
    out = []
    for i in dealers(w, step):
        card = w.cards[i]
        attacker = (
            card.attacking
            and card.blocked
            and len(legal_divisions(w, w.edition, i, w.combat.orders)) > 1
        )
        blocker = (
            not card.attacking
            and card.blocking_also is not None
            and not w.mutant(Mutant.MULTI_BLOCKER_FIRST_ONLY)
            and len(blocker_divisions(w, w.edition, i)) > 1
        )
        if attacker or blocker:
            out.append(i)
    return out


def divisions_of(w: Work, slot: int) -> list[Division]:
    """The legal divisions of a creature named in a damage assignment: a blocker of two
    attackers (510.1d), else as an attacker (510.1c)."""
    card = w.cards[slot]
    if not card.attacking and card.blocking_also is not None:
        return blocker_divisions(w, w.edition, slot)
    return legal_divisions(w, w.edition, slot, w.combat.orders)


def plan_hits(w: Work, step: Step, chosen: dict[int, Division]) -> list[tuple[int, int, int]]:
    """All combat damage of this step as (source slot, recipient slot or PLAYER, amount)."""
    hits: list[tuple[int, int, int]] = []
    for i in dealers(w, step):
        card = w.cards[i]
        amount = power(w, card)
        if amount <= 0:
            continue
        if card.attacking:
            if not card.blocked:
                hits.append((i, PLAYER, amount))
                continue
            options = legal_divisions(w, w.edition, i, w.combat.orders)
            division = chosen.get(i, options[0])
            if not division:
                w.emit(
                    EventKind.NO_COMBAT_DAMAGE,
                    "combat.blocked-stays",
                    w.name(i),
                    reason="blocked, no blockers left",
                )
            hits.extend((i, r, n) for r, n in division)
        elif card.blocking is not None:
            two = card.blocking_also is not None
            clause = "combat.damage.multi-blocker" if two else "combat.damage.assign"
            if w.mutant(Mutant.MULTI_BLOCKER_FIRST_ONLY) and two:
                division = _first_only(w, i, amount)
            else:
                division = chosen.get(i, blocker_divisions(w, w.edition, i)[0])
            if not division:
                w.emit(EventKind.NO_COMBAT_DAMAGE, clause, w.name(i), reason="blocks nothing now")
            elif two:
                w.emit(
                    EventKind.NOTE,
                    clause,
                    w.name(i),
                    divides=", ".join(f"{n} to {w.name(r)}" for r, n in division),
                )
            hits.extend((i, r, n) for r, n in division)
    return hits


def _first_only(w: Work, blocker: int, amount: int) -> Division:
    """Mutant ``multi-blocker-first-only``: a creature declared blocking two attackers deals
    all its damage to the first one if that is still attacking, and none otherwise."""
    first = w.cards[blocker].blocking
    if first is not None and first in blocks_now(w, blocker):
        return ((first, amount),)
    return ()


def validate_declared_attackers(w: Work, handles: tuple[str, ...]) -> list[int]:
    slots = []
    for h in handles:
        slot = w.on_battlefield(h, "combat.declare-attackers", "attackers")
        card = w.cards[slot]
        if not is_creature_on_battlefield(w, card):
            raise IllegalAction(
                f"{h} is not a creature and can't attack", "combat.declare-attackers", "attackers"
            )
        if controller(card) != w.active:
            raise IllegalAction(
                f"{h} is not controlled by the attacking player",
                "combat.declare-attackers",
                "attackers",
            )
        if card.tapped:
            raise IllegalAction(
                f"{h} is tapped and can't attack (508.1a)", "combat.declare-attackers", "attackers"
            )
        if has(w, card, Keyword.DEFENDER):
            raise IllegalAction(
                f"{h} has defender and can't attack (702.3b)",
                "combat.declare-attackers",
                "attackers",
            )
        if _sick(w, card):
            raise IllegalAction(
                f"{h} came under {w.pname(w.active)}'s control this turn and has no haste, so it "
                "can't attack (302.6, 508.1a)",
                "combat.summoning-sickness",
                "attackers",
            )
        if slot in slots:
            raise IllegalAction(f"{h} is declared twice", "combat.declare-attackers", "attackers")
        slots.append(slot)
    return slots


def validate_declared_blockers(
    w: Work, blocks: tuple[tuple[str, str], ...]
) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for blocker_h, attacker_h in blocks:
        b = w.on_battlefield(blocker_h, "combat.declare-blockers", "blocks")
        a = w.on_battlefield(attacker_h, "combat.declare-blockers", "blocks")
        bc = w.cards[b]
        if not is_creature_on_battlefield(w, bc):
            raise IllegalAction(
                f"{blocker_h} is not a creature and can't block",
                "combat.declare-blockers",
                "blocks",
            )
        if controller(bc) != w.defending:
            raise IllegalAction(
                f"{blocker_h} is not controlled by the defending player",
                "combat.declare-blockers",
                "blocks",
            )
        if bc.tapped:
            raise IllegalAction(
                f"{blocker_h} is tapped and can't block (509.1a)",
                "combat.declare-blockers",
                "blocks",
            )
        if not w.cards[a].attacking:
            raise IllegalAction(
                f"{attacker_h} is not attacking", "combat.declare-blockers", "blocks"
            )
        if b in used:
            # 509.1a, changed by the card (101.1): one more attacker, not two more.
            if not w.setup.templates[b].extra_block:
                raise IllegalAction(
                    f"{blocker_h} can block only one attacker", "combat.declare-blockers", "blocks"
                )
            if sum(1 for x, _ in pairs if x == b) >= 2:
                raise IllegalAction(
                    f"{blocker_h} can block at most two attackers (it can block one additional "
                    "creature, 509.1a)",
                    "combat.block-additional",
                    "blocks",
                )
            if (b, a) in pairs:
                raise IllegalAction(
                    f"{blocker_h} is declared blocking {attacker_h} twice",
                    "combat.block-additional",
                    "blocks",
                )
        used.add(b)
        pairs.append((b, a))
    return pairs


def may_attack(w: Work, card: Card) -> bool:
    """508.1a: the active player's untapped creature without defender (702.3b), not summoning
    sick (302.6, 702.10b)."""
    return (
        is_creature_on_battlefield(w, card)
        and controller(card) == w.active
        and not card.tapped
        and not has(w, card, Keyword.DEFENDER)
        and not _sick(w, card)
    )


def _sick(w: Work, card: Card) -> bool:
    return summoning_sick(w, card) and not w.mutant(Mutant.SUMMONING_SICKNESS_IGNORED)


def can_attack(w: Work) -> bool:
    return any(may_attack(w, c) for c in w.cards)


def can_block(w: Work) -> bool:
    return any(
        is_creature_on_battlefield(w, c) and controller(c) == w.defending and not c.tapped
        for c in w.cards
    )


def any_first_strike(w: Work) -> bool:
    """510.4: an attacking or blocking creature has first strike or double strike."""
    return any(c.on_battlefield and c.in_combat and strikes_first(w, c) for c in w.cards)


def needs_order(w: Work) -> list[int]:
    """M10: blocked attackers with two or more blockers and no order yet."""
    ordered = {a for a, _ in w.combat.orders}
    out = []
    for i, c in enumerate(w.cards):
        if c.attacking and i not in ordered and len(current_blockers(w, i, ())) >= 2:
            out.append(i)
    return out
