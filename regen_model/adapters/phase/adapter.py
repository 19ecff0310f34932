"""``PhaseEngineAdapter``: phase.rs behind the cross-checking framework's adapter protocol.

It implements ``regen_model.conform.adapter.EngineAdapter`` directly (``supports``, ``start``,
``apply``, ``observe``, ``close``, ``name``, ``version``), reports the framework's
``Observation`` and raises the framework's exceptions (``errors.py``), so ``crosscheck --engine
phase`` needs no conversion layer: the package declares it under the ``regen_model.engines``
entry point group exactly as a third-party engine would (``make_adapter``).

Cards to cast must exist in a phase.rs game from its start: there is no working "create a card"
call. The protocol's ``start`` receives only the state, but the framework always asks
``supports(state, actions)`` first, so the adapter keeps those actions as a hint and stocks the
libraries with what they will cast. Without the hint (or when the hint was short), the adapter
rebuilds the board with the missing card and replays the actions so far; phase.rs is
deterministic for a fixed seed, so the replay reaches the same state. The hint only saves time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from regen_model.adapters.phase.board import Stock, build_board
from regen_model.adapters.phase.carddata import (
    FILLER,
    LIBRARY_CARD,
    MODEL_CARDS,
    NoHarness,
    PhaseCard,
)
from regen_model.adapters.phase.database import CardDatabase, CardStatus, phase_version
from regen_model.adapters.phase.errors import AdapterError, Rejected, Unsupported
from regen_model.adapters.phase.game import Json, PhaseGame
from regen_model.adapters.phase.read import read_observation
from regen_model.adapters.phase.support import check, effect_card, spell_card, start_effects
from regen_model.adapters.phase.translate import NeedCard, Translator
from regen_model.conform.observe import Observation, compare
from regen_model.model import actions as A
from regen_model.model.state import GameState

# What phase.rs 0.103 itself lacks, not the adapter: each feature with the evidence. Declared
# lacking (the generator builds no case with it), and a case that has one anyway (``--case``)
# is skipped with the reason (``supports``), so a report names phase.rs, not the adapter.
_PYRAMIDS = (
    "phase.rs 0.103 does not parse Pyramids' \"the next time target land would be destroyed "
    'this turn, remove all damage marked on it instead": build_oracle_face makes the mode an '
    "Unimplemented effect (unparsed_replacement), with nothing to map (616.1, 614.1a)"
)
NOT_IN_PHASE: dict[str, str] = {"remove-damage-instead": _PYRAMIDS, "card:Pyramids": _PYRAMIDS}

MAX_REBUILDS = 16
MAX_ALTERNATIVES = 8  # other answers tried for unasked replacement choices in one action


class PhaseEngineAdapter:
    """Runs one scenario at a time on phase.rs.

    ``budget_s``: wall-clock budget of one scenario (from ``start``); a call that returns after
    it raises ``AdapterTimeout``. phase.rs runs in-process, so a call that never returns can only
    be cut by running the adapter in a child process (``crosscheck --isolate``).
    ``strict_cards``: treat a card phase.rs parsed only in part (e.g. Matopi Golem's rider) as
    unsupported instead of running it and letting the gap show as a divergence.
    """

    name = "phase.rs"
    # Features of the vocabulary (regen_model.conform.features) phase.rs cannot express here
    # (support.py says why for each); the generator builds no case that needs one.
    lacks = frozenset(
        {
            # a shield the adapter writes (a start's, an effect's) carries no rider; phase.rs's
            # own riders (Matopi Golem's, Soldevi Sentry's) are Unimplemented (PH-03)
            "shield-rider",
            "action:cleanup",  # 514.2 runs in its cleanup step only
            "combat:M10",  # phase.rs implements the current (FDN) combat damage rules
            "combat:pre-M10",
            "action:order-blockers",
            "destroy-several",  # several permanents at once only with "destroy all"
            "legend-duplicates",  # phase.rs applies the legend rule, the model leaves it out
            "damage-rider",  # direct damage with a can't-be-regenerated rider needs a spell
            "damage-to-trigger",  # direct damage would skip the damage trigger
            "damage-to-shield-counter",  # direct damage would skip the counter's replacement
            "custom-cards",  # cards need phase.rs card data built by the adapter
            "start-effects",  # "this turn" effects of a start are made with spells
            "effect-with-sba-pending",  # a harness spell makes phase.rs perform the SBA at once
            "pre-M10-deathtouch",  # phase.rs has only the current, state-based deathtouch
            "damage-to-prevention",  # direct damage would skip the prevention effect (615)
            "granted-abilities",  # activating what an Aura gives the creature is not mapped
            "card:Skeletal Grimace",  # its given ability is that
            # Issue 13 items 3-4 are mapped (translate._ActivateAbility: a "Regenerate target
            # creature" target, a {T} or "Sacrifice this" cost phase.rs pays itself, the
            # creature a "Sacrifice a creature" cost sacrifices; Kill Shot's and Asphyxiate's
            # target status is phase.rs's own), all but Pyramids' mode, phase.rs's gap
            # (NOT_IN_PHASE below). Issue 13 item 5's triggers (DIES_FEATURES: Onulet, Soldevi
            # Steam Beast, Zulaport Cutthroat, Kardur, the Basilisks, Fecundity, Go-Shintai)
            # are phase.rs's own cards, and a trigger an effect leaves waiting
            # ("effect-leaves-trigger", 603.3) is kept out of the stack's size until a player
            # receives priority (translate.Translator.waiting). Item 2's mill (Thought Scour:
            # the milled model cards are read back from phase.rs's graveyard) and Soldevi
            # Sentry's activation are mapped too; the Sentry's rider, which phase.rs 0.103
            # leaves Unimplemented, is PH-03 (its shield carries none, "shield-rider" above).
            # Judge of Currents (CREATURE_TAPPED_FEATURES) is mapped too: phase.rs parses it
            # whole (a Taps trigger for a Merfolk you control, its GainLife optional) and asks
            # the "you may" as the trigger resolves, answered with the pass's decline as
            # Fecundity's is (translate.Translator._may_prompt, 608.2d); the tap of a
            # regeneration makes it trigger no more than the Beast's (PH-33). Issue 13 item 1's
            # Counterspell (COUNTER_FEATURES) is mapped too: phase.rs parses it whole, and the
            # model's stack position of the target spell (0 the bottom) becomes the object id
            # of phase.rs's stack entry (translate.Translator._target_ref; 115.1, 701.6a)
            *NOT_IN_PHASE,
        }
    )

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
        self._hint: tuple[GameState, tuple[A.Action, ...]] | None = None
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
        self._setup: tuple[A.Action, ...] = ()

    @property
    def version(self) -> str:
        return phase_version()

    # --- the protocol --------------------------------------------------------------------------

    def supports(self, state: GameState, actions: Sequence[A.Action]) -> Unsupported | None:
        """``None`` if phase.rs can express the scenario (a static check that runs no engine);
        the actions are also kept as the stocking hint for the ``start`` of this state."""
        self._hint = (state, tuple(actions))
        for template in state.setup.templates:  # phase.rs's own gaps first: they name phase.rs
            missing = NOT_IN_PHASE.get(f"card:{template.name}")
            if missing is not None:
                return Unsupported(missing)
        found = check(state, actions)
        if found is not None:
            return found
        for template in state.setup.templates:
            problem = self._card_problem(MODEL_CARDS[template.name], strict=self.strict_cards)
            if problem is not None:
                return Unsupported(problem)
        for effect in start_effects(state):
            card = _action_card(effect, state)
            problem = None if card is None else self._card_problem(card, strict=True)
            if problem is not None:
                return Unsupported(f"an until-end-of-turn effect at the start: {problem}")
        for index, action in enumerate(actions):
            card = _action_card(action, state)
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

    def start(self, state: GameState) -> None:
        """Set up ``state``, stocking the libraries for the actions last given to ``supports``
        with this state (if any)."""
        actions = self._hint[1] if self._hint is not None and self._hint[0] == state else ()
        self._start = state
        self._done = []
        self._events = []
        self._unobserved = set()
        self._deadline = None if self.budget_s is None else time.monotonic() + self.budget_s
        self._stock = Counter()
        self._cards = {MODEL_CARDS[t.name].name: MODEL_CARDS[t.name] for t in state.setup.templates}
        self._cards[FILLER.name] = FILLER
        if any(p.library for p in state.players):  # the model's library cards (board.py)
            self._cards[LIBRARY_CARD.name] = LIBRARY_CARD
        self._setup = start_effects(state)
        for action in (*self._setup, *actions):
            card = _action_card(action, state)
            if card is None:
                continue
            self._cards[card.name] = card
            seats = [action.player] if isinstance(action, A.CastSpell) else [0, 1]
            for seat in seats:
                self._stock[(seat, card.name)] += 1
        self._build()

    def apply(self, action: A.Action) -> None:
        """Perform ``action``. When phase.rs asks a replacement choice the action has no answer
        for, the other answers are tried from the same state: if they lead to different games,
        phase.rs lets a player pick an outcome where the rules leave no choice, and the step
        raises ``Rejected`` (a divergence naming the answers and what differs)."""
        mark = len(self._game().events)
        try:
            unobserved = self._perform(action, ())
        except Rejected:
            # a refusal leaves the game as it was: the adapter's own commands before phase.rs
            # refused (moving to the step, answering a prompt) are undone by a replay, so the
            # next action meets the state the refused one did not change (the probes of
            # ``crosscheck --probe-refusals``, docs/phase-report.md)
            self._replay()
            raise
        asked = self._require().asked
        if asked:
            self._try_other_answers(action, mark, unobserved, asked)
        self._unobserved |= unobserved
        self._events.extend(self._game().events)
        self._game().events.clear()
        self._done.append(action)

    def observe(self) -> Observation:
        """The projection now, with the events since the last call."""
        self._require()
        assert self._start is not None
        events, self._events = self._events, []
        unobserved, self._unobserved = frozenset(self._unobserved), set()
        return self._peek(events, unobserved)

    def close(self) -> None:
        self._pg = None
        self._translator = None
        self._start = None

    # --- reporting -----------------------------------------------------------------------------

    def card_report(self) -> list[CardStatus]:
        """What phase.rs made of every card of the model (built, partial, or failed)."""
        return [self.database.build(card) for card in MODEL_CARDS.values()]

    @property
    def card_data_path(self) -> str | None:
        """The card-data.json the current game was loaded from."""
        if not self._cards:
            return None
        return str(self.database.engine(self._cards.values())[1])

    # --- internals -----------------------------------------------------------------------------

    def _perform(self, action: A.Action, forced: Sequence[int]) -> frozenset[str]:
        """Translate ``action`` once, rebuilding the board when a card to cast is missing;
        returns the event kinds phase.rs could not report for it."""
        for _ in range(MAX_REBUILDS):
            translator = self._require()
            translator.forced, translator.asked = list(forced), []
            try:
                return translator.apply(action)
            except NeedCard as need:
                # Rebuild with one more copy, replay what was done (its events were already
                # collected), and try again.
                self._cards[need.card.name] = need.card
                self._stock[(need.seat, need.card.name)] += 1
                self._replay()
        raise AdapterError(f"could not find cards for {action.kind}")

    def _replay(self) -> None:
        """A fresh board with the actions done so far replayed (their events were collected
        already). phase.rs is deterministic for a fixed seed, so this is the same game."""
        self._build()
        for done in self._done:
            self._require().apply(done)
        self._game().events.clear()

    def _try_other_answers(
        self,
        action: A.Action,
        mark: int,
        unobserved: frozenset[str],
        asked: list[list[str]],
    ) -> None:
        """Replay ``action`` from the state before it with each other answer to each unasked
        choice (one at a time, the rest answered with the first candidate), compare the results
        with the first run's, and go back to the first run.

        The state before the action is rebuilt by a replay rather than kept as a snapshot: an
        unasked choice is rare, and a snapshot before every action would cost a full state
        export each time. The replay is done once: the game it rebuilds is exported then
        (``PhaseGame.snapshot``), and each further answer starts from that export and a copy
        of the translator (``Translator.copy_onto``), not from another replay of every action
        so far (a 40-action case spent most of its 11 s in those replays).
        """
        first_pg, first_translator = self._game(), self._require()
        first = self._peek(first_pg.events[mark:], unobserved)
        alternatives = [
            [0] * prompt + [answer]
            for prompt, candidates in enumerate(asked)
            for answer in range(1, len(candidates))
        ][:MAX_ALTERNATIVES]
        differing: list[str] = []
        before: tuple[PhaseGame, Json, Translator] | None = None
        for forced in alternatives:
            if before is None:
                self._replay()
                pg, translator = self._game(), self._require()
                before = (pg, pg.snapshot(), translator.copy_onto(pg))
            else:
                pg = before[0].restored(before[1])
                self._pg, self._translator = pg, before[2].copy_onto(pg)
            try:
                other_unobserved = self._perform(action, forced)
            except (AdapterError, Rejected) as exc:
                differing.append(f"answering {_answer(asked, forced)} fails: {exc}")
                continue
            other = self._peek(self._game().events, other_unobserved)
            diffs = compare(first, other)
            if diffs:
                # Both sides are phase.rs games: "expected" is the reported answer's.
                shown = "; ".join(d.describe() for d in diffs[:4])
                differing.append(
                    f"answering {_answer(asked, forced)} gives {shown} (expected: with the "
                    "reported answer, observed: with this one)"
                )
        self._pg, self._translator = first_pg, first_translator
        first_translator.asked = []
        if differing:
            offered = " / ".join(asked[0])
            raise Rejected(
                f"phase.rs asks which replacement effect applies ({offered}) where the rules "
                f"leave no choice, and the answer matters: with {_answer(asked, [0])} as "
                f"reported, {'; '.join(differing)}"
            )

    def _peek(self, events: Sequence[Json], unobserved: frozenset[str]) -> Observation:
        assert self._start is not None
        st = self._game().state()
        translator = self._require()
        return read_observation(
            st,
            self._ids,
            self._start.setup.player_names,
            events,
            unobserved,
            translator.spells,
            stack_left_out=translator.inert_on_stack(st) + translator.waiting_on_stack(st),
        )

    def _build(self) -> None:
        assert self._start is not None
        engine, _ = self.database.engine(self._cards.values())
        self._pg, self._ids = build_board(engine, self._start, self._stock, self._deadline)
        self._translator = Translator(self._pg, self._ids, self._start)
        for effect in self._setup:  # "this turn" effects of the start (support.start_effects)
            self._translator.apply(effect)
        self._pg.events.clear()  # the setup's own events belong to no step

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


def _answer(asked: list[list[str]], forced: Sequence[int]) -> str:
    """The answers ``forced`` gives, in words (prompts past ``forced`` take the first)."""
    picks = [candidates[forced[i] if i < len(forced) else 0] for i, candidates in enumerate(asked)]
    return ", then ".join(picks)


def _action_card(action: A.Action, state: GameState) -> PhaseCard | None:
    try:
        if isinstance(action, A.CastSpell):
            return spell_card(action)
        return effect_card(action, state.setup)
    except NoHarness:
        return None
