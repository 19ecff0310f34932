"""Issue 13 item 1 on phase.rs: Counterspell ("Counter target spell.", 701.6a).

phase.rs 0.103 parses Counterspell whole (a ``Counter`` of a target spell), so the real card
is cast. What the adapter adds is the target: the model names a spell by its stack position (0
the bottom, ``TargetChoice.spell``), phase.rs by the object id of its stack entry, which
``Translator._target_ref`` looks up among the entries the model has. The countered spell leaving
the stack, both graveyards in their order (the countered spell before the Counterspell, 608.2n)
and a Counterspell whose target has already left the stack (608.2b) are compared at every step.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.adapters.phase.carddata import MODEL_CARDS
from regen_model.adapters.phase.database import CardDatabase
from regen_model.adapters.phase.errors import Rejected
from regen_model.adapters.phase.known import classifier, load_known
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.features import COUNTER_FEATURES
from regen_model.conform.sources import saved_cases
from regen_model.engine import IllegalAction, step
from regen_model.model import actions as A

from .phase_helpers import on_phase, on_reference, step_diffs

ROOT = Path(__file__).resolve().parents[2]
TURN = "tests/scenarios/turn"
OVER_AN_ABILITY = "tests/adapters/cases/counterspell-over-an-ability-and-on-its-own-caster.yaml"
PATHS = [
    f"{TURN}/counterspell-on-regenerate.yaml",
    f"{TURN}/counterspell-on-wrath.yaml",
    f"{TURN}/counterspell-target-gone.yaml",
    f"{TURN}/counterspell-renumbers-targets-above.yaml",
    OVER_AN_ABILITY,
]


def _case(path: str) -> Case:
    (case,) = saved_cases([ROOT / path])
    return case


def test_counterspell_is_mapped_and_parses_whole() -> None:
    assert "counter-spell" in COUNTER_FEATURES
    assert "spell:Counterspell" in COUNTER_FEATURES
    assert not COUNTER_FEATURES & PhaseEngineAdapter.lacks
    assert CardDatabase().build(MODEL_CARDS["Counterspell"]).complete


@pytest.mark.parametrize("path", PATHS)
def test_counterspell_scenarios_agree_at_every_step(path: str) -> None:
    """Counterspell on Regenerate (no shield, Murder then destroys the bears), on Wrath of God,
    on a spell above an ability and on its caster's own spell, a Counterspell whose target
    was countered first (608.2b: it does not resolve), and one whose target moved down when a
    spell beneath it was countered (four objects): no divergence, none known either."""
    case = _case(path)
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0


@pytest.mark.parametrize(
    ("path", "graveyards"),
    [
        (
            f"{TURN}/counterspell-on-regenerate.yaml",
            {"A": (("Counterspell",), ("Murder",)), "B": (("Regenerate",), ("bears",))},
        ),
        (
            f"{TURN}/counterspell-target-gone.yaml",
            {
                "A": (("Murder",), ("Counterspell",), ("Murder",)),
                "B": (("Counterspell",),) * 3 + (("elf",),),
            },
        ),
        (
            OVER_AN_ABILITY,
            {"A": (("Counterspell",),), "B": (("Murder",), ("Murder",), ("Counterspell",))},
        ),
    ],
)
def test_the_graveyards_and_the_stack_are_read_step_by_step(
    path: str, graveyards: dict[str, tuple[tuple[str, ...], ...]]
) -> None:
    """Every step's projection agrees with the reference engine's (the stack's size, the
    cards, both graveyards), and the final graveyards are phase.rs's in their order: the
    countered spell under the Counterspell that countered it when they share an owner
    (608.2n), a Counterspell that found no target among the others (608.2b)."""
    case = _case(path)
    state = case.start.build()
    ours = on_reference(state, case.actions)
    theirs = on_phase(state, case.actions, PhaseEngineAdapter())
    assert step_diffs(ours, theirs) == {}
    assert theirs[-1].graveyards == graveyards
    assert ours[-1].graveyards == graveyards


def test_a_position_that_names_an_ability_is_refused_by_both() -> None:
    """A "target spell" names a spell only (115.1): position 0 under Murder holds the troll's
    ability, which the model refuses as a target and phase.rs's stack shows as no spell."""
    case = _case(OVER_AN_ABILITY)
    state = case.start.build()
    before = case.actions[:4]  # the ability, a pass, Murder on the troll, a pass
    counter = case.actions[4]
    assert isinstance(counter, A.CastSpell) and counter.name == "Counterspell"
    wrong = A.CastSpell(
        player=counter.player,
        name=counter.name,
        effect=counter.effect,
        targets=(A.TargetChoice(spell=0),),
    )
    reference = state
    for action in before:
        reference, _ = step(reference, action)
    with pytest.raises(IllegalAction):
        step(reference, wrong)
    adapter = PhaseEngineAdapter()
    assert adapter.supports(state, (*before, wrong)) is None
    adapter.start(state)
    for action in before:
        adapter.apply(action)
    with pytest.raises(Rejected, match="not a spell"):
        adapter.apply(wrong)
    adapter.close()
