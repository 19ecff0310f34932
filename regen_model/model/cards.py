"""Card definitions: the printed, unchanging part of a card, and the built-in card list.

A ``CardTemplate`` is what is printed on a card (its Oracle text reduced to what the model
understands). Everything that changes during a game lives in ``state.Card``. Spells are not
cards of the model: a spell is a ``SpellTemplate`` that exists only while on the stack.

The built-in list holds the cards of the rulings and seeds (Horned Troll, Uthden Troll, Foot
Soldiers, Debt of Loyalty, Death Ward, Mossbridge Troll, ...) so scenario files can name them.
Abilities are paraphrased; mana costs are not modelled (costs are assumed to be paid).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Attachment, CardType, Keyword, Rider


class AbilityKind(StrEnum):
    """Activated abilities the model knows."""

    REGENERATE_SELF = "regenerate-self"  # "{cost}: Regenerate this creature." (701.19a)
    MAKE_SELF_UNREGENERABLE = "make-self-unregenerable"  # Knight of the Holy Nimbus's {2} ability


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """An activated ability of a permanent. ``opponent_only``: only an opponent of its
    controller may activate it (Knight of the Holy Nimbus)."""

    kind: AbilityKind
    rider: Rider = Rider.NONE
    opponent_only: bool = False

    def effect(self) -> Effect:
        """The effect the ability has when it resolves (applied to its source)."""
        if self.kind is AbilityKind.REGENERATE_SELF:
            return Effect(EffectKind.REGENERATE, rider=self.rider)
        return Effect(EffectKind.UNREGENERABLE)

    def describe(self) -> str:
        if self.kind is AbilityKind.REGENERATE_SELF:
            suffix = "" if self.rider is Rider.NONE else f" (rider: {self.rider.value})"
            return "Regenerate this permanent" + suffix
        return "This permanent can't be regenerated this turn (opponents only)"


class TriggerEffect(StrEnum):
    """What a damage trigger does: its controller gains or loses that much life."""

    GAIN_LIFE = "gain-life"  # Wall of Essence: dealt combat damage -> you gain that much life
    LOSE_LIFE = "lose-life"  # Jackal Pup: dealt damage -> it deals that much damage to you


@dataclass(frozen=True, slots=True)
class DamageTrigger:
    """ "Whenever this creature is dealt (combat) damage, ..." (603.2, 120.4b)."""

    effect: TriggerEffect
    combat_only: bool = False


@dataclass(frozen=True, slots=True)
class CardTemplate:
    """The printed characteristics of a permanent card, reduced to what the model uses.

    ``static_regeneration`` is a static ability "If this would be destroyed, regenerate it"
    (701.19b). ``attach_bonus`` is the power/toughness an Aura or Equipment gives the object it
    is attached to (a layer 7c static effect, 613.4c).
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
    text: str = ""

    @property
    def is_creature(self) -> bool:
        return CardType.CREATURE in self.types


@dataclass(frozen=True, slots=True)
class SpellTemplate:
    """An instant or sorcery the model can cast: its name, speed, targets and effect."""

    name: str
    effect: Effect
    targets: TargetRule = TargetRule.NONE
    sorcery: bool = False
    text: str = ""


def _creature(
    name: str,
    power: int,
    toughness: int,
    *,
    keywords: frozenset[Keyword] = frozenset(),
    regen: Rider | None = None,
    static: bool = False,
    extra: tuple[ActivatedAbility, ...] = (),
    trigger: DamageTrigger | None = None,
    types: frozenset[CardType] = frozenset({CardType.CREATURE}),
    text: str = "",
) -> CardTemplate:
    abilities: tuple[ActivatedAbility, ...] = ()
    if regen is not None:
        abilities = (ActivatedAbility(AbilityKind.REGENERATE_SELF, rider=regen),)
    return CardTemplate(
        name=name,
        types=types,
        power=power,
        toughness=toughness,
        keywords=keywords,
        static_regeneration=static,
        abilities=abilities + extra,
        damage_trigger=trigger,
        text=text,
    )


_KW = Keyword
_ARTIFACT_CREATURE = frozenset({CardType.ARTIFACT, CardType.CREATURE})

