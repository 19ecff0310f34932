"""Characteristics computed from the state: controller, power, toughness, keywords, and
whether a state-based action is pending.

These are the only places where layers are applied (613): control (layer 2), abilities
(layer 6) and power/toughness (layer 7c: counters, Aura/Equipment bonuses, until-end-of-turn
modifications; all of them add, so their order does not matter).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from regen_model.model.cards import ActivatedAbility
from regen_model.model.enums import Attachment, Color, Keyword
from regen_model.model.state import Card, Player, Setup


class Board(Protocol):
    """Anything with a setup, cards and players: a ``GameState`` or the engine's workspace."""

    @property
    def setup(self) -> Setup: ...

    @property
    def cards(self) -> Sequence[Card]: ...

    @property
    def players(self) -> Sequence[Player]: ...


def controller(card: Card) -> int:
    """The controller: a later until-end-of-turn change wins over the base controller."""
    return card.control if card.control_eot is None else card.control_eot


def opponent(player: int) -> int:
    """A player's opponent: in a two-player game, the other player (102.2). The model's games
    have two players (more is out of scope), so "target opponent" has this one choice."""
    return 1 - player


def keywords(state: Board, card: Card) -> frozenset[Keyword]:
    """Printed keywords and those its Auras and Equipment grant it (layer 6, 613.1f; a static
    ability applies to whatever it is attached to now, 611.3a), then until-end-of-turn grants
    and removals (latest wins, 613.7: an attachment's grant counts as the earlier effect, see
    docs/attachments.md)."""
    printed = state.setup.templates[card.slot].keywords | granted_by_attachments(state, card)
    if not card.kw_granted and not card.kw_removed:
        return printed
    return (printed | card.kw_granted) - card.kw_removed


def granted_by_attachments(state: Board, card: Card) -> frozenset[Keyword]:
    """The keywords the Auras and Equipment attached to ``card`` give it ("equipped creature
    has indestructible"): only those on the battlefield, phased in, count."""
    templates = state.setup.templates
    out: frozenset[Keyword] = frozenset()
    for other in state.cards:
        if other.attached_to == card.slot and other.on_battlefield:
            out |= templates[other.slot].grants
    return out


def has(state: Board, card: Card, keyword: Keyword) -> bool:
    return keyword in keywords(state, card)


def _attach_bonus(state: Board, card: Card) -> tuple[int, int]:
    dp = dt = 0
    for other in state.cards:
        if other.attached_to == card.slot and other.on_battlefield:
            bp, bt = state.setup.templates[other.slot].attach_bonus
            dp += bp
            dt += bt
    return dp, dt


def base_pt(state: Board, card: Card) -> tuple[int, int]:
    """Printed power and toughness, or those its animation sets (layer 7b, 613.4b)."""
    t = state.setup.templates[card.slot]
    if card.animated and t.animation is not None:
        return t.animation.power, t.animation.toughness
    return t.power, t.toughness


def power(state: Board, card: Card) -> int:
    bonus, _ = _attach_bonus(state, card)
    return base_pt(state, card)[0] + card.plus - card.minus + card.power_eot + bonus


def toughness(state: Board, card: Card) -> int:
    _, bonus = _attach_bonus(state, card)
    return base_pt(state, card)[1] + card.plus - card.minus + card.toughness_eot + bonus


def shrines(state: Board, player: int) -> int:
    """How many Shrines ``player`` controls (205.3h): permanents on the battlefield, phased in
    (702.26b), whose subtypes include Shrine, creatures or not (Go-Shintai of Hidden
    Cruelty's X)."""
    templates = state.setup.templates
    return sum(
        1
        for c in state.cards
        if c.on_battlefield and templates[c.slot].shrine and controller(c) == player
    )


def is_creature(state: Board, card: Card) -> bool:
    """Its card types now (layer 4, 613.1d): printed or animated, unless the latest type
    change until end of turn made it stop being a creature (see ``Card``)."""
    printed = state.setup.templates[card.slot].is_creature
    return (printed or card.animated) and not card.noncreature


def is_creature_on_battlefield(state: Board, card: Card) -> bool:
    return card.on_battlefield and is_creature(state, card)


def colors(state: Board, card: Card) -> frozenset[Color]:
    """Printed colors, or those its animation gives it (layer 5, 613.1e)."""
    t = state.setup.templates[card.slot]
    if card.animated and t.animation is not None:
        return t.animation.colors
    return t.colors


def has_ability(state: Board, card: Card, index: int) -> bool:
    """It has its ``index``-th activated ability now (``ability_at``)."""
    return ability_at(state, card, index) is not None


def ability_at(state: Board, card: Card, index: int) -> ActivatedAbility | None:
    """Its ``index``-th activated ability now, or None: printed ones always, those its own
    animation grants only while that applies (613.1f); after its printed ones, at index
    ``len(printed)``, the ability its Auras and Equipment give it ("enchanted creature has
    '{B}: Regenerate this creature'", 613.1f, 113.10), while one that gives it is attached
    to it on the battlefield (611.3a). Two such Auras give two instances of the same
    ability; costs are not paid, so activating either does the same, and the model offers
    one (docs/rules-decisions.md)."""
    abilities = state.setup.templates[card.slot].abilities
    if 0 <= index < len(abilities):
        ability = abilities[index]
        return ability if card.animated or not ability.granted else None
    if index == len(abilities):
        given = granted_abilities(state, card)
        return given[0] if given else None
    return None


