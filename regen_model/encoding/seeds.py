"""Seed runs for the agreement check: where the searches start when they must reach a branch.

A breadth-first search from preset boards only meets what a few steps from those boards
reach; the branches it never exercises are where a difference between the views goes
unnoticed (``branches.py`` measures them). So the agreement check also starts from *seed
runs*: engine runs from a legal start (``system.legal_start``: priority with an empty stack,
nothing in combat, no state-based action pending; permanents may be tapped, damaged, under
another player's control, with unused shields made by either player) that drive the game
into the situations the rules care about, each played on the engine when it is loaded, so a
seed is reachable by construction. Every state along a seed is then searched from
(``bounded.py``). Sources, by name (``SOURCES``):

* ``scripts``: the runs written below, one per situation the preset boards lack (board
  wipes with riders, control changes in combat, triggers of both players at once, shields
  made by another player, spells of every effect kind, fizzling, the next turn's untap
  step, wither and infect with deathtouch, ...);
* ``cover-scripts``: the scripted guide runs of the cover check (``checks.cover``), each
  written to witness a clause branch;
* ``cover-guides``: the cover check's explorer runs, the shortest engine run whose last step
  cites each clause (some seconds to compute; the ``full`` preset only);
* ``cover-witnesses``: the cover check's witness of every clause branch of the relation,
  from those guide runs or found by the solver (bounded model checking), replayed on the
  engine (a minute or more; the ``full`` preset only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from regen_model.encoding.bounded import Seed
from regen_model.encoding.scope import Scope
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, CardTemplate
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import CardType, CounterKind, DiesWatch, Edition, Keyword, Rider, Step
from regen_model.model.state import GameState, Shield

PLAYERS = ("A", "B")


@dataclass(frozen=True)
class Card:
    """A permanent of a script's start (see ``model.build.CardSpec``); ``shields`` are
    unused shields made this turn, as (creator, rider) pairs."""

    handle: str
    name: str
    owner: int
    controller: int | None = None
    tapped: bool = False
    damage: int = 0
    shields: tuple[tuple[int, Rider], ...] = ()
    cant_regen: bool = False
    attached_to: str | None = None
    sick: bool = False  # came under its controller's control this turn (302.6)
    template: CardTemplate | None = None  # an inline card instead of the built-in ``name``

    def spec(self) -> CardSpec:
        return CardSpec(
            self.handle,
            PERMANENT_CARDS[self.name] if self.template is None else self.template,
            self.owner,
            controller=self.controller,
            tapped=self.tapped,
            damage=self.damage,
            attached_to=self.attached_to,
            shields=tuple(Shield(_ORIGIN[r], c, r) for c, r in self.shields),
            cant_regen=self.cant_regen,
            sick=self.sick,
        )


_ORIGIN = {
    Rider.NONE: "Regenerate",
    Rider.GAIN_CONTROL: "Debt of Loyalty",
    Rider.MINUS_COUNTER: "Matopi Golem",
    Rider.PLUS_COUNTER: "Skeleton Scavengers",
}


@dataclass(frozen=True)
class Script:
    """A seed written out: why it exists, a legal start and the actions played on it."""

    name: str
    why: str
    cards: tuple[Card, ...]
    actions: tuple[A.Action, ...]
    edition: Edition = Edition.FDN
    step: Step = Step.MAIN1
    life: tuple[int, int] = (20, 20)
    library: tuple[int, int] = (0, 0)  # cards in each player's library (121.1)
    active: int = 0
    also: tuple[Edition, ...] = field(default=())  # the same run in these editions too
    tried: tuple[tuple[int, A.Action], ...] = ()  # (after how many actions, one more action)

    def starts(self) -> list[tuple[str, GameState]]:
        out = []
        for edition in (self.edition, *self.also):
            start = make_state(
                PLAYERS,
                [c.spec() for c in self.cards],
                edition=edition,
                step=self.step,
                active=self.active,
                priority=self.active,
                life=self.life,
                library=self.library,
            )
            out.append((f"{self.name} ({edition.value})" if self.also else self.name, start))
        return out


def play(
    name: str,
    start: GameState,
    actions: Sequence[A.Action],
    tried: Sequence[tuple[int, A.Action]] = (),
) -> Seed:
    """``actions`` played on the engine from ``start`` (an illegal one raises
    ``EngineError``: a seed that no longer plays is a bug to fix, never skipped)."""
    states = [start]
    for action in actions:
        states.append(step(states[-1], action).state)
    return Seed(name, tuple(states), tuple(actions), tuple(tried))


def _pass(*players: int) -> tuple[A.Action, ...]:
    return tuple(A.PassPriority(player=p) for p in players)


def _cast(player: int, spell: str, *targets: str | int) -> A.CastSpell:
    return SPELLS[spell].cast(
        player,
        tuple(
            A.TargetChoice(player=t) if isinstance(t, int) else A.TargetChoice(card=t)
            for t in targets
        ),
    )


_UNPREVENTABLE = frozenset({Keyword.UNPREVENTABLE})


def _prevent(player: int, target: str, *, every: bool = False) -> A.Action:
    """A spell preventing the next 2 damage (``every``: all damage) to ``target`` this turn."""
    from regen_model.checks.cover import prevent_spell

    return prevent_spell(target, every, player)


def _attack(player: int, *attackers: str) -> A.DeclareAttackers:
    return A.DeclareAttackers(player=player, attackers=attackers)


def _block(player: int, *blocks: tuple[str, str]) -> A.DeclareBlockers:
    return A.DeclareBlockers(player=player, blocks=blocks)


def _damage(source: str, amount: int, *to: str | int, **kw: object) -> A.DealDamage:
    shares = tuple(
        A.DamageShare(amount=amount, player=t) if isinstance(t, int) else A.DamageShare(amount, t)
        for t in to
    )
    return A.DealDamage(source=source, shares=shares, **kw)  # type: ignore[arg-type]


# A creature with "whenever a creature dies, each opponent loses 1 life and you gain 1 life"
# (no built-in card has it untargeted): the ``DiesWatch.ANY`` form of trigger.creature-dies.
_ANY_WATCHER = CardTemplate(
    "Any Watcher",
    frozenset({CardType.CREATURE}),
    1,
    1,
    dies_watch=DiesWatch.ANY,
    dies_drain=1,
)

GC, MINUS, PLUS, PLAIN = Rider.GAIN_CONTROL, Rider.MINUS_COUNTER, Rider.PLUS_COUNTER, Rider.NONE
_EDITIONS = (Edition.M10, Edition.PRE_M10)


def _turn(active: int, *, declares: bool) -> tuple[A.Action, ...]:
    """From the active player's first main phase with an empty stack to the next turn's first
    main phase: passes through every step, declaring no attackers when they could attack."""
    a, o = active, 1 - active
    nobody = (A.DeclareAttackers(player=a, attackers=()),) if declares else ()
    return (*_pass(a, o), *_pass(a, o), *nobody, *_pass(a, o) * 4, *_pass(o, a) * 2)


def scripts() -> tuple[Script, ...]:
    """The written seeds (module docstring)."""
    troll = Card("troll", "Horned Troll", 0)
    bears = Card("bears", "Grizzly Bears", 1)
    skeletons = (Card("s1", "Drudge Skeletons", 0), Card("s2", "Drudge Skeletons", 0))
    to_blocks = (*_pass(0, 1), A.DeclareAttackers(player=0, attackers=("s1", "s2")), *_pass(0, 1))
    return (
        Script(
            "multi-block",
            "a creature that can block an additional creature blocks two attackers (509.1a): "
            "declaring one attacker twice or three times is refused; under M10 its damage "
            "follows its order (510.1d of 2009-2024), it divides 1 and 1 and both attackers die, "
            "the second after the first has left combat (combat.removal.multi-blocked)",
            (*skeletons, Card("brigade", "Foriysian Brigade", 1)),
            (
                *to_blocks,
                A.DeclareBlockers(player=1, blocks=(("brigade", "s1"), ("brigade", "s2"))),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("brigade", (("s1", 1), ("s2", 1))),)
                ),
                *_pass(0, 1),
            ),
            edition=Edition.M10,
            step=Step.BEGIN_COMBAT,
            also=(Edition.FDN, Edition.PRE_M10),
            tried=(
                (5, A.DeclareBlockers(player=1, blocks=(("brigade", "s1"), ("brigade", "s1")))),
                (
                    5,
                    A.DeclareBlockers(
                        player=1,
                        blocks=(("brigade", "s1"), ("brigade", "s2"), ("brigade", "s1")),
                    ),
                ),
                (
                    8,
                    A.AssignCombatDamage(
                        player=0, divisions=(A.Division("brigade", (("s2", 2),)),)
                    ),
                ),
            ),
        ),
        Script(
            "block-one-only",
            "a creature without the ability can't be declared blocking two attackers (509.1a)",
            (*skeletons, bears),
            (*to_blocks, A.DeclareBlockers(player=1, blocks=(("bears", "s1"),))),
            step=Step.BEGIN_COMBAT,
            tried=((5, A.DeclareBlockers(player=1, blocks=(("bears", "s1"), ("bears", "s2")))),),
        ),
        Script(
            "phasing",
            "phasing (702.26): a creature with a shield phases out by a spell and is left alone by "
            "damage to each creature, cleanup ends its shield while it is phased out, it phases in "
            "in its controller's untap step; a creature with phasing phases out in its "
            "controller's untap step with its Aura, and both phase in two turns later",
            (
                Card("raiders", "Merfolk Raiders", 0),
                Card("strength", "Holy Strength", 0, attached_to="raiders"),
                Card("troll", "Horned Troll", 1, shields=((1, PLAIN),)),
            ),
            (
                _cast(0, "Galadriel's Dismissal", "troll"),
                *_pass(0, 1),
                _cast(0, "Pyroclasm"),
                *_pass(0, 1),
                *_turn(0, declares=True),
                *_turn(1, declares=True),
                *_turn(0, declares=False),
                *_turn(1, declares=True),
            ),
        ),
        Script(
            "phasing-in-combat",
            "a blocked attacker phases out (removed from combat, 506.4; its blocker blocks "
            "nothing and deals no damage), then the blocker phases out with its shield",
            (
                Card("giant", "Hill Giant", 0),
                Card("troll", "Horned Troll", 1, shields=((1, PLAIN),)),
            ),
            (
                *_pass(0, 1),
                _attack(0, "giant"),
                *_pass(0, 1),
                _block(1, ("troll", "giant")),
                _cast(0, "Galadriel's Dismissal", "giant"),
                *_pass(0, 1),
                _cast(0, "Galadriel's Dismissal", "troll"),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "prevention",
            "prevention effects (615) within the agreement scope (spells of 2, three cards): a "
            "prevent-the-next-2 shield used up over two damage events with deathtouch and "
            "lifelink, prevent-all, unpreventable damage meeting it and a shield counter, two "
            "shares against one shield, the effects ending at cleanup",
            (
                Card("troll", "Horned Troll", 1, shields=((1, PLAIN),)),
                Card("hawk", "Vampire Nighthawk", 0),
                Card("giant", "Hill Giant", 1),
            ),
            (
                _prevent(0, "troll"),
                *_pass(0, 1),
                _damage("hawk", 1, "troll"),
                _damage("hawk", 2, "troll"),
                A.CheckStateBasedActions(),
                _prevent(0, "troll", every=True),
                *_pass(0, 1),
                _damage("hawk", 2, "troll"),
                _damage("effect", 2, "troll", keywords=_UNPREVENTABLE),
                A.AddCounters(target="giant", counter=CounterKind.SHIELD),
                _damage("effect", 1, "giant", keywords=_UNPREVENTABLE),
                _prevent(0, "giant"),
                *_pass(0, 1),
                _damage("hawk", 2, "giant", "giant"),
                _prevent(0, "hawk"),
                *_pass(0, 1),
                _prevent(0, "hawk", every=True),
                *_pass(0, 1),
                A.Cleanup(),
            ),
            also=(Edition.PRE_M10,),
        ),
        Script(
            "double-striker-regenerated",
            "a double striker regenerated in the first-strike damage step: removed from combat, "
            "it does not strike again in the regular step (702.4b, 506.4); and a lifelinker's "
            "damage prevented by a shield counter (615.6)",
            (
                Card("blade", "Boros Swiftblade", 0, shields=((0, PLAIN),)),
                Card("hawk", "Vampire Nighthawk", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "blade"),
                *_pass(0, 1),
                _block(1),
                *_pass(0, 1),
                A.Destroy(targets=("blade",)),
                *_pass(0, 1),
                A.AddCounters(target="blade", counter=CounterKind.SHIELD),
                _damage("hawk", 2, "blade"),
            ),
            step=Step.BEGIN_COMBAT,
            also=(Edition.M10,),
        ),
        Script(
            "wrath-with-riders",
            "a board wipe that can't be regenerated (701.19c), with shields of every rider",
            (
                Card("troll", "Horned Troll", 0, shields=((1, GC),)),
                Card("golem", "Matopi Golem", 1, shields=((1, MINUS),)),
                Card("scav", "Skeleton Scavengers", 0, shields=((0, PLUS),)),
            ),
            (_cast(0, "Wrath of God"), *_pass(0, 1)),
        ),
        Script(
            "day-of-judgment-riders",
            "a board wipe that shields replace: a control rider for the other player, "
            "counter-rider triggers of both players at once (603.3b APNAP order)",
            (
                Card("troll", "Horned Troll", 0, shields=((1, GC),)),
                Card("scav", "Skeleton Scavengers", 0, shields=((0, PLUS),)),
                Card("golem", "Matopi Golem", 1, shields=((1, MINUS),)),
            ),
            (_cast(0, "Day of Judgment"), *_pass(0, 1), *_pass(0, 1), *_pass(0, 1)),
        ),
        Script(
            "both-players-damage-triggers",
            "damage triggers of both players' creatures at once, controlled by the "
            "permanents' controllers (603.3a), put on the stack in APNAP order (603.3b)",
            (
                Card("pup", "Jackal Pup", 0),
                Card("stolen", "Jackal Pup", 0, controller=1),
                Card("myr", "Darksteel Myr", 1),
            ),
            (_cast(0, "Pyroclasm"), *_pass(0, 1), *_pass(0, 1), *_pass(0, 1), *_pass(0, 1)),
            life=(3, 20),
        ),
        Script(
            "stolen-wall-in-combat",
            "a combat-damage trigger of a creature under another player's control (603.3a)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("wall", "Wall of Essence", 0, controller=1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "bears"),
                *_pass(0, 1),
                _block(1, ("wall", "bears")),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=_EDITIONS,
        ),
        Script(
            "spell-damage-at-a-combat-damage-trigger",
            "a damage spell's damage is no combat damage (120.2a-b): Shock resolving at Wall "
            "of Essence does not trigger its combat-damage ability (603.2), while Jackal Pup's "
            "any-damage ability does (``apply_effect``'s ``combat=False``)",
            (
                Card("wall", "Wall of Essence", 1),
                Card("pup", "Jackal Pup", 1),
            ),
            (
                _cast(0, "Shock", "wall"),
                *_pass(0, 1),
                _cast(0, "Shock", "pup"),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "sick-noncreature-pays-tap",
            "summoning sickness stops only a creature's {T} abilities (302.6): a Niall Silvain "
            "that came under its controller's control this turn and then stopped being a "
            "creature (613.1d) pays its {T} cost (601.2h)",
            (
                Card("fresh", "Niall Silvain", 0, sick=True),
                Card("giant", "Hill Giant", 1),
            ),
            (
                A.ChangeType(target="fresh", creature=False),
                A.ActivateAbility(player=0, source="fresh", target="giant"),
                *_pass(0, 1),
            ),
        ),
        Script(
            "damage-from-a-dead-source",
            "damage whose source is a card no longer on the battlefield has only the keywords "
            "the effect gives it: the dead Vampire Nighthawk's deathtouch and lifelink are not "
            "read from the graveyard (702.2b, 702.15b; ``engine.step._deal_damage``)",
            (
                Card("hawk", "Vampire Nighthawk", 0),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                A.Destroy(targets=("hawk",)),
                _damage("hawk", 1, "bears"),
                _damage("hawk", 1, 1),
            ),
        ),
        Script(
            "creature-damage-spell-at-a-player",
            "a damage spell that says 'target creature' can't target a player (115.1, 601.2c): "
            "Pinpoint Avalanche at a player is refused, Lightning Bolt's 'any target' is not",
            (Card("bears", "Grizzly Bears", 1),),
            (_cast(0, "Lightning Bolt", 1), *_pass(0, 1)),
            tried=((0, _cast(0, "Pinpoint Avalanche", 1)),),
        ),
        Script(
            "tapped-phasing-creature",
            "a tapped creature with phasing phases out in its controller's untap step before "
            "anything untaps (502.1, 702.26a) and, treated as though it does not exist "
            "(702.26b), is not untapped (502.3): it phases in tapped a turn later",
            (
                Card("raiders", "Merfolk Raiders", 0, tapped=True),
                Card("bears", "Grizzly Bears", 1),
            ),
            (*_turn(0, declares=False), *_turn(1, declares=True), *_turn(0, declares=False)),
        ),
        Script(
            "blocker-of-the-attacking-player",
            "only the defending player's creatures block (509.1a): a block by the attacking "
            "player's own untapped creature is refused",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("pup", "Jackal Pup", 0),
                Card("wall", "Wall of Essence", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "bears"),
                *_pass(0, 1),
                _block(1, ("wall", "bears")),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            tried=((5, _block(1, ("pup", "bears"))),),
        ),
        Script(
            "aura-falls-off-in-the-next-check",
            "a creature with an Aura dies in one state-based-action check and the Aura, now "
            "attached to nothing, goes to the graveyard in the next (704.3, 704.5g, 704.5m)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("strength", "Holy Strength", 0, attached_to="bears"),
            ),
            (_damage("Shock", 2, "bears"), _damage("Shock", 2, "bears"), *_pass(0)),
        ),
        Script(
            "control-change-in-combat",
            "control of an attacker and of a blocker changes during combat: both leave "
            "combat (506.4), the attacker stays blocked only while it is in combat",
            (troll, bears, Card("knight", "Youthful Knight", 1)),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll"), ("knight", "troll")),
                A.ChangeControl(target="bears", player=0),
                A.ChangeControl(target="troll", player=1, until_end_of_turn=True),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=(Edition.PRE_M10,),
        ),
        Script(
            "control-change-in-combat-m10",
            "the same in the M10 edition: the removed blocker leaves the attacker's damage "
            "assignment order (509.2a of that era)",
            (troll, bears, Card("knight", "Youthful Knight", 1)),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll"), ("knight", "troll")),
                A.OrderBlockers(player=0, attacker="troll", order=("bears", "knight")),
                A.ChangeControl(target="bears", player=0),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            edition=Edition.M10,
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "blocked-attacker-regenerates",
            "a blocked attacker is regenerated during the declare blockers step: removed "
            "from combat, no longer blocked (506.4); its blocker stays a blocking creature",
            (Card("troll", "Horned Troll", 0, shields=((1, GC),)), bears),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll")),
                A.Destroy(targets=("troll",)),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=_EDITIONS,
        ),
        Script(
            "blocker-leaves",
            "the blocker of an attacker leaves combat: the attacker stays blocked (509.1h) "
            "and, without trample, deals no damage",
            (Card("dreadmaw", "Colossal Dreadmaw", 0), bears, Card("rats", "Typhoid Rats", 0)),
            (
                *_pass(0, 1),
                _attack(0, "dreadmaw", "rats"),
                *_pass(0, 1),
                _block(1, ("bears", "rats")),
                A.Sacrifice(target="bears"),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=_EDITIONS,
        ),
        Script(
            "indestructible-blocker-with-lethal-damage",
            "an indestructible blocker already has lethal damage when a trampler assigns "
            "(lethal damage counts damage already marked, 702.19b/510.1c)",
            (
                Card("dreadmaw", "Colossal Dreadmaw", 0),
                Card("myr", "Darksteel Myr", 1),
                Card("rats", "Typhoid Rats", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "dreadmaw"),
                *_pass(0, 1),
                _block(1, ("myr", "dreadmaw"), ("rats", "dreadmaw")),
                _damage("effect", 2, "myr"),
                _damage("effect", 1, "dreadmaw"),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("dreadmaw", (("rats", 1), ("player", 5))),),
                ),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=(Edition.PRE_M10,),
        ),
        Script(
            "untap-under-another-controller",
            "the next turn's untap step untaps what the active player controls, not what "
            "it owns (502.3)",
            (
                Card("mine", "Grizzly Bears", 0, tapped=True),
                Card("stolen", "Grizzly Bears", 1, controller=0, tapped=True),
                Card("lent", "Grizzly Bears", 0, controller=1, tapped=True),
            ),
            (*_pass(0, 1), *_pass(1, 0)),
            step=Step.END,
        ),
        Script(
            "wither-and-infect-with-deathtouch",
            "-1/-1 counters from wither or infect damage by a deathtouch source still "
            "destroy at the next check (702.2b, 704.5h)",
            (
                Card("ram", "Boggart Ram-Gang", 0),
                Card("elf", "Glistener Elf", 0),
                Card("troll", "Horned Troll", 1, shields=((1, PLAIN),)),
            ),
            (
                A.GrantKeyword(target="ram", keyword=Keyword.DEATHTOUCH),
                _damage("ram", 1, "troll"),
                A.CheckStateBasedActions(),
                A.GrantKeyword(target="elf", keyword=Keyword.DEATHTOUCH),
                _damage("elf", 1, "troll"),
                A.CheckStateBasedActions(),
                _damage("elf", 1, 1),
                A.GrantKeyword(target="elf", keyword=Keyword.INFECT, remove=True),
                _damage("elf", 1, 1),
            ),
        ),
        Script(
            "counters-and-life",
            "+1/+1 and -1/-1 counters annihilate (704.5q); a player at 0 life loses "
            "(704.5a); damage from an effect with a chosen controller",
            (Card("bears", "Grizzly Bears", 0), Card("pup", "Jackal Pup", 1)),
            (
                A.AddCounters(target="bears", counter=CounterKind.PLUS, amount=2),
                A.AddCounters(target="bears", counter=CounterKind.MINUS),
                A.CheckStateBasedActions(),
                A.AddCounters(target="pup", counter=CounterKind.PLUS),
                A.AddCounters(target="pup", counter=CounterKind.MINUS),
                _damage("effect", 1, "pup"),
                A.CheckStateBasedActions(),
                _damage("effect", 2, 1, controller=0),
                _damage("pup", 2, 0),
                A.CheckStateBasedActions(),
            ),
            life=(2, 2),
        ),
        Script(
            "fizzle",
            "a spell whose only target is gone does not resolve (608.2b)",
            (bears, troll),
            (_cast(0, "Murder", "bears"), A.Sacrifice(target="bears"), *_pass(0, 1)),
        ),
        Script(
            "target-rule",
            "a target is re-checked against its whole rule (608.2b): Cloudshift whose target "
            "another player gained control of in response does not resolve; a spell with no "
            "target rule has no targets to choose, Terror no artifact (601.2c)",
            (troll, bears, Card("golem", "Matopi Golem", 1)),
            (
                _cast(0, "Cloudshift", "troll"),
                A.ChangeControl(target="troll", player=1, until_end_of_turn=True),
                *_pass(0, 1),
            ),
            tried=(
                (0, _cast(0, "Terror", "golem")),
                (
                    0,
                    A.CastSpell(
                        player=0,
                        name="x",
                        effect=SPELLS["Murder"].effect,
                        targets=(A.TargetChoice(card="troll"),),
                        target_rule=TargetRule.NONE,
                    ),
                ),
            ),
        ),
        Script(
            "every-spell",
            "a spell of each effect kind resolves: pump, shrink, flicker, control, "
            "unregenerable damage, shields from spells",
            (troll, bears, Card("pup", "Jackal Pup", 0)),
            tried=(
                (
                    0,
                    A.CastSpell(
                        player=0,
                        name="x",
                        effect=SPELLS["Murder"].effect,
                        targets=(A.TargetChoice(),),
                    ),
                ),
            ),
            actions=tuple(
                a
                for spell, target in (
                    ("Giant Growth", "troll"),
                    ("Disfigure", "troll"),
                    ("Cloudshift", "troll"),
                    ("Act of Treason", "bears"),
                    ("Death Ward", "troll"),
                    ("Incinerate", "troll"),
                    ("Last Gasp", "pup"),
                    ("Murder", "bears"),
                )
                for a in (_cast(0, spell, target), *_pass(0, 1))
            ),
        ),
        Script(
            "umbra-armor-and-unregenerable",
            "umbra armor against static regeneration: the controller's 616.1 answer picks "
            "the Aura; an opponent makes the creature unregenerable (701.19c) and it dies",
            (
                Card("knight", "Knight of the Holy Nimbus", 0),
                Card("eland", "Eland Umbra", 0, attached_to="knight"),
                bears,
            ),
            (
                A.Destroy(
                    targets=("knight",), choices=(A.ReplacementChoice("knight", 0, "umbra:eland"),)
                ),
                A.PassPriority(player=0),
                A.ActivateAbility(player=1, source="knight"),
                *_pass(1, 0),
                A.Destroy(targets=("knight", "bears")),
            ),
            tried=(
                (
                    0,
                    A.Destroy(
                        targets=("knight",),
                        choices=(A.ReplacementChoice("knight", 0, "umbra:bears"),),
                    ),
                ),
                (0, A.Destroy(targets=("knight",))),
                (0, A.Destroy(targets=("knight", "knight"))),
                (
                    0,
                    A.Destroy(
                        targets=("knight", "eland"),
                        choices=(
                            A.ReplacementChoice("bears", 1, "shield"),
                            A.ReplacementChoice("knight", 0, "umbra:eland"),
                        ),
                    ),
                ),
                (
                    0,
                    A.Destroy(
                        targets=("knight",), choices=(A.ReplacementChoice("knight", 0, "static"),)
                    ),
                ),
                (0, A.Destroy(targets=("bears",), cant_be_regenerated=True)),
                (2, A.ActivateAbility(player=0, source="knight")),
                (2, A.ActivateAbility(player=1, source="knight", ability=1)),
                (2, A.ActivateAbility(player=1, source="bears")),
            ),
        ),
        Script(
            "shield-counters-and-equipment",
            "shield counters prevent damage and replace destruction by an effect (122.1c); "
            "an Equipment's bonus applies only to the creature it is attached to",
            (
                Card("bears", "Grizzly Bears", 1),
                Card("axe", "Bonesplitter", 1, attached_to="bears"),
                Card("troll", "Horned Troll", 0, shields=((0, PLAIN),)),
            ),
            (
                A.AddCounters(target="bears", counter=CounterKind.SHIELD, amount=2),
                _damage("effect", 1, "bears"),
                A.Destroy(targets=("bears",)),
                A.Exile(target="bears"),
                _damage("troll", 2, "troll"),
                A.CheckStateBasedActions(),
            ),
            tried=(
                (0, A.AddCounters(target="bears", counter=CounterKind.SHIELD, amount=0)),
                (0, _damage("effect", -1, "bears")),
                (0, _damage("effect", 1, "axe")),
                (0, A.DealDamage(source="effect", shares=(A.DamageShare(1, "bears", 0),))),
                (0, A.Destroy(targets=("bears", "bears"))),
                (4, _damage("bears", 1, "troll")),
                (4, A.Sacrifice(target="bears")),
                (4, A.Destroy(targets=("bears",))),
                (4, _damage("troll", 1, "troll", controller=1)),
                (0, A.CreateShield(target="troll", rider=GC, creator=1)),
            ),
        ),
        Script(
            "aura-falls-off",
            "an Aura whose creature left goes to the graveyard (704.5m); lethal and "
            "deathtouch damage destroy once (704.7)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("strength", "Holy Strength", 0, attached_to="bears"),
                Card("rats", "Typhoid Rats", 1, shields=((1, PLAIN),)),
            ),
            (
                A.Exile(target="bears"),
                A.CheckStateBasedActions(),
                _damage("rats", 1, "rats"),
                A.CheckStateBasedActions(),
            ),
            tried=((0, _cast(0, "Murder", "strength")),),
        ),
        Script(
            "priority-in-cleanup",
            "a pump ends in cleanup and the creature's -1/-1 counters kill it: players get "
            "priority in that cleanup step and another one follows (514.3a)",
            (Card("bears", "Grizzly Bears", 0), Card("pup", "Jackal Pup", 1)),
            (
                _cast(0, "Giant Growth", "bears"),
                *_pass(0, 1),
                A.AddCounters(target="bears", counter=CounterKind.MINUS, amount=2),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(1, 0),
                *_pass(1, 0),
            ),
            step=Step.MAIN2,
            tried=(
                (0, _cast(0, "Giant Growth")),
                (0, _cast(0, "Pyroclasm", "bears")),
                (0, _cast(0, "Giant Growth", 1)),
                (0, _cast(0, "Cloudshift", "pup")),
                (0, _cast(1, "Giant Growth", "bears")),
                (0, A.PassPriority(player=1)),
                (3, _cast(1, "Wrath of God")),
                (3, A.CastSpell(player=0, name="x", effect=SPELLS["Murder"].effect)),
            ),
        ),
        Script(
            "combat-refusals-m10",
            "declarations and orders the rules forbid (508.1, 509.1, 509.2 of the M10 era), "
            "and a creature blocking two attackers' worth of damage order",
            (
                Card("troll", "Horned Troll", 0),
                Card("bears", "Grizzly Bears", 1),
                Card("knight", "Drudge Skeletons", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll"), ("knight", "troll")),
                A.OrderBlockers(player=0, attacker="troll", order=("knight", "bears")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("troll", (("knight", 1), ("bears", 1))),)
                ),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            edition=Edition.M10,
            step=Step.BEGIN_COMBAT,
            tried=(
                (2, _attack(0, "bears")),
                (2, _attack(0, "troll", "troll")),
                (2, _attack(1, "troll")),
                (5, _block(1, ("troll", "troll"))),
                (5, _block(1, ("bears", "knight"))),
                (5, _block(1, ("bears", "troll"), ("bears", "troll"))),
                (5, _block(0, ("bears", "troll"))),
                (6, A.OrderBlockers(player=1, attacker="troll", order=("knight", "bears"))),
                (6, A.OrderBlockers(player=0, attacker="bears", order=("knight",))),
                (6, A.OrderBlockers(player=0, attacker="troll", order=("knight",))),
                (6, A.OrderBlockers(player=0, attacker="troll", order=("knight", "knight"))),
                (
                    9,
                    A.AssignCombatDamage(
                        player=0, divisions=(A.Division("troll", (("bears", 2),)),)
                    ),
                ),
            ),
        ),
        Script(
            "combat-refusals-fdn",
            "damage divisions the rules forbid (510.1c-d, 702.19b) and a tapped blocker; "
            "no attackers, then no blockers (508.8)",
            (
                Card("dreadmaw", "Colossal Dreadmaw", 0),
                Card("bears", "Grizzly Bears", 1),
                Card("pup", "Wall of Essence", 1, tapped=True),
            ),
            (
                *_pass(0, 1),
                _attack(0, "dreadmaw"),
                *_pass(0, 1),
                _block(1, ("bears", "dreadmaw")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("dreadmaw", (("bears", 2), ("player", 4))),),
                ),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=(Edition.M10,),
            tried=(
                (5, _block(1, ("pup", "dreadmaw"))),
                (8, A.AssignCombatDamage(player=1, divisions=())),
                (8, A.AssignCombatDamage(player=0, divisions=())),
                (
                    8,
                    A.AssignCombatDamage(
                        player=0, divisions=(A.Division("dreadmaw", (("player", 6),)),)
                    ),
                ),
                (
                    8,
                    A.AssignCombatDamage(
                        player=0, divisions=(A.Division("bears", (("dreadmaw", 2),)),)
                    ),
                ),
                (
                    8,
                    A.AssignCombatDamage(
                        player=0, divisions=(A.Division("pup", (("dreadmaw", 1),)),)
                    ),
                ),
                (8, A.AssignCombatDamage(player=0, divisions=(A.Division("dreadmaw", ()),))),
                (
                    8,
                    A.AssignCombatDamage(
                        player=0,
                        divisions=(
                            A.Division("dreadmaw", (("bears", 6),)),
                            A.Division("dreadmaw", (("bears", 6),)),
                        ),
                    ),
                ),
            ),
        ),
        Script(
            "unblocked-attacker-named",
            "an unblocked attacker has no damage division to choose (510.1a): naming it in "
            "the assignment its blocked partner needs is refused",
            (
                Card("dreadmaw", "Colossal Dreadmaw", 0),
                Card("cub", "Grizzly Bears", 0),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "dreadmaw", "cub"),
                *_pass(0, 1),
                _block(1, ("bears", "dreadmaw")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("dreadmaw", (("bears", 2), ("player", 4))),),
                ),
            ),
            step=Step.BEGIN_COMBAT,
            tried=(
                (
                    8,
                    A.AssignCombatDamage(
                        player=0,
                        divisions=(
                            A.Division("dreadmaw", (("bears", 2), ("player", 4))),
                            A.Division("cub", (("player", 2),)),
                        ),
                    ),
                ),
            ),
        ),
        Script(
            "first-strike-division",
            "a first striker divides its damage in the first-strike step (510.4), the other "
            "attacker waits for the regular step; deathtouch makes 1 lethal (702.2c)",
            (
                Card("knight", "Youthful Knight", 0),
                Card("bears", "Grizzly Bears", 0),
                Card("skel", "Drudge Skeletons", 1),
            ),
            (
                A.GrantKeyword(target="knight", keyword=Keyword.DEATHTOUCH),
                A.GrantKeyword(target="knight", keyword=Keyword.TRAMPLE),
                *_pass(0, 1),
                _attack(0, "knight", "bears"),
                *_pass(0, 1),
                _block(1, ("skel", "knight")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("knight", (("skel", 1), ("player", 1))),)
                ),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            also=(Edition.PRE_M10,),
            tried=(
                (
                    10,
                    A.AssignCombatDamage(
                        player=0,
                        divisions=(
                            A.Division("knight", (("skel", 1), ("player", 1))),
                            A.Division("bears", (("player", 2),)),
                        ),
                    ),
                ),
            ),
        ),
        Script(
            "board-wipe-spares-the-aura",
            "Day of Judgment destroys creatures only; the regenerated creature keeps its "
            "Aura (701.19c: the same object)",
            (
                Card("troll", "Horned Troll", 0, shields=((0, PLAIN),)),
                Card("strength", "Holy Strength", 0, attached_to="troll"),
                bears,
            ),
            (_cast(0, "Day of Judgment"), *_pass(0, 1)),
            tried=((1, _cast(0, "Pyroclasm")),),
        ),
        Script(
            "declaration-refusals",
            "an Aura or a tapped creature can't attack (508.1a); with no creature left to "
            "block, the declaration of blockers is skipped",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("strength", "Holy Strength", 0, attached_to="bears"),
                Card("tired", "Grizzly Bears", 0, tapped=True),
            ),
            (*_pass(0, 1), _attack(0, "bears"), *_pass(0, 1), *_pass(0, 1)),
            step=Step.BEGIN_COMBAT,
            tried=((2, _attack(0, "strength")), (2, _attack(0, "tired"))),
        ),
        Script(
            "aura-cannot-block",
            "an Aura can't block (509.1a); nothing can attack in the next turn (508.8)",
            (
                Card("troll", "Horned Troll", 0),
                Card("bears", "Grizzly Bears", 1),
                Card("strength", "Holy Strength", 1, attached_to="bears"),
            ),
            (*_pass(0, 1), _attack(0, "troll"), *_pass(0, 1), _block(1), *_pass(0, 1)),
            step=Step.BEGIN_COMBAT,
            tried=((5, _block(1, ("strength", "troll"))),),
        ),
        Script(
            "regenerates-with-a-waiting-trigger",
            "a creature regenerates while its own damage trigger waits: the trigger stays "
            "(614.8) and goes on the stack after the check; the stack then resolves",
            (
                Card("pup", "Jackal Pup", 0, shields=((0, PLAIN),)),
                Card("bears", "Grizzly Bears", 1),
            ),
            (_damage("effect", 1, "pup"), A.CheckStateBasedActions(), *_pass(0, 1)),
        ),
        Script(
            "lone-creature-wiped",
            "a board wipe with a single creature (no simultaneity note); combat damage on "
            "the stack whose recipient left before it resolved (pre-M10)",
            (Card("troll", "Horned Troll", 0), Card("bears", "Grizzly Bears", 1)),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll")),
                *_pass(0, 1),
                A.Sacrifice(target="bears"),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                _cast(0, "Wrath of God"),
                *_pass(0, 1),
            ),
            edition=Edition.PRE_M10,
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "nothing-can-attack",
            "the active player has no creature that can attack: no declaration (508.8)",
            (Card("bears", "Grizzly Bears", 0, tapped=True), Card("pup", "Jackal Pup", 1)),
            (*_pass(0, 1), *_pass(0, 1)),
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "nobody-attacks",
            "no creature attacks (508.8: straight to the end of combat); a new turn",
            (Card("bears", "Grizzly Bears", 0), Card("pup", "Jackal Pup", 1, tapped=True)),
            (*_pass(0, 1), _attack(0), *_pass(0, 1), *_pass(0, 1), *_pass(0, 1), *_pass(0, 1)),
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "nothing-can-attack-or-block",
            "the defender has no creature that can block: the declaration is skipped "
            "(509.1), and the attacker deals its damage to the player",
            (Card("bears", "Grizzly Bears", 0), Card("pup", "Jackal Pup", 1, tapped=True)),
            (*_pass(0, 1), _attack(0, "bears"), *_pass(0, 1), *_pass(0, 1)),
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "debt-of-loyalty-for-the-opponent",
            "a shield made by another player (the creator gains control, 701.19c) used in "
            "combat, and the 616.1 answer between two shields of different creators",
            (
                Card("troll", "Horned Troll", 0, shields=((1, GC), (0, GC))),
                Card("rats", "Typhoid Rats", 1),
            ),
            (
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("rats", "troll")),
                *[
                    A.PassPriority(player=p, choices=(A.ReplacementChoice("troll", 0, "shield#2"),))
                    for p in (0, 1, 0, 1)
                ],
            ),
            step=Step.BEGIN_COMBAT,
            also=_EDITIONS,
        ),
        Script(
            "sick-or-defender-cannot-attack",
            "a creature that came under its controller's control this turn can't attack "
            "without haste (302.6), nor can one with defender (702.3b); one with haste can",
            (
                Card("wall", "Wall of Essence", 0),
                Card("bears", "Grizzly Bears", 0, sick=True),
                Card("pup", "Jackal Pup", 0, sick=True),
            ),
            (
                A.GrantKeyword(target="pup", keyword=Keyword.HASTE),
                *_pass(0, 1),
                _attack(0, "pup"),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            step=Step.BEGIN_COMBAT,
            tried=((3, _attack(0, "wall")), (3, _attack(0, "bears"))),
        ),
        Script(
            "sickness-ends-when-the-turn-begins",
            "as a turn begins, what its active player controls stops being summoning sick "
            "(302.6); the other player's sick creature stays sick",
            (Card("pup", "Jackal Pup", 1, sick=True), Card("bears", "Grizzly Bears", 0, sick=True)),
            (*_pass(0, 1), *_pass(1, 0)),
            step=Step.END,
        ),
        Script(
            "shield-counter-two-blockers",
            "one shield counter prevents the damage of both blockers dealt at once: one "
            "prevention effect for the simultaneous event (122.1c, 615.13)",
            (
                Card("troll", "Horned Troll", 0),
                Card("bears", "Grizzly Bears", 1),
                Card("skel", "Drudge Skeletons", 1),
            ),
            (
                A.AddCounters(target="troll", counter=CounterKind.SHIELD),
                *_pass(0, 1),
                _attack(0, "troll"),
                *_pass(0, 1),
                _block(1, ("bears", "troll"), ("skel", "troll")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0, divisions=(A.Division("troll", (("bears", 1), ("skel", 1))),)
                ),
            ),
            step=Step.BEGIN_COMBAT,
        ),
        Script(
            "effects-without-their-options",
            "a control-changing spell that neither untaps nor grants a keyword, and a flicker "
            "that returns the card under its owner's control (110.2a), not its caster's",
            (troll, Card("bears", "Grizzly Bears", 1, tapped=True), Card("pup", "Jackal Pup", 1)),
            (
                A.CastSpell(
                    player=0,
                    name="gain control until end of turn",
                    effect=Effect(EffectKind.GAIN_CONTROL, until_end_of_turn=True),
                    targets=(A.TargetChoice(card="bears"),),
                ),
                *_pass(0, 1),
                A.CastSpell(
                    player=0,
                    name="flicker under its owner",
                    effect=Effect(EffectKind.FLICKER),
                    targets=(A.TargetChoice(card="bears"),),
                ),
                *_pass(0, 1),
            ),
        ),
        Script(
            "trigger-source-left-with-a-keyword",
            "a damage trigger whose source died before it resolved deals its damage with the "
            "keywords the source last had (608.2h): infect gives poison counters; Terror "
            "can't target a black creature (601.2c)",
            (Card("pup", "Jackal Pup", 0), Card("skel", "Drudge Skeletons", 1)),
            (
                A.GrantKeyword(target="pup", keyword=Keyword.INFECT),
                _damage("effect", 2, "pup"),
                A.CheckStateBasedActions(),
                *_pass(0, 1),
            ),
            tried=((0, _cast(0, "Terror", "skel")),),  # nonblack only (601.2c)
        ),
        Script(
            "manland",
            "a manland animates itself (613.1d), makes a shield with the ability its animation "
            "grants (613.1f), stops being a creature twice (the second time it was none) and "
            "is a land again at cleanup; a Forest can't become a creature, and the granted "
            "ability does not exist before the animation",
            (Card("pool", "Spawning Pool", 0), Card("forest", "Forest", 0), bears),
            (
                A.ActivateAbility(player=0, source="pool", ability=0),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pool", ability=1),
                *_pass(0, 1),
                _damage("effect", 1, "pool"),
                A.ChangeType(target="pool", creature=False),
                A.ChangeType(target="pool", creature=False),
                A.ChangeType(target="bears", creature=False),
                A.ChangeType(target="bears", creature=True),
                A.Cleanup(),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="pool", ability=1)),
                (0, A.ChangeType(target="forest", creature=True)),
            ),
        ),
        # --- Auras and Equipment (issue 12 items 5-6) ---
        Script(
            "equip-darksteel-plate",
            "equip moves Darksteel Plate and the indestructible it grants (702.6a, 613.1f): "
            "the Bears it left die to damage, the Giant it equips survives; equip is refused "
            "with an ability on the stack and onto no creature of yours; an Equipment on a "
            "permanent that stops being a creature is unattached (704.5n)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("giant", "Hill Giant", 0),
                Card("plate", "Darksteel Plate", 0, attached_to="bears"),
            ),
            (
                A.ActivateAbility(player=0, source="plate", target="giant"),
                *_pass(0, 1),
                _damage("effect", 3, "bears", "giant"),
                A.CheckStateBasedActions(),
                A.ActivateAbility(player=0, source="plate", target="giant"),
                A.ChangeType(target="giant", creature=False),
                A.CheckStateBasedActions(),
            ),
            tried=(
                (1, A.ActivateAbility(player=0, source="plate", target="bears")),
                (0, A.ActivateAbility(player=1, source="plate", target="giant")),
                (0, A.ActivateAbility(player=0, source="plate")),
                (4, A.ActivateAbility(player=0, source="plate", target="bears")),
            ),
        ),
        Script(
            "regeneration-aura-moves",
            "Regeneration's ability shields the creature it enchants as it resolves (608.2h): "
            "moved in response, the Aura takes the ability to the Giant; the shield stays with "
            "the Giant when the Aura leaves (701.19a); moves onto itself or what it is on do "
            "nothing (701.3b)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("giant", "Hill Giant", 1),
                Card("aura", "Regeneration", 0, attached_to="bears"),
            ),
            (
                A.ActivateAbility(player=0, source="aura"),
                A.Attach(attachment="aura", target="giant"),
                A.Attach(attachment="aura", target="aura"),
                A.Attach(attachment="aura", target="giant"),
                *_pass(0, 1),
                A.Destroy(targets=("aura",)),
                A.CheckStateBasedActions(),
                A.Destroy(targets=("giant",)),
                A.CheckStateBasedActions(),
            ),
            tried=((0, A.ActivateAbility(player=1, source="aura")),),
        ),
        Script(
            "skeletal-grimace",
            "Skeletal Grimace gives the creature it enchants '{B}: Regenerate this creature' "
            "(613.1f): moved to B's Giant, the ability goes with it, so only B activates it "
            "(602.2) and the Bears no longer have it; destroyed with the ability on the stack, "
            "the ability still shields the Giant (113.7a), which then has no such ability",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("giant", "Hill Giant", 1),
                Card("grimace", "Skeletal Grimace", 0, attached_to="bears"),
            ),
            (
                A.ActivateAbility(player=0, source="bears", ability=0),
                *_pass(0, 1),
                A.Attach(attachment="grimace", target="giant"),
                A.PassPriority(player=0),
                A.ActivateAbility(player=1, source="giant", ability=0),
                A.Destroy(targets=("grimace",)),
                *_pass(1, 0),
                A.Destroy(targets=("giant",)),
                A.CheckStateBasedActions(),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="bears", ability=1)),
                (4, A.ActivateAbility(player=0, source="giant", ability=0)),
                (4, A.ActivateAbility(player=0, source="bears", ability=0)),
                (7, A.ActivateAbility(player=1, source="giant", ability=0)),
            ),
        ),
        Script(
            "regenerate-target",
            "Suture Spirit's 'Regenerate target creature' (602.2b): its target picked on "
            "activation, an opponent's Bears and then the Spirit itself, each shielded; aimed "
            "at the Bears again, which leave and return in response (a new object, 400.7), it "
            "does nothing (608.2b); a Forest is no creature to target, B does not control the "
            "Spirit, and the ability needs a target; a damage spell can't aim at 'target "
            "land' (120.1a)",
            (
                Card("spirit", "Suture Spirit", 0),
                Card("bears", "Grizzly Bears", 1),
                Card("forest", "Forest", 0),
            ),
            (
                A.ActivateAbility(player=0, source="spirit", target="bears"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="spirit", target="spirit"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="spirit", target="bears"),
                A.LeaveAndReturn(target="bears"),
                *_pass(0, 1),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="spirit", target="forest")),
                (0, A.ActivateAbility(player=0, source="spirit")),
                (0, A.ActivateAbility(player=1, source="spirit", target="bears")),
                (0, A.ActivateAbility(player=0, source="spirit", ability=1, target="bears")),
                (
                    0,
                    A.CastSpell(
                        player=0,
                        name="damage at a land",
                        effect=Effect(EffectKind.DAMAGE, amount=2),
                        targets=(A.TargetChoice(card="forest"),),
                        target_rule=TargetRule.LAND,
                    ),
                ),
            ),
        ),
        Script(
            "tap-cost",
            "Niall Silvain's '{T}: Regenerate target creature': the {T} is paid on activation "
            "(601.2h), so Niall is tapped before the Giant's shield exists; once tapped it "
            "can't pay again; a summoning-sick Niall can't pay it at all (302.6)",
            (
                Card("niall", "Niall Silvain", 0),
                Card("fresh", "Niall Silvain", 0, sick=True),
                Card("giant", "Hill Giant", 1),
            ),
            (
                A.ActivateAbility(player=0, source="niall", target="giant"),
                *_pass(0, 1),
                A.Destroy(targets=("giant",)),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="fresh", target="giant")),
                (1, A.ActivateAbility(player=0, source="niall", target="niall")),
                (3, A.ActivateAbility(player=0, source="niall", target="giant")),
            ),
        ),
        Script(
            "sacrifice-aura-cost",
            "Carapace's 'Sacrifice this Aura: Regenerate enchanted creature': the Aura goes to "
            "the graveyard as the ability is activated (601.2h), and the ability still shields "
            "the creature the Aura last enchanted (113.7a, 608.2h); only the Aura's controller "
            "activates it, and a sacrificed Aura can't be sacrificed again",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("carapace", "Carapace", 0, attached_to="bears"),
                Card("giant", "Hill Giant", 1),
            ),
            (
                A.ActivateAbility(player=0, source="carapace"),
                *_pass(0, 1),
                A.Destroy(targets=("bears",)),
            ),
            tried=(
                (0, A.ActivateAbility(player=1, source="carapace")),
                (1, A.ActivateAbility(player=0, source="carapace")),
                # Carapace's cost is itself: it names no creature to sacrifice
                (0, A.ActivateAbility(player=0, source="carapace", sacrifice="bears")),
            ),
        ),
        Script(
            "sacrifice-a-creature-cost",
            "Dark Privilege's 'Sacrifice a creature: Regenerate enchanted creature': the Giant "
            "is sacrificed as the ability is activated (601.2h) and the Bears it enchants are "
            "shielded; then the Bears themselves pay, and as a new object in the graveyard "
            "(400.7) they are not regenerated (608.2b); the Aura, attached to nothing, goes "
            "to the graveyard (704.5m). The cost needs a creature, named, of its activator's",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("privilege", "Dark Privilege", 0, attached_to="bears"),
                Card("giant", "Hill Giant", 0),
            ),
            (
                A.ActivateAbility(player=0, source="privilege", sacrifice="giant"),
                *_pass(0, 1),
                A.Destroy(targets=("bears",)),
                A.ActivateAbility(player=0, source="privilege", sacrifice="bears"),
                *_pass(0, 1),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="privilege")),
                (0, A.ActivateAbility(player=0, source="privilege", sacrifice="privilege")),
                (0, A.ActivateAbility(player=1, source="privilege", sacrifice="giant")),
            ),
        ),
        Script(
            "sacrifice-a-creature-not-theirs",
            "Dark Privilege's cost can't be paid with an opponent's creature (701.21a: a "
            "player sacrifices only what they control)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("privilege", "Dark Privilege", 0, attached_to="bears"),
                Card("theirs", "Grizzly Bears", 1),
            ),
            (
                A.ActivateAbility(player=0, source="privilege", sacrifice="bears"),
                *_pass(0, 1),
            ),
            tried=((0, A.ActivateAbility(player=0, source="privilege", sacrifice="theirs")),),
        ),
        Script(
            "sacrifice-creature-cost",
            "Vigilant Martyr's 'Sacrifice this creature: Regenerate target creature': the target "
            "is chosen, then the Martyr is sacrificed (601.2c, 601.2h); aimed at the Bears it "
            "shields them, aimed at itself its target is a new object in the graveyard (400.7) "
            "and the ability does nothing (608.2b)",
            (
                Card("martyr", "Vigilant Martyr", 0),
                Card("self", "Vigilant Martyr", 0),
                Card("bears", "Grizzly Bears", 0),
            ),
            (
                A.ActivateAbility(player=0, source="martyr", target="bears"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="self", target="self"),
                *_pass(0, 1),
                A.Destroy(targets=("bears",)),
            ),
            tried=(
                (0, A.ActivateAbility(player=1, source="martyr", target="bears")),
                (3, A.ActivateAbility(player=0, source="martyr", target="bears")),
            ),
        ),
        Script(
            "target-status-attacking",
            "Kill Shot at an attacking Troll that regenerates in response: removed from combat "
            "(701.19a, 506.4), it is no longer a legal target and Kill Shot does nothing "
            "(608.2b); Kill Shot can't target the Bears, which are not attacking (601.2c)",
            (
                Card("troll", "Horned Troll", 0, shields=((0, PLAIN), (0, PLAIN))),
                Card("bears", "Grizzly Bears", 0),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "troll"),
                A.PassPriority(player=0),
                _cast(1, "Kill Shot", "troll"),
                A.Destroy(targets=("troll",)),
                *_pass(1, 0),
            ),
            tried=((5, _cast(1, "Kill Shot", "bears")),),
        ),
        Script(
            "target-status-untapped",
            "Asphyxiate at untapped Drudge Skeletons that regenerate in response: tapped "
            "(701.19a), they are no longer a legal target and Asphyxiate does nothing "
            "(608.2b); it can't target the tapped Giant (601.2c)",
            (
                Card("skel", "Drudge Skeletons", 1, shields=((1, PLAIN), (1, PLAIN))),
                Card("giant", "Hill Giant", 1, tapped=True),
            ),
            (
                _cast(0, "Asphyxiate", "skel"),
                A.Destroy(targets=("skel",)),
                *_pass(0, 1),
            ),
            tried=((0, _cast(0, "Asphyxiate", "giant")),),
        ),
        Script(
            "attach-refusals",
            "attach effects and abilities of attachments the rules refuse or make do nothing: "
            "an Aura onto an Equipment (701.3b), equip onto a noncreature, a target for an "
            "ability that has none, an attach effect moving a creature or a card that left; "
            "Regeneration activated while attached to nothing (its host exiled) does nothing",
            (
                Card("troll", "Horned Troll", 0),
                Card("aura", "Regeneration", 0, attached_to="troll"),
                Card("plate", "Darksteel Plate", 0),
            ),
            (
                A.Attach(attachment="aura", target="plate"),
                A.Attach(attachment="plate", target="troll"),
                A.Exile(target="troll"),
                A.ActivateAbility(player=0, source="aura"),
                *_pass(0, 1),
            ),
            tried=(
                (0, A.ActivateAbility(player=0, source="plate", target="aura")),
                (0, A.ActivateAbility(player=0, source="aura", target="troll")),
                (0, A.ActivateAbility(player=0, source="troll", target="troll")),
                (0, A.Attach(attachment="troll", target="troll")),
                (3, A.Attach(attachment="plate", target="troll")),
                (6, A.Attach(attachment="aura", target="plate")),
            ),
        ),
        Script(
            "equip-source-left",
            "equip resolves after its Equipment left and came back (a new object: nothing "
            "happens), after its target left (608.2b: it does nothing), and after its target "
            "changed controller or stopped being a creature in response (608.2b with 702.6a: "
            "no longer a creature you control, so the Equipment stays where it is)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("giant", "Hill Giant", 0),
                Card("plate", "Darksteel Plate", 0, attached_to="bears"),
            ),
            (
                A.ActivateAbility(player=0, source="plate", target="giant"),
                A.LeaveAndReturn(target="plate"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="plate", target="giant"),
                A.Exile(target="giant"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="plate", target="bears"),
                A.ChangeControl(target="bears", player=1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "destroyed-this-way",
            "Disintegrate's target can't be regenerated although all its damage is prevented "
            "(cant-regen.damage-target), twice, and at a player; Fumigate counts the bears and "
            "the unregenerable troll but not Mossbridge Troll, which regenerates, then counts "
            "nothing (destroy.counted)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("troll", "Horned Troll", 1, shields=((1, PLAIN),)),
                Card("mossbridge", "Mossbridge Troll", 1),
            ),
            (
                _prevent(0, "troll", every=True),
                *_pass(0, 1),
                _cast(0, "Disintegrate", "troll"),
                *_pass(0, 1),
                _cast(0, "Disintegrate", "troll"),
                *_pass(0, 1),
                _cast(0, "Disintegrate", 1),
                *_pass(0, 1),
                _cast(0, "Fumigate"),
                *_pass(0, 1),
                _cast(0, "Fumigate"),
                *_pass(0, 1),
            ),
        ),
        Script(
            "dies-triggers",
            "'When this creature dies' (Onulet, trigger.dies): a regenerated Onulet triggers "
            "nothing (701.19a); destroyed with no shield, sacrificed or shrunk to toughness 0 "
            "it triggers, controlled by its controller as it last existed (603.3a, 603.10a: "
            "B for A's stolen Onulet); two dying at once trigger for both players (603.3b); "
            "exile is not dying",
            (
                Card("onulet", "Onulet", 0, shields=((0, PLAIN),)),
                Card("stolen", "Onulet", 0, controller=1),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                A.Destroy(targets=("onulet",)),
                *_pass(0, 1),
                A.Destroy(targets=("onulet", "stolen")),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "dies-by-sacrifice-and-toughness",
            "Onulet dies by sacrifice and by toughness 0 (704.5f), and is exiled (not dying)",
            (
                Card("onulet", "Onulet", 0),
                Card("shrunk", "Onulet", 1),
                Card("exiled", "Onulet", 1),
            ),
            (
                A.Sacrifice(target="onulet"),
                *_pass(0, 1),
                _cast(0, "Last Gasp", "shrunk"),
                *_pass(0, 1),
                *_pass(0, 1),
                A.Exile(target="exiled"),
                *_pass(0, 1),
            ),
        ),
        Script(
            "creature-dies-watchers",
            "Zulaport Cutthroat and B's Kardur, Doomscourge watch deaths (trigger.creature-dies, "
            "trigger.attacking-dies): A's attacking Drudge Skeletons, blocked by Kardur, "
            "regenerate (no death, 701.19a) and leave combat (506.4); destroyed later they die "
            "not attacking (603.10a): Zulaport triggers, Kardur does not; Zulaport destroyed "
            "sees its own death",
            (
                Card("zulaport", "Zulaport Cutthroat", 0),
                Card("kardur", "Kardur, Doomscourge", 1),
                Card("skeletons", "Drudge Skeletons", 0, shields=((0, PLAIN),)),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "skeletons"),
                *_pass(0, 1),
                _block(1, ("kardur", "skeletons")),
                *_pass(0, 1),
                A.Destroy(targets=("skeletons",)),
                *_pass(0, 1),
                A.Destroy(targets=("zulaport",)),
                *_pass(0, 1),
            ),
        ),
        Script(
            "creature-dies-any",
            "An inline 'whenever a creature dies, each opponent loses 1 life and you gain 1 "
            "life' of B's (trigger.creature-dies) sees A's Grizzly Bears die, then itself",
            (
                Card("watcher", "watcher", 1, template=_ANY_WATCHER),
                Card("bears", "Grizzly Bears", 0),
            ),
            (
                A.Destroy(targets=("bears",)),
                *_pass(0, 1),
                A.Destroy(targets=("watcher",)),
                *_pass(0, 1),
            ),
        ),
        Script(
            "attacking-dies-in-combat",
            "Kardur, Doomscourge attacks and Hill Giant blocks it: both die in one check "
            "(704.3); Kardur sees its own death as an attacking creature (603.10a), the "
            "blocking Giant's is no attacking creature's (trigger.attacking-dies)",
            (
                Card("kardur", "Kardur, Doomscourge", 0),
                Card("giant", "Hill Giant", 1),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "kardur"),
                *_pass(0, 1),
                _block(1, ("giant", "kardur")),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            also=_EDITIONS,
        ),
        Script(
            "attacking-dies-together",
            "Kardur, Doomscourge and Grizzly Bears attack and are destroyed at once: Kardur, "
            "gone in the same event, sees both attacking creatures die (603.10a; "
            "trigger.attacking-dies), two triggers for A",
            (
                Card("kardur", "Kardur, Doomscourge", 0),
                Card("bears", "Grizzly Bears", 0),
                Card("giant", "Hill Giant", 1),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "kardur", "bears"),
                *_pass(0, 1),
                _block(1),
                A.Destroy(targets=("kardur", "bears")),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "dies-draw-fecundity",
            "Fecundity (trigger.dies-draw): a regenerated Uthden Troll did not die (701.19a); "
            "B's Grizzly Bears, controlled by A, are sacrificed and A, their controller as they "
            "last existed (603.10a), draws (draw.may, draw.card); the Troll at toughness 0 "
            "(704.5f) dies with A's library empty: A draws from it and loses at the next check "
            "(draw.empty-library, 704.5b); both resolutions also tried declined",
            (
                Card("fecundity", "Fecundity", 1),
                Card("troll", "Uthden Troll", 0, shields=((0, PLAIN),)),
                Card("bears", "Grizzly Bears", 1, controller=0),
            ),
            (
                A.Destroy(targets=("troll",)),
                A.Sacrifice(target="bears"),
                *_pass(0, 1),
                A.ModifyPowerToughness(target="troll", power=0, toughness=-2),
                A.CheckStateBasedActions(),
                *_pass(0, 1),
            ),
            library=(1, 1),
            tried=(
                (3, A.PassPriority(player=1, decline=True)),
                (7, A.PassPriority(player=1, decline=True)),
            ),
        ),
        Script(
            "mill-thought-scour-and-sentry",
            "Thought Scour at B mills two of three (mill.cards, one group), one of one "
            "(mill.short-library) and none of none; each time A draws, the third time from an "
            "empty library; a mill cast at a creature, or Thought Scour at one, is refused (701.17a, "
            "115.2). A's Soldevi Sentry "
            "regenerates and its rider, A's, names B (regen.rider.opponent-draws), who draws "
            "from an empty library or declines; B's Sentry's rider names A. Thought Scour at A "
            "itself mills nothing and draws from the empty library (704.5b)",
            (
                Card("sentry", "Soldevi Sentry", 0),
                Card("bsentry", "Soldevi Sentry", 1),
            ),
            (
                _cast(0, "Thought Scour", 1),
                *_pass(0, 1),
                _cast(0, "Thought Scour", 1),
                *_pass(0, 1),
                _cast(0, "Thought Scour", 1),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="sentry"),
                *_pass(0, 1),
                A.Destroy(targets=("sentry",)),
                *_pass(0, 1),
                A.PassPriority(player=0),
                A.ActivateAbility(player=1, source="bsentry"),
                *_pass(1, 0),
                A.Destroy(targets=("bsentry",)),
                *_pass(0, 1),
                _cast(0, "Thought Scour", 0),
                *_pass(0, 1),
            ),
            library=(3, 3),
            tried=(
                (
                    0,
                    A.CastSpell(
                        player=0,
                        name="mill at a creature",
                        effect=Effect(EffectKind.MILL, amount=2),
                        targets=(A.TargetChoice(card="sentry"),),
                        target_rule=TargetRule.CREATURE,
                    ),
                ),
                (0, SPELLS["Thought Scour"].cast(0, (A.TargetChoice(card="sentry"),))),
                (14, A.PassPriority(player=1, decline=True)),
                (21, A.PassPriority(player=1, decline=True)),
            ),
        ),
        Script(
            "reflexive-declined-and-removed",
            "Go-Shintai of Hidden Cruelty on both sides: at A's end step only A's triggers "
            "(trigger.end-step, 'your end step'), and A declines to pay: no reflexive trigger "
            "(trigger.reflexive, 608.2d); at B's end step B pays, and the reflexive trigger has "
            "no creature with toughness 1 or less to target: removed from the stack "
            "(stack.trigger-target, 603.3d)",
            (
                Card("shintai", "Go-Shintai of Hidden Cruelty", 0),
                Card("shintai-b", "Go-Shintai of Hidden Cruelty", 1),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                *_pass(0, 1),
                A.PassPriority(player=0),
                A.PassPriority(player=1, decline=True),
                *_pass(0, 1),
                *_pass(1, 0) * 4,
                A.DeclareAttackers(player=1, attackers=()),
                *_pass(1, 0) * 3,
                A.PassPriority(player=1),
                A.PassPriority(player=0, target="bears"),
            ),
            step=Step.MAIN2,
        ),
        Script(
            "creature-dies-exiled-and-wrath",
            "Zulaport Cutthroat (trigger.creature-dies): Grizzly Bears exiled instead of dying "
            "(Disintegrate, 614.6) trigger nothing; Wrath of God destroys Zulaport and the "
            "other Bears at once and Zulaport sees both deaths (603.10a)",
            (
                Card("zulaport", "Zulaport Cutthroat", 0),
                Card("exiled", "Grizzly Bears", 0),
                Card("bears", "Grizzly Bears", 0),
            ),
            (
                _cast(0, "Disintegrate", "exiled"),
                *_pass(0, 1),
                _cast(0, "Wrath of God"),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "tapped-triggers",
            "'Whenever this creature becomes tapped' (Soldevi Steam Beast, trigger.tapped): "
            "making a shield triggers nothing; the regeneration's tap does (701.19a); an "
            "already tapped Beast regenerating does not; attacking taps and triggers (508.1f); "
            "a stolen Beast's trigger is its new controller's (603.3a)",
            (
                Card("beast", "Soldevi Steam Beast", 0),
                Card("stolen", "Soldevi Steam Beast", 1, controller=0),
            ),
            (
                A.ActivateAbility(player=0, source="beast"),
                *_pass(0, 1),
                A.Destroy(targets=("beast",)),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="beast"),
                *_pass(0, 1),
                A.Destroy(targets=("beast",)),
                *_pass(0, 1),
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("stolen",)),
                *_pass(0, 1),
            ),
            step=Step.MAIN1,
        ),
        Script(
            "creature-tapped-watcher",
            "'Whenever a Merfolk you control becomes tapped' (Judge of Currents, "
            "trigger.creature-tapped): the regeneration's tap of its controller's Merfolk "
            "Raiders triggers it (701.19a, 603.2e); the opponent's Raiders regenerating does not; "
            "the Judge attacking triggers it for itself (508.1f); A gains the life as each "
            "resolves, and both resolutions are also tried declined (608.2d: nothing gained)",
            (
                Card("judge", "Judge of Currents", 0),
                Card("raiders", "Merfolk Raiders", 0, shields=((1, PLAIN),)),
                Card("theirs", "Merfolk Raiders", 1, shields=((1, PLAIN),)),
            ),
            (
                A.Destroy(targets=("raiders",)),
                *_pass(0, 1),
                A.Destroy(targets=("theirs",)),
                *_pass(0, 1),
                *_pass(0, 1),
                A.DeclareAttackers(player=0, attackers=("judge",)),
                *_pass(0, 1),
            ),
            step=Step.MAIN1,
            tried=(
                (2, A.PassPriority(player=1, decline=True)),
                (10, A.PassPriority(player=1, decline=True)),
            ),
        ),
        Script(
            "basilisk-regenerated",
            "Thicket Basilisk attacks, blocked by Drudge Skeletons (one shield) and Wall of "
            "Essence (trigger.eoc-destroy): only the non-Wall Skeletons get the delayed trigger "
            "(509.1i, 509.3f); the Basilisk's damage regenerates them (removed from combat, "
            "701.19a) and the delayed trigger still destroys them at end of combat (603.7c)",
            (
                Card("basilisk", "Thicket Basilisk", 0),
                Card("skeletons", "Drudge Skeletons", 1, shields=((1, PLAIN),)),
                Card("wall", "Wall of Essence", 1),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "basilisk"),
                *_pass(0, 1),
                _block(1, ("skeletons", "basilisk"), ("wall", "basilisk")),
                *_pass(0, 1),
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("basilisk", (("skeletons", 1), ("wall", 1))),),
                ),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "basilisk-apnap",
            "Cockatrice blocks Thicket Basilisk (trigger.eoc-destroy): each gets the other's "
            "delayed trigger, A's and B's, which go on the stack in APNAP order as the end of "
            "combat step begins (603.3b), B's resolving first",
            (
                Card("basilisk", "Thicket Basilisk", 0),
                Card("cockatrice", "Cockatrice", 1),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "basilisk"),
                *_pass(0, 1),
                _block(1, ("cockatrice", "basilisk")),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
            also=_EDITIONS,
        ),
        Script(
            "basilisk-blocker-dies",
            "Grizzly Bears block Thicket Basilisk and die in combat: the delayed trigger "
            "'destroy it at end of combat' went with the old object (400.7, 603.7c), so "
            "nothing triggers at end of combat",
            (
                Card("basilisk", "Thicket Basilisk", 0),
                Card("bears", "Grizzly Bears", 1),
            ),
            (
                *_pass(0, 1),
                *_pass(0, 1),
                _attack(0, "basilisk"),
                *_pass(0, 1),
                _block(1, ("bears", "basilisk")),
                *_pass(0, 1),
                *_pass(0, 1),
                *_pass(0, 1),
            ),
        ),
        Script(
            "exile-instead",
            "Disintegrate's 'if it would die this turn, exile it instead' meets umbra armor (the "
            "cubs stay, the Aura goes) and then 0 toughness (Disfigure: the cubs are exiled, no "
            "destruction), a regeneration shield (a spell with the instruction "
            "alone: River Boa regenerates and stays), then the unregenerable Boa's destruction "
            "(it is exiled, not put into the graveyard; replace.exile-instead)",
            (
                Card("cubs", "Grizzly Bears", 1),
                Card("umbra", "Snake Umbra", 1, attached_to="cubs"),
                Card("boa", "River Boa", 1, shields=((1, PLAIN),)),
            ),
            (
                _cast(0, "Disintegrate", "cubs"),
                *_pass(0, 1),
                _cast(0, "Disfigure", "cubs"),
                *_pass(0, 1),
                A.CastSpell(
                    player=0,
                    name="spear",
                    effect=Effect(EffectKind.DAMAGE, amount=2, exile_if_dies=True),
                    targets=(A.TargetChoice(card="boa"),),
                    sorcery=True,
                ),
                *_pass(0, 1),
                _cast(0, "Disintegrate", "boa"),
                *_pass(0, 1),
            ),
        ),
        Script(
            "remove-damage",
            "Pyramids' 'the next time target land would be destroyed this turn, remove all "
            "damage marked on it instead' (614.1a, 614.5) on an animated Spawning Pool: Murder "
            "is replaced (no tap); with a shield as well, the Pool's controller picks the "
            "Pyramids effect (616.1) and the shield stays for the next Murder; Wrath of God's "
            "'can't be regenerated' does not stop a new effect; lethal damage is replaced as "
            "well; an unused effect ends at cleanup (replace.remove-damage)",
            (
                Card("pool", "Spawning Pool", 0),
                Card("pyr", "Pyramids", 0),
                Card("bears", "Grizzly Bears", 0),
            ),
            (
                A.ActivateAbility(player=0, source="pool", ability=0),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                _cast(0, "Murder", "pool"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pool", ability=1),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                _cast(0, "Murder", "pool"),
                A.PassPriority(player=0),
                A.PassPriority(
                    player=1, choices=(A.ReplacementChoice("pool", 0, "remove-damage"),)
                ),
                _cast(0, "Murder", "pool"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                _cast(0, "Wrath of God"),
                *_pass(0, 1),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                _damage("effect", 1, "pool"),
                A.CheckStateBasedActions(),
                A.ActivateAbility(player=0, source="pyr", target="pool"),
                *_pass(0, 1),
                A.Cleanup(),
            ),
            tried=(
                (3, A.ActivateAbility(player=0, source="pyr", target="bears")),
                (3, A.ActivateAbility(player=0, source="pyr")),
                (3, A.ActivateAbility(player=1, source="pyr", target="pool")),
                (17, A.PassPriority(player=1)),
            ),
        ),
        Script(
            "graveyard-order",
            "Spells are cards: Terror destroys its caster's own bears and goes on top of them "
            "(608.2n); a Shock whose target was sacrificed in response goes there too (608.2b); "
            "Pyroclasm kills B's two creatures at the next state-based-action check, one group "
            "in B's graveyard above the first (404.3), with Pyroclasm in A's "
            "(zone.spell-to-graveyard, zone.graveyard-order)",
            (
                Card("bears", "Grizzly Bears", 0),
                Card("elf", "Grizzly Bears", 0),
                Card("b1", "Grizzly Bears", 1),
                Card("b2", "Grizzly Bears", 1, controller=0),
            ),
            (
                _cast(0, "Terror", "bears"),
                *_pass(0, 1),
                _cast(0, "Shock", "elf"),
                A.Sacrifice(target="elf"),
                *_pass(0, 1),
                _cast(0, "Pyroclasm"),
                *_pass(0, 1),
            ),
        ),
        Script(
            "counterspell",
            "Counterspell (stack.counter, 701.6a): B's Regenerate on B's troll is countered, so "
            "no shield is made and A's Murder destroys the troll; B's countered spell goes to "
            "B's graveyard, Counterspell to A's (608.2n). A's Wrath of God is countered by B: "
            "nothing is destroyed. Refused: Counterspell with no spell on the stack, at an "
            "ability, at a creature, and a spell other than a counter at a spell (601.2c, "
            "115.1)",
            (
                Card("troll", "Horned Troll", 1),
                Card("bears", "Grizzly Bears", 0),
                Card("skel", "Drudge Skeletons", 1),
            ),
            (
                A.PassPriority(player=0),
                _cast(1, "Regenerate", "troll"),
                A.PassPriority(player=1),
                _counter(0, 0),
                *_pass(0, 1),
                _cast(0, "Murder", "troll"),
                *_pass(0, 1),
                _cast(0, "Wrath of God"),
                A.PassPriority(player=0),
                _counter(1, 0),
                *_pass(1, 0),
                A.PassPriority(player=0),
                A.ActivateAbility(player=1, source="skel"),
                *_pass(1, 0),
            ),
            tried=(
                (0, _counter(0, 0)),
                (2, SPELLS["Counterspell"].cast(1, (A.TargetChoice(card="troll"),))),
                (
                    2,
                    SPELLS["Murder"].cast(1, (A.TargetChoice(spell=0),)),
                ),
                (16, _counter(1, 0)),
                (
                    2,
                    A.CastSpell(
                        player=1,
                        name="counter with a creature rule",
                        effect=Effect(EffectKind.COUNTER_SPELL),
                        targets=(A.TargetChoice(spell=0),),
                        target_rule=TargetRule.CREATURE,
                    ),
                ),
            ),
        ),
    )


def _counter(player: int, position: int) -> A.CastSpell:
    """Counterspell cast by ``player`` at the spell at stack ``position`` (0 the bottom)."""
    return SPELLS["Counterspell"].cast(player, (A.TargetChoice(spell=position),))


# --- sources -----------------------------------------------------------------------------------


@cache
def script_seeds() -> tuple[Seed, ...]:
    return tuple(
        play(name, start, s.actions, s.tried) for s in scripts() for name, start in s.starts()
    )


def _scripts(scope: Scope) -> list[Seed]:
    return list(script_seeds())


def _cover_scripts(scope: Scope) -> list[Seed]:
    from regen_model.checks.cover import script_runs

    return [
        Seed(f"cover script for {', '.join(goals)}", run.states, run.actions)
        for goals, run in script_runs()
    ]


def _cover_guides(scope: Scope) -> list[Seed]:
    from regen_model.checks.cover import guide_runs
    from regen_model.checks.systems import COVER_SCOPE

    runs: dict[int, tuple[str, Seed]] = {}
    for clause, found in guide_runs(COVER_SCOPE).items():
        for run in found:
            runs.setdefault(
                id(run), (clause, Seed(f"cover guide for {clause}", run.states, run.actions))
            )
    return [seed for _, seed in runs.values()]


def _cover_witnesses(scope: Scope) -> list[Seed]:
    """The cover check's witness of every clause branch (``verify``'s cover section's: from
    its guide runs or found by bounded model checking, a minute or more, so the ``full``
    preset only), each replayed on the engine by the cover check before it is returned."""
    from regen_model.checks.sections import cover_witnesses

    return [
        Seed(f"cover witness for {clause}", w.run.states, w.run.actions)
        for clause, w in sorted(cover_witnesses().items())
    ]


SOURCES: dict[str, Callable[[Scope], list[Seed]]] = {
    "scripts": _scripts,
    "cover-scripts": _cover_scripts,
    "cover-guides": _cover_guides,
    "cover-witnesses": _cover_witnesses,
}
