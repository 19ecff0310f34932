"""Shrinking: padding is removed, prefixes fold into the start, fields go back to defaults,
and the predicate is always respected."""

from __future__ import annotations

from regen_model.conform.adapter import ReferenceAdapter, parse_rules
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.shrink import shrink
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.model.enums import Keyword, Rider, Step
from regen_model.model.state import Shield

from .helpers import card, shields


def _diverges_under(mutant: str):  # type: ignore[no-untyped-def]
    adapter = ReferenceAdapter(parse_rules(mutant))

    def fails(case: Case) -> bool:
        return run_case(case, adapter).outcome is Outcome.DIVERGED

    return fails


def test_padding_and_extra_cards_are_removed() -> None:
    start = Start(
        ("A", "B"),
        (
            card(
                "troll",
                "Horned Troll",
                0,
                damage=1,
                tapped=True,
                granted=frozenset({Keyword.TRAMPLE}),
            ),
            card("bear", "Grizzly Bears", 1, shields=shields("x")),
            card("giant", "Hill Giant", 1, plus=1),
        ),
        life=(5, 9),
    )
    noise = [A.ModifyPowerToughness(target="giant", power=1), A.CreateShield(target="bear")]
    actions = (
        *noise,
        A.CreateShield(target="troll"),
        *noise,
        A.Destroy(targets=("troll",)),
        A.Cleanup(),
        *noise,
    )
    fails = _diverges_under("regen-keeps-damage")
    case = Case("padded", start, actions)
    assert fails(case)
    small, calls = shrink(case, fails)
    assert fails(small)
    # The shield's creation folded into the start: a shielded, damaged troll is destroyed.
    assert [a.kind for a in small.actions] == ["destroy"]
    (troll,) = small.start.cards
    assert (troll.handle, troll.damage, troll.tapped, troll.granted) == (
        "troll",
        1,
        False,
        frozenset(),
    )
    assert len(troll.shields) == 1
    assert small.start.life == (20, 20)
    assert calls < 300


def test_a_prefix_of_passes_folds_into_the_start() -> None:
    # B's bear (A is active, so no attack): both players pass through turn 1 to its cleanup.
    start = Start(("A", "B"), (card("bear", "Grizzly Bears", 1, shields=shields("x")),))
    passes = []
    for _ in range(9):
        passes += [A.PassPriority(player=0), A.PassPriority(player=1)]
    fails = _diverges_under("shields-survive-cleanup")
    case = Case("long", start, tuple(passes))
    assert fails(case)
    small, _ = shrink(case, fails)
    assert len(small.actions) <= 2
    assert small.start.step in (Step.END, Step.CLEANUP)
    assert fails(small)


def test_the_budget_bounds_the_work() -> None:
    calls = []

    def fails(case: Case) -> bool:
        calls.append(case)
        return len(case.actions) >= 20

    start = Start(("A", "B"), (card("bear", "Grizzly Bears", 0),))
    case = Case("any", start, tuple(A.CheckStateBasedActions() for _ in range(50)))
    small, n = shrink(case, fails, budget=10)
    assert n == 10 == len(calls)
    assert fails(small)


def test_a_card_taken_out_leaves_every_shield_naming_the_aura_that_made_it() -> None:
    """A shield's ``via`` is the position of the Aura whose ability made it: taking a card out
    before the Aura moves it down with the Aura, and taking the Aura out drops it, so the start
    still writes (its JSON names the Aura by handle) and builds with the same Aura. Before,
    ``without`` left it as it was: the clause witness of attach.host-regen@shielded, shrunk to
    two cards, named a fourth one and could not be written to the cache."""
    made = Shield("Regeneration", 0, Rider.NONE, via=2)
    start = Start(
        ("A", "B"),
        (
            card("troll", "Horned Troll", 0, shields=(made,)),
            card("bear", "Grizzly Bears", 1),
            card("aura", "Regeneration", 0, attached_to="troll"),
        ),
    )
    fewer = start.without("bear")
    assert fewer.cards[0].shields[0].via == 1
    assert fewer.to_json()["permanents"][0]["shields"] == [
        {"origin": "Regeneration", "creator": "A", "via": "aura"}
    ]
    assert fewer.build().cards[0].shields[0].via == 1
    alone = start.without("aura")
    assert alone.cards[0].shields[0].via is None
    assert "via" not in alone.to_json()["permanents"][0]["shields"][0]
