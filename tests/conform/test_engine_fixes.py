"""Regressions for engine defects found while building the cross-checker."""

from __future__ import annotations

from regen_model.conform.start import Start
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.enums import Mutant
from regen_model.model.rules import CORRECT, Rules

from .helpers import card, shields


def test_shield_follows_zone_change_mutant_survives_a_flicker() -> None:
    """The mutant used to keep shields only on a move *to* the battlefield; a flicker moves
    to exile first, where they were dropped, so the mutant could never show (equivalent to
    the correct rules). Now the shields ride along and come back with the permanent."""
    start = Start(("A", "B"), (card("troll", "Horned Troll", 0, shields=shields("Death Ward")),))
    mutant = Rules(frozenset({Mutant.SHIELD_FOLLOWS_ZONE_CHANGE}))
    flicker = A.LeaveAndReturn(target="troll")
    assert step(start.build(), flicker, mutant).state.card("troll").active_shields == (0,)
    assert step(start.build(), flicker, CORRECT).state.card("troll").shields == ()
