"""Action enumeration: deterministic, covers every action kind, pre-filters only what it says,
and offers 616.1 answers by both players."""

from __future__ import annotations

import dataclasses

import pytest

from regen_model.encoding.scope import Scope
from regen_model.engine import EngineError, MissingChoice, step
from regen_model.explore import ActionFamily, enumerate_actions
from regen_model.explore.answers import answer_sets, replacement_uses
from regen_model.explore.space import fits
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.enums import Decision, Edition, Keyword, Mutant, Rider, Step
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield

SCOPE = Scope(cards=4, shields=2, stack=2, pending=2, targets=1, max_amount=2)


def _state(*cards: tuple[str, str, int], **kw: object) -> GameState:
    specs = [CardSpec(handle=h, template=PERMANENT_CARDS[name], owner=o) for h, name, o in cards]
    return make_state(("A", "B"), specs, **kw)  # type: ignore[arg-type]


def _advance(state: GameState, until: Decision) -> GameState:
    """Pass priority until ``until``; attack and block with everything on the way."""
    for _ in range(60):
        if state.decision is until:
            return state
        candidates = list(enumerate_actions(state, SCOPE, family=ActionFamily.GAME, spells=()))
        if state.decision is Decision.NONE:
            candidates = [a for a in candidates if isinstance(a, A.PassPriority)]
        size = {
            a: len(getattr(a, "attackers", ())) + len(getattr(a, "blocks", ())) for a in candidates
        }
        state = step(state, max(candidates, key=lambda a: size[a])).state
    raise AssertionError(f"never reached {until}")


def _combat_states() -> list[GameState]:
    """A state waiting for each combat decision (in M10, which also orders blockers)."""
    board = _state(
        ("ram", "Colossal Dreadmaw", 0),
        ("bears", "Grizzly Bears", 1),
        ("boa", "River Boa", 1),
        edition=Edition.M10,
        step=Step.BEGIN_COMBAT,
    )
    out = [_advance(board, Decision.DECLARE_ATTACKERS), _advance(board, Decision.DECLARE_BLOCKERS)]
    out.append(_advance(board, Decision.ORDER_BLOCKERS))
    ordered = out[-1]
    for action in enumerate_actions(ordered, SCOPE, family=ActionFamily.GAME, spells=()):
        try:
            ordered = step(ordered, action).state
            break
        except EngineError:
            continue
    out.append(_advance(ordered, Decision.ASSIGN_COMBAT_DAMAGE))
    return out


def test_enumeration_is_deterministic() -> None:
    state = _state(("troll", "Horned Troll", 0), ("bears", "Grizzly Bears", 1))
    first = list(enumerate_actions(state, SCOPE))
    second = list(enumerate_actions(state, SCOPE))
    assert first == second
    assert len(first) == len(set(first)), "no action is offered twice"


def test_every_action_kind_is_enabled_somewhere() -> None:
    """Across a main-phase state and the four combat decisions, each of the 21 action kinds
    has at least one instance the engine accepts."""
    main = _state(
        ("troll", "Horned Troll", 0),
        ("bears", "Grizzly Bears", 1),
        ("umbra", "Snake Umbra", 0),
    )
    main = main._replace(cards=(*main.cards[:2], main.cards[2]._replace(attached_to=0)))
    enabled: set[str] = set()
    for state in [main, *_combat_states()]:
        for action in enumerate_actions(state, SCOPE):
            try:
                step(state, action)
            except EngineError:
                continue
            enabled.add(action.kind)
    assert enabled == {cls.kind for cls in A.ALL_ACTIONS}


def test_families_split_the_actions() -> None:
    state = _state(("troll", "Horned Troll", 0))
    effects = list(enumerate_actions(state, SCOPE, family=ActionFamily.EFFECTS))
    game = list(enumerate_actions(state, SCOPE, family=ActionFamily.GAME))
    both = list(enumerate_actions(state, SCOPE))
    assert {type(a) for a in effects} <= set(A.EFFECT_ACTIONS)
    assert {type(a) for a in game} <= set(A.GAME_ACTIONS)
    assert both == game + effects
    kinds = {"destroy", "pass"}
    assert {a.kind for a in enumerate_actions(state, SCOPE, kinds=kinds)} == kinds


def test_amounts_come_from_the_scope() -> None:
    state = _state(("bears", "Grizzly Bears", 0))
    for n in (1, 3):
        scope = dataclasses.replace(SCOPE, max_amount=n)
        damage = {
            a.shares[0].amount
            for a in enumerate_actions(scope=scope, state=state, family=ActionFamily.EFFECTS)
            if isinstance(a, A.DealDamage)
        }
        counters = {
            a.amount
            for a in enumerate_actions(state, scope, family=ActionFamily.EFFECTS)
            if isinstance(a, A.AddCounters)
        }
        assert damage == set(range(n + 1))
        assert counters == set(range(1, n + 1))


def _documented_reduction(state: GameState, action: A.Action) -> bool:
    """The reductions the module docstring states (parameters that change nothing)."""
    if isinstance(action, A.CreateShield):
        return action.rider is not Rider.GAIN_CONTROL and action.creator is not None
    if isinstance(action, A.DealDamage):
        share = action.shares[0]
        if share.card is None:
            return bool(action.keywords - {Keyword.INFECT}) or (
                share.amount == 0 and bool(action.keywords)
            )
        trigger = state.setup.templates[state.setup.slot_of(share.card)].damage_trigger
        return (
            Keyword.INFECT in action.keywords
            or (action.combat and not (trigger and trigger.combat_only))
            or (share.amount == 0 and (bool(action.keywords) or action.cant_regen))
        )
    if isinstance(action, A.LeaveAndReturn):  # naming the owner is the default
        return action.controller == state.setup.owners[state.setup.slot_of(action.target)]
    return False