PERMANENT_CARDS: dict[str, CardTemplate] = {
    t.name: t
    for t in (
        _creature("Grizzly Bears", 2, 2, text="Vanilla 2/2."),
        _creature("Foot Soldiers", 2, 4, text="Vanilla 2/4 (the seed's attacker)."),
        _creature("Hill Giant", 3, 3, text="Vanilla 3/3."),
        _creature("Horned Troll", 2, 2, regen=Rider.NONE, text="{G}: Regenerate this creature."),
        _creature("Uthden Troll", 2, 2, regen=Rider.NONE, text="{R}: Regenerate this creature."),
        _creature("River Boa", 2, 1, regen=Rider.NONE, text="{G}: Regenerate this creature."),
        _creature("Drudge Skeletons", 1, 1, regen=Rider.NONE, text="{B}: Regenerate it."),
        _creature("Troll Ascetic", 3, 2, regen=Rider.NONE, text="{1}{G}: Regenerate it."),
        _creature(
            "Mossbridge Troll",
            5,
            5,
            static=True,
            text="If this creature would be destroyed, regenerate it (static, 701.19b).",
        ),
        _creature(
            "Knight of the Holy Nimbus",
            2,
            2,
            static=True,
            extra=(ActivatedAbility(AbilityKind.MAKE_SELF_UNREGENERABLE, opponent_only=True),),
            text="Static regeneration; {2}: it can't be regenerated this turn (opponents only).",
        ),
        _creature(
            "Matopi Golem",
            1,
            1,
            regen=Rider.MINUS_COUNTER,
            types=_ARTIFACT_CREATURE,
            text="{1}: Regenerate it. When it regenerates this way, put a -1/-1 counter on it.",
        ),
        _creature(
            "Skeleton Scavengers",
            1,
            1,
            regen=Rider.PLUS_COUNTER,
            text="Regenerate it; when it regenerates this way, put a +1/+1 counter on it.",
        ),
        _creature(
            "Skithiryx, the Blight Dragon",
            4,
            4,
            keywords=frozenset({_KW.INFECT}),
            regen=Rider.NONE,
            text="Infect. {B}{B}: Regenerate it.",
        ),
        _creature(
            "Wall of Essence",
            0,
            4,
            trigger=DamageTrigger(TriggerEffect.GAIN_LIFE, combat_only=True),
            text="Whenever it is dealt combat damage, you gain that much life.",
        ),
        _creature(
            "Jackal Pup",
            2,
            1,
            trigger=DamageTrigger(TriggerEffect.LOSE_LIFE),
            text="Whenever it is dealt damage, it deals that much damage to you.",
        ),
        _creature("Typhoid Rats", 1, 1, keywords=frozenset({_KW.DEATHTOUCH}), text="Deathtouch."),
        _creature(
            "Darksteel Myr",
            0,
            1,
            keywords=frozenset({_KW.INDESTRUCTIBLE}),
            types=_ARTIFACT_CREATURE,
            text="Indestructible.",
        ),
        _creature(
            "Darksteel Colossus",
            11,
            11,
            keywords=frozenset({_KW.INDESTRUCTIBLE, _KW.TRAMPLE}),
            types=_ARTIFACT_CREATURE,
            text="Trample, indestructible.",
        ),
        _creature(
            "Youthful Knight", 2, 1, keywords=frozenset({_KW.FIRST_STRIKE}), text="First strike."
        ),
        _creature("Colossal Dreadmaw", 6, 6, keywords=frozenset({_KW.TRAMPLE}), text="Trample."),
        _creature("Boggart Ram-Gang", 3, 3, keywords=frozenset({_KW.WITHER}), text="Wither."),
        _creature("Glistener Elf", 1, 1, keywords=frozenset({_KW.INFECT}), text="Infect."),
        CardTemplate(
            name="Eland Umbra",
            types=frozenset({CardType.ENCHANTMENT}),
            attachment=Attachment.AURA,
            keywords=frozenset({_KW.UMBRA_ARMOR}),
            attach_bonus=(0, 4),
            text="Enchant creature. Enchanted creature gets +0/+4. Umbra armor.",
        ),
        CardTemplate(
            name="Snake Umbra",
            types=frozenset({CardType.ENCHANTMENT}),
            attachment=Attachment.AURA,
            keywords=frozenset({_KW.UMBRA_ARMOR}),
            attach_bonus=(1, 1),
            text="Enchant creature. Enchanted creature gets +1/+1. Umbra armor.",
        ),
        CardTemplate(
            name="Holy Strength",
            types=frozenset({CardType.ENCHANTMENT}),
            attachment=Attachment.AURA,
            attach_bonus=(1, 2),
            text="Enchant creature. Enchanted creature gets +1/+2.",
        ),
        CardTemplate(
            name="Bonesplitter",
            types=frozenset({CardType.ARTIFACT}),
            attachment=Attachment.EQUIPMENT,
            attach_bonus=(2, 0),
            text="Equipped creature gets +2/+0.",
        ),
        CardTemplate(name="Forest", types=frozenset({CardType.LAND}), text="Basic land."),
        CardTemplate(name="Mountain", types=frozenset({CardType.LAND}), text="Basic land."),
    )
}

