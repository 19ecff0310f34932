"""The game state as Z3 constants: one ``Frame`` per time step, plus frame-independent
``Statics`` for what is printed on the cards.

This module is the *abstraction function* between the two views: ``pin`` states that a frame
equals a concrete ``GameState`` and ``read`` turns a model back into one. Everything else in
the encoding talks about frames only.

Representation choices, and why:

* Only ``Int`` and ``Bool`` constants (enums are their ordinal, "none" is -1): this is the
  fragment Spacer's CHC engine handles best, and every frame flattens to one list of
  variables (``Frame.vars``), which is what CHC predicates and k-induction need.
* Card slots are fixed; a card's identity is (slot, gen) as in the engine (400.7).
* Descriptive strings (a shield's origin, a stack object's name) are not represented: no rule
  depends on them. ``read`` fills them with neutral text.
* Printed characteristics are symbolic ``Statics`` so a proof covers every card in the scope,
  not only the cards of one scenario; ``pin_statics`` fixes them to a scenario's cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import z3

from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.model.cards import (
    COST_KINDS,
    AbilityKind,
    ActivatedAbility,
    Animation,
    CardTemplate,
    DamageTrigger,
    TriggerEffect,
)
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CardType,
    Color,
    CounterKind,
    Decision,
    DiesWatch,
    Edition,
    Keyword,
    Rider,
    StackKind,
    Step,
    Zone,
    ordinal,
)
from regen_model.model.state import (
    SPELL_GONE,
    Card,
    Combat,
    GameState,
    Ghost,
    Graveyard,
    Hit,
    Player,
    Setup,
    Shield,
    SourceLKI,
    StackObject,
    Target,
)

KEYWORDS: tuple[Keyword, ...] = tuple(Keyword)
KW_INDEX: dict[Keyword, int] = {k: i for i, k in enumerate(KEYWORDS)}
NONE = -1  # "no card / no player" in Int fields
# ``StackVars.target_spell`` of a spell target whose spell was countered (``SPELL_GONE``): NONE
# already says "not a spell target"
SPELL_GONE_Z = -2
# Keywords an Aura or Equipment can give the permanent it is attached to (``CardTemplate.grants``;
# issue 12 item 5: "equipped creature has indestructible / trample / first strike").
GRANTABLE: tuple[Keyword, ...] = (Keyword.INDESTRUCTIBLE, Keyword.TRAMPLE, Keyword.FIRST_STRIKE)
PLAYER_RECIPIENT = -1  # in combat hits: the defending player

Z3Ref = Any  # z3 ships no type stubs


def _int(name: str) -> Z3Ref:
    return z3.Int(name)


def _bool(name: str) -> Z3Ref:
    return z3.Bool(name)


_ORDINALS: dict[tuple[type, Any], int] = {}


def _ord(value: Any) -> int:
    """``ordinal``, cached: the abstraction function calls it for every enum field. Keyed by
    type too: members of different ``StrEnum``s with the same spelling are equal strings
    (``Step.DECLARE_ATTACKERS == Decision.DECLARE_ATTACKERS``)."""
    key = (type(value), value)
    found = _ORDINALS.get(key)
    if found is None:
        found = _ORDINALS[key] = ordinal(value)
    return found


def _in_enum(term: Z3Ref, enum: type[StrEnum]) -> Z3Ref:
    return z3.And(term >= 0, term < len(enum.__members__))


def _makers(tag: str, names: bool, lookup: Any = None) -> tuple[Any, Any]:
    """Variable constructors for ``fresh``: Z3 constants, or (``names``) their names without
    the tag, so one construction gives both a frame and the key layout of concrete values;
    or (``lookup``) the value ``lookup(name)`` of each field, to hold concrete values."""
    if lookup is not None:

        def value(full: str) -> Any:
            return lookup(full[len(tag) + 1 :])

        return value, value
    if names:

        def name(full: str) -> str:
            return full[len(tag) + 1 :]

        return name, name
    return _int, _bool


# --- statics ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardStatics:
    """Printed characteristics of one card slot (see ``CardTemplate``)."""

    owner: Z3Ref
    creature: Z3Ref
    power: Z3Ref
    toughness: Z3Ref
    keywords: tuple[Z3Ref, ...]  # one Bool per ``Keyword``
    attachment: Z3Ref  # ordinal of ``Attachment``
    static_regen: Z3Ref
    bonus_power: Z3Ref
    bonus_toughness: Z3Ref
    regen_ability: Z3Ref  # has "{cost}: Regenerate this" as ability 0
    regen_rider: Z3Ref  # ordinal of ``Rider`` for that ability
    unregen_ability: Z3Ref  # has Knight of the Holy Nimbus's ability (opponents only)
    trigger: Z3Ref  # 0 none, 1 gain life, 2 deal that much damage to you (``DamageTrigger``)
    trigger_combat_only: Z3Ref
    artifact: Z3Ref  # an artifact (Terror's "nonartifact")
    black: Z3Ref  # black (Terror's "nonblack"; ``CardTemplate.colors``)
    enters_plus: Z3Ref  # +1/+1 counters it enters the battlefield with (614.1c)
    # Its own animation (``CardTemplate.animation``, ``AbilityKind.ANIMATE_SELF`` as ability
    # 0; a regeneration ability is then ability 1, granted by the animation): base power and
    # toughness while animated (613.4b), and whether the animation makes it black (613.1e).
    animate_ability: Z3Ref
    anim_power: Z3Ref
    anim_toughness: Z3Ref
    anim_black: Z3Ref
    extra_block: Z3Ref  # "can block an additional creature each combat" (509.1a)
    # An Aura's or Equipment's: the keywords it grants what it is attached to (one Bool per
    # ``GRANTABLE``), "{cost}: Regenerate enchanted/equipped creature" as ability 0, and equip
    # as the ability after it (``AbilityKind.REGENERATE_HOST``, ``AbilityKind.EQUIP``).
    grants: tuple[Z3Ref, ...]
    host_regen: Z3Ref
    equip: Z3Ref
    # An Aura's or Equipment's "enchanted creature has '{cost}: Regenerate this creature'"
    # (``CardTemplate.grants_abilities``, 613.1f): the host has it after its printed abilities.
    grant_regen: Z3Ref
    # A creature's "{cost}: Regenerate target creature" (Suture Spirit,
    # ``AbilityKind.REGENERATE_TARGET``) as its only ability: a target chosen on activation
    # and its rule re-checked on resolution (602.2b, 608.2b).
    target_regen: Z3Ref
    # Its cost includes {T} (Niall Silvain's, ``ActivatedAbility.tap_cost``): paid as it is
    # activated (601.2h), by an untapped source not summoning sick (302.6).
    tap_cost: Z3Ref
    # Its "Regenerate enchanted creature" or "Regenerate target creature" costs "Sacrifice
    # this" (Carapace's, Vigilant Martyr's, ``ActivatedAbility.sacrifice_cost``): the source
    # goes to the graveyard as it is activated (601.2h), the ability keeps the host (608.2h).
    sac_cost: Z3Ref
    # Its "Regenerate enchanted creature" costs "Sacrifice a creature" (Dark Privilege's,
    # ``ActivatedAbility.sacrifice_creature``): the activating player sacrifices a creature
    # they control as it is activated (601.2h, 701.21a), the ability keeps the host (608.2h).
    sac_creature: Z3Ref
    # "When this creature dies, you gain N life" (Onulet, ``CardTemplate.dies_life``): N, 0
    # for none (603.6c, 700.4).
    dies_life: Z3Ref
    # "Whenever this creature becomes tapped, target opponent gains N life" (Soldevi Steam
    # Beast, ``CardTemplate.tapped_opponent_life``): N, 0 for none (603.2e).
    tapped_opponent_life: Z3Ref
    # A land (its type line, ``CardTemplate.types``; Pyramids' "target land"), and Pyramids'
    # "{2}: The next time target land would be destroyed this turn, remove all damage marked
    # on it instead" (``AbilityKind.REMOVE_DAMAGE_TARGET``) as a noncreature's only ability.
    land: Z3Ref
    remove_damage_ability: Z3Ref
    # "Whenever this creature blocks or becomes blocked by a non-Wall creature, destroy that
    # creature at end of combat" (Thicket Basilisk, ``CardTemplate.destroys_combatants``), and
    # whether its creature types include Wall (``CardTemplate.wall``, 205.3m).
    destroys_combatants: Z3Ref
    wall: Z3Ref
    # "Whenever <a creature | this creature or another creature you control | an attacking
    # creature> dies, each opponent loses N life and you gain N life" (Zulaport Cutthroat,
    # Kardur, Doomscourge; ``CardTemplate.dies_watch``, ``dies_drain``): the ordinal of the
    # ``DiesWatch`` and N, 0 for none (603.6c, 603.10a).
    dies_watch: Z3Ref
    dies_drain: Z3Ref
    # Fecundity's "that creature's controller may draw N cards" in place of the drain
    # (``CardTemplate.dies_draw``): N, 0 for none; a watcher has one of the two effects.
    dies_draw: Z3Ref
    # Its subtypes include Shrine (``CardTemplate.shrine``, 205.3h), and Go-Shintai of Hidden
    # Cruelty's "At the beginning of your end step, you may pay {1}. When you do, destroy target
    # creature with toughness X or less, where X is the number of Shrines you control"
    # (``CardTemplate.end_step_reflexive``; 513.1, 603.12, 603.3d).
    shrine: Z3Ref
    end_step_reflexive: Z3Ref
    # Its creature types include Merfolk (``CardTemplate.merfolk``, 205.3m), and Judge of
    # Currents' "Whenever a Merfolk you control becomes tapped, you may gain N life"
    # (``CardTemplate.tapped_watch_life``): N, 0 for none (603.2, 603.2e).
    merfolk: Z3Ref
    tapped_watch_life: Z3Ref

    def kw(self, keyword: Keyword) -> Z3Ref:
        return self.keywords[KW_INDEX[keyword]]

    def grant(self, keyword: Keyword) -> Z3Ref:
        return self.grants[GRANTABLE.index(keyword)]


@dataclass(frozen=True)
class Statics:
    scope: Scope
    cards: tuple[CardStatics, ...]

    @staticmethod
    def fresh(scope: Scope, tag: str = "s", names: bool = False, lookup: Any = None) -> Statics:
        """Fresh Z3 constants named ``{tag}.c{i}.{field}``; with ``names``, the bare field
        names (``c{i}.{field}``) instead, as keys for concrete values (see ``values``); with
        ``lookup``, the values ``lookup(name)``."""
        mk_i, mk_b = _makers(tag, names, lookup)
        cards = []
        for i in range(scope.cards):
            p = f"{tag}.c{i}"
            cards.append(
                CardStatics(
                    owner=mk_i(f"{p}.owner"),
                    creature=mk_b(f"{p}.creature"),
                    power=mk_i(f"{p}.power"),
                    toughness=mk_i(f"{p}.toughness"),
                    keywords=tuple(mk_b(f"{p}.kw.{k.value}") for k in KEYWORDS),
                    attachment=mk_i(f"{p}.attachment"),
                    static_regen=mk_b(f"{p}.static_regen"),
                    bonus_power=mk_i(f"{p}.bonus_power"),
                    bonus_toughness=mk_i(f"{p}.bonus_toughness"),
                    regen_ability=mk_b(f"{p}.regen_ability"),
                    regen_rider=mk_i(f"{p}.regen_rider"),
                    unregen_ability=mk_b(f"{p}.unregen_ability"),
                    trigger=mk_i(f"{p}.trigger"),
                    trigger_combat_only=mk_b(f"{p}.trigger_combat_only"),
                    artifact=mk_b(f"{p}.artifact"),
                    black=mk_b(f"{p}.black"),
                    enters_plus=mk_i(f"{p}.enters_plus"),
                    animate_ability=mk_b(f"{p}.animate_ability"),
                    anim_power=mk_i(f"{p}.anim_power"),
                    anim_toughness=mk_i(f"{p}.anim_toughness"),
                    anim_black=mk_b(f"{p}.anim_black"),
                    extra_block=mk_b(f"{p}.extra_block"),
                    grants=tuple(mk_b(f"{p}.grants.{k.value}") for k in GRANTABLE),
                    host_regen=mk_b(f"{p}.host_regen"),
                    equip=mk_b(f"{p}.equip"),
                    grant_regen=mk_b(f"{p}.grant_regen"),
                    target_regen=mk_b(f"{p}.target_regen"),
                    tap_cost=mk_b(f"{p}.tap_cost"),
                    sac_cost=mk_b(f"{p}.sac_cost"),
                    sac_creature=mk_b(f"{p}.sac_creature"),
                    dies_life=mk_i(f"{p}.dies_life"),
                    tapped_opponent_life=mk_i(f"{p}.tapped_opponent_life"),
                    land=mk_b(f"{p}.land"),
                    remove_damage_ability=mk_b(f"{p}.remove_damage_ability"),
                    destroys_combatants=mk_b(f"{p}.destroys_combatants"),
                    wall=mk_b(f"{p}.wall"),
                    dies_watch=mk_i(f"{p}.dies_watch"),
                    dies_drain=mk_i(f"{p}.dies_drain"),
                    dies_draw=mk_i(f"{p}.dies_draw"),
                    shrine=mk_b(f"{p}.shrine"),
                    end_step_reflexive=mk_b(f"{p}.end_step_reflexive"),
                    merfolk=mk_b(f"{p}.merfolk"),
                    tapped_watch_life=mk_i(f"{p}.tapped_watch_life"),
                )
            )
        return Statics(scope, tuple(cards))

    def domain(self) -> list[Z3Ref]:
        """Which printed cards the scope allows."""
        out = []
        sc = self.scope
        for c in self.cards:
            out += [
                z3.Or(c.owner == 0, c.owner == 1),
                c.power >= 0,
                c.power <= sc.max_power,
                c.toughness >= 0,
                c.toughness <= sc.max_toughness,
                _in_enum(c.attachment, Attachment),
                _in_enum(c.regen_rider, Rider),
                c.trigger >= 0,
                c.trigger <= 2,
                c.bonus_power >= 0,
                c.bonus_power <= sc.max_amount,
                c.bonus_toughness >= 0,
                c.bonus_toughness <= sc.max_amount,
                c.enters_plus >= 0,
                c.enters_plus <= sc.max_amount,
                c.dies_life >= 0,
                c.dies_life <= sc.max_amount,
                c.tapped_opponent_life >= 0,
                c.tapped_opponent_life <= sc.max_amount,
                c.tapped_watch_life >= 0,
                c.tapped_watch_life <= sc.max_amount,
                _in_enum(c.dies_watch, DiesWatch),
                c.dies_drain >= 0,
                c.dies_drain <= sc.max_amount,
                c.dies_draw >= 0,
                c.dies_draw <= sc.max_amount,
                (c.dies_watch == _ord(DiesWatch.NONE)) == (c.dies_drain + c.dies_draw == 0),
                z3.Or(c.dies_drain == 0, c.dies_draw == 0),
                # Auras and Equipment are not creatures; only they give a bonus; only Auras
                # have umbra armor; only creatures have abilities or triggers of our kinds.
                z3.Implies(c.attachment != _ord(Attachment.NONE), z3.Not(c.creature)),
                z3.Implies(
                    c.attachment == _ord(Attachment.NONE),
                    z3.And(c.bonus_power == 0, c.bonus_toughness == 0),
                ),
                z3.Implies(c.kw(Keyword.UMBRA_ARMOR), c.attachment == _ord(Attachment.AURA)),
                z3.Implies(
                    z3.Not(c.creature),
                    z3.And(
                        z3.Implies(c.regen_ability, c.animate_ability),
                        z3.Not(c.unregen_ability),
                        c.trigger == 0,
                        c.dies_life == 0,
                        c.tapped_opponent_life == 0,
                        z3.Not(c.destroys_combatants),
                        z3.Not(c.wall),
                        z3.Not(c.static_regen),
                        c.dies_drain == 0,
                        z3.Not(c.end_step_reflexive),
                        z3.Not(c.merfolk),
                        c.tapped_watch_life == 0,
                    ),
                ),
                # Only noncreature, non-attaching permanents animate themselves (manlands).
                c.anim_power >= 0,
                c.anim_power <= sc.max_power,
                c.anim_toughness >= 0,
                c.anim_toughness <= sc.max_toughness,
                z3.Implies(
                    c.animate_ability,
                    z3.And(z3.Not(c.creature), c.attachment == _ord(Attachment.NONE)),
                ),
                z3.Implies(
                    z3.Not(c.animate_ability),
                    z3.And(c.anim_power == 0, c.anim_toughness == 0, z3.Not(c.anim_black)),
                ),
                z3.Implies(z3.Not(c.regen_ability), c.regen_rider == _ord(Rider.NONE)),
                z3.Implies(c.trigger == 0, z3.Not(c.trigger_combat_only)),
                z3.Implies(z3.Not(c.creature), c.enters_plus == 0),
                z3.Implies(z3.Not(c.creature), z3.Not(c.extra_block)),
                # Only Auras and Equipment grant keywords or have the host/equip abilities;
                # equip only on Equipment (702.6a).
                z3.Implies(
                    c.attachment == _ord(Attachment.NONE),
                    z3.And(
                        z3.Not(c.host_regen),
                        z3.Not(c.equip),
                        z3.Not(c.grant_regen),
                        *[z3.Not(g) for g in c.grants],
                    ),
                ),
                z3.Implies(c.equip, c.attachment == _ord(Attachment.EQUIPMENT)),
                # "Regenerate target creature": a creature's only ability (``template_fits``)
                z3.Implies(
                    c.target_regen,
                    z3.And(
                        c.creature,
                        z3.Not(c.regen_ability),
                        z3.Not(c.unregen_ability),
                        z3.Not(c.animate_ability),
                    ),
                ),
                # Pyramids' ability: a noncreature's only ability (``template_fits``); only a
                # land animates itself, and no Aura or Equipment is a land
                z3.Implies(
                    c.remove_damage_ability,
                    z3.And(
                        z3.Not(c.creature),
                        c.attachment == _ord(Attachment.NONE),
                        z3.Not(c.regen_ability),
                        z3.Not(c.animate_ability),
                    ),
                ),
                z3.Implies(c.land, c.attachment == _ord(Attachment.NONE)),
                # ``read_statics`` reads a self-animating non-artifact as a land
                z3.Implies(z3.And(c.animate_ability, z3.Not(c.artifact)), c.land),
                z3.Implies(c.tap_cost, c.target_regen),  # the only {T} ability encoded
                # the only abilities encoded with "Sacrifice this" in their cost
                z3.Implies(c.sac_cost, z3.Or(c.host_regen, c.target_regen)),
                # "Sacrifice a creature" only on an Aura's "Regenerate enchanted creature",
                # never with "Sacrifice this" too
                z3.Implies(c.sac_creature, z3.And(c.host_regen, z3.Not(c.sac_cost))),
            ]
        return out

    def vars(self) -> list[Z3Ref]:
        out: list[Z3Ref] = []
        for c in self.cards:
            out += [
                c.owner,
                c.creature,
                c.power,
                c.toughness,
                *c.keywords,
                c.attachment,
                c.static_regen,
                c.bonus_power,
                c.bonus_toughness,
                c.regen_ability,
                c.regen_rider,
                c.unregen_ability,
                c.trigger,
                c.trigger_combat_only,
                c.artifact,
                c.black,
                c.enters_plus,
                c.animate_ability,
                c.anim_power,
                c.anim_toughness,
                c.anim_black,
                c.extra_block,
                *c.grants,
                c.host_regen,
                c.equip,
                c.grant_regen,
                c.target_regen,
                c.tap_cost,
                c.sac_cost,
                c.sac_creature,
                c.dies_life,
                c.tapped_opponent_life,
                c.land,
                c.remove_damage_ability,
                c.destroys_combatants,
                c.wall,
                c.dies_watch,
                c.dies_drain,
                c.dies_draw,
                c.shrine,
                c.end_step_reflexive,
                c.merfolk,
                c.tapped_watch_life,
            ]
        return out


_TARGETED = frozenset({AbilityKind.REGENERATE_TARGET})


def template_fits(template: CardTemplate) -> str | None:
    """Why a printed card cannot be represented by ``CardStatics`` (None if it can)."""
    kinds = [a.kind for a in template.abilities]
    if kinds not in (
        [],
        [AbilityKind.REGENERATE_SELF],
        [AbilityKind.MAKE_SELF_UNREGENERABLE],
        [AbilityKind.REGENERATE_SELF, AbilityKind.MAKE_SELF_UNREGENERABLE],
        [AbilityKind.ANIMATE_SELF],
        [AbilityKind.ANIMATE_SELF, AbilityKind.REGENERATE_SELF],
        [AbilityKind.REGENERATE_HOST],
        [AbilityKind.EQUIP],
        [AbilityKind.REGENERATE_HOST, AbilityKind.EQUIP],
        [AbilityKind.REGENERATE_TARGET],
        [AbilityKind.REMOVE_DAMAGE_TARGET],
    ):
        return f"{template.name}: ability layout {kinds} is not representable"
    attaches = AbilityKind.REGENERATE_HOST in kinds or AbilityKind.EQUIP in kinds
    if attaches and template.attachment is Attachment.NONE:
        return f"{template.name}: only an Aura or Equipment has these abilities"
    if AbilityKind.REMOVE_DAMAGE_TARGET in kinds and (
        template.is_creature or template.attachment is not Attachment.NONE
    ):
        return f"{template.name}: only a noncreature's 'remove all damage instead' is encoded"
    if CardType.LAND in template.types and template.attachment is not Attachment.NONE:
        return f"{template.name}: no Aura or Equipment is a land"
    if AbilityKind.REGENERATE_TARGET in kinds and not template.is_creature:
        return f"{template.name}: only a creature's 'Regenerate target creature' is encoded"
    if any(a.rider is not Rider.NONE for a in template.abilities if a.kind in _TARGETED):
        return f"{template.name}: 'Regenerate target creature' with a rider is not encoded"
    if any(a.tap_cost and a.kind not in COST_KINDS["tap"] for a in template.abilities):
        return f"{template.name}: only a {{T}} cost of 'Regenerate target creature' is encoded"
    if any(
        a.sacrifice_cost and a.kind not in COST_KINDS["sacrifice-self"] for a in template.abilities
    ):
        return f"{template.name}: only a 'Sacrifice this' cost of a regenerating ability is encoded"
    if any(
        a.sacrifice_creature
        and (a.kind not in COST_KINDS["sacrifice-creature"] or a.sacrifice_cost)
        for a in template.abilities
    ):
        return f"{template.name}: only an Aura's 'Sacrifice a creature: Regenerate' is encoded"
    if AbilityKind.EQUIP in kinds and template.attachment is not Attachment.EQUIPMENT:
        return f"{template.name}: only an Equipment has equip"
    if template.grants - set(GRANTABLE):
        return f"{template.name}: grants beyond {[k.value for k in GRANTABLE]} are not encoded"
    if template.grants and template.attachment is Attachment.NONE:
        return f"{template.name}: only an Aura or Equipment grants keywords"
    if template.grants_abilities not in ((), (ActivatedAbility(AbilityKind.REGENERATE_SELF),)):
        return f"{template.name}: only a plain granted 'Regenerate this creature' is encoded"
    if template.grants_abilities and template.attachment is Attachment.NONE:
        return f"{template.name}: only an Aura or Equipment gives its creature abilities"
    if template.attach_bonus != (0, 0) and template.attachment is Attachment.NONE:
        # ``Statics.domain``: a bonus is what an attached permanent gives its host
        return f"{template.name}: only an Aura or Equipment gives a power/toughness bonus"
    animates = AbilityKind.ANIMATE_SELF in kinds
    if animates != (template.animation is not None):
        return f"{template.name}: an animation needs exactly its own animation ability"
    if animates and (template.is_creature or template.attachment is not Attachment.NONE):
        return f"{template.name}: only a noncreature, non-attaching permanent animates itself"
    if template.animation is not None and template.animation.colors - {Color.BLACK}:
        return f"{template.name}: only black matters among an animation's colors"
    for a in template.abilities:
        if a.granted != (animates and a.kind is AbilityKind.REGENERATE_SELF):
            return f"{template.name}: only the regeneration ability of a manland is granted"
        if a.kind is AbilityKind.MAKE_SELF_UNREGENERABLE and not a.opponent_only:
            return f"{template.name}: only the opponents-only unregenerable ability is modelled"
        if a.kind is AbilityKind.REGENERATE_SELF and a.opponent_only:
            return f"{template.name}: an opponents-only regeneration ability is not modelled"
    if template.types - {CardType.CREATURE, CardType.ARTIFACT, CardType.ENCHANTMENT, CardType.LAND}:
        return f"{template.name}: unknown card type"
    if animates and not ({CardType.ARTIFACT, CardType.LAND} & template.types):
        return f"{template.name}: a self-animating permanent is a land or an artifact"
    if template.dies_life and not template.is_creature:
        return f"{template.name}: only a creature's 'when this creature dies' is encoded"
    if template.tapped_opponent_life and not template.is_creature:
        return f"{template.name}: only a creature's 'whenever this becomes tapped' is encoded"
    if template.static_regeneration and not template.is_creature:
        # 701.19b: static regeneration; Statics.domain gives it to creatures only
        return f"{template.name}: only a creature's static regeneration is encoded"
    if (template.destroys_combatants or template.wall) and not template.is_creature:
        return f"{template.name}: only a creature's Basilisk ability or Wall type is encoded"
    if (template.dies_watch is not DiesWatch.NONE) != (
        (template.dies_drain > 0) != (template.dies_draw > 0)
    ):
        return f"{template.name}: a 'whenever a creature dies' ability needs one effect amount"
    if template.dies_drain and not template.is_creature:
        return f"{template.name}: only a creature's 'whenever a creature dies' drain is encoded"
    if template.end_step_reflexive and not template.is_creature:
        return f"{template.name}: only a creature's end-step 'when you do' ability is encoded"
    if (template.merfolk or template.tapped_watch_life) and not template.is_creature:
        return f"{template.name}: only a creature's Merfolk type or Merfolk-tapped watch is encoded"
    if template.damage_trigger is not None and not template.is_creature:
        # 120.3, 603.2: ``Statics.domain`` gives "whenever this is dealt damage" to creatures
        # only (last here, so that the mutants of the checks above keep their numbers)
        return f"{template.name}: only a creature's 'whenever this is dealt damage' is encoded"
    return None


def pin_statics(statics: Statics, setup: Setup) -> list[Z3Ref]:
    """Equalities fixing the printed cards to a scenario's cards."""
    out: list[Z3Ref] = []
    _assign_statics(statics, setup, lambda var, value: out.append(var == value))
    return out


