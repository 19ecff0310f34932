"""The frames' and the parameters' own functions, pinned value by value against the engine.

The agreement walk evaluates the relation on concrete values, so it never calls what only the
symbolic build and the solver-chosen states use: a frame's domain constraint (``Frame.domain``,
``frame.representable``), reading a model back (``frame.read``, ``frame.read_statics``), the
parameters' domain (``params.domain``) and reading chosen parameters back as an action
(``params.to_action``). A domain narrower than what the engine reaches makes a proof vacuous
on the states it leaves out; a wider one lets the solver choose a state no engine holds; a
read-back that loses a field makes a solver-chosen state another state. These were the
mutation screen's ``no checks`` mutants of ``encoding/frame.py`` and ``encoding/params.py``
(``benchmarks/mutation-survivors-encoding.yaml``), each killed here:

* a stack object's ``target_spell`` (Counterspell's "target spell", 115.1): the domain admits
  exactly ``NONE``, ``SPELL_GONE_Z`` and the scope's stack positions; every value an engine
  state encodes to (a spell below, 601.2c; one countered from under it, 608.2b and 701.6a) is
  admitted and representable, a model with each admitted value reads back as an engine state
  whose values are the model's again, and an unused target holds ``NONE`` only;
* the cast's ``tgt_spell`` parameter: the domain admits exactly ``NONE`` and the positions
  ``of_action`` takes (the spells on the stack before the cast, 601.2c), and a cast at a
  spell, a player, a card or nothing reads back as itself;
* the printed cards: every built-in permanent the encoding holds, and Shrines (205.3h) of each
  kind, read back from a model with the same types and the same encoded fields;
* the reasons a state or an action is out of scope (more shields on a card than its slots,
  damage shares to cards out of slot order), which the agreement's result reports.
"""

from __future__ import annotations

import pytest
import z3

from regen_model.encoding import params as P
from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.frame import (
    NONE,
    SPELL_GONE_Z,
    Frame,
    Statics,
    pin,
    pin_statics,
    read,
    read_statics,
    representable,
    statics_values,
    template_fits,
    values,
)
from regen_model.encoding.scope import OutOfScope, Scope, widest
from regen_model.encoding.work import layout
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, CardTemplate, CardType
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Rider, StackKind, ordinal
from regen_model.model.rules import CORRECT
from regen_model.model.state import SPELL_GONE, GameState, Setup, Shield


def _scope(stack: int) -> Scope:
    """Two cards, one target per object: the smallest frame with spells on a stack of
    ``stack``."""
    return Scope(cards=2, shields=1, stack=stack, pending=1, targets=1, max_amount=2)


BOARD = make_state(
    ("A", "B"),
    [
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1),
        CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1),
    ],
)
SHOCK = SPELLS["Shock"]
COUNTERSPELL = SPELLS["Counterspell"]


def _pass_both(state: GameState) -> GameState:
    """Both players pass: the top object resolves (608.1)."""
    state = step(state, A.PassPriority(player=state.priority or 0), CORRECT).state
    return step(state, A.PassPriority(player=state.priority or 0), CORRECT).state


def _spell_states() -> list[GameState]:
    """Engine states whose stack objects target spells: Counterspells at each spell below them
    (601.2c), and one whose spell was countered from under it (``SPELL_GONE``, 608.2b)."""
    one = step(BOARD, SHOCK.cast(0, (A.TargetChoice(card="bears"),)), CORRECT).state
    two = step(one, COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)), CORRECT).state
    three = step(two, COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)), CORRECT).state
    # the top Counterspell counters the Shock: the one between is left targeting nothing
    gone = _pass_both(three)
    assert [t.spell for t in gone.stack[0].targets] == [SPELL_GONE], gone.stack
    above = step(two, COUNTERSPELL.cast(0, (A.TargetChoice(spell=1),)), CORRECT).state
    return [one, two, three, gone, above]


SPELL_STATES = _spell_states()


