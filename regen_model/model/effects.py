"""What a spell or ability does when it resolves, as plain data.

One flat ``Effect`` record with a ``kind`` keeps the vocabulary closed and small, which the Z3
encoding needs (a stack object is a fixed set of fields there). The same effects are reached
two ways: a stack object resolving (608.2), and the direct actions of ``actions.py`` that a
scenario uses to say "an effect now does this" without casting anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from regen_model.model.enums import CounterKind, Keyword, Rider


class EffectKind(StrEnum):
    DAMAGE = "damage"  # N damage to the target (120.3)
    DAMAGE_EACH_CREATURE = "damage-each-creature"  # Pyroclasm
    DESTROY = "destroy"  # destroy the target(s) (701.8)
    DESTROY_ALL_CREATURES = "destroy-all-creatures"  # Wrath of God
    REGENERATE = "regenerate"  # create a regeneration shield (701.19a)
    PUMP = "pump"  # +X/+Y until end of turn (611.2a)
    UNREGENERABLE = "unregenerable"  # can't be regenerated this turn (701.19c)
    COUNTERS = "counters"  # put counters (122.1)
    LIFE = "life"  # a player gains (or loses) life
    FLICKER = "flicker"  # exile and return (400.7), under its owner's control or yours (110.2a)
    GAIN_CONTROL = "gain-control"  # the effect's controller gains control (613.1b)
    ANIMATE = "animate"  # its own animation: a creature until end of turn (613.1d, 613.4b)
    PREVENT = "prevent"  # prevent the next N damage to the target this turn (615.7)
    PREVENT_ALL = "prevent-all"  # prevent all damage to the target this turn (615.1)
    PHASE_OUT = "phase-out"  # the target phases out (702.26b)
    ATTACH = "attach"  # attach the ability's source to its target (701.3a; equip, 702.6a)
    # Pyramids: the next time the target would be destroyed this turn, remove all damage
    # marked on it instead (614.1a, 614.5)
    REMOVE_DAMAGE_INSTEAD = "remove-damage-instead"
    # each opponent of the effect's controller loses N life and the controller gains N (119.3;
    # Kardur's and Zulaport Cutthroat's triggers): untargeted
    DRAIN = "drain"
    # "that player may draw a card" (Fecundity's trigger, 121.1, 603.5): the player recorded in
    # its one target (untargeted, like a trigger naming only a player) may draw ``amount``
    # cards; the answer is theirs as it resolves (``PassPriority.decline``)
    MAY_DRAW = "may-draw"
    # "target player mills N cards" (701.17a): the top ``amount`` cards of the target player's
    # library, or as many as it holds (701.17b), go to their graveyard together (404.3); then
    # the effect's controller draws ``draw`` cards (Thought Scour's "Draw a card.", 608.2c)
    MILL = "mill"
    # "you may pay {1}. When you do, destroy target creature with toughness X or less, where X
    # is the number of Shrines you control" (Go-Shintai of Hidden Cruelty's end-step trigger):
    # the payment is its controller's answer as it resolves (608.2d, ``PassPriority.decline``),
    # and paying makes a reflexive triggered ability trigger at once (603.12), its target chosen
    # as it is put on the stack (603.3d)
    WHEN_YOU_DO = "when-you-do"
    # "you may gain N life" (Judge of Currents' trigger): the player recorded in its one target
    # (untargeted: the trigger's controller, "you", 603.3a) may gain ``amount`` life; the answer
    # is theirs as it resolves (608.2d; ``PassPriority.decline``), like ``MAY_DRAW``'s
    MAY_GAIN = "may-gain"
    # "counter target spell" (Counterspell; 701.6a): the target spell is removed from the
    # stack without resolving, none of its effect happens, and it goes to its owner's
    # graveyard; its one target is a spell on the stack (``TargetRule.SPELL``)
    COUNTER_SPELL = "counter-spell"


# The effects a spell casts with targets (601.2c); the others are untargeted (Pyroclasm, Wrath)
# or are abilities acting on their own source (a manland's animation).
TARGETED_KINDS: frozenset[EffectKind] = frozenset(
    {
        EffectKind.DAMAGE,
        EffectKind.DESTROY,
        EffectKind.REGENERATE,
        EffectKind.PUMP,
        EffectKind.UNREGENERABLE,
        EffectKind.COUNTERS,
        EffectKind.FLICKER,
        EffectKind.GAIN_CONTROL,
        EffectKind.PREVENT,
        EffectKind.PREVENT_ALL,
        EffectKind.PHASE_OUT,
        EffectKind.MILL,
        EffectKind.COUNTER_SPELL,
    }
)

# The effects that ask the player they name "may ..." as they resolve (608.2d): "that player
# may draw a card" (Fecundity, Soldevi Sentry's rider) and "you may gain N life" (Judge of
# Currents). The answer no is carried by the pass that resolves one (``PassPriority.decline``),
# so the explorer and the generator offer both answers wherever one is on top of the stack.
MAY_KINDS: frozenset[EffectKind] = frozenset({EffectKind.MAY_DRAW, EffectKind.MAY_GAIN})


class TargetRule(StrEnum):
    """What a spell may target (115.1). ``NONE``: untargeted (Pyroclasm, Wrath)."""

    NONE = "none"
    ANY = "any"  # creature or player
    CREATURE = "creature"
    CREATURE_YOU_CONTROL = "creature-you-control"
    NONARTIFACT_NONBLACK_CREATURE = "nonartifact-nonblack-creature"  # Terror
    ATTACKING_CREATURE = "attacking-creature"  # Kill Shot
    UNTAPPED_CREATURE = "untapped-creature"  # Asphyxiate
    LAND = "land"  # Pyramids' "target land" (a land creature included)
    PLAYER = "player"  # "target player" (Thought Scour): a player, never a card (115.2)
    # Go-Shintai of Hidden Cruelty's reflexive trigger: "target creature with toughness X or
    # less, where X is the number of Shrines you control"
    TOUGHNESS_SHRINES = "creature-toughness-shrines"
    # "target spell" (Counterspell): a spell on the stack, never a card on the battlefield, a
    # player or an ability (115.1, 115.5); the one target is named by its stack position
    SPELL = "spell"


# The target rule a spell has when nothing more specific is said (scenario spells, generic casts).
DEFAULT_TARGETS: dict[EffectKind, TargetRule] = {
    EffectKind.DAMAGE: TargetRule.ANY,
    EffectKind.DAMAGE_EACH_CREATURE: TargetRule.NONE,
    EffectKind.DESTROY_ALL_CREATURES: TargetRule.NONE,
    EffectKind.FLICKER: TargetRule.CREATURE_YOU_CONTROL,
    EffectKind.MILL: TargetRule.PLAYER,
    EffectKind.COUNTER_SPELL: TargetRule.SPELL,
}


def default_target_rule(kind: EffectKind) -> TargetRule:
    return DEFAULT_TARGETS.get(kind, TargetRule.CREATURE)


class TargetNeeds(NamedTuple):
    """What a card must be to be a legal target under one ``TargetRule``: the one definition
    both views check when a spell is cast (601.2c) and again when it resolves (608.2b: a
    target that no longer meets any part of its spell's target requirement is illegal, the
    same object on the battlefield or not).

    ``yours``: controlled by the stack object's controller ("target creature you control",
    Cloudshift), so a control change in response makes the target illegal. ``nonartifact`` /
    ``nonblack``: Terror's "target nonartifact, nonblack creature" (an animation may give a
    card a color, 613.1e). ``attacking`` / ``untapped``: Kill Shot's "target attacking
    creature" and Asphyxiate's "target untapped creature", parts a regeneration in response
    makes fail (it removes the creature from combat and taps it, 701.19a, 506.4). ``land``:
    Pyramids' "target land", a land whether or not it is a creature now (205.2a: the type
    line of the model's lands never loses "Land"). ``player``: "target player" (Thought
    Scour), which no card meets (115.2: a player is named as one). ``toughness_shrines``:
    "with toughness X or less, where X is the number of Shrines you control" (Go-Shintai of
    Hidden Cruelty's reflexive trigger): its toughness now at most the number of Shrines on
    the battlefield that the stack object's controller controls now, both read each time the
    rule is checked (603.3d, 608.2b). ``spell``: "target spell" (Counterspell), which no
    card on the battlefield meets (a spell is on the stack, 115.1). The part
    every card target needs, that it is still the same object on the battlefield (400.7), is
    not listed: it holds under every rule.
    """

    creature: bool = False
    yours: bool = False
    nonartifact: bool = False
    nonblack: bool = False
    attacking: bool = False
    untapped: bool = False
    land: bool = False
    player: bool = False
    toughness_shrines: bool = False
    spell: bool = False


# ``NONE`` is the rule of an object with no target: an activated ability acting on its own
# permanent ("Regenerate this creature", a manland's animation) records that permanent in its
# target list, and it only has to be the same object still (it may be a land); a spell with
# this rule has no targets (601.2c). A card target of "any target" is a creature: the model
# has no planeswalkers or battles (115.4).
TARGET_NEEDS: dict[TargetRule, TargetNeeds] = {
    TargetRule.NONE: TargetNeeds(),
    TargetRule.ANY: TargetNeeds(creature=True),
    TargetRule.CREATURE: TargetNeeds(creature=True),
    TargetRule.CREATURE_YOU_CONTROL: TargetNeeds(creature=True, yours=True),
    TargetRule.NONARTIFACT_NONBLACK_CREATURE: TargetNeeds(
        creature=True, nonartifact=True, nonblack=True
    ),
    TargetRule.ATTACKING_CREATURE: TargetNeeds(creature=True, attacking=True),
    TargetRule.UNTAPPED_CREATURE: TargetNeeds(creature=True, untapped=True),
    TargetRule.LAND: TargetNeeds(land=True),
    TargetRule.PLAYER: TargetNeeds(player=True),
    TargetRule.TOUGHNESS_SHRINES: TargetNeeds(creature=True, toughness_shrines=True),
    TargetRule.SPELL: TargetNeeds(spell=True),
}


# The target rules with a part that a regeneration in response can make fail: it removes the
# creature from combat and taps it (701.19a, 506.4), so "target attacking creature" and
# "target untapped creature" no longer hold on resolution (608.2b). The mutant
# ``target-status-cast-only`` checks these parts only at casting.
STATUS_RULES: frozenset[TargetRule] = frozenset(
    {TargetRule.ATTACKING_CREATURE, TargetRule.UNTAPPED_CREATURE}
)


def rules_needing(part: str) -> tuple[TargetRule, ...]:
    """The target rules whose ``TargetNeeds`` has ``part`` (a field name): how the Z3 view,
    where the rule is a symbolic ordinal, reads the same table."""
    return tuple(r for r, needs in TARGET_NEEDS.items() if getattr(needs, part))


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect. Unused fields keep their defaults.

    ``cant_regen`` means, for ``DESTROY``/``DESTROY_ALL_CREATURES``, the rider "it can't be
    regenerated" (that destruction only, 608.2c); for damage, "a creature dealt damage this way
    can't be regenerated this turn" (Incinerate): only a creature the damage reaches.
    ``cant_regen_target`` (damage only) is the unconditional form, "if it's a creature, it
    can't be regenerated this turn" (Disintegrate): the targeted creature, still a legal target
    as the spell resolves, can't be regenerated this turn whether or not any damage is dealt
    to it (701.19c, 608.2c; clause ``cant-regen.damage-target``).
    ``exile_if_dies`` (damage only) is Disintegrate's last instruction, "if it would die this
    turn, exile it instead": the same targeted creature, whatever the damage did, is exiled
    instead of being put into its owner's graveyard from the battlefield until the turn ends
    (614.6, 700.4; clause ``replace.exile-instead``).

    ``amount``, for ``DESTROY_ALL_CREATURES``, is the life the effect's controller gains for
    each creature destroyed this way (Fumigate): a creature a replacement saved (a shield,
    static regeneration, umbra armor, a shield counter) or an indestructible one was not
    destroyed (701.8a, 701.19a, 614.6; clause ``destroy.counted``).

    ``keywords`` are, for damage, the keywords of the damage's source (a spell with deathtouch);
    for ``GAIN_CONTROL``, keywords the creature gains until end of turn (Act of Treason's haste).
    ``untap`` (``GAIN_CONTROL``): untap that creature. ``under_you`` (``FLICKER``): return it
    under the control of the effect's controller ("under your control", Cloudshift) instead of
    its owner's (110.2a).

    ``amount``, for ``MILL``, is how many cards the target player mills, and ``draw`` how many
    the effect's controller then draws (Thought Scour: 2 and 1); ``draw`` is 0 for every other
    kind.
    """

    kind: EffectKind
    amount: int = 0
    power: int = 0
    toughness: int = 0
    keywords: frozenset[Keyword] = frozenset()
    cant_regen: bool = False
    cant_regen_target: bool = False
    exile_if_dies: bool = False
    rider: Rider = Rider.NONE
    counter: CounterKind = CounterKind.PLUS
    until_end_of_turn: bool = False
    untap: bool = False
    under_you: bool = False
    draw: int = 0

    def describe(self) -> str:
        """A short human reading of the effect, for narration."""
        k = self.kind
        if k is EffectKind.DAMAGE:
            extra = "; dealt damage -> can't be regenerated this turn" if self.cant_regen else ""
            if self.cant_regen_target:
                extra += "; its creature target can't be regenerated this turn"
            if self.exile_if_dies:
                extra += "; if it would die this turn, exile it instead"
            return f"{self.amount} damage{_kw(self.keywords)}{extra}"
        if k is EffectKind.DAMAGE_EACH_CREATURE:
            return f"{self.amount} damage to each creature{_kw(self.keywords)}"
        if k in (EffectKind.DESTROY, EffectKind.DESTROY_ALL_CREATURES):
            what = "destroy" if k is EffectKind.DESTROY else "destroy all creatures"
            what += "; can't be regenerated" if self.cant_regen else ""
            if k is EffectKind.DESTROY_ALL_CREATURES and self.amount:
                what += f"; {self.amount:+d} life for each creature destroyed this way"
            return what
        if k is EffectKind.REGENERATE:
            return "regenerate" + ("" if self.rider is Rider.NONE else f" (rider {self.rider})")
        if k is EffectKind.PUMP:
            return f"{self.power:+d}/{self.toughness:+d} until end of turn"
        if k is EffectKind.UNREGENERABLE:
            return "can't be regenerated this turn"
        if k is EffectKind.COUNTERS:
            return f"{self.amount} {self.counter.value} counter(s)"
        if k is EffectKind.LIFE:
            return f"{self.amount:+d} life"
        if k is EffectKind.DRAIN:
            return f"each opponent loses {self.amount} life and you gain {self.amount}"
        if k is EffectKind.MAY_DRAW:
            return f"that player may draw {self.amount} card(s)"
        if k is EffectKind.MAY_GAIN:
            return f"that player may gain {self.amount} life"
        if k is EffectKind.MILL:
            then = f"; you draw {self.draw} card(s)" if self.draw else ""
            return f"target player mills {self.amount} card(s){then}"
        if k is EffectKind.WHEN_YOU_DO:
            return (
                "you may pay; when you do, destroy target creature with toughness X or less "
                "(X: the Shrines you control)"
            )
        if k is EffectKind.COUNTER_SPELL:
            return "counter target spell"
        if k is EffectKind.ANIMATE:
            return "becomes a creature until end of turn"
        if k is EffectKind.PREVENT:
            return f"prevent the next {self.amount} damage to it this turn"
        if k is EffectKind.PREVENT_ALL:
            return "prevent all damage to it this turn"
        if k is EffectKind.PHASE_OUT:
            return "it phases out"
        if k is EffectKind.ATTACH:
            return "attach it to the target"
        if k is EffectKind.REMOVE_DAMAGE_INSTEAD:
            return (
                "the next time it would be destroyed this turn, remove all damage from it instead"
            )
        if k is EffectKind.FLICKER:
            return "exile and return" + (" under your control" if self.under_you else "")
        text = "gain control" + (" until end of turn" if self.until_end_of_turn else "")
        if self.untap:
            text += "; untap it"
        if self.keywords:
            text += "; it gains " + ", ".join(sorted(k.value for k in self.keywords))
        return text


def _kw(keywords: frozenset[Keyword]) -> str:
    if not keywords:
        return ""
    return " (" + ", ".join(sorted(k.value for k in keywords)) + ")"
