"""The edges of what the relation can be asked about, and of how it may be labelled.

A board of exactly as many cards as the scope holds, and an action naming every one of them
(a destruction of three creatures at a three-card scope), are within the scope: the agreement
check must compare the views there, not set the point aside as out of scope (which the walk
and the mutation screen would count as nothing seen). And a conjunct's label is checked as
the rule code runs (``work.check_label``): a label that is no clause ID stops every run of
the relation, concrete or symbolic, so the agreement walk meets it too.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from pathlib import Path

import pytest

from regen_model.encoding import params as P
from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.bounded import AGREEMENT_FRAME_SCOPE, Seed
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.frame import statics_values
from regen_model.encoding.probe import RUN_THROUGH, Probe, recording
from regen_model.encoding.scope import OutOfScope, Scope, widest
from regen_model.encoding.seeds import Card, Script, _pass, play
from regen_model.encoding.work import FRAME, SymWork, UnknownLabel, check_label, layout
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.enums import CounterKind, Decision, Edition, Step
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState
from regen_model.scenario import load_scenario, run_scenario

SCOPE = AGREEMENT_FRAME_SCOPE


def _full_board() -> GameState:
    """As many creatures as the scope has card slots."""
    names = ("Grizzly Bears", "Hill Giant", "Jackal Pup")
    assert len(names) == SCOPE.cards
    return make_state(
        ("A", "B"),
        [CardSpec(f"c{k}", PERMANENT_CARDS[name], k % 2) for k, name in enumerate(names)],
    )


def test_a_full_board_and_an_action_naming_all_of_it_are_in_scope() -> None:
    state = _full_board()
    everyone = A.Destroy(targets=state.setup.handles)
    result = check_agreement(state, everyone, CORRECT, SCOPE)
    assert result.status is Status.AGREE, result.describe()
    assert check_agreement(state, A.PassPriority(player=0), CORRECT, SCOPE).agrees


def test_labels_are_catalog_clauses_or_internal() -> None:
    assert check_label("regen.shield.apply") == "regen.shield.apply"
    assert check_label(FRAME) == FRAME
    assert check_label("scope:shields") == "scope:shields"
    assert check_label("scope:pending") == "scope:pending"
    # a bound names one of the scope's arrays: a pushed area that is no area (``None``, the
    # effects._damage_trigger survivor of the screen) is caught like a wrong clause
    for wrong in ("REGEN.SHIELD.APPLY", "XXregen.shield.applyXX", "regen.shield", "", "scope:None"):
        with pytest.raises(UnknownLabel, match=re.escape(f"{wrong!r} is no clause ID of")):
            check_label(wrong)


def test_a_wrong_label_fails_on_concrete_values_whatever_the_condition() -> None:
    """A write whose condition is false, a guard that holds and an obligation that holds
    still have their labels checked: the agreement walk evaluates the relation on concrete
    states, where most writes are skipped and most guards hold."""
    state = _full_board()
    prep = prepare(state, SCOPE)
    ctx = prep.context(CORRECT, P.of_action(state, A.PassPriority(player=0), SCOPE))
    w = SymWork(ctx, prep.pre)
    key = w.c(0).tapped
    w.set_if(False, key, True, "tap.untap")
    w.require(True, "stack.activate")
    with pytest.raises(UnknownLabel):
        w.set_if(False, key, True, "TAP.UNTAP")
    with pytest.raises(UnknownLabel):
        w.set(key, True, (True, "tap.untap", "tap.nope"))
    with pytest.raises(UnknownLabel):
        w.require(True, "stack.activated")
    with pytest.raises(UnknownLabel):
        w.oblige(True, "sba.loops")


def test_the_probe_records_the_label_each_write_and_guard_was_given() -> None:
    """Rule code that passes its clause as a value (``zones.move_zone``'s ``clause``) labels
    its branches only as it runs: the coverage probe records each label at its site, and the
    branch report lists them beside the branch (``branches.relation_branches``)."""
    state = _full_board()
    prep = prepare(state, SCOPE)
    ctx = prep.context(CORRECT, P.of_action(state, A.PassPriority(player=0), SCOPE))
    w = SymWork(ctx, prep.pre)
    with recording(Probe()) as probe:
        w.set_if(False, w.c(0).tapped, True, "tap.untap")
        w.require(True, "stack.activate")
    assert sorted(c for labels in probe.clauses.values() for c in labels) == [
        "stack.activate",
        "tap.untap",
    ]


def test_a_false_condition_is_skipped_except_its_first_times_while_the_probe_records() -> None:
    """``SymWork.skip``: writes under a literally false condition are skipped, but while the
    branch coverage is recorded the first ``RUN_THROUGH`` times at each place run through, so
    that the probe sees those writes' false side; a condition that may hold is never skipped."""
    state = _full_board()
    prep = prepare(state, SCOPE)
    ctx = prep.context(CORRECT, P.of_action(state, A.PassPriority(player=0), SCOPE))
    w = SymWork(ctx, prep.pre)
    assert w.skip(False) and not w.skip(True)
    with recording(Probe()):
        seen = [w.skip(False) for _ in range(RUN_THROUGH + 1)]
    assert seen == [False] * RUN_THROUGH + [True]


# Combat that needs four cards: the seeded walk's scope has three (``AGREEMENT_FRAME_SCOPE``),
# so these boards are compared here, at a scope of four, step by step and with the refused
# actions of ``tried``.
FOUR = Scope(
    cards=4, shields=2, stack=2, pending=2, targets=1, max_amount=6, max_power=6, max_toughness=6
)
_S = tuple(Card(f"s{k}", "Drudge Skeletons", 0) for k in (1, 2, 3))
FOUR_CARD_SCRIPTS = (
    Script(
        "two-attacker-blocker-and-a-third-attacker",
        "a creature blocking two attackers, one of which leaves combat (506.4), blocks only "
        "the other (509.1h): a third attacker it never blocked is not one of its attackers, so "
        "its damage needs no division (510.1d)",
        (*_S, Card("brigade", "Foriysian Brigade", 1)),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("s1", "s2", "s3")),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("brigade", "s1"), ("brigade", "s2"))),
            A.ChangeType(target="s2", creature=False),
            *_pass(0, 1),
            *_pass(0, 1),
        ),
        step=Step.BEGIN_COMBAT,
    ),
    Script(
        "blocked-attacker-without-blockers",
        "an attacker whose only blocker left combat stays blocked (509.1h) and, without "
        "trample, assigns no combat damage (510.1c): while a trampler's division is asked "
        "for, a division for it is refused",
        (
            Card("wurm", "Colossal Dreadmaw", 0),
            Card("bears", "Grizzly Bears", 0),
            Card("skel", "Drudge Skeletons", 1),
            Card("giant", "Hill Giant", 1),
        ),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("wurm", "bears")),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("skel", "wurm"), ("giant", "bears"))),
            A.ChangeType(target="giant", creature=False),
            *_pass(0, 1),
            A.AssignCombatDamage(
                player=0, divisions=(A.Division("wurm", (("skel", 1), ("player", 5))),)
            ),
        ),
        step=Step.BEGIN_COMBAT,
        tried=(
            (
                9,
                A.AssignCombatDamage(
                    player=0,
                    divisions=(
                        A.Division("wurm", (("skel", 1), ("player", 5))),
                        A.Division("bears", (("skel", 2),)),
                    ),
                ),
            ),
        ),
    ),
    Script(
        "trampler-left-without-blockers-gives-its-division",
        "a trampler whose only blocker left combat stays blocked (509.1h) and assigns all its "
        "damage to the player (702.19e); given as a division while another trampler's is "
        "asked for, that one share is legal",
        (
            Card("wurm", "Colossal Dreadmaw", 0),
            Card("wurm2", "Colossal Dreadmaw", 0),
            Card("skel", "Drudge Skeletons", 1),
            Card("giant", "Hill Giant", 1),
        ),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("wurm", "wurm2")),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("skel", "wurm"), ("giant", "wurm2"))),
            A.ChangeType(target="giant", creature=False),
            *_pass(0, 1),
            A.AssignCombatDamage(
                player=0,
                divisions=(
                    A.Division("wurm", (("skel", 1), ("player", 5))),
                    A.Division("wurm2", (("player", 6),)),
                ),
            ),
        ),
        step=Step.BEGIN_COMBAT,
    ),
    Script(
        "attacker-with-two-blockers-divides-among-them-only",
        "an attacker without trample divides its damage among its blockers (510.1c): a blocker "
        "named twice, or a share to the player, is refused",
        (
            Card("giant", "Hill Giant", 0),
            Card("s1", "Drudge Skeletons", 1),
            Card("s2", "Drudge Skeletons", 1),
        ),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("giant",)),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("s1", "giant"), ("s2", "giant"))),
            *_pass(0, 1),
            A.AssignCombatDamage(
                player=0, divisions=(A.Division("giant", (("s1", 1), ("s2", 2))),)
            ),
        ),
        step=Step.BEGIN_COMBAT,
        tried=(
            (
                8,
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("giant", (("s1", 1), ("s1", 1), ("s2", 1))),),
                ),
            ),
            (
                8,
                A.AssignCombatDamage(
                    player=0,
                    divisions=(A.Division("giant", (("s1", 1), ("s2", 1), ("player", 1))),),
                ),
            ),
        ),
    ),
    Script(
        "blocker-of-two-attackers-with-power-one-divides",
        "a creature blocking two attackers with 1 power (a -1/-1 counter, 122.1a) chooses "
        "which of them gets it (510.1d)",
        (
            Card("giant", "Hill Giant", 0),
            Card("bears", "Grizzly Bears", 0),
            Card("brigade", "Foriysian Brigade", 1),
        ),
        (
            A.AddCounters(target="brigade", counter=CounterKind.MINUS, amount=1),
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("giant", "bears")),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("brigade", "giant"), ("brigade", "bears"))),
            *_pass(0, 1),
            A.AssignCombatDamage(player=0, divisions=(A.Division("brigade", (("bears", 1),)),)),
        ),
        step=Step.BEGIN_COMBAT,
    ),
    Script(
        "unblocked-trampler-named-with-all-its-damage",
        "an unblocked trampler named in the divisions with all its damage to the player "
        "(702.19e) deals it once (510.1a), beside an attacker whose division is asked for",
        (
            Card("wurm", "Colossal Dreadmaw", 0),
            Card("giant", "Hill Giant", 0),
            Card("s1", "Drudge Skeletons", 1),
            Card("s2", "Drudge Skeletons", 1),
        ),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("wurm", "giant")),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("s1", "giant"), ("s2", "giant"))),
            *_pass(0, 1),
            A.AssignCombatDamage(
                player=0,
                divisions=(
                    A.Division("giant", (("s1", 1), ("s2", 2))),
                    A.Division("wurm", (("player", 6),)),
                ),
            ),
        ),
        step=Step.BEGIN_COMBAT,
    ),
    Script(
        "m10-order-for-an-attacker-removed-from-combat",
        "an attacker that stopped being a creature while its blockers wait to be ordered left "
        "combat (506.4): its blockers still name it, but it needs no damage assignment order "
        "(509.2 of 2009-2024), so ordering them is refused",
        (
            Card("giant", "Hill Giant", 0),
            Card("s1", "Drudge Skeletons", 1),
            Card("s2", "Drudge Skeletons", 1),
        ),
        (
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("giant",)),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("s1", "giant"), ("s2", "giant"))),
            A.ChangeType(target="giant", creature=False),
        ),
        edition=Edition.M10,
        step=Step.BEGIN_COMBAT,
        tried=((7, A.OrderBlockers(player=0, attacker="giant", order=("s1", "s2"))),),
    ),
)


