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

import dataclasses
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter, read, translate
from regen_model.adapters.phase.carddata import MODEL_CARDS
from regen_model.adapters.phase.database import CardDatabase
from regen_model.adapters.phase.examples import board
from regen_model.adapters.phase.game import PhaseGame
from regen_model.adapters.phase.known import classifier, load_known
from regen_model.adapters.phase.translate import _ability_index
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.features import (
    CREATURE_TAPPED_FEATURES,
    DIES_FEATURES,
    LIBRARY_FEATURES,
)
from regen_model.conform.sources import saved_cases
from regen_model.model import actions as A
from regen_model.model.cards import AbilityKind

from .phase_helpers import on_phase

ROOT = Path(__file__).resolve().parents[2]
CASES = "tests/adapters/cases"


def _case(path: str) -> Case:
    (case,) = saved_cases([ROOT / path])
    return case


def test_the_triggers_and_the_library_are_mapped() -> None:
    """Items 2 and 5 are off ``lacks``, Judge of Currents' watcher and the trigger an effect
    leaves waiting too; a shield with a rider stays lacking (the adapter writes a start's or an
    effect's shield without one)."""
    lacks = PhaseEngineAdapter.lacks
    assert not DIES_FEATURES & lacks
    assert CREATURE_TAPPED_FEATURES <= DIES_FEATURES
    assert {"creature-tapped-trigger", "card:Judge of Currents"} <= CREATURE_TAPPED_FEATURES
    assert not LIBRARY_FEATURES & lacks
    assert "effect-leaves-trigger" not in lacks
    assert "shield-rider" in lacks
    assert {"card:Onulet", "card:Kardur, Doomscourge", "tapped-trigger"} <= DIES_FEATURES
    assert {"mill", "spell:Thought Scour", "card:Soldevi Sentry"} <= LIBRARY_FEATURES


