"""Trace validation: valid traces pass, gaps are filled, one wrong step is found and
explained, and a trace that shows nothing is not a pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.conform.itf import parse_trace, read_trace
from regen_model.conform.start import Start
from regen_model.conform.trace_check import check_trace
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS
from regen_model.model.enums import Mutant, Step
from regen_model.model.rules import Rules
from regen_model.verdicts import Verdict

from .helpers import (
    card,
    card_fields,
    keep_only,
    knight_destroyed_twice_unlogged_choice,
    shields,
    trace_of,
    write,
)

SHIELD_THEN_DESTROY = (
    A.CreateShield(target="troll", origin="Regenerate"),
    A.Destroy(targets=("troll",)),
    A.Destroy(targets=("troll",)),
    A.Cleanup(),
)


def _check(tmp_path: Path, data: dict[str, object], **kw: object):  # type: ignore[no-untyped-def]
    return check_trace(read_trace(write(tmp_path, data)), **kw)  # type: ignore[arg-type]


def test_a_fully_observed_trace_passes(tmp_path: Path, troll_and_bear: Start) -> None:
    report = _check(tmp_path, trace_of(troll_and_bear, *SHIELD_THEN_DESTROY))
    assert report.verdict is Verdict.PASSED
    assert (report.steps, report.matched, report.gap_steps, report.max_frontier) == (4, 4, 0, 1)
    assert "regen.shield.apply" in report.clauses


def test_the_same_trace_fails_under_a_mutant(tmp_path: Path, troll_and_bear: Start) -> None:
    rules = Rules(frozenset({Mutant.SHIELD_NOT_CONSUMED}))
    report = _check(tmp_path, trace_of(troll_and_bear, *SHIELD_THEN_DESTROY), rules=rules)
    assert report.verdict is Verdict.FAILED
    assert report.failure is not None
    assert report.failure.step == 2  # the first destroy leaves the shield under the mutant


def test_one_wrong_step_is_found_and_explained(tmp_path: Path, troll_and_bear: Start) -> None:
    data = trace_of(troll_and_bear, *SHIELD_THEN_DESTROY)
    card_fields(data, 2, "troll")["tapped"] = False  # the engine forgot to tap on regenerating
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.FAILED
    assert report.matched == 1
    f = report.failure
    assert f is not None and f.step == 2
    assert f.logged_action == {"kind": "destroy", "targets": ["troll"]}
    (before,) = f.states_before
    assert before.cards["troll"]["shields"] == 2 and before.cards["troll"]["tapped"] is False
    assert f.closest is not None
    assert [(d.path, d.expected, d.observed) for d in f.closest.diffs] == [
        ("cards.troll.tapped", True, False)
    ]
    assert {"regen.shield.apply", "regen.apply.tap"} <= set(f.clauses)


def test_an_illegal_logged_action_fails_with_the_engine_reason(
    tmp_path: Path, troll_and_bear: Start
) -> None:
    data = trace_of(troll_and_bear, A.Destroy(targets=("bear",)))
    data["states"][1]["#meta"]["action"] = {"kind": "sacrifice", "target": "nobody"}
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.FAILED
    assert report.failure is not None
    assert report.failure.closest is None
    assert "no card named 'nobody'" in report.failure.rejected[0]


def test_a_missing_action_is_found_among_the_game_actions(tmp_path: Path) -> None:
    start = Start(("A", "B"), (card("bear", "Grizzly Bears", 1),))
    bolt = A.CastSpell(
        player=0,
        name="Lightning Bolt",
        effect=SPELLS["Lightning Bolt"].effect,
        targets=(A.TargetChoice(card="bear"),),
    )
    data = trace_of(start, bolt, A.PassPriority(player=0), A.PassPriority(player=1))
    for state in data["states"][1:]:
        del state["#meta"]["action"]
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.PASSED
    assert report.gap_steps == 3
    # After the cast, any spell could be on the stack (only its size is observed): the
    # frontier holds every cast; the resolution's outcome leaves only the Bolt.
    assert report.max_frontier > 1
    lethal = data["states"][3]["cards"]["#map"][0][1]
    assert lethal["zone"] == "graveyard"
    lethal["zone"] = "exile"
    assert _check(tmp_path, data).verdict is Verdict.FAILED


def test_an_unlogged_616_choice_is_searched_and_kept_open_while_unobserved(
    tmp_path: Path,
) -> None:
    """Knight of the Holy Nimbus (static regeneration) with a shield is destroyed twice; the
    log does not say which replacement its controller chose. While ``shields`` is not
    observed, both choices stay open; the second destruction's log settles it."""
    data = knight_destroyed_twice_unlogged_choice("Regenerate")
    partial = keep_only(data, {"knight": ["zone", "tapped"]})
    report = _check(tmp_path, partial)
    assert report.verdict is Verdict.PASSED
    assert report.max_frontier == 2
    assert report.gap_steps >= 1
    # Observing the shields settles it at once; a wrong count is caught.
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.PASSED and report.max_frontier == 1
    card_fields(data, 1, "knight")["shields"] = 2
    assert _check(tmp_path, data).verdict is Verdict.FAILED


