"""The folded evaluation the agreement check uses is the Z3 relation the proofs use.

``crosscheck.py`` compiles the Z3 terms of a kind's relation (symbolic printed cards) and
evaluates them at concrete points; they must equal the folded evaluation everywhere. Kept
cheap: the kinds whose relation compiles in well under a second, plus ``destroy`` (the
destruction and replacement rules, a few seconds), on the first points of the quick preset's
effects search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import pytest
import z3

from regen_model.encoding import params as P
from regen_model.encoding.bounded import QUICK_AGREEMENT, AgreementScope
from regen_model.encoding.compiled import compile_terms
from regen_model.encoding.crosscheck import Z3Evaluator, cross_check
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.frame import NONE, pin, pin_statics
from regen_model.encoding.sampling import sample_points
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import layout
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Mutant, Rider, StackKind, Zone
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, Shield
from regen_model.scenario import load_scenario, run_scenario

EFFECTS = AgreementScope(
    QUICK_AGREEMENT.scope, tuple(r for r in QUICK_AGREEMENT.runs if r.name == "effects")
)
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
KINDS = ("destroy", "create-shield", "deal-damage", "sacrifice", "exile", "change-control")


@pytest.fixture(scope="module")
def evaluator() -> Z3Evaluator:
    return Z3Evaluator(RegenSystem(EFFECTS.scope, CORRECT))


def test_z3_terms_equal_the_folded_evaluation(evaluator: Z3Evaluator) -> None:
    points = [(p, a) for p, a in sample_points(EFFECTS, 200, per_kind=6) if a.kind in KINDS]
    kinds = Counter(a.kind for _, a in points)
    assert set(kinds) == set(KINDS), kinds
    for prep, action in points:
        assert cross_check(evaluator, prep, action) == [], repr(action)


def test_compiler_means_what_z3_means() -> None:
    """The compiler on a small term with every operator the encoding emits, against Z3's own
    evaluation at a few points; an unsupported operator is refused, not guessed."""
    x, y = z3.Ints("x y")
    b = z3.Bool("b")
    roots = [
        z3.If(z3.And(b, x > y), x - y, -x + 2 * y),
        z3.Or(z3.Not(b), x == y, z3.Implies(x <= y, y >= 0)),
        z3.Distinct(x, y, 3),
        z3.Xor(b, x < 0),
    ]
    fn = compile_terms(roots, [x, y, b])
    for xv, yv, bv in [(0, 0, False), (3, -1, True), (-2, 5, True), (3, 3, False)]:
        subst = [(x, z3.IntVal(xv)), (y, z3.IntVal(yv)), (b, z3.BoolVal(bv))]
        expected = [z3.simplify(z3.substitute(r, *subst)) for r in roots]
        want = [e.as_long() if z3.is_int_value(e) else z3.is_true(e) for e in expected]
        assert fn([xv, yv, bv]) == want
    with pytest.raises(ValueError, match="not supported"):
        compile_terms([x / y], [x, y])


def test_a_blocker_of_two_attackers_keeps_both_where_its_control_does_not_change(
    evaluator: Z3Evaluator,
) -> None:
    """B's Foriysian Brigade blocks A's Horned Troll and Hill Giant; a control change gives
    it to B, who controls it already. Its controller does not change, so it is not removed from
    combat (506.4) and still names both attackers (``blocking``, ``blocking_also``, 509.1h).
    In the Z3 terms the removal is a condition, false here: a removal from combat must write
    nothing where its condition is false, as the folded evaluation skips it. The seeded
    points hold no creature blocking two attackers."""
    path = SCENARIOS / "combat" / "multi-blocked-attacker-regenerates-fdn.yaml"
    state = load_scenario(path).start
    for event in run_scenario(load_scenario(path)).steps:
        for action in event.actions:
            state = step(state, action, CORRECT).state
        if any(isinstance(a, A.DeclareBlockers) for a in event.actions):
            break
    brigade = state.cards[state.setup.handles.index("brigade")]
    assert brigade.blocking is not None and brigade.blocking_also is not None
    same = A.ChangeControl(target="brigade", player=1)  # B, its controller
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), same) == []


def _played_until(
    path: Path, stop: Callable[[GameState], bool], skip_refused: bool = False
) -> GameState:
    """The state a scenario file's events reach at the end of the first event after which
    ``stop`` holds (or at its end); with ``skip_refused``, an action the engine refuses
    (an event the scenario expects to be refused) leaves the state as it was."""
    scenario = load_scenario(path)
    state = scenario.start
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            with suppress(*((EngineError,) if skip_refused else ())):
                state = step(state, action, CORRECT).state
        if stop(state):
            break
    return state


def test_a_destruction_a_shield_counter_replaces_leaves_the_blocker_in_combat(
    evaluator: Z3Evaluator,
) -> None:
    """Under the pre-M10 rules A's Hill Giant attacks and B's Horned Troll, with a shield
    counter, blocks it; the combat damage is on the stack (pre-M10 502.9) when an effect
    destroys the Troll. The shield counter replaces the destruction (122.1c): the Troll does
    not leave the battlefield, so it stays in combat (506.4 does not apply) and the damage on
    the stack takes no last known information of it (608.2h). In the Z3 terms its move to the
    graveyard is a condition, false here: its removal from combat and its last known
    information must be written only where it moves, as the folded evaluation skips the move.
    The seeded points hold no creature in combat beside a replaced destruction."""
    state = _played_until(
        SCENARIOS / "phasing" / "pre-m10-damage-on-the-stack-to-a-phased-out-blocker.yaml",
        lambda state: bool(state.stack),
    )
    troll = state.cards[state.setup.handles.index("troll")]
    assert troll.blocking is not None and troll.shield_counters == 1 and len(state.stack) == 1
    destroy = A.Destroy(targets=("troll",))
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), destroy) == []


def test_a_destruction_a_shield_counter_replaces_keeps_no_trigger_keywords_of_its_source(
    evaluator: Z3Evaluator,
) -> None:
    """Jackal Pup, with infect, has its damage trigger on the stack when an effect destroys it
    and its shield counter replaces the destruction (122.1c): the Pup does not leave, so the
    trigger takes no last known information of it (608.2h; its damage will read the Pup as it
    is then, 609.7). In the Z3 terms the Pup's move is a condition, false here: the trigger's
    recorded keywords must be written only where it moves, as the folded evaluation skips the
    move (slice 9's ``zones.record_lki``). The seeded points hold no damage trigger beside a
    replaced destruction of its source."""
    state = _played_until(
        SCENARIOS / "damage" / "damage-trigger-uses-its-live-sources-keywords.yaml",
        lambda state: bool(state.stack) and state.stack[-1].kind is StackKind.TRIGGER,
    )
    slot = state.setup.handles.index("pup")
    assert len(state.stack) == 1 and state.stack[0].source in ("pup", slot), state.stack
    cards = list(state.cards)
    cards[slot] = cards[slot]._replace(shield_counters=1)
    state = state._replace(cards=tuple(cards))
    destroy = A.Destroy(targets=("pup",))
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), destroy) == []


def test_under_shield_follows_zone_change_a_creature_that_stays_keeps_its_used_shield() -> None:
    """Under the rule mutant ``shield-follows-zone-change`` a creature's unused shields go with
    it through a zone change, packed from the first slot. A check of the state-based actions
    destroys Grizzly Bears with lethal damage (704.5g) while Horned Troll, whose first shield
    was used this turn, has toughness above 0 and stays: its used shield stays where it is until
    cleanup (514.2). In the Z3 terms the Troll's move for toughness 0 (704.5f) is a condition,
    false here: the packing must be written only where it moves, as the folded evaluation
    skips the move (slice 9's ``zones.move_zone``)."""
    rules = Rules(frozenset({Mutant.SHIELD_FOLLOWS_ZONE_CHANGE}))
    scope = Scope(cards=2, shields=2, stack=1, pending=1, targets=1, max_amount=2)
    evaluator = Z3Evaluator(RegenSystem(scope, rules))
    used = Shield(origin="Regenerate", creator=1, rider=Rider.NONE, used=True)
    unused = Shield(origin="Regenerate", creator=1, rider=Rider.NONE)
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1, shields=(used, unused))
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, damage=2)
    state = make_state(("A", "B"), [troll, bears])
    check = A.CheckStateBasedActions()
    after = step(state, check, rules).state
    assert after.cards[1].zone is Zone.GRAVEYARD
    assert after.cards[0].zone is Zone.BATTLEFIELD and after.cards[0].shields[0].used
    assert cross_check(evaluator, prepare(state, scope), check) == []


