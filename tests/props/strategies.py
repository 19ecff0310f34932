"""Hypothesis strategies for whole games on the reference engine: random boards built from the
built-in cards (``model/cards.py``) and random legal actions.

Boards go beyond the explorer's bounded scopes on purpose: any built-in card (Darksteel
Colossus's 11/11 included), up to four permanents, shields made earlier in the turn, any rule
edition and any step where the active player holds priority. Actions are drawn from
``enumerate_actions`` over a wide scope (a kind, then an instance) and tried in order until the
engine accepts one, so a failing run shrinks toward the first candidates (passing priority,
the simplest move).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from regen_model.encoding.scope import Scope
from regen_model.engine import EngineError, StepResult, step
from regen_model.explore import enumerate_actions
from regen_model.explore.starts import PLAYER_NAMES, START_SHIELD, START_STEPS
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Attachment, Edition
from regen_model.model.rules import Rules
from regen_model.model.state import GameState

# Wider than the explorer's scopes: more damage, more shields, deeper stacks.
WIDE = Scope(cards=4, shields=3, stack=3, pending=3, targets=1, max_amount=4)

settings.register_profile(
    "props-ci",
    max_examples=40,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "props-long",
    max_examples=300,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# REGEN_PROPS_PROFILE=props-long runs the long version (minutes instead of seconds).
PROFILE = settings.get_profile(os.environ.get("REGEN_PROPS_PROFILE", "props-ci"))

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