def test_an_unlogged_damage_division_is_searched(tmp_path: Path) -> None:
    """FDN: an attacker blocked by two creatures divides its damage freely (510.1c)."""
    start = Start(
        ("A", "B"),
        (
            card("giant", "Hill Giant", 0),
            card("left", "Foot Soldiers", 1),
            card("right", "Foot Soldiers", 1),
        ),
        step=Step.BEGIN_COMBAT,
    )
    actions = [
        A.PassPriority(player=0),
        A.PassPriority(player=1),
        A.DeclareAttackers(player=0, attackers=("giant",)),
        A.PassPriority(player=0),
        A.PassPriority(player=1),
        A.DeclareBlockers(player=1, blocks=(("left", "giant"), ("right", "giant"))),
        A.PassPriority(player=0),
        A.PassPriority(player=1),
        A.AssignCombatDamage(
            player=0, divisions=(A.Division("giant", (("left", 2), ("right", 1))),)
        ),
    ]
    data = trace_of(start, *actions)
    assert data["states"][-1]["#meta"]["action"]["kind"] == "assign-combat-damage"
    del data["states"][-1]["#meta"]["action"]["divisions"]
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.PASSED
    assert report.gap_steps == 1
    # The damage on the blockers tells the divisions apart; 3 to one of them is legal too ...
    card_fields(data, len(actions), "left")["damage"] = 3
    card_fields(data, len(actions), "right")["damage"] = 0
    for state in data["states"]:
        state.pop("events", None)
    assert _check(tmp_path, data).verdict is Verdict.PASSED
    # ... but 4 damage from a 3/3 is not.
    card_fields(data, len(actions), "right")["damage"] = 1
    failed = _check(tmp_path, data)
    assert failed.verdict is Verdict.FAILED and failed.failure is not None
    assert failed.failure.step == len(actions)


def test_an_unlogged_target_is_searched(tmp_path: Path, troll_and_bear: Start) -> None:
    data = trace_of(troll_and_bear, A.Destroy(targets=("bear",)))
    del data["states"][1]["#meta"]["action"]["targets"]
    assert _check(tmp_path, data).verdict is Verdict.PASSED


def test_a_trace_with_no_step_is_vacuous(tmp_path: Path, troll_and_bear: Start) -> None:
    report = _check(tmp_path, trace_of(troll_and_bear))
    assert report.verdict is Verdict.VACUOUS
    assert report.steps == 0


def test_a_start_that_does_not_match_its_setup_fails_at_step_0(
    tmp_path: Path, troll_and_bear: Start
) -> None:
    data = trace_of(troll_and_bear, A.Cleanup())
    card_fields(data, 0, "troll")["shields"] = 3
    report = _check(tmp_path, data)
    assert report.verdict is Verdict.FAILED
    assert report.failure is not None and report.failure.step == 0


def test_a_cut_frontier_turns_a_failure_into_unknown(tmp_path: Path) -> None:
    start = Start(
        ("A", "B"), (card("knight", "Knight of the Holy Nimbus", 0, shields=shields("R")),)
    )
    data = trace_of(
        start,
        A.Destroy(targets=("knight",), choices=(A.ReplacementChoice("knight", 0, "shield#1"),)),
        A.Cleanup(),
    )
    data["states"][1]["#meta"]["action"].pop("choices")
    partial = keep_only(data, {"knight": ["zone"]})
    partial["states"][2]["cards"]["#map"] = [["knight", {"zone": "exile"}]]  # impossible
    assert _check(tmp_path, partial).verdict is Verdict.FAILED
    report = _check(tmp_path, partial, max_frontier=1)
    assert report.verdict is Verdict.UNKNOWN
    assert report.truncated


def test_the_start_can_come_from_state_0(tmp_path: Path) -> None:
    """Without #meta.setup, state 0 names each card's card and owner."""
    text = """{
      "#meta": {"format": "ITF", "edition": "FDN"},
      "vars": ["cards", "players"],
      "states": [
        {"#meta": {"index": 0},
         "cards": {"troll": {"card": "Horned Troll", "controller": "A", "shields": 1}},
         "players": {"A": {"life": 20}, "B": {"life": 20}}},
        {"#meta": {"index": 1, "action": {"kind": "destroy", "targets": ["troll"]}},
         "cards": {"troll": {"zone": "battlefield", "tapped": true, "shields": 0}}}
      ]
    }"""
    report = check_trace(parse_trace(text, "inline.itf.json"))
    assert report.verdict is Verdict.PASSED


def test_a_long_fully_observed_trace_is_checked_step_by_step(
    tmp_path: Path, troll_and_bear: Start
) -> None:
    """The fast path over a long log: every step counted and explained. Its speed is measured
    by ``benchmarks/bench_conform.py`` (steps per second), not here: a timed assertion fails
    on a loaded machine without any change to the code."""
    data = trace_of(troll_and_bear, *(SHIELD_THEN_DESTROY * 100))
    report = check_trace(read_trace(write(tmp_path, data)))
    assert report.verdict is Verdict.PASSED
    assert report.steps == len(data["states"]) - 1 > 100


@pytest.mark.parametrize("n", [1])
def test_bolt_from_the_unlogged_player(tmp_path: Path, n: int) -> None:
    """A logged action may leave out who did it: the player is searched too."""
    start = Start(("A", "B"), (card("bear", "Grizzly Bears", 1),))
    bolt = A.CastSpell(
        player=0,
        name="Lightning Bolt",
        effect=SPELLS["Lightning Bolt"].effect,
        targets=(A.TargetChoice(card="bear"),),
    )
    data = trace_of(start, bolt)
    del data["states"][n]["#meta"]["action"]["player"]
    assert _check(tmp_path, data).verdict is Verdict.PASSED
