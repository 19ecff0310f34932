"""phase.rs asks a player to order their simultaneous triggers (603.3b, its ``OrderTriggers``
prompt); the model puts them on the stack in the order they triggered and asks nothing, since
its trigger effects commute. The adapter answers the prompt in that order (``_settle``)."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.examples import P0, P1, passes
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Step

from .phase_helpers import on_phase, on_reference, step_diffs


def test_two_triggers_of_one_pup_are_put_on_the_stack() -> None:
    """B's Jackal Pup (5/4 with three +1/+1 counters) attacks and is blocked by two of A's
    creatures: dealt damage by two sources at once, it triggers twice (phase.rs's count, and
    ours), and both triggers reach the stack with B holding priority (116.3, 603.3b); each
    deals its damage to B when it resolves."""
    pup = CardSpec("pup", PERMANENT_CARDS["Jackal Pup"], P1, plus=3)
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], P0)
    skeletons = CardSpec("skel", PERMANENT_CARDS["Drudge Skeletons"], P0)
    state = make_state(
        ["A", "B"], [pup, bears, skeletons], active=P1, step=Step.BEGIN_COMBAT, priority=P1
    )
    actions = (
        *passes(P1, P0),
        A.DeclareAttackers(player=P1, attackers=("pup",)),
        *passes(P1, P0),
        A.DeclareBlockers(player=P0, blocks=(("bears", "pup"), ("skel", "pup"))),
        *passes(P1, P0),
        A.AssignCombatDamage(
            player=P1, divisions=(A.Division(attacker="pup", shares=(("bears", 2), ("skel", 3))),)
        ),
        *passes(P1, P0, P1, P0),
    )
    ref = on_reference(state, actions)
    got = on_phase(state, actions, PhaseEngineAdapter())
    assert step_diffs(ref, got) == {}
    assert got[9].game["stack"] == 2 and got[9].game["priority"] == "B"
    assert got[-1].game["stack"] == 0 and got[-1].players["B"]["life"] == 17
