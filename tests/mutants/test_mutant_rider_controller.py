"""The mutant ``rider-trigger-by-controller`` gives a counter rider's delayed trigger to the
creature's controller as it regenerates, where the correct rules give it to whoever made the
shield (603.7a, 603.7e). The mutant's other reading (Soldevi Sentry's draw rider) is what its
killing scenarios replay within the agreement's scope; this pins its counter-rider reading
(a slice-20 survivor of the mutation screen, ``benchmarks/mutation-survivors-engine.yaml``).
Also a second slice-20 survivor under another rule mutant, ``regen-triggers-creature-dies``."""

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


def test_regen_triggers_creature_dies_names_the_regenerated_creature_kardur_does_not_see() -> None:
    """Under ``regen-triggers-creature-dies`` a regeneration is read as a death by the
    "whenever a creature dies" watchers: Kardur, Doomscourge watches only attacking creatures
    (603.10a), and its note that the regenerated Grizzly Bears were not attacking names them
    (a slice-20 survivor: the note named no creature)."""
    state = make_state(
        ("A", "B"),
        [
            CardSpec(
                "bears",
                PERMANENT_CARDS["Grizzly Bears"],
                0,
                shields=(Shield(origin="Regenerate", creator=0, rider=Rider.NONE),),
            ),
            CardSpec("kardur", PERMANENT_CARDS["Kardur, Doomscourge"], 1),
        ],
    )
    rules = Rules(frozenset({Mutant.REGEN_TRIGGERS_CREATURE_DIES}))
    events = step(state, A.Destroy(targets=("bears",)), rules).events
    (note,) = [e for e in events if e.clause == "trigger.attacking-dies"]
    assert note.subject == "bears"
    assert note.get("watcher") == "kardur"