def test_under_shield_on_attachment_an_aura_that_stays_keeps_the_shield_it_made() -> None:
    """Under the rule mutant ``shield-on-attachment`` the shields an Aura's "Regenerate
    enchanted creature" made go with the Aura when it leaves its creature (as if stored on the
    Aura). A destroy effect aimed at Regeneration, which has a shield counter, is replaced by
    the removal of the counter (122.1c): the Aura stays on Grizzly Bears, and so does the
    Bears' unused shield it made (701.19a). In the Z3 terms the Aura's move to the graveyard
    is a condition, false here: the shields must be dropped only where it moves, as the folded
    evaluation skips the move (slice 19's ``zones.move_zone``)."""
    rules = Rules(frozenset({Mutant.SHIELD_ON_ATTACHMENT}))
    scope = Scope(cards=2, shields=1, stack=1, pending=1, targets=1, max_amount=2)
    evaluator = Z3Evaluator(RegenSystem(scope, rules))
    made = Shield(origin="Regeneration", creator=0, rider=Rider.NONE, via=1)
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, shields=(made,))
    aura = CardSpec(
        "aura", PERMANENT_CARDS["Regeneration"], 0, attached_to="bears", shield_counters=1
    )
    state = make_state(("A", "B"), [bears, aura])
    destroy = A.Destroy(targets=("aura",))
    after = step(state, destroy, rules).state
    assert after.cards[1].zone is Zone.BATTLEFIELD and after.cards[1].shield_counters == 0
    assert after.cards[0].shields == (made,)
    assert cross_check(evaluator, prepare(state, scope), destroy) == []


