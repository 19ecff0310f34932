"""Actions: everything that can happen next, with every player choice as an explicit field.

Two families share one ``step`` function:

* *Effects* (``CreateShield`` ... ``Cleanup``): "an effect now does this", as if a spell or
  ability resolved or a rule applied. They ignore priority, so a scenario can state a situation
  directly. ``CheckStateBasedActions`` and ``Cleanup`` run the rules of 704.3 and 514.2.
* *Game actions* (``PassPriority`` ... ``AssignCombatDamage``): what players do in a real turn.
  They are legal only for the player holding priority or owing the pending turn-based choice.

Every action carries ``choices``: answers to questions the rules may ask while it happens,
each naming the player who gives it. Today the only question is which destruction-replacement
effect to apply (616.1); the engine uses the answer of the player the rules designate (the
affected permanent's controller) and raises ``MissingChoice`` when that answer is needed and
absent. Answers by other players are ignored.

Cards are named by their scenario handle, players by index (0 is the first player).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from regen_model.model.effects import Effect, TargetRule, default_target_rule
from regen_model.model.enums import CounterKind, Keyword, Rider


@dataclass(frozen=True, slots=True)
class ReplacementChoice:
    """Player ``by`` chooses which replacement effect applies when ``permanent`` would be
    destroyed. ``use`` is ``"shield"`` (the oldest unused shield without a rider),
    ``"shield:ORIGIN"`` (the oldest unused shield made by ORIGIN), ``"shield#N"`` (the N-th
    shield made for it this turn, from 1), ``"static"``, ``"umbra:HANDLE"`` or
    ``"shield-counter"``.

    The answer of the player the rules designate is always used when the permanent would be
    destroyed and some replacement effect applies, even between shields that look alike
    (which one is used shows in the events and in which one is left); it must then name an
    applicable effect. Without an answer, interchangeable plain shields need no choice (the
    oldest is used), but effects with different outcomes do (``MissingChoice``)."""

    permanent: str
    by: int
    use: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """Base of all actions. ``kind`` is the action's name in files and reports."""

    kind: ClassVar[str] = "action"
    choices: tuple[ReplacementChoice, ...] = ()


# --- effects ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateShield(Action):
    """A resolving spell or ability regenerates ``target``: a shield is created (701.19a).
    ``creator`` defaults to the target's controller."""

    kind: ClassVar[str] = "create-shield"
    target: str
    origin: str = "regeneration shield"
    rider: Rider = Rider.NONE
    creator: int | None = None


@dataclass(frozen=True, slots=True)
class DamageShare:
    """``amount`` damage to a card (by handle) or a player (by index)."""

    amount: int
    card: str | None = None
    player: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealDamage(Action):
    """A source deals damage, possibly to several recipients at once (120.3).

    ``source`` names the source; if it is a card handle on the battlefield its current keywords
    count (plus ``keywords``). ``controller`` is the source's controller (for wither/infect
    counters and triggers); it defaults to the card's controller, else player 0.
    ``cant_regen``: a creature dealt damage this way can't be regenerated this turn.
    """

    kind: ClassVar[str] = "deal-damage"
    source: str
    shares: tuple[DamageShare, ...]
    keywords: frozenset[Keyword] = frozenset()
    controller: int | None = None
    combat: bool = False
    cant_regen: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Destroy(Action):
    """Destroy one or more permanents at once (701.8), optionally with the rider "they can't
    be regenerated" for this destruction only (608.2c)."""

    kind: ClassVar[str] = "destroy"
    targets: tuple[str, ...]
    cant_be_regenerated: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Sacrifice(Action):
    kind: ClassVar[str] = "sacrifice"
    target: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Exile(Action):
    kind: ClassVar[str] = "exile"
    target: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Attach(Action):
    """An effect attaches the Aura or Equipment ``attachment`` to ``target`` (701.3a): moving
    it from whatever it was attached to ("attach ... to another creature"). An effect that
    tries to attach it to something it can't be attached to does nothing (701.3b)."""

    kind: ClassVar[str] = "attach"
    attachment: str
    target: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveAndReturn(Action):
    """The permanent is exiled and returned at once (a flicker): a new object (400.7). It
    returns under the control of ``controller`` if given ("under your control"), else under
    its owner's (110.2a)."""

    kind: ClassVar[str] = "leave-and-return"
    target: str
    controller: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeControl(Action):
    kind: ClassVar[str] = "change-control"
    target: str
    player: int
    until_end_of_turn: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ModifyPowerToughness(Action):
    """+power/+toughness until end of turn (negative values shrink)."""

    kind: ClassVar[str] = "modify-pt"
    target: str
    power: int = 0
    toughness: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AddCounters(Action):
    kind: ClassVar[str] = "add-counters"
    target: str
    counter: CounterKind
    amount: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantKeyword(Action):
    """Until end of turn, ``target`` gains (or, with ``remove``, loses) ``keyword``."""

    kind: ClassVar[str] = "grant-keyword"
    target: str
    keyword: Keyword
    remove: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeType(Action):
    """Until end of turn, ``target`` becomes a creature (its own animation, or a printed
    creature back from not being one) or, with ``creature=False``, stops being a creature
    (a type-changing effect of layer 4, 613.1d)."""

    kind: ClassVar[str] = "change-type"
    target: str
    creature: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class MakeUnregenerable(Action):
    """``target`` can't be regenerated this turn (701.19c)."""

    kind: ClassVar[str] = "make-unregenerable"
    target: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckStateBasedActions(Action):
    """The full 704.3 process: checks until none apply, then waiting triggers go on the stack."""

    kind: ClassVar[str] = "check-sba"


