"""Boards set up by hand where the relation's replacement and damage rules differ from the
engine's only off the paths the seeded walk and the scenarios take (slice 19 of the
mutation screen, ``benchmarks/mutation-survivors-encoding.yaml``): each action is checked in
both views at that one point, and must agree.

Regeneration shields are one-use replacement effects (701.19a, 614.6); shields without a
rider lead to the same outcome whoever made them, so no choice is asked between them (616.1)
and the first unused one applies."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import pytest

from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.scope import widest
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Mutant, Rider, Step, Zone
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield
from regen_model.scenario import load_scenario, run_scenario

MINE = Shield(origin="Regenerate", creator=1, rider=Rider.NONE)
THEIRS = Shield(origin="Regenerate", creator=0, rider=Rider.NONE)


def _troll(*shields: Shield) -> GameState:
    """B's Horned Troll with the given shields, and A's Grizzly Bears."""
    return make_state(
        ("A", "B"),
        [
            CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
            CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1, shields=shields),
        ],
    )


COMBAT = Path(__file__).resolve().parents[1] / "scenarios" / "combat"
FIRST_STRIKE_STEP = "first-strike-step-refuses-a-division-of-a-regular-attacker-fdn.yaml"


def _played(path: Path, until: type[A.Action] | None = None, through: bool = False) -> GameState:
    """The state a scenario file's events reach: all of them, or those before the first
    event with an action of type ``until`` (that event too, with ``through``). An action
    the engine refuses (an event the scenario expects refused) leaves the state as it was."""
    state = (scenario := load_scenario(path)).start
    for event in run_scenario(scenario).steps:
        stop = until is not None and any(isinstance(a, until) for a in event.actions)
        if stop and not through:
            break
        for action in event.actions:
            with suppress(EngineError):
                state = step(state, action, CORRECT).state
        if stop:
            break
    return state


def _agrees(state: GameState, action: A.Action) -> GameState:
    result = check_agreement(state, action, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()
    return step(state, action, CORRECT).state


def test_two_plain_shields_made_by_different_players_ask_no_choice() -> None:
    """A shield B made and one A made (A's "Regenerate target creature" aimed at B's Troll):
    neither has a rider, so both lead to the same outcome and no choice is asked (616.1); the
    first is used and the Troll stays (701.19a). Slice 19's ``destruction._same_class``
    counted two riderless shields of different creators as different outcomes, so the
    relation asked for a choice the engine does not."""
    after = _agrees(_troll(MINE, THEIRS), A.Destroy(targets=("troll",)))
    troll = after.cards[1]
    assert troll.zone is Zone.BATTLEFIELD
    assert [s.used for s in troll.shields] == [True, False]


def test_the_first_unused_shield_is_the_only_one_used() -> None:
    """Three plain shields, the second already used by an earlier destruction this turn
    (it stays in the list until cleanup): the next destruction uses only the first unused
    one (614.6, one replacement per event). Slice 19's ``destruction.choose_and_apply``
    remembered only the option just before as "an earlier one applies", so the first and
    the third shield were both used."""
    used = MINE._replace(used=True)
    after = _agrees(_troll(MINE, used, MINE), A.Destroy(targets=("troll",)))
    assert [s.used for s in after.cards[1].shields] == [True, True, False]


def test_a_creature_card_in_the_graveyard_cannot_block() -> None:
    """509.1a: the defending player declares blockers among the creatures they control on
    the battlefield. B's Horned Troll, destroyed before blockers are declared, is a creature
    card in B's graveyard: naming it as a blocker is refused, in both views (slice 19's
    ``turn.declare_blockers`` no longer asked that the blocker be on the battlefield; the
    walk's and the scenarios' blocks name only creatures on the battlefield)."""
    state = _played(COMBAT / "block-additional-divides-fdn.yaml", until=A.DeclareBlockers)
    state = step(state, A.Destroy(targets=("troll",)), CORRECT).state
    troll = state.cards[state.setup.handles.index("troll")]
    assert troll.zone is Zone.GRAVEYARD
    blocks = A.DeclareBlockers(player=1, blocks=(("troll", "giant"),))
    with pytest.raises(EngineError):
        step(state, blocks, CORRECT)
    result = check_agreement(state, blocks, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


def test_two_triggers_of_the_non_active_player_go_on_the_stack_one_above_the_other() -> None:
    """On A's turn one damage event hits B's two Jackal Pups; each triggers ("whenever this
    creature is dealt damage", 603.2), both controlled by B, the non-active player. As
    they go on the stack (603.3b: the active player's first, then the others', each player's
    in the order they triggered) the second lands above the first: two stack objects.
    Slice 19's ``sba.triggers_to_stack`` gave each of the non-active player's triggers the
    same place (after the active player's), so the second overwrote the first."""
    state = make_state(
        ("A", "B"),
        [
            CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
            CardSpec("pup1", PERMANENT_CARDS["Jackal Pup"], 1),
            CardSpec("pup2", PERMANENT_CARDS["Jackal Pup"], 1),
        ],
    )
    shares = (A.DamageShare(amount=1, card="pup1"), A.DamageShare(amount=1, card="pup2"))
    hit = _agrees(state, A.DealDamage(source="bears", shares=shares))
    assert len(hit.pending) == 2
    after = _agrees(hit, A.CheckStateBasedActions())
    assert len(after.stack) == 2 and not after.pending


def test_an_empty_division_of_an_attacker_without_first_strike_is_refused_in_that_step() -> None:
    """510.4: in the first-strike combat damage step only creatures with first strike or
    double strike deal damage. A's assignment there names a division for the Bears, which
    have neither, even an empty one: the engine refuses it (the Bears deal no combat damage
    in this step), and so must the relation (slice 19's ``turn._assign`` asked only that the
    divided creature attack, not that it deal damage now, and accepted it)."""
    state = _played(COMBAT / FIRST_STRIKE_STEP, until=A.AssignCombatDamage)
    knight = A.Division("knight", (("skeletons", 1), ("horned", 1)))
    assign = A.AssignCombatDamage(player=0, divisions=(knight, A.Division("bears", ())))
    with pytest.raises(EngineError):
        step(state, assign, CORRECT)
    result = check_agreement(state, assign, CORRECT, widest(len(state.setup.handles)))
    assert result.status is Status.AGREE, result.describe()


def test_under_noncreature_stays_in_combat_a_first_striker_made_a_noncreature_deals_nothing() -> (
    None
):
    """The rule mutant ``noncreature-stays-in-combat`` (506.4 broken) keeps Youthful Knight in
    combat after it stops being a creature; it still has first strike, so the combat has a
    first-strike damage step, but only creatures assign combat damage (510.1), so it deals
    none there, in both views (slice 19's ``combat.dealers`` asked in the first-strike step
    only for first strike, not for a creature in combat)."""
    rules = Rules(frozenset({Mutant.NONCREATURE_STAYS_IN_COMBAT}))
    state = _played(COMBAT / FIRST_STRIKE_STEP, until=A.DeclareBlockers, through=True)
    state = step(state, A.ChangeType(target="knight", creature=False), rules).state
    scope = widest(len(state.setup.handles))
    for player in (0, 1):
        action = A.PassPriority(player=player)
        result = check_agreement(state, action, rules, scope)
        assert result.status is Status.AGREE, result.describe()
        state = step(state, action, rules).state
    assert state.step is Step.FIRST_STRIKE_DAMAGE and state.players[1].life == 20


THREE_BLOCKERS = """\
name: Three creatures block one attacker
description: B's three Grizzly Bears block A's Hill Giant.
edition: FDN
clauses: [combat.damage.multi-blocker]
players: [A, B]
permanents:
  giant: {card: Hill Giant, controller: A}
  b1: {card: Grizzly Bears, controller: B}
  b2: {card: Grizzly Bears, controller: B}
  b3: {card: Grizzly Bears, controller: B}
events:
  - pass-until: declare-attackers
  - declare-attackers: [giant]
  - pass-until: declare-blockers
  - declare-blockers: {blocks: {b1: giant, b2: giant, b3: giant}}
"""


def test_one_shield_counter_prevents_the_damage_of_three_blockers_at_once(tmp_path: Path) -> None:
    """Hill Giant, with two shield counters, is blocked by three Grizzly Bears, whose combat
    damage is one event (510.2): three shares to the Giant. The first meets a counter, which
    is removed and prevents the event's damage to the Giant, the other two shares included
    (122.1c, 615.12): one counter left, no damage, in both views (slice 19's
    ``effects._to_card`` remembered only the latest share's removal, so the third share
    removed the second counter)."""
    path = tmp_path / "three-blockers.yaml"
    path.write_text(THREE_BLOCKERS)
    state = _played(path)
    cards = list(state.cards)
    cards[0] = cards[0]._replace(shield_counters=2)
    state = state._replace(cards=tuple(cards))
    division = A.Division("giant", (("b1", 1), ("b2", 1), ("b3", 1)))
    for action in (
        A.PassPriority(player=0),
        A.PassPriority(player=1),
        A.AssignCombatDamage(player=0, divisions=(division,)),
    ):
        state = _agrees(state, action)
    giant = state.cards[0]
    assert (giant.shield_counters, giant.damage) == (1, 0)
