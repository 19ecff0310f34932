"""The vocabulary invariants and queries are written in: cards, shields, the game, step outputs.

Field names mirror ``model/state.py`` (and ``encoding/frame.py``, which mirrors it too), so a
reader of an invariant, of the engine and of the encoding sees one set of words. Enum-valued
fields are integers (the enum's ordinal, as in the encoding) and compare with enum members:
``c.zone == Zone.BATTLEFIELD``. "No card / no player" is -1 (``NONE``).

Three kinds of card fields:

* *state* fields, read in a state (``c.tapped``; in a step property ``c.pre.tapped`` and
  ``c.post.tapped``);
* *derived* fields computed from the state by ``model/derived.py`` (``toughness``,
  ``indestructible``, ``on_battlefield`` ...); the symbolic view computes them the same way;
* *printed* fields that never change (``creature``, ``static_regen``).

Step outputs (``c.out.regenerations``) are the per-card counters of ``encoding/outputs.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Protocol

from regen_model.encoding.outputs import CARD_FIELDS as OUTPUT_FIELDS
from regen_model.invariants.expr import (
    BoolExpr,
    CardBool,
    CardCount,
    CardInt,
    CardQuant,
    CardSum,
    CardVar,
    GameBool,
    GameInt,
    HistoryInt,
    IntExpr,
    OutputInt,
    ShieldBool,
    ShieldCount,
    ShieldInt,
    ShieldQuant,
    ShieldVar,
    SlotOf,
    StaticBool,
    StaticInt,
    Time,
)
from regen_model.model.enums import Decision, Rider, Step, Zone

NONE = -1


class _Fields(Protocol):
    def int(self, name: str) -> IntExpr: ...

    def bool(self, name: str) -> BoolExpr: ...


class _IntField:
    """A typed attribute ``x.name`` standing for ``x.int("name")``."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: _Fields, owner: type | None = None) -> IntExpr:
        return obj.int(self.name)


class _BoolField:
    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: _Fields, owner: type | None = None) -> BoolExpr:
        return obj.bool(self.name)


# name -> enum the integer encodes (None: a plain integer)
CARD_STATE_INTS: dict[str, type[StrEnum] | None] = {
    "zone": Zone,
    "gen": None,
    "control": None,
    "control_eot": None,
    "damage": None,
    "plus": None,
    "minus": None,
    "shield_counters": None,
    "power_eot": None,
    "toughness_eot": None,
    "attached_to": None,
    "blocking": None,
}
GHOST_INTS: tuple[str, ...] = ("shields_made", "destructions", "by_shield", "by_static", "by_other")
CARD_STATE_BOOLS: tuple[str, ...] = ("tapped", "deathtouched", "cant_regen", "attacking", "blocked")
CARD_DERIVED_INTS: tuple[str, ...] = ("toughness", "power", "controller")
CARD_DERIVED_BOOLS: tuple[str, ...] = (
    "on_battlefield",
    "in_combat",
    "indestructible",
    "is_creature",
)
STATIC_INTS: tuple[str, ...] = ("printed_power", "printed_toughness", "trigger")
STATIC_BOOLS: tuple[str, ...] = ("creature", "static_regen", "regen_ability")
SHIELD_INTS: dict[str, type[StrEnum] | None] = {"rider": Rider, "creator": None}
SHIELD_BOOLS: tuple[str, ...] = ("present", "used")
GAME_INTS: dict[str, type[StrEnum] | None] = {
    "turn": None,
    "active": None,
    "step": Step,
    "priority": None,
    "decision": Decision,
    "stack_size": None,
    "pending_size": None,
}
GAME_BOOLS: tuple[str, ...] = ("sba_pending",)

CARD_INTS: tuple[str, ...] = (*CARD_STATE_INTS, *GHOST_INTS, *CARD_DERIVED_INTS)
CARD_BOOLS: tuple[str, ...] = (*CARD_STATE_BOOLS, *CARD_DERIVED_BOOLS)


def enum_of(name: str) -> type[StrEnum] | None:
    """The enum an integer field encodes, for parsing literals like ``battlefield``."""
    for table in (CARD_STATE_INTS, SHIELD_INTS, GAME_INTS):
        if name in table:
            return table[name]
    return None


class Card:
    """A card slot in an expression: bound by ``all_cards``/``any_card``/``count_cards``.

    ``time`` is the state its fields are read in; ``pre``/``post`` re-time it in a step
    property. ``out`` gives the step outputs, ``total`` their sums over a run (queries).
    """

    __slots__ = ("time", "var")

    def __init__(self, var: CardVar, time: Time = "post") -> None:
        self.var = var
        self.time: Time = time

    @property
    def pre(self) -> Card:
        return Card(self.var, "pre")

    @property
    def post(self) -> Card:
        return Card(self.var, "post")

    @property
    def slot(self) -> IntExpr:
        """This card's slot number (compare with ``attached_to`` or ``blocking``)."""
        return SlotOf(self.var)

    @property
    def out(self) -> Outputs:
        return Outputs(self.var)

    @property
    def total(self) -> Totals:
        return Totals(self.var)

    def int(self, name: str) -> IntExpr:
        if name in CARD_INTS:
            return CardInt(self.var, name, self.time)
        if name in STATIC_INTS:
            return StaticInt(self.var, name)
        raise KeyError(f"a card has no integer field {name!r}")

    def bool(self, name: str) -> BoolExpr:
        if name in CARD_BOOLS:
            return CardBool(self.var, name, self.time)
        if name in STATIC_BOOLS:
            return StaticBool(self.var, name)
        raise KeyError(f"a card has no boolean field {name!r}")

    # state fields
    zone = _IntField()
    gen = _IntField()
    control = _IntField()
    control_eot = _IntField()
    damage = _IntField()
    plus = _IntField()
    minus = _IntField()
    shield_counters = _IntField()
    attached_to = _IntField()
    blocking = _IntField()
    tapped = _BoolField()
    deathtouched = _BoolField()
    cant_regen = _BoolField()
    attacking = _BoolField()
    blocked = _BoolField()
    # ghost bookkeeping (this turn, this object)
    shields_made = _IntField()
    destructions = _IntField()
    by_shield = _IntField()
    by_static = _IntField()
    by_other = _IntField()
    # derived
    toughness = _IntField()
    power = _IntField()
    controller = _IntField()
    on_battlefield = _BoolField()
    in_combat = _BoolField()
    indestructible = _BoolField()
    is_creature = _BoolField()  # a creature now (613.1d); ``creature`` is the printed type
    # printed
    creature = _BoolField()
    static_regen = _BoolField()
    trigger = _IntField()