def _assert_each_step_agrees(seed: Seed, scope: Scope) -> None:
    """Each step of ``seed`` and each refused action it tried, compared at ``scope``."""
    points = [*zip(seed.states, seed.actions, strict=False)]
    points += [(seed.states[k], action) for k, action in seed.tried]
    for state, action in points:
        result = check_agreement(state, action, CORRECT, scope)
        assert result.status is Status.AGREE, (seed.name, action, result.describe())


@pytest.mark.parametrize("script", FOUR_CARD_SCRIPTS, ids=lambda s: s.name)
def test_four_card_combat_agrees(script: Script) -> None:
    for name, start in script.starts():
        _assert_each_step_agrees(play(name, start, script.actions, script.tried), FOUR)


def test_a_lone_attackers_pre_m10_damage_at_one_card() -> None:
    """At the smallest scope, one card: a lone attacker's combat damage before M10 still goes
    on the stack (pre-M10 510.1-510.2; ``turn._assign_and_deal``), the same as with more."""
    script = Script(
        "lone-attacker-pre-m10",
        "one creature attacks a player with no creatures; its damage uses the stack",
        (Card("bears", "Grizzly Bears", 0),),
        (*_pass(0, 1), A.DeclareAttackers(player=0, attackers=("bears",)), *_pass(0, 1) * 3),
        edition=Edition.PRE_M10,
        step=Step.BEGIN_COMBAT,
    )
    one = Scope(cards=1, shields=1, stack=2, pending=1, targets=1)
    for name, start in script.starts():
        seed = play(name, start, script.actions)
        assert any(s.stack for s in seed.states), "the damage never went on the stack"
        for state, action in zip(seed.states, seed.actions, strict=False):
            result = check_agreement(state, action, CORRECT, one)
            assert result.status is Status.AGREE, (action, result.describe())


