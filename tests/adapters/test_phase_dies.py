"""Issue 13 items 2 and 5 on phase.rs: the triggers of Onulet ("when this creature dies"),
Zulaport Cutthroat ("whenever this creature or another creature you control dies"), Kardur,
Doomscourge ("whenever an attacking creature dies") and Soldevi Steam Beast ("whenever this
creature becomes tapped"); a trigger an effect leaves waiting (603.3); Thought Scour's mill and
Soldevi Sentry's activation.

phase.rs 0.103 parses the four trigger cards and Thought Scour whole
(``test_the_cards_parse_whole``), so they run as phase.rs's own cards. What the adapter adds:
the triggers an effect action makes, which phase.rs puts on the stack with the effect and the
model only as a player next receives priority, are left out of the stack's size until then
(``Translator.waiting``), and the actions after which the two would not agree are refused as
not expressible; the milled model cards are read back from phase.rs's graveyard; the Sentry's
ability is found under its "choose target opponent" (``_ability_index``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter, read, translate
from regen_model.adapters.phase.carddata import MODEL_CARDS
from regen_model.adapters.phase.database import CardDatabase
from regen_model.adapters.phase.known import classifier, load_known
from regen_model.adapters.phase.translate import _ability_index
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.features import (
    CREATURE_TAPPED_FEATURES,
    DIES_FEATURES,
    LIBRARY_FEATURES,
)
from regen_model.conform.sources import saved_cases
from regen_model.model.cards import AbilityKind

from .phase_helpers import on_phase

ROOT = Path(__file__).resolve().parents[2]
CASES = "tests/adapters/cases"


def _case(path: str) -> Case:
    (case,) = saved_cases([ROOT / path])
    return case


def test_the_triggers_and_the_library_are_mapped() -> None:
    """Items 2 and 5 are off ``lacks``, the trigger an effect leaves waiting too; a shield with
    a rider stays lacking (the adapter writes a start's or an effect's shield without one), and
    so does Judge of Currents' watcher (the adapter does not answer its "you may", and
    phase.rs's regeneration tap triggers nothing, PH-33)."""
    lacks = PhaseEngineAdapter.lacks
    assert not (DIES_FEATURES - CREATURE_TAPPED_FEATURES) & lacks
    assert lacks >= CREATURE_TAPPED_FEATURES
    assert not LIBRARY_FEATURES & lacks
    assert "effect-leaves-trigger" not in lacks
    assert "shield-rider" in lacks
    assert {"card:Onulet", "card:Kardur, Doomscourge", "tapped-trigger"} <= DIES_FEATURES
    assert {"mill", "spell:Thought Scour", "card:Soldevi Sentry"} <= LIBRARY_FEATURES


@pytest.mark.parametrize(
    "name",
    ["Onulet", "Soldevi Steam Beast", "Zulaport Cutthroat", "Kardur, Doomscourge", "Thought Scour"],
)
def test_the_cards_parse_whole(name: str) -> None:
    assert CardDatabase().build(MODEL_CARDS[name]).complete


def test_the_sentry_s_rider_is_phase_rs_s_gap_and_its_regeneration_is_found() -> None:
    """phase.rs parses "Choose target opponent" as a TargetOnly effect, the regeneration as its
    sub-ability and leaves the rider Unimplemented (PH-03); the adapter activates it as the
    Sentry's "Regenerate this creature"."""
    db = CardDatabase()
    status = db.build(MODEL_CARDS["Soldevi Sentry"])
    assert status.built and not status.complete
    assert "When it regenerates this way" in status.describe()
    abilities = list(db._faces["Soldevi Sentry"]["abilities"])
    assert abilities[0]["effect"]["type"] == "TargetOnly"
    assert _ability_index(abilities, AbilityKind.REGENERATE_SELF) == 0
    assert _ability_index(abilities, AbilityKind.REGENERATE_TARGET) is None


@pytest.mark.parametrize(
    "path",
    [
        "tests/scenarios/zone/dies-trigger-ways-to-die.yaml",
        "tests/scenarios/zone/dies-trigger-not-on-regeneration.yaml",
        "tests/scenarios/zone/dies-trigger-exiled-instead.yaml",
        "tests/scenarios/zone/creature-dies-simultaneous-watcher.yaml",
        "tests/scenarios/zone/tapped-trigger-attack.yaml",
        "tests/scenarios/draw/thought-scour-mills-one-group.yaml",
        f"{CASES}/effect-triggers-wait-in-order.yaml",
    ],
)
def test_scenarios_agree_at_every_step(path: str) -> None:
    """The triggers made by a harness spell's destruction and by Debug sacrifices (Onulet's
    for its last controller, 603.10a, 603.3a; none on a regeneration or an exile), Zulaport
    Cutthroat's for itself and another creature dying at once, the Beast's on attacking, and
    Thought Scour's milled cards in the graveyard (404.3, 701.17a) agree with every step
    compared."""
    case = _case(path)
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0