def statics_values(keys: Statics, setup: Setup) -> dict[str, int | bool]:
    """``pin_statics`` as plain values keyed by field name (``Statics.fresh(..., names=True)``)."""
    out: dict[str, int | bool] = {}
    _assign_statics(keys, setup, out.__setitem__)
    return out


def _assign_statics(statics: Statics, setup: Setup, put: Any) -> None:
    """Call ``put(variable, value)`` for every printed characteristic of every slot."""
    if len(setup.templates) > statics.scope.cards:
        raise OutOfScope(
            f"{len(setup.templates)} cards do not fit a scope of {statics.scope.cards}"
        )
    for i, c in enumerate(statics.cards):
        if i >= len(setup.templates):
            # Unused slots: a card that never matters (it stays in exile, see ``pin``).
            for var, value in (
                (c.owner, 0),
                (c.creature, False),
                (c.power, 0),
                (c.toughness, 0),
                *[(k, False) for k in c.keywords],
                (c.attachment, _ord(Attachment.NONE)),
                (c.static_regen, False),
                (c.bonus_power, 0),
                (c.bonus_toughness, 0),
                (c.regen_ability, False),
                (c.regen_rider, _ord(Rider.NONE)),
                (c.unregen_ability, False),
                (c.trigger, 0),
                (c.trigger_combat_only, False),
                (c.artifact, False),
                (c.black, False),
                (c.enters_plus, 0),
                (c.animate_ability, False),
                (c.anim_power, 0),
                (c.anim_toughness, 0),
                (c.anim_black, False),
                (c.extra_block, False),
                *[(g, False) for g in c.grants],
                (c.host_regen, False),
                (c.equip, False),
                (c.grant_regen, False),
                (c.target_regen, False),
                (c.tap_cost, False),
                (c.sac_cost, False),
                (c.sac_creature, False),
                (c.dies_life, 0),
                (c.tapped_opponent_life, 0),
                (c.land, False),
                (c.remove_damage_ability, False),
                (c.destroys_combatants, False),
                (c.wall, False),
                (c.dies_watch, _ord(DiesWatch.NONE)),
                (c.dies_drain, 0),
                (c.dies_draw, 0),
                (c.shrine, False),
                (c.end_step_reflexive, False),
                (c.merfolk, False),
                (c.tapped_watch_life, 0),
            ):
                put(var, value)
            continue
        t = setup.templates[i]
        reason = template_fits(t)
        if reason:
            raise OutOfScope(reason)
        regen = [a for a in t.abilities if a.kind is AbilityKind.REGENERATE_SELF]
        trig = t.damage_trigger
        anim = t.animation
        for var, value in (
            (c.owner, setup.owners[i]),
            (c.creature, t.is_creature),
            (c.power, t.power),
            (c.toughness, t.toughness),
            *[(c.kw(k), k in t.keywords) for k in KEYWORDS],
            (c.attachment, _ord(t.attachment)),
            (c.static_regen, t.static_regeneration),
            (c.bonus_power, t.attach_bonus[0]),
            (c.bonus_toughness, t.attach_bonus[1]),
            (c.regen_ability, bool(regen)),
            (c.regen_rider, _ord(regen[0].rider if regen else Rider.NONE)),
            (
                c.unregen_ability,
                any(a.kind is AbilityKind.MAKE_SELF_UNREGENERABLE for a in t.abilities),
            ),
            (c.trigger, trigger_code(trig)),
            (c.trigger_combat_only, trig is not None and trig.combat_only),
            (c.artifact, CardType.ARTIFACT in t.types),
            (c.black, Color.BLACK in t.colors),
            (c.enters_plus, t.enters_plus),
            (c.animate_ability, anim is not None),
            (c.anim_power, 0 if anim is None else anim.power),
            (c.anim_toughness, 0 if anim is None else anim.toughness),
            (c.anim_black, anim is not None and Color.BLACK in anim.colors),
            (c.extra_block, t.extra_block),
            *[(c.grant(k), k in t.grants) for k in GRANTABLE],
            (c.host_regen, any(a.kind is AbilityKind.REGENERATE_HOST for a in t.abilities)),
            (c.equip, any(a.kind is AbilityKind.EQUIP for a in t.abilities)),
            (c.grant_regen, bool(t.grants_abilities)),
            (c.target_regen, any(a.kind is AbilityKind.REGENERATE_TARGET for a in t.abilities)),
            (c.tap_cost, any(a.tap_cost for a in t.abilities)),
            (c.sac_cost, any(a.sacrifice_cost for a in t.abilities)),
            (c.sac_creature, any(a.sacrifice_creature for a in t.abilities)),
            (c.dies_life, t.dies_life),
            (c.tapped_opponent_life, t.tapped_opponent_life),
            (c.land, CardType.LAND in t.types),
            (
                c.remove_damage_ability,
                any(a.kind is AbilityKind.REMOVE_DAMAGE_TARGET for a in t.abilities),
            ),
            (c.destroys_combatants, t.destroys_combatants),
            (c.wall, t.wall),
            (c.dies_watch, _ord(t.dies_watch)),
            (c.dies_drain, t.dies_drain),
            (c.dies_draw, t.dies_draw),
            (c.shrine, t.shrine),
            (c.end_step_reflexive, t.end_step_reflexive),
            (c.merfolk, t.merfolk),
            (c.tapped_watch_life, t.tapped_watch_life),
        ):
            put(var, value)