def test_a_flicker_without_a_controller_returns_the_permanent_to_its_owner(
    evaluator: Z3Evaluator,
) -> None:
    """A flicker that names no controller returns the permanent under its owner's control
    (110.2a, 400.7), also one another player controlled. In the Z3 terms the named controller
    is a parameter that may be NONE ("under its owner's control"), where the folded evaluation
    sees NONE as a constant and never asks whether a player is named: the return must give it
    to its owner there too (slice 10's ``zones.move_zone``). The seeded points hold no flicker
    of a permanent its owner does not control."""
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 0)
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1)
    state = make_state(("A", "B"), [troll, bears])
    slot = state.setup.handles.index("troll")
    cards = list(state.cards)
    cards[slot] = cards[slot]._replace(control=1)
    state = state._replace(cards=tuple(cards))
    flicker = A.LeaveAndReturn(target="troll")
    after = step(state, flicker, CORRECT).state
    assert after.cards[slot].control == 0
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), flicker) == []


def test_a_regenerated_watcher_did_not_die_in_the_z3_terms_either(evaluator: Z3Evaluator) -> None:
    """Zulaport Cutthroat, with a regeneration shield, is destroyed: the shield replaces the
    destruction (701.19a), so it did not die (700.4) and its own "whenever this creature ...
    dies" does not trigger (603.10a). In the Z3 terms the move to the graveyard is a
    condition, false here: its death must be read only where it moves, as the folded
    evaluation skips the move (``zones.move_zone``, slice 12: a death read without that
    condition put the trigger on the stack in the terms alone)."""
    path = SCENARIOS / "zone" / "regenerated-watcher-does-not-see-itself-die.yaml"
    state = load_scenario(path).start
    destroy = A.Destroy(targets=("zulaport",))
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), destroy) == []


def _m10_ordered_with_a_shield_counter(handle: str) -> GameState:
    """``combat/m10-assignment-order.yaml`` run to the first state where the Hill Giant's
    blockers are ordered (509.2 of 2009-2024), with a shield counter put on ``handle``."""
    path = SCENARIOS / "combat" / "m10-assignment-order.yaml"
    # its first order is refused
    state = _played_until(path, lambda s: bool(s.combat.orders), skip_refused=True)
    cards = list(state.cards)
    slot = state.setup.handles.index(handle)
    cards[slot] = cards[slot]._replace(shield_counters=1)
    return state._replace(cards=tuple(cards))


