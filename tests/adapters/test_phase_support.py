"""What the adapter refuses, how it fails, and the machinery around a run."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed (pip install 'regen-model[phase]')"
)

from regen_model.adapters.phase import (
    AdapterError,
    AdapterTimeout,
    Observation,
    PhaseEngineAdapter,
    Unexpressible,
    diff,
    run_on_phase,
    run_on_reference,
)
from regen_model.adapters.phase.examples import AGREEING, P0, P1, board, cast, passes
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, CardTemplate
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import CardType, Edition, Rider, Step, Zone
from regen_model.model.state import Shield


@pytest.fixture(scope="module")
def adapter() -> PhaseEngineAdapter:
    return PhaseEngineAdapter()


TROLL = board(("troll", "Horned Troll", P0))


@pytest.mark.parametrize(
    ("actions", "reason"),
    [
        ((A.Cleanup(),), "cleanup"),
        ((A.CreateShield(target="troll", rider=Rider.GAIN_CONTROL),), "rider"),
        ((A.Destroy(targets=("troll", "troll")),), "several permanents"),
        (
            (A.DealDamage(source="x", shares=(A.DamageShare(1, card="troll"),), cant_regen=True),),
            "can't-be-regenerated",
        ),
        ((A.OrderBlockers(player=P0, attacker="troll", order=()),), "M10"),
        ((A.ModifyPowerToughness(target="troll"),), "+0/+0"),
        (
            (A.CastSpell(player=P0, name="Life", effect=Effect(EffectKind.LIFE, amount=2)),),
            "life",
        ),
    ],
)
def test_unsupported_actions_name_the_reason(
    actions: tuple[A.Action, ...], reason: str, adapter: PhaseEngineAdapter
) -> None:
    found = adapter.supports(TROLL, actions)
    assert found is not None and found.action == 0
    assert reason in found.reason


def test_unsupported_start_states(adapter: PhaseEngineAdapter) -> None:
    custom = CardTemplate("Homebrew", frozenset({CardType.CREATURE}), 1, 1)
    homebrew = make_state(["A", "B"], [CardSpec("x", custom, 0)])
    assert "not a built-in card" in str(adapter.supports(homebrew, ()))
    cleanup = board(("troll", "Horned Troll", P0), step=Step.CLEANUP)
    assert "cleanup" in str(adapter.supports(cleanup, ()))
    rider = make_state(
        ["A", "B"],
        [
            CardSpec(
                "t",
                PERMANENT_CARDS["Horned Troll"],
                0,
                shields=(Shield("Debt", 1, Rider.GAIN_CONTROL),),
            )
        ],
    )
    assert "rider" in str(adapter.supports(rider, ()))
    m10 = make_state(
        ["A", "B"], [CardSpec("t", PERMANENT_CARDS["Horned Troll"], 0)], edition=Edition.M10
    )
    attack = (*passes(P0, P1, P0, P1), A.DeclareAttackers(player=P0, attackers=("t",)))
    assert "FDN" in str(adapter.supports(m10, attack))
    assert adapter.supports(m10, attack[:4]) is None


def test_strict_cards_refuses_partially_parsed_cards() -> None:
    golem = board(("golem", "Matopi Golem", P0))
    assert PhaseEngineAdapter().supports(golem, ()) is None
    assert "unimplemented" in str(PhaseEngineAdapter(strict_cards=True).supports(golem, ()))


def test_start_state_fields_are_set_up(adapter: PhaseEngineAdapter) -> None:
    spec = CardSpec(
        "troll",
        PERMANENT_CARDS["Horned Troll"],
        0,
        controller=1,
        tapped=True,
        damage=1,
        plus=2,
        minus=1,
        shields=(Shield("x", 0, Rider.NONE), Shield("y", 0, Rider.NONE, used=True)),
    )
    umbra = CardSpec("umbra", PERMANENT_CARDS["Eland Umbra"], 0, attached_to="troll")
    gone = CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 1, zone=Zone.GRAVEYARD)
    state = make_state(
        ["A", "B"], [spec, umbra, gone], turn=7, active=1, step=Step.END, priority=1, life=[12, 20]
    )
    ref = run_on_reference(state, ())
    got = run_on_phase(state, (), adapter=adapter)
    assert diff(ref[0], got[0]) == []
    assert got[0].cards["troll"]["shields"] == 1 and got[0].cards["troll"]["toughness"] == 7
    assert got[0].game == {"turn": 7, "step": "end", "active": 1, "priority": 1}
    assert got[0].players["A"] == {"life": 12, "poison": 0}


def test_priority_after_the_active_player_passed(adapter: PhaseEngineAdapter) -> None:
    state = TROLL._replace(priority=P1, passed=frozenset({P0}))
    actions = passes(P1)  # both have passed: the step ends
    ref = run_on_reference(state, actions)
    got = run_on_phase(state, actions, adapter=adapter)
    assert [diff(r, g) for r, g in zip(ref, got, strict=True)] == [[], []]
    assert got[-1].game["step"] == "begin-combat"


def test_wrong_player_is_an_adapter_error(adapter: PhaseEngineAdapter) -> None:
    with pytest.raises(AdapterError, match="gives priority to 0"):
        run_on_phase(TROLL, passes(P1), adapter=adapter)


def test_effect_that_phase_would_follow_with_an_sba_is_unexpressible(
    adapter: PhaseEngineAdapter,
) -> None:
    # -2/-2 on a 2/2: the model leaves the toughness-0 check to the next SBA check.
    shrink = A.ModifyPowerToughness(target="troll", power=-2, toughness=-2)
    with pytest.raises(Unexpressible, match="state-based actions"):
        run_on_phase(TROLL, (shrink,), adapter=adapter)
    # A pending lethal-damage check before a destroy effect is found up front.
    hurt = A.DealDamage(source="x", shares=(A.DamageShare(2, card="troll"),))
    with pytest.raises(Unexpressible, match="pending"):
        run_on_phase(TROLL, (hurt, A.Destroy(targets=("troll",))), adapter=adapter)


def test_without_the_actions_hint_missing_cards_are_added_by_a_replay() -> None:
    sc = next(s for s in AGREEING if s.name == "two shields survive two bolts")
    adapter = PhaseEngineAdapter()
    adapter.start(sc.state)  # no hint: nothing to cast in the libraries
    seen = [adapter.observe()]
    for action in sc.actions:
        adapter.apply(action)
        seen.append(adapter.observe())
    ref = run_on_reference(sc.state, sc.actions)
    assert [diff(r, g) for r, g in zip(ref, seen, strict=True)] == [[]] * len(ref)
    assert sum("regenerated troll" in o.events for o in seen) == 2  # replays add no events


def test_harness_spell_for_a_generic_cast(adapter: PhaseEngineAdapter) -> None:
    zap = A.CastSpell(
        player=P0,
        name="Zap",
        effect=Effect(EffectKind.DAMAGE, amount=5),
        targets=(A.TargetChoice(player=P1),),
    )
    actions = (zap, *passes(P0, P1))
    ref = run_on_reference(TROLL, actions)
    got = run_on_phase(TROLL, actions, adapter=adapter)
    assert got[-1].players["B"]["life"] == 15
    assert diff(ref[-1], got[-1]) == []


def test_budget_and_isolation_report_timeouts() -> None:
    slow = PhaseEngineAdapter(budget_s=0.0)
    with pytest.raises(AdapterTimeout):
        slow.start(TROLL)
    with pytest.raises(AdapterTimeout):
        run_on_phase(TROLL, passes(P0), timeout_s=0.001)


def test_isolated_run_returns_the_same_observations(adapter: PhaseEngineAdapter) -> None:
    actions = (cast(P0, "Lightning Bolt", "troll"), *passes(P0, P1))
    assert run_on_phase(TROLL, actions, timeout_s=60) == run_on_phase(
        TROLL, actions, adapter=adapter
    )


def test_diff_skips_absent_fields_and_unobserved_events() -> None:
    want = Observation(
        {"t": {"zone": "battlefield", "tapped": True}}, {}, ("damage t 3", "regenerated t")
    )
    got = Observation(
        {"t": {"zone": "battlefield"}},
        {},
        ("regenerated t",),
        unobserved_events=frozenset({"damage"}),
    )
    assert diff(want, got) == []
    wrong = Observation({"t": {"zone": "graveyard"}}, {}, ("destroyed t",))
    assert diff(want, wrong) == [
        "card t.zone: expected 'battlefield', observed 'graveyard'",
        "event 'damage t 3': expected, not observed",
        "event 'regenerated t': expected, not observed",
        "event 'destroyed t': observed, not expected",
    ]
