"""Random scenarios: start states from the built-in cards and legal action sequences.

The generator is written once against a ``Chooser`` (pick an integer, pick from a list) and
runs on two sources of randomness:

* Hypothesis (``HypothesisChooser``): inside property tests (``regen_model.testing``), where
  a failing draw shrinks;
* ``random.Random`` (``RandomChooser``, and ``EdgeChooser`` for a case's shape): the random
  batches (``random_cases``, ``guided.guided_cases``) and the clause-witness search. A batch
  is a function of its seed and options alone: each case has its own ``Random``, seeded with
  the seed and its index, so case ``i`` is the same whatever ran before it in the process,
  whatever the batch size, and whichever Hypothesis version is installed (Hypothesis mixes
  in constants it finds in the loaded modules, so its streams differ between processes).

Each action is drawn among the candidates of ``moves.py`` and run on the reference engine:
an illegal draw is dropped and the walk goes on; when the rules ask a 616.1 question the
answer is drawn too, independently for each player (so the answer of the player who does
*not* choose can differ, which is what exposes an engine asking the wrong player).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from regen_model.conform.case import Case, legal_actions
from regen_model.conform.features import (
    ATTACHMENT_FEATURES,
    COST_FEATURES,
    COUNTED_FEATURES,
    COUNTER_FEATURES,
    DIES_FEATURES,
    LIBRARY_FEATURES,
    MULTI_BLOCK_FEATURES,
    PHASING_FEATURES,
    PREVENTION_FEATURES,
    TARGETING_FEATURES,
    lacked_in,
    transition_features,
)
from regen_model.conform.moves import EFFECT_MOVES, game_moves, replacement_uses, spell_targets
from regen_model.conform.start import Start
from regen_model.engine import EngineError, MissingChoice, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, AbilityKind, CardTemplate
from regen_model.model.derived import controller, givable, is_creature_on_battlefield, sba_pending
from regen_model.model.effects import MAY_KINDS, EffectKind
from regen_model.model.enums import Attachment, CardType, Decision, Edition, Keyword, Rider, Step
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield

T = TypeVar("T")


class Chooser(Protocol):
    def integer(self, lo: int, hi: int) -> int:
        """A value in ``lo..hi`` inclusive, small ones favoured by Hypothesis."""
        ...

    def pick(self, items: Sequence[T]) -> T: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]


class EdgeChooser(RandomChooser):
    """A ``RandomChooser`` that favours the ends of a range, as Hypothesis does: a case's
    shape (how many cards, how much weight each kind of action gets) is where the extreme
    values find bugs (one card alone, no spells at all, only passes)."""

    EDGE_PERCENT = 20

    def integer(self, lo: int, hi: int) -> int:
        if hi > lo and self.rng.randrange(100) < self.EDGE_PERCENT:
            return lo if self.rng.randrange(3) else hi  # the low end twice as often
        return self.rng.randint(lo, hi)


class HypothesisChooser:
    """Draws through Hypothesis: ``draw`` is ``st.data()``'s ``data.draw`` or the ``draw`` of
    an ``@st.composite`` strategy (``regen_model.testing``), so failures shrink."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self._st = st
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        value: int = self.draw(self._st.integers(lo, hi))
        return value

    def pick(self, items: Sequence[T]) -> T:
        value: T = self.draw(self._st.sampled_from(items))
        return value


def chance(c: Chooser, percent: int) -> bool:
    return c.integer(0, 99) < percent


# --- start states ------------------------------------------------------------------------------

