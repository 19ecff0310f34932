"""The mutant ``rider-trigger-by-controller`` gives a counter rider's delayed trigger to the
creature's controller as it regenerates, where the correct rules give it to whoever made the
shield (603.7a, 603.7e). The mutant's other reading (Soldevi Sentry's draw rider) is what its
killing scenarios replay within the agreement's scope; this pins its counter-rider reading
(a slice-20 survivor of the mutation screen, ``benchmarks/mutation-survivors-engine.yaml``)."""

from __future__ import annotations

import pytest

from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Mutant, Rider
from regen_model.model.events import EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import Shield

# B controls Matopi Golem, whose shield A's ability made: "when it regenerates this way, put a
# -1/-1 counter on it"
GOLEM_OF_B = make_state(
    ("A", "B"),
    [
        CardSpec(
            "golem",
            PERMANENT_CARDS["Matopi Golem"],
            1,
            shields=(Shield(origin="Matopi Golem", creator=0, rider=Rider.MINUS_COUNTER),),
        )
    ],
)


@pytest.mark.parametrize(
    ("rules", "controller"),
    [(CORRECT, "A"), (Rules(frozenset({Mutant.RIDER_TRIGGER_BY_CONTROLLER})), "B")],
    ids=["correct", "rider-trigger-by-controller"],
)
def test_a_counter_riders_trigger_is_controlled_by(rules: Rules, controller: str) -> None:
    events = step(GOLEM_OF_B, A.Destroy(targets=("golem",)), rules).events
    (triggered,) = [e for e in events if e.kind is EventKind.TRIGGERED]
    assert (triggered.subject, triggered.clause) == ("golem", "regen.rider.trigger")
    assert triggered.get("controller") == controller