def _board(names: tuple[str, ...]) -> GameState:
    return make_state(
        ("A", "B"),
        [CardSpec(f"c{k}", PERMANENT_CARDS[name], k % 2) for k, name in enumerate(names)],
    )


@pytest.mark.parametrize(
    ("cards", "action", "reason"),
    [
        # one card more than the scope's slots (frame.values)
        (4, A.PassPriority(player=0), "4 cards do not fit a scope of 3"),
        # an action naming more cards than the scope holds (params._seq)
        (3, A.Destroy(targets=("c0", "c1", "c2", "c0")), "a list of 4 cards does not fit"),
        # an action naming a card the board does not have (params._Names.slot)
        (3, A.Destroy(targets=("nope",)), "unknown card 'nope'"),
        # a player the game does not have: the scope's two are 0 and 1 (params._Names.player)
        (3, A.PassPriority(player=2), "unknown player 2"),
    ],
    ids=["board", "list", "handle", "player"],
)
def test_an_out_of_scope_point_says_why(cards: int, action: A.Action, reason: str) -> None:
    """The reason a point is set aside is reported (the walk's and ``agree``'s output)."""
    names = ("Grizzly Bears", "Hill Giant", "Jackal Pup", "Grizzly Bears")[:cards]
    result = check_agreement(_board(names), action, CORRECT, SCOPE)
    assert result.status is Status.OUT_OF_SCOPE
    assert reason in result.reason, result.reason