def trigger_code(trigger: DamageTrigger | None) -> int:
    """``CardStatics.trigger``: 0 none, 1 gain life, 2 deal that much damage to you."""
    if trigger is None:
        return 0
    return 1 if trigger.effect is TriggerEffect.GAIN_LIFE else 2


def read_statics(
    model: Z3Ref, statics: Statics, player_names: tuple[str, ...] = ("A", "B")
) -> Setup:
    """Printed cards chosen by the solver, as a ``Setup`` the engine can run."""
    templates = []
    owners = []
    for i, c in enumerate(statics.cards):
        kws = frozenset(k for k in KEYWORDS if _b(model, c.kw(k)))
        abilities: list[ActivatedAbility] = []
        animates = _b(model, c.animate_ability)
        if animates:
            abilities.append(ActivatedAbility(AbilityKind.ANIMATE_SELF))
        if _b(model, c.regen_ability):
            abilities.append(
                ActivatedAbility(
                    AbilityKind.REGENERATE_SELF,
                    rider=list(Rider)[_i(model, c.regen_rider)],
                    granted=animates,
                )
            )
        if _b(model, c.unregen_ability):
            abilities.append(
                ActivatedAbility(AbilityKind.MAKE_SELF_UNREGENERABLE, opponent_only=True)
            )
        sac = _b(model, c.sac_cost)
        if _b(model, c.host_regen):
            abilities.append(
                ActivatedAbility(
                    AbilityKind.REGENERATE_HOST,
                    sacrifice_cost=sac,
                    sacrifice_creature=_b(model, c.sac_creature),
                )
            )
        if _b(model, c.equip):
            abilities.append(ActivatedAbility(AbilityKind.EQUIP))
        if _b(model, c.target_regen):
            abilities.append(
                ActivatedAbility(
                    AbilityKind.REGENERATE_TARGET,
                    tap_cost=_b(model, c.tap_cost),
                    sacrifice_cost=sac,
                )
            )
        if _b(model, c.remove_damage_ability):
            abilities.append(ActivatedAbility(AbilityKind.REMOVE_DAMAGE_TARGET))
        trig_kind = _i(model, c.trigger)
        trigger = None
        if trig_kind:
            effect = TriggerEffect.GAIN_LIFE if trig_kind == 1 else TriggerEffect.DAMAGE_YOU
            trigger = DamageTrigger(effect, combat_only=_b(model, c.trigger_combat_only))
        attachment = list(Attachment)[_i(model, c.attachment)]
        artifact = _b(model, c.artifact)
        land = [CardType.LAND] if _b(model, c.land) else []
        if _b(model, c.creature):
            types = frozenset(
                {CardType.CREATURE, *([CardType.ARTIFACT] if artifact else []), *land}
            )
        elif attachment is Attachment.AURA:
            # an Aura is an enchantment (205.3h, 303.4); the artifact bit, which the domain
            # allows on an Aura, is kept: an object may have more than one card type (205.2b)
            types = frozenset({CardType.ENCHANTMENT, *([CardType.ARTIFACT] if artifact else [])})
        elif land:
            types = frozenset({*land, *([CardType.ARTIFACT] if artifact else [])})
        elif not artifact and not animates:
            # no creature, land, Aura or artifact bit: an enchantment (Fecundity, a Honden); the
            # encoding keeps no enchantment bit, and a permanent has a card type (205.2a, 110.4)
            types = frozenset({CardType.ENCHANTMENT})
        elif animates and not artifact:
            types = frozenset({CardType.LAND})
        else:
            types = frozenset({CardType.ARTIFACT})
        if _b(model, c.shrine):
            # Shrine is an enchantment type (205.3h): the encoding has no enchantment bit of its
            # own, and the scenario format asks for the type beside ``shrine`` (parse_setup)
            types = types | {CardType.ENCHANTMENT}
        templates.append(
            CardTemplate(
                name=f"card {i}",
                types=types,
                power=_i(model, c.power),
                toughness=_i(model, c.toughness),
                keywords=kws,
                attachment=attachment,
                static_regeneration=_b(model, c.static_regen),
                abilities=tuple(abilities),
                damage_trigger=trigger,
                attach_bonus=(_i(model, c.bonus_power), _i(model, c.bonus_toughness)),
                grants=frozenset(k for k in GRANTABLE if _b(model, c.grant(k))),
                grants_abilities=(ActivatedAbility(AbilityKind.REGENERATE_SELF),)
                if _b(model, c.grant_regen)
                else (),
                colors=frozenset({Color.BLACK}) if _b(model, c.black) else frozenset(),
                enters_plus=_i(model, c.enters_plus),
                animation=Animation(
                    _i(model, c.anim_power),
                    _i(model, c.anim_toughness),
                    frozenset({Color.BLACK}) if _b(model, c.anim_black) else frozenset(),
                )
                if animates
                else None,
                extra_block=_b(model, c.extra_block),
                dies_life=_i(model, c.dies_life),
                tapped_opponent_life=_i(model, c.tapped_opponent_life),
                destroys_combatants=_b(model, c.destroys_combatants),
                wall=_b(model, c.wall),
                dies_watch=list(DiesWatch)[_i(model, c.dies_watch)],
                dies_drain=_i(model, c.dies_drain),
                dies_draw=_i(model, c.dies_draw),
                shrine=_b(model, c.shrine),
                end_step_reflexive=_b(model, c.end_step_reflexive),
                merfolk=_b(model, c.merfolk),
                tapped_watch_life=_i(model, c.tapped_watch_life),
            )
        )
        owners.append(_i(model, c.owner))
    return Setup(
        player_names=player_names,
        handles=tuple(f"c{i}" for i in range(len(templates))),
        templates=tuple(templates),
        owners=tuple(owners),
    )


