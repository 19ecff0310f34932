"""The edges of what the relation can be asked about, and of how it may be labelled.

A board of exactly as many cards as the scope holds, and an action naming every one of them
(a destruction of three creatures at a three-card scope), are within the scope: the agreement
check must compare the views there, not set the point aside as out of scope (which the walk
and the mutation screen would count as nothing seen). And a conjunct's label is checked as
the rule code runs (``work.check_label``): a label that is no clause ID stops every run of
the relation, concrete or symbolic, so the agreement walk meets it too.
"""

from __future__ import annotations

import pytest

from regen_model.encoding import params as P
from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.bounded import AGREEMENT_FRAME_SCOPE
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.work import FRAME, SymWork, UnknownLabel, check_label
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

SCOPE = AGREEMENT_FRAME_SCOPE


def _full_board() -> GameState:
    """As many creatures as the scope has card slots."""
    names = ("Grizzly Bears", "Hill Giant", "Jackal Pup")
    assert len(names) == SCOPE.cards
    return make_state(
        ("A", "B"),
        [CardSpec(f"c{k}", PERMANENT_CARDS[name], k % 2) for k, name in enumerate(names)],
    )


def test_a_full_board_and_an_action_naming_all_of_it_are_in_scope() -> None:
    state = _full_board()
    everyone = A.Destroy(targets=state.setup.handles)
    result = check_agreement(state, everyone, CORRECT, SCOPE)
    assert result.status is Status.AGREE, result.describe()
    assert check_agreement(state, A.PassPriority(player=0), CORRECT, SCOPE).agrees


def test_labels_are_catalog_clauses_or_internal() -> None:
    assert check_label("regen.shield.apply") == "regen.shield.apply"
    assert check_label(FRAME) == FRAME
    assert check_label("scope:shields") == "scope:shields"
    for wrong in ("REGEN.SHIELD.APPLY", "XXregen.shield.applyXX", "regen.shield", ""):
        with pytest.raises(UnknownLabel):
            check_label(wrong)


def test_a_wrong_label_fails_on_concrete_values_whatever_the_condition() -> None:
    """A write whose condition is false, a guard that holds and an obligation that holds
    still have their labels checked: the agreement walk evaluates the relation on concrete
    states, where most writes are skipped and most guards hold."""
    state = _full_board()
    prep = prepare(state, SCOPE)
    ctx = prep.context(CORRECT, P.of_action(state, A.PassPriority(player=0), SCOPE))
    w = SymWork(ctx, prep.pre)
    key = w.c(0).tapped
    w.set_if(False, key, True, "tap.untap")
    w.require(True, "stack.activate")
    with pytest.raises(UnknownLabel):
        w.set_if(False, key, True, "TAP.UNTAP")
    with pytest.raises(UnknownLabel):
        w.set(key, True, (True, "tap.untap", "tap.nope"))
    with pytest.raises(UnknownLabel):
        w.require(True, "stack.activated")
    with pytest.raises(UnknownLabel):
        w.oblige(True, "sba.loops")