@pytest.mark.parametrize(
    "name",
    [
        "Onulet",
        "Soldevi Steam Beast",
        "Zulaport Cutthroat",
        "Kardur, Doomscourge",
        "Judge of Currents",
        "Thought Scour",
    ],
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


def _judge_answers(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The answers the adapter gives phase.rs's optional-effect prompts, in order."""
    answers: list[bool] = []
    apply = PhaseGame.apply

    def recording(self: PhaseGame, seat: int, action: Any) -> Any:
        if isinstance(action, dict) and action.get("type") == "DecideOptionalEffect":
            answers.append(bool(action["data"]["accept"]))
        return apply(self, seat, action)

    monkeypatch.setattr(PhaseGame, "apply", recording)
    return answers


def test_judge_of_currents_yes_and_no_are_driven_through_phase_rs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Judge of Currents attacks beside Merfolk Raiders: two Taps triggers (508.1f, 603.2e),
    which phase.rs asks about one at a time as each resolves (OptionalEffectChoice, 608.2d).
    The first pass says yes and A gains 1 life, the second carries ``decline`` and A gains
    nothing; every step agrees, and phase.rs received exactly those two answers."""
    answers = _judge_answers(monkeypatch)
    case = _case(f"{CASES}/judge-of-currents-accepts-and-declines.yaml")
    seen = on_phase(case.start.build(), case.actions, PhaseEngineAdapter())
    assert answers == [True, False]
    assert [o.players["A"]["life"] for o in seen[-4:]] == [20, 21, 21, 21]  # yes, then no
    assert seen[-5].game["stack"] == 2 and seen[-1].game["stack"] == 0
    answers.clear()
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0
    assert answers == [True, False]


def test_judge_of_currents_unanswered_leaves_phase_rs_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the adapter's answer phase.rs waits for A's choice after the pass that
    resolves the first trigger: nobody holds priority and A has gained nothing there."""
    monkeypatch.setattr(translate.Translator, "_may_prompt", lambda self, data: False)
    result = run_case(
        _case(f"{CASES}/judge-of-currents-accepts-and-declines.yaml"), PhaseEngineAdapter()
    )
    assert result.outcome is Outcome.DIVERGED
    assert result.divergence is not None and result.divergence.step == 7
    assert {"game.priority", "players.A.life"} <= {d.path for d in result.divergence.diffs}


@pytest.mark.parametrize(
    "path",
    [
        f"{CASES}/judge-of-currents-watches-its-controller-s-merfolk.yaml",
        "tests/scenarios/zone/creature-tapped-not-yours.yaml",
    ],
)
def test_judge_of_currents_watches_only_its_controller_s_merfolk(path: str) -> None:
    """phase.rs's Taps trigger with "a Merfolk you control": an opponent's Merfolk tapped by
    attacking triggers only that player's Judge, a non-Merfolk nothing, the Judge itself
    (a Merfolk Wizard) its own ability; every step agrees."""
    case = _case(path)
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)
    assert result.steps_run == len(case.actions) and result.masked == 0


def test_a_merfolk_s_tap_cost_triggers_the_judge_in_phase_rs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No Merfolk of the model has a {T} cost, so this is phase.rs alone: Niall Silvain's
    phase.rs card given a Merfolk type line pays {T} as its ability is activated (602.2b), and
    phase.rs's Judge trigger, on the tap event, goes on the stack above the ability (603.3).
    Only a regeneration's tap goes unseen there (PH-33)."""
    niall = MODEL_CARDS["Niall Silvain"]
    monkeypatch.setitem(
        MODEL_CARDS, "Niall Silvain", dataclasses.replace(niall, type_line="Creature — Merfolk")
    )
    state = board(("judge", "Judge of Currents", 0), ("niall", "Niall Silvain", 0))
    activate = A.ActivateAbility(player=0, source="niall", target="niall")
    adapter = PhaseEngineAdapter()
    assert adapter.supports(state, (activate,)) is None
    adapter.start(state)
    adapter.apply(activate)
    pg = adapter._game()
    assert pg.obj(adapter._ids["niall"])["tapped"]
    stack = pg.state()["stack"]
    # phase.rs lists the top of its stack last
    assert [e["kind"]["type"] for e in stack] == ["ActivatedAbility", "TriggeredAbility"]
    assert stack[-1]["source_id"] == adapter._ids["judge"]


@pytest.mark.parametrize(
    ("path", "step"),
    [
        (f"{CASES}/judge-of-currents-regeneration-tap.yaml", 3),
        (f"{CASES}/judge-of-currents-regeneration-tap-then-check.yaml", 2),
        (f"{CASES}/judge-of-currents-attacks-then-regeneration-tap.yaml", 5),
        ("tests/scenarios/zone/creature-tapped-regeneration.yaml", 5),
        ("tests/scenarios/zone/creature-tapped-declined.yaml", 2),
    ],
)
def test_the_tap_of_a_regeneration_triggers_no_judge_in_phase_rs_ph33(path: str, step: int) -> None:
    """A Merfolk's regeneration taps it (701.19a, 603.2e) and the Judge triggers in the rules;
    phase.rs sets the tapped flag with no tap event and its Taps trigger sees nothing (PH-33,
    widened). Murder's resolution is the new matcher's (regen.apply.tap with
    trigger.creature-tapped); a destroy effect's trigger waits and is missed at the pass."""
    result = run_case(_case(path), PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert list(result.known) == [(step, ("PH-33",))]


@pytest.mark.parametrize(
    ("path", "step", "matcher"),
    [
        (f"{CASES}/judge-of-currents-regeneration-tap.yaml", 3, "trigger.creature-tapped"),
        (f"{CASES}/judge-of-currents-regeneration-tap-then-check.yaml", 2, "check-sba"),
        (f"{CASES}/judge-of-currents-attacks-then-regeneration-tap.yaml", 5, "check-sba"),
    ],
)
def test_ph33_s_new_matchers_explain_the_judge_s_cases_alone(
    path: str, step: int, matcher: str
) -> None:
    """The matchers PH-33 was widened by: the Judge's triggers missed in a resolution (its
    clause cited there; two Judges, two short, which the one-short pass matcher does not
    explain) and the waiting triggers missed at the state-based-action check after a destroy
    effect (two short of none, or one short beside the attack's trigger, as CI's witness
    shrank to). With PH-33 cut down to that matcher the case is still PH-33; without it,
    unexplained."""
    known = load_known()
    (ph33,) = (k for k in known if k.id == "PH-33")
    chosen = tuple(m for m in ph33.matchers if matcher in m.clauses | m.actions)
    assert len(chosen) == 1
    others = tuple(k for k in known if k.id != "PH-33")
    case = _case(path)
    only = run_case(
        case,
        PhaseEngineAdapter(),
        known=classifier((*others, dataclasses.replace(ph33, matchers=chosen))),
    )
    assert list(only.known) == [(step, ("PH-33",))]
    rest = tuple(m for m in ph33.matchers if m not in chosen)
    without = run_case(
        case,
        PhaseEngineAdapter(),
        known=classifier((*others, dataclasses.replace(ph33, matchers=rest))),
    )
    assert without.outcome is Outcome.DIVERGED
    assert without.divergence is not None and without.divergence.step == step


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