# --- frames ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShieldVars:
    present: Z3Ref
    used: Z3Ref
    rider: Z3Ref
    creator: Z3Ref
    via: Z3Ref  # NONE, or the Aura or Equipment whose ability made it (``Shield.via``)


@dataclass(frozen=True)
class GhostVars:
    shields_made: Z3Ref
    destructions: Z3Ref
    by_shield: Z3Ref
    by_static: Z3Ref
    by_other: Z3Ref


@dataclass(frozen=True)
class CardVars:
    zone: Z3Ref
    gen: Z3Ref
    control: Z3Ref
    control_eot: Z3Ref  # NONE or a player
    tapped: Z3Ref
    damage: Z3Ref
    deathtouched: Z3Ref
    plus: Z3Ref
    minus: Z3Ref
    shield_counters: Z3Ref
    prevent_next: Z3Ref  # left of its "prevent the next N damage" shields (615.7; ``Card``)
    prevent_all: Z3Ref  # "prevent all damage that would be dealt to it this turn" (615.1)
    power_eot: Z3Ref
    toughness_eot: Z3Ref
    kw_granted: tuple[Z3Ref, ...]
    kw_removed: tuple[Z3Ref, ...]
    cant_regen: Z3Ref
    exile_if_dies: Z3Ref  # "if it would die this turn, exile it instead" (``Card``)
    remove_damage: Z3Ref  # unused Pyramids effects: remove all damage instead (``Card``)
    attached_to: Z3Ref  # NONE or a slot
    shields: tuple[ShieldVars, ...]
    attacking: Z3Ref
    blocking: Z3Ref  # NONE or the attacker's slot
    blocking_also: Z3Ref  # NONE or its second attacker's slot (``Card.blocking_also``)
    blocked: Z3Ref
    sick: Z3Ref  # not under its controller's control since their turn began (302.6)
    animated: Z3Ref  # its own animation applies until end of turn (613.1d; ``Card``)
    noncreature: Z3Ref  # the latest type change until end of turn: not a creature
    phased_out: Z3Ref  # NONE, or the player it phased out under (702.26b; ``Card``)
    # delayed "destroy it at end of combat" triggers waiting on it, and their controller
    # (NONE when there are none; ``Card.eoc_destroy``, 603.7)
    eoc_destroy: Z3Ref
    eoc_destroy_by: Z3Ref
    ghost: GhostVars
    first_striker: Z3Ref  # in Combat.first_strikers
    ordered: Z3Ref  # has a damage assignment order (M10)
    order_pos: Z3Ref  # NONE or its position in the order of its attacker ``blocking`` (M10)
    order_pos_also: Z3Ref  # NONE or its position in the order of ``blocking_also`` (M10)
    # 0 while it is in no graveyard; else the position of its group in its owner's graveyard,
    # from 1 at the bottom (``Player.graveyard``, 404.2: cards put there together share one)
    gy_pos: Z3Ref

    def granted(self, k: Keyword) -> Z3Ref:
        return self.kw_granted[KW_INDEX[k]]

    def removed(self, k: Keyword) -> Z3Ref:
        return self.kw_removed[KW_INDEX[k]]

    def vars(self) -> list[Z3Ref]:
        """Every variable of this card slot in a fixed order (``Frame.vars``)."""
        return [
            self.zone,
            self.gen,
            self.control,
            self.control_eot,
            self.tapped,
            self.damage,
            self.deathtouched,
            self.plus,
            self.minus,
            self.shield_counters,
            self.prevent_next,
            self.prevent_all,
            self.power_eot,
            self.toughness_eot,
            *self.kw_granted,
            *self.kw_removed,
            self.cant_regen,
            self.exile_if_dies,
            self.remove_damage,
            self.attached_to,
            self.attacking,
            self.blocking,
            self.blocking_also,
            self.blocked,
            self.sick,
            self.animated,
            self.noncreature,
            self.phased_out,
            self.eoc_destroy,
            self.eoc_destroy_by,
            self.first_striker,
            self.ordered,
            self.order_pos,
            self.order_pos_also,
            self.gy_pos,
            self.ghost.shields_made,
            self.ghost.destructions,
            self.ghost.by_shield,
            self.ghost.by_static,
            self.ghost.by_other,
            *[v for s in self.shields for v in (s.present, s.used, s.rider, s.creator, s.via)],
        ]


