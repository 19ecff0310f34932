"""Hand and library sizes and Fecundity on phase.rs (issue 13 item 2's cross-check).

The model keeps a hand and a library as counts (121.1); the adapter stands for the model's
library cards with Islands on top of each library (``carddata.LIBRARY_CARD``) and reads the
sizes as the Islands in the hand and the library, leaving its own cards out as the graveyards
do. phase.rs's own Fecundity draws nothing (PH-31, pinned in
``tests/adapters/divergences/ph31-fecundity-draws-nothing.yaml``); Fecundity worded "you may
draw a card", which phase.rs asks about, checks the rest of the mapping where every creature
that dies is Fecundity's controller's (the two wordings then name the same player).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import PhaseEngineAdapter, translate
from regen_model.adapters.phase.carddata import LIBRARY_CARD, MODEL_CARDS, PhaseCard
from regen_model.adapters.phase.known import classifier, load_known
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.features import DIES_DRAW_FEATURES
from regen_model.conform.sources import saved_cases
from regen_model.model import actions as A

ROOT = Path(__file__).resolve().parents[2]
# Fecundity with "you may draw a card": phase.rs parses it as an optional draw for the
# ability's controller and asks that player (OptionalEffectChoice)
YOU_MAY_DRAW = PhaseCard(
    "Fecundity", "{2}{G}", "Enchantment", "Whenever a creature dies, you may draw a card."
)


def _case(path: str) -> Case:
    (case,) = saved_cases([ROOT / path])
    return case


@pytest.fixture
def you_may_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MODEL_CARDS, "Fecundity", YOU_MAY_DRAW)


def test_fecundity_is_mapped_and_an_effect_leaving_a_trigger_too() -> None:
    """An effect that kills a creature leaves Fecundity's trigger waiting in the model (603.3);
    a harness spell or Debug action puts it on the stack at once, which the adapter leaves out
    of the stack's size until a player receives priority (test_phase_dies.py)."""
    lacks = PhaseEngineAdapter.lacks
    assert not DIES_DRAW_FEATURES & lacks
    assert "card:Fecundity" in DIES_DRAW_FEATURES
    assert "effect-leaves-trigger" not in lacks


def test_the_libraries_are_the_model_s_cards_on_top() -> None:
    case = _case("tests/adapters/cases/fecundity-draws-and-declines.yaml")
    adapter = PhaseEngineAdapter()
    state = case.start.build()
    assert adapter.supports(state, case.actions) is None
    adapter.start(state)
    seen = adapter.observe()
    assert {n: (p["hand"], p["library"]) for n, p in seen.players.items()} == {
        "A": (0, 2),
        "B": (0, 1),
    }
    st = adapter._game().state()
    for seat, count in ((0, 2), (1, 1)):
        library = st["players"][seat]["library"]
        names = [st["objects"][str(x)]["name"] for x in library]
        assert names[:count] == [LIBRARY_CARD.name] * count
        assert LIBRARY_CARD.name not in names[count:]
        assert len(library) > count  # the filler below keeps the draw steps from decking


@pytest.mark.usefixtures("you_may_draw")
def test_draws_declines_and_the_draw_step_agree() -> None:
    """A draws (608.2d, 121.1), declines (the pass's ``decline``), and B's draw step draws
    a filler card, not one of the model's (504.1 is left out of the model)."""
    result = run_case(
        _case("tests/adapters/cases/fecundity-draws-and-declines.yaml"), PhaseEngineAdapter()
    )
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)


@pytest.mark.usefixtures("you_may_draw")
def test_the_draw_step_would_take_a_model_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the adapter's swap, phase.rs's draw step takes one of B's model cards: the
    case reaches the draw step and the swap is what keeps it in agreement."""
    monkeypatch.setattr(translate.Translator, "_redraw", lambda self, seat, oid: None)
    result = run_case(
        _case("tests/adapters/cases/fecundity-draws-and-declines.yaml"), PhaseEngineAdapter()
    )
    assert result.outcome is Outcome.DIVERGED
    assert result.divergence is not None
    assert {d.path for d in result.divergence.diffs} == {"players.B.hand", "players.B.library"}


@pytest.mark.usefixtures("you_may_draw")
def test_the_answer_no_is_phase_rs_s_answer_no(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass that resolves the trigger carries the answer; left unanswered, phase.rs waits
    for it and nobody holds priority."""
    monkeypatch.setattr(translate.Translator, "_may_prompt", lambda self, data: False)
    result = run_case(
        _case("tests/adapters/cases/fecundity-draws-and-declines.yaml"), PhaseEngineAdapter()
    )
    assert result.outcome is Outcome.DIVERGED
    assert result.divergence is not None
    assert "game.priority" in {d.path for d in result.divergence.diffs}


@pytest.mark.usefixtures("you_may_draw")
def test_a_draw_from_a_library_the_model_holds_empty_is_not_expressed() -> None:
    """phase.rs's library never runs out (the filler), so the draw the model makes from an
    empty library (121.3, 121.4) takes a filler card there: skipped, not passed."""
    result = run_case(
        _case("tests/adapters/cases/fecundity-empty-library.yaml"), PhaseEngineAdapter()
    )
    assert result.outcome is Outcome.SKIPPED
    assert "121.4" in result.reason


def test_phase_rs_s_fecundity_draws_nothing_and_a_no_agrees() -> None:
    """With phase.rs's own Fecundity a draw the model makes is PH-31 (and the rest of the case
    is masked); with every answer no, the whole case agrees, the draw step included."""
    case = _case("tests/adapters/cases/fecundity-draws-and-declines.yaml")
    result = run_case(case, PhaseEngineAdapter(), known=classifier(load_known()))
    assert result.outcome is Outcome.KNOWN, (result.reason, result.divergence)
    assert [ids for _, ids in result.known] == [("PH-31",)]
    declined = tuple(
        replace(a, decline=True) if isinstance(a, A.PassPriority) else a for a in case.actions
    )
    result = run_case(replace(case, actions=declined), PhaseEngineAdapter())
    assert result.outcome is Outcome.PASSED, (result.reason, result.divergence)


def test_drawn_tells_the_draw_step_s_draw_from_an_effect_s() -> None:
    events = [
        {"type": "PhaseChanged", "data": {"phase": "Draw"}},
        {"type": "ZoneChanged", "data": {"object_id": 7}},
        {"type": "CardDrawn", "data": {"player_id": 1, "object_id": 7}},
        {"type": "PriorityPassed", "data": {"player_id": 1}},
        {"type": "StackResolved", "data": {"object_id": 40}},
        {"type": "ZoneChanged", "data": {"object_id": 8}},
        {"type": "CardDrawn", "data": {"player_id": 0, "object_id": 8}},
        {"type": "PhaseChanged", "data": {"phase": "PreCombatMain"}},
        {"type": "CardDrawn", "data": {"player_id": 0, "object_id": 9}},
    ]
    assert translate.drawn(events) == [(1, 7, True), (0, 8, False), (0, 9, False)]
