"""Hypothesis strategies for games of the specification: start states, action sequences and
whole scenarios, for engine authors' tests and our own.

Two families, each written once:

* ``boards`` and ``legal_step`` (our property tests, ``tests/props``): any built-in card,
  up to four permanents, shields made earlier in the turn, any edition and any step with
  priority; actions drawn from the explorer's enumeration over a wide scope, tried in order
  until the engine accepts one, so a failure shrinks toward the simplest move (a pass).
* ``starts``, ``action_sequences`` and ``scenarios``: the random scenarios of the
  cross-checker (``conform/generate.py``: swarm testing over the regenerators, 616.1 answers
  that differ per player, consequences settled at the end), drawn through Hypothesis so that
  a failing scenario shrinks: fewer permanents, fewer and simpler actions.

Every action a strategy returns is legal on the reference engine in sequence from the start
it goes with, under the rules given (correct by default).
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from regen_model.conform.case import Case
from regen_model.conform.generate import (
    HypothesisChooser,
    RandomChooser,
    draw_actions,
    draw_case,
    draw_start,
    draw_swarm,
    settle,
)
from regen_model.conform.start import Start
from regen_model.encoding.scope import Scope
from regen_model.engine import EngineError, StepResult, step
from regen_model.explore import enumerate_actions
from regen_model.explore.starts import PLAYER_NAMES, START_SHIELD, START_STEPS
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Attachment, Edition
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

# Wider than the explorer's scopes: more damage, more shields, deeper stacks.
WIDE = Scope(cards=4, shields=3, stack=3, pending=3, targets=1, max_amount=4)
CARD_NAMES = sorted(PERMANENT_CARDS)


@st.composite
def boards(
    draw: st.DrawFn,
    card_names: Sequence[str] = CARD_NAMES,
    max_cards: int = 4,
    max_shields: int = 2,
) -> GameState:
    """A legal start: 1-``max_cards`` permanents among ``card_names`` (all built-in ones by
    default), owned by either player, Auras on creatures, up to ``max_shields`` shields made
    earlier this turn on each creature; any edition, any step with priority."""
    names = draw(st.lists(st.sampled_from(card_names), min_size=1, max_size=max_cards))
    owners = [draw(st.integers(0, 1)) for _ in names]
    shields = draw(st.integers(0, max_shields))
    creatures = [i for i, n in enumerate(names) if PERMANENT_CARDS[n].is_creature]
    specs: list[CardSpec] = []
    for i, name in enumerate(names):
        template = PERMANENT_CARDS[name]
        host = None
        if template.attachment is Attachment.AURA:
            if not creatures:
                continue
            host = f"c{draw(st.sampled_from(creatures))}"
        specs.append(
            CardSpec(
                handle=f"c{i}",
                template=template,
                owner=owners[i],
                attached_to=host,
                shields=(START_SHIELD._replace(creator=owners[i]),) * shields
                if template.is_creature
                else (),
            )
        )
    if not specs:
        specs.append(CardSpec("c0", PERMANENT_CARDS["Grizzly Bears"], 0))
    edition = draw(st.sampled_from(list(Edition)))
    start_step = draw(st.sampled_from(START_STEPS))
    active = draw(st.integers(0, 1))
    return make_state(
        PLAYER_NAMES, specs, edition=edition, step=start_step, active=active, priority=active
    )


def legal_step(
    data: st.DataObject, state: GameState, rules: Rules, pass_bias: bool = True
) -> tuple[Action, StepResult] | None:
    """Draw a legal action and take it (None if nothing is legal: the game is stuck).

    The kind is drawn first and then an instance of it, so kinds with many instances (damage
    has dozens) do not crowd out the others; half the time passing is preferred, so that runs
    get through whole turns (a turn is about two dozen passes).
    """
    by_kind: dict[str, list[Action]] = {}
    for action in enumerate_actions(state, WIDE):
        by_kind.setdefault(action.kind, []).append(action)
    if not by_kind:
        return None
    kinds = list(by_kind)
    if pass_bias and "pass" in by_kind and data.draw(st.booleans(), label="prefer pass"):
        first = kinds.index("pass")
    else:
        first = data.draw(st.integers(0, len(kinds) - 1), label="kind")
    for k in range(len(kinds)):
        group = by_kind[kinds[(first + k) % len(kinds)]]
        start = data.draw(st.integers(0, len(group) - 1), label="instance") if k == 0 else 0
        for offset in range(len(group)):
            action = group[(start + offset) % len(group)]
            try:
                return action, step(state, action, rules)
            except EngineError:
                continue
    return None


def _choosers(draw: st.DrawFn) -> tuple[HypothesisChooser, RandomChooser]:
    """The two sources of a random scenario, split as in ``generate.random_cases``: Hypothesis
    draws its shape (which cards, effects and game actions it may use), where its bias
    towards small and boundary values pays, and a ``Random`` drawn from Hypothesis (so it
    still shrinks) picks the many details, uniformly."""
    rng = draw(st.randoms(use_true_random=False))
    return HypothesisChooser(draw), RandomChooser(rng)


@st.composite
def starts(draw: st.DrawFn, max_cards: int = 4) -> Start:
    """A start another engine can set up (``conform.start.Start``): 1-``max_cards``
    permanents, mostly regenerators, with damage, shields, counters, borrowed control, an
    Aura or Equipment now and then; any edition; main 1, beginning of combat or end step."""
    shape, details = _choosers(draw)
    return draw_start(details, draw_swarm(shape), max_cards)


@st.composite
def action_sequences(
    draw: st.DrawFn, start: Start | GameState, max_steps: int = 20, rules: Rules = CORRECT
) -> tuple[Action, ...]:
    """Up to ``max_steps`` actions legal in sequence from ``start`` under ``rules``: effects,
    spells, abilities, priority passes and the turn-based declarations, each with the 616.1
    answers it needs; waiting triggers and the stack are settled at the end."""
    state = start.build() if isinstance(start, Start) else start
    shape, details = _choosers(draw)
    walk = draw_actions(details, state, draw_swarm(shape), max_steps, rules)
    return (*walk.actions, *settle(walk.state, rules))


@st.composite
def scenarios(draw: st.DrawFn, max_steps: int = 20) -> Case:
    """A whole scenario: a start (``starts``) and actions legal from it (``action_sequences``),
    drawn as the cross-checker's random cases are."""
    shape, details = _choosers(draw)
    case, _ = draw_case(shape, "hypothesis", "regen_model.testing", max_steps, walker=details)
    return case


__all__ = [
    "CARD_NAMES",
    "WIDE",
    "action_sequences",
    "boards",
    "legal_step",
    "scenarios",
    "starts",
]