def _admitted(solver: z3.Solver, term: z3.ExprRef, lo: int, hi: int) -> set[int]:
    """The values in ``lo..hi`` that ``term`` can take under ``solver``'s constraints."""
    out = set()
    for v in range(lo, hi + 1):
        solver.push()
        solver.add(term == v)
        if solver.check() == z3.sat:
            out.add(v)
        solver.pop()
    return out


@pytest.mark.parametrize("stack", [1, 2, 3])
def test_a_stack_objects_spell_target_admits_exactly_none_gone_and_the_stacks_positions(
    stack: int,
) -> None:
    sc = _scope(stack)
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    for j, obj in enumerate(frame.stack):
        solver.push()
        solver.add(frame.stack_size > j, obj.n_targets == 1)
        got = _admitted(solver, obj.target_spell[0], -4, stack + 2)
        solver.pop()
        assert got == {NONE, SPELL_GONE_Z, *range(stack)}, f"stack slot {j}"


@pytest.mark.parametrize("state", SPELL_STATES, ids=["one", "two", "three", "gone", "above"])
def test_every_spell_target_an_engine_state_holds_is_in_the_domain_and_representable(
    state: GameState,
) -> None:
    sc = _scope(3)
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *representable(frame))
    solver.add(*pin_statics(frame.statics, state.setup), *pin(frame, state))
    assert solver.check() == z3.sat


def _value(model: z3.ModelRef, term: z3.ExprRef) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


@pytest.mark.parametrize("stack", [1, 2])
def test_every_admitted_spell_target_reads_back_as_an_engine_target_and_as_itself(
    stack: int,
) -> None:
    """A model with each admitted ``target_spell`` in each stack slot reads back as an engine
    state whose target names that spell (or none, or one gone), and whose values are the
    model's again; an unused target holds ``NONE`` only."""
    sc = _scope(stack)
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    lay = layout(sc)
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain(), *representable(frame))
    solver.add(frame.stack_size == stack)
    expected = {NONE: None, SPELL_GONE_Z: SPELL_GONE, **{p: p for p in range(stack)}}
    for j, obj in enumerate(frame.stack):
        # a spell, an ability or a trigger: combat damage has no targets
        live = obj.kind != ordinal(StackKind.COMBAT_DAMAGE)
        for value, spell in expected.items():
            solver.push()
            solver.add(live, obj.n_targets == 1, obj.target_spell[0] == value)
            assert solver.check() == z3.sat, (j, value)
            model = solver.model()
            solver.pop()
            state = read(model, frame, read_statics(model, frame.statics))
            assert [t.spell for t in state.stack[j].targets] == [spell], (j, value)
            back = values(lay.frame, state)
            got = {k: _value(model, v) for k, v in zip(lay.keys, frame.vars(), strict=True)}
            assert {k: (got[k], back[k]) for k in lay.keys if got[k] != back[k]} == {}, (
                j,
                value,
            )
        solver.push()
        solver.add(obj.n_targets == 0, live, obj.target_spell[0] != NONE)
        assert solver.check() == z3.unsat, f"stack slot {j}: an unused target names a spell"
        solver.pop()


# --- the cast's parameters ---------------------------------------------------------------------


def _counter(*targets: A.TargetChoice) -> A.CastSpell:
    return A.CastSpell(
        player=0,
        name="Counterspell",
        effect=Effect(EffectKind.COUNTER_SPELL),
        target_rule=TargetRule.SPELL,
        targets=targets,
    )


@pytest.mark.parametrize("stack", [0, 1, 2, 3])
def test_the_casts_spell_target_admits_exactly_none_and_the_positions_of_action_takes(
    stack: int,
) -> None:
    sc = _scope(stack)
    p = P.fresh(sc, "x")
    solver = z3.Solver()
    solver.add(*P.domain(p, sc))
    got = _admitted(solver, p.tgt_spell[0], -4, stack + 2)
    assert got == {NONE, *range(stack)}
    taken = set()
    for v in range(-2, stack + 2):
        try:
            params = P.of_action(SPELL_STATES[2], _counter(A.TargetChoice(spell=v)), sc)
        except OutOfScope:
            continue
        taken.add(int(params["tgt0.spell"]))
    assert taken == got - {NONE}