SPELLS: dict[str, SpellTemplate] = {
    s.name: s
    for s in (
        SpellTemplate(
            "Lightning Bolt",
            Effect(EffectKind.DAMAGE, amount=3),
            TargetRule.ANY,
            text="3 damage to any target.",
        ),
        SpellTemplate(
            "Shock", Effect(EffectKind.DAMAGE, amount=2), TargetRule.ANY, text="2 damage."
        ),
        SpellTemplate(
            "Incinerate",
            Effect(EffectKind.DAMAGE, amount=3, cant_regen=True),
            TargetRule.ANY,
            text="3 damage; a creature dealt damage this way can't be regenerated this turn.",
        ),
        SpellTemplate(
            "Pyroclasm",
            Effect(EffectKind.DAMAGE_EACH_CREATURE, amount=2),
            sorcery=True,
            text="2 damage to each creature.",
        ),
        SpellTemplate(
            "Murder",
            Effect(EffectKind.DESTROY),
            TargetRule.CREATURE,
            text="Destroy target creature.",
        ),
        SpellTemplate(
            "Terror",
            Effect(EffectKind.DESTROY, cant_regen=True),
            TargetRule.CREATURE,
            text="Destroy target creature. It can't be regenerated.",
        ),
        SpellTemplate(
            "Wrath of God",
            Effect(EffectKind.DESTROY_ALL_CREATURES, cant_regen=True),
            sorcery=True,
            text="Destroy all creatures. They can't be regenerated.",
        ),
        SpellTemplate(
            "Day of Judgment",
            Effect(EffectKind.DESTROY_ALL_CREATURES),
            sorcery=True,
            text="Destroy all creatures.",
        ),
        SpellTemplate(
            "Death Ward",
            Effect(EffectKind.REGENERATE),
            TargetRule.CREATURE,
            text="Regenerate target creature.",
        ),
        SpellTemplate(
            "Regenerate",
            Effect(EffectKind.REGENERATE),
            TargetRule.CREATURE,
            text="Regenerate target creature.",
        ),
        SpellTemplate(
            "Debt of Loyalty",
            Effect(EffectKind.REGENERATE, rider=Rider.GAIN_CONTROL),
            TargetRule.CREATURE,
            text="Regenerate target creature. You gain control of it if it regenerates this way.",
        ),
        SpellTemplate(
            "Giant Growth",
            Effect(EffectKind.PUMP, power=3, toughness=3),
            TargetRule.CREATURE,
            text="Target creature gets +3/+3 until end of turn.",
        ),
        SpellTemplate(
            "Last Gasp",
            Effect(EffectKind.PUMP, power=-3, toughness=-3),
            TargetRule.CREATURE,
            text="Target creature gets -3/-3 until end of turn.",
        ),
        SpellTemplate(
            "Disfigure",
            Effect(EffectKind.PUMP, power=-2, toughness=-2),
            TargetRule.CREATURE,
            text="Target creature gets -2/-2 until end of turn.",
        ),
        SpellTemplate(
            "Cloudshift",
            Effect(EffectKind.FLICKER),
            TargetRule.CREATURE_YOU_CONTROL,
            text="Exile target creature you control, then return it to the battlefield.",
        ),
        SpellTemplate(
            "Act of Treason",
            Effect(EffectKind.GAIN_CONTROL, until_end_of_turn=True),
            TargetRule.CREATURE,
            sorcery=True,
            text="Gain control of target creature until end of turn (untap and haste not modelled).",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class CardLibrary:
    """Card and spell definitions available to a scenario: the built-ins plus its own."""

    permanents: dict[str, CardTemplate] = field(default_factory=lambda: dict(PERMANENT_CARDS))
    spells: dict[str, SpellTemplate] = field(default_factory=lambda: dict(SPELLS))