class Outputs:
    """The step outputs of one card (``encoding/outputs.py`` documents each counter)."""

    __slots__ = ("var",)

    def __init__(self, var: CardVar) -> None:
        self.var = var

    def __getattr__(self, name: str) -> IntExpr:
        if name in OUTPUT_FIELDS:
            return OutputInt(name, self.var)
        raise AttributeError(f"no step output {name!r} (outputs: {', '.join(OUTPUT_FIELDS)})")


class Totals:
    """Step outputs summed over the run so far (only meaningful in ``find`` queries)."""

    __slots__ = ("var",)

    def __init__(self, var: CardVar) -> None:
        self.var = var

    def __getattr__(self, name: str) -> IntExpr:
        if name in OUTPUT_FIELDS:
            return HistoryInt(name, self.var)
        raise AttributeError(f"no step output {name!r} (outputs: {', '.join(OUTPUT_FIELDS)})")


class Shield:
    """A shield slot of a card, bound by ``all_shields``/``any_shield``/``count_shields``."""

    __slots__ = ("time", "var")

    def __init__(self, var: ShieldVar, time: Time = "post") -> None:
        self.var = var
        self.time: Time = time

    @property
    def pre(self) -> Shield:
        return Shield(self.var, "pre")

    @property
    def post(self) -> Shield:
        return Shield(self.var, "post")

    def int(self, name: str) -> IntExpr:
        if name not in SHIELD_INTS:
            raise KeyError(f"a shield has no integer field {name!r}")
        return ShieldInt(self.var, name, self.time)

    def bool(self, name: str) -> BoolExpr:
        if name not in SHIELD_BOOLS:
            raise KeyError(f"a shield has no boolean field {name!r}")
        return ShieldBool(self.var, name, self.time)

    present = _BoolField()
    used = _BoolField()
    rider = _IntField()
    creator = _IntField()


class Game:
    """Game-wide fields at one time."""

    __slots__ = ("time",)

    def __init__(self, time: Time = "post") -> None:
        self.time: Time = time

    def int(self, name: str) -> IntExpr:
        if name not in GAME_INTS:
            raise KeyError(f"the game has no integer field {name!r}")
        return GameInt(name, self.time)

    def bool(self, name: str) -> BoolExpr:
        if name not in GAME_BOOLS:
            raise KeyError(f"the game has no boolean field {name!r}")
        return GameBool(name, self.time)

    turn = _IntField()
    active = _IntField()
    step = _IntField()
    priority = _IntField()
    decision = _IntField()
    stack_size = _IntField()
    pending_size = _IntField()
    sba_pending = _BoolField()


game = Game("post")
pre = Game("pre")
post = Game("post")


# --- quantifiers --------------------------------------------------------------------------------


def _card(name: str) -> tuple[CardVar, Card]:
    var = CardVar(name)
    return var, Card(var)


def all_cards(body: Callable[[Card], BoolExpr], name: str = "c") -> BoolExpr:
    """``body`` holds for every card slot."""
    var, card = _card(name)
    return CardQuant("all", var, body(card))


def any_card(body: Callable[[Card], BoolExpr], name: str = "c") -> BoolExpr:
    var, card = _card(name)
    return CardQuant("any", var, body(card))


def count_cards(body: Callable[[Card], BoolExpr], name: str = "c") -> IntExpr:
    var, card = _card(name)
    return CardCount(var, body(card))


def sum_cards(body: Callable[[Card], IntExpr], name: str = "c") -> IntExpr:
    """The sum of ``body`` over every card slot."""
    var, card = _card(name)
    return CardSum(var, body(card))


def _shield(card: Card, name: str) -> tuple[ShieldVar, Shield]:
    var = ShieldVar(card.var, name)
    return var, Shield(var, card.time)


def all_shields(card: Card, body: Callable[[Shield], BoolExpr], name: str = "s") -> BoolExpr:
    """``body`` holds for every shield present on ``card`` at ``card``'s time."""
    var, shield = _shield(card, name)
    return ShieldQuant("all", var, card.time, body(shield))


def any_shield(card: Card, body: Callable[[Shield], BoolExpr], name: str = "s") -> BoolExpr:
    var, shield = _shield(card, name)
    return ShieldQuant("any", var, card.time, body(shield))


def count_shields(card: Card, body: Callable[[Shield], BoolExpr], name: str = "s") -> IntExpr:
    """How many shields present on ``card`` (at its time) satisfy ``body``."""
    var, shield = _shield(card, name)
    return ShieldCount(var, card.time, body(shield))