@pytest.mark.parametrize(
    "action",
    [
        _counter(A.TargetChoice(spell=0)),
        _counter(A.TargetChoice(spell=1)),
        SHOCK.cast(0, (A.TargetChoice(player=1),)),
        SHOCK.cast(1, (A.TargetChoice(card="giant"),)),
        A.CastSpell(player=0, name="Hex", effect=Effect(EffectKind.DESTROY), target_rule=None),
    ],
    ids=["at-spell-0", "at-spell-1", "at-a-player", "at-a-card", "no-target"],
)
def test_a_cast_reads_back_from_its_parameters_as_itself(action: A.CastSpell) -> None:
    sc = _scope(3)
    state = SPELL_STATES[1]  # two spells on the stack
    v = P.of_action(state, action, sc)
    back = P.to_action(v, action.kind, state, sc)
    assert isinstance(back, A.CastSpell)
    assert (back.player, back.effect, back.targets, back.target_rule, back.sorcery) == (
        action.player,
        action.effect,
        action.targets,
        action.target_rule,
        action.sorcery,
    )
    assert P.of_action(state, back, sc) == v


# --- the printed cards ---------------------------------------------------------------------------

_SHRINES = (
    CardTemplate(name="Honden", types=frozenset({CardType.ENCHANTMENT}), shrine=True),
    CardTemplate(
        name="Keeper",
        types=frozenset({CardType.ENCHANTMENT, CardType.CREATURE}),
        power=1,
        toughness=1,
        shrine=True,
    ),
    CardTemplate(
        name="Relic", types=frozenset({CardType.ENCHANTMENT, CardType.ARTIFACT}), shrine=True
    ),
)
_TEMPLATES = [t for t in (*PERMANENT_CARDS.values(), *_SHRINES) if template_fits(t) is None]


def test_every_printed_card_the_encoding_holds_reads_back_with_its_types_and_fields() -> None:
    sc = widest(1)  # room for every printed power, toughness and amount
    statics = Statics.fresh(sc, "s")
    keys = Statics.fresh(sc, "s", names=True)
    solver = z3.Solver()
    solver.add(*statics.domain())
    assert len(_TEMPLATES) > len(_SHRINES), "the built-in cards no longer fit the encoding"
    for template in _TEMPLATES:
        setup = Setup(("A", "B"), ("c0",), (template,), (0,))
        solver.push()
        solver.add(*pin_statics(statics, setup))
        assert solver.check() == z3.sat, template.name
        model = solver.model()
        solver.pop()
        back = read_statics(model, statics)
        assert back.templates[0].types == template.types, template.name
        assert statics_values(keys, back) == statics_values(keys, setup), template.name


# The reasons the encoding gives for a state or an action it cannot write down: the
# agreement walk sets such a point aside as out of scope with that reason, which its result
# reports (``check_agreement``). No board or action of the walk is that wide, so these were
# the sample screen's ``not reached`` mutants of ``frame._assign`` and ``params._damage``.


def test_a_card_with_more_shields_than_the_scope_is_out_of_scope_by_its_reason() -> None:
    """701.19a: any number of shields can be made for one creature; a frame has
    ``scope.shields`` slots for them."""
    shield = Shield(origin="Regenerate", creator=1, rider=Rider.NONE)
    state = make_state(
        ("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1, shields=(shield,) * 2)]
    )
    scope = Scope(cards=1, shields=1)
    result = check_agreement(state, A.Destroy(targets=("bears",)), CORRECT, scope)
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == "card 0 has 2 shields; the scope allows 1"


def test_damage_shares_to_cards_out_of_slot_order_are_out_of_scope_by_their_reason() -> None:
    """120.3: one source deals its damage to several recipients at once; the parameters hold
    one share per card slot, so a division naming the cards in another order (or one twice)
    is not written down."""
    action = A.DealDamage(
        source="effect", shares=(A.DamageShare(1, card="giant"), A.DamageShare(1, card="bears"))
    )
    result = check_agreement(BOARD, action, CORRECT, widest(2))
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == "damage shares to cards must name each card once, in slot order"