REGENERATORS = (
    "Horned Troll",
    "Uthden Troll",
    "River Boa",
    "Drudge Skeletons",
    "Troll Ascetic",
    "Mossbridge Troll",
    "Knight of the Holy Nimbus",
    "Matopi Golem",
    "Skeleton Scavengers",
    "Skithiryx, the Blight Dragon",
)
# Damage prevention (615) is not drawn yet: no adapter maps it, and drawing its spells, its
# card or the unpreventable ability would shift every random case; it reaches other engines
# through the scenario files and the cover witnesses.
# Phasing (702.26) likewise, a creature that can block an additional creature, and the Auras
# and Equipment that grant keywords or abilities or regenerate their host (Regeneration,
# Darksteel Plate, Skeletal Grimace; Bonesplitter, drawn before, still is).
# Issue 13's cards and spells (Suture Spirit, Kill Shot, Asphyxiate, Niall Silvain, Carapace,
# Vigilant Martyr) likewise.
# Fumigate and Disintegrate (issue 13 item 7) too: new spells would shift every random case.
# Onulet (issue 13 item 5, "when this creature dies") too, and Thought Scour and Soldevi
# Sentry (item 2's mill and draw rider), and Counterspell (item 1's countering; not among the
# guided generator's late candidates either, so its streams stay as they were).
_NOT_DRAWN = (
    PREVENTION_FEATURES
    | PHASING_FEATURES
    | MULTI_BLOCK_FEATURES
    | ATTACHMENT_FEATURES
    | TARGETING_FEATURES
    | COST_FEATURES
    | COUNTED_FEATURES
    | DIES_FEATURES
    | LIBRARY_FEATURES
    | COUNTER_FEATURES
)
NOT_DRAWN_KEYWORDS = frozenset({Keyword.UNPREVENTABLE, Keyword.PHASING})
NOT_DRAWN_SPELLS = frozenset(n for n in SPELLS if f"spell:{n}" in _NOT_DRAWN)
OTHERS = tuple(
    name
    for name, t in PERMANENT_CARDS.items()
    if name not in REGENERATORS and t.is_creature and f"card:{name}" not in _NOT_DRAWN
)
ATTACHMENTS = tuple(
    name
    for name, t in PERMANENT_CARDS.items()
    if t.attachment is not Attachment.NONE and f"card:{name}" not in _NOT_DRAWN
)
ORIGINS = ("Death Ward", "Regenerate", "regeneration shield")
SPELL_NAMES = tuple(name for name in SPELLS if name not in NOT_DRAWN_SPELLS)
# Issue 13's features (targeted regeneration and its costs, the counted destruction, the dies
# and tapped triggers, the library's mill and draw), whose cards and spells random starts leave
# out (``_NOT_DRAWN``) and the guided generator adds to a candidate of its own, for an engine
# that has them (``guided.guided_cases``): its own seed leaves the other candidates, and the
# cases of an engine lacking all of them, as they were.
LATE_FEATURES = (
    TARGETING_FEATURES | COST_FEATURES | COUNTED_FEATURES | DIES_FEATURES | LIBRARY_FEATURES
)
# The cards of those features, in the card list's order: the Basilisks' "destroy that creature
# at end of combat" (trigger.eoc-destroy), Fecundity's "may draw" (trigger.dies-draw, draw.*),
# Onulet's and the other dies and tapped triggers, the creatures and Auras whose regeneration
# has a {T}, sacrifice or target (602.2b, 601.2h), Soldevi Sentry's draw rider...
LATE_CARDS = tuple(name for name in PERMANENT_CARDS if f"card:{name}" in LATE_FEATURES)
# ... and their spells: Kill Shot's and Asphyxiate's target status, Fumigate's count,
# Disintegrate's rider and exile, Thought Scour's mill.
LATE_SPELLS = tuple(name for name in SPELLS if f"spell:{name}" in LATE_FEATURES)
# How often a pass that may resolve a "may draw" or a "may gain" (608.2d) carries the answer no
# (``decline``).
DECLINE_PERCENT = 50


def may_on_top(state: GameState) -> bool:
    """The top of the stack is an ability whose effect asks its player "may ...": "that
    player may draw a card" (Fecundity's trigger) or "you may gain N life" (Judge of
    Currents'; ``MAY_KINDS``): a pass may resolve it, and carries that player's answer."""
    top = state.stack[-1] if state.stack else None
    return top is not None and top.effect is not None and top.effect.kind in MAY_KINDS


def _handle(name: str, used: set[str]) -> str:
    base = name.split(",")[0].split()[-1].lower()
    handle = base
    n = 2
    while handle in used:
        handle = f"{base}{n}"
        n += 1
    used.add(handle)
    return handle


# Type changes (``change-type``) are not drawn yet: no adapter maps them, and drawing them would
# shift every random case of the engines that lack them; they reach other engines through the
# scenario files and the cover witnesses.
# Random cases draw neither type changes nor attach effects (their adapters lack them; and
# a kind added here would change the random stream of every case).
EFFECT_KINDS = tuple(
    cls.kind for cls in A.EFFECT_ACTIONS if cls is not A.ChangeType and cls is not A.Attach
)


