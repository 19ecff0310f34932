"""Small closed vocabularies shared by the engine, the Z3 encoding and the file formats.

Every enum is a ``StrEnum`` whose value is the spelling used in scenario files, JSON output and
ITF traces, so that a value read from a file and a value printed in a report are the same string.
The Z3 encoding maps each enum to a finite domain in declaration order (see ``ordinal``).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache


class Zone(StrEnum):
    """Zones a card of the model can be in (400.1). Hand and library are not modelled."""

    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    EXILE = "exile"


class CardType(StrEnum):
    """Card types that matter for regeneration: only creatures are hit by 704.5f-h."""

    CREATURE = "creature"
    ARTIFACT = "artifact"
    ENCHANTMENT = "enchantment"
    LAND = "land"


class Attachment(StrEnum):
    """Whether a permanent attaches to another (303.4, 301.5): Auras fall off to 704.5m."""

    NONE = "none"
    AURA = "aura"
    EQUIPMENT = "equipment"


class Keyword(StrEnum):
    """Keyword abilities the model knows (702.x). Umbra armor only means something on an Aura.

    Haste (702.10) lets a creature attack although it came under its controller's control
    this turn (302.6); defender (702.3) keeps a creature from attacking at all. Keywords the
    model does not know (flying, hexproof, islandwalk, ...) are listed as deviations of the
    built-in cards that have them (``cards.Deviation``).

    ``UNPREVENTABLE`` is not a keyword of 702 but a static ability of a damage source, kept
    with the keywords because it travels the same way (a source's characteristic that every
    share of its damage carries, last known on the stack): "damage that would be dealt by
    this can't be prevented" (615.12; Excruciator, Pinpoint Avalanche).

    Phasing (702.26a) changes the untap step only: the permanent phases out, or in, before its
    controller untaps (``engine.turn``, 502.1).
    """

    INDESTRUCTIBLE = "indestructible"
    DEATHTOUCH = "deathtouch"
    WITHER = "wither"
    INFECT = "infect"
    TRAMPLE = "trample"
    FIRST_STRIKE = "first-strike"
    UMBRA_ARMOR = "umbra-armor"
    HASTE = "haste"
    DEFENDER = "defender"
    DOUBLE_STRIKE = "double-strike"
    LIFELINK = "lifelink"
    UNPREVENTABLE = "unpreventable"
    PHASING = "phasing"


class Color(StrEnum):
    """The five colors (105.1). A card's colors come from its mana cost (202.2); they matter
    here only for targeting restrictions such as Terror's "nonblack"."""

    WHITE = "white"
    BLUE = "blue"
    BLACK = "black"
    RED = "red"
    GREEN = "green"


class Rider(StrEnum):
    """What an "if it regenerates this way" rider on a shield does (701.19c).

    ``GAIN_CONTROL`` is Debt of Loyalty: part of the replacement itself, so it happens at once.
    The counter riders are triggered abilities ("When it regenerates this way ..."), as on
    Matopi Golem (-1/-1) and Skeleton Scavengers (+1/+1): they go on the stack.
    ``OPPONENT_MAY_DRAW`` is Soldevi Sentry's "Choose target opponent. ... When it regenerates
    this way, that player may draw a card": a triggered rider too, whose player is the
    opponent the shield's creator chose as the ability was activated; in a two-player game
    that is always the creator's one opponent (102.2), so the shield's ``creator`` records it.
    """

    NONE = "none"
    GAIN_CONTROL = "gain-control"
    MINUS_COUNTER = "minus-counter"
    PLUS_COUNTER = "plus-counter"
    OPPONENT_MAY_DRAW = "opponent-may-draw"


class CounterKind(StrEnum):
    """Counters the model tracks (122.1a, 122.1c)."""

    PLUS = "+1/+1"
    MINUS = "-1/-1"
    SHIELD = "shield"


