"""Engine refusals that no scenario file can ask for, since the scenario loader refuses the
action first, still name their clause: an equip activation without the creature to equip
(702.6a, ``attach.equip``) and a "Sacrifice a creature" cost with no creature named (601.2h,
701.21a, ``cost.sacrifice-creature``). The clause is what a report of the refusal cites, so a
refusal under a wrong or missing label is a bug the scenarios cannot meet.
"""

from __future__ import annotations

import pytest

from regen_model.clauses import catalog
from regen_model.engine import step
from regen_model.engine.errors import IllegalAction
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS

# A's main phase, A holding priority with an empty stack: an equip ability may be activated
# (602.5d), and A controls Dark Privilege ("Sacrifice a creature: Regenerate enchanted
# creature") on a creature.
BOARD = make_state(
    ("A", "B"),
    [
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
        CardSpec("splitter", PERMANENT_CARDS["Bonesplitter"], 0),
        CardSpec("privilege", PERMANENT_CARDS["Dark Privilege"], 0, attached_to="bears"),
    ],
)


@pytest.mark.parametrize(
    ("action", "message", "clause"),
    [
        (
            A.ActivateAbility(player=0, source="splitter"),
            "equip ability needs a target",
            "attach.equip",
        ),
        (
            A.ActivateAbility(player=0, source="privilege"),
            "costs a creature to sacrifice",
            "cost.sacrifice-creature",
        ),
    ],
    ids=["equip-without-target", "sacrifice-cost-without-creature"],
)
def test_the_refusal_names_its_clause(action: A.Action, message: str, clause: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        step(BOARD, action)
    assert message in refused.value.message
    assert refused.value.clause == clause
    assert clause in catalog()
