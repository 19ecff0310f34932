"""Hypothesis properties of single rules the engine alone implements a branch of: each draws
the situation the rule is about (cards, owners and controllers, keywords, editions) and
checks the outcome the rules decide. They are the engine-side counterpart of the agreement
check: a change to one of these engine branches fails here even where no seed run of the
agreement reaches it.

* removal from combat (506.4): an attacker removed from combat, by regeneration, a control
  change or leaving the battlefield, is no longer attacking nor blocked; only attackers
  that stay in combat stay blocked (509.1h);
* deathtouch (702.2b, 704.5h): damage from a source with deathtouch is recorded whether it
  is marked or, with wither or infect, becomes -1/-1 counters (120.3d);
* triggers (603.3a): a damage trigger is controlled by its source's controller, not owner;
* the untap step (502.3): the active player untaps exactly the permanents it controls.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.derived import controller
from regen_model.model.enums import Edition, Keyword, Rider, Step
from regen_model.model.state import GameState, Shield

from .strategies import PROFILE

PLAYERS = ("A", "B")
ATTACKERS = ("Horned Troll", "Grizzly Bears", "Hill Giant", "River Boa", "Colossal Dreadmaw")
BLOCKERS = ("Grizzly Bears", "Hill Giant", "Wall of Essence", "Typhoid Rats")


def _play(state: GameState, actions: list[A.Action]) -> GameState:
    for action in actions:
        state = step(state, action).state
    return state


def _pass(*players: int) -> list[A.Action]:
    return [A.PassPriority(player=p) for p in players]


@PROFILE
@given(
    attacker=st.sampled_from(ATTACKERS),
    blocker=st.sampled_from(BLOCKERS),
    edition=st.sampled_from(list(Edition)),
    how=st.sampled_from(["regenerate", "control", "control-eot", "exile", "sacrifice"]),
)
def test_an_attacker_removed_from_combat_is_not_blocked(
    attacker: str, blocker: str, edition: Edition, how: str
) -> None:
    shield = (Shield("Regenerate", 0, Rider.NONE),)
    start = make_state(
        PLAYERS,
        [
            CardSpec("att", PERMANENT_CARDS[attacker], 0, shields=shield),
            CardSpec("blk", PERMANENT_CARDS[blocker], 1),
        ],
        edition=edition,
        step=Step.BEGIN_COMBAT,
    )
    blocked = _play(
        start,
        [
            *_pass(0, 1),
            A.DeclareAttackers(player=0, attackers=("att",)),
            *_pass(0, 1),
            A.DeclareBlockers(player=1, blocks=(("blk", "att"),)),
        ],
    )
    assert blocked.cards[0].attacking and blocked.cards[0].blocked
    removal: A.Action = {
        "regenerate": A.Destroy(targets=("att",)),
        "control": A.ChangeControl(target="att", player=1),
        "control-eot": A.ChangeControl(target="att", player=1, until_end_of_turn=True),
        "exile": A.Exile(target="att"),
        "sacrifice": A.Sacrifice(target="att"),
    }[how]
    after = step(blocked, removal).state
    att = after.cards[0]
    assert not att.attacking and not att.blocked and att.blocking is None
    blk = after.cards[1]
    assert blk.blocking == 0  # still a blocking creature (509.1h, 506.4)
    for card in after.cards:
        assert not card.blocked or card.attacking  # "blocked" belongs to attackers in combat


@PROFILE
@given(
    source=st.sampled_from(("Boggart Ram-Gang", "Glistener Elf", "Grizzly Bears")),
    target=st.sampled_from(("Hill Giant", "Colossal Dreadmaw", "Horned Troll")),
    extra=st.sampled_from((frozenset(), frozenset({Keyword.WITHER}), frozenset({Keyword.INFECT}))),
    amount=st.integers(1, 2),
)
def test_deathtouch_damage_is_recorded_as_counters_or_marks(
    source: str, target: str, extra: frozenset[Keyword], amount: int
) -> None:
    start = make_state(
        PLAYERS,
        [CardSpec("src", PERMANENT_CARDS[source], 0), CardSpec("dst", PERMANENT_CARDS[target], 1)],
    )
    hit = A.DealDamage(
        source="src",
        shares=(A.DamageShare(amount, "dst"),),
        keywords=frozenset({Keyword.DEATHTOUCH}) | extra,
    )
    after = step(start, hit).state.cards[1]
    kws = PERMANENT_CARDS[source].keywords | extra
    as_counters = Keyword.WITHER in kws or Keyword.INFECT in kws
    assert (after.minus, after.damage) == ((amount, 0) if as_counters else (0, amount))
    assert after.deathtouched  # 702.2b: recorded for the next check either way
    checked = step(step(start, hit).state, A.CheckStateBasedActions()).state.cards[1]
    assert not checked.on_battlefield  # 704.5h destroys it


@PROFILE
@given(
    card=st.sampled_from(("Jackal Pup", "Wall of Essence")),
    owner=st.integers(0, 1),
    ctrl=st.integers(0, 1),
    active=st.integers(0, 1),
)
def test_a_damage_trigger_is_controlled_by_the_controller(
    card: str, owner: int, ctrl: int, active: int
) -> None:
    start = make_state(
        PLAYERS,
        [CardSpec("it", PERMANENT_CARDS[card], owner, controller=ctrl)],
        active=active,
        priority=active,
    )
    hit = A.DealDamage(source="effect", shares=(A.DamageShare(1, "it"),), combat=True)
    pending = step(start, hit).state.pending
    assert len(pending) == 1
    trigger = pending[0]
    assert trigger.controller == ctrl  # 603.3a
    assert [t.player for t in trigger.targets] == [ctrl]  # "its controller" gains/loses


@PROFILE
@given(
    who=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=4),
    active=st.integers(0, 1),
)
def test_the_untap_step_untaps_what_the_active_player_controls(
    who: list[tuple[int, int]], active: int
) -> None:
    start = make_state(
        PLAYERS,
        [
            CardSpec(f"c{i}", PERMANENT_CARDS["Grizzly Bears"], owner, controller=ctrl, tapped=True)
            for i, (owner, ctrl) in enumerate(who)
        ],
        step=Step.END,
        active=active,
        priority=active,
    )
    other = 1 - active
    state = _play(start, _pass(active, other))  # the end step, then cleanup and a new turn
    assert state.step is Step.UPKEEP and state.active == other
    for card in state.cards:
        assert card.tapped == (controller(card) != other)  # 502.3
