"""Breadth-first exploration: proofs within a scope under the correct rules, shortest
counterexamples under mutants, determinism, the state view, scope pruning and budgets."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from regen_model.engine import EngineError, StepResult, step
from regen_model.explore import (
    ActionFamily,
    ExploreConfig,
    StartSpec,
    enumerate_actions,
    explore,
)
from regen_model.explore.bfs import ENGINE_TOTAL, _Search, check_trace
from regen_model.explore.monitor import CatalogMonitor, Finding
from regen_model.explore.space import fits, terminal, view
from regen_model.explore.starts import start_states
from regen_model.explore.trace import flatten
from regen_model.model.actions import Action
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.model.state import GameState
from regen_model.verdicts import Verdict

CATALOG = CatalogMonitor()
BEARS = StartSpec(("Grizzly Bears",), 1)


def _mutant(m: Mutant) -> Rules:
    return Rules(frozenset({m}))


def test_correct_rules_are_proved_within_a_small_scope() -> None:
    result = explore(ExploreConfig(BEARS, depth=2), CATALOG)
    assert result.verdict is Verdict.PROVED
    assert result.violations == {}
    assert result.starts == 2  # the bears owned by A, or by B
    assert result.progress.levels[0] == 2
    assert result.states == sum(result.progress.levels)
    assert result.progress.transitions > result.states  # many steps reach known states


def test_shield_not_consumed_has_a_two_step_counterexample() -> None:
    config = ExploreConfig(BEARS, depth=3, rules=_mutant(Mutant.SHIELD_NOT_CONSUMED))
    result = explore(config, CATALOG)
    assert result.verdict is Verdict.VIOLATED
    cex = result.violations["inv.shield.used-once"]
    assert cex.length == 2
    assert [s.action.kind for s in cex.trace.steps] == ["create-shield", "destroy"]
    assert result.progress.depth == 2, "the search stops at the depth of the first violation"
    found = {f.invariant for f in check_trace(cex.trace, CATALOG)}
    assert "inv.shield.used-once" in found, "replaying the trace shows the violation again"


def test_shortest_violation_per_invariant_when_continuing() -> None:
    """One destruction using every shield needs two shields first: 3 steps; and with
    --continue the search still reports the shortest violation of each invariant."""
    config = ExploreConfig(
        BEARS,
        depth=3,
        kinds=frozenset({"create-shield", "destroy"}),
        rules=_mutant(Mutant.ONE_DESTRUCTION_USES_ALL),
        stop_at_first=False,
    )
    result = explore(config, CATALOG)
    lengths = {name: c.length for name, c in result.violations.items()}
    assert lengths["inv.shield.used-once"] == 3
    assert lengths["inv.shield.one-per-destruction"] == 3
    kinds = [s.action.kind for s in result.violations["inv.shield.used-once"].trace.steps]
    assert kinds == ["create-shield", "create-shield", "destroy"]


def test_exploration_is_deterministic() -> None:
    config = ExploreConfig(BEARS, depth=3, rules=_mutant(Mutant.CREATE_TAPS))
    a, b = explore(config, CATALOG), explore(config, CATALOG)
    assert a.states == b.states
    assert a.violations.keys() == b.violations.keys()
    for name in a.violations:
        ta, tb = a.violations[name].trace, b.violations[name].trace
        assert [s.action for s in ta.steps] == [s.action for s in tb.steps]
        assert [flatten(x) for x in ta.states] == [flatten(x) for x in tb.states]


def test_a_crash_is_a_violation_with_its_trace() -> None:
    """Knight of the Holy Nimbus regenerates from every destruction; if deathtouch damage is
    never forgotten, the state-based-action loop never settles and the engine raises."""
    config = ExploreConfig(
        StartSpec(("Knight of the Holy Nimbus",), 1, owners=(0,)),
        depth=2,
        kinds=frozenset({"deal-damage", "check-sba"}),
        rules=_mutant(Mutant.DEATHTOUCH_REMEMBERED),
        stop_at_first=False,
    )
    result = explore(config, CATALOG)
    cex = result.violations[ENGINE_TOTAL]
    assert cex.length == 2
    assert cex.trace.steps[-1].error is not None
    assert "did not settle" in cex.trace.steps[-1].error


def _random_walks(seed: int, steps: int) -> Iterator[tuple[GameState, Action, StepResult]]:
    """Random runs from every start of a small board: each (state, action, result) the engine
    accepted, a run going on from that result."""
    rng = random.Random(seed)
    config = ExploreConfig(StartSpec(("Horned Troll", "Grizzly Bears"), 2), depth=0)
    for start in start_states(config.start, config.scope):
        state = start
        for _ in range(steps):
            actions = list(enumerate_actions(state, config.scope))
            rng.shuffle(actions)
            for action in actions:
                try:
                    result = step(state, action)
                except EngineError:
                    continue
                yield state, action, result
                state = result.state
                break


def test_the_turn_number_is_not_read_by_the_rules() -> None:
    """The explorer hashes states without their turn number; that is sound only if no rule
    reads it: successors of states differing only in the turn number differ only in it."""
    compared = 0
    for state, action, result in _random_walks(7, 40):
        later = step(state._replace(turn=state.turn + 5), action)
        assert view(result.state) == view(later.state)
        assert later.state.turn - result.state.turn == 5
        compared += 1
    assert compared > 100


def test_the_graveyards_are_not_read_by_the_rules() -> None:
    """The explorer hashes states without their graveyards; sound only if no rule reads one:
    from a state whose graveyards are emptied, every action does the same as from the state
    itself, up to the graveyards (and the runs do fill them: spells resolve, creatures die)."""
    compared = filled = 0
    for state, action, result in _random_walks(11, 60):
        empty = state._replace(players=tuple(p._replace(graveyard=()) for p in state.players))
        other = step(empty, action)
        assert view(result.state) == view(other.state)
        assert result.events == other.events or [
            e for e in result.events if "graveyard" not in e.clause
        ] == [e for e in other.events if "graveyard" not in e.clause]
        compared += 1
        filled += any(p.graveyard for p in result.state.players)
    assert compared > 100
    assert filled > 10


class _NeverMoreThanOneShield:
    """A tiny monitor for scope tests: a state invariant the scope bound decides."""

    invariants = ("at-most-one-shield",)

    def check_state(self, state: GameState) -> list[Finding]:
        if any(len(c.shields) > 1 for c in state.cards):
            return [Finding("at-most-one-shield", "a card has two shields")]
        return []

    def check_step(self, pre: GameState, action: Action, result: StepResult) -> list[Finding]:
        return []


def test_scope_bounds_what_is_explored_not_what_is_checked() -> None:
    only_shields = frozenset({"create-shield"})
    base = ExploreConfig(BEARS, depth=4, kinds=only_shields)
    one = dataclasses.replace(base, scope=dataclasses.replace(base.scope, shields=1))
    result = explore(one, _NeverMoreThanOneShield())
    assert result.verdict is Verdict.PROVED, "a second shield is never offered in scope 1"
    two = explore(base, _NeverMoreThanOneShield())
    cex = two.violations["at-most-one-shield"]
    assert cex.length == 2
    assert fits(cex.trace.states[-1], base.scope)
    assert not fits(cex.trace.states[-1], one.scope)


def test_state_budget_gives_unknown() -> None:
    config = ExploreConfig(BEARS, depth=3, max_states=50)
    result = explore(config, CATALOG)
    assert result.verdict is Verdict.UNKNOWN
    assert "budget" in result.reason
    assert not result.exhausted


def test_a_small_space_is_exhausted_before_the_depth_bound() -> None:
    config = ExploreConfig(BEARS, depth=10, family=ActionFamily.EFFECTS, kinds=frozenset({"exile"}))
    result = explore(config, CATALOG)
    assert result.verdict is Verdict.PROVED
    assert result.exhausted
    assert result.progress.levels == [2, 2, 0]


def test_a_lost_game_is_terminal() -> None:
    """Once a player has lost (104.2a) nothing is explored from that state."""
    config = ExploreConfig(BEARS, depth=2)
    state = start_states(config.start, config.scope)[0]
    dead = state._replace(players=(state.players[0]._replace(lost=True), state.players[1]))
    assert terminal(dead) and not terminal(state)
    over = _Search(config, CATALOG, None)
    over.run([dead])
    assert over.progress.transitions == 0
    alive = _Search(config, CATALOG, None)
    alive.run([state])
    assert alive.progress.transitions > 0
