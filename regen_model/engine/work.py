"""The engine's scratch pad for one step: a mutable copy of the state plus the event log.

``step`` copies the immutable ``GameState`` into a ``Work``, the rule functions change the
copy in place and append events, and ``freeze`` turns it back into a new ``GameState``. The
caller never sees a mutable state; inside one step, in-place updates keep the code short and
fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from regen_model.engine.errors import IllegalAction, UnknownName
from regen_model.model.actions import ReplacementChoice
from regen_model.model.enums import Decision, Edition, Mutant, Step
from regen_model.model.events import Event, EventKind, Value, event
from regen_model.model.rules import Rules
from regen_model.model.state import (
    Card,
    Combat,
    GameState,
    GraveItem,
    Player,
    Setup,
    StackObject,
)


class StartBoard(NamedTuple):
    """A board (``model.derived.Board``) as a simultaneous event began: what the questions
    of a destruction in that event read (``Work.event_start``)."""

    setup: Setup
    cards: tuple[Card, ...]
    players: tuple[Player, ...]


def _grave_key(item: GraveItem) -> tuple[int, int, str]:
    """The canonical order within a graveyard group: card slots by slot, then spell names."""
    return (0, item, "") if isinstance(item, int) else (1, 0, item)


class Work:
    """Mutable copy of a ``GameState`` for the duration of one step."""

    __slots__ = (
        "active",
        "before",
        "cards",
        "choices",
        "combat",
        "decision",
        "decline",
        "destroying",
        "edition",
        "events",
        "gy_open",
        "passed",
        "pending",
        "players",
        "priority",
        "reflexive",
        "reflexive_target",
        "rules",
        "setup",
        "stack",
        "step",
        "together",
        "turn",
    )

    def __init__(
        self, state: GameState, rules: Rules, choices: tuple[ReplacementChoice, ...] = ()
    ) -> None:
        self.setup: Setup = state.setup
        self.rules = rules
        self.choices = choices
        # the answer "no" to a "may draw" or "may gain" the step resolves
        # (``PassPriority.decline``, 608.2d)
        self.decline = False
        # the slot a pass names as the target of a triggered ability whose target is chosen
        # as it is put on the stack (``PassPriority.target``, 603.3d), or None
        self.reflexive_target: int | None = None
        # the reflexive trigger this step made (``effects.when_you_do``), waiting for its
        # target until the waiting triggers go on the stack (603.3d), or None
        self.reflexive: StackObject | None = None
        self.edition: Edition = state.edition
        self.turn = state.turn
        self.active = state.active
        self.step: Step = state.step
        self.priority: int | None = state.priority
        self.passed: frozenset[int] = state.passed
        self.decision: Decision = state.decision
        self.stack: list[StackObject] = list(state.stack)
        self.pending: list[StackObject] = list(state.pending)
        self.players: list[Player] = list(state.players)
        self.cards: list[Card] = list(state.cards)
        self.combat: Combat = state.combat
        self.events: list[Event] = []
        # The permanents as the simultaneous event under way began (``simultaneous``), or None
        # outside one: what "whenever a creature dies" abilities look back to (603.10a).
        self.before: tuple[Card, ...] | None = None
        # The permanents that simultaneous event destroys (``simultaneous``), empty outside
        # one: an umbra-armor Aura among them is destroyed once, by the event itself, when it
        # also saves the permanent it enchants (702.89a; ``destruction.apply_option``).
        self.destroying: frozenset[int] = frozenset()
        # Graveyard groups (404.3): while ``together`` (one event moving several cards at
        # once: a state-based-action check, 704.3, or one "destroy" instruction, 701.8), the
        # players in ``gy_open`` have their top group open to more cards of that event.
        self.together = False
        self.gy_open: set[int] = set()

    @contextmanager
    def simultaneous(self, destroying: Iterable[int] = ()) -> Iterator[None]:
        """The moves made inside happen at one time (704.3, 608.2f: "destroy all creatures",
        one check of state-based actions): an ability that watches for deaths sees each of
        them from the permanent as it was when the event began, so a watcher that leaves in
        the same event still sees the others die (603.10a); whether a permanent the event
        destroys is indestructible and which replacement effects apply to it are decided on
        the game as the event began too (``event_start``); and the cards put into one
        graveyard are one group there (404.3, ``to_graveyard``). ``destroying``: the
        permanents the event destroys."""
        saved, saved_destroying = self.before, self.destroying
        self.before = tuple(self.cards)
        self.destroying = frozenset(destroying)
        self.begin_together()  # such events never nest: one group per graveyard (404.3)
        try:
            yield
        finally:
            self.before, self.destroying = saved, saved_destroying
            self.end_together()

    def event_start(self) -> StartBoard:
        """The game as the simultaneous event under way began, or as it is now outside one:
        what a destruction in that event is decided on (608.2f, 704.3). The mutant
        ``destructions-in-sequence`` reads it as it is now, each destruction seeing what the
        earlier ones of the event did. Every destruction of the rules happens inside one
        (``step._destroy``, ``effects.apply_effect``, ``sba.sba_pass``); only mutants destroy
        outside one (``sacrifice-uses-shield``, ``reflexive-inline``)."""
        cards = self.before
        if cards is None or self.mutant(Mutant.DESTRUCTIONS_IN_SEQUENCE):
            cards = tuple(self.cards)
        return StartBoard(self.setup, cards, tuple(self.players))

    def watcher(self, slot: int) -> Card:
        """The permanent in ``slot`` as a watcher of the event under way: as it was when a
        simultaneous event began, or as it is now outside one (603.10a)."""
        return self.cards[slot] if self.before is None else self.before[slot]

    def freeze(self) -> GameState:
        return GameState(
            setup=self.setup,
            edition=self.edition,
            turn=self.turn,
            active=self.active,
            step=self.step,
            priority=self.priority,
            passed=self.passed,
            decision=self.decision,
            stack=tuple(self.stack),
            pending=tuple(self.pending),
            players=tuple(self.players),
            cards=tuple(self.cards),
            combat=self.combat,
        )

    def begin_together(self) -> None:
        """Cards put into a graveyard from now until ``end_together`` are put there at the
        same time (404.3): one group per graveyard."""
        self.together = True
        self.gy_open = set()

    def end_together(self) -> None:
        self.together = False
        self.gy_open = set()

    def to_graveyard(self, player: int, item: GraveItem) -> None:
        """``item`` (a card slot or a spell's name) is put on top of ``player``'s graveyard
        (404.1): in a new group, or in the open group of the current event (``together``)."""
        if not self.together:
            self.gy_open = set()
        gy = self.players[player].graveyard
        if player in self.gy_open:
            top = tuple(sorted((*gy[-1], item), key=_grave_key))
            gy = (*gy[:-1], top)
        else:
            gy = (*gy, (item,))
            self.gy_open.add(player)
        self.players[player] = self.players[player]._replace(graveyard=gy)

    # --- small helpers used by every rule module ---------------------------------------------

    def mutant(self, m: Mutant) -> bool:
        return m in self.rules.mutants

    def emit(self, kind: EventKind, clause: str, subject: str | None = None, **data: Value) -> None:
        self.events.append(event(kind, clause, subject, **data))

    def trigger(self, obj: StackObject, clause: str, subject: str, **data: Value) -> None:
        """``obj``, a triggered ability, triggers (603.2): it waits until a player would
        receive priority, then goes on the stack (stack.triggers)."""
        self.pending.append(obj)
        controller = self.pname(obj.controller)
        self.emit(
            EventKind.TRIGGERED, clause, subject, ability=obj.name, controller=controller, **data
        )

    def name(self, slot: int) -> str:
        return self.setup.handles[slot]

    def pname(self, player: int) -> str:
        return self.setup.player_names[player]

    def slot(self, handle: str, field: str = "target") -> int:
        try:
            return self.setup.handles.index(handle)
        except ValueError:
            raise UnknownName(f"no card named {handle!r} in this scenario", field=field) from None

    def on_battlefield(self, handle: str, clause: str, field: str = "target") -> int:
        """Slot of ``handle``, which must be a permanent on the battlefield."""
        slot = self.slot(handle, field)
        card = self.cards[slot]
        if not card.on_battlefield:
            where = "phased out" if card.in_battlefield_zone else f"in the {card.zone.value}"
            raise IllegalAction(
                f"{handle} is not on the battlefield (it is {where})",
                clause,
                field,
            )
        return slot

    def check_player(self, player: int, field: str = "player") -> None:
        if not 0 <= player < len(self.players):
            raise UnknownName(f"no player with index {player}", field=field)

    @property
    def defending(self) -> int:
        return 1 - self.active