@dataclass(frozen=True)
class Swarm:
    """The features one random case may use (swarm testing, Groce et al. 2012).

    A case that may do everything rarely does one thing twice; bugs about "the second
    destruction", "after cleanup" or "after a flicker" need exactly that. Each case draws a
    few card names, a few effect kinds and its own mix of game actions, and uses only those.
    """

    cards: tuple[str, ...]
    effects: tuple[str, ...]
    categories: tuple[str, ...]
    spells: tuple[str, ...] = SPELL_NAMES  # what "cast" picks from (not drawn)
    # the Auras and Equipment a start may attach, and how often it attaches one (not drawn: a
    # late candidate with an Aura of its own attaches that one every time)
    attachments: tuple[str, ...] = ATTACHMENTS
    attach_percent: int = 25
    # the most cards a library of a start that uses one gets (not drawn: a late candidate's
    # libraries are larger, so that Thought Scour's draw after its mill of two can find a card)
    library: int = 2


def drawable(case: Case) -> bool:
    """A case random walks may continue: it uses no effect kind they leave out (a clause
    witness of a type change is not continued, so the random cases built on the witnesses
    stay what they were)."""
    if any(
        c.animated
        or c.noncreature
        or c.prevent_next
        or c.prevent_all
        or c.phased_out
        or c.exile_if_dies
        or c.remove_damage
        for c in case.start.cards
    ):
        return False
    if any(isinstance(a, A.CastSpell) and a.name in NOT_DRAWN_SPELLS for a in case.actions):
        return False
    if any(f"card:{c.template.name}" in _NOT_DRAWN for c in case.start.cards):
        return False
    return not any(
        isinstance(a, A.ChangeType | A.Attach)
        or (isinstance(a, A.ActivateAbility) and a.target is not None)  # equip, targeted
        for a in case.actions
    )


def draw_swarm(c: Chooser, passes: int = 4) -> Swarm:
    """A swarm; ``passes``: the most weight passing priority can get (the turn moves on)."""
    names = tuple(
        dict.fromkeys(
            c.pick(c.pick((REGENERATORS, REGENERATORS, OTHERS))) for _ in range(c.integer(1, 3))
        )
    )
    effects = tuple(k for k in EFFECT_KINDS if chance(c, 35)) or (c.pick(EFFECT_KINDS),)
    categories: list[str] = []
    for name, hi in (("pass", passes), ("cast", 2), ("activate", 2), ("effect", 4)):
        categories += [name] * c.integer(1 if name == "pass" else 0, hi)
    return Swarm(names, effects, tuple(categories))


# The card vocabulary a custom card is built from (``custom_template``): the model's own types,
# keywords and abilities, so a card type or keyword added to the model is drawn with no change here.
CUSTOM_TYPES: tuple[frozenset[CardType], ...] = (
    frozenset({CardType.CREATURE}),
    frozenset({CardType.ARTIFACT, CardType.CREATURE}),
    frozenset({CardType.LAND, CardType.CREATURE}),  # a printed land creature (Dryad Arbor)
    frozenset({CardType.ENCHANTMENT, CardType.CREATURE}),
)
_CUSTOM_KEYWORDS = tuple(
    k for k in Keyword if k is not Keyword.UMBRA_ARMOR and k not in NOT_DRAWN_KEYWORDS
)
_GRANTED_KEYWORDS = [k for k in Keyword if k not in NOT_DRAWN_KEYWORDS]
# A custom creature's abilities: a manland's own animation (and what it grants) belongs to a
# noncreature card with an animation, so it is left out.
_CUSTOM_ABILITIES = tuple(
    dict.fromkeys(
        a
        for t in PERMANENT_CARDS.values()
        for a in t.abilities
        if not a.opponent_only and not a.granted and a.kind is not AbilityKind.ANIMATE_SELF
    )
)


def custom_template(c: Chooser, index: int) -> CardTemplate:
    """A creature card that is in no set: types, power, toughness, keywords, static
    regeneration and activated abilities drawn from the model's vocabulary. Built-in cards
    combine these in a few fixed ways; bugs hide in the others (an indestructible creature
    with a regeneration ability, a land creature)."""
    keywords = frozenset(k for k in _CUSTOM_KEYWORDS if chance(c, 12))
    abilities = (c.pick(_CUSTOM_ABILITIES),) if chance(c, 45) else ()
    types = c.pick(CUSTOM_TYPES)
    words = [w.value for w in sorted(types)] + sorted(k.value for k in keywords)
    return CardTemplate(
        name=f"Custom {index}",
        types=types,
        power=c.integer(0, 4),
        toughness=c.integer(1, 4),
        keywords=keywords,
        static_regeneration=chance(c, 15),
        abilities=abilities,
        text="generated card: " + ", ".join(words),
    )