def test_a_blocker_a_shield_counter_keeps_in_combat_keeps_the_m10_order_in_the_z3_terms(
    evaluator: Z3Evaluator,
) -> None:
    """Under M10 A's Hill Giant is blocked by Horned Troll and Uthden Troll, ordered in that
    order (509.2 of 2009-2024); the Horned Troll has a shield counter when an effect destroys
    it. The counter replaces the destruction (122.1c): the Troll stays on the battlefield and
    in combat (506.4 does not apply), so the Uthden Troll keeps its place after it. In the Z3
    terms the removal from combat is a condition, false here: the later blockers move up
    only where it leaves, as the folded evaluation skips it (``zones.remove_from_combat``,
    slice 12: moving them up without that condition changed the order in the terms alone)."""
    state = _m10_ordered_with_a_shield_counter("horned")
    horned = state.setup.handles.index("horned")
    assert state.combat.orders == ((0, (horned, state.setup.handles.index("uthden"))),)
    destroy = A.Destroy(targets=("horned",))
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), destroy) == []


def test_a_phased_out_equipment_stays_attached_in_the_symbolic_pass() -> None:
    """A's Bonesplitter is attached to A's Grizzly Bears, both phased out (702.26g). Phased
    out, it is treated as though it does not exist (702.26b), so 704.5n, which asks about
    Equipment on the battlefield, leaves it attached at the check made as A passes priority
    (704.3). The folded evaluation, its printed cards known, sees at once that no phased-in
    Equipment is there; the relation the proofs use is built on symbolic printed cards, and
    there the check must ask "an Equipment on the battlefield" itself (slice 18:
    ``derived.equipment_illegal`` without that conjunct unattached it in the Z3 terms alone).
    The board pinned, the pass's Z3 relation admits no successor with it unattached."""
    scope = Scope(cards=2, shields=1, stack=1, pending=1, targets=1, max_amount=2)
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, phased_out=True)
    splitter = CardSpec(
        "splitter", PERMANENT_CARDS["Bonesplitter"], 0, attached_to="bears", phased_out=True
    )
    state = make_state(("A", "B"), [bears, splitter])
    slot = state.setup.handles.index("splitter")
    action = A.PassPriority(player=0)
    assert step(state, action, CORRECT).state.cards[slot].attached_to is not None
    system = RegenSystem(scope=scope)
    t = system.template
    rel = system.relation("pass")
    lay = layout(scope)
    params = P.of_action(state, action, scope)
    post = dict(zip(lay.keys, t.post.vars(), strict=True))
    solver = z3.Solver()
    solver.add(*pin(t.pre, state), *pin_statics(t.statics, state.setup))
    solver.add(*[var == params[k] for k, var in zip(lay.param_keys, t.params.vars(), strict=True)])
    solver.add(*[c.formula for c in [*rel.conjuncts(), *rel.obligations]])
    assert solver.check() == z3.sat  # the pass is a step of the relation
    solver.add(post[f"c{slot}.attached_to"] == NONE)
    assert solver.check() == z3.unsat


def test_an_attacker_a_shield_counter_keeps_in_combat_keeps_its_blockers_order_in_the_z3_terms(
    evaluator: Z3Evaluator,
) -> None:
    """Under M10 A's Hill Giant is blocked by Horned Troll and Uthden Troll, ordered in that
    order (509.2 of 2009-2024); the Giant has a shield counter when an effect destroys it.
    The counter replaces the destruction (122.1c): the Giant stays on the battlefield and in
    combat (506.4 does not apply), so its order stays, and its blockers keep their places in
    it. In the Z3 terms the removal from combat is a condition, false here: the order of the
    attacker it removes is cleared only where it leaves (``zones.remove_from_combat``, slice
    19: clearing its blockers' places without that condition cleared them in the terms
    alone)."""
    state = _m10_ordered_with_a_shield_counter("giant")
    giant = state.setup.handles.index("giant")
    assert state.combat.orders and state.combat.orders[0][0] == giant
    destroy = A.Destroy(targets=("giant",))
    assert cross_check(evaluator, prepare(state, EFFECTS.scope), destroy) == []