@pytest.mark.parametrize(
    "shares",
    [
        (("horned", 2), ("horned", -1), ("uthden", 1)),
        (("horned", -1), ("horned", 2), ("uthden", 1)),
    ],
    ids=["negative-share-second", "negative-share-first"],
)
def test_an_attackers_division_with_a_negative_share_to_its_first_blocker_agrees(
    shares: tuple[tuple[str, int], ...],
) -> None:
    """Under M10 the Hill Giant's second blocker may get damage once its first, Horned Troll, is
    assigned lethal damage (510.1c of 2009-2024). The engine drops a division's shares of 0 or
    less before it compares it with the legal ones, so 2 and -1 to the Troll and 1 to Uthden
    Troll assign 2 and 1: legal, and the relation must not count the -1 against the Troll's 2
    (slice 7's ``combat.division_legal``). Only an action built by hand, or the CLI's JSON,
    gives a negative share or names a blocker twice."""
    state, player = _before_the_first_assignment("m10-assignment-order.yaml")
    mine = A.AssignCombatDamage(player=player, divisions=(A.Division("giant", shares),))
    step(state, mine, CORRECT)  # accepted
    result = check_agreement(state, mine, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


@pytest.mark.parametrize(
    "shares",
    [
        (("bears", 1), ("bears", -1), ("giant", 1)),
        (("bears", -1), ("bears", 1), ("giant", 1)),
    ],
    ids=["negative-share-second", "negative-share-first"],
)
def test_a_blockers_division_with_a_negative_share_to_its_first_attacker_agrees(
    shares: tuple[tuple[str, int], ...],
) -> None:
    """Under M10 Foriysian Brigade, given deathtouch and blocking Grizzly Bears and then Hill
    Giant, may give the Giant damage once the Bears are assigned lethal damage, 1 with
    deathtouch (510.1d of 2009-2024, 702.2c). The engine drops a division's shares of 0 or
    less, so 1 and -1 to the Bears and 1 to the Giant assign 1 and 1: legal, and the relation
    must not count the -1 against the Bears' 1 (slice 9's ``combat.blocker_division_legal``,
    as slice 7's attacker case above)."""
    state, player = _before_the_first_assignment("block-additional-deathtouch-m10.yaml")
    mine = A.AssignCombatDamage(player=player, divisions=(A.Division("brigade", shares),))
    step(state, mine, CORRECT)  # accepted
    result = check_agreement(state, mine, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


def _before_the_first_assignment(name: str) -> tuple[GameState, int]:
    """The state of the combat scenario ``name`` just before its first combat damage
    assignment, and the player who assigns it."""
    scenario = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "combat" / name)
    state = scenario.start
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            if isinstance(action, A.AssignCombatDamage):
                return state, action.player
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    raise AssertionError(f"{name} assigns no combat damage")


def test_a_stack_scope_of_one_object_resolves_its_spell() -> None:
    """The smallest stack a scope may hold (``SCOPE_LIMITS``: 0..8) holds one spell, which
    resolves (608.2) in both views: the top of a one-slot stack is read like any other."""
    path = Path(__file__).resolve().parents[1] / "scenarios" / "damage" / "player.yaml"
    scenario = load_scenario(path)
    scope = replace(SCOPE, stack=1)
    state, resolved = scenario.start, 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            result = check_agreement(state, action, CORRECT, scope)
            assert result.status is Status.AGREE, result.describe()
            try:
                after = step(state, action, CORRECT).state
            except EngineError:
                continue
            resolved += len(state.stack) == 1 and not after.stack
            state = after
    assert resolved == 2  # both Lightning Bolts


def test_a_stack_beyond_the_scope_says_why() -> None:
    """A stack with more objects than the scope's stack slots is out of scope, and the reason
    names both sizes (``frame.values``; the walk and ``agree`` print it)."""
    shock = SPELLS["Shock"]
    state = _board(("Grizzly Bears", "Hill Giant"))
    for target in ("c0", "c1"):
        state = step(state, shock.cast(0, (A.TargetChoice(card=target),)), CORRECT).state
    with pytest.raises(OutOfScope, match=r"^a stack of 2 does not fit a scope of 1$"):
        prepare(state, replace(SCOPE, stack=1))


def test_waiting_triggers_beyond_the_scope_say_why() -> None:
    """More waiting triggers than the scope's slots for them are out of scope, and the reason
    names both counts (``frame.values``): two Jackal Pups dealt damage at once both trigger
    (603.2), and a scope with one waiting-trigger slot can't hold them."""
    state = _board(("Jackal Pup", "Jackal Pup"))
    shares = tuple(A.DamageShare(card=c, amount=1) for c in ("c0", "c1"))
    state = step(state, A.DealDamage(source="Shock", shares=shares), CORRECT).state
    assert len(state.pending) == 2
    with pytest.raises(OutOfScope, match=r"^2 waiting triggers do not fit a scope of 1$"):
        prepare(state, replace(SCOPE, pending=1))


def test_printed_cards_beyond_the_scope_say_why() -> None:
    """A setup pinned as printed cards (``RegenSystem``'s ``setup``, ``frame.statics_values``)
    with more cards than the scope's slots is out of scope, and says why."""
    names = ("Grizzly Bears", "Hill Giant", "Jackal Pup", "Grizzly Bears")
    with pytest.raises(OutOfScope, match="4 cards do not fit a scope of 3"):
        statics_values(layout(SCOPE).statics, _board(names).setup)


def test_a_reflexive_trigger_removed_from_the_last_waiting_slot_leaves_no_stack_entry() -> None:
    """A reflexive trigger with no legal target is removed as it would go on the stack
    (603.3d). At a scope with one waiting-trigger slot it sits in the last slot, where no
    later (empty) slot is moved after it: nothing of it may be left in the stack's array."""
    path = Path(__file__).resolve().parents[1] / "scenarios" / "zone"
    scenario = load_scenario(path / "reflexive-declined-and-no-target.yaml")
    state = scenario.start
    scope = replace(widest(len(state.setup.handles)), pending=1)
    steps = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            result = check_agreement(state, action, CORRECT, scope)
            assert result.status is Status.AGREE, result.describe()
            steps += 1
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    assert steps > 20


def test_an_activation_naming_a_negative_ability_number_is_refused_by_both_views() -> None:
    """An activation names one of the source's activated abilities by its number, from 0
    (602.1, 602.2); an action naming -1 (the CLI's JSON can) is refused by the engine, and the
    relation must refuse it too: its guard asks 0 <= ability, not only ability < count."""
    start = make_state(("A", "B"), [CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 0)])
    # its controller with priority, and then its opponent (who may activate only an
    # opponents-only ability, so a number naming none passes that guard)
    for player, state in ((0, start), (1, step(start, A.PassPriority(player=0), CORRECT).state)):
        for ability in (-1, 0):
            action = A.ActivateAbility(player=player, source="troll", ability=ability)
            result = check_agreement(state, action, CORRECT, widest(1))
            assert result.status is Status.AGREE, result.describe()