@pytest.mark.parametrize(
    "path",
    [
        "tests/scenarios/zone/attacking-dies-either-side.yaml",
        "tests/scenarios/zone/attacking-dies-regenerated-attacker.yaml",
        "tests/scenarios/zone/attacking-dies-simultaneous-watcher.yaml",
    ],
)
def test_kardur_agrees_up_to_ph06(path: str) -> None:
    """Kardur's and Zulaport Cutthroat's triggers agree up to the tenth step, where a blocker
    whose attacker left combat stops blocking in phase.rs (PH-06, known)."""
    result = run_case(_case(path), PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert list(result.known) == [(10, ("PH-06",))]


def test_a_waiting_trigger_is_on_phase_rs_s_stack_but_left_out_of_its_size() -> None:
    """After an effect sacrifices Onulet, phase.rs has its trigger on the stack; the model
    keeps it waiting (603.3), so the adapter reports an empty stack until A passes."""
    case = _case(f"{CASES}/effect-triggers-wait-in-order.yaml")
    adapter = PhaseEngineAdapter()
    state = case.start.build()
    assert adapter.supports(state, case.actions) is None
    adapter.start(state)
    adapter.apply(case.actions[0])
    assert adapter.observe().game["stack"] == 0
    assert len(adapter._game().state()["stack"]) == 1
    assert len(adapter._require().waiting) == 1
    adapter.apply(case.actions[1])
    adapter.apply(case.actions[2])  # A passes: both go on the stack in the model too
    assert adapter.observe().game["stack"] == 2
    assert adapter._require().waiting == []


def test_without_leaving_them_out_the_stack_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(translate.Translator, "waiting_on_stack", lambda self, st: 0)
    result = run_case(_case(f"{CASES}/effect-triggers-wait-in-order.yaml"), PhaseEngineAdapter())
    assert result.outcome is Outcome.DIVERGED
    assert result.divergence is not None and result.divergence.step == 1
    assert [d.path for d in result.divergence.diffs] == ["game.stack"]


@pytest.mark.parametrize(
    ("path", "step", "rule"),
    [
        (f"{CASES}/effect-trigger-waits-under-a-cast.yaml", 2, "117.3c"),
        (f"{CASES}/effect-trigger-waits-past-the-round.yaml", 3, "ends the round of passes"),
        (f"{CASES}/effect-triggers-wait-out-of-order.yaml", 3, "603.3b"),
    ],
)
def test_what_the_model_orders_otherwise_is_not_expressed(path: str, step: int, rule: str) -> None:
    """A cast with a trigger waiting (the model puts the trigger above the spell), a pass that
    ends the round (the model ends the step with the trigger still waiting) and a waiting
    trigger of the other player under a later one of the active player's (603.3b) are skipped
    with the reason, not compared as if phase.rs's order were the model's."""
    result = run_case(_case(path), PhaseEngineAdapter())
    assert result.outcome is Outcome.SKIPPED, (result.reason, result.divergence)
    assert result.reason.startswith(f"step {step} ")
    assert rule in result.reason


def test_the_tap_of_a_regeneration_triggers_nothing_in_phase_rs_ph33() -> None:
    """The Beast regenerated by a destroy effect: the model's trigger waits and goes on the
    stack as A passes; phase.rs made none (PH-33's second matcher)."""
    result = run_case(
        _case("tests/scenarios/zone/tapped-trigger-regeneration.yaml"),
        PhaseEngineAdapter(),
        known=classifier(load_known()),
    )
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert list(result.known) == [(5, ("PH-33",))]


def test_the_sentry_s_rider_is_ph03() -> None:
    """The Sentry's ability is activated and makes its shield in phase.rs too; the rider never
    triggers there (PH-03, widened: without its second matcher the case is unexplained)."""
    case = _case("tests/scenarios/regen/soldevi-sentry-opponent-draws.yaml")
    seen = on_phase(case.start.build(), case.actions[:3], PhaseEngineAdapter())
    assert seen[3].cards["sentry"]["shields"] == 1
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert list(result.known) == [(7, ("PH-03",))]


def test_milled_cards_are_read_from_phase_rs_s_graveyard() -> None:
    """Thought Scour at B mills two of the model's library cards: phase.rs's graveyard holds
    them in order, read as the model's anonymous milled cards (``state.MILLED``)."""
    case = _case("tests/scenarios/draw/thought-scour-mills-one-group.yaml")
    seen = on_phase(case.start.build(), case.actions[:3], PhaseEngineAdapter())
    assert seen[3].graveyards["B"] == ((read.MILLED,), (read.MILLED,))
    assert seen[3].graveyards["A"] == (("Thought Scour",),)
    assert seen[3].players["B"]["library"] == 3 and seen[3].players["A"]["hand"] == 1


def test_a_mill_past_the_model_s_library_agrees_until_the_draw_from_it() -> None:
    """A mill larger than the model's library takes filler from below in phase.rs, which the
    graveyard leaves out (701.17b: the model mills what there is); the later draw from the
    library the model holds empty is not expressible (121.4): skipped there, with every step
    before it compared and agreeing (a divergence would end the case first)."""
    case = _case("tests/scenarios/draw/mill-short-library-is-no-loss.yaml")
    result = run_case(case, PhaseEngineAdapter())
    assert result.outcome is Outcome.SKIPPED, (result.reason, result.divergence)
    assert result.reason.startswith("step 9 ") and "121.4" in result.reason
