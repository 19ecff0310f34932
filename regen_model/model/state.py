"""The game state: immutable records, one per player, card, shield, stack object and combat.

Design notes (why it looks like this):

* Records are ``NamedTuple``s: immutable, hashable (explicit-state exploration hashes whole
  states), cheap to copy with ``_replace`` (the engine's throughput goal is 50k steps/s).
* A *card slot* follows one physical card through zones. ``slot`` never changes; ``gen`` counts
  its incarnations. Rule 400.7 (a card that changes zones becomes a new object) is ``gen + 1``,
  so the object identity is the pair ``(slot, gen)``: see ``Card.oid``. Per-slot generations
  instead of a global counter keep equal situations equal for state hashing.
* Everything that is static for a scenario (names, printed characteristics, owners) sits in
  ``Setup``, shared by every state of a run and compared by identity.
* ``Ghost`` fields are bookkeeping for the invariants (how many shields were made for this
  object this turn, how many destructions were replaced by what). They do not influence any
  rule and are not observable by other engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from regen_model.model.cards import CardTemplate
from regen_model.model.effects import Effect, TargetRule
from regen_model.model.enums import (
    Decision,
    Edition,
    Keyword,
    ReplacementKind,
    Rider,
    StackKind,
    Step,
    Zone,
)


@dataclass(frozen=True, eq=False)
class Setup:
    """What never changes during a run: names, card definitions and owners.

    Compared by identity (``eq=False``): states of one run share one ``Setup``.
    """

    player_names: tuple[str, ...]
    handles: tuple[str, ...]
    templates: tuple[CardTemplate, ...]
    owners: tuple[int, ...]

    def slot_of(self, handle: str) -> int:
        """The slot of a card handle; raises ``KeyError`` for an unknown handle."""
        return self.handles.index(handle)

    def player_index(self, name: str) -> int:
        return self.player_names.index(name)


class Shield(NamedTuple):
    """A regeneration shield (701.19a): a one-use replacement effect for one object, this turn.

    ``creator`` is the player who controlled the spell or ability that made it; a
    ``GAIN_CONTROL`` rider gives that player control (Debt of Loyalty). A used shield stays in
    the card's list with ``used=True`` until cleanup, so "used at most once" can be checked.

    ``via``: the slot of the Aura or Equipment whose ability ("Regenerate enchanted creature")
    made it. Bookkeeping only: the shield belongs to the creature (701.19a) and nothing in the
    rules reads ``via``; only the ``shield-on-attachment`` mutant does, which (like a real
    engine did) keeps the shield with the attachment: lost when it leaves, moved when it moves.
    """

    origin: str
    creator: int
    rider: Rider
    used: bool = False
    via: int | None = None


class Ghost(NamedTuple):
    """Per-object bookkeeping for this turn (reset at cleanup and on a zone change)."""

    shields_made: int = 0
    destructions: int = 0  # times it would have been destroyed (replaced or not)
    by_shield: int = 0  # destructions replaced by a regeneration shield
    by_static: int = 0  # destructions replaced by static regeneration
    by_other: int = 0  # destructions replaced by umbra armor, a shield counter or Pyramids

    def replaced_by(self, kind: ReplacementKind) -> Ghost:
        """This bookkeeping after one more destruction replaced by ``kind`` (616.1): each
        replacement is counted where the "destroyed this way" and shield counts read it."""
        if kind is ReplacementKind.SHIELD:
            return self._replace(by_shield=self.by_shield + 1)
        if kind is ReplacementKind.STATIC:
            return self._replace(by_static=self.by_static + 1)
        return self._replace(by_other=self.by_other + 1)


class Card(NamedTuple):
    """The changing state of one card slot.

    ``control`` is the controller set by the latest control effect without a duration (the
    owner at first); ``control_eot`` is a later "until end of turn" control effect, if any. The
    later effect wins (613.7), and one without duration overrides all earlier ones, so these two
    fields capture every sequence of control changes exactly (see ``derived.controller``).
    Keyword effects until end of turn work the same way: the latest grant or removal wins.

    ``sick``: it has not been under its controller's control continuously since that player's
    most recent turn began (302.6, "summoning sickness"): it came onto the battlefield or under
    this controller's control since then. Without haste it can't attack (508.1a, 702.10b).

    ``prevent_next``: what is left of the "prevent the next N damage that would be dealt to it
    this turn" shields on it, added up (615.7: such a shield counts damage, not events or
    sources, so several shields with no other effect act as one of their total).
    ``prevent_all``: "prevent all damage that would be dealt to it this turn" applies (615.1).
    Both end at cleanup (514.2) and do not follow it to a new object (400.7).

    ``remove_damage``: how many unused "the next time it would be destroyed this turn, remove
    all damage marked on it instead" effects (Pyramids) apply to it. Each replaces one
    destruction and is then used up (614.1a, 614.5); they end at cleanup (514.2) and do not
    follow it to a new object (400.7).

    ``phased_out``: the player who controlled it when it phased out, while it is phased out
    (702.26b; ``None`` while phased in, 110.5b). Phasing is a status, not a zone (702.26d): it
    stays on the battlefield with its damage, counters, shields and attachments, but is treated
    as though it does not exist, so ``on_battlefield`` is false for it. It phases in during
    that player's next untap step (502.1); an Aura or Equipment that phased out with its host
    (702.26g, "indirectly") carries the host's player, so it phases in with it.

    ``blocking`` and ``blocking_also``: the attackers it was declared blocking, the second only
    for a creature that "can block an additional creature each combat" (509.1a, 101.1). They
    keep naming an attacker that has since left combat: the creature is still a blocking
    creature, but it blocks only those of them still attacking (510.1d, ``combat.blocks_now``).
    Its M10 damage assignment order (509.3 of 2009-2024) is ``blocking``, then ``blocking_also``:
    the defending player fixes it when declaring (see docs/rules-decisions.md).

    ``eoc_destroy``: how many delayed triggers "destroy that creature at end of combat" wait
    on this object (603.7; made when it blocked or was blocked by a Thicket Basilisk or a
    Cockatrice, 509.1i), and ``eoc_destroy_by`` the player who controls them (the Basilisk's
    controller, 603.7e; the same player for all of them, since every creature on one side of
    a combat is controlled by one player as blockers are declared). They follow the object,
    not its combat status (603.7c): a regeneration, which removes it from combat, leaves them;
    a zone change (a new object, 400.7) ends them. They trigger as the end of combat step
    begins (511.2) and are gone then (603.7b).
    """

    slot: int
    zone: Zone
    gen: int
    control: int
    control_eot: int | None = None
    tapped: bool = False
    damage: int = 0
    deathtouched: bool = False
    plus: int = 0
    minus: int = 0
    shield_counters: int = 0
    remove_damage: int = 0
    prevent_next: int = 0
    prevent_all: bool = False
    power_eot: int = 0
    toughness_eot: int = 0
    kw_granted: frozenset[Keyword] = frozenset()
    kw_removed: frozenset[Keyword] = frozenset()
    cant_regen: bool = False
    exile_if_dies: bool = False
    attached_to: int | None = None
    shields: tuple[Shield, ...] = ()
    attacking: bool = False
    blocking: int | None = None
    blocking_also: int | None = None
    blocked: bool = False
    sick: bool = False
    animated: bool = False
    noncreature: bool = False
    phased_out: int | None = None
    eoc_destroy: int = 0
    eoc_destroy_by: int | None = None
    ghost: Ghost = Ghost()

    @property
    def oid(self) -> tuple[int, int]:
        """Object identity (400.7): the slot and its incarnation number."""
        return (self.slot, self.gen)

    @property
    def on_battlefield(self) -> bool:
        """On the battlefield and phased in: what the game treats as existing there (702.26b)."""
        return self.zone is Zone.BATTLEFIELD and self.phased_out is None

    @property
    def in_battlefield_zone(self) -> bool:
        """In the battlefield zone, phased in or out: what cleanup (514.2, "including phased-out
        permanents") and the untap step's phasing (502.1) look at."""
        return self.zone is Zone.BATTLEFIELD

    @property
    def active_shields(self) -> tuple[int, ...]:
        """Indices of the unused shields."""
        return tuple(i for i, s in enumerate(self.shields) if not s.used)

    @property
    def in_combat(self) -> bool:
        return self.attacking or self.blocking is not None or self.blocking_also is not None


# A graveyard entry (404.1): a card slot (a permanent card put there), the name of an
# instant or sorcery spell card that finished resolving or did not resolve (608.2n, 608.2b),
# or ``MILLED``: a card milled from a library (701.17a).
GraveItem = int | str
# The entry of a milled card. A library is a count of cards in the model (``Player.library``),
# so a card put from it into a graveyard has no identity: every milled card is this one word,
# which no handle (``scenario.parse_setup.reserved_handles``) or spell may be named. Milled
# cards, all from one mill, are one group (404.3).
MILLED = "milled"
# A graveyard, bottom to top, as the groups of cards put there at the same time: the owner
# arranges the cards of one group in any order (404.3), so a group is kept in a canonical
# order (slots in slot order, then spell names) and read as a set.
Graveyard = tuple[tuple[GraveItem, ...], ...]


class Player(NamedTuple):
    """A player. ``graveyard``: their graveyard, bottom to top, in groups of cards put there at
    the same time (``Graveyard``). Only the order of groups is the game's (404.2: a graveyard
    keeps its order); within a group the owner chose it (404.3), and nothing in the model
    reads it, so the model does not ask.

    ``hand`` and ``library``: how many cards their hand and library hold (402, 401). The model
    needs no card identities there: nothing it runs casts a card from a hand or reads which
    card a library holds, so a count per player is the whole of what a draw (121.1: the top
    card of the library into the hand) changes. ``drew_empty``: the player attempted to draw
    from an empty library since state-based actions were last checked (121.4), so the next
    check makes them lose (704.5b); the check that does clears it.
    """

    life: int = 20
    poison: int = 0
    lost: bool = False
    graveyard: Graveyard = ()
    hand: int = 0
    library: int = 0
    drew_empty: bool = False


# ``Target.spell`` of a targeted spell that has left the stack (countered by another spell):
# the target is illegal from then on (608.2b).
SPELL_GONE = -1


class Target(NamedTuple):
    """A target chosen for a spell or ability: a card object, a player, or a spell on the
    stack (Counterspell's "target spell", 115.1).

    For a card, ``gen`` is its incarnation when targeted; if the card has changed zones since,
    the target is illegal on resolution (608.2b, 400.7).

    ``spell``: the stack position (0 the bottom) of the targeted spell. A spell targets only
    objects already on the stack below it (601.2c; never itself, 115.5), and only the
    resolution of a counter removes an object from beneath others (701.6a): it renumbers the
    targets of the objects above it and marks a target that was the countered spell
    ``SPELL_GONE``, so a position always names the object it named when chosen, and equal
    stacks stay equal values (no serial numbers).
    """

    card: int | None = None
    gen: int = 0
    player: int | None = None
    spell: int | None = None


class Hit(NamedTuple):
    """One share of a damage event: ``amount`` damage to a card slot or to a player."""

    amount: int
    card: int | None = None
    gen: int = 0
    player: int | None = None


class SourceLKI(NamedTuple):
    """Last known information of a source that has left the battlefield (608.2h, 113.7a): its
    keywords and controller as it last existed there. Pre-M10 combat damage on the stack is
    dealt by its sources as they are when it resolves, or, for a source that has left, as they
    last were (pre-M10 310.4b)."""

    source: int
    keywords: frozenset[Keyword]
    controller: int


class StackObject(NamedTuple):
    """A spell, ability, trigger or (pre-M10) combat-damage assignment on the stack.

    For a trigger whose effect deals damage (Jackal Pup's), the source is the permanent
    ``source`` (incarnation ``source_gen``); while it is still that object on the battlefield
    its current keywords count, and once it has left, ``effect.keywords`` holds its last known
    keywords (set when it leaves). ``combat_lki`` does the same for the sources of pre-M10
    combat damage.

    ``target_rule`` is what its card targets must be (``effects.TARGET_NEEDS``), checked
    when it is cast and again as it resolves (608.2b): a spell's is the rule it was cast
    with (Cloudshift's "creature you control", relative to ``controller``); a triggered
    ability naming a creature ("destroy that creature", "put a counter on it") has
    ``CREATURE``; an activated ability acting on its own permanent, a trigger naming only a
    player and combat damage have ``NONE`` (only the object's identity is checked).
    """

    kind: StackKind
    name: str
    controller: int
    effect: Effect | None
    targets: tuple[Target, ...] = ()
    source: int | None = None  # slot of the source permanent, for abilities and triggers
    source_gen: int = 0
    combat_hits: tuple[tuple[int, Hit], ...] = ()  # (source slot, hit) for pre-M10 damage
    combat_lki: tuple[SourceLKI, ...] = ()  # sources of combat_hits that have left
    target_rule: TargetRule = TargetRule.NONE


class Combat(NamedTuple):
    """Combat bookkeeping beyond the per-card attacking/blocking fields.

    ``orders``: M10 damage assignment orders (attacker slot, blocker slots in order).
    ``first_strikers``: the creatures that had first strike or double strike when the
    first-strike damage step began (510.4): they do not deal damage again in the regular step,
    except those still in combat with double strike as it begins, which leave the set then
    (702.4b).
    ``first_strike_step``: this combat has a first-strike damage step.
    ``declared``: attackers have been declared this combat (so blockers can be).
    """

    orders: tuple[tuple[int, tuple[int, ...]], ...] = ()
    first_strikers: frozenset[int] = frozenset()
    first_strike_step: bool = False
    declared: bool = False


class GameState(NamedTuple):
    """The whole game at one moment. ``priority`` is the player holding priority, or ``None``
    while a turn-based choice (``decision``) is awaited or in steps without priority."""

    setup: Setup
    edition: Edition
    turn: int
    active: int
    step: Step
    priority: int | None
    passed: frozenset[int]
    decision: Decision
    stack: tuple[StackObject, ...]
    pending: tuple[StackObject, ...]
    players: tuple[Player, ...]
    cards: tuple[Card, ...]
    combat: Combat = Combat()

    @property
    def defending(self) -> int:
        """The non-active player of a two-player game (506.2)."""
        return 1 - self.active

    def card(self, handle: str) -> Card:
        return self.cards[self.setup.slot_of(handle)]

    def handle(self, slot: int) -> str:
        return self.setup.handles[slot]

    def template(self, slot: int) -> CardTemplate:
        return self.setup.templates[slot]

    def player_name(self, index: int) -> str:
        return self.setup.player_names[index]
