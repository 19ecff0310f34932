"""Our own card data for phase.rs: MTGJSON-shaped card dicts, written by hand.

phase.rs reads cards from a ``card-data.json`` that its tools normally build from a full MTGJSON
download. We build the few cards our scenarios need ourselves, offline, so the cross-check never
depends on a download.

Why the texts follow our model and not always the printed Oracle text: the cross-check compares
*rules*, so each phase.rs card must mean what the model's card means. The model's cards follow
their Oracle text except for the parts listed in their ``deviations`` (``model.cards``: flying,
hexproof, islandwalk, flanking, Mossbridge Troll's pump, ...); those parts are left out here too,
otherwise every difference in what a card *is* would show up as a false divergence. Each such
card says so in its ``note`` (a test checks that the notes and the deviations agree). Mana costs
are the printed ones: the adapter pays them, since our model does not model costs.

``harness_card`` makes cost-{0} spells for the generic effects of our ``CastSpell`` actions and
for the direct effect actions that phase.rs can only perform through a resolving spell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from regen_model.model.cards import PERMANENT_CARDS, SPELLS, AbilityKind, CardTemplate
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import Color, CounterKind, Keyword, Rider

_COLOURS = ("W", "U", "B", "R", "G")

# Our keywords -> (MTGJSON spelling that phase.rs reads from ``keywords``, the spelling phase.rs
# stores on the face and on game objects). phase.rs reads keywords only from the list, not from
# the rules text, so the list must be given.
KEYWORDS: dict[Keyword, tuple[str, str]] = {
    Keyword.INDESTRUCTIBLE: ("Indestructible", "Indestructible"),
    Keyword.DEATHTOUCH: ("Deathtouch", "Deathtouch"),
    Keyword.WITHER: ("Wither", "Wither"),
    Keyword.INFECT: ("Infect", "Infect"),
    Keyword.TRAMPLE: ("Trample", "Trample"),
    Keyword.FIRST_STRIKE: ("First strike", "FirstStrike"),
    Keyword.UMBRA_ARMOR: ("Umbra armor", "TotemArmor"),
    Keyword.HASTE: ("Haste", "Haste"),
    Keyword.DEFENDER: ("Defender", "Defender"),
    Keyword.DOUBLE_STRIKE: ("Double strike", "DoubleStrike"),
    Keyword.LIFELINK: ("Lifelink", "Lifelink"),
    Keyword.PHASING: ("Phasing", "Phasing"),
}

_REMINDER: dict[Keyword, str] = {
    Keyword.INDESTRUCTIBLE: "Indestructible",
    Keyword.DEATHTOUCH: "Deathtouch",
    Keyword.WITHER: "Wither",
    Keyword.INFECT: "Infect",
    Keyword.TRAMPLE: "Trample",
    Keyword.FIRST_STRIKE: "First strike",
    Keyword.UMBRA_ARMOR: (
        "Umbra armor (If enchanted creature would be destroyed, instead remove all damage "
        "from it and destroy this Aura.)"
    ),
    Keyword.HASTE: "Haste",
    Keyword.DEFENDER: "Defender",
    Keyword.DOUBLE_STRIKE: "Double strike",
    Keyword.LIFELINK: "Lifelink",
    Keyword.PHASING: "Phasing",
}


@dataclass(frozen=True)
class PhaseCard:
    """One card as we describe it to phase.rs.

    ``keywords`` are our keywords (turned into the MTGJSON list and checked on the built face).
    ``note`` says how the text deviates from the printed card, and why.
    """

    name: str
    mana_cost: str | None
    type_line: str
    text: str = ""
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[Keyword] = frozenset()
    note: str = ""

    def mtgjson(self) -> dict[str, object]:
        """The MTGJSON AtomicCard-shaped dict ``phase.build_oracle_face`` expects.

        ``name``, ``colors``, ``colorIdentity``, ``manaValue``, ``layout`` and ``identifiers``
        are required by phase.rs's deserializer; the rest is optional.
        """
        head, _, subs = self.type_line.partition(" — ")
        words = head.split()
        supertypes = [w for w in words if w in ("Basic", "Legendary", "Snow", "World")]
        symbols = re.findall(r"\{([^}]+)\}", self.mana_cost or "")
        colours = sorted({c for s in symbols for c in s.split("/") if c in _COLOURS})
        value = sum(int(s) if s.isdigit() else 1 for s in symbols)
        card: dict[str, object] = {
            "name": self.name,
            "colors": colours,
            "colorIdentity": colours,
            "manaValue": float(value),
            "type": self.type_line,
            "types": [w for w in words if w not in supertypes],
            "subtypes": subs.split() if subs else [],
            "supertypes": supertypes,
            "text": self.text,
            "layout": "normal",
            "legalities": {"vintage": "Legal"},
            "identifiers": {},
        }
        if self.mana_cost is not None:
            card["manaCost"] = self.mana_cost
        if self.power is not None and self.toughness is not None:
            card["power"], card["toughness"] = str(self.power), str(self.toughness)
        if self.keywords:
            card["keywords"] = sorted(KEYWORDS[k][0] for k in self.keywords)
        return card

    @property
    def phase_keywords(self) -> frozenset[str]:
        """The keywords phase.rs should show on the built face."""
        return frozenset(KEYWORDS[k][1] for k in self.keywords)


_BASILISK = (
    "Whenever this creature blocks or becomes blocked by a non-Wall creature, "
    "destroy that creature at end of combat."
)


def _creature(
    name: str,
    cost: str,
    types: str,
    power: int,
    toughness: int,
    text: str = "",
    keywords: frozenset[Keyword] = frozenset(),
    note: str = "",
) -> PhaseCard:
    lines = [_REMINDER[k] for k in sorted(keywords)]
    if text:
        lines.append(text)
    return PhaseCard(name, cost, types, "\n".join(lines), power, toughness, keywords, note)


def _aura(name: str, cost: str, bonus: str, umbra: bool, note: str = "") -> PhaseCard:
    text = f"Enchant creature\nEnchanted creature gets {bonus}."
    keywords: frozenset[Keyword] = frozenset()
    if umbra:
        text += "\n" + _REMINDER[Keyword.UMBRA_ARMOR]
        keywords = frozenset({Keyword.UMBRA_ARMOR})
    return PhaseCard(name, cost, "Enchantment — Aura", text, keywords=keywords, note=note)


def _basic(name: str, symbol: str) -> PhaseCard:
    return PhaseCard(name, None, f"Basic Land — {name}", f"({{T}}: Add {{{symbol}}}.)")


def _spell(name: str, cost: str, text: str, sorcery: bool = False, note: str = "") -> PhaseCard:
    return PhaseCard(name, cost, "Sorcery" if sorcery else "Instant", text, note=note)


_I, _D, _W, _N, _T, _F = (
    Keyword.INDESTRUCTIBLE,
    Keyword.DEATHTOUCH,
    Keyword.WITHER,
    Keyword.INFECT,
    Keyword.TRAMPLE,
    Keyword.FIRST_STRIKE,
)
_REGEN = "Regenerate this creature."
_STATIC = "If this creature would be destroyed, regenerate it."

MODEL_CARDS: dict[str, PhaseCard] = {
    c.name: c
    for c in (
        _creature("Grizzly Bears", "{1}{G}", "Creature — Bear", 2, 2),
        _creature("Foot Soldiers", "{3}{W}", "Creature — Human Soldier", 2, 4),
        _creature("Hill Giant", "{3}{R}", "Creature — Giant", 3, 3),
        _creature("Horned Troll", "{2}{G}", "Creature — Troll", 2, 2, "{G}: " + _REGEN),
        _creature("Uthden Troll", "{2}{R}", "Creature — Troll", 2, 2, "{R}: " + _REGEN),
        _creature(
            "River Boa",
            "{1}{G}",
            "Creature — Snake",
            2,
            1,
            "{G}: " + _REGEN,
            note="islandwalk left out: the model has no landwalk",
        ),
        _creature("Drudge Skeletons", "{1}{B}", "Creature — Skeleton", 1, 1, "{B}: " + _REGEN),
        _creature(
            "Troll Ascetic",
            "{1}{G}{G}",
            "Creature — Troll Shaman",
            3,
            2,
            "{1}{G}: " + _REGEN,
            note="hexproof left out: the model has no hexproof",
        ),
        _creature(
            "Mossbridge Troll",
            "{5}{G}{G}",
            "Creature — Troll",
            5,
            5,
            _STATIC,
            note="the +20/+20 tapping ability is left out: the model does not know it",
        ),
        _creature(
            "Knight of the Holy Nimbus",
            "{W}{W}",
            "Creature — Human Rebel Knight",
            2,
            2,
            _STATIC + "\n{2}: This creature can't be regenerated this turn. "
            "Only any opponent may activate this ability.",
            note="flying left out: the model has no flying",
        ),
        _creature(
            "Matopi Golem",
            "{5}",
            "Artifact Creature — Golem",
            3,
            3,
            "{1}: " + _REGEN + " When it regenerates this way, put a -1/-1 counter on it.",
        ),
        _creature(
            "Skeleton Scavengers",
            "{2}{B}",
            "Creature — Skeleton",
            0,
            0,
            "This creature enters with a +1/+1 counter on it.\n{1}: "
            + _REGEN
            + " When it regenerates this way, put a +1/+1 counter on it.",
            note="the variable cost (pay {1} for each +1/+1 counter) is a fixed {1}: the model "
            "does not pay costs",
        ),
        _creature(
            "Skithiryx, the Blight Dragon",
            "{3}{B}{B}",
            "Legendary Creature — Phyrexian Dragon Skeleton",
            4,
            4,
            "{B}{B}: " + _REGEN,
            frozenset({_N}),
            note="flying and the haste ability left out: the model has neither",
        ),
        _creature(
            "Wall of Essence",
            "{1}{W}",
            "Creature — Wall",
            0,
            4,
            "Whenever this creature is dealt combat damage, you gain that much life.",
            keywords=frozenset({Keyword.DEFENDER}),
        ),
        _creature(
            "Jackal Pup",
            "{R}",
            "Creature — Jackal",
            2,
            1,
            "Whenever this creature is dealt damage, it deals that much damage to you.",
        ),
        _creature("Typhoid Rats", "{B}", "Creature — Rat", 1, 1, keywords=frozenset({_D})),
        _creature(
            "Darksteel Myr", "{3}", "Artifact Creature — Myr", 0, 1, keywords=frozenset({_I})
        ),
        _creature(
            "Darksteel Colossus",
            "{11}",
            "Artifact Creature — Golem",
            11,
            11,
            keywords=frozenset({_I, _T}),
            note="the shuffle-into-library replacement left out: the model has no library",
        ),
        _creature(
            "Youthful Knight", "{1}{W}", "Creature — Human Knight", 2, 1, keywords=frozenset({_F})
        ),
        _creature(
            "Vampire Nighthawk",
            "{1}{B}{B}",
            "Creature — Vampire Shaman",
            2,
            3,
            keywords=frozenset({_D, Keyword.LIFELINK}),
            note="flying left out: the model has no flying",
        ),
        # Issue 13 items 3-4: phase.rs parses each ability whole (a Regenerate effect with a
        # Typed creature target; a Composite Mana + Tap cost, a Sacrifice SelfRef cost), and
        # the adapter activates them (translate._ActivateAbility)
        _creature(
            "Suture Spirit",
            "{1}{W}",
            "Creature — Spirit",
            1,
            1,
            "{W/B}{W/B}{W/B}: Regenerate target creature.",
            note="flying left out: the model has no flying; the hybrid {W/B} is paid with {W} "
            "(translate._pay_shard)",
        ),
        _creature(
            "Niall Silvain",
            "{G}{G}{G}",
            "Creature — Ouphe",
            2,
            2,
            "{G}{G}{G}{G}, {T}: Regenerate target creature.",
            note="phase.rs pays the {T} as it activates the ability (a Composite cost)",
        ),
        _creature(
            "Vigilant Martyr",
            "{W}",
            "Creature — Human Cleric",
            1,
            1,
            "Sacrifice this creature: Regenerate target creature.",
            note="the counterspell ability is left out: the model does not know it; phase.rs "
            "sacrifices it as it activates the ability, after the target is chosen",
        ),
        _creature(
            "Onulet",
            "{3}",
            "Artifact Creature — Construct",
            2,
            2,
            "When this creature dies, you gain 2 life.",
            note="mapped: phase.rs's own trigger (dies-trigger)",
        ),
        _creature(
            "Soldevi Steam Beast",
            "{5}",
            "Artifact Creature — Beast",
            4,
            2,
            "Whenever this creature becomes tapped, target opponent gains 2 life.\n"
            "{2}: Regenerate this creature.",
            note="mapped: phase.rs's own trigger (tapped-trigger; a regeneration's tap makes "
            "it trigger in the rules, not in phase.rs: PH-33)",
        ),
        _creature(
            "Judge of Currents",
            "{1}{W}",
            "Creature — Merfolk Wizard",
            1,
            1,
            "Whenever a Merfolk you control becomes tapped, you may gain 1 life.",
            note="mapped: phase.rs's own trigger (creature-tapped-trigger: a Taps trigger for a "
            "Merfolk you control); 'you may gain 1 life' is asked as it resolves "
            "(OptionalEffectChoice), answered with the pass's decline "
            "(translate.Translator._may_prompt); a regeneration's tap makes it trigger in the "
            "rules, not in phase.rs: PH-33",
        ),
        _creature(
            "Thicket Basilisk",
            "{3}{G}{G}",
            "Creature — Basilisk",
            2,
            4,
            _BASILISK,
            note="phase.rs parses the trigger (BlocksOrBecomesBlocked, CreateDelayedTrigger at "
            "EndCombat, Destroy ParentTarget); the model lets the block trigger resolve at once, "
            "so the adapter passes it through (translate._resolve_block_triggers)",
        ),
        _creature(
            "Cockatrice",
            "{3}{G}{G}",
            "Creature — Cockatrice",
            2,
            4,
            _BASILISK,
            note="flying left out (the model has none); the trigger as Thicket Basilisk's",
        ),
        _creature(
            "Go-Shintai of Hidden Cruelty",
            "{3}{B}",
            "Legendary Enchantment Creature — Shrine",
            2,
            2,
            "At the beginning of your end step, you may pay {1}. When you do, destroy target "
            "creature with toughness X or less, where X is the number of Shrines you control.",
            keywords=frozenset({_D}),
            note="'you may pay {1}' kept: phase.rs asks whether to pay, and the adapter answers "
            "with the model's answer and pays the mana; phase.rs parses the whole text (a Phase "
            "trigger at End, PayCost with a WhenYouDo sub-ability; translate._when_you_do)",
        ),
        _creature(
            "Zulaport Cutthroat",
            "{1}{B}",
            "Creature — Human Rogue Ally",
            1,
            1,
            "Whenever this creature or another creature you control dies, each opponent loses 1 "
            "life and you gain 1 life.",
            note="mapped: phase.rs's own trigger (creature-dies-trigger)",
        ),
        _creature(
            "Kardur, Doomscourge",
            "{2}{B}{R}",
            "Legendary Creature — Demon Berserker",
            4,
            3,
            "Whenever an attacking creature dies, each opponent loses 1 life and you gain 1 life.",
            note="the enters ability is left out (the model does not run it); the attacking "
            "creature's trigger is phase.rs's own (creature-dies-trigger)",
        ),
        _creature(
            "Boros Swiftblade",
            "{R}{W}",
            "Creature — Human Soldier",
            1,
            2,
            keywords=frozenset({Keyword.DOUBLE_STRIKE}),
        ),
        _creature(
            "Colossal Dreadmaw", "{4}{G}{G}", "Creature — Dinosaur", 6, 6, keywords=frozenset({_T})
        ),
        _creature(
            "Boggart Ram-Gang",
            "{R/G}{R/G}{R/G}",
            "Creature — Goblin Warrior",
            3,
            3,
            keywords=frozenset({_W, Keyword.HASTE}),
        ),
        _creature(
            "Glistener Elf",
            "{G}",
            "Creature — Phyrexian Elf Warrior",
            1,
            1,
            keywords=frozenset({_N}),
        ),
        _aura("Eland Umbra", "{1}{W}", "+0/+4", umbra=True),
        _aura(
            "Snake Umbra",
            "{2}{G}",
            "+1/+1",
            umbra=True,
            note="the card-draw trigger left out: the model has no library",
        ),
        _aura("Holy Strength", "{W}", "+1/+2", umbra=False),
        PhaseCard(
            "Fecundity",
            "{2}{G}",
            "Enchantment",
            "Whenever a creature dies, that creature's controller may draw a card.",
            note="the Oracle text whole; phase.rs 0.103 draws nothing with it (PH-31: it reads "
            "'that creature's controller' as a target's controller, and the trigger has none)",
        ),
        PhaseCard(
            "Bonesplitter",
            "{1}",
            "Artifact — Equipment",
            "Equipped creature gets +2/+0.\nEquip {1}",
            note="equip is mapped to phase.rs's Equip ability (ActivateAbility with a target)",
        ),
        PhaseCard(
            "Regeneration",
            "{1}{G}",
            "Enchantment — Aura",
            "Enchant creature\n{G}: Regenerate enchanted creature.",
            note="its ability is matched to phase.rs's Regenerate ability whose target is the "
            "enchanted creature",
        ),
        PhaseCard(
            "Carapace",
            "{G}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +0/+2.\nSacrifice this Aura: Regenerate "
            "enchanted creature.",
            note="phase.rs sacrifices it as it activates the ability; it makes the enchanted "
            "creature a target checked again on resolution, which the sacrificed Aura no longer "
            "enchants (divergence PH-24)",
        ),
        PhaseCard(
            "Dark Privilege",
            "{1}{B}",
            "Enchantment — Aura",
            "Enchant creature\nEnchanted creature gets +1/+1.\nSacrifice a creature: "
            "Regenerate enchanted creature.",
            note="phase.rs asks which creature pays the cost (PayCost), answered with the "
            "model's choice (translate._pay_sacrifice)",
        ),
        PhaseCard(
            "Skeletal Grimace",
            "{1}{B}",
            "Enchantment — Aura",
            'Enchant creature\nEnchanted creature gets +1/+1 and has "{B}: Regenerate this '
            'creature."',
            note="not mapped yet: the ability it gives (granted-abilities) is declared lacking",
        ),
        PhaseCard(
            "Darksteel Plate",
            "{3}",
            "Artifact — Equipment",
            "Indestructible\nEquipped creature has indestructible.\nEquip {2}",
            keywords=frozenset({_I}),
        ),
        PhaseCard(
            "Spawning Pool",
            None,
            "Land",
            '{1}{B}: This land becomes a 1/1 black Skeleton creature with "{B}: '
            + _REGEN
            + "\" until end of turn. It's still a land.",
            note="This land enters tapped. and {T}: Add {B}. left out: the model runs neither "
            "(no mana; it enters only through a flicker, untapped); phase.rs parses the "
            "animation as an until-end-of-turn effect on itself (SetPower/SetToughness 1/1, "
            "SetColor Black, AddType Creature, GrantAbility Regenerate) and 'It's still a "
            "land' as AddType Land",
        ),
        # Issue 13 item 6: card data only; phase.rs 0.103 does not parse the mode, so the card
        # and its feature are declared lacking as phase.rs's own (adapter.NOT_IN_PHASE)
        PhaseCard(
            "Pyramids",
            "{6}",
            "Artifact",
            "{2}: The next time target land would be destroyed this turn, remove all damage "
            "marked on it instead.",
            note="the first mode (Destroy target Aura attached to a land) left out: the model "
            "does not run it; phase.rs 0.103 leaves the second mode unimplemented "
            "(adapter.NOT_IN_PHASE)",
        ),
        _creature(
            "Excruciator",
            "{6}{R}{R}",
            "Creature — Avatar",
            7,
            7,
            "Damage that would be dealt by this creature can't be prevented.",
            note="phase.rs 0.103 parses this static ability as a spell ability, so it does "
            "nothing on the battlefield (divergence PH-23)",
        ),
        _creature(
            "Foriysian Brigade",
            "{3}{W}",
            "Creature — Human Soldier",
            2,
            4,
            "This creature can block an additional creature each combat.",
        ),
        _creature(
            "Merfolk Raiders",
            "{1}{U}",
            "Creature — Merfolk Soldier",
            2,
            3,
            keywords=frozenset({Keyword.PHASING}),
            note="islandwalk left out: the model has no landwalk",
        ),
        _creature(
            "Soldevi Sentry",
            "{1}",
            "Artifact Creature — Soldier",
            1,
            1,
            "{1}: Choose target opponent. "
            + _REGEN
            + " When it regenerates this way, that player may draw a card.",
            note="the ability is mapped (its regeneration is the sub-ability of the target "
            "opponent); phase.rs leaves the rider Unimplemented (PH-03), and the adapter gives "
            "a shield it writes no rider (shield-rider)",
        ),
        _basic("Forest", "G"),
        _basic("Mountain", "R"),
        _spell("Lightning Bolt", "{R}", "Lightning Bolt deals 3 damage to any target."),
        _spell("Shock", "{R}", "Shock deals 2 damage to any target."),
        _spell(
            "Incinerate",
            "{1}{R}",
            "Incinerate deals 3 damage to any target. "
            "A creature dealt damage this way can't be regenerated this turn.",
        ),
        _spell(
            "Pinpoint Avalanche",
            "{3}{R}{R}",
            "Pinpoint Avalanche deals 4 damage to target creature. The damage can't be prevented.",
            note="phase.rs 0.103 parses this static ability as a spell ability, so it does "
            "nothing on the battlefield (divergence PH-23)",
        ),
        _spell("Pyroclasm", "{1}{R}", "Pyroclasm deals 2 damage to each creature.", sorcery=True),
        _spell("Murder", "{1}{B}{B}", "Destroy target creature."),
        _spell(
            "Kill Shot",
            "{2}{W}",
            "Destroy target attacking creature.",
        ),
        _spell(
            "Asphyxiate",
            "{1}{B}{B}",
            "Destroy target untapped creature.",
            sorcery=True,
        ),
        _spell(
            "Terror",
            "{1}{B}",
            "Destroy target nonartifact, nonblack creature. It can't be regenerated.",
        ),
        _spell(
            "Wrath of God",
            "{2}{W}{W}",
            "Destroy all creatures. They can't be regenerated.",
            sorcery=True,
        ),
        _spell("Day of Judgment", "{2}{W}{W}", "Destroy all creatures.", sorcery=True),
        _spell(
            "Disintegrate",
            "{3}{R}",
            "Disintegrate deals 3 damage to any target. If it's a creature, it can't be "
            "regenerated this turn, and if it would die this turn, exile it instead.",
            sorcery=True,
            note="X fixed at 3, as the model runs it",
        ),
        _spell(
            "Fumigate",
            "{3}{W}{W}",
            "Destroy all creatures. You gain 1 life for each creature destroyed this way.",
            sorcery=True,
        ),
        _spell("Death Ward", "{W}", "Regenerate target creature."),
        _spell("Regenerate", "{1}{G}", "Regenerate target creature."),
        _spell(
            "Debt of Loyalty",
            "{1}{W}{W}",
            "Regenerate target creature. You gain control of that creature if it "
            "regenerates this way.",
        ),
        _spell(
            "Mending Hands",
            "{W}",
            "Prevent the next 4 damage that would be dealt to target creature this turn.",
            note="any target left out: the model's target is a creature",
        ),
        _spell(
            "Galadriel's Dismissal",
            "{W}",
            "Target creature phases out.",
            note="kicker left out: the model pays no costs",
        ),
        _spell(
            "Shielded Passage",
            "{W}",
            "Prevent all damage that would be dealt to target creature this turn.",
        ),
        _spell("Giant Growth", "{G}", "Target creature gets +3/+3 until end of turn."),
        _spell("Last Gasp", "{1}{B}", "Target creature gets -3/-3 until end of turn."),
        _spell("Disfigure", "{B}", "Target creature gets -2/-2 until end of turn."),
        _spell(
            "Cloudshift",
            "{W}",
            "Exile target creature you control, then return that card to the battlefield "
            "under your control.",
        ),
        _spell(
            "Act of Treason",
            "{2}{R}",
            "Gain control of target creature until end of turn. Untap that creature. It gains "
            "haste until end of turn.",
            sorcery=True,
        ),
        _spell(
            "Thought Scour",
            "{U}",
            "Target player mills two cards.\nDraw a card.",
            note="mapped: the milled model cards are read back from the graveyard (mill, draw)",
        ),
        _spell(
            "Counterspell",
            "{U}{U}",
            "Counter target spell.",
            note="mapped: the target spell's stack position becomes its phase.rs stack entry "
            "(translate.Translator._target_ref; counter-spell)",
        ),
    )
}

# Library filler: both players draw, and an empty library loses the game (704.5b), which the
# model does not have. Plains is not a card of the model, so it can never be confused with one.
FILLER = _basic("Plains", "W")
FILLER_COUNT = 20
# The model's library cards: a library is a count in the model (121.1, 401.1), so each card it
# holds is an Island in phase.rs, put on top of the filler (``board._finish``): a draw takes
# them first, and the hand and library sizes are read as the Islands there
# (``read.model_card_counts``), leaving the filler, the stock and the harness spells out as the
# graveyards do. Island is no card of the model and no filler, so it is never confused with one.
LIBRARY_CARD = _basic("Island", "U")


def model_card_names() -> tuple[str, ...]:
    """Every card and spell name the model knows, in a stable order."""
    return tuple(PERMANENT_CARDS) + tuple(SPELLS)


# --- harness cards -----------------------------------------------------------------------------

_NUMBERS = ("a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNTER_WORDS = {
    CounterKind.PLUS: "+1/+1",
    CounterKind.MINUS: "-1/-1",
    CounterKind.SHIELD: "shield",
}
_RIDER_TEXT = {
    Rider.GAIN_CONTROL: " You gain control of that creature if it regenerates this way.",
    Rider.MINUS_COUNTER: " When it regenerates this way, put a -1/-1 counter on it.",
    Rider.PLUS_COUNTER: " When it regenerates this way, put a +1/+1 counter on it.",
    Rider.OPPONENT_MAY_DRAW: " When it regenerates this way, target opponent may draw a card.",
}


class NoHarness(ValueError):
    """An effect that no harness spell can express; the message says why."""


# Effects whose harness spell can say "target permanent": our effect actions (destroy, change
# control, can't be regenerated) apply to any permanent, an Aura included, while a spell a player
# casts in the model targets creatures. With "target creature", phase.rs would quietly pick the
# only creature when the action names an Aura.
_PERMANENT_TARGET = frozenset(
    {EffectKind.DESTROY, EffectKind.GAIN_CONTROL, EffectKind.UNREGENERABLE}
)


def harness_card(effect: Effect, *, sorcery: bool = False, permanent: bool = False) -> PhaseCard:
    """A cost-{0} spell whose resolution does ``effect`` to its targets.

    The name encodes the effect so that equal effects share one card. ``permanent``: target
    any permanent instead of a creature (for the effect actions, see ``_PERMANENT_TARGET``).
    Raises ``NoHarness`` for effects that no spell text can say the way the model means them.
    """
    words, text = _harness_text(effect)
    if permanent and effect.kind in _PERMANENT_TARGET:
        words += " Permanent"
        text = text.replace("target creature", "target permanent").replace(
            "Target creature", "Target permanent"
        )
    name = "Harness " + ("Sorcery " if sorcery else "") + words
    text = text.replace("~", name)
    keywords = effect.keywords if effect.kind in _DAMAGE_KINDS else frozenset()
    lines = [_REMINDER[k] for k in sorted(keywords)]
    lines.append(text)
    return PhaseCard(
        name,
        "{0}",
        "Sorcery" if sorcery else "Instant",
        "\n".join(lines),
        keywords=keywords,
        note="harness spell for a generic effect",
    )


_DAMAGE_KINDS = (EffectKind.DAMAGE, EffectKind.DAMAGE_EACH_CREATURE)


def _kw_words(effect: Effect) -> str:
    return "".join(
        " " + ("Unpreventable" if k is Keyword.UNPREVENTABLE else KEYWORDS[k][1])
        for k in sorted(effect.keywords)
    )


# 615.12: what phase.rs parses as "the damage can't be prevented" (Pinpoint Avalanche's words).
_UNPREVENTABLE_TEXT = " The damage can't be prevented."


def _disintegrate_text(e: Effect) -> tuple[str, str]:
    """Damage with Disintegrate's riders, both or one (608.2c, 614.6): its own words with the
    effect's amount, which phase.rs 0.103 parses whole (an unconditional ``CantBeRegenerated``
    until end of turn for the target, an ``AddTargetReplacement`` moving it to exile instead);
    the exile rider alone in Magma Spray's words, which phase.rs parses only for "target
    creature" (its "if it's a creature and it would die" stays Unimplemented), so such a spell
    targets creatures (``support.spell_card`` refuses a player target)."""
    if e.kind is not EffectKind.DAMAGE or e.keywords or e.cant_regen:
        raise NoHarness(
            "Disintegrate's riders are mapped on plain damage to one target only, without "
            "keywords or Incinerate's rider"
        )
    n = e.amount
    if e.cant_regen_target and e.exile_if_dies:
        return (
            f"Damage {n} Unregenerable Target Exile",
            f"~ deals {n} damage to any target. If it's a creature, it can't be regenerated "
            "this turn, and if it would die this turn, exile it instead.",
        )
    if e.cant_regen_target:
        return (
            f"Damage {n} Unregenerable Target",
            f"~ deals {n} damage to any target. If it's a creature, it can't be regenerated "
            "this turn.",
        )
    return (
        f"Damage {n} Exile",
        f"~ deals {n} damage to target creature. If that creature would die this turn, exile "
        "it instead.",
    )


def _harness_text(e: Effect) -> tuple[str, str]:
    """(name words, rules text with ``~`` for the name) for one effect."""
    k = e.kind
    if e.cant_regen_target or e.exile_if_dies:
        return _disintegrate_text(e)
    if k in _DAMAGE_KINDS and e.keywords - {_D, _W, _N, Keyword.UNPREVENTABLE}:
        raise NoHarness(f"a spell can't have {sorted(x.value for x in e.keywords)}")
    unpreventable = _UNPREVENTABLE_TEXT if Keyword.UNPREVENTABLE in e.keywords else ""
    if k is EffectKind.DAMAGE:
        rider = " A creature dealt damage this way can't be regenerated this turn."
        return (
            f"Damage {e.amount}{_kw_words(e)}" + (" Unregenerable" if e.cant_regen else ""),
            f"~ deals {e.amount} damage to any target."
            + unpreventable
            + (rider if e.cant_regen else ""),
        )
    if k is EffectKind.DAMAGE_EACH_CREATURE:
        if e.cant_regen:
            raise NoHarness("damage to each creature with a can't-be-regenerated rider")
        return (
            f"Damage Each {e.amount}{_kw_words(e)}",
            f"~ deals {e.amount} damage to each creature." + unpreventable,
        )
    if k is EffectKind.DESTROY:
        rider = " It can't be regenerated." if e.cant_regen else ""
        return "Destroy" + (
            " Unregenerable" if e.cant_regen else ""
        ), "Destroy target creature." + rider
    if k is EffectKind.DESTROY_ALL_CREATURES:
        rider = " They can't be regenerated." if e.cant_regen else ""
        words = "Destroy All" + (" Unregenerable" if e.cant_regen else "")
        if e.amount:
            # Fumigate's count with the effect's amount (701.8a, 614.6: only the creatures
            # really destroyed count), which phase.rs 0.103 parses whole (GainLife of N times
            # its tracked set of destroyed creatures)
            rider += f" You gain {e.amount} life for each creature destroyed this way."
            words += f" Gain {e.amount}"
        return words, "Destroy all creatures." + rider
    if k is EffectKind.REGENERATE:
        suffix = "" if e.rider is Rider.NONE else f" {e.rider.value}"
        return "Shield" + suffix, "Regenerate target creature." + _RIDER_TEXT.get(e.rider, "")
    if k is EffectKind.PUMP:
        if e.power == 0 and e.toughness == 0:
            raise NoHarness("a +0/+0 modification has no spell text")
        pt = f"{e.power:+d}/{e.toughness:+d}"
        return f"Pump {pt}", f"Target creature gets {pt} until end of turn."
    if k is EffectKind.UNREGENERABLE:
        return "Unregenerable", "Target creature can't be regenerated this turn."
    if k is EffectKind.COUNTERS:
        if not 1 <= e.amount <= len(_NUMBERS):
            raise NoHarness(f"{e.amount} counters")
        word = _COUNTER_WORDS[e.counter]
        plural = "" if e.amount == 1 else "s"
        return (
            f"Counters {e.amount} {word}",
            f"Put {_NUMBERS[e.amount - 1]} {word} counter{plural} on target creature.",
        )
    if k is EffectKind.FLICKER:
        whose = "your" if e.under_you else "its owner's"
        return "Flicker" + (" Yours" if e.under_you else ""), (
            "Exile target creature you control, then return that card to the battlefield "
            f"under {whose} control."
        )
    if k is EffectKind.GAIN_CONTROL:
        eot = " until end of turn" if e.until_end_of_turn else ""
        words = "Gain Control" + (" EOT" if eot else "")
        text = f"Gain control of target creature{eot}."
        if e.untap:
            words += " Untap"
            text += " Untap that creature."
        if e.keywords:
            if len(e.keywords) > 1:
                raise NoHarness("a control change that grants several keywords")
            (kw,) = e.keywords
            words += f" {KEYWORDS[kw][1]}"
            text += f" It gains {KEYWORDS[kw][0].lower()} until end of turn."
        return words, text
    if k is EffectKind.PREVENT:  # 615.7, Mending Hands's words
        return (
            f"Prevent {e.amount}",
            f"Prevent the next {e.amount} damage that would be dealt to target creature this turn.",
        )
    if k is EffectKind.PREVENT_ALL:  # 615.1, Shielded Passage's words
        return "Prevent All", "Prevent all damage that would be dealt to target creature this turn."
    if k is EffectKind.PHASE_OUT:  # 702.26b, Galadriel's Dismissal's words
        return "Phase Out", "Target creature phases out."
    raise NoHarness(f"no spell text for a {k.value} effect")


def keyword_grant_card(keyword: Keyword, *, remove: bool) -> PhaseCard:
    """A cost-{0} instant "Target creature gains/loses KEYWORD until end of turn."."""
    if keyword is Keyword.UMBRA_ARMOR:
        raise NoHarness("umbra armor only means something on an Aura")
    verb = "loses" if remove else "gains"
    spelled = KEYWORDS[keyword][0].lower()
    return PhaseCard(
        f"Harness {'Lose' if remove else 'Gain'} {KEYWORDS[keyword][1]}",
        "{0}",
        "Instant",
        f"Target creature {verb} {spelled} until end of turn.",
        note="harness spell for a keyword change",
    )


# Words of the abilities an animation gives (613.1f) in the harness text: the cost is the one
# Spawning Pool's animation grants; costs are not modelled, and the adapter pays whatever
# phase.rs's ability asks for.
_GRANTED_TEXT = {AbilityKind.REGENERATE_SELF: '"{B}: Regenerate this creature."'}
_COLOUR_ORDER = (Color.WHITE, Color.BLUE, Color.BLACK, Color.RED, Color.GREEN)


def type_change_card(template: CardTemplate, *, creature: bool) -> PhaseCard:
    """A cost-{0} instant for our ``ChangeType`` effect on a permanent with ``template``
    (layer 4, 613.1d), in words phase.rs parses into its own type-changing effects:

    * ``creature=False``: "Target card on the battlefield isn't a creature until end of
      turn." (a ``RemoveType Creature`` continuous effect, the words of the Theros gods' "isn't
      a creature");
    * a permanent with its own animation (a manland): it becomes the animation's creature, its
      base power and toughness (613.4b), colors (613.1e) and the abilities the animation grants
      (613.1f), "in addition to its other types" (Spawning Pool's "It's still a land");
    * a printed creature that an effect made stop being one: it becomes a creature again, its
      printed characteristics untouched (a later timestamp wins in layer 4, 613.7).

    The three say "target card on the battlefield", not "target permanent": a Grizzly Bears
    that isn't a creature has no card type left, and phase.rs's ``Permanent`` target filter
    then refuses it, although it is still a permanent (110.4c). Every permanent of the model is
    a card, so the two say the same there.

    Raises ``NoHarness`` for a permanent with nothing to become a creature with (the model
    rejects that ChangeType) or an animation granting an ability we have no words for.
    """
    if not creature:
        return PhaseCard(
            "Harness Not Creature",
            "{0}",
            "Instant",
            "Target card on the battlefield isn't a creature until end of turn.",
            note="harness spell for a type change (stops being a creature)",
        )
    animation = template.animation
    if animation is None:
        if not template.is_creature:
            raise NoHarness(f"{template.name} has no creature characteristics to become one with")
        return PhaseCard(
            "Harness Become Creature",
            "{0}",
            "Instant",
            "Target card on the battlefield becomes a creature in addition to its other types "
            "until end of turn.",
            note="harness spell for a type change (a printed creature is one again)",
        )
    granted = [a for a in template.abilities if a.granted]
    missing = [a.kind.value for a in granted if a.kind not in _GRANTED_TEXT]
    if missing:
        raise NoHarness(f"an animation granting {', '.join(missing)} has no harness text")
    colours = [c.value for c in _COLOUR_ORDER if c in animation.colors]
    adjective = " ".join(colours) + (" " if colours else "")
    with_ = " and ".join(_GRANTED_TEXT[a.kind] for a in granted)
    pt = f"{animation.power}/{animation.toughness}"
    words = "".join(c.value.title() for c in _COLOUR_ORDER if c in animation.colors)
    name = f"Harness Animate {pt}{' ' + words if words else ''}"
    if granted:
        name += " " + " ".join(a.kind.value.title().replace("-", "") for a in granted)
    return PhaseCard(
        name,
        "{0}",
        "Instant",
        f"Until end of turn, target card on the battlefield becomes a {pt} {adjective}creature"
        + (f" with {with_}" if with_ else "")
        + " in addition to its other types.",
        note="harness spell for a type change (a permanent's own animation, 613.1d-f, 613.4b)",
    )
