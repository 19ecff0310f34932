"""Card definitions: the printed, unchanging part of a card, and the built-in card list.

A ``CardTemplate`` is what is printed on a card: its Oracle text and type line as card data,
and the part of them the model runs (keywords, abilities, triggers). Everything that changes
during a game lives in ``state.Card``. Spells are not cards of the model: a spell is a
``SpellTemplate`` that exists only while on the stack.

The built-in list holds the cards of the rulings and seeds (Horned Troll, Uthden Troll, Foot
Soldiers, Debt of Loyalty, Death Ward, Mossbridge Troll, ...) so scenario files can name them.
Each built-in card behaves as its Oracle text says, except where its ``deviations`` say what
the model leaves out and why: a machine-readable list (``card_list`` exports it with the cards)
that adapters of other engines and conformance vectors can read. ``text`` is the Oracle rules
text without reminder text; ``tests/unit/test_oracle_snapshot.py`` checks every card against a
checked-in snapshot, so a card that drifts from Oracle fails a test. Two deviations hold for
every card and are not repeated on each: mana costs and other costs but {T} and "Sacrifice
this" are not paid (only timing and effects matter to regeneration), and hands and libraries
are counts of cards per player, without card identities (``Player.hand``, ``library``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from regen_model.model.actions import CastSpell, TargetChoice
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Attachment, CardType, Color, DiesWatch, Keyword, Rider


class AbilityKind(StrEnum):
    """Activated abilities the model knows."""

    REGENERATE_SELF = "regenerate-self"  # "{cost}: Regenerate this creature." (701.19a)
    # "{cost}: Regenerate target creature." (Suture Spirit): a target chosen on activation
    # (602.2b, 601.2c), checked again on resolution (608.2b)
    REGENERATE_TARGET = "regenerate-target"
    MAKE_SELF_UNREGENERABLE = "make-self-unregenerable"  # Knight of the Holy Nimbus's {2} ability
    ANIMATE_SELF = "animate-self"  # "{cost}: This land becomes a ... creature until end of turn"
    # Abilities of Auras and Equipment (issue 12 items 5-6):
    REGENERATE_HOST = "regenerate-host"  # "{cost}: Regenerate enchanted/equipped creature."
    EQUIP = "equip"  # "Equip {cost}": attach to target creature you control, as a sorcery (702.6a)
    # Pyramids' second mode, "{2}: The next time target land would be destroyed this turn,
    # remove all damage marked on it instead" (614.1a, 614.5): a target land chosen on
    # activation (602.2b), checked again on resolution (608.2b)
    REMOVE_DAMAGE_TARGET = "remove-damage-target"


# The costs an activated ability may have besides mana (never paid), as scenarios write them,
# in the order of ``ActivatedAbility``'s fields, and the ability kinds each is run on, in the
# engine and the Z3 encoding alike (``encoding.frame.template_fits``): {T} (601.2h, 602.2b;
# Niall Silvain's "Regenerate target creature"), "Sacrifice this" (Carapace's "Regenerate
# enchanted creature", Vigilant Martyr's "Regenerate target creature") and "Sacrifice a
# creature" (Dark Privilege's "Regenerate enchanted creature", 701.21a). On an ability that
# acts on its own source a sacrifice would leave it nothing to act on (a new object, 400.7).
COST_KINDS: dict[str, tuple[AbilityKind, ...]] = {
    "tap": (AbilityKind.REGENERATE_TARGET,),
    "sacrifice-self": (AbilityKind.REGENERATE_HOST, AbilityKind.REGENERATE_TARGET),
    "sacrifice-creature": (AbilityKind.REGENERATE_HOST,),
}


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """An activated ability of a permanent. ``opponent_only``: only an opponent of its
    controller may activate it (Knight of the Holy Nimbus). ``granted``: the permanent has it
    only while its own animation applies (Spawning Pool becomes a creature *with* "{B}:
    Regenerate this creature": an ability-adding effect of layer 6, 613.1f, with the same
    duration as the type change). ``tap_cost``: its cost includes {T} (Niall Silvain), paid
    as it is activated, before it is on the stack (602.2b, 601.2h): only while its source is
    untapped, and for a creature only if it is not summoning sick (302.6). ``sacrifice_cost``:
    its cost is "Sacrifice this" (Carapace, Vigilant Martyr): its source goes to the graveyard
    as it is activated, after its target is chosen (601.2c, 601.2h, 602.2b); the ability then
    exists on its own (113.7a), and an Aura's "Regenerate enchanted creature" acts on the
    creature the Aura was attached to as it left (608.2h). ``sacrifice_creature``: its cost is
    "Sacrifice a creature" (Dark Privilege): the activating player sacrifices a creature they
    control, any one, the host of the ability's Aura included (601.2h, 701.21a), named by the
    action (``ActivateAbility.sacrifice``); the stack object keeps the host it had (608.2h), so
    a host sacrificed to its own shield is a new object and nothing is regenerated (400.7,
    608.2b). Other costs (mana) are not paid."""

    kind: AbilityKind
    rider: Rider = Rider.NONE
    opponent_only: bool = False
    granted: bool = False
    tap_cost: bool = False
    sacrifice_cost: bool = False
    sacrifice_creature: bool = False

    @property
    def costs(self) -> tuple[str, ...]:
        """Its costs besides mana, named as scenarios write them (``COST_KINDS``)."""
        paid = (self.tap_cost, self.sacrifice_cost, self.sacrifice_creature)
        return tuple(word for word, on in zip(COST_KINDS, paid, strict=True) if on)

    @property
    def target_rule(self) -> TargetRule:
        """What its target must be, on activation and again on resolution (602.2b, 608.2b):
        ``NONE`` for the abilities acting on their own permanent or its host (no target; only
        the object's identity is checked), ``CREATURE`` for "Regenerate target creature".
        Equip's "target creature you control" other than itself is checked by its own rule
        (702.6a, ``turn.equip_still_legal``). Pyramids' ability targets a land."""
        if self.kind is AbilityKind.REGENERATE_TARGET:
            return TargetRule.CREATURE
        if self.kind is AbilityKind.REMOVE_DAMAGE_TARGET:
            return TargetRule.LAND
        return TargetRule.NONE

    @property
    def sorcery_speed(self) -> bool:
        """Activated only as a sorcery (602.5d): equip is (702.6a)."""
        return self.kind is AbilityKind.EQUIP

    def effect(self) -> Effect:
        """The effect the ability has when it resolves: applied to its source, except that
        ``REGENERATE_HOST`` regenerates the permanent its source is attached to and ``EQUIP``
        attaches its source to the ability's target."""
        if self.kind in (
            AbilityKind.REGENERATE_SELF,
            AbilityKind.REGENERATE_HOST,
            AbilityKind.REGENERATE_TARGET,
        ):
            return Effect(EffectKind.REGENERATE, rider=self.rider)
        if self.kind is AbilityKind.EQUIP:
            return Effect(EffectKind.ATTACH)
        if self.kind is AbilityKind.ANIMATE_SELF:
            return Effect(EffectKind.ANIMATE)
        if self.kind is AbilityKind.REMOVE_DAMAGE_TARGET:
            return Effect(EffectKind.REMOVE_DAMAGE_INSTEAD)
        return Effect(EffectKind.UNREGENERABLE)

    def describe(self) -> str:
        if self.kind is AbilityKind.REGENERATE_SELF:
            suffix = "" if self.rider is Rider.NONE else f" (rider: {self.rider.value})"
            return "Regenerate this permanent" + suffix
        sac = "Sacrifice this: " if self.sacrifice_cost else ""
        if self.sacrifice_creature:
            sac = "Sacrifice a creature: "
        if self.kind is AbilityKind.REGENERATE_HOST:
            suffix = "" if self.rider is Rider.NONE else f" (rider: {self.rider.value})"
            return sac + "Regenerate the permanent this is attached to" + suffix
        if self.kind is AbilityKind.EQUIP:
            return "Attach this to target creature you control (sorcery speed)"
        if self.kind is AbilityKind.REGENERATE_TARGET:
            return sac + ("{T}: " if self.tap_cost else "") + "Regenerate target creature"
        if self.kind is AbilityKind.ANIMATE_SELF:
            return "This permanent becomes a creature until end of turn"
        if self.kind is AbilityKind.REMOVE_DAMAGE_TARGET:
            return (
                "The next time target land would be destroyed this turn, remove all damage "
                "from it instead"
            )
        return "This permanent can't be regenerated this turn (opponents only)"


@dataclass(frozen=True, slots=True)
class Animation:
    """What a noncreature permanent becomes through its own "becomes a P/T creature until end
    of turn" ability (a manland): a creature (layer 4, 613.1d) with base power and toughness
    ``power``/``toughness`` (layer 7b, 613.4b) and ``colors`` (layer 5). Counters and
    until-end-of-turn modifications still apply on top (613.4c)."""

    power: int
    toughness: int
    colors: frozenset[Color] = frozenset()


class TriggerEffect(StrEnum):
    """What a damage trigger does when it resolves: its controller gains that much life, or
    the creature deals that much damage to its controller (a damage event with the creature
    as its source, so infect gives poison counters, 120.3a-b)."""

    GAIN_LIFE = "gain-life"  # Wall of Essence: dealt combat damage -> you gain that much life
    DAMAGE_YOU = "damage-you"  # Jackal Pup: dealt damage -> it deals that much damage to you


@dataclass(frozen=True, slots=True)
class DamageTrigger:
    """ "Whenever this creature is dealt (combat) damage, ..." (603.2, 120.4b)."""

    effect: TriggerEffect
    combat_only: bool = False


@dataclass(frozen=True)
class Deviation:
    """A part of a built-in card's Oracle text (or type line) the model does not run.

    ``part`` is that text exactly as it stands on the card, so a reader (or an adapter) can
    find it; ``reason`` says in one sentence why it is left out and what can differ.
    """

    part: str
    reason: str


_COLOR_SYMBOLS = {
    "W": Color.WHITE,
    "U": Color.BLUE,
    "B": Color.BLACK,
    "R": Color.RED,
    "G": Color.GREEN,
}


def colors_of(mana_cost: str | None) -> frozenset[Color]:
    """A card's colors from its mana cost (202.2): every colored symbol, hybrid ones included."""
    symbols = re.findall(r"\{([^}]+)\}", mana_cost or "")
    return frozenset(
        _COLOR_SYMBOLS[c] for s in symbols for c in s.split("/") if c in _COLOR_SYMBOLS
    )


@dataclass(frozen=True, slots=True)
class CardTemplate:
    """The printed characteristics of a permanent card.

    ``static_regeneration`` is a static ability "If this would be destroyed, regenerate it"
    (701.19b). ``attach_bonus`` is the power/toughness an Aura or Equipment gives the object it
    is attached to (a layer 7c static effect, 613.4c); ``grants`` the keywords it gives that
    object ("equipped creature has indestructible", a layer 6 static effect, 613.1f, which
    applies to whatever it is attached to at each moment, 611.3a); ``grants_abilities`` the
    activated abilities it gives that object ("enchanted creature has '{B}: Regenerate this
    creature'", the same kind of effect, 613.1f, 113.10): the creature has them, so its
    controller activates them and "this creature" is the creature (``derived.ability_at``).
    ``enters_plus``: it enters the
    battlefield with that many +1/+1 counters (a replacement effect, 614.1c; Skeleton
    Scavengers). ``mana_cost`` and ``type_line`` are card data (None and "" for a scenario's
    inline cards); ``colors`` follow the mana cost for built-in cards. ``extra_block``: the
    static ability "this creature can block an additional creature each combat" (it may be
    declared blocking two attackers, 509.1a as changed by the card, 101.1; Foriysian Brigade).
    ``dies_life``: the triggered ability "When this creature dies, you gain N life" (Onulet),
    a leaves-the-battlefield ability (603.6c) that looks back in time (603.10a): it triggers
    when the creature is put into a graveyard from the battlefield (700.4), never when it
    regenerates (the same object stays, 701.19a), and its controller is the creature's as it
    last existed (603.3a). ``tapped_opponent_life``: "Whenever this creature becomes tapped,
    target opponent gains N life" (Soldevi Steam Beast): it triggers when the untapped creature
    is tapped (603.2e), by attacking, a {T} cost or a regeneration (701.19a), never by making a
    shield. ``destroys_combatants``: "Whenever this creature blocks or becomes blocked by a
    non-Wall creature, destroy that creature at end of combat" (Thicket Basilisk, Cockatrice):
    at the declaration of blockers (509.1i) each non-Wall creature it blocks or that blocks it
    gets a delayed trigger "destroy it at end of combat" (603.7), which follows that object and
    not its combat status: a creature regenerated in combat is still destroyed at end of
    combat (511.2, 603.7c). ``wall``: its creature types include Wall (205.3m; from the type
    line of a built-in card). ``dies_watch`` and ``dies_drain``: the triggered ability
    "whenever <a creature | this creature or another creature you control | an attacking
    creature> dies, each opponent loses N life and you gain N life" (Zulaport Cutthroat,
    Kardur, Doomscourge): a leaves-the-battlefield ability of another permanent (603.6c) that
    looks back in time (603.10a): the dying creature is judged (its controller, whether it
    was attacking) as it last existed on the battlefield, and the watching permanent too, so
    one that leaves the battlefield in the same event still sees it; a regeneration (the same
    object stays, 701.19a) or "exile it instead" (614.6) is no death. The trigger's
    controller is the watching permanent's (603.3a). ``dies_draw``: the same watcher with
    another effect, "that creature's controller may draw N cards" (Fecundity, on an
    enchantment): the player is the dying creature's controller as it last existed on the
    battlefield (603.10a), recorded in the trigger as it triggers, and the draw is that
    player's choice as it resolves (121.1; ``EffectKind.MAY_DRAW``). A watcher has one of the
    two effects. ``shrine``: its subtypes include Shrine (205.3h; from the type line of a
    built-in card). ``end_step_reflexive``: "At the beginning of your end step, you may pay
    {1}. When you do, destroy target creature with toughness X or less, where X is the number
    of Shrines you control" (Go-Shintai of Hidden Cruelty): it triggers as its controller's end
    step begins (513.1, 603.2), controlled by that player (603.3a); as it resolves its
    controller answers whether they pay (608.2d; the model pays no mana, so the answer is all
    there is), and paying makes a reflexive triggered ability trigger at once (603.12),
    controlled by the player who controlled the end-step ability as it resolved (603.7e), its
    target chosen only as it is put on the stack (603.3d), after the first ability has
    finished resolving: a player may respond to it, by regenerating that creature among other
    things. ``merfolk``: its creature types include Merfolk (205.3m; from the type line of a
    built-in card). ``tapped_watch_life``: "Whenever a Merfolk you control becomes tapped, you
    may gain N life" (Judge of Currents): a triggered ability of a watching permanent (603.2)
    that triggers each time a Merfolk permanent its controller controls changes from untapped to
    tapped (603.2e), itself included: attacking (508.1f), a {T} cost (602.2b) or the tap of a
    regeneration (701.19a); making a shield taps nothing. The watcher must be on the battlefield
    (phased in, 702.26b) as the Merfolk becomes tapped, and the ability is controlled by the
    watcher's controller (603.3a), who answers the "may" as it resolves (608.2d;
    ``EffectKind.MAY_GAIN``, the answer no ``PassPriority.decline``).
    """

    name: str
    types: frozenset[CardType]
    power: int = 0
    toughness: int = 0
    keywords: frozenset[Keyword] = frozenset()
    attachment: Attachment = Attachment.NONE
    static_regeneration: bool = False
    abilities: tuple[ActivatedAbility, ...] = ()
    damage_trigger: DamageTrigger | None = None
    attach_bonus: tuple[int, int] = (0, 0)
    grants: frozenset[Keyword] = frozenset()
    grants_abilities: tuple[ActivatedAbility, ...] = ()
    text: str = ""
    colors: frozenset[Color] = frozenset()
    enters_plus: int = 0
    mana_cost: str | None = None
    type_line: str = ""
    deviations: tuple[Deviation, ...] = ()
    animation: Animation | None = None
    extra_block: bool = False
    dies_life: int = 0
    tapped_opponent_life: int = 0
    destroys_combatants: bool = False
    wall: bool = False
    dies_watch: DiesWatch = DiesWatch.NONE
    dies_drain: int = 0
    dies_draw: int = 0
    shrine: bool = False
    end_step_reflexive: bool = False
    merfolk: bool = False
    tapped_watch_life: int = 0

    @property
    def is_creature(self) -> bool:
        """Printed a creature (its type line); ``derived.is_creature`` is what it is now."""
        return CardType.CREATURE in self.types


@dataclass(frozen=True, slots=True)
class SpellTemplate:
    """An instant or sorcery the model can cast: its name, speed, targets and effect."""

    name: str
    effect: Effect
    targets: TargetRule = TargetRule.NONE
    sorcery: bool = False
    text: str = ""
    mana_cost: str | None = None
    deviations: tuple[Deviation, ...] = ()

    @property
    def type_line(self) -> str:
        return "Sorcery" if self.sorcery else "Instant"

    def cast(self, player: int, targets: tuple[TargetChoice, ...] = ()) -> CastSpell:
        """The action of ``player`` casting this spell with ``targets``."""
        return CastSpell(
            player=player,
            name=self.name,
            effect=self.effect,
            targets=targets,
            sorcery=self.sorcery,
            target_rule=self.targets,
        )


def _card(
    name: str,
    cost: str | None,
    type_line: str,
    text: str,
    deviations: tuple[Deviation, ...],
    **printed: Any,
) -> CardTemplate:
    """A built-in card: its card data (colors and types follow the mana cost and type line)
    and what the model runs of it (``printed``)."""
    return CardTemplate(
        name=name,
        types=_types(type_line),
        wall="Wall" in type_line.partition(" — ")[2].split(),
        shrine="Shrine" in type_line.partition(" — ")[2].split(),
        merfolk="Merfolk" in type_line.partition(" — ")[2].split(),
        text=text,
        colors=colors_of(cost),
        mana_cost=cost,
        type_line=type_line,
        deviations=deviations,
        **printed,
    )


def _creature(
    name: str,
    cost: str,
    type_line: str,
    power: int,
    toughness: int,
    text: str = "",
    *,
    keywords: frozenset[Keyword] = frozenset(),
    regen: Rider | None = None,
    static: bool = False,
    extra: tuple[ActivatedAbility, ...] = (),
    trigger: DamageTrigger | None = None,
    enters_plus: int = 0,
    extra_block: bool = False,
    dies_life: int = 0,
    tapped_opponent_life: int = 0,
    destroys_combatants: bool = False,
    dies_watch: DiesWatch = DiesWatch.NONE,
    dies_drain: int = 0,
    end_step_reflexive: bool = False,
    tapped_watch_life: int = 0,
    deviations: tuple[Deviation, ...] = (),
) -> CardTemplate:
    abilities: tuple[ActivatedAbility, ...] = ()
    if regen is not None:
        abilities = (ActivatedAbility(AbilityKind.REGENERATE_SELF, rider=regen),)
    return _card(
        name,
        cost,
        type_line,
        text,
        deviations,
        power=power,
        toughness=toughness,
        keywords=keywords,
        static_regeneration=static,
        abilities=abilities + extra,
        damage_trigger=trigger,
        enters_plus=enters_plus,
        extra_block=extra_block,
        dies_life=dies_life,
        tapped_opponent_life=tapped_opponent_life,
        destroys_combatants=destroys_combatants,
        dies_watch=dies_watch,
        dies_drain=dies_drain,
        end_step_reflexive=end_step_reflexive,
        tapped_watch_life=tapped_watch_life,
    )


def _noncreature(
    name: str,
    cost: str | None,
    type_line: str,
    text: str,
    *,
    attachment: Attachment = Attachment.NONE,
    keywords: frozenset[Keyword] = frozenset(),
    bonus: tuple[int, int] = (0, 0),
    grants: frozenset[Keyword] = frozenset(),
    abilities: tuple[ActivatedAbility, ...] = (),
    grants_abilities: tuple[ActivatedAbility, ...] = (),
    dies_watch: DiesWatch = DiesWatch.NONE,
    dies_draw: int = 0,
    deviations: tuple[Deviation, ...] = (),
) -> CardTemplate:
    return _card(
        name,
        cost,
        type_line,
        text,
        deviations,
        dies_watch=dies_watch,
        dies_draw=dies_draw,
        attachment=attachment,
        keywords=keywords,
        attach_bonus=bonus,
        grants=grants,
        abilities=abilities,
        grants_abilities=grants_abilities,
    )


_TYPE_WORDS = {t.value.capitalize(): t for t in CardType}


def _types(type_line: str) -> frozenset[CardType]:
    """The card types named before the dash of a type line (205.2a)."""
    head = type_line.partition(" — ")[0].split()
    return frozenset(_TYPE_WORDS[w] for w in head if w in _TYPE_WORDS)


def _spell(
    name: str,
    cost: str,
    text: str,
    effect: Effect,
    targets: TargetRule = TargetRule.NONE,
    *,
    sorcery: bool = False,
    deviations: tuple[Deviation, ...] = (),
) -> SpellTemplate:
    return SpellTemplate(name, effect, targets, sorcery, text, cost, deviations)


_KW = Keyword
_REGEN = "Regenerate this creature."
_STATIC = "If this creature would be destroyed, regenerate it."
_NO_LIBRARY = "a library is only a count of cards in the model (no card identities, no shuffle)"
_EQUIP = ActivatedAbility(AbilityKind.EQUIP)


def _keyword_left_out(word: str, rule: str, what: str) -> Deviation:
    return Deviation(word, f"{word.lower()} ({rule}) is not modelled: {what}")


_KARDUR_ETB = (
    "When Kardur enters, until your next turn, creatures your opponents control attack each "
    "combat if able and attack a player other than you if able."
)
_BASILISK = (
    "Whenever this creature blocks or becomes blocked by a non-Wall creature, "
    "destroy that creature at end of combat."
)


PERMANENT_CARDS: dict[str, CardTemplate] = {
    t.name: t
    for t in (
        _creature("Grizzly Bears", "{1}{G}", "Creature — Bear", 2, 2),
        _creature("Foot Soldiers", "{3}{W}", "Creature — Human Soldier", 2, 4),
        _creature("Hill Giant", "{3}{R}", "Creature — Giant", 3, 3),
        _creature(
            "Horned Troll", "{2}{G}", "Creature — Troll", 2, 2, "{G}: " + _REGEN, regen=Rider.NONE
        ),
        _creature(
            "Uthden Troll", "{2}{R}", "Creature — Troll", 2, 2, "{R}: " + _REGEN, regen=Rider.NONE
        ),
        _creature(
            "River Boa",
            "{1}{G}",
            "Creature — Snake",
            2,
            1,
            "Islandwalk\n{G}: " + _REGEN,
            regen=Rider.NONE,
            deviations=(
                _keyword_left_out(
                    "Islandwalk", "702.14", "no card of the model is an Island, so it never applies"
                ),
            ),
        ),
        _creature(
            "Drudge Skeletons",
            "{1}{B}",
            "Creature — Skeleton",
            1,
            1,
            "{B}: " + _REGEN,
            regen=Rider.NONE,
        ),
        _creature(
            "Troll Ascetic",
            "{1}{G}{G}",
            "Creature — Troll Shaman",
            3,
            2,
            "Hexproof\n{1}{G}: " + _REGEN,
            regen=Rider.NONE,
            deviations=(
                _keyword_left_out(
                    "Hexproof", "702.11", "spells of its controller's opponent may target it"
                ),
            ),
        ),
        _creature(
            "Mossbridge Troll",
            "{5}{G}{G}",
            "Creature — Troll",
            5,
            5,
            _STATIC
            + "\nTap any number of untapped creatures you control other than this creature with "
            "total power 10 or greater: This creature gets +20/+20 until end of turn.",
            static=True,
            deviations=(
                Deviation(
                    "Tap any number of untapped creatures you control other than this creature "
                    "with total power 10 or greater: This creature gets +20/+20 until end of turn.",
                    "the pump ability is not modelled: it never touches regeneration",
                ),
            ),
        ),
        _creature(
            "Knight of the Holy Nimbus",
            "{W}{W}",
            "Creature — Human Rebel Knight",
            2,
            2,
            "Flanking\n"
            + _STATIC
            + "\n{2}: This creature can't be regenerated this turn. Only any opponent may "
            "activate this ability.",
            static=True,
            extra=(ActivatedAbility(AbilityKind.MAKE_SELF_UNREGENERABLE, opponent_only=True),),
            deviations=(
                _keyword_left_out(
                    "Flanking", "702.25", "a creature blocking it does not get -1/-1"
                ),
            ),
        ),
        _creature(
            "Matopi Golem",
            "{5}",
            "Artifact Creature — Golem",
            3,
            3,
            "{1}: " + _REGEN + " When it regenerates this way, put a -1/-1 counter on it.",
            regen=Rider.MINUS_COUNTER,
        ),
        _creature(
            "Skeleton Scavengers",
            "{2}{B}",
            "Creature — Skeleton",
            0,
            0,
            "This creature enters with a +1/+1 counter on it.\n"
            "Pay {1} for each +1/+1 counter on this creature: "
            + _REGEN
            + " When it regenerates this way, put a +1/+1 counter on it.",
            regen=Rider.PLUS_COUNTER,
            enters_plus=1,
        ),
        _creature(
            "Skithiryx, the Blight Dragon",
            "{3}{B}{B}",
            "Legendary Creature — Phyrexian Dragon Skeleton",
            4,
            4,
            "Flying\nInfect\n{B}: Skithiryx gains haste until end of turn.\n"
            "{B}{B}: Regenerate Skithiryx.",
            keywords=frozenset({_KW.INFECT}),
            regen=Rider.NONE,
            deviations=(
                _keyword_left_out(
                    "Flying", "702.9", "creatures without flying or reach may block it"
                ),
                Deviation(
                    "{B}: Skithiryx gains haste until end of turn.",
                    "the haste ability is not modelled (the model's activated abilities are "
                    'regeneration and "can\'t be regenerated" only)',
                ),
                Deviation(
                    "Legendary",
                    "the legend rule (704.5j) is out of scope: two copies may stay",
                ),
            ),
        ),
        _creature(
            "Wall of Essence",
            "{1}{W}",
            "Creature — Wall",
            0,
            4,
            "Defender\nWhenever this creature is dealt combat damage, you gain that much life.",
            keywords=frozenset({_KW.DEFENDER}),
            trigger=DamageTrigger(TriggerEffect.GAIN_LIFE, combat_only=True),
        ),
        _creature(
            "Jackal Pup",
            "{R}",
            "Creature — Jackal",
            2,
            1,
            "Whenever this creature is dealt damage, it deals that much damage to you.",
            trigger=DamageTrigger(TriggerEffect.DAMAGE_YOU),
        ),
        _creature(
            "Onulet",
            "{3}",
            "Artifact Creature — Construct",
            2,
            2,
            "When this creature dies, you gain 2 life.",
            dies_life=2,
        ),
        _creature(
            "Soldevi Steam Beast",
            "{5}",
            "Artifact Creature — Beast",
            4,
            2,
            "Whenever this creature becomes tapped, target opponent gains 2 life.\n"
            "{2}: Regenerate this creature.",
            regen=Rider.NONE,
            tapped_opponent_life=2,
        ),
        _creature(
            "Thicket Basilisk",
            "{3}{G}{G}",
            "Creature — Basilisk",
            2,
            4,
            _BASILISK,
            destroys_combatants=True,
        ),
        _creature(
            "Cockatrice",
            "{3}{G}{G}",
            "Creature — Cockatrice",
            2,
            4,
            "Flying\n" + _BASILISK,
            destroys_combatants=True,
            deviations=(
                _keyword_left_out(
                    "Flying", "702.9", "creatures without flying or reach may block it"
                ),
            ),
        ),
        _creature(
            "Go-Shintai of Hidden Cruelty",
            "{3}{B}",
            "Legendary Enchantment Creature — Shrine",
            2,
            2,
            "Deathtouch\nAt the beginning of your end step, you may pay {1}. When you do, "
            "destroy target creature with toughness X or less, where X is the number of "
            "Shrines you control.",
            keywords=frozenset({_KW.DEATHTOUCH}),
            end_step_reflexive=True,
            deviations=(
                Deviation(
                    "you may pay {1}",
                    "the model pays no mana: paying is its controller's yes-or-no answer as the "
                    "ability resolves (608.2d), and it can always pay",
                ),
                Deviation(
                    "Legendary",
                    "the legend rule (704.5j) is out of scope: two copies may stay",
                ),
            ),
        ),
        _creature(
            "Typhoid Rats",
            "{B}",
            "Creature — Rat",
            1,
            1,
            "Deathtouch",
            keywords=frozenset({_KW.DEATHTOUCH}),
        ),
        _creature(
            "Darksteel Myr",
            "{3}",
            "Artifact Creature — Myr",
            0,
            1,
            "Indestructible",
            keywords=frozenset({_KW.INDESTRUCTIBLE}),
        ),
        _creature(
            "Darksteel Colossus",
            "{11}",
            "Artifact Creature — Golem",
            11,
            11,
            "Trample, indestructible\nIf this card would be put into a graveyard from anywhere, "
            "reveal it and shuffle it into its owner's library instead.",
            keywords=frozenset({_KW.INDESTRUCTIBLE, _KW.TRAMPLE}),
            deviations=(
                Deviation(
                    "If this card would be put into a graveyard from anywhere, reveal it and "
                    "shuffle it into its owner's library instead.",
                    f"{_NO_LIBRARY}: a sacrificed or 0-toughness Colossus goes to the graveyard",
                ),
            ),
        ),
        _creature(
            "Youthful Knight",
            "{1}{W}",
            "Creature — Human Knight",
            2,
            1,
            "First strike",
            keywords=frozenset({_KW.FIRST_STRIKE}),
        ),
        _creature(
            "Suture Spirit",
            "{1}{W}",
            "Creature — Spirit",
            1,
            1,
            "Flying\n{W/B}{W/B}{W/B}: Regenerate target creature.",
            extra=(ActivatedAbility(AbilityKind.REGENERATE_TARGET),),
            deviations=(
                _keyword_left_out(
                    "Flying", "702.9", "creatures without flying or reach may block it"
                ),
            ),
        ),
        _creature(
            "Niall Silvain",
            "{G}{G}{G}",
            "Creature — Ouphe",
            2,
            2,
            "{G}{G}{G}{G}, {T}: Regenerate target creature.",
            extra=(ActivatedAbility(AbilityKind.REGENERATE_TARGET, tap_cost=True),),
        ),
        _creature(
            "Vigilant Martyr",
            "{W}",
            "Creature — Human Cleric",
            1,
            1,
            "Sacrifice this creature: Regenerate target creature.\n{W}{W}, {T}, Sacrifice this "
            "creature: Counter target spell that targets an enchantment.",
            extra=(ActivatedAbility(AbilityKind.REGENERATE_TARGET, sacrifice_cost=True),),
            deviations=(
                Deviation(
                    "{W}{W}, {T}, Sacrifice this creature: Counter target spell that targets an "
                    "enchantment.",
                    "countering spells is not modelled, and no spell of the model targets an "
                    "enchantment",
                ),
            ),
        ),
        _creature(
            "Vampire Nighthawk",
            "{1}{B}{B}",
            "Creature — Vampire Shaman",
            2,
            3,
            "Flying\nDeathtouch\nLifelink",
            keywords=frozenset({_KW.DEATHTOUCH, _KW.LIFELINK}),
            deviations=(
                _keyword_left_out(
                    "Flying", "702.9", "creatures without flying or reach may block it"
                ),
            ),
        ),
        _creature(
            "Boros Swiftblade",
            "{R}{W}",
            "Creature — Human Soldier",
            1,
            2,
            "Double strike",
            keywords=frozenset({_KW.DOUBLE_STRIKE}),
        ),
        _creature(
            "Merfolk Raiders",
            "{1}{U}",
            "Creature — Merfolk Soldier",
            2,
            3,
            "Islandwalk\nPhasing",
            keywords=frozenset({_KW.PHASING}),
            deviations=(
                _keyword_left_out(
                    "Islandwalk", "702.14", "no card of the model is an Island, so it never applies"
                ),
            ),
        ),
        _creature(
            "Excruciator",
            "{6}{R}{R}",
            "Creature — Avatar",
            7,
            7,
            "Damage that would be dealt by this creature can't be prevented.",
            keywords=frozenset({_KW.UNPREVENTABLE}),
        ),
        _creature(
            "Foriysian Brigade",
            "{3}{W}",
            "Creature — Human Soldier",
            2,
            4,
            "This creature can block an additional creature each combat.",
            extra_block=True,
        ),
        _creature(
            "Colossal Dreadmaw",
            "{4}{G}{G}",
            "Creature — Dinosaur",
            6,
            6,
            "Trample",
            keywords=frozenset({_KW.TRAMPLE}),
        ),
        _creature(
            "Boggart Ram-Gang",
            "{R/G}{R/G}{R/G}",
            "Creature — Goblin Warrior",
            3,
            3,
            "Haste\nWither",
            keywords=frozenset({_KW.HASTE, _KW.WITHER}),
        ),
        _creature(
            "Glistener Elf",
            "{G}",
            "Creature — Phyrexian Elf Warrior",
            1,
            1,
            "Infect",
            keywords=frozenset({_KW.INFECT}),
        ),
        _noncreature(
            "Eland Umbra",
            "{1}{W}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +0/+4.\nUmbra armor",
            attachment=Attachment.AURA,
            keywords=frozenset({_KW.UMBRA_ARMOR}),
            bonus=(0, 4),
        ),
        _noncreature(
            "Snake Umbra",
            "{2}{G}",
            "Enchantment — Aura",
            'Enchant creature\nEnchanted creature gets +1/+1 and has "Whenever this creature '
            'deals damage to an opponent, you may draw a card."\nUmbra armor',
            attachment=Attachment.AURA,
            keywords=frozenset({_KW.UMBRA_ARMOR}),
            bonus=(1, 1),
            deviations=(
                Deviation(
                    'and has "Whenever this creature deals damage to an opponent, you may draw '
                    'a card."',
                    "a damage trigger granted by an Aura is not modelled (the model's only draw "
                    "is Fecundity's death trigger), so the granted card-draw trigger is left out",
                ),
            ),
        ),
        _noncreature(
            "Holy Strength",
            "{W}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +1/+2.",
            attachment=Attachment.AURA,
            bonus=(1, 2),
        ),
        _noncreature(
            "Bonesplitter",
            "{1}",
            "Artifact — Equipment",
            "Equipped creature gets +2/+0.\nEquip {1}",
            attachment=Attachment.EQUIPMENT,
            bonus=(2, 0),
            abilities=(_EQUIP,),
        ),
        # --- Auras and Equipment that grant abilities (issue 12 items 5-6) ---
        _noncreature(
            "Regeneration",
            "{1}{G}",
            "Enchantment — Aura",
            "Enchant creature\n{G}: Regenerate enchanted creature.",
            attachment=Attachment.AURA,
            abilities=(ActivatedAbility(AbilityKind.REGENERATE_HOST),),
        ),
        _noncreature(
            "Carapace",
            "{G}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +0/+2.\nSacrifice this Aura: Regenerate "
            "enchanted creature.",
            attachment=Attachment.AURA,
            bonus=(0, 2),
            abilities=(ActivatedAbility(AbilityKind.REGENERATE_HOST, sacrifice_cost=True),),
        ),
        _noncreature(
            "Dark Privilege",
            "{1}{B}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +1/+1.\nSacrifice a creature: Regenerate "
            "enchanted creature.",
            attachment=Attachment.AURA,
            bonus=(1, 1),
            abilities=(ActivatedAbility(AbilityKind.REGENERATE_HOST, sacrifice_creature=True),),
        ),
        _noncreature(
            "Skeletal Grimace",
            "{1}{B}",
            "Enchantment — Aura",
            'Enchant creature\nEnchanted creature gets +1/+1 and has "{B}: Regenerate this '
            'creature."',
            attachment=Attachment.AURA,
            bonus=(1, 1),
            grants_abilities=(ActivatedAbility(AbilityKind.REGENERATE_SELF),),
        ),
        _noncreature(
            "Darksteel Plate",
            "{3}",
            "Artifact — Equipment",
            "Indestructible\nEquipped creature has indestructible.\nEquip {2}",
            attachment=Attachment.EQUIPMENT,
            keywords=frozenset({_KW.INDESTRUCTIBLE}),
            grants=frozenset({_KW.INDESTRUCTIBLE}),
            abilities=(_EQUIP,),
        ),
        _card(
            "Spawning Pool",
            None,
            "Land",
            "This land enters tapped.\n{T}: Add {B}.\n{1}{B}: This land becomes a 1/1 black "
            'Skeleton creature with "{B}: Regenerate this creature" until end of turn. '
            "It's still a land.",
            (
                Deviation(
                    "This land enters tapped.",
                    "it only enters during a run through a flicker, and then returns untapped",
                ),
                Deviation("{T}: Add {B}.", "mana is not modelled (costs are not paid)"),
            ),
            abilities=(
                ActivatedAbility(AbilityKind.ANIMATE_SELF),
                ActivatedAbility(AbilityKind.REGENERATE_SELF, granted=True),
            ),
            animation=Animation(1, 1, frozenset({Color.BLACK})),
        ),
        # Issue 13 item 6: a destruction replacement that is not regeneration (614.1a, 614.5)
        _noncreature(
            "Pyramids",
            "{6}",
            "Artifact",
            "{2}: Choose one —\n• Destroy target Aura attached to a land.\n• The next time "
            "target land would be destroyed this turn, remove all damage marked on it instead.",
            abilities=(ActivatedAbility(AbilityKind.REMOVE_DAMAGE_TARGET),),
            deviations=(
                Deviation(
                    "• Destroy target Aura attached to a land.",
                    "the first mode is not modelled: the model's Auras enchant creatures only, "
                    "so an Aura is attached to a land only while that land is an animated "
                    "creature; the ability always has its second mode",
                ),
            ),
        ),
        _noncreature("Forest", None, "Basic Land — Forest", ""),
        _noncreature("Mountain", None, "Basic Land — Mountain", ""),
        # Issue 13 item 5: another permanent's "whenever a creature ... dies" (603.6c, 603.10a)
        _creature(
            "Zulaport Cutthroat",
            "{1}{B}",
            "Creature — Human Rogue Ally",
            1,
            1,
            "Whenever this creature or another creature you control dies, each opponent loses "
            "1 life and you gain 1 life.",
            dies_watch=DiesWatch.YOURS,
            dies_drain=1,
        ),
        # Issue 13 item 2: a death trigger whose effect is a draw, "may" the dying creature's
        # controller's choice (603.10a, 121.1)
        _noncreature(
            "Fecundity",
            "{2}{G}",
            "Enchantment",
            "Whenever a creature dies, that creature's controller may draw a card.",
            dies_watch=DiesWatch.ANY,
            dies_draw=1,
        ),
        _creature(
            "Kardur, Doomscourge",
            "{2}{B}{R}",
            "Legendary Creature — Demon Berserker",
            4,
            3,
            _KARDUR_ETB + "\nWhenever an attacking creature dies, each opponent loses 1 life and "
            "you gain 1 life.",
            dies_watch=DiesWatch.ATTACKING,
            dies_drain=1,
            deviations=(
                Deviation(
                    _KARDUR_ETB,
                    "the enters ability is not modelled (the model has no requirement to attack, "
                    "508.1d, and no player other than its two): attacks are the players' choice",
                ),
                Deviation(
                    "Legendary",
                    "the legend rule (704.5j) is out of scope: two copies may stay",
                ),
            ),
        ),
        # Issue 13 item 2: a "when it regenerates this way" rider whose payload is "that player
        # (the opponent chosen on activation) may draw a card" (603.7e, 608.2d; 102.2: in a
        # two-player game the one opponent of the ability's controller, the shield's creator)
        _creature(
            "Soldevi Sentry",
            "{1}",
            "Artifact Creature — Soldier",
            1,
            1,
            "{1}: Choose target opponent. "
            + _REGEN
            + " When it regenerates this way, that player may draw a card.",
            regen=Rider.OPPONENT_MAY_DRAW,
        ),
        # Issue 13 item 5: another permanent's "whenever a Merfolk you control becomes tapped"
        # (603.2e; 205.3m). Last in the list, so the guided generator's late candidates
        # (``generate.LATE_CARDS``, in this order) keep the turns the cards before it had.
        _creature(
            "Judge of Currents",
            "{1}{W}",
            "Creature — Merfolk Wizard",
            1,
            1,
            "Whenever a Merfolk you control becomes tapped, you may gain 1 life.",
            tapped_watch_life=1,
        ),
    )
}

SPELLS: dict[str, SpellTemplate] = {
    s.name: s
    for s in (
        _spell(
            "Lightning Bolt",
            "{R}",
            "Lightning Bolt deals 3 damage to any target.",
            Effect(EffectKind.DAMAGE, amount=3),
            TargetRule.ANY,
        ),
        _spell(
            "Shock",
            "{R}",
            "Shock deals 2 damage to any target.",
            Effect(EffectKind.DAMAGE, amount=2),
            TargetRule.ANY,
        ),
        _spell(
            "Incinerate",
            "{1}{R}",
            "Incinerate deals 3 damage to any target. A creature dealt damage this way can't be "
            "regenerated this turn.",
            Effect(EffectKind.DAMAGE, amount=3, cant_regen=True),
            TargetRule.ANY,
        ),
        _spell(
            "Pinpoint Avalanche",
            "{3}{R}{R}",
            "Pinpoint Avalanche deals 4 damage to target creature. The damage can't be prevented.",
            Effect(EffectKind.DAMAGE, amount=4, keywords=frozenset({Keyword.UNPREVENTABLE})),
            TargetRule.CREATURE,
        ),
        _spell(
            "Pyroclasm",
            "{1}{R}",
            "Pyroclasm deals 2 damage to each creature.",
            Effect(EffectKind.DAMAGE_EACH_CREATURE, amount=2),
            sorcery=True,
        ),
        _spell(
            "Murder",
            "{1}{B}{B}",
            "Destroy target creature.",
            Effect(EffectKind.DESTROY),
            TargetRule.CREATURE,
        ),
        _spell(
            "Terror",
            "{1}{B}",
            "Destroy target nonartifact, nonblack creature. It can't be regenerated.",
            Effect(EffectKind.DESTROY, cant_regen=True),
            TargetRule.NONARTIFACT_NONBLACK_CREATURE,
        ),
        _spell(
            "Kill Shot",
            "{2}{W}",
            "Destroy target attacking creature.",
            Effect(EffectKind.DESTROY),
            TargetRule.ATTACKING_CREATURE,
        ),
        _spell(
            "Asphyxiate",
            "{1}{B}{B}",
            "Destroy target untapped creature.",
            Effect(EffectKind.DESTROY),
            TargetRule.UNTAPPED_CREATURE,
            sorcery=True,
        ),
        _spell(
            "Wrath of God",
            "{2}{W}{W}",
            "Destroy all creatures. They can't be regenerated.",
            Effect(EffectKind.DESTROY_ALL_CREATURES, cant_regen=True),
            sorcery=True,
        ),
        _spell(
            "Day of Judgment",
            "{2}{W}{W}",
            "Destroy all creatures.",
            Effect(EffectKind.DESTROY_ALL_CREATURES),
            sorcery=True,
        ),
        _spell(
            "Fumigate",
            "{3}{W}{W}",
            "Destroy all creatures. You gain 1 life for each creature destroyed this way.",
            Effect(EffectKind.DESTROY_ALL_CREATURES, amount=1),
            sorcery=True,
        ),
        _spell(
            "Disintegrate",
            "{X}{R}",
            "Disintegrate deals X damage to any target. If it's a creature, it can't be "
            "regenerated this turn, and if it would die this turn, exile it instead.",
            Effect(EffectKind.DAMAGE, amount=3, cant_regen_target=True, exile_if_dies=True),
            TargetRule.ANY,
            sorcery=True,
            deviations=(
                Deviation(
                    "X",
                    "the model casts spells without paying costs, so X is fixed: it is always "
                    "cast with X = 3 (107.3)",
                ),
            ),
        ),
        _spell(
            "Death Ward",
            "{W}",
            "Regenerate target creature.",
            Effect(EffectKind.REGENERATE),
            TargetRule.CREATURE,
        ),
        _spell(
            "Regenerate",
            "{1}{G}",
            "Regenerate target creature.",
            Effect(EffectKind.REGENERATE),
            TargetRule.CREATURE,
        ),
        _spell(
            "Debt of Loyalty",
            "{1}{W}{W}",
            "Regenerate target creature. You gain control of that creature if it regenerates "
            "this way.",
            Effect(EffectKind.REGENERATE, rider=Rider.GAIN_CONTROL),
            TargetRule.CREATURE,
        ),
        _spell(
            "Mending Hands",
            "{W}",
            "Prevent the next 4 damage that would be dealt to any target this turn.",
            Effect(EffectKind.PREVENT, amount=4),
            TargetRule.CREATURE,
            deviations=(
                Deviation(
                    "any target",
                    "only a creature can be its target: the model has no prevention shields on "
                    "players (615.7 works the same way for them)",
                ),
            ),
        ),
        _spell(
            "Galadriel's Dismissal",
            "{W}",
            "Kicker {2}{W}\nTarget creature phases out. If this spell was kicked, each creature "
            "target player controls phases out instead.",
            Effect(EffectKind.PHASE_OUT),
            TargetRule.CREATURE,
            deviations=(
                Deviation(
                    "Kicker {2}{W}",
                    "the model casts spells without paying costs, so it is always cast unkicked "
                    "(702.33): one target creature phases out",
                ),
            ),
        ),
        _spell(
            "Shielded Passage",
            "{W}",
            "Prevent all damage that would be dealt to target creature this turn.",
            Effect(EffectKind.PREVENT_ALL),
            TargetRule.CREATURE,
        ),
        _spell(
            "Giant Growth",
            "{G}",
            "Target creature gets +3/+3 until end of turn.",
            Effect(EffectKind.PUMP, power=3, toughness=3),
            TargetRule.CREATURE,
        ),
        _spell(
            "Last Gasp",
            "{1}{B}",
            "Target creature gets -3/-3 until end of turn.",
            Effect(EffectKind.PUMP, power=-3, toughness=-3),
            TargetRule.CREATURE,
        ),
        _spell(
            "Disfigure",
            "{B}",
            "Target creature gets -2/-2 until end of turn.",
            Effect(EffectKind.PUMP, power=-2, toughness=-2),
            TargetRule.CREATURE,
        ),
        _spell(
            "Cloudshift",
            "{W}",
            "Exile target creature you control, then return that card to the battlefield under "
            "your control.",
            Effect(EffectKind.FLICKER, under_you=True),
            TargetRule.CREATURE_YOU_CONTROL,
        ),
        _spell(
            "Act of Treason",
            "{2}{R}",
            "Gain control of target creature until end of turn. Untap that creature. It gains "
            "haste until end of turn.",
            Effect(
                EffectKind.GAIN_CONTROL,
                until_end_of_turn=True,
                untap=True,
                keywords=frozenset({Keyword.HASTE}),
            ),
            TargetRule.CREATURE,
            sorcery=True,
        ),
        # Issue 13 item 2: mill (701.17), then its caster draws (121.1)
        _spell(
            "Thought Scour",
            "{U}",
            "Target player mills two cards.\nDraw a card.",
            Effect(EffectKind.MILL, amount=2, draw=1),
            TargetRule.PLAYER,
        ),
        # Issue 13 item 1: countering (701.6a); last, so lists of spells keep their order
        _spell(
            "Counterspell",
            "{U}{U}",
            "Counter target spell.",
            Effect(EffectKind.COUNTER_SPELL),
            TargetRule.SPELL,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class CardLibrary:
    """Card and spell definitions available to a scenario: the built-ins plus its own."""

    permanents: dict[str, CardTemplate] = field(default_factory=lambda: dict(PERMANENT_CARDS))
    spells: dict[str, SpellTemplate] = field(default_factory=lambda: dict(SPELLS))


CARD_LIST_FORMAT = "regen-model/cards"
GLOBAL_DEVIATIONS: tuple[str, ...] = (
    "Mana costs and other costs are not paid, except {T}, sacrificing the ability's own "
    "source and sacrificing a creature in an activated ability's cost (Niall Silvain's, "
    "Carapace's, Vigilant Martyr's, Dark Privilege's): "
    "only timing and effects matter to regeneration.",
    "Hands and libraries are counts of cards per player, without identities: spells exist "
    "only on the stack (none is cast from a hand); Fecundity's trigger, Soldevi Sentry's rider "
    "and Thought Scour draw, and a milled card is an anonymous graveyard entry.",
)


def card_list() -> dict[str, Any]:
    """The built-in cards and spells as JSON-ready data: card data (name, mana cost, type
    line, power/toughness, Oracle text), what the model runs (keywords) and the deviations,
    for other engines' adapters and the conformance vectors (``export-vectors`` writes it)."""

    def deviations(ds: tuple[Deviation, ...]) -> list[dict[str, str]]:
        return [{"part": d.part, "reason": d.reason} for d in ds]

    cards: list[dict[str, Any]] = []
    for t in PERMANENT_CARDS.values():
        entry: dict[str, Any] = {
            "name": t.name,
            "mana_cost": t.mana_cost,
            "type_line": t.type_line,
            "text": t.text,
            "keywords": sorted(k.value for k in t.keywords),
            **({"grants": sorted(k.value for k in t.grants)} if t.grants else {}),
            "deviations": deviations(t.deviations),
        }
        if t.is_creature:
            entry["power"], entry["toughness"] = t.power, t.toughness
        cards.append(entry)
    for s in SPELLS.values():
        cards.append(
            {
                "name": s.name,
                "mana_cost": s.mana_cost,
                "type_line": s.type_line,
                "text": s.text,
                "targets": s.targets.value,
                "deviations": deviations(s.deviations),
            }
        )
    return {
        "format": CARD_LIST_FORMAT,
        "version": 1,
        "global_deviations": list(GLOBAL_DEVIATIONS),
        "cards": cards,
    }