class Step(StrEnum):
    """Steps of a turn in order (500.1). Main phases are listed as steps for uniformity.

    ``FIRST_STRIKE_DAMAGE`` is the extra combat damage step of 510.4; it exists only in a
    combat where an attacking or blocking creature has first strike or double strike as damage
    begins.
    """

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    MAIN1 = "main1"
    BEGIN_COMBAT = "begin-combat"
    DECLARE_ATTACKERS = "declare-attackers"
    DECLARE_BLOCKERS = "declare-blockers"
    FIRST_STRIKE_DAMAGE = "first-strike-damage"
    COMBAT_DAMAGE = "combat-damage"
    END_COMBAT = "end-combat"
    MAIN2 = "main2"
    END = "end"
    CLEANUP = "cleanup"


STEP_ORDER: tuple[Step, ...] = tuple(Step)
COMBAT_STEPS: frozenset[Step] = frozenset(
    {
        Step.BEGIN_COMBAT,
        Step.DECLARE_ATTACKERS,
        Step.DECLARE_BLOCKERS,
        Step.FIRST_STRIKE_DAMAGE,
        Step.COMBAT_DAMAGE,
        Step.END_COMBAT,
    }
)


class Edition(StrEnum):
    """The three rule editions of combat damage a scenario can select.

    ``PRE_M10``: until 2009-07, combat damage used the stack and was divided freely.
    ``M10``: 2009-07 to 2024-09, damage assignment order chosen when blockers are declared.
    ``FDN``: 2024-11 on, free division among blockers at damage time (the current rules).
    """

    PRE_M10 = "pre-M10"
    M10 = "M10"
    FDN = "FDN"


class Decision(StrEnum):
    """A turn-based choice the game is waiting for; no player holds priority meanwhile."""

    NONE = "none"
    DECLARE_ATTACKERS = "declare-attackers"
    DECLARE_BLOCKERS = "declare-blockers"
    ORDER_BLOCKERS = "order-blockers"
    ASSIGN_COMBAT_DAMAGE = "assign-combat-damage"


class StackKind(StrEnum):
    """What sort of object sits on the stack (405.1; pre-M10 combat damage, 310.1)."""

    SPELL = "spell"
    ABILITY = "ability"
    TRIGGER = "trigger"
    COMBAT_DAMAGE = "combat-damage"


class ReplacementKind(StrEnum):
    """Destruction-replacement effects a permanent's controller can choose among (616.1)."""

    SHIELD = "shield"
    STATIC = "static"
    UMBRA = "umbra"
    SHIELD_COUNTER = "shield-counter"
    # Pyramids' "the next time it would be destroyed this turn, remove all damage marked on
    # it instead" (614.1a, 614.5): not regeneration
    REMOVE_DAMAGE = "remove-damage"


class DiesWatch(StrEnum):
    """Which deaths a permanent's "whenever ... dies" ability watches (700.4, 603.10a):
    ``ANY`` "a creature", ``YOURS`` "this creature or another creature you control" (Zulaport
    Cutthroat), ``ATTACKING`` "an attacking creature" (Kardur, Doomscourge); ``NONE``: no such
    ability. The dying creature is judged as it last existed on the battlefield."""

    NONE = "none"
    ANY = "any"
    YOURS = "yours"
    ATTACKING = "attacking"