@dataclass(frozen=True)
class Focus:
    """A combination a start is drawn for (``guided.py`` picks the ones not reached yet): one
    card with ``keyword``, the rule ``edition``, and the ``step`` the game starts in."""

    keyword: Keyword | None
    edition: Edition
    step: Step
    types: frozenset[CardType] | None = None  # the extra card is a custom one of these types
    state: str = ""  # a field of the extra card's state set at the start (``START_FIELDS``)
    aim: Step | None = None  # the step the walk hurries to (passing priority) before playing


# How often a focused walk passes priority while the game is before the step it aims at.
HURRY = 75


# The fields of a card's state a focused start can set on its extra card (``with_state``), and
# ``lethal-damage``: damage equal to its toughness, which only a creature no state-based action
# destroys can have at a start (702.12b: an indestructible one keeps it into the cleanup step).
START_FIELDS = (
    "tapped",
    "damage",
    "lethal-damage",
    "deathtouched",
    "plus",
    "minus",
    "shield_counters",
    "cant_regen",
    "shields",
)


def with_state(c: Chooser, spec: CardSpec, field: str) -> CardSpec:
    """``spec`` with ``field`` (one of ``START_FIELDS``) set: a flag on, a counter or a plain
    shield of its controller, some damage short of lethal, or lethal damage. The caller checks
    the start is one a game can be in (``draw_start``)."""
    toughness = spec.template.toughness
    if field == "shields":
        controller = spec.owner if spec.controller is None else spec.controller
        return replace(spec, shields=(Shield(c.pick(ORIGINS), controller, Rider.NONE),))
    if field == "damage":
        return replace(spec, damage=c.integer(1, max(1, toughness - 1)))
    if field == "lethal-damage":
        return replace(spec, damage=toughness)
    if field == "tapped":
        return replace(spec, tapped=True)
    if field == "deathtouched":
        return replace(spec, deathtouched=True)
    if field == "cant_regen":
        return replace(spec, cant_regen=True)
    if field == "plus":
        return replace(spec, plus=1)
    if field == "minus":
        return replace(spec, minus=1) if toughness > 1 else spec
    if field == "shield_counters":
        return replace(spec, shield_counters=1)
    raise ValueError(f"not a start field: {field}")


# Effects a focused case may always use: the ones regeneration is about.
FOCUS_EFFECTS = ("deal-damage", "create-shield", "destroy", "make-unregenerable")