@dataclass(frozen=True)
class StackVars:
    """One stack object (or waiting trigger). Effect fields mirror ``Effect``."""

    kind: Z3Ref
    controller: Z3Ref
    effect: Z3Ref  # ordinal of EffectKind
    amount: Z3Ref
    power: Z3Ref
    toughness: Z3Ref
    keywords: tuple[Z3Ref, ...]
    cant_regen: Z3Ref
    cant_regen_target: Z3Ref  # damage: its creature target can't be regenerated (Disintegrate)
    exile_if_dies: Z3Ref  # damage: if its creature target would die this turn, exile it
    rider: Z3Ref
    counter: Z3Ref
    until_eot: Z3Ref
    untap: Z3Ref
    under_you: Z3Ref
    draw: Z3Ref  # mill: the cards its controller then draws (Thought Scour; ``Effect.draw``)
    target_rule: Z3Ref  # ordinal of TargetRule: what its card targets must be (608.2b)
    n_targets: Z3Ref
    target_card: tuple[Z3Ref, ...]
    target_gen: tuple[Z3Ref, ...]
    target_player: tuple[Z3Ref, ...]
    # a spell target's stack position (``Target.spell``): NONE for a card or player target,
    # SPELL_GONE for one whose spell was countered since (608.2b)
    target_spell: tuple[Z3Ref, ...]
    source: Z3Ref
    source_gen: Z3Ref
    # pre-M10 combat damage: hits[src][r] is the damage from card src to card r, or to the
    # defending player when r == scope.cards; hit_gen[r] the recipient's incarnation. For a
    # source that has left the battlefield since (hit_left[src]), its last known keywords and
    # controller (hit_keywords[src], hit_ctrl[src]; ``SourceLKI``); all false/0 before.
    hits: tuple[tuple[Z3Ref, ...], ...]
    hit_gen: tuple[Z3Ref, ...]
    hit_keywords: tuple[tuple[Z3Ref, ...], ...]
    hit_left: tuple[Z3Ref, ...]
    hit_ctrl: tuple[Z3Ref, ...]


@dataclass(frozen=True)
class PlayerVars:
    life: Z3Ref
    poison: Z3Ref
    lost: Z3Ref
    # how many groups their graveyard holds (``Player.graveyard``): those of card slots
    # (``CardVars.gy_pos``), those of spell cards, which are one group each (608.2n), and
    # those of milled cards, one group per mill (701.17a, 404.3), whose size is not kept
    gy_size: Z3Ref
    # the numbers of cards in their hand and library and whether they attempted to draw from
    # an empty library since the last check (``Player.hand``, ``library``, ``drew_empty``;
    # 121.1, 121.4, 704.5b): unbounded counts, as life is
    hand: Z3Ref
    library: Z3Ref
    drew_empty: Z3Ref


@dataclass(frozen=True)
class Frame:
    tag: str
    scope: Scope
    statics: Statics
    edition: Z3Ref
    turn: Z3Ref
    active: Z3Ref
    step: Z3Ref
    priority: Z3Ref  # NONE or a player
    passed: tuple[Z3Ref, ...]
    decision: Z3Ref
    stack_size: Z3Ref
    stack: tuple[StackVars, ...]
    pending_size: Z3Ref
    pending: tuple[StackVars, ...]
    players: tuple[PlayerVars, ...]
    cards: tuple[CardVars, ...]
    first_strike_step: Z3Ref
    declared: Z3Ref

    # --- construction -----------------------------------------------------------------------

    @staticmethod
    def fresh(statics: Statics, tag: str, names: bool = False) -> Frame:
        """Fresh Z3 constants named ``{tag}.{field}``; with ``names``, a frame of bare field
        names (``c0.damage``) used as the keys of concrete states (see ``values``)."""
        mk_i, mk_b = _makers(tag, names)
        sc = statics.scope
        n = sc.cards

        def stack_obj(p: str) -> StackVars:
            return StackVars(
                kind=mk_i(f"{p}.kind"),
                controller=mk_i(f"{p}.controller"),
                effect=mk_i(f"{p}.effect"),
                amount=mk_i(f"{p}.amount"),
                power=mk_i(f"{p}.power"),
                toughness=mk_i(f"{p}.toughness"),
                keywords=tuple(mk_b(f"{p}.kw.{k.value}") for k in KEYWORDS),
                cant_regen=mk_b(f"{p}.cant_regen"),
                cant_regen_target=mk_b(f"{p}.cant_regen_target"),
                exile_if_dies=mk_b(f"{p}.exile_if_dies"),
                rider=mk_i(f"{p}.rider"),
                counter=mk_i(f"{p}.counter"),
                until_eot=mk_b(f"{p}.until_eot"),
                untap=mk_b(f"{p}.untap"),
                under_you=mk_b(f"{p}.under_you"),
                draw=mk_i(f"{p}.draw"),
                target_rule=mk_i(f"{p}.target_rule"),
                n_targets=mk_i(f"{p}.n_targets"),
                target_card=tuple(mk_i(f"{p}.t{j}.card") for j in range(sc.targets)),
                target_gen=tuple(mk_i(f"{p}.t{j}.gen") for j in range(sc.targets)),
                target_player=tuple(mk_i(f"{p}.t{j}.player") for j in range(sc.targets)),
                target_spell=tuple(mk_i(f"{p}.t{j}.spell") for j in range(sc.targets)),
                source=mk_i(f"{p}.source"),
                source_gen=mk_i(f"{p}.source_gen"),
                hits=tuple(tuple(mk_i(f"{p}.hit.{s}.{r}") for r in range(n + 1)) for s in range(n)),
                hit_gen=tuple(mk_i(f"{p}.hit_gen.{r}") for r in range(n)),
                hit_keywords=tuple(
                    tuple(mk_b(f"{p}.hit_kw.{s}.{k.value}") for k in KEYWORDS) for s in range(n)
                ),
                hit_left=tuple(mk_b(f"{p}.hit_left.{s}") for s in range(n)),
                hit_ctrl=tuple(mk_i(f"{p}.hit_ctrl.{s}") for s in range(n)),
            )

        cards = []
        for i in range(n):
            p = f"{tag}.c{i}"
            cards.append(
                CardVars(
                    zone=mk_i(f"{p}.zone"),
                    gen=mk_i(f"{p}.gen"),
                    control=mk_i(f"{p}.control"),
                    control_eot=mk_i(f"{p}.control_eot"),
                    tapped=mk_b(f"{p}.tapped"),
                    damage=mk_i(f"{p}.damage"),
                    deathtouched=mk_b(f"{p}.deathtouched"),
                    plus=mk_i(f"{p}.plus"),
                    minus=mk_i(f"{p}.minus"),
                    shield_counters=mk_i(f"{p}.shield_counters"),
                    prevent_next=mk_i(f"{p}.prevent_next"),
                    prevent_all=mk_b(f"{p}.prevent_all"),
                    power_eot=mk_i(f"{p}.power_eot"),
                    toughness_eot=mk_i(f"{p}.toughness_eot"),
                    kw_granted=tuple(mk_b(f"{p}.granted.{k.value}") for k in KEYWORDS),
                    kw_removed=tuple(mk_b(f"{p}.removed.{k.value}") for k in KEYWORDS),
                    cant_regen=mk_b(f"{p}.cant_regen"),
                    exile_if_dies=mk_b(f"{p}.exile_if_dies"),
                    remove_damage=mk_i(f"{p}.remove_damage"),
                    attached_to=mk_i(f"{p}.attached_to"),
                    shields=tuple(
                        ShieldVars(
                            present=mk_b(f"{p}.sh{j}.present"),
                            used=mk_b(f"{p}.sh{j}.used"),
                            rider=mk_i(f"{p}.sh{j}.rider"),
                            creator=mk_i(f"{p}.sh{j}.creator"),
                            via=mk_i(f"{p}.sh{j}.via"),
                        )
                        for j in range(sc.shields)
                    ),
                    attacking=mk_b(f"{p}.attacking"),
                    blocking=mk_i(f"{p}.blocking"),
                    blocking_also=mk_i(f"{p}.blocking_also"),
                    blocked=mk_b(f"{p}.blocked"),
                    sick=mk_b(f"{p}.sick"),
                    animated=mk_b(f"{p}.animated"),
                    noncreature=mk_b(f"{p}.noncreature"),
                    phased_out=mk_i(f"{p}.phased_out"),
                    eoc_destroy=mk_i(f"{p}.eoc_destroy"),
                    eoc_destroy_by=mk_i(f"{p}.eoc_destroy_by"),
                    ghost=GhostVars(
                        shields_made=mk_i(f"{p}.g.shields_made"),
                        destructions=mk_i(f"{p}.g.destructions"),
                        by_shield=mk_i(f"{p}.g.by_shield"),
                        by_static=mk_i(f"{p}.g.by_static"),
                        by_other=mk_i(f"{p}.g.by_other"),
                    ),
                    first_striker=mk_b(f"{p}.first_striker"),
                    ordered=mk_b(f"{p}.ordered"),
                    order_pos=mk_i(f"{p}.order_pos"),
                    order_pos_also=mk_i(f"{p}.order_pos_also"),
                    gy_pos=mk_i(f"{p}.gy_pos"),
                )
            )
        return Frame(
            tag=tag,
            scope=sc,
            statics=statics,
            edition=mk_i(f"{tag}.edition"),
            turn=mk_i(f"{tag}.turn"),
            active=mk_i(f"{tag}.active"),
            step=mk_i(f"{tag}.step"),
            priority=mk_i(f"{tag}.priority"),
            passed=tuple(mk_b(f"{tag}.passed{p}") for p in range(sc.players)),
            decision=mk_i(f"{tag}.decision"),
            stack_size=mk_i(f"{tag}.stack_size"),
            stack=tuple(stack_obj(f"{tag}.stack{j}") for j in range(sc.stack)),
            pending_size=mk_i(f"{tag}.pending_size"),
            pending=tuple(stack_obj(f"{tag}.pending{j}") for j in range(sc.pending)),
            players=tuple(
                PlayerVars(
                    life=mk_i(f"{tag}.p{p}.life"),
                    poison=mk_i(f"{tag}.p{p}.poison"),
                    lost=mk_b(f"{tag}.p{p}.lost"),
                    gy_size=mk_i(f"{tag}.p{p}.gy_size"),
                    hand=mk_i(f"{tag}.p{p}.hand"),
                    library=mk_i(f"{tag}.p{p}.library"),
                    drew_empty=mk_b(f"{tag}.p{p}.drew_empty"),
                )
                for p in range(sc.players)
            ),
            cards=tuple(cards),
            first_strike_step=mk_b(f"{tag}.first_strike_step"),
            declared=mk_b(f"{tag}.declared"),
        )

    # --- flattening and ranges ---------------------------------------------------------------

    def vars(self) -> list[Z3Ref]:
        """Every state variable of the frame in a fixed order (for CHC and k-induction)."""
        out: list[Z3Ref] = [
            self.edition,
            self.turn,
            self.active,
            self.step,
            self.priority,
            *self.passed,
            self.decision,
            self.stack_size,
            self.pending_size,
            self.first_strike_step,
            self.declared,
        ]
        for p in self.players:
            out += [p.life, p.poison, p.lost, p.gy_size, p.hand, p.library, p.drew_empty]
        for c in self.cards:
            out += c.vars()
        for obj in (*self.stack, *self.pending):
            out += _stack_vars(obj)
        return out

    def domain(self) -> list[Z3Ref]:
        """Type and shape constraints every frame satisfies (not rules: just what fits)."""
        sc = self.scope
        n = sc.cards
        out: list[Z3Ref] = [
            _in_enum(self.edition, Edition),
            z3.Or(*[self.edition == _ord(e) for e in sc.editions]),
            self.turn >= 1,
            z3.Or(self.active == 0, self.active == 1),
            _in_enum(self.step, Step),
            z3.Or(self.priority == NONE, self.priority == 0, self.priority == 1),
            _in_enum(self.decision, Decision),
            self.stack_size >= 0,
            self.stack_size <= sc.stack,
            self.pending_size >= 0,
            self.pending_size <= sc.pending,
        ]
        for p in self.players:
            out += [p.poison >= 0, p.gy_size >= 0, p.hand >= 0, p.library >= 0]
        for i, c in enumerate(self.cards):
            out += [
                _in_enum(c.zone, Zone),
                c.gen >= 0,
                z3.Or(c.control == 0, c.control == 1),
                z3.Or(c.control_eot == NONE, c.control_eot == 0, c.control_eot == 1),
                c.damage >= 0,
                c.plus >= 0,
                c.minus >= 0,
                c.shield_counters >= 0,
                c.remove_damage >= 0,
                c.prevent_next >= 0,
                c.attached_to >= NONE,
                c.attached_to < n,
                c.attached_to != i,
                c.blocking >= NONE,
                c.blocking < n,
                c.blocking != i,
                c.order_pos >= NONE,
                c.order_pos < n,
                c.blocking_also >= NONE,
                c.blocking_also < n,
                c.blocking_also != i,
                c.order_pos_also >= NONE,
                c.order_pos_also < n,
                c.ghost.shields_made >= 0,
                c.ghost.destructions >= 0,
                c.ghost.by_shield >= 0,
                c.ghost.by_static >= 0,
                c.ghost.by_other >= 0,
                c.eoc_destroy >= 0,
                c.gy_pos >= 0,
                z3.Or(c.eoc_destroy_by == NONE, c.eoc_destroy_by == 0, c.eoc_destroy_by == 1),
                *[z3.Not(z3.And(g, r)) for g, r in zip(c.kw_granted, c.kw_removed, strict=True)],
                z3.Implies(c.animated, self.statics.cards[i].animate_ability),
                # 702.26b, 506.4: phased out under a player, on the battlefield, out of combat
                z3.Or(c.phased_out == NONE, c.phased_out == 0, c.phased_out == 1),
                z3.Implies(
                    c.phased_out != NONE,
                    z3.And(
                        c.zone == _ord(Zone.BATTLEFIELD),
                        z3.Not(c.attacking),
                        c.blocking == NONE,
                        c.blocking_also == NONE,
                        z3.Not(c.blocked),
                    ),
                ),
            ]
            for j, s in enumerate(c.shields):
                out += [
                    _in_enum(s.rider, Rider),
                    z3.Or(s.creator == 0, s.creator == 1),
                    s.via >= NONE,
                    s.via < n,
                    s.via != i,  # made by another permanent's ability, or NONE
                    z3.Implies(
                        z3.Not(s.present),
                        z3.And(z3.Not(s.used), s.rider == 0, s.creator == 0, s.via == NONE),
                    ),
                ]
                if j > 0:  # shields fill slots from the first one (append-only list)
                    out.append(z3.Implies(s.present, c.shields[j - 1].present))
        for j, obj in enumerate(self.stack):
            out += _stack_domain(obj, sc, present=j < self.stack_size)
        for j, obj in enumerate(self.pending):
            out += _stack_domain(obj, sc, present=j < self.pending_size)
        return out


