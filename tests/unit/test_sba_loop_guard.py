"""The 704.3 loop's guard (``engine.sba.run_sba_loop``) refuses a loop of state-based checks
that does not settle, and only one longer than its bound: a long loop that does settle gives
its result.

Under the correct rules a loop settles in a handful of checks. Under the rule mutant
``regen-keeps-damage`` a regeneration leaves the lethal damage marked (701.19a says it removes
it), so a creature with N shields is regenerated in N checks in a row and destroyed in the
next: a finite loop as long as the shields make it (a slice 10 survivor of the mutation screen,
``benchmarks/mutation-survivors-engine.yaml``)."""

from __future__ import annotations

import pytest

from regen_model.engine import step
from regen_model.engine.sba import MAX_PASSES
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Mutant, Rider, Zone
from regen_model.model.events import EventKind
from regen_model.model.rules import Rules
from regen_model.model.state import GameState, Shield

KEEPS_DAMAGE = Rules(frozenset({Mutant.REGEN_KEEPS_DAMAGE}))


def _bears_with_lethal_damage(shields: int) -> GameState:
    """A's Grizzly Bears, dealt lethal damage, with ``shields`` unused regeneration shields."""
    shield = Shield(origin="Regenerate", creator=0, rider=Rider.NONE)
    bears = CardSpec(
        "bears", PERMANENT_CARDS["Grizzly Bears"], 0, damage=2, shields=(shield,) * shields
    )
    return make_state(("A", "B"), [bears])


def test_a_loop_of_exactly_the_bound_settles() -> None:
    """MAX_PASSES - 2 shields: that many regenerations, the destruction, and a last check that
    finds nothing: MAX_PASSES checks, and the Bears are in the graveyard."""
    result = step(
        _bears_with_lethal_damage(MAX_PASSES - 2), A.CheckStateBasedActions(), KEEPS_DAMAGE
    )
    assert result.state.cards[0].zone is Zone.GRAVEYARD
    (loop,) = [e for e in result.events if e.kind is EventKind.SBA_CHECK]
    assert loop.get("checks") == MAX_PASSES


def test_a_loop_one_check_longer_is_refused() -> None:
    with pytest.raises(RuntimeError, match="did not settle"):
        step(_bears_with_lethal_damage(MAX_PASSES - 1), A.CheckStateBasedActions(), KEEPS_DAMAGE)


def test_the_refused_loop_says_exactly_this() -> None:
    """The error line of a loop that does not settle is the whole message, as `explore` and the
    scenario runner print it (a slice 12 survivor changed its wording)."""
    with pytest.raises(RuntimeError) as raised:
        step(_bears_with_lethal_damage(MAX_PASSES - 1), A.CheckStateBasedActions(), KEEPS_DAMAGE)
    assert str(raised.value) == "state-based actions did not settle"