def keyword_cards(keyword: Keyword, lacks: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The built-in creature cards with ``keyword`` printed on them (read off the card list)."""
    return tuple(
        name
        for name, t in PERMANENT_CARDS.items()
        if t.is_creature and keyword in t.keywords and f"card:{name}" not in lacks
    )


def _draw_card(c: Chooser, template: CardTemplate, used: set[str]) -> CardSpec:
    """A card of a random start: its owner and controller, and some state (damage short of
    lethal, shields, counters, "can't be regenerated"...) each now and then."""
    owner = c.integer(0, 1)
    controller = 1 - owner if chance(c, 10) else None
    damage = c.integer(0, max(0, template.toughness - 1)) if chance(c, 25) else 0
    shields: list[Shield] = []
    for _ in range(c.integer(0, 2) if chance(c, 40) else 0):
        shields.append(
            Shield(c.pick(ORIGINS), owner if controller is None else controller, Rider.NONE)
        )
    return CardSpec(
        handle=_handle(template.name, used),
        template=template,
        owner=owner,
        controller=controller,
        tapped=chance(c, 15),
        damage=damage,
        plus=1 if chance(c, 10) else 0,
        minus=1 if template.toughness > 1 and chance(c, 10) else 0,
        shield_counters=1 if chance(c, 8) else 0,
        shields=tuple(shields),
        cant_regen=chance(c, 8),
        granted=frozenset({c.pick(_GRANTED_KEYWORDS)}) if chance(c, 8) else frozenset(),
    )


def draw_start(
    c: Chooser,
    swarm: Swarm,
    max_cards: int = 4,
    custom: int = 0,
    focus: Focus | None = None,
    lacks: frozenset[str] = frozenset(),
) -> Start:
    """A random start: built-in cards from the swarm, and with ``custom`` > 0 that percentage of
    the cards built by ``custom_template`` instead. With ``focus``, its edition and step, and one
    more card with its keyword (a built-in card that has it, else a custom one)."""
    edition = c.pick(list(Edition)) if focus is None else focus.edition
    used: set[str] = set()
    cards: list[CardSpec] = []
    for k in range(c.integer(1, max_cards)):
        template = PERMANENT_CARDS[c.pick(swarm.cards)]
        if custom and chance(c, custom):
            template = custom_template(c, k + 1)
        cards.append(_draw_card(c, template, used))
    creatures = [x.handle for x in cards]
    if creatures and chance(c, swarm.attach_percent):
        name = c.pick(swarm.attachments)
        cards.append(
            CardSpec(
                handle=_handle(name, used),
                template=PERMANENT_CARDS[name],
                owner=c.integer(0, 1),
                attached_to=c.pick(creatures),
            )
        )
    extra: CardTemplate | None = None
    if focus is not None and focus.types is not None and custom:
        extra = replace(custom_template(c, len(cards) + 1), types=focus.types)
    if focus is not None and focus.keyword is not None:
        names = keyword_cards(focus.keyword, lacks)
        if names:
            extra = PERMANENT_CARDS[c.pick(names)]
        elif custom:
            extra = replace(custom_template(c, len(cards) + 1), keywords=frozenset({focus.keyword}))
    if extra is not None:  # drawn like the others (its state too), then given the focus's field
        cards.append(_draw_card(c, extra, used))
    step_ = c.pick((Step.MAIN1, Step.MAIN1, Step.BEGIN_COMBAT, Step.BEGIN_COMBAT, Step.END))
    if focus is not None:
        step_ = focus.step
    active = c.integer(0, 1)
    life = (20, 20) if chance(c, 85) else (c.integer(1, 4), c.integer(1, 4))
    # libraries only with a card that draws or a spell that mills or draws (Fecundity,
    # Soldevi Sentry, Thought Scour: never drawn by the first pass), so the random cases
    # without one stay what they were (121.1, 701.17a)
    library = (0, 0)
    if any(_uses_library(x.template) for x in cards) or any(
        SPELLS[n].effect.kind is EffectKind.MILL for n in swarm.spells if n in SPELLS
    ):
        library = (c.integer(0, swarm.library), c.integer(0, swarm.library))
    start = Start(("A", "B"), tuple(cards), edition, 1, active, step_, active, life, library)
    if focus is None or not focus.state or extra is None:
        return start
    return _focus_state(c, start, focus.state)


def _uses_library(template: CardTemplate) -> bool:
    """A card whose abilities draw: Fecundity's trigger, Soldevi Sentry's rider."""
    return bool(template.dies_draw) or any(
        a.rider is Rider.OPPONENT_MAY_DRAW for a in template.abilities
    )


def _focus_state(c: Chooser, start: Start, field: str) -> Start:
    """``start`` with ``field`` set on its last card (the focus's), unless that makes a
    state-based action pending that was not (a player has priority only after the checks,
    117.5): then lethal damage becomes damage short of it and another field is left unset."""
    *rest, last = start.cards
    focused = replace(start, cards=(*rest, with_state(c, last, field)))
    if not sba_pending(focused.build()) or sba_pending(start.build()):
        return focused
    if field == "lethal-damage" and last.template.toughness > 1:
        return replace(start, cards=(*rest, replace(last, damage=last.template.toughness - 1)))
    return start


# --- action sequences ------------------------------------------------------------------------------


def _before(state: GameState, aim: Step | None, turn: int) -> bool:
    """The game has not reached ``aim`` yet this turn (steps in turn order, 500.1)."""
    return (
        aim is not None
        and state.turn == turn
        and list(Step).index(state.step) < list(Step).index(aim)
    )


def _candidates(
    c: Chooser, state: GameState, swarm: Swarm, aim: Step | None = None, turn: int = 0
) -> list[A.Action]:
    if state.decision is not Decision.NONE:
        return game_moves(state)
    category = c.pick(swarm.categories)
    if _before(state, aim, turn) and chance(c, HURRY):
        category = "pass"
    if category == "effect":
        # Pick the kind of effect first: there are many damage variants and one cleanup.
        return EFFECT_MOVES[c.pick(swarm.effects)](state)
    p = state.priority
    if p is None:
        return []
    if category == "cast":  # the spell first, so spells with many targets are not favoured
        name = c.pick(swarm.spells)
        spell = SPELLS[name]
        return [spell.cast(p, t) for t in spell_targets(state, name)]
    if category == "activate":
        # the printed abilities, then one an attachment may give (613.1f): only on boards
        # with a card that gives one, so the other boards draw what they drew before
        given = 1 if givable(state) else 0
        sources = [
            (state.setup.handles[x.slot], len(state.setup.templates[x.slot].abilities) + given)
            for x in state.cards
            if x.on_battlefield and (state.setup.templates[x.slot].abilities or given)
        ]
        if sources:
            return [
                A.ActivateAbility(player=who, source=h, ability=i, target=t, sacrifice=s)
                for h, n in sources
                for i in range(n)
                for who in (0, 1)
                for t in _ability_targets(state, h, i, who)
                for s in _sacrifices(state, h, i, who)
            ]
    return [A.PassPriority(player=p)]


def _ability_targets(state: GameState, handle: str, index: int, who: int) -> list[str | None]:
    """An equip ability's targets: the creatures ``who`` controls (702.6a); "Regenerate
    target creature"'s: every creature (602.2b); the other abilities have none."""
    abilities = state.template(state.setup.slot_of(handle)).abilities
    if index >= len(abilities):  # one an attachment gives: "Regenerate this creature"
        return [None]
    if abilities[index].kind is AbilityKind.REGENERATE_TARGET:
        return [
            state.setup.handles[c.slot] for c in state.cards if is_creature_on_battlefield(state, c)
        ]
    if abilities[index].kind is AbilityKind.REMOVE_DAMAGE_TARGET:  # Pyramids: target land
        return [
            state.setup.handles[c.slot]
            for c in state.cards
            if c.on_battlefield and CardType.LAND in state.template(c.slot).types
        ]
    if abilities[index].kind is not AbilityKind.EQUIP:
        return [None]
    return [
        state.setup.handles[c.slot]
        for c in state.cards
        if is_creature_on_battlefield(state, c) and controller(c) == who
    ]


def _sacrifices(state: GameState, handle: str, index: int, who: int) -> list[str | None]:
    """The creatures ``who`` may sacrifice to pay a "Sacrifice a creature" cost (601.2h,
    701.21a: only their own); ``[None]`` for an ability without that cost."""
    abilities = state.template(state.setup.slot_of(handle)).abilities
    if index >= len(abilities) or not abilities[index].sacrifice_creature:
        return [None]
    return [
        state.setup.handles[c.slot]
        for c in state.cards
        if is_creature_on_battlefield(state, c) and controller(c) == who
    ]


def _use_class(state: GameState, handle: str, use: str) -> tuple[object, ...]:
    """Answers with the same outcome: plain shields are interchangeable (as in the engine's
    616.1 classes), a shield with a rider differs by rider and beneficiary."""
    if use.startswith("shield#"):
        shield = state.card(handle).shields[int(use[7:]) - 1]
        if shield.rider is Rider.NONE:
            return ("shield",)
        return ("shield", shield.rider, shield.creator)
    return (use,)


def draw_choices(c: Chooser, state: GameState) -> tuple[A.ReplacementChoice, ...]:
    """A 616.1 answer from each player for every permanent that could need one. The two
    players give answers with different outcomes whenever there are two: only one of them is
    asked by the rules, and an engine that asks the other one then visibly does otherwise."""
    out = []
    for card in state.cards:
        if not card.on_battlefield:
            continue
        handle = state.setup.handles[card.slot]
        uses = replacement_uses(state, handle)
        classes: dict[tuple[object, ...], list[str]] = {}
        for use in uses:
            classes.setdefault(_use_class(state, handle, use), []).append(use)
        if len(uses) < 2:
            continue
        groups = list(classes.values())
        if len(groups) >= 2:
            first = c.integer(0, len(groups) - 1)
            second = (first + c.integer(1, len(groups) - 1)) % len(groups)
            answers = (c.pick(groups[first]), c.pick(groups[second]))
        else:
            answers = (c.pick(uses), c.pick(uses))
        out.append(A.ReplacementChoice(handle, 0, answers[0]))
        out.append(A.ReplacementChoice(handle, 1, answers[1]))
    return tuple(out)


@dataclass
class Walk:
    """A walk in progress: its actions so far and the reference state they reach."""

    state: GameState
    actions: list[A.Action]
    clauses: dict[str, None]
    # each step taken: the state before it and its events (the clause witnesses' search reads
    # its goals from these instead of running the walk again, ``witness._walk_goals``)
    trail: list[tuple[GameState, tuple[Event, ...]]] = field(default_factory=list)


def draw_actions(
    c: Chooser,
    state: GameState,
    swarm: Swarm,
    max_steps: int,
    rules: Rules = CORRECT,
    *,
    tries: int = 6,
    lacks: frozenset[str] = frozenset(),
    aim: Step | None = None,
) -> Walk:
    """Up to ``max_steps`` legal actions from ``state`` (each draw retried a few times).

    With ``lacks`` (features an engine declares it lacks, ``features.py``), an action whose
    transition would use one of them is dropped like an illegal one, so the walk stays inside
    what the engine can do. With ``aim``, the walk mostly passes priority until the game is in
    that step (of the start's turn), then plays as usual: a combination a focused start is
    drawn for happens in that step, and a walk that wanders through the steps before it rarely
    gets there with anything left to do."""
    walk = Walk(state, [], {})
    for _ in range(c.integer(1, max_steps)):
        for _ in range(tries):
            moves = _candidates(c, walk.state, swarm, aim, state.turn)
            if not moves:
                break
            action = c.pick(moves)
            if (
                isinstance(action, A.PassPriority)
                and may_on_top(walk.state)
                and chance(c, DECLINE_PERCENT)
            ):
                # the answer no to the "may draw" or "may gain" the pass may resolve
                # (608.2d); drawn only here, so the walks without such an ability draw what
                # they drew before
                action = replace(action, decline=True)
            try:
                res = step(walk.state, action, rules)
            except MissingChoice:
                action = replace(action, choices=draw_choices(c, walk.state))
                try:
                    res = step(walk.state, action, rules)
                except EngineError:
                    continue
            except EngineError:
                continue
            if lacks and lacked_in(
                transition_features((walk.state, action, res.state, res.events)), lacks
            ):
                continue
            walk.trail.append((walk.state, res.events))
            walk.state = res.state
            walk.actions.append(action)
            for e in res.events:
                walk.clauses.setdefault(e.clause, None)
            break
        if any(p.lost for p in walk.state.players):
            break
    return walk


def settle(
    state: GameState,
    rules: Rules = CORRECT,
    limit: int = 8,
    lacks: frozenset[str] = frozenset(),
    chooser: Chooser | None = None,
) -> list[A.Action]:
    """Actions that let pending consequences show: waiting triggers go on the stack and the
    stack resolves (both players pass), so a trigger's effect becomes observable. With a
    ``chooser`` a pass that may resolve a "may draw" or a "may gain" answers no as often as a
    walk's does (``DECLINE_PERCENT``; drawn only then); without one every answer is yes."""
    out: list[A.Action] = []
    if state.pending:
        check = A.CheckStateBasedActions()
        try:
            res = step(state, check, rules)
        except EngineError:  # a 616.1 question in the check: leave it to the walk
            return out
        if lacks and lacked_in(transition_features((state, check, res.state, res.events)), lacks):
            return out
        out.append(check)
        state = res.state
    while state.stack and state.priority is not None and len(out) < limit:
        action = A.PassPriority(player=state.priority)
        if chooser is not None and may_on_top(state) and chance(chooser, DECLINE_PERCENT):
            action = replace(action, decline=True)
        try:
            res = step(state, action, rules)
        except EngineError:  # a 616.1 question while resolving: leave it to the walk
            break
        if lacks and lacked_in(transition_features((state, action, res.state, res.events)), lacks):
            break
        out.append(action)
        state = res.state
    return out


def draw_case(
    c: Chooser,
    name: str,
    origin: str,
    max_steps: int = 20,
    corpus: Sequence[Case] = (),
    walker: Chooser | None = None,
    *,
    lacks: frozenset[str] = frozenset(),
    custom: int = 0,
    focus: Focus | None = None,
    extra_effects: tuple[str, ...] = (),
    spells: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
    attach: tuple[str, ...] = (),
    library: int | None = None,
) -> tuple[Case, Walk]:
    """A fresh random case, or (half the time, given a corpus) a random continuation of a
    corpus case: starting from the clause witnesses' states reaches situations that fresh
    walks rarely do (a second destruction after a regeneration, a flicker after a shield).
    ``walker`` draws the start's details and the walk's actions (default: ``c``).

    With ``lacks``, the case stays inside the features the engine has (``features.py``): a
    start that uses a lacked feature is drawn again (a few times), and the walk drops actions
    that would use one. The corpus must already be inside (the caller filters it).
    ``extra_effects``: effect kinds the walk may use besides the swarm's (clause witnesses);
    ``spells``: the only spells it casts, and it casts some (clause witnesses of spells random
    cases do not draw); ``cards``: built-in cards the start may use besides the swarm's (those
    random cases do not draw: a phasing creature); ``attach``: the Auras or Equipment the start
    attaches one of to one of its cards, always (a late candidate's Carapace, ``guided.py``);
    ``library``: the most cards each library gets when the start uses libraries (default 2)."""
    swarm = draw_swarm(c)
    if lacks:  # cards the engine lacks are not drawn (the start would be left out)
        usable = tuple(n for n in swarm.cards if f"card:{n}" not in lacks)
        swarm = replace(swarm, cards=usable or ("Grizzly Bears",))
    if focus is not None:
        swarm = replace(swarm, effects=tuple(dict.fromkeys((*swarm.effects, *FOCUS_EFFECTS))))
    if extra_effects:  # no draw: the random stream of the case stays as it was
        swarm = replace(swarm, effects=tuple(dict.fromkeys((*swarm.effects, *extra_effects))))
    if spells:
        swarm = replace(swarm, spells=spells, categories=(*swarm.categories, "cast", "cast"))
    if cards:
        swarm = replace(swarm, cards=tuple(dict.fromkeys((*swarm.cards, *cards))))
    if attach:  # no draw: the stream is the one of a case that attaches one at the start
        swarm = replace(swarm, attachments=attach, attach_percent=100)
    if library is not None:  # no draw either
        swarm = replace(swarm, library=library)
    prefix: tuple[A.Action, ...] = ()
    w = walker or c
    corpus = [x for x in corpus if drawable(x)]
    if corpus and chance(c, 50):
        base = c.pick(corpus)
        start, prefix = base.start, legal_actions(base)
        origin = f"{origin} from {base.name}"
    else:
        start = draw_start(w, swarm, custom=custom, focus=focus, lacks=lacks)
        for _ in range(START_TRIES if lacks else 0):
            if not lacked_in(transition_features((None, None, start.build(), ())), lacks):
                break
            start = draw_start(w, swarm, custom=custom, focus=focus, lacks=lacks)
        else:
            if lacks:  # no luck: the same cards with every field at its default, fewer if need be
                plain = tuple(CardSpec(c.handle, c.template, c.owner) for c in start.cards)
                start = replace(start, cards=plain)
                while len(start.cards) > 1 and lacked_in(
                    transition_features((None, None, start.build(), ())), lacks
                ):
                    start = start.without(start.cards[-1].handle)
    state = start.build()
    for action in prefix:
        state = step(state, action).state
    aim = focus.aim if focus is not None and not prefix else None
    walk = draw_actions(w, state, swarm, max_steps, lacks=lacks, aim=aim)
    tail = settle(walk.state, lacks=lacks, chooser=w)
    return Case(name, start, (*prefix, *walk.actions, *tail), origin), walk


START_TRIES = 12


def random_cases(n: int, seed: int, max_steps: int = 20, corpus: Sequence[Case] = ()) -> list[Case]:
    """``n`` random cases under ``seed``, half of them continuing a corpus case when one is
    given. Case ``i`` depends only on ``seed``, ``i``, ``max_steps`` and the corpus: its shape
    (the swarm, whether and which corpus case it continues) is drawn by an ``EdgeChooser``
    and the many small picks of its start and walk by a ``RandomChooser``, each seeded with
    ``seed`` and ``i``; so ``random_cases(300, s)[:25] == random_cases(25, s)``, in any
    process."""
    out: list[Case] = []
    for i in range(n):
        case, _ = draw_case(
            EdgeChooser(random.Random(f"random:{seed}:{i}:shape")),
            f"random-{seed}-{i}",
            f"random:seed={seed}#{i}",
            max_steps,
            corpus,
            walker=RandomChooser(random.Random(f"random:{seed}:{i}:walk")),
        )
        out.append(case)
    return out


__all__ = [
    "Chooser",
    "EdgeChooser",
    "HypothesisChooser",
    "RandomChooser",
    "draw_case",
    "random_cases",
]