def representable(frame: Frame) -> list[Z3Ref]:
    """The frames that are the abstraction (``values``) of some engine state: ``read`` of a
    model satisfying these and ``domain`` gives back exactly the model's values. ``domain``
    allows more (the proofs need no more), but a frame outside the abstraction's image is
    the image of no engine state, so a check comparing the views (``driven.py``) asks for
    these. ``tests/encoding/test_driven.py`` reads solver models back and forth.

    What the engine's state cannot hold: a damage assignment position on a card that blocks
    nothing, positions that are not 0, 1, ... among one attacker's ordered blockers, an
    attacker whose blockers are ordered but which is not marked ordered; targets past a stack
    object's count; a combat-damage object's effect fields, targets and source; a spell's or
    ability's combat-damage fields; a hit's object generation with no hit, a source's last
    known keywords and controller when it has not left."""
    n = frame.scope.cards
    out: list[Z3Ref] = []
    for a, ca in enumerate(frame.cards):
        # (its position in a's order, placed there): through ``blocking`` or ``blocking_also``
        mine = [
            (pos, z3.And(blk == a, pos != NONE))
            for b, cb in enumerate(frame.cards)
            if b != a
            for blk, pos in ((cb.blocking, cb.order_pos), (cb.blocking_also, cb.order_pos_also))
        ]
        size = z3.Sum(*[z3.If(placed, 1, 0) for _, placed in mine]) if mine else z3.IntVal(0)
        out.append(z3.Implies(z3.Or(*[placed for _, placed in mine]), ca.ordered))
        for k, (pos, placed) in enumerate(mine):
            out.append(z3.Implies(placed, z3.And(pos >= 0, pos < size)))
            out += [z3.Implies(z3.And(placed, other), pos != pos2) for pos2, other in mine[k + 1 :]]
        out.append(z3.Implies(ca.blocking == NONE, ca.order_pos == NONE))
        # a second attacker only with a first, a different one, and a position only with it
        out.append(
            z3.Implies(
                ca.blocking_also != NONE,
                z3.And(ca.blocking != NONE, ca.blocking_also != ca.blocking),
            )
        )
        out.append(z3.Implies(ca.blocking_also == NONE, ca.order_pos_also == NONE))
        # a controller for the delayed "destroy it at end of combat" triggers exactly when any
        out.append((ca.eoc_destroy == 0) == (ca.eoc_destroy_by == NONE))
        # in a graveyard exactly when it has a place there, a group of its owner's graveyard
        owner = frame.statics.cards[a].owner
        out.append((ca.zone == _ord(Zone.GRAVEYARD)) == (ca.gy_pos >= 1))
        out += [
            z3.Implies(owner == p, ca.gy_pos <= pv.gy_size) for p, pv in enumerate(frame.players)
        ]
    for objs, size in ((frame.stack, frame.stack_size), (frame.pending, frame.pending_size)):
        for j, obj in enumerate(objs):
            combat = obj.kind == _ord(StackKind.COMBAT_DAMAGE)
            unused_targets = [
                z3.Implies(
                    obj.n_targets <= t,
                    z3.And(
                        obj.target_card[t] == NONE,
                        obj.target_gen[t] == 0,
                        obj.target_player[t] == NONE,
                        obj.target_spell[t] == NONE,
                    ),
                )
                for t in range(frame.scope.targets)
            ]
            only_combat = {v.get_id() for v in _combat_vars(obj)}
            kept = only_combat | {obj.kind.get_id(), obj.controller.get_id()}
            zeros = _zero_stack_values(obj)
            no_effect = [var == value for var, value in zeros if var.get_id() not in kept]
            hit_known = [
                z3.Implies(
                    z3.Not(obj.hit_left[s]),
                    z3.And(obj.hit_ctrl[s] == 0, *[z3.Not(k) for k in obj.hit_keywords[s]]),
                )
                for s in range(n)
            ]
            hit_gens = [
                z3.Implies(z3.And(*[obj.hits[s][r] == 0 for s in range(n)]), obj.hit_gen[r] == 0)
                for r in range(n)
            ]
            no_combat = [var == value for var, value in zeros if var.get_id() in only_combat]
            shape = z3.If(
                combat,
                z3.And(*no_effect, *hit_known, *hit_gens),
                z3.And(*unused_targets, *no_combat),
            )
            out.append(z3.Implies(j < size, shape))
    return out


def _combat_vars(obj: StackVars) -> list[Z3Ref]:
    """The fields only a combat-damage stack object uses."""
    out: list[Z3Ref] = [*obj.hit_gen, *obj.hit_left, *obj.hit_ctrl]
    for row in obj.hits:
        out += list(row)
    for row in obj.hit_keywords:
        out += list(row)
    return out


def _stack_vars(obj: StackVars) -> list[Z3Ref]:
    out = [
        obj.kind,
        obj.controller,
        obj.effect,
        obj.amount,
        obj.power,
        obj.toughness,
        *obj.keywords,
        obj.cant_regen,
        obj.cant_regen_target,
        obj.exile_if_dies,
        obj.rider,
        obj.counter,
        obj.until_eot,
        obj.untap,
        obj.under_you,
        obj.draw,
        obj.target_rule,
        obj.n_targets,
        *obj.target_card,
        *obj.target_gen,
        *obj.target_player,
        *obj.target_spell,
        obj.source,
        obj.source_gen,
        *obj.hit_gen,
        *obj.hit_left,
        *obj.hit_ctrl,
    ]
    for row in obj.hits:
        out += list(row)
    for row in obj.hit_keywords:
        out += list(row)
    return out


def _stack_domain(obj: StackVars, sc: Scope, present: Z3Ref) -> list[Z3Ref]:
    """Shape constraints of a stack slot; an absent slot is all zeros/NONE (canonical)."""
    n = sc.cards
    shape = [
        _in_enum(obj.kind, StackKind),
        z3.Or(obj.controller == 0, obj.controller == 1),
        _in_enum(obj.effect, EffectKind),
        _in_enum(obj.rider, Rider),
        _in_enum(obj.counter, CounterKind),
        _in_enum(obj.target_rule, TargetRule),
        obj.n_targets >= 0,
        obj.n_targets <= sc.targets,
        obj.draw >= 0,
        obj.source >= NONE,
        obj.source < n,
    ]
    for j in range(sc.targets):
        shape += [
            obj.target_card[j] >= NONE,
            obj.target_card[j] < n,
            z3.Or(
                obj.target_player[j] == NONE, obj.target_player[j] == 0, obj.target_player[j] == 1
            ),
            obj.target_spell[j] >= SPELL_GONE_Z,
            obj.target_spell[j] < max(sc.stack, 1),
        ]
    for row in obj.hits:
        shape += [h >= 0 for h in row]
    shape += [z3.Or(c == 0, c == 1) for c in obj.hit_ctrl]
    empty = z3.And(*_zero_stack(obj))
    return [z3.If(present, z3.And(*shape), empty)]


