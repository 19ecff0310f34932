"""The regen-model adapter of the toy engine: the worked example of a Python adapter.

An adapter translates three things and declares one:

* the start state (``regen_model`` ``GameState``) into the engine's own setup;
* each action of ``regen_model.model.actions`` into engine calls;
* the engine's state back into an ``Observation`` (only the fields it can report);
* ``supports``: what it cannot express, so those scenarios are skipped and counted.

Field mapping (keep such a table with every adapter, docs/crosscheck.md):

| projection field | toy engine                    |
|------------------|-------------------------------|
| zone             | ``Creature.zone``             |
| controller       | ``Creature.controller``       |
| tapped           | ``Creature.tapped``           |
| damage           | ``Creature.damage``           |
| shields          | ``Creature.shields``          |
| events           | ``regenerated``, ``destroyed``, ``damage``, ``zone`` from ``ToyGame.log`` |
| others           | not reported (unobserved)     |

Registered under the entry point group ``regen_model.engines`` (see ``pyproject.toml``), so
``regen-model crosscheck --engine toy-regen`` finds it once the package is installed; without
installing, ``--engine python:toy_regen.adapter:make_adapter`` with the package on PYTHONPATH.
"""

from __future__ import annotations

from collections.abc import Sequence

from regen_model.conform.adapter import ActionRejected, Unsupported
from regen_model.conform.observe import Observation, Value
from regen_model.model import actions as A
from regen_model.model.derived import controller
from regen_model.model.enums import Rider
from regen_model.model.state import GameState
from toy_regen.engine import Creature, Illegal, ToyGame

SUPPORTED = (
    A.CreateShield,
    A.Destroy,
    A.DealDamage,
    A.CheckStateBasedActions,
    A.Cleanup,
    A.Sacrifice,
    A.Exile,
)
EVENT_KINDS = frozenset({"regenerated", "destroyed", "damage", "zone"})


class ToyAdapter:
    name = "toy-regen"
    version = "0.1.0"

    def __init__(self) -> None:
        self.game: ToyGame | None = None
        self.players: tuple[str, ...] = ()
        self.seen = 0  # log entries already reported

    def supports(self, state: GameState, actions: Sequence[A.Action]) -> Unsupported | None:
        for card in state.cards:
            t = state.setup.templates[card.slot]
            handle = state.setup.handles[card.slot]
            if not t.is_creature or t.keywords or t.static_regeneration or t.damage_trigger:
                return Unsupported(f"{handle} ({t.name}): only plain creatures are modelled")
            if card.plus or card.minus or card.shield_counters or card.kw_granted:
                return Unsupported(f"{handle}: counters and keywords are not modelled")
            if card.cant_regen or card.deathtouched or card.attached_to is not None:
                return Unsupported(f"{handle}: can't-be-regenerated/deathtouch not modelled")
            if any(s.rider is not Rider.NONE for s in card.shields):
                return Unsupported(f"{handle}: shield riders are not modelled")
            if card.exile_if_dies or card.remove_damage:
                return Unsupported(f"{handle}: destruction replacement effects are not modelled")
        for action in actions:
            if not isinstance(action, SUPPORTED):
                return Unsupported(f"action kind {action.kind} is not modelled")
            if isinstance(action, A.CreateShield) and action.rider is not Rider.NONE:
                return Unsupported("shield riders are not modelled")
            if isinstance(action, A.DealDamage) and (
                action.keywords
                or action.cant_regen
                or any(s.player is not None for s in action.shares)
                or action.source in state.setup.handles
            ):
                return Unsupported("only plain damage from an outside source to creatures")
        return None

    def start(self, state: GameState) -> None:
        names = state.setup.player_names
        creatures = {}
        for card in state.cards:
            t = state.setup.templates[card.slot]
            handle = state.setup.handles[card.slot]
            creatures[handle] = Creature(
                name=t.name,
                owner=names[state.setup.owners[card.slot]],
                toughness=t.toughness,
                controller=names[controller(card)],
                zone=card.zone.value,
                tapped=card.tapped,
                damage=card.damage,
                shields=len(card.active_shields),
            )
        self.game = ToyGame(creatures)
        self.players = names
        self.seen = 0

    def apply(self, action: A.Action) -> None:
        game = self._game()
        try:
            if isinstance(action, A.CreateShield):
                game.regenerate(action.target)
            elif isinstance(action, A.Destroy):
                game.destroy(list(action.targets), not action.cant_be_regenerated)
            elif isinstance(action, A.DealDamage):
                for share in action.shares:
                    assert share.card is not None
                    game.damage(share.card, share.amount)
            elif isinstance(action, A.CheckStateBasedActions):
                game.state_based_actions()
            elif isinstance(action, A.Cleanup):
                game.end_of_turn_cleanup()
            elif isinstance(action, A.Sacrifice):
                game.sacrifice(action.target)
            elif isinstance(action, A.Exile):
                game.exile(action.target)
            else:
                raise ActionRejected(f"{action.kind} is not modelled")
        except Illegal as exc:
            raise ActionRejected(str(exc)) from None

    def observe(self) -> Observation:
        game = self._game()
        cards: dict[str, dict[str, Value]] = {}
        for handle, c in game.creatures.items():
            if c.zone != "battlefield":
                cards[handle] = {"zone": c.zone}
                continue
            cards[handle] = {
                "zone": c.zone,
                "controller": c.controller,
                "tapped": c.tapped,
                "damage": c.damage,
                "shields": c.shields,
            }
        events = tuple(_token(line) for line in game.log[self.seen :])
        self.seen = len(game.log)
        return Observation(cards, {}, events, EVENT_KINDS)

    def close(self) -> None:
        self.game = None

    def _game(self) -> ToyGame:
        if self.game is None:
            raise ActionRejected("start() first")
        return self.game


def _token(line: str) -> str:
    """The toy engine's log lines as projection event tokens."""
    word, *rest = line.split()
    if word == "damaged":
        return f"damage:{rest[0]}:{rest[1]}"
    if word == "moved":
        return f"zone:{rest[0]}:{rest[1]}"
    return f"{word}:{rest[0]}"


def make_adapter(arg: str | None = None) -> ToyAdapter:
    """The entry point's factory (``ARG`` of ``--engine toy-regen:ARG`` is unused here)."""
    return ToyAdapter()
