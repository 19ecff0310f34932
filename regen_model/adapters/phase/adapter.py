"""``PhaseEngineAdapter``: our scenarios on phase.rs, behind the cross-checking interface.

The interface (``supports``, ``start``, ``apply``, ``observe``, ``close``, plus ``name`` and
``version``) is the one the generic cross-checking framework expects of every engine.

Cards to cast must exist in a phase.rs game from its start: there is no working "create a card"
call. ``start`` therefore accepts the scenario's actions as an optional hint and stocks the
libraries with what they will cast. Without the hint (or when the hint was short), the adapter
rebuilds the board with the missing card and replays the actions so far; phase.rs is
deterministic for a fixed seed, so the replay reaches the same state. The hint only saves time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from regen_model.adapters.phase.board import Stock, build_board
from regen_model.adapters.phase.carddata import FILLER, MODEL_CARDS, NoHarness, PhaseCard
from regen_model.adapters.phase.database import CardDatabase, CardStatus, phase_version
from regen_model.adapters.phase.errors import AdapterError, Unsupported
from regen_model.adapters.phase.game import Json, PhaseGame
from regen_model.adapters.phase.observation import Observation
from regen_model.adapters.phase.read import read_observation
from regen_model.adapters.phase.support import check, effect_card, spell_card
from regen_model.adapters.phase.translate import NeedCard, Translator
from regen_model.model import actions as A
from regen_model.model.state import GameState

MAX_REBUILDS = 16


class PhaseEngineAdapter:
    """Runs one scenario at a time on phase.rs.

    ``budget_s``: wall-clock budget of one scenario (from ``start``); a call that returns after
    it raises ``AdapterTimeout``. phase.rs runs in-process, so a call that never returns can only
    be caught by running the scenario in a child process (``driver.run_on_phase(timeout_s=...)``).
    ``strict_cards``: treat a card phase.rs parsed only in part (e.g. Matopi Golem's rider) as
    unsupported instead of running it and letting the gap show as a divergence.
    """

    name = "phase.rs"

    def __init__(
        self,
        *,
        database: CardDatabase | None = None,
        budget_s: float | None = 30.0,
        strict_cards: bool = False,
    ) -> None:
        self.database = database or CardDatabase()
        self.budget_s = budget_s
        self.strict_cards = strict_cards
        self._start: GameState | None = None
        self._stock: Stock = Counter()
        self._cards: dict[str, PhaseCard] = {}
        self._done: list[A.Action] = []
        self._pg: PhaseGame | None = None
        self._ids: dict[str, int] = {}
        self._translator: Translator | None = None
        self._events: list[Json] = []
        self._unobserved: set[str] = set()
        self._deadline: float | None = None

    @property
    def version(self) -> str:
        return phase_version()

    # --- the interface -----------------------------------------------------------------------------

    def supports(self, state: GameState, actions: Sequence[A.Action]) -> Unsupported | None:
        found = check(state, actions)
        if found is not None:
            return found
        for template in state.setup.templates:
            problem = self._card_problem(MODEL_CARDS[template.name], strict=self.strict_cards)
            if problem is not None:
                return Unsupported(problem)
        for index, action in enumerate(actions):
            card = _action_card(action)
            if card is not None and card.name not in MODEL_CARDS:
                # Harness spells are our instrument, not the subject: they must parse fully.
                problem = self._card_problem(card, strict=True)
            elif card is not None:
                problem = self._card_problem(card, strict=self.strict_cards)
            else:
                problem = None
            if problem is not None:
                return Unsupported(f"{action.kind}: {problem}", index)
        return None

    def start(self, state: GameState, actions: Sequence[A.Action] = ()) -> None:
        """Set up ``state``; ``actions`` (optional) lets the libraries be stocked up front."""
        self._start = state
        self._done = []
        self._events = []
        self._unobserved = set()
        self._deadline = None if self.budget_s is None else time.monotonic() + self.budget_s
        self._stock = Counter()
        self._cards = {MODEL_CARDS[t.name].name: MODEL_CARDS[t.name] for t in state.setup.templates}
        self._cards[FILLER.name] = FILLER
        for action in actions:
            card = _action_card(action)
            if card is None:
                continue
            self._cards[card.name] = card
            seats = [action.player] if isinstance(action, A.CastSpell) else [0, 1]
            for seat in seats:
                self._stock[(seat, card.name)] += 1
        self._build()

    def apply(self, action: A.Action) -> None:
        for _ in range(MAX_REBUILDS):
            translator = self._require()
            try:
                self._unobserved |= translator.apply(action)
            except NeedCard as need:
                # Rebuild with one more copy, replay what was done (its events were already
                # collected), and try again.
                self._cards[need.card.name] = need.card
                self._stock[(need.seat, need.card.name)] += 1
                self._build()
                for done in self._done:
                    self._require().apply(done)
                self._game().events.clear()
                continue
            self._events.extend(self._game().events)
            self._game().events.clear()
            self._done.append(action)
            return
        raise AdapterError(f"could not find cards for {action.kind}")

    def observe(self) -> Observation:
        self._require()
        assert self._start is not None
        events, self._events = self._events, []
        unobserved, self._unobserved = frozenset(self._unobserved), set()
        return read_observation(
            self._game().state(), self._ids, self._start.setup.player_names, events, unobserved
        )

    def close(self) -> None:
        self._pg = None
        self._translator = None
        self._start = None

    # --- reporting -----------------------------------------------------------------------------------

    def card_report(self) -> list[CardStatus]:
        """What phase.rs made of every card of the model (built, partial, or failed)."""
        return [self.database.build(card) for card in MODEL_CARDS.values()]

    @property
    def card_data_path(self) -> str | None:
        """The card-data.json the current game was loaded from."""
        if not self._cards:
            return None
        return str(self.database.engine(self._cards.values())[1])

    # --- internals -----------------------------------------------------------------------------------

    def _build(self) -> None:
        assert self._start is not None
        engine, _ = self.database.engine(self._cards.values())
        self._pg, self._ids = build_board(engine, self._start, self._stock, self._deadline)
        self._pg.events.clear()  # the setup's own events belong to no step
        self._translator = Translator(self._pg, self._ids, self._start)

    def _game(self) -> PhaseGame:
        if self._pg is None:
            raise AdapterError("start() must be called first")
        return self._pg

    def _require(self) -> Translator:
        if self._translator is None:
            raise AdapterError("start() must be called first")
        return self._translator

    def _card_problem(self, card: PhaseCard, *, strict: bool) -> str | None:
        status = self.database.build(card)
        if not status.built or (strict and not status.complete):
            return f"phase.rs cannot use this card: {status.describe()}"
        return None


def _action_card(action: A.Action) -> PhaseCard | None:
    try:
        if isinstance(action, A.CastSpell):
            return spell_card(action)
        return effect_card(action)
    except NoHarness:
        return None