def _zero_stack_values(obj: StackVars) -> list[tuple[Z3Ref, int | bool]]:
    """The canonical content of an absent stack slot: every field zero, false or NONE."""
    out: list[tuple[Z3Ref, int | bool]] = [
        (obj.kind, 0),
        (obj.controller, 0),
        (obj.effect, 0),
        (obj.amount, 0),
        (obj.power, 0),
        (obj.toughness, 0),
        *[(k, False) for k in obj.keywords],
        (obj.cant_regen, False),
        (obj.cant_regen_target, False),
        (obj.exile_if_dies, False),
        (obj.rider, 0),
        (obj.counter, 0),
        (obj.until_eot, False),
        (obj.untap, False),
        (obj.under_you, False),
        (obj.draw, 0),
        (obj.target_rule, 0),
        (obj.n_targets, 0),
        *[(t, NONE) for t in obj.target_card],
        *[(g, 0) for g in obj.target_gen],
        *[(p, NONE) for p in obj.target_player],
        *[(x, NONE) for x in obj.target_spell],
        (obj.source, NONE),
        (obj.source_gen, 0),
        *[(g, 0) for g in obj.hit_gen],
        *[(x, False) for x in obj.hit_left],
        *[(x, 0) for x in obj.hit_ctrl],
    ]
    for row in obj.hits:
        out += [(h, 0) for h in row]
    for row in obj.hit_keywords:
        out += [(k, False) for k in row]
    return out


def _zero_stack(obj: StackVars) -> list[Z3Ref]:
    return [var == value for var, value in _zero_stack_values(obj)]


# --- the abstraction function: concrete state <-> frame ---------------------------------------


def assignment(frame: Frame, state: GameState) -> list[tuple[Z3Ref, Z3Ref]]:
    """(variable, value) pairs giving every frame variable its value in ``state``.

    Raises ``OutOfScope`` when the state does not fit the frame's scope. Unused card slots are
    cards in exile that never matter; absent stack/shield slots are zero (canonical form).
    """
    pairs: list[tuple[Z3Ref, Z3Ref]] = []

    def put(var: Z3Ref, value: int | bool) -> None:
        pairs.append((var, z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)))

    _assign(frame, state, put)
    return pairs


def values(keys: Frame, state: GameState) -> dict[str, int | bool]:
    """The same abstraction as ``assignment`` as plain Python values, keyed by field name.

    ``keys`` is a frame built with ``Frame.fresh(statics, tag, names=True)``. Agreement checks
    compare states in this form: building a Z3 numeral per variable costs more than a whole
    engine step, and both forms come from the one function ``_assign``.
    """
    out: dict[str, int | bool] = {}
    _assign(keys, state, out.__setitem__, (_ZEROS, out.update))
    return out


# Canonical empty stack slots of key frames, by slot identity (the slot is kept in the entry
# so that a recycled ``id`` is never mistaken for it): the slot's field names and values as
# a dict, written into ``values``'s result in one ``update`` (an empty slot has dozens of
# fields, and most states leave most slots empty).
_ZEROS: dict[int, tuple[StackVars, dict[Any, int | bool]]] = {}


def _assign(
    frame: Frame,
    state: GameState,
    put: Any,
    zeros: tuple[dict[int, tuple[StackVars, dict[Any, int | bool]]], Any] | None = None,
) -> None:
    """The abstraction of ``state`` on ``frame``, one ``put(var, value)`` per variable;
    with ``zeros`` (``values`` only: the memo and a ``put_many(dict)``), the empty stack
    slots are written from the memo in one call each."""
    """Call ``put(variable, value)`` for every variable of ``frame`` (see ``assignment``)."""
    sc = frame.scope
    n = sc.cards
    if len(state.cards) > n:
        raise OutOfScope(f"{len(state.cards)} cards do not fit a scope of {n}")
    if len(state.stack) > sc.stack:
        raise OutOfScope(f"a stack of {len(state.stack)} does not fit a scope of {sc.stack}")
    if len(state.pending) > sc.pending:
        raise OutOfScope(
            f"{len(state.pending)} waiting triggers do not fit a scope of {sc.pending}"
        )
    if state.edition not in sc.editions:
        raise OutOfScope(f"edition {state.edition.value} is not in the scope")
    put(frame.edition, _ord(state.edition))
    put(frame.turn, state.turn)
    put(frame.active, state.active)
    put(frame.step, _ord(state.step))
    put(frame.priority, NONE if state.priority is None else state.priority)
    for p in range(sc.players):
        put(frame.passed[p], p in state.passed)
    put(frame.decision, _ord(state.decision))
    put(frame.stack_size, len(state.stack))
    put(frame.pending_size, len(state.pending))
    put(frame.first_strike_step, state.combat.first_strike_step)
    put(frame.declared, state.combat.declared)
    for p, pv in enumerate(frame.players):
        pl = state.players[p]
        put(pv.life, pl.life)
        put(pv.poison, pl.poison)
        put(pv.lost, pl.lost)
        put(pv.gy_size, len(pl.graveyard))
        put(pv.hand, pl.hand)
        put(pv.library, pl.library)
        put(pv.drew_empty, pl.drew_empty)
    places: dict[int, int] = {}  # card slot -> position of its group in its owner's graveyard
    for pl in state.players:
        for pos, group in enumerate(pl.graveyard, start=1):
            for item in group:
                if isinstance(item, int):
                    places[item] = pos
    order_of: dict[tuple[int, int], int] = {}  # (blocker, attacker) -> position
    ordered_attackers = set()
    for attacker, order in state.combat.orders:
        ordered_attackers.add(attacker)
        for pos, b in enumerate(order):
            order_of[(b, attacker)] = pos
    for i, cv in enumerate(frame.cards):
        card = (
            state.cards[i]
            if i < len(state.cards)
            else Card(slot=i, zone=Zone.EXILE, gen=0, control=0)
        )
        if len(card.shields) > sc.shields:
            raise OutOfScope(
                f"card {i} has {len(card.shields)} shields; the scope allows {sc.shields}"
            )
        put(cv.zone, _ord(card.zone))
        put(cv.gen, card.gen)
        put(cv.control, card.control)
        put(cv.control_eot, NONE if card.control_eot is None else card.control_eot)
        put(cv.tapped, card.tapped)
        put(cv.damage, card.damage)
        put(cv.deathtouched, card.deathtouched)
        put(cv.plus, card.plus)
        put(cv.minus, card.minus)
        put(cv.shield_counters, card.shield_counters)
        put(cv.prevent_next, card.prevent_next)
        put(cv.prevent_all, card.prevent_all)
        put(cv.power_eot, card.power_eot)
        put(cv.toughness_eot, card.toughness_eot)
        for k, var in zip(KEYWORDS, cv.kw_granted, strict=True):
            put(var, k in card.kw_granted)
        for k, var in zip(KEYWORDS, cv.kw_removed, strict=True):
            put(var, k in card.kw_removed)
        put(cv.cant_regen, card.cant_regen)
        put(cv.exile_if_dies, card.exile_if_dies)
        put(cv.remove_damage, card.remove_damage)
        put(cv.attached_to, NONE if card.attached_to is None else card.attached_to)
        for j, sv in enumerate(cv.shields):
            if j < len(card.shields):
                s = card.shields[j]
                put(sv.present, True)
                put(sv.used, s.used)
                put(sv.rider, _ord(s.rider))
                put(sv.creator, s.creator)
                put(sv.via, NONE if s.via is None else s.via)
            else:
                put(sv.present, False)
                put(sv.used, False)
                put(sv.rider, 0)
                put(sv.creator, 0)
                put(sv.via, NONE)
        put(cv.attacking, card.attacking)
        put(cv.blocking, NONE if card.blocking is None else card.blocking)
        put(cv.blocking_also, NONE if card.blocking_also is None else card.blocking_also)
        put(cv.blocked, card.blocked)
        put(cv.sick, card.sick)
        put(cv.animated, card.animated)
        put(cv.noncreature, card.noncreature)
        put(cv.phased_out, NONE if card.phased_out is None else card.phased_out)
        put(cv.eoc_destroy, card.eoc_destroy)
        put(cv.eoc_destroy_by, NONE if card.eoc_destroy_by is None else card.eoc_destroy_by)
        g = card.ghost
        put(cv.ghost.shields_made, g.shields_made)
        put(cv.ghost.destructions, g.destructions)
        put(cv.ghost.by_shield, g.by_shield)
        put(cv.ghost.by_static, g.by_static)
        put(cv.ghost.by_other, g.by_other)
        put(cv.first_striker, i in state.combat.first_strikers)
        put(cv.ordered, i in ordered_attackers)
        put(cv.order_pos, order_of.get((i, NONE if card.blocking is None else card.blocking), NONE))
        put(
            cv.order_pos_also,
            order_of.get((i, NONE if card.blocking_also is None else card.blocking_also), NONE),
        )
        put(cv.gy_pos, places.get(i, 0))
    for objs, slots in ((state.stack, frame.stack), (state.pending, frame.pending)):
        for j, sv2 in enumerate(slots):
            if j >= len(objs) and zeros is not None:
                memo, put_many = zeros
                cached = memo.get(id(sv2))
                if cached is None or cached[0] is not sv2:
                    cached = memo[id(sv2)] = (sv2, dict(_zero_stack_values(sv2)))
                put_many(cached[1])
                continue
            _put_stack(put, sv2, objs[j] if j < len(objs) else None, sc)


def _spell_value(spell: int | None) -> int:
    """``Target.spell`` as ``StackVars.target_spell`` holds it."""
    if spell is None:
        return NONE
    return SPELL_GONE_Z if spell == SPELL_GONE else spell