def test_prefilter_removes_only_rejected_out_of_scope_or_documented_actions() -> None:
    state = _state(("troll", "Horned Troll", 0), ("bears", "Grizzly Bears", 1))
    troll = state.cards[0]
    shielded = troll._replace(shields=(Shield("x", 0, Rider.NONE),) * 2)
    gone = state.cards[1]._replace(zone=state.cards[1].zone.GRAVEYARD)
    for s in (state, state._replace(cards=(shielded, gone))):
        kept = set(enumerate_actions(s, SCOPE))
        everything = list(enumerate_actions(s, SCOPE, prefilter=False))
        assert kept <= set(everything)
        for action in everything:
            if action in kept:
                continue
            try:
                result = step(s, action)
            except EngineError:
                continue
            assert not fits(result.state, SCOPE) or _documented_reduction(s, action), action


def test_answers_are_offered_by_both_players_only_when_needed() -> None:
    plain = _state(("troll", "Mossbridge Troll", 0))
    assert replacement_uses(plain, plain.cards[0]) == ("static",)
    assert answer_sets(plain) == ()
    debt = Shield("Debt of Loyalty", 1, Rider.GAIN_CONTROL)
    two = plain._replace(cards=(plain.cards[0]._replace(shields=(debt,)),))
    assert replacement_uses(two, two.cards[0]) == ("shield#1", "static")
    answers = answer_sets(two)
    assert {(c.by, c.use) for (c,) in answers} == {
        (0, "shield#1"),
        (0, "static"),
        (1, "shield#1"),
        (1, "static"),
    }
    destroys = [a for a in enumerate_actions(two, SCOPE) if isinstance(a, A.Destroy)]
    assert A.Destroy(targets=("troll",)) in destroys
    with pytest.raises(MissingChoice):
        step(two, A.Destroy(targets=("troll",)))


def _enabled(state: GameState, rules: Rules) -> set[A.Action]:
    out: set[A.Action] = set()
    for action in enumerate_actions(state, SCOPE, kinds={"destroy"}):
        assert isinstance(action, A.Destroy)
        if action.cant_be_regenerated:  # no replacement applies, so no answer is needed
            continue
        try:
            step(state, action, rules)
        except EngineError:
            continue
        out.add(action)
    return out


def test_wrong_chooser_mutant_is_observable_in_the_enabled_actions() -> None:
    """B controls A's troll: under the correct rules only B's answers enable the destroy;
    under choice-by-owner only A's do."""
    troll = _state(("troll", "Mossbridge Troll", 0)).cards[0]
    state = _state(("troll", "Mossbridge Troll", 0))
    debt = Shield("Debt of Loyalty", 0, Rider.GAIN_CONTROL)
    state = state._replace(cards=(troll._replace(control=1, shields=(debt,)),))
    owner_rules = Rules(frozenset({Mutant.CHOICE_BY_OWNER}))
    correct = {c.by for a in _enabled(state, CORRECT) for c in a.choices}
    mutant = {c.by for a in _enabled(state, owner_rules) for c in a.choices}
    assert correct == {1}
    assert mutant == {0}


def test_a_shield_about_to_resolve_counts_as_a_use() -> None:
    """Passing can resolve a Debt of Loyalty and, in the same step, destroy the creature with
    lethal damage: the answer naming that new shield must already be offered."""
    state = _state(("boa", "River Boa", 1))
    cast = A.CastSpell(
        player=0,
        name="Debt of Loyalty",
        effect=SPELLS["Debt of Loyalty"].effect,
        targets=(A.TargetChoice(card="boa"),),
    )
    state = step(state, cast).state
    boa = state.cards[0]._replace(shields=(Shield("Regenerate", 1, Rider.NONE),), damage=1)
    state = state._replace(cards=(boa,))
    assert replacement_uses(state, boa) == ("shield", "shield#2")


def test_a_may_gain_on_top_is_offered_with_both_answers() -> None:
    """Judge of Currents' "you may gain 1 life" is answered as it resolves (608.2d): with it on
    top of the stack every pass comes with and without ``decline``, and the two answers of
    the pass that resolves it end in different life totals; with nothing asking, no pass
    declines."""
    board = _state(("judge", "Judge of Currents", 0), step=Step.BEGIN_COMBAT)
    assert not any(
        isinstance(a, A.PassPriority) and a.decline
        for a in enumerate_actions(board, SCOPE, family=ActionFamily.GAME, spells=())
    )
    declaring = _advance(board, Decision.DECLARE_ATTACKERS)
    # declaring taps the Judge, a Merfolk (603.2e): its trigger is on the stack as A gets
    # priority (603.3b)
    attacked = step(declaring, A.DeclareAttackers(player=0, attackers=("judge",))).state
    assert attacked.stack and attacked.stack[-1].effect is not None
    # A passes; B's pass resolves it, carrying A's answer (the trigger's controller's)
    on_stack = step(attacked, A.PassPriority(player=0)).state
    passes = [
        a
        for a in enumerate_actions(on_stack, SCOPE, family=ActionFamily.GAME, spells=())
        if isinstance(a, A.PassPriority) and a.target is None
    ]
    player = on_stack.priority
    assert player is not None
    assert {(a.player, a.decline) for a in passes} == {(player, False), (player, True)}
    lives = {a.decline: step(on_stack, a).state.players[0].life for a in passes}
    assert lives == {False: 21, True: 20}