class Mutant(StrEnum):
    """Deliberately wrong rule variants. Both views consult the same names, so one switch
    breaks the engine and the encoding in the same way (see ``regen_model.mutants``)."""

    SHIELD_NOT_CONSUMED = "shield-not-consumed"
    CREATE_TAPS = "create-taps"
    SHIELDS_SURVIVE_CLEANUP = "shields-survive-cleanup"
    CANT_REGEN_IGNORED = "cant-regen-ignored"
    CANT_REGEN_SURVIVES_CLEANUP = "cant-regen-survives-cleanup"
    TOUGHNESS_ZERO_IS_DESTRUCTION = "toughness-zero-is-destruction"
    INDESTRUCTIBLE_USES_SHIELD = "indestructible-uses-shield"
    ONE_DESTRUCTION_USES_ALL = "one-destruction-uses-all"
    REGEN_KEEPS_DAMAGE = "regen-keeps-damage"
    REGEN_STAYS_IN_COMBAT = "regen-stays-in-combat"
    REGEN_DOES_NOT_TAP = "regen-does-not-tap"
    DEATHTOUCH_REMEMBERED = "deathtouch-remembered"
    RIDER_ON_CREATE = "rider-on-create"
    CHOICE_BY_OWNER = "choice-by-owner"
    SHIELD_FOLLOWS_ZONE_CHANGE = "shield-follows-zone-change"
    STATIC_REGEN_USED_UP = "static-regen-used-up"
    SACRIFICE_USES_SHIELD = "sacrifice-uses-shield"
    NO_SBA_BEFORE_PRIORITY = "no-sba-before-priority"
    DAMAGE_TRIGGER_SKIPPED_ON_REGEN = "damage-trigger-skipped-on-regen"
    REGEN_UNATTACHES = "regen-unattaches"
    DEATHTOUCH_STATIC_PRE_M10 = "deathtouch-static-pre-m10"
    RIDER_TRIGGER_BY_CONTROLLER = "rider-trigger-by-controller"
    ALIKE_CHOICE_IGNORED = "alike-choice-ignored"
    FLICKER_RETURNS_TO_OWNER = "flicker-returns-to-owner"
    SUMMONING_SICKNESS_IGNORED = "summoning-sickness-ignored"
    COMBAT_KEYWORDS_AT_ASSIGNMENT = "combat-keywords-at-assignment"
    SHIELD_COUNTER_PER_SOURCE = "shield-counter-per-source"
    DOUBLE_STRIKER_STAYS_IN_COMBAT = "double-striker-stays-in-combat"
    LIFELINK_ON_PREVENTED = "lifelink-on-prevented"
    DAMAGE_CLEARED_ON_TYPE_CHANGE = "damage-cleared-on-type-change"
    NONCREATURE_STAYS_IN_COMBAT = "noncreature-stays-in-combat"
    PREVENTION_NOT_REDUCED = "prevention-not-reduced"
    PREVENTION_PER_SOURCE = "prevention-per-source"
    UNPREVENTABLE_PREVENTED = "unpreventable-prevented"
    PREVENTED_DEATHTOUCH_DESTROYS = "prevented-deathtouch-destroys"
    PHASING_LEAVES_BATTLEFIELD = "phasing-leaves-battlefield"
    MULTI_BLOCKER_FIRST_ONLY = "multi-blocker-first-only"
    TARGET_RULE_CAST_ONLY = "target-rule-cast-only"
    # Auras and Equipment (issue 12 items 5-6):
    SHIELD_ON_ATTACHMENT = "shield-on-attachment"
    GRANTED_ABILITY_AURA_CONTROLLER = "granted-ability-aura-controller"
    # Targets whose legality regeneration changes (issue 13 item 4):
    TARGET_STATUS_CAST_ONLY = "target-status-cast-only"
    # Costs of activated abilities (issue 13 item 3):
    TAP_COST_WHILE_TAPPED = "tap-cost-while-tapped"
    # Counting what was destroyed (issue 13 item 7):
    REGENERATED_COUNTED_AS_DESTROYED = "regenerated-counted-as-destroyed"
    TARGET_CANT_REGEN_NEEDS_DAMAGE = "target-cant-regen-needs-damage"
    # ... and the converse: Incinerate's "a creature dealt damage this way can't be
    # regenerated this turn" applied to its target although the damage was prevented (615.6;
    # phase.rs's PH-29)
    DAMAGE_RIDER_ON_PREVENTED = "damage-rider-on-prevented"
    SACRIFICED_AURA_NO_SHIELD = "sacrificed-aura-no-shield"
    # "Sacrifice a creature" paid with a creature its activator does not control (701.21a)
    SACRIFICE_ANY_CREATURE = "sacrifice-any-creature"
    # Triggered abilities beyond damage triggers (issue 13 item 5):
    REGEN_TRIGGERS_DIES = "regen-triggers-dies"
    TAPPED_REGEN_BECOMES_TAPPED = "tapped-regen-becomes-tapped"
    # Waiting triggers of both players put on the stack in reversed APNAP order: the active
    # player's last, so they resolve first (603.3b; phase.rs's order was checked against it)
    TRIGGERS_REVERSED_APNAP = "triggers-reversed-apnap"
    # A regeneration's tap makes no "becomes tapped" trigger (603.2e, 701.19a): phase.rs's
    # PH-33, whose regeneration sets the tapped flag without the event its triggers look for
    REGEN_TAP_TRIGGERS_NOTHING = "regen-tap-triggers-nothing"
    # "whenever a Merfolk you control becomes tapped" (Judge of Currents): not by regeneration
    REGEN_TAP_MISSES_WATCHERS = "regen-tap-misses-watchers"
    # ... and its "you may gain" resolved as a gain whatever its controller answers (608.2d)
    MAY_GAIN_IGNORES_DECLINE = "may-gain-ignores-decline"
    # "destroy that creature at end of combat" (Thicket Basilisk, Cockatrice):
    EOC_DESTROY_NEEDS_COMBAT = "eoc-destroy-needs-combat"
    REGEN_CANCELS_EOC_DESTROY = "regen-cancels-eoc-destroy"
    EXILED_THOUGH_REGENERATED = "exiled-though-regenerated"
    EXILE_ONLY_IF_DESTROYED = "exile-instead-only-if-destroyed"
    # Pyramids' "remove all damage instead" (issue 13 item 6):
    REMOVE_DAMAGE_REGENERATES = "remove-damage-regenerates"
    CANT_REGEN_STOPS_REMOVE_DAMAGE = "cant-regen-stops-remove-damage"
    REMOVE_DAMAGE_NOT_USED_UP = "remove-damage-not-used-up"
    # Another permanent's "whenever a creature (you control / an attacking creature) dies":
    REGEN_TRIGGERS_CREATURE_DIES = "regen-triggers-creature-dies"
    ATTACKING_READ_AFTER_MOVE = "attacking-read-after-move"
    DYING_OBSERVER_MISSES_DEATHS = "dying-observer-misses-deaths"
    # Several permanents destroyed at once (608.2f, 704.3): each destruction decided on the game
    # as the earlier ones of the event left it, an umbra-armor Aura destroyed first no longer
    # saving the creature it enchanted (702.89a rulings)
    DESTRUCTIONS_IN_SEQUENCE = "destructions-in-sequence"
    # Spells are cards (issue 13 item 1):
    SPELL_TO_GRAVEYARD_FIRST = "spell-to-graveyard-first"
    # Hand and library, draw (issue 13 item 2): Fecundity's draw given to the dying creature's
    # owner instead of its controller as it last existed (603.10a)
    DIES_DRAW_BY_OWNER = "dies-draw-by-owner"
    # ... or naming nobody, so as it resolves nobody is asked and nobody draws (phase.rs's
    # PH-31: "that creature's controller" read as the controller of a target it does not have)
    DIES_DRAW_NOBODY = "dies-draw-nobody"
    # Mill (issue 13 item 2): a mill from a library with fewer cards than asked counted as an
    # attempted draw from an empty library (701.17b; only drawing is a loss, 704.5b)
    MILL_SHORT_LIBRARY_LOSES = "mill-short-library-loses"
    # Soldevi Sentry's rider: "that player" (the opponent chosen on activation) read as the
    # Sentry's controller when it regenerates (603.7e, 115.1c)
    RIDER_DRAW_BY_CONTROLLER = "rider-draw-by-controller"
    # Reflexive triggered abilities (603.12; issue 13 item 5): "When you do, ..." done as part
    # of the resolving ability (the one-ability "if you do" reading), its target chosen then,
    # with no priority window before it happens
    REFLEXIVE_INLINE = "reflexive-inline"
    # ... or controlled by its source's controller now instead of the controller of the
    # ability that made it as that ability resolved (603.7e by way of 603.12)
    REFLEXIVE_BY_SOURCE_CONTROLLER = "reflexive-by-source-controller"
    # Counterspell (issue 13 item 1): a countered spell removed from the stack but put into
    # no graveyard (701.6a, 608.2b), as an engine that drops the stack object does
    COUNTERED_SPELL_VANISHES = "countered-spell-vanishes"


def ordinal(value: StrEnum) -> int:
    """Position of an enum member in its class: the integer the Z3 encoding uses for it.
    Memoised by class and member (the encoding asks it for every field of every state it
    reads, and listing the class each time was a measurable share of the agreement check).
    The class is part of the key: members of two classes with the same text are equal
    strings, and a cache keyed by the member alone would mix them up."""
    return _ordinal(type(value), value)


@cache
def _ordinal(cls: type[StrEnum], value: StrEnum) -> int:
    return list(cls).index(value)