def granted_abilities(state: Board, card: Card) -> tuple[ActivatedAbility, ...]:
    """The activated abilities the Auras and Equipment attached to ``card`` give it, in slot
    order: only those on the battlefield, phased in, count (as ``granted_by_attachments``)."""
    templates = state.setup.templates
    out: list[ActivatedAbility] = []
    for other in state.cards:
        if other.attached_to == card.slot and other.on_battlefield:
            out.extend(templates[other.slot].grants_abilities)
    return tuple(out)


def givable(state: Board) -> bool:
    """Some card of the board gives the permanent it is attached to an activated ability
    (the explorer offers that ability's index only on such boards)."""
    return any(t.grants_abilities for t in state.setup.templates)


def givers(state: Board, card: Card) -> tuple[int, ...]:
    """The slots of the attachments on the battlefield attached to ``card`` that give it an
    activated ability (``granted_abilities``)."""
    templates = state.setup.templates
    return tuple(
        other.slot
        for other in state.cards
        if other.attached_to == card.slot
        and other.on_battlefield
        and templates[other.slot].grants_abilities
    )


def summoning_sick(state: Board, card: Card) -> bool:
    """302.6: it can't attack (or use {T} abilities) now: it came under its controller's
    control since their most recent turn began and has no haste (702.10b-c)."""
    return card.sick and not has(state, card, Keyword.HASTE)


def lethal_damage_pending(state: Board, card: Card) -> bool:
    """704.5g would destroy this card now (an indestructible one ignores it, 702.12b)."""
    if not is_creature_on_battlefield(state, card) or card.damage <= 0:
        return False
    t = toughness(state, card)
    return t > 0 and card.damage >= t and not has(state, card, Keyword.INDESTRUCTIBLE)


def deathtouch_pending(state: Board, card: Card) -> bool:
    """704.5h would destroy this card now (never an indestructible one, 702.12b)."""
    if not card.deathtouched or not is_creature_on_battlefield(state, card):
        return False
    return toughness(state, card) > 0 and not has(state, card, Keyword.INDESTRUCTIBLE)


def zero_toughness_pending(state: Board, card: Card) -> bool:
    """704.5f: a creature with toughness 0 or less goes to the graveyard."""
    return is_creature_on_battlefield(state, card) and toughness(state, card) <= 0


def aura_illegal(state: Board, card: Card) -> bool:
    """704.5m: an Aura on the battlefield attached to nothing, or to a non-creature or an
    object that is no longer on the battlefield (our Auras all enchant creatures)."""
    if not card.on_battlefield:
        return False
    if state.setup.templates[card.slot].attachment is not Attachment.AURA:
        return False
    if card.attached_to is None:
        return True
    host = state.cards[card.attached_to]
    return not is_creature_on_battlefield(state, host)


def equipment_illegal(state: Board, card: Card) -> bool:
    """704.5n: an Equipment on the battlefield attached to something that is not a creature
    on the battlefield (301.5c) becomes unattached; it stays on the battlefield."""
    if not card.on_battlefield or card.attached_to is None:
        return False
    if state.setup.templates[card.slot].attachment is not Attachment.EQUIPMENT:
        return False
    return not is_creature_on_battlefield(state, state.cards[card.attached_to])


def counters_annihilate(card: Card) -> bool:
    """704.5q: +1/+1 and -1/-1 counters on one permanent cancel in pairs."""
    return card.on_battlefield and card.plus > 0 and card.minus > 0


def player_loses(state: Board, index: int) -> bool:
    """704.5a/704.5b/704.5c: 0 or less life, an attempted draw from an empty library since the
    last check (``Player.drew_empty``), or 10 or more poison counters."""
    p = state.players[index]
    return not p.lost and (p.life <= 0 or p.poison >= 10 or p.drew_empty)


def sba_pending(state: Board) -> bool:
    """Some state-based action would be performed by a check now (704.3).

    A leftover deathtouch record on a card that cannot be destroyed (indestructible, not a
    creature, toughness 0 handled by 704.5f) does not count: no action would be performed.
    """
    for card in state.cards:
        if not card.on_battlefield:
            continue
        if (
            zero_toughness_pending(state, card)
            or lethal_damage_pending(state, card)
            or deathtouch_pending(state, card)
            or aura_illegal(state, card)
            or equipment_illegal(state, card)
            or counters_annihilate(card)
        ):
            return True
    return any(player_loses(state, i) for i in range(len(state.players)))


def declared_for(card: Card) -> tuple[int, ...]:
    """The attackers ``card`` was declared blocking: one, or two for a creature that can
    block an additional creature (509.1a); its M10 damage assignment order (509.3 of
    2009-2024) is this order."""
    if card.blocking is None:
        return ()
    if card.blocking_also is None:
        return (card.blocking,)
    return (card.blocking, card.blocking_also)


def blocks_now(board: Board, blocker: int) -> list[int]:
    """The attackers ``blocker`` is blocking now: those it was declared blocking that are
    still attacking (510.1d: an attacker removed from combat is no longer blocked by it)."""
    return [
        a
        for a in declared_for(board.cards[blocker])
        if board.cards[a].on_battlefield and board.cards[a].attacking
    ]