@dataclass(frozen=True, slots=True, kw_only=True)
class Cleanup(Action):
    """The simultaneous cleanup actions of 514.2 (damage removal, "this turn" effects end)."""

    kind: ClassVar[str] = "cleanup"


# --- game actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PassPriority(Action):
    """``player`` passes priority. ``decline``: when this pass resolves an ability whose
    effect is "that player may draw a card" (Fecundity's trigger, Soldevi Sentry's rider;
    ``EffectKind.MAY_DRAW``) or "you may gain N life" (Judge of Currents' trigger, "you" its
    controller; ``EffectKind.MAY_GAIN``), the answer of the player it names is no (the
    default is yes: they draw, or gain the life). The question is
    that player's whoever passes last (the choice is made as the ability resolves, 608.2d);
    the field carries their answer, like ``choices`` carries 616.1 answers, and is ignored
    when the pass resolves anything else. It is also the answer "I don't pay" of the
    controller of an ability whose effect is "you may pay {1}. When you do, ..." (Go-Shintai
    of Hidden Cruelty's, ``EffectKind.WHEN_YOU_DO``).

    ``target``: the creature (a handle) named as the target of a triggered ability whose
    target is chosen as it is put on the stack (603.3d), the reflexive trigger that paying
    makes (603.12): it goes on the stack as the pass ends, when a player would next receive
    priority, so the pass that resolves its parent carries the choice of that ability's
    controller, like ``decline``. It must name a legal target when there is one, and is
    ignored when no such ability goes on the stack."""

    kind: ClassVar[str] = "pass"
    player: int
    decline: bool = False
    target: str | None = None


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """A target named in a game action: a card handle, a player index, or the stack
    position of a spell (0 the bottom; Counterspell's "target spell", 115.1)."""

    card: str | None = None
    player: int | None = None
    spell: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CastSpell(Action):
    """``player`` casts a spell named ``name`` with ``effect`` (costs are not modelled).

    ``target_rule`` is what the spell may target (601.2c; Terror's "nonartifact, nonblack
    creature"); left out, it becomes the usual rule for its effect
    (``effects.default_target_rule``), so equal casts compare equal however they were made."""

    kind: ClassVar[str] = "cast"
    player: int
    name: str
    effect: Effect
    targets: tuple[TargetChoice, ...] = ()
    sorcery: bool = False
    target_rule: TargetRule | None = None

    def __post_init__(self) -> None:
        if self.target_rule is None:
            object.__setattr__(self, "target_rule", default_target_rule(self.effect.kind))

    @property
    def rule(self) -> TargetRule:
        """The target rule in force (always set once the action exists)."""
        return self.target_rule or default_target_rule(self.effect.kind)


@dataclass(frozen=True, slots=True, kw_only=True)
class ActivateAbility(Action):
    """``player`` activates the ``ability``-th activated ability of ``source``. ``target``:
    the creature an equip ability targets (702.6a); the other abilities have no target.
    ``sacrifice``: the creature sacrificed to pay a "Sacrifice a creature" cost (Dark
    Privilege, 601.2h), only with such an ability."""

    kind: ClassVar[str] = "activate"
    player: int
    source: str
    ability: int = 0
    target: str | None = None
    sacrifice: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareAttackers(Action):
    kind: ClassVar[str] = "declare-attackers"
    player: int
    attackers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareBlockers(Action):
    """``blocks``: (blocker, attacker) pairs; each blocker blocks one attacker."""

    kind: ClassVar[str] = "declare-blockers"
    player: int
    blocks: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderBlockers(Action):
    """M10 only: the damage assignment order for one attacker's blockers (509.2 of that era)."""

    kind: ClassVar[str] = "order-blockers"
    player: int
    attacker: str
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Division:
    """How one attacking creature divides its combat damage: (recipient, amount) pairs, where
    the recipient is a blocker's handle or ``"player"`` (the defending player)."""

    attacker: str
    shares: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignCombatDamage(Action):
    """The active player's damage assignment (510.1): a ``Division`` for each attacker whose
    damage can be divided in more than one legal way. Forced assignments need no entry."""

    kind: ClassVar[str] = "assign-combat-damage"
    player: int
    divisions: tuple[Division, ...] = ()


EFFECT_ACTIONS: tuple[type[Action], ...] = (
    CreateShield,
    DealDamage,
    Destroy,
    Sacrifice,
    Exile,
    LeaveAndReturn,
    ChangeControl,
    ModifyPowerToughness,
    AddCounters,
    GrantKeyword,
    ChangeType,
    MakeUnregenerable,
    CheckStateBasedActions,
    Cleanup,
    Attach,
)
GAME_ACTIONS: tuple[type[Action], ...] = (
    PassPriority,
    CastSpell,
    ActivateAbility,
    DeclareAttackers,
    DeclareBlockers,
    OrderBlockers,
    AssignCombatDamage,
)
ALL_ACTIONS: tuple[type[Action], ...] = EFFECT_ACTIONS + GAME_ACTIONS
ACTION_BY_KIND: dict[str, type[Action]] = {cls.kind: cls for cls in ALL_ACTIONS}