def _put_stack(put: Any, sv: StackVars, obj: StackObject | None, sc: Scope) -> None:
    n = sc.cards
    if obj is None:
        for var, value in _zero_stack_values(sv):
            put(var, value)
        return
    if len(obj.targets) > sc.targets:
        raise OutOfScope(
            f"{obj.name} has {len(obj.targets)} targets; the scope allows {sc.targets}"
        )
    e = obj.effect if obj.effect is not None else Effect(EffectKind.DAMAGE)
    put(sv.kind, _ord(obj.kind))
    put(sv.controller, obj.controller)
    put(sv.effect, _ord(e.kind) if obj.effect is not None else 0)
    put(sv.amount, e.amount if obj.effect is not None else 0)
    put(sv.power, e.power)
    put(sv.toughness, e.toughness)
    for k, var in zip(KEYWORDS, sv.keywords, strict=True):
        put(var, k in e.keywords)
    put(sv.cant_regen, e.cant_regen)
    put(sv.cant_regen_target, e.cant_regen_target)
    put(sv.exile_if_dies, e.exile_if_dies)
    put(sv.rider, _ord(e.rider))
    put(sv.counter, _ord(e.counter))
    put(sv.until_eot, e.until_end_of_turn)
    put(sv.untap, e.untap)
    put(sv.under_you, e.under_you)
    put(sv.draw, e.draw)
    put(sv.target_rule, _ord(obj.target_rule))
    put(sv.n_targets, len(obj.targets))
    for j in range(sc.targets):
        t = obj.targets[j] if j < len(obj.targets) else None
        put(sv.target_card[j], NONE if t is None or t.card is None else t.card)
        put(sv.target_gen[j], 0 if t is None else t.gen)
        put(sv.target_player[j], NONE if t is None or t.player is None else t.player)
        put(sv.target_spell[j], _spell_value(None if t is None else t.spell))
    put(sv.source, NONE if obj.source is None else obj.source)
    put(sv.source_gen, obj.source_gen)
    amounts = [[0] * (n + 1) for _ in range(n)]
    gens = [0] * n
    for src, hit in obj.combat_hits:
        r = n if hit.player is not None else (hit.card if hit.card is not None else n)
        amounts[src][r] += hit.amount
        if hit.card is not None:
            gens[hit.card] = hit.gen
    lki = {x.source: x for x in obj.combat_lki}
    for s in range(n):
        for r in range(n + 1):
            put(sv.hits[s][r], amounts[s][r])
        known = lki.get(s)
        for k, var in zip(KEYWORDS, sv.hit_keywords[s], strict=True):
            put(var, known is not None and k in known.keywords)
        put(sv.hit_left[s], known is not None)
        put(sv.hit_ctrl[s], 0 if known is None else known.controller)
    for r in range(n):
        put(sv.hit_gen[r], gens[r])


def pin(frame: Frame, state: GameState) -> list[Z3Ref]:
    """Equalities stating that ``frame`` is ``state`` (see ``assignment``)."""
    return [var == value for var, value in assignment(frame, state)]


def _b(model: Z3Ref, term: Z3Ref) -> bool:
    return bool(z3.is_true(model.eval(term, model_completion=True)))


def _i(model: Z3Ref, term: Z3Ref) -> int:
    return int(model.eval(term, model_completion=True).as_long())


def read(model: Z3Ref, frame: Frame, setup: Setup) -> GameState:
    """The concrete state a model gives ``frame`` (names from ``setup``; see ``read_statics``)."""
    sc = frame.scope
    n = len(setup.templates)
    orders: dict[int, list[tuple[int, int]]] = {}
    cards = []
    first_strikers = []
    for i in range(n):
        cv = frame.cards[i]
        shields = tuple(
            Shield(
                origin="regeneration shield",
                creator=_i(model, sv.creator),
                rider=list(Rider)[_i(model, sv.rider)],
                used=_b(model, sv.used),
                via=None if _i(model, sv.via) == NONE else _i(model, sv.via),
            )
            for sv in cv.shields
            if _b(model, sv.present)
        )
        ceot = _i(model, cv.control_eot)
        att = _i(model, cv.attached_to)
        blk = _i(model, cv.blocking)
        blk2 = _i(model, cv.blocking_also)
        cards.append(
            Card(
                slot=i,
                zone=list(Zone)[_i(model, cv.zone)],
                gen=_i(model, cv.gen),
                control=_i(model, cv.control),
                control_eot=None if ceot == NONE else ceot,
                tapped=_b(model, cv.tapped),
                damage=_i(model, cv.damage),
                deathtouched=_b(model, cv.deathtouched),
                plus=_i(model, cv.plus),
                minus=_i(model, cv.minus),
                shield_counters=_i(model, cv.shield_counters),
                prevent_next=_i(model, cv.prevent_next),
                prevent_all=_b(model, cv.prevent_all),
                power_eot=_i(model, cv.power_eot),
                toughness_eot=_i(model, cv.toughness_eot),
                kw_granted=frozenset(
                    k for k, v in zip(KEYWORDS, cv.kw_granted, strict=True) if _b(model, v)
                ),
                kw_removed=frozenset(
                    k for k, v in zip(KEYWORDS, cv.kw_removed, strict=True) if _b(model, v)
                ),
                cant_regen=_b(model, cv.cant_regen),
                exile_if_dies=_b(model, cv.exile_if_dies),
                remove_damage=_i(model, cv.remove_damage),
                attached_to=None if att == NONE else att,
                shields=shields,
                attacking=_b(model, cv.attacking),
                blocking=None if blk == NONE else blk,
                blocking_also=None if blk2 == NONE else blk2,
                blocked=_b(model, cv.blocked),
                sick=_b(model, cv.sick),
                animated=_b(model, cv.animated),
                noncreature=_b(model, cv.noncreature),
                phased_out=None if _i(model, cv.phased_out) == NONE else _i(model, cv.phased_out),
                eoc_destroy=_i(model, cv.eoc_destroy),
                eoc_destroy_by=None
                if _i(model, cv.eoc_destroy_by) == NONE
                else _i(model, cv.eoc_destroy_by),
                ghost=Ghost(
                    shields_made=_i(model, cv.ghost.shields_made),
                    destructions=_i(model, cv.ghost.destructions),
                    by_shield=_i(model, cv.ghost.by_shield),
                    by_static=_i(model, cv.ghost.by_static),
                    by_other=_i(model, cv.ghost.by_other),
                ),
            )
        )
        if _b(model, cv.first_striker):
            first_strikers.append(i)
        for attacker, pos in ((blk, _i(model, cv.order_pos)), (blk2, _i(model, cv.order_pos_also))):
            if pos != NONE and attacker != NONE:
                orders.setdefault(attacker, []).append((pos, i))
    for i in range(n):
        if _b(model, frame.cards[i].ordered):
            orders.setdefault(i, [])
    order_tuple = tuple(
        (a, tuple(b for _, b in sorted(entries))) for a, entries in sorted(orders.items())
    )
    prio = _i(model, frame.priority)
    passed = frozenset(p for p in range(sc.players) if _b(model, frame.passed[p]))
    active = _i(model, frame.active)
    stack = tuple(
        _read_stack(model, frame.stack[j], sc, active) for j in range(_i(model, frame.stack_size))
    )
    pending = tuple(
        _read_stack(model, frame.pending[j], sc, active)
        for j in range(_i(model, frame.pending_size))
    )
    return GameState(
        setup=setup,
        edition=list(Edition)[_i(model, frame.edition)],
        turn=_i(model, frame.turn),
        active=active,
        step=list(Step)[_i(model, frame.step)],
        priority=None if prio == NONE else prio,
        passed=passed,
        decision=list(Decision)[_i(model, frame.decision)],
        stack=stack,
        pending=pending,
        players=tuple(
            Player(
                life=_i(model, pv.life),
                poison=_i(model, pv.poison),
                lost=_b(model, pv.lost),
                graveyard=_read_graveyard(model, frame, setup, p),
                hand=_i(model, pv.hand),
                library=_i(model, pv.library),
                drew_empty=_b(model, pv.drew_empty),
            )
            for p, pv in enumerate(frame.players)
        ),
        cards=tuple(cards),
        combat=Combat(
            orders=order_tuple,
            first_strikers=frozenset(first_strikers),
            first_strike_step=_b(model, frame.first_strike_step),
            declared=_b(model, frame.declared),
        ),
    )


# The name a graveyard group read back from a model gets when no card slot is in it: the
# abstraction keeps how many groups there are, not which spells or how many milled cards
# (``PlayerVars.gy_size``; a spell is a group of its own, 608.2n, and so are one mill's cards,
# 701.17a, 404.3).
SPELL_READ_BACK = "a spell"


def _read_graveyard(model: Z3Ref, frame: Frame, setup: Setup, player: int) -> Graveyard:
    """Player ``player``'s graveyard in a model: ``gy_size`` groups, each the card slots of
    that owner placed there (``gy_pos``), or a spell (``SPELL_READ_BACK``) where none is."""
    size = _i(model, frame.players[player].gy_size)
    groups: list[list[int]] = [[] for _ in range(size)]
    for i in range(len(setup.templates)):
        pos = _i(model, frame.cards[i].gy_pos)
        if setup.owners[i] == player and 1 <= pos <= size:
            groups[pos - 1].append(i)
    return tuple(tuple(g) if g else (SPELL_READ_BACK,) for g in groups)


def _read_stack(model: Z3Ref, sv: StackVars, sc: Scope, active: int) -> StackObject:
    n = sc.cards
    kind = list(StackKind)[_i(model, sv.kind)]
    targets = []
    for j in range(_i(model, sv.n_targets)):
        card = _i(model, sv.target_card[j])
        player = _i(model, sv.target_player[j])
        spell = _i(model, sv.target_spell[j])
        targets.append(
            Target(
                card=None if card == NONE else card,
                gen=_i(model, sv.target_gen[j]),
                player=None if player == NONE else player,
                spell=None if spell == NONE else (SPELL_GONE if spell == SPELL_GONE_Z else spell),
            )
        )
    source = _i(model, sv.source)
    if kind is StackKind.COMBAT_DAMAGE:
        hits = []
        lki = []
        for s in range(n):
            for r in range(n + 1):
                amount = _i(model, sv.hits[s][r])
                if amount:
                    if r == n:
                        hits.append((s, Hit(amount, player=1 - active)))
                    else:
                        hits.append((s, Hit(amount, card=r, gen=_i(model, sv.hit_gen[r]))))
            if _b(model, sv.hit_left[s]):
                kws = frozenset(
                    k for k, v in zip(KEYWORDS, sv.hit_keywords[s], strict=True) if _b(model, v)
                )
                lki.append(SourceLKI(s, kws, _i(model, sv.hit_ctrl[s])))
        return StackObject(
            kind=kind,
            name="combat damage",
            controller=_i(model, sv.controller),
            effect=None,
            combat_hits=tuple(hits),
            combat_lki=tuple(lki),
        )
    effect = Effect(
        kind=list(EffectKind)[_i(model, sv.effect)],
        amount=_i(model, sv.amount),
        power=_i(model, sv.power),
        toughness=_i(model, sv.toughness),
        keywords=frozenset(k for k, v in zip(KEYWORDS, sv.keywords, strict=True) if _b(model, v)),
        cant_regen=_b(model, sv.cant_regen),
        cant_regen_target=_b(model, sv.cant_regen_target),
        exile_if_dies=_b(model, sv.exile_if_dies),
        rider=list(Rider)[_i(model, sv.rider)],
        counter=list(CounterKind)[_i(model, sv.counter)],
        until_end_of_turn=_b(model, sv.until_eot),
        untap=_b(model, sv.untap),
        under_you=_b(model, sv.under_you),
        draw=_i(model, sv.draw),
    )
    return StackObject(
        kind=kind,
        name=f"{kind.value}",
        controller=_i(model, sv.controller),
        effect=effect,
        targets=tuple(targets),
        source=None if source == NONE else source,
        source_gen=_i(model, sv.source_gen),
        target_rule=list(TargetRule)[_i(model, sv.target_rule)],
    )