@pytest.mark.parametrize(
    ("shares", "legal"),
    [
        ((("giant", 0), ("giant", 1), ("bears", 1)), True),
        ((("giant", 1), ("giant", 0), ("bears", 1)), True),
        # two shares that assign damage to the same attacker
        ((("giant", 1), ("giant", 1)), False),
        # 510.1d: only the attackers it blocks; the Troll is B's own creature
        ((("giant", 1), ("troll", 1)), False),
    ],
    ids=[
        "zero-share-first",
        "zero-share-second",
        "one-attacker-twice",
        "a-creature-it-does-not-block",
    ],
)
def test_a_blockers_division_with_a_zero_share_to_an_attacker_it_also_names_agrees(
    shares: tuple[tuple[str, int], ...], legal: bool
) -> None:
    """The engine drops a division's shares of 0 before it compares the division with the
    legal ones (510.1d: only the damage assigned counts), so a blocker of two attackers giving
    0 and 1 to the same attacker (in either order), and 1 to the other, assigns 1 to each:
    legal. Only two shares that both assign damage may not name the same attacker, and a
    share may name only an attacker it blocks. (The scenario format is a mapping, so only an
    action built by hand, or the CLI's JSON, names one twice.)"""
    state, player = _before_the_first_assignment("block-additional-divides-fdn.yaml")
    mine = A.AssignCombatDamage(player=player, divisions=(A.Division("brigade", shares),))
    try:
        step(state, mine, CORRECT)
        accepted = True
    except EngineError:
        accepted = False
    assert accepted is legal
    result = check_agreement(state, mine, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


def test_an_answer_about_an_unknown_permanent_leaves_the_later_answers_in_force() -> None:
    """616.1: the engine reads the answer of the player the rules designate for the permanent
    that would be destroyed and ignores answers about permanents that do not exist; one such
    answer listed first must not hide the real answer after it (the relation's parameters
    skip it and read on)."""
    path = Path(__file__).resolve().parents[1] / "scenarios" / "replace"
    scenario = load_scenario(path / "choice-by-controller-not-owner.yaml")
    state = scenario.start
    checked = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            if isinstance(action, A.Destroy) and len(action.choices) == 2:
                ghost = replace(action.choices[1], permanent="nobody")
                mine = replace(action, choices=(ghost, *action.choices))
                step(state, mine, CORRECT)  # the engine accepts it
                result = check_agreement(state, mine, CORRECT, widest(len(state.setup.handles)))
                assert result.status is Status.AGREE, result.describe()
                checked += 1
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    assert checked == 1


# An M10 board of five cards: two attackers, each with its own damage assignment order, and a
# creature blocking both (509.1a), so a blocker that leaves combat was in one order only.
FIVE = Scope(
    cards=5, shields=1, stack=2, pending=2, targets=1, max_amount=6, max_power=6, max_toughness=6
)
FIVE_CARD_M10_SCRIPT = Script(
    "m10-blocker-leaving-one-order-leaves-the-other",
    "a blocker that leaves combat leaves the damage assignment order it was in, and the "
    "blockers after it there move up one place (506.4, 509.2 of 2009-2024); the order of the "
    "other attacker, which it never blocked, stays as it was, though a creature blocking both "
    "attackers comes second in each",
    (
        Card("s1", "Drudge Skeletons", 0),
        Card("s2", "Drudge Skeletons", 0),
        Card("bears", "Grizzly Bears", 1),
        Card("brigade", "Foriysian Brigade", 1),
        Card("giant", "Hill Giant", 1),
    ),
    (
        *_pass(0, 1),
        A.DeclareAttackers(player=0, attackers=("s1", "s2")),
        *_pass(0, 1),
        A.DeclareBlockers(
            player=1,
            blocks=(("bears", "s1"), ("brigade", "s1"), ("brigade", "s2"), ("giant", "s2")),
        ),
        A.OrderBlockers(player=0, attacker="s1", order=("bears", "brigade")),
        A.OrderBlockers(player=0, attacker="s2", order=("giant", "brigade")),
        A.ChangeType(target="bears", creature=False),
    ),
    edition=Edition.M10,
    step=Step.BEGIN_COMBAT,
)


def test_an_m10_blocker_leaving_combat_leaves_only_its_own_order() -> None:
    """Slice 15 of the screen (``zones.remove_from_combat__mutmut_135``): a blocker after the
    removed one in another attacker's order moved up too; only five cards hold two orders of
    two blockers where the removed blocker is in one of them."""
    script = FIVE_CARD_M10_SCRIPT
    ((name, start),) = script.starts()
    seed = play(name, start, script.actions)
    brigade = seed.states[-1].cards[3]
    assert brigade.blocking is not None and brigade.blocking_also is not None
    _assert_each_step_agrees(seed, FIVE)


def test_priority_given_clears_a_recorded_turn_based_choice_in_both_views() -> None:
    """A player receiving priority is waiting for no turn-based choice (117.5; the engine's
    ``turn.give_priority`` sets the decision to none). No run gives priority while a choice
    is pending, but the frame's domain holds such a state, and a solver-chosen one may be
    one: A passes in the declare attackers step with the attackers' choice still recorded,
    B receives priority, and both views must clear the choice (slice 16's
    ``turn.finish``)."""
    scenario = load_scenario(
        Path(__file__).resolve().parents[1]
        / "scenarios"
        / "turn"
        / "sorcery-by-the-non-active-player.yaml"
    )
    state = scenario.start._replace(
        decision=Decision.DECLARE_ATTACKERS, step=Step.DECLARE_ATTACKERS
    )
    action = A.PassPriority(player=state.priority)
    after = step(state, action, CORRECT).state
    assert after.priority == 1 and after.decision is Decision.NONE
    result = check_agreement(state, action, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()
