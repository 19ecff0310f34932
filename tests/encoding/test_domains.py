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

from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from itertools import combinations, pairwise, permutations, product
from pathlib import Path
from typing import Any

import pytest
import z3

from regen_model.encoding import params as P
from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.evaluate import evaluate_params, prepare
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
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, CardTemplate, CardType
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import (
    Attachment,
    CounterKind,
    Decision,
    DiesWatch,
    Edition,
    Keyword,
    Rider,
    StackKind,
    Step,
    Zone,
    ordinal,
)
from regen_model.model.rules import CORRECT
from regen_model.model.state import SPELL_GONE, GameState, Setup, Shield, StackObject, Target
from regen_model.scenario import load_scenario, run_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[2]


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


def _framed(sc: Scope) -> tuple[Frame, z3.Solver]:
    """A fresh frame of ``sc`` and a solver holding its domain and its cards' domain."""
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    return frame, solver


@pytest.mark.parametrize("stack", [1, 2, 3])
def test_a_stack_objects_spell_target_admits_exactly_none_gone_and_the_stacks_positions(
    stack: int,
) -> None:
    frame, solver = _framed(_scope(stack))
    for j, obj in enumerate(frame.stack):
        solver.push()
        solver.add(frame.stack_size > j, obj.n_targets == 1)
        got = _admitted(solver, obj.target_spell[0], -4, stack + 2)
        solver.pop()
        assert got == {NONE, SPELL_GONE_Z, *range(stack)}, f"stack slot {j}"


def test_a_cards_dies_triggers_admit_every_amount_up_to_the_scopes() -> None:
    """A dies trigger's amount (Onulet's "you gain 2 life"), a dies watcher's drain or draw
    (Zulaport Cutthroat's 1) and a tapped trigger's life: every amount from 0 to the scope's
    largest, none beyond it; a narrower domain would leave the largest printed amount out of
    every proof."""
    sc = _scope(1)
    statics = Statics.fresh(sc, "s")
    solver = z3.Solver()
    solver.add(*statics.domain())
    card = statics.cards[0]
    amounts = set(range(sc.max_amount + 1))
    top = sc.max_amount + 2
    assert _admitted(solver, card.dies_life, -1, top) == amounts
    assert _admitted(solver, card.dies_drain, -1, top) == amounts
    assert _admitted(solver, card.dies_draw, -1, top) == amounts
    # and a tapped trigger's life (Soldevi Steam Beast's, Judge of Currents')
    assert _admitted(solver, card.tapped_opponent_life, -1, top) == amounts
    assert _admitted(solver, card.tapped_watch_life, -1, top) == amounts


def test_a_stack_objects_card_player_and_source_admit_exactly_none_and_what_exists() -> None:
    """A targeted card and a source are a card slot or none, a targeted player one of the
    two or none (115.1): no value past the scope's cards, which no engine state encodes."""
    sc = _scope(2)
    frame, solver = _framed(sc)
    for j, obj in enumerate(frame.stack):
        solver.push()
        solver.add(frame.stack_size > j, obj.n_targets == 1)
        cards = {NONE, *range(sc.cards)}
        assert _admitted(solver, obj.target_card[0], -4, sc.cards + 2) == cards, j
        assert _admitted(solver, obj.target_player[0], -4, 3) == {NONE, 0, 1}, j
        assert _admitted(solver, obj.source, -4, sc.cards + 2) == cards, j
        solver.pop()


def test_a_stack_objects_controller_and_a_combat_hits_controller_admit_both_players() -> None:
    """A spell, ability or trigger is controlled by either player (the engine's
    ``StackObject.controller``), and so is the source of pre-M10 combat damage on the stack
    as last known (``hit_ctrl``, pre-M10 310.4b): each admits exactly the players 0 and 1.
    A domain narrowed to one player would leave the other player's objects out of every
    symbolic query (slice 10's ``frame._stack_domain``)."""
    sc = _scope(1)
    frame, solver = _framed(sc)
    obj = frame.stack[0]
    solver.add(frame.stack_size == 1)
    assert _admitted(solver, obj.controller, -2, 3) == {0, 1}
    solver.add(obj.kind == ordinal(StackKind.COMBAT_DAMAGE))
    for i, ctrl in enumerate(obj.hit_ctrl):
        assert _admitted(solver, ctrl, -2, 3) == {0, 1}, i


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
        # a target naming nothing (the engine refuses it: "a target names a card or a player")
        A.CastSpell(
            player=0,
            name="Hex",
            effect=Effect(EffectKind.DESTROY),
            targets=(A.TargetChoice(),),
            target_rule=TargetRule.CREATURE,
        ),
        # a spell putting counters of each kind the model tracks (122.1a, 122.1c)
        *(
            A.CastSpell(
                player=0,
                name="Counters",
                effect=Effect(EffectKind.COUNTERS, amount=1, counter=kind),
                targets=(A.TargetChoice(card="bears"),),
            )
            for kind in CounterKind
        ),
    ],
    ids=["at-spell-0", "at-spell-1", "at-a-player", "at-a-card", "no-target", "at-nothing"]
    + [f"counters-{kind.name.lower()}" for kind in CounterKind],
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
    # the parameters hold no spell name: a cast read back from a solver's answer is named
    # after its effect, the name a counterexample's trace shows and a written scenario's
    # inline spell carries (a nameless cast could be neither)
    assert back.name == f"{action.effect.kind.value} spell", back.name


@pytest.mark.parametrize(
    "action",
    [
        A.Destroy(targets=("bears",)),
        # "Destroy target creature. It can't be regenerated." (701.19c, Terror)
        A.Destroy(targets=("bears", "giant"), cant_be_regenerated=True),
        # a shield of each rider (701.19c), named after its rider as ``to_action`` names it
        *(A.CreateShield(target="giant", origin=f"{r.value} shield", rider=r) for r in Rider),
        A.CreateShield(target="bears", origin="none shield", creator=1),
    ],
    ids=["destroy", "destroy-cant-be-regenerated"]
    + [f"shield-{r.name.lower()}" for r in Rider]
    + ["shield-by-the-opponent"],
)
def test_a_destroy_and_a_shield_read_back_from_their_parameters_as_themselves(
    action: A.Action,
) -> None:
    """Reading a solver's step back keeps what the engine then does: a destruction that can't
    be regenerated stays one (701.19c), and a created shield keeps its target, rider and
    creator, and its name (a shield answer ``shield:NAME`` and the rider's trigger, "rider
    of NAME", name it), which the record does not keep: a shield read back is named after
    its rider."""
    sc = _scope(1)
    v = P.of_action(BOARD, action, sc)
    assert P.to_action(v, action.kind, BOARD, sc) == action


def test_a_parameter_naming_a_slot_past_the_setup_is_refused_as_a_missing_slot() -> None:
    """A solver's answer may name a card slot the setup it is read against does not have
    (the first slot past its last card): reading it back refuses it with ``ValueError``,
    which is what the solver-chosen states' decoder (``driven.py``) takes as "no engine
    action has these parameters", rather than failing on the missing slot."""
    sc = _scope(1)
    v = P.of_action(BOARD, A.Destroy(targets=("bears",)), sc)
    past = len(BOARD.setup.handles)
    with pytest.raises(ValueError, match=f"card slot {past}, which this setup lacks"):
        P.to_action({**v, "seq0": past}, "destroy", BOARD, sc)


def test_an_umbra_answer_naming_a_slot_past_the_setup_reads_back_as_no_answer() -> None:
    """A 616.1 answer "umbra" names its Aura by card slot; a solver's answer may name a slot
    past the setup the parameters are read against (a state with fewer cards than the
    scope). Read back, that answer names no Aura (``?``, which the engine refuses as it
    refuses any answer it does not know) instead of failing on the missing slot, and the
    other answers of the action are read as before."""
    sc = replace(_scope(1), cards=3)
    sba = A.CheckStateBasedActions()
    v = P.of_action(BOARD, sba, sc)
    past = len(BOARD.setup.handles)
    assert past < sc.cards  # a slot the domain admits (0..cards-1), no card of this setup
    umbra = {"choice0.0.use": int(P.Use.UMBRA), "choice0.0.slot": past}
    got = P.to_action({**v, **umbra}, sba.kind, BOARD, sc)
    assert got == A.CheckStateBasedActions(choices=(A.ReplacementChoice("bears", 0, "?"),))
    for slot, handle in enumerate(BOARD.setup.handles):  # the first slot too
        named = {**umbra, "choice0.0.slot": slot}
        got = P.to_action({**v, **named}, sba.kind, BOARD, sc)
        assert got == A.CheckStateBasedActions(
            choices=(A.ReplacementChoice("bears", 0, f"umbra:{handle}"),)
        )


@pytest.mark.parametrize("combat", [False, True])
def test_a_deal_damage_reads_back_with_its_combat_flag(combat: bool) -> None:
    """Whether a damage event is combat damage is part of the action (``DealDamage.combat``:
    "whenever it is dealt combat damage" triggers read it, 603.2, 510.2): the parameters of
    either kind read back as that same action."""
    sc = _scope(1)
    action = A.DealDamage(
        source="giant",
        shares=(A.DamageShare(amount=2, card="bears"),),
        combat=combat,
    )
    v = P.of_action(BOARD, action, sc)
    assert P.to_action(v, action.kind, BOARD, sc) == action


def test_an_unknown_action_kind_is_refused_by_name() -> None:
    """Reading parameters back for an action kind the encoding does not know is our bug, and
    the error names the kind."""
    sc = _scope(1)
    v = P.of_action(BOARD, A.CheckStateBasedActions(), sc)
    with pytest.raises(ValueError, match="unknown action kind 'no-such-kind'"):
        P.to_action(v, "no-such-kind", BOARD, sc)


def _shield_answer(stack: tuple[StackObject, ...], held: str = "Mending") -> int:
    """The shield mask of a "shield:Mending" answer for the bears, which hold one shield
    named ``held``, at two shield slots, with ``stack`` on the stack."""
    sc = Scope(cards=2, shields=2, stack=1, pending=1, targets=1, max_amount=2)
    bears = BOARD.cards[0]._replace(shields=(Shield(held, 0, Rider.NONE),))
    state = BOARD._replace(cards=(bears, *BOARD.cards[1:]), stack=stack)
    answer = A.ReplacementChoice("bears", 0, "shield:Mending")
    v = P.of_action(state, A.CheckStateBasedActions(choices=(answer,)), sc)
    assert v["choice0.0.use"] == int(P.Use.SHIELD_MASK)
    return sum(1 << j for j in range(sc.shields) if v[f"choice0.0.mask{j}"])


def test_a_shield_answer_counts_a_shield_to_come_only_from_a_resolving_regeneration() -> None:
    """A "shield:NAME" answer (616.1) names the card's shields of that name, and the shield a
    regeneration effect named so is making as it resolves (701.19a: top of the stack,
    targeting the card): that one's slot comes next. Pre-M10 combat damage on the stack
    (510.2, its effect none) or a spell that regenerates nothing makes no shield, so the
    answer names the card's own shield only."""
    mending = StackObject(
        StackKind.SPELL,
        "Mending",
        0,
        Effect(EffectKind.REGENERATE),
        targets=(Target(card=0),),
        target_rule=TargetRule.CREATURE,
    )
    assert _shield_answer(()) == 0b01
    assert _shield_answer((mending,)) == 0b11
    # a shield of another name the bears hold is not the one to come (slice 17: the slots of
    # the shields held were named too, so the answer could use that other shield)
    assert _shield_answer((), held="Troll") == 0b00
    assert _shield_answer((mending,), held="Troll") == 0b10
    combat = StackObject(StackKind.COMBAT_DAMAGE, "combat damage", 0, None)
    assert _shield_answer((combat,)) == 0b01
    pump = mending._replace(effect=Effect(EffectKind.PUMP, power=1, toughness=1))
    assert _shield_answer((pump,)) == 0b01


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


def test_a_setup_smaller_than_the_scope_pins_cards_the_domain_admits() -> None:
    """A board with fewer cards than the scope has slots no card fills; pinning the board's
    cards (``pin_statics``, what a query about those cards assumes) gives those slots values
    the printed cards' domain admits, so the query is about that board and not vacuous: a
    pinned value the domain forbids would make every such query unsatisfiable, each
    invariant "proved" with no state at all (slice 10's ``frame._assign_statics``)."""
    for cards in (1, 2, 3):
        sc = widest(cards)
        statics = Statics.fresh(sc, "s")
        for n in range(cards):
            setup = Setup(
                ("A", "B"), tuple(f"c{i}" for i in range(n)), (_TEMPLATES[0],) * n, (0,) * n
            )
            solver = z3.Solver()
            solver.add(*statics.domain(), *pin_statics(statics, setup))
            assert solver.check() == z3.sat, (cards, n)


# --- every variable of a frame: its values admitted, and each read back ------------------------

# Two cards, two shield slots, a stack of two and one waiting trigger: every kind of variable a
# frame has, small enough to ask the solver about each value of each (``_WINDOW``).
_EVERY = Scope(
    cards=2, shields=2, stack=2, pending=1, targets=1, max_amount=2, max_power=2, max_toughness=2
)
_WINDOW = range(-3, 6)
# The card fields that name a card slot other than the card's own, NONE for none.
_OTHER_CARD = ("attached_to", "blocking", "blocking_also", "sh0.via", "sh1.via")
# The card fields the engine keeps as ``None`` when unset (a model's NONE), never as -1.
_UNSET_IS_NONE = (
    "control_eot",
    "attached_to",
    "blocking",
    "blocking_also",
    "phased_out",
    "eoc_destroy_by",
)


def _expected_domain(key: str, sc: Scope) -> set[int] | None:
    """The values in ``_WINDOW`` that ``Frame.domain`` admits for the integer variable ``key``
    of the game, the players, the cards and their shields, from what the engine's field means
    (None for a stack object's, which the tests above pin): a player is 0 or 1 (NONE where
    there may be none: priority, a temporary controller, the controller of a "destroy it at
    end of combat" trigger, the player a permanent phased out under); a card slot is another
    card's (NONE for none); an enum is one of its ordinals; a count is at least 0; the turn
    at least 1; a life total and the P/T changes until end of turn may be any integer, below
    zero too (107.1b, 613.4c)."""
    window = set(_WINDOW)
    players = {0, 1}
    at_least = lambda low: {v for v in window if v >= low}  # noqa: E731
    enum = lambda e: set(range(len(e))) & window  # noqa: E731
    top = {
        "edition": {ordinal(e) for e in sc.editions},
        "turn": at_least(1),
        "active": players,
        "step": enum(Step),
        "priority": {NONE} | players,
        "decision": enum(Decision),
        "stack_size": set(range(sc.stack + 1)),
        "pending_size": set(range(sc.pending + 1)),
    }
    if key in top:
        return top[key]
    head, _, field = key.partition(".")
    if head[0] == "p" and head[1:].isdigit():
        return window if field == "life" else at_least(0)
    if not (head[0] == "c" and head[1:].isdigit()):
        return None
    me = int(head[1:])
    if field in _OTHER_CARD:
        return {NONE} | set(range(sc.cards)) - {me}
    if field[:2] == "sh" and field[2].isdigit():
        return {"rider": enum(Rider), "creator": players}[field.rpartition(".")[2]]
    if field in ("control_eot", "eoc_destroy_by", "phased_out"):
        return {NONE} | players
    if field in ("order_pos", "order_pos_also"):
        return {NONE} | set(range(sc.cards))
    return {
        "zone": enum(Zone),
        "control": players,
        "power_eot": window,
        "toughness_eot": window,
    }.get(field, at_least(0))


def test_every_frame_variable_admits_exactly_the_values_the_engines_field_can_hold() -> None:
    frame = Frame.fresh(Statics.fresh(_EVERY, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    checked = 0
    for key, var in zip(layout(_EVERY).keys, frame.vars(), strict=True):
        expected = None if z3.is_bool(var) else _expected_domain(key, _EVERY)
        if expected is None:
            continue
        got = {v for v in _WINDOW if solver.check(var == v) == z3.sat}
        assert got == expected, key
        checked += 1
    assert checked > 50, "the frame's fields are no longer named as this test expects"


def test_every_value_a_representable_frame_admits_reads_back_as_itself() -> None:
    """For each variable of a frame and each of its values in ``-1..3`` that the domain and
    ``representable`` admit, a model holding it reads back (``read``) as an engine state whose
    values are the model's again, every variable's, not only the one asked; a reference the
    model leaves unset (NONE) is ``None`` in the state, as the engine keeps it, and a shield
    is named as a resolving "Regenerate" names it (the encoding keeps no origin). The
    solver's models cover most values by the way; each value none has held yet is asked for.
    Besides, an attacker marked ordered with no blocker placed reads back with an empty
    damage assignment order (510.1c, M10), and a graveyard position that holds no card slot
    as a spell there, not as an empty group."""
    frame = Frame.fresh(Statics.fresh(_EVERY, "s"), "f")
    lay = layout(_EVERY)
    keys, fvars = lay.keys, frame.vars()
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain(), *representable(frame))
    # an attacker marked ordered with no blocker placed
    alone = z3.And(frame.cards[0].ordered, *[c.blocking == NONE for c in frame.cards])
    asks: list[tuple[tuple[str, int | bool] | None, z3.BoolRef]] = [(None, alone)]
    for key, var in zip(keys, fvars, strict=True):
        for value in (False, True) if z3.is_bool(var) else range(-1, 4):
            asks.append(((key, value), var == value))
    seen: set[tuple[str, int | bool]] = set()
    models = combat_damage = 0
    for pair, ask in asks:
        if pair in seen or solver.check(ask) != z3.sat:
            continue
        model = solver.model()
        models += 1
        state = read(model, frame, read_statics(model, frame.statics))
        got = {k: _value(model, v) for k, v in zip(keys, fvars, strict=True)}
        back = values(lay.frame, state)
        assert {k: (got[k], back[k]) for k in keys if got[k] != back[k]} == {}, pair
        for card in state.cards:
            for name in _UNSET_IS_NONE:
                assert getattr(card, name) != NONE, (pair, card.slot, name)
            # the encoding keeps no shield's origin: read back, each has the name a resolving
            # "Regenerate" gives by default (A.CreateShield), which a trace then prints
            assert {s.origin for s in card.shields} <= {"regeneration shield"}, pair
        # a stack object's target names a card, a player or a spell, the others None (the
        # engine asks which by ``is not None``, 608.2b); a spell's -1 is no leaked NONE but
        # ``SPELL_GONE``, a countered spell's mark (``frame`` keeps it as ``SPELL_GONE_Z``)
        for obj in (*state.stack, *state.pending):
            for t in obj.targets:
                assert NONE not in (t.card, t.player), (pair, obj)
        # the printed cards read back are named, each its own name, which a trace prints
        names = [t.name for t in state.setup.templates]
        assert all(isinstance(n, str) for n in names), (pair, names)
        assert len(set(names)) == len(names), (pair, names)
        # a graveyard position no card slot holds is a spell's (404.1; the encoding keeps no
        # name), which a trace prints: read back, no position is an empty group
        for player in state.players:
            assert all(player.graveyard), (pair, player.graveyard)
        if pair is None:
            assert (0, ()) in state.combat.orders, state.combat.orders
        # pre-M10 combat damage on the stack (510.2 of 2004-2009) is named as the engine names
        # the object it puts there (``engine.turn``), which a trace prints and a scenario's
        # stack expectation matches
        for obj in state.stack:
            if obj.kind is StackKind.COMBAT_DAMAGE:
                assert obj.name == "combat damage", (pair, obj.name)
                combat_damage += 1
        seen.update(got.items())
    assert models > 100
    assert combat_damage, "no model held combat damage on the stack"


def test_a_phased_out_permanent_is_on_the_battlefield_and_out_of_combat() -> None:
    """A permanent phased out (under either player) is still on the battlefield and has left
    combat (702.26b, 506.4); one phased in may be anywhere, attacking or blocking. The
    values each variable admits alone (above) cannot see that pairing, so each pair is
    asked: a domain that put the phased-in cards under the phased-out cards' constraint
    would leave no state with a creature in combat."""
    frame = Frame.fresh(Statics.fresh(_EVERY, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    c = frame.cards[0]
    zones = set(range(len(Zone)))
    for phased in (NONE, 0, 1):
        solver.push()
        solver.add(c.phased_out == phased)
        got = (
            _admitted(solver, c.zone, -1, len(Zone)),
            _admitted(solver, z3.If(c.attacking, 1, 0), 0, 1),
            _admitted(solver, z3.If(c.blocked, 1, 0), 0, 1),
            _admitted(solver, c.blocking, -2, _EVERY.cards),
            # the second attacker of a creature that can block two (702.21; 509.1a)
            _admitted(solver, c.blocking_also, -2, _EVERY.cards),
        )
        solver.pop()
        others = {NONE, *range(1, _EVERY.cards)}
        if phased == NONE:
            assert got == (zones, {0, 1}, {0, 1}, others, others), got
        else:
            assert got == ({ordinal(Zone.BATTLEFIELD)}, {0}, {0}, {NONE}, {NONE}), (phased, got)


def _representable_read_back(cards: int, pick: Callable[[Frame], list[z3.BoolRef]]) -> GameState:
    """A representable frame at ``cards`` card slots where ``pick`` holds, read back from a
    model: the state must give every frame variable the model's value again, and each card
    its own slot (the engine finds a card's printed characteristics by it)."""
    sc = Scope(cards=cards, shields=1, stack=1, pending=1, targets=1, max_amount=1)
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain(), *representable(frame), *pick(frame))
    assert solver.check() == z3.sat
    model = solver.model()
    state = read(model, frame, read_statics(model, frame.statics))
    got = {k: _value(model, v) for k, v in zip(layout(sc).keys, frame.vars(), strict=True)}
    back = values(layout(sc).frame, state)
    assert {k: (got[k], back[k]) for k in got if got[k] != back[k]} == {}
    assert [c.slot for c in state.cards] == list(range(cards))
    return state


def test_an_unused_target_of_a_stack_object_is_representable_only_as_naming_nothing() -> None:
    """A spell or ability with fewer targets than the scope's slots leaves the rest unused,
    and ``values`` writes each as naming no card, player or spell with object generation 0
    (a generation tells which object a target card is, 400.7; an unused slot names none):
    ``representable`` admits exactly
    those values in an unused slot of a present object on the stack or the waiting list, so
    ``read`` of a solver's state gives back every value. A nonzero generation left free
    there read back as 0: the chosen state and the engine's were two states."""
    sc = Scope(cards=2, shields=1, stack=1, pending=1, targets=2, max_amount=1)
    frame, solver = _framed(sc)
    solver.add(*representable(frame))
    for objs, size in ((frame.stack, frame.stack_size), (frame.pending, frame.pending_size)):
        obj = objs[0]
        solver.push()
        solver.add(size >= 1, obj.n_targets == 1)  # one target: slot 1 unused
        assert _admitted(solver, obj.target_gen[1], -2, 3) == {0}
        for term in (obj.target_card[1], obj.target_player[1], obj.target_spell[1]):
            assert _admitted(solver, term, -4, 3) == {NONE}, term
        assert _admitted(solver, obj.target_gen[0], -2, 3) != {0}  # a used slot's is free
        solver.pop()


def test_a_one_slot_frame_is_representable_and_reads_back_as_itself() -> None:
    """At one card slot (the proofs' default scope) no creature can block another, so an
    attacker's damage assignment order has no one to place: ``representable`` is still
    built there (an empty order, size 0), and a model of it reads back as itself."""
    _representable_read_back(1, lambda frame: [frame.cards[0].attacking])


def test_a_blocker_of_two_attackers_reads_back_in_both_orders() -> None:
    """A creature that can block an additional creature may block two attackers (509.1a,
    702.21), each of which orders it among its blockers (509.2, M10): at three card slots a
    model where one card blocks two others, placed in both orders, reads back as a state
    whose blocker has both attackers (``blocking_also``) and stands in both orders, and
    whose values are the model's again (at two slots there is no second attacker)."""
    state = _representable_read_back(
        3,
        lambda frame: [
            frame.cards[2].blocking_also != NONE,
            frame.cards[2].order_pos != NONE,
            frame.cards[2].order_pos_also != NONE,
        ],
    )
    blocker = state.cards[2]
    attackers = {blocker.blocking, blocker.blocking_also}
    assert attackers == {0, 1}, blocker
    assert {a for a, order in state.combat.orders if 2 in order} == {0, 1}, state.combat


def test_a_card_alone_in_its_owners_graveyard_reads_back() -> None:
    """A card in a graveyard has a place there, its group's number from 1 (the bottom), and a
    card elsewhere has none (0): ``representable`` ties the two, and a model of the first
    group's only card (the first creature to die in a game, 404.2) reads back as itself.
    Asking a place above the first would shut out every graveyard of one group."""
    state = _representable_read_back(
        1,
        lambda frame: [
            frame.cards[0].zone == ordinal(Zone.GRAVEYARD),
            frame.cards[0].gy_pos == 1,
        ],
    )
    graveyard = state.players[state.setup.owners[0]].graveyard
    assert [0 in group for group in graveyard] == [True], graveyard


def test_a_blocker_first_in_both_its_attackers_orders_reads_back() -> None:
    """A creature blocking two attackers that nothing else blocks stands first (position 0)
    in each attacker's damage assignment order (509.2 of 2009-2024, 702.21): the same
    position in two different orders is no collision, so ``representable`` admits the
    model and it reads back as itself. Asking distinct positions of every pair of entries,
    placed or not, would shut each such block out of the solver-chosen states."""
    state = _representable_read_back(
        3,
        lambda frame: [
            frame.cards[0].blocking == NONE,
            frame.cards[1].blocking == NONE,
            frame.cards[2].blocking == 0,
            frame.cards[2].blocking_also == 1,
            frame.cards[2].order_pos == 0,
            frame.cards[2].order_pos_also == 0,
        ],
    )
    assert sorted(state.combat.orders) == [(0, (2,)), (1, (2,))], state.combat


def test_two_blockers_of_one_attacker_read_back_in_its_order() -> None:
    """An attacker blocked by two creatures orders them (509.2 of 2009-2024): positions 0
    and 1 of its damage assignment order, which ``representable`` must admit as distinct
    places of one order. A model pinning the two positions reads back as a state whose
    attacker has both blockers in that order, and whose values are the model's again.
    Asking equal positions of the two would shut every ordered double block out of the
    solver-chosen states."""
    state = _representable_read_back(
        3,
        lambda frame: [
            frame.cards[1].blocking == 0,
            frame.cards[2].blocking == 0,
            frame.cards[1].order_pos == 1,
            frame.cards[2].order_pos == 0,
        ],
    )
    assert dict(state.combat.orders)[0] == (2, 1), state.combat


def test_a_stack_object_without_a_source_reads_back_with_none() -> None:
    """A spell has no source permanent (the frame's NONE): read back, its ``source`` is None,
    not slot -1, which the engine would take for the last card slot (a damage source's
    keywords and controller are read from it, 120.3, 702.15b); and its name is its kind's,
    the name a counterexample's trace shows for it."""
    state = _representable_read_back(
        1,
        lambda frame: [
            frame.stack_size == 1,
            frame.stack[0].kind == ordinal(StackKind.SPELL),
            frame.stack[0].source == NONE,
        ],
    )
    top = state.stack[0]
    assert (top.source, top.name) == (None, StackKind.SPELL.value), top


@pytest.mark.parametrize("active", [0, 1])
def test_combat_damage_to_the_player_reads_back_as_a_hit_on_the_defending_player(
    active: int,
) -> None:
    """Combat damage on the stack (before M10, 510.2 of that era) dealt to the defending
    player is recipient ``n`` of a hit: read back, it is a hit on the non-active player
    (506.2), not a hit naming neither a card nor a player, which the frame's values cannot
    tell apart from it but the engine would deal to no one; in either player's turn (the
    other player, not a player past the last)."""
    state = _representable_read_back(
        1,
        lambda frame: [
            frame.active == active,
            frame.stack_size == 1,
            frame.stack[0].kind == ordinal(StackKind.COMBAT_DAMAGE),
            frame.stack[0].hits[0][1] > 0,
        ],
    )
    hits = [(s, hit.card, hit.player) for s, hit in state.stack[0].combat_hits]
    assert state.active == active
    assert hits == [(0, None, 1 - active)], state.stack[0]


def test_a_shield_no_attachment_made_reads_back_with_no_via() -> None:
    """A shield made by a creature's own ability or a spell has no Aura or Equipment behind
    it (``Shield.via`` None, the frame's NONE): read back, its ``via`` is None, not slot -1,
    which a conformance vector's start state would write as the last card's handle (the
    attachment that made it, 701.19a)."""
    state = _representable_read_back(
        1,
        lambda frame: [frame.cards[0].shields[0].present, frame.cards[0].shields[0].via == NONE],
    )
    assert [s.via for s in state.cards[0].shields] == [None], state.cards[0].shields


def test_a_blocker_its_attacker_has_not_ordered_yet_reads_back() -> None:
    """Between the declaration of blockers and the attacker's ordering of them (509.2 of
    2009-2024; before M10 and from FDN on there is no order at all), a blocker stands in no
    order yet: ``representable`` admits such a model (it places a blocker in an order only
    through a position other than NONE), and it reads back as a state where the card blocks
    and no order holds it. Shutting these states out would leave every declared block before
    its ordering out of the solver-chosen states."""
    state = _representable_read_back(
        2,
        lambda frame: [frame.cards[1].blocking == 0, frame.cards[1].order_pos == NONE],
    )
    assert state.cards[1].blocking == 0, state.cards[1]
    assert all(1 not in order for _, order in state.combat.orders), state.combat


def test_a_frame_where_no_player_has_priority_reads_back_with_none() -> None:
    """During a turn-based action and before a step's first priority, nobody holds priority
    (117.1, 117.3a): the frame's NONE. Read back, the state's ``priority`` is None, not -1,
    which the engine would not take for "nobody" (and ``values`` would write back as NONE
    again, so the read-back comparison alone cannot tell)."""
    state = _representable_read_back(1, lambda frame: [frame.priority == NONE])
    assert state.priority is None, state.priority


def test_no_two_blockers_share_a_place_in_one_attackers_order() -> None:
    """An attacker's damage assignment order (509.2 of 2009-2024) gives each of its blockers
    its own place: ``representable`` refuses every pair of placements in one order at the
    same position, whichever way each blocker blocks it (its first attacker or, able to
    block an additional creature, 702.21, its second), and admits the same pair at two
    positions. At four slots a creature can block the attacker as its second while another
    blocks it as its first (a third card is the first's other attacker)."""
    sc = Scope(cards=4, shields=1, stack=1, pending=1, targets=1, max_amount=1)
    frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
    space = [*frame.domain(), *frame.statics.domain(), *representable(frame)]
    places = [
        (b, blk, pos)
        for b in (1, 2, 3)
        for blk, pos in (
            (frame.cards[b].blocking, frame.cards[b].order_pos),
            (frame.cards[b].blocking_also, frame.cards[b].order_pos_also),
        )
    ]
    for (b1, blk1, pos1), (b2, blk2, pos2) in combinations(places, 2):
        if b1 == b2:
            continue  # one creature blocks one attacker once (509.1a)
        placed = [blk1 == 0, blk2 == 0, pos1 != NONE, pos2 != NONE]
        for same, expected in ((True, z3.unsat), (False, z3.sat)):
            solver = z3.Solver()
            solver.add(*space, *placed, (pos1 == pos2) if same else (pos1 != pos2))
            assert solver.check() == expected, (b1, blk1, b2, blk2, same)


def test_a_permanents_shields_admit_exactly_the_patterns_that_fill_slots_from_the_first() -> None:
    """A permanent's regeneration shields (701.15a) are a list in the engine, in the order
    they were made: a new one goes after the last and one taken away closes its gap, so the
    present ones always come first: at three slots the domain admits exactly no shield,
    the first, the first two and all three, and refuses every pattern with a gap or a
    shield in a later slot alone. A domain that refused one shield of several slots would
    shut every board with a single shield out of the proofs at those scopes."""
    frame, solver = _framed(Scope(cards=1, shields=3, stack=1, pending=1, targets=1, max_amount=1))
    present = [s.present for s in frame.cards[0].shields]
    admitted = {
        pattern
        for pattern in product((False, True), repeat=len(present))
        if solver.check(*(p if on else z3.Not(p) for p, on in zip(present, pattern, strict=True)))
        == z3.sat
    }
    assert admitted == {(False,) * 3, (True, False, False), (True, True, False), (True,) * 3}


def test_the_domain_admits_a_keyword_removed_and_refuses_it_granted_and_removed_at_once() -> None:
    """An effect may remove a keyword from a card until end of turn (613.1f, layer 6), and
    of a grant and a removal of one keyword the later wins (613.7), so a card holds at most
    one of the two: the domain admits each keyword removed and not granted and granted and
    not removed, and refuses it granted and removed at once. Refusing every removal (or
    every grant) would shut each state where a card lost (gained) a keyword out of the
    proofs and the solver-chosen states."""
    frame, solver = _framed(Scope(cards=1, shields=1, stack=1, pending=1, targets=1, max_amount=1))
    card = frame.cards[0]
    for k, (granted, removed) in enumerate(zip(card.kw_granted, card.kw_removed, strict=True)):
        for asked, expected in (
            ((removed, z3.Not(granted)), z3.sat),
            ((granted, z3.Not(removed)), z3.sat),
            ((granted, removed), z3.unsat),
        ):
            assert solver.check(*asked) == expected, (k, asked, expected)


# --- every printed card the statics' domain admits ----------------------------------------------


def test_every_printed_number_admits_exactly_the_values_a_card_can_print() -> None:
    """Each integer of a card's printed fields (``Statics``) admits, alone, exactly what a
    printed card may hold at the scope: either player as its owner (108.3); power and
    toughness, an animation's too, from 0 to the scope's maximum; a bonus, a count of
    counters it enters with, and each trigger's amount from 0 to the scope's amount; an enum
    one of its members; the trigger kind 0 to 2. A domain that lost a value (cards of the
    second player, say) would shut those cards out of every proof over any printed card."""
    sc = Scope(cards=1, max_amount=2, max_power=3, max_toughness=3)
    statics = Statics.fresh(sc, "s")
    keys = [str(k) for k in Statics.fresh(sc, "s", names=True).vars()]
    solver = z3.Solver()
    solver.add(*statics.domain())
    upto = lambda top: set(range(top + 1))  # noqa: E731
    enum = lambda e: set(range(len(e)))  # noqa: E731
    expected = {
        "owner": {0, 1},
        "power": upto(sc.max_power),
        "toughness": upto(sc.max_toughness),
        "anim_power": upto(sc.max_power),
        "anim_toughness": upto(sc.max_toughness),
        "attachment": enum(Attachment),
        "regen_rider": enum(Rider),
        "dies_watch": enum(DiesWatch),
        "trigger": {0, 1, 2},
    }
    checked = set()
    for key, var in zip(keys, statics.vars(), strict=True):
        if z3.is_bool(var):
            continue
        field = key.partition(".")[2]
        want = expected.get(field, upto(sc.max_amount))
        got = {v for v in range(-2, 6) if solver.check(var == v) == z3.sat}
        assert got == want, field
        checked.add(field)
    assert set(expected) <= checked and len(checked) >= 15, checked


def test_a_self_animating_permanent_is_admitted_as_a_land_an_artifact_or_both() -> None:
    """A permanent that makes itself a creature (Mishra's Factory, a land; the same ability on
    an artifact) fits the encoding when it is a land, an artifact or both
    (``template_fits``), and ``read_statics`` reads one that is neither as a land. The
    domain admits each of the three, value by value, and refuses the fourth: one that left
    out the non-land artifact would shut every such card out of the proofs over any printed
    card, though the engine runs it."""
    statics = Statics.fresh(_scope(1), "s")
    solver = z3.Solver()
    solver.add(*statics.domain())
    card = statics.cards[0]
    admitted = {
        (land, artifact)
        for land, artifact in product((False, True), repeat=2)
        if solver.check(card.animate_ability, card.land == land, card.artifact == artifact)
        == z3.sat
    }
    assert admitted == {(True, False), (False, True), (True, True)}


def test_a_scope_of_one_edition_admits_that_edition_only() -> None:
    """``--scope editions=...`` narrows every frame to the editions it names: at a scope of
    one edition (or two) the frame's edition admits exactly those, so a proof asked about
    FDN ranges over FDN's states and no others."""
    editions = list(Edition)
    for chosen in [(e,) for e in editions] + [tuple(editions[:2])]:
        sc = Scope(cards=1, editions=chosen)
        frame = Frame.fresh(Statics.fresh(sc, "s"), "f")
        solver = z3.Solver()
        solver.add(*frame.domain())
        got = {e for e in editions if solver.check(frame.edition == ordinal(e)) == z3.sat}
        assert got == set(chosen), chosen


def test_every_pair_of_printed_values_the_domain_admits_reads_back_as_a_card_that_fits() -> None:
    """``Statics.domain`` admits exactly the printed cards ``template_fits`` accepts: for every
    pair of values of two of a card's variables that the domain admits together, a model
    holding them reads back (``read_statics``) as a card ``template_fits`` accepts and whose
    encoded fields are the model's again. Pairs, since the domain is mostly implications
    between two fields (an Aura is no creature, only a creature has a dies trigger, only an
    Aura or Equipment grants an ability); each pair no model has held yet is asked for."""
    sc = Scope(cards=1, max_amount=2, max_power=2, max_toughness=2)
    statics = Statics.fresh(sc, "s")
    keys = Statics.fresh(sc, "s", names=True).vars()
    svars = statics.vars()
    solver = z3.Solver()
    solver.add(*statics.domain())
    admitted = [
        (key, var, value)
        for key, var in zip(keys, svars, strict=True)
        for value in ((False, True) if z3.is_bool(var) else range(-1, 4))
        if solver.check(var == value) == z3.sat
    ]
    seen: set[tuple[Any, ...]] = set()
    models = 0
    for (k1, x1, v1), (k2, x2, v2) in combinations(admitted, 2):
        if k1 == k2 or (k1, v1, k2, v2) in seen or solver.check(x1 == v1, x2 == v2) != z3.sat:
            continue
        model = solver.model()
        models += 1
        setup = read_statics(model, statics)
        got = {k: _value(model, v) for k, v in zip(keys, svars, strict=True)}
        assert template_fits(setup.templates[0]) is None, (k1, v1, k2, v2)
        back = statics_values(Statics.fresh(sc, "s", names=True), setup)
        assert {k: (got[k], back[k]) for k in keys if got[k] != back[k]} == {}, (k1, v1, k2, v2)
        seen.update((a, b, c, d) for (a, b), (c, d) in permutations(got.items(), 2))
    assert models > 50


@pytest.mark.long
def test_every_state_the_scenarios_pass_through_is_in_the_domain_and_representable() -> None:
    """Every state a scenario file starts from or reaches (about 2,600 distinct ones) meets
    the frame's and the printed cards' domains and ``representable`` at the widest scope of
    its board: a constraint that shuts out a state the engine really reaches (slice 8's
    ``representable_8`` shut out every declared block not yet ordered, 509.2 of 2009-2024)
    would leave it out of every solver-chosen state and every proof. A minute or two, so
    ``long``; the targeted read-back tests above are CI's."""
    states: list[tuple[str, GameState]] = []
    for path in scenario_files([ROOT / "tests" / "scenarios"]):
        scenario = load_scenario(path)
        state = scenario.start
        states.append((path.name, state))
        for event in run_scenario(scenario).steps:
            for action in event.actions:
                with suppress(EngineError):  # refused: the state is unchanged
                    state = step(state, action, CORRECT).state
                    states.append((path.name, state))
    built: dict[int, tuple[Any, z3.BoolRef, list[Any], list[Any], list[str]]] = {}
    seen: set[tuple[Any, ...]] = set()
    outside: list[str] = []
    for name, state in states:
        if any(template_fits(t) is not None for t in state.setup.templates):
            continue  # a card the encoding does not hold (Troll Kit's three abilities): no frame
        n = len(state.cards)
        if n not in built:
            sc = widest(n)
            statics = Statics.fresh(sc, "s")
            frame = Frame.fresh(statics, "f")
            conj = z3.And(*frame.domain(), *statics.domain(), *representable(frame))
            skeys = [str(k) for k in Statics.fresh(sc, "s", names=True).vars()]
            built[n] = (layout(sc), conj, frame.vars(), statics.vars(), skeys)
        lay, conj, fvars, svars, skeys = built[n]
        v = values(lay.frame, state)
        sv = statics_values(lay.statics, state.setup)
        key = (n, tuple(v.values()), tuple(sv.values()))
        if key in seen:
            continue
        seen.add(key)
        pairs = [(var, _numeral(var, v[k])) for k, var in zip(lay.keys, fvars, strict=True)]
        pairs += [(var, _numeral(var, sv[k])) for k, var in zip(skeys, svars, strict=True)]
        if not z3.is_true(z3.simplify(z3.substitute(conj, *pairs))):
            outside.append(name)
    assert len(seen) > 2000, len(seen)
    assert outside == [], sorted(set(outside))


def _numeral(var: Any, value: int | bool) -> Any:
    return z3.BoolVal(bool(value)) if z3.is_bool(var) else z3.IntVal(int(value))


# --- every action of the scenarios, read back from its parameters ----------------------------


@pytest.fixture(scope="module")
def scenario_actions() -> list[tuple[GameState, A.Action]]:
    """Each action the scenario files play, with the state it is played in (the refused ones
    too), where the widest scope of its board holds it: 1,900 actions of 22 kinds."""
    out = []
    for path in scenario_files([ROOT / "tests" / "scenarios"]):
        scenario = load_scenario(path)
        state = scenario.start
        for event in run_scenario(scenario).steps:
            for action in event.actions:
                out.append((state, action))
                with suppress(EngineError):  # refused: the state is unchanged
                    state = step(state, action, CORRECT).state
    return out


def _encoded(state: GameState, action: A.Action, sc: Scope) -> dict[str, Any] | None:
    """``action``'s parameters in ``state``, or None where the scope cannot hold it or its
    block is malformed (kept only as a flag: the engine refuses it, 509.1a)."""
    try:
        v = P.of_action(state, action, sc)
    except OutOfScope:
        return None
    return None if v.get("malformed") else v


def test_every_scenario_action_reads_back_from_its_parameters_as_itself(
    scenario_actions: list[tuple[GameState, A.Action]],
) -> None:
    """``params.to_action`` is the inverse of ``of_action`` on every action the scenario files
    play: every parameter ``of_action`` writes is one of the layout's (``params.names``),
    which the relation reads, and the action read back from its parameters has the same
    parameters (its effect, its targets, its shares, its replacement choices, "shield:NAME"
    ones included, whose mask counts a shield the resolving regeneration effect makes, 616.1).
    A malformed block is kept only as a flag (the engine refuses it, 509.1a), so it is left
    out."""
    kinds = set()
    for state, action in scenario_actions:
        sc = widest(len(state.setup.handles))
        v = _encoded(state, action, sc)
        if v is None:
            continue
        # every parameter written is one the relation reads (a key the layout lacks would be
        # ignored by it: the relation would see the parameter's unused value instead)
        assert set(v) == set(P.names(sc).vars()), action
        back = P.to_action(v, action.kind, state, sc)
        assert P.of_action(state, back, sc) == v, (action, back)
        kinds.add(action.kind)
    assert len(kinds) >= 20, kinds


def test_damage_from_no_card_reads_back_from_the_effect() -> None:
    """Damage an effect deals with no card as its source (a rules action's "deal 2 damage",
    120.3) has parameter ``source`` NONE; read back from the parameters it names
    ``"effect"``, the source a written scenario and a trace show, and not another name."""
    sc = widest(len(BOARD.setup.handles))
    action = A.DealDamage(source="effect", shares=(A.DamageShare(2, card="giant"),))
    v = P.of_action(BOARD, action, sc)
    assert v["source"] == NONE
    back = P.to_action(v, action.kind, BOARD, sc)
    assert isinstance(back, A.DealDamage) and back.source == "effect", back


@pytest.mark.parametrize(
    "action",
    [
        A.DealDamage(source="bears", shares=(A.DamageShare(1, card="giant", player=1),)),
        A.AssignCombatDamage(
            player=0,
            divisions=(
                A.Division("bears", (("player", 2),)),
                A.Division("bears", (("player", 2),)),
            ),
        ),
    ],
    ids=["share-naming-a-card-and-a-player", "two-divisions-of-one-attacker"],
)
def test_a_malformed_action_raises_the_flag_the_relation_reads(action: A.Action) -> None:
    """An action the engine refuses for its form alone (a damage share naming a card and a
    player, 120.3; an attacker's damage divided twice, 510.1) is kept in the parameters only
    as the ``malformed`` flag, which the relation requires to be off: the flag must be one
    of the layout's parameters and read back set, and the relation refuses the action as
    the engine does. A flag the layout lacks would be ignored, and the relation would take
    the action with its extra part dropped."""
    sc = widest(len(BOARD.setup.handles))
    v = P.of_action(BOARD, action, sc)
    assert set(v) == set(P.names(sc).vars()), sorted(set(v) ^ set(P.names(sc).vars()))
    assert P.from_values(sc, v).malformed is True
    with pytest.raises(EngineError):
        step(BOARD, action, CORRECT)
    assert not evaluate_params(prepare(BOARD, sc), v, action.kind, CORRECT).enabled


def test_every_action_kind_reads_back_with_its_616_1_answers(
    scenario_actions: list[tuple[GameState, A.Action]],
) -> None:
    """Any action may carry 616.1 answers, not only those that destroy: the state-based
    actions performed before a player next gets priority (117.5, 704.3) may destroy a
    permanent that several replacement effects would save, whatever the action was, and in a
    state the solver chooses they may be pending before a cast or a declaration of blockers.
    So reading a model back as an action keeps its answers whatever its kind: here one
    scenario action of each kind, given an answer for its first card by each player."""
    kinds = set()
    for state, action in scenario_actions:
        if action.kind in kinds:
            continue
        sc = widest(len(state.setup.handles))
        first = state.setup.handles[0]
        answers = (A.ReplacementChoice(first, 0, "static"), A.ReplacementChoice(first, 1, "shield"))
        v = _encoded(state, replace(action, choices=answers), sc)
        if v is None:
            continue
        back = P.to_action(v, action.kind, state, sc)
        assert back.choices == answers, (action.kind, back)
        assert P.of_action(state, back, sc) == v, (action.kind, back)
        kinds.add(action.kind)
    assert len(kinds) >= 20, kinds


def _expected_parameter(key: str, sc: Scope) -> set[int]:
    """The values in ``_PWINDOW`` that ``params.domain`` admits for the integer parameter
    ``key``, from what the action's field means: a card slot (NONE for none where an action
    may name none), a player (NONE likewise), an amount ``0..max_amount``, a P/T change or an
    effect's amount ``-max..max``, an enum's ordinals, a damage division's recipient (a card
    slot, or ``cards`` for the defending player, 510.1c), a shield-mask answer's ``Use``."""
    cards, players = set(range(sc.cards)), set(range(sc.players))
    m = sc.max_amount
    enum = lambda e: set(range(len(e))) & set(_PWINDOW)  # noqa: E731
    if key.startswith("tgt"):
        field = "tgt_" + key.rpartition(".")[2]
    elif key.startswith("choice"):
        field = key.rpartition(".")[2]
    else:
        field = key.rstrip("0123456789")
    if key.startswith("div") and ".to" in key:
        return {NONE, *cards, sc.cards}
    if key.startswith("div") and ".amount" in key:
        return set(range(m + 1))
    table: dict[str, set[int]] = {
        "kind": set(range(len(P.ACTION_KINDS))),
        "player": players,
        "target": {NONE, *cards},
        "source": {NONE, *cards},
        "seq": {NONE, *cards},
        "blocks": {NONE, *cards},
        "blocks_also": {NONE, *cards},
        "tgt_card": {NONE, *cards},
        "tgt_player": {NONE, *players},
        "creator": {NONE, *players},
        "under": {NONE, *players},
        "dmg_controller": {NONE, *players},
        "rider": enum(Rider),
        "eff_rider": enum(Rider),
        "amount": set(range(m + 1)),
        "share_amount": set(range(m + 1)),
        "eff_draw": set(range(m + 1)),
        "counter": enum(CounterKind),
        "eff_counter": enum(CounterKind),
        "power": set(range(-m, m + 1)),
        "toughness": set(range(-m, m + 1)),
        "eff_amount": set(range(-m, m + 1)),
        "eff_power": set(range(-m, m + 1)),
        "eff_toughness": set(range(-m, m + 1)),
        "keyword": enum(Keyword),
        "ability": {0, 1},
        "eff_kind": enum(EffectKind),
        "cast_rule": enum(TargetRule),
        "n_targets": set(range(sc.targets + 1)),
        "use": set(range(int(P.Use.REMOVE_DAMAGE) + 1)),
        "slot": cards,
        "tgt_spell": {NONE, *range(sc.stack)},
    }
    return table[field] & set(_PWINDOW)


# past the largest enumeration a parameter holds (EffectKind's), so a domain admitting a value
# beyond its enumeration is seen (slice 11's ``params.domain``)
_PWINDOW = range(-4, len(EffectKind) + 3)


def _parameters() -> tuple[P.Params, z3.Solver]:
    """Fresh parameters at ``_EVERY`` and a solver holding their domain."""
    p = P.fresh(_EVERY, "x")
    solver = z3.Solver()
    solver.add(*P.domain(p, _EVERY))
    return p, solver


def test_every_parameter_admits_exactly_the_values_its_actions_field_can_hold() -> None:
    p, solver = _parameters()
    checked = 0
    for key, var in zip(P.names(_EVERY).vars(), p.vars(), strict=True):
        if z3.is_bool(var):
            continue
        got = {v for v in _PWINDOW if solver.check(var == v) == z3.sat}
        assert got == _expected_parameter(key, _EVERY), key
        checked += 1
    assert checked > 30


def test_a_card_sequence_admits_none_only_after_its_cards() -> None:
    """A sequence parameter (the attackers declared, the permanents destroyed together, a
    damage assignment order: ``seq0..``) holds the cards it names, then ``NONE`` to its end,
    which is all ``of_action`` writes; a gap (``NONE`` before a card) would be a second
    encoding of the action it reads back as, and the relation reads some sequences by
    position. Likewise a second block by a creature (``blocks_also``, 509.1a with a card that
    may block two) only beside its first. Each vector of ``NONE`` and card slots, asked."""
    p, solver = _parameters()
    values = [NONE, *range(_EVERY.cards)]

    def admitted(variables: tuple[Any, ...]) -> set[tuple[int, ...]]:
        return {
            vec
            for vec in product(values, repeat=len(variables))
            if solver.check(*[x == c for x, c in zip(variables, vec, strict=True)]) == z3.sat
        }

    def prefix(vec: tuple[int, ...]) -> bool:
        return all(b == NONE for a, b in pairwise(vec) if a == NONE)

    assert len(p.seq) >= 2
    assert admitted(tuple(p.seq)) == {v for v in product(values, repeat=len(p.seq)) if prefix(v)}
    for first, also in zip(p.blocks, p.blocks_also, strict=True):
        assert admitted((first, also)) == {
            (a, b) for a in values for b in values if b == NONE or a != NONE
        }


def test_an_umbra_answer_may_name_every_card_slot_and_another_answer_none() -> None:
    """A replacement choice's ``slot`` is the umbra-armor Aura the answer picks (702.89a,
    616.1): any card slot under ``Use.UMBRA``, 0 under every other answer. The domain's
    values taken one parameter at a time (above) cannot see that pairing."""
    p, solver = _parameters()
    for i in range(_EVERY.cards):
        for q in range(_EVERY.players):
            use, slot = p.choice_use[i][q], p.choice_slot[i][q]
            solver.push()
            solver.add(use == int(P.Use.UMBRA))
            assert _admitted(solver, slot, -2, _EVERY.cards + 1) == set(range(_EVERY.cards))
            solver.pop()
            solver.push()
            solver.add(use != int(P.Use.UMBRA))
            assert _admitted(solver, slot, -2, _EVERY.cards + 1) == {0}
            solver.pop()


def test_a_shield_answer_names_exactly_one_shield_slot_and_another_answer_none() -> None:
    """A ``shield#N`` answer (616.1) names one shield: its mask has exactly one bit under
    ``Use.SHIELD_MASK`` and none under every other answer, so reading a model back never
    meets an empty or a double mask (``params._choices_of``). Each mask, asked."""
    p, solver = _parameters()
    for i in range(_EVERY.cards):
        for q in range(_EVERY.players):
            use, mask = p.choice_use[i][q], p.choice_mask[i][q]
            for used in P.Use:
                got = {
                    bits
                    for bits in product((False, True), repeat=len(mask))
                    if solver.check(
                        use == int(used), *[b == x for b, x in zip(mask, bits, strict=True)]
                    )
                    == z3.sat
                }
                if int(used) > int(P.Use.REMOVE_DAMAGE):  # INVALID: no model answers it
                    assert got == set(), used
                elif used is P.Use.SHIELD_MASK:
                    assert got == {
                        b for b in product((False, True), repeat=len(mask)) if sum(b) == 1
                    }
                else:
                    assert got == {(False,) * len(mask)}, used


def test_a_shield_answer_by_number_masks_that_shield_only() -> None:
    """``shield#N`` (616.1) names the N-th shield made for the permanent, counted from 1: its
    mask has bit N-1 only, the first shield's too (``params._use``; the walk answers by number
    only where shields differ, so slice 7's screen never wrote ``shield#1``'s mask)."""
    shield = Shield(origin="Regenerate", creator=1, rider=Rider.NONE)
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1, shields=(shield, shield))
    state = make_state(("A", "B"), [troll])
    sc = widest(len(state.setup.handles))
    for n in range(1, sc.shields + 1):
        answer = A.ReplacementChoice("troll", 1, f"shield#{n}")
        v = P.of_action(state, A.PassPriority(player=0, choices=(answer,)), sc)
        assert v["choice0.1.use"] == int(P.Use.SHIELD_MASK), n
        mask = [v[f"choice0.1.mask{j}"] for j in range(sc.shields)]
        assert mask == [j == n - 1 for j in range(sc.shields)], n


def test_an_umbra_answer_naming_a_handle_with_digits_stays_an_umbra_answer() -> None:
    """616.1: an answer "umbra:HANDLE" names the umbra-armor Aura by its handle, whatever the
    handle holds: Eland Umbra named ``u1`` is read as that Aura's slot under ``Use.UMBRA``, not
    as a shield number (``params._use``, slice 17: ``shield#`` asked with ``or`` made any
    answer whose eighth character on is digits a ``shield#N`` answer); an answer that is no
    known form is ``Use.INVALID``, which the engine refuses as well."""
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1)
    umbra = CardSpec("u1", PERMANENT_CARDS["Eland Umbra"], 1, attached_to="troll")
    state = make_state(("A", "B"), [troll, umbra])
    sc = widest(len(state.setup.handles))
    for use, want, slot in (
        ("umbra:u1", P.Use.UMBRA, 1),
        ("shieldX1", P.Use.INVALID, 0),
        ("shield#x", P.Use.INVALID, 0),
    ):
        answer = A.ReplacementChoice("troll", 1, use)
        v = P.of_action(state, A.PassPriority(player=0, choices=(answer,)), sc)
        assert v["choice0.1.use"] == int(want), use
        assert v["choice0.1.slot"] == slot, use
        assert not any(v[f"choice0.1.mask{j}"] for j in range(sc.shields)), use


def _troll_with_two_shields() -> tuple[GameState, Scope]:
    """B's Horned Troll with two plain shields B made, and the widest scope of that board."""
    shield = Shield(origin="Regenerate", creator=1, rider=Rider.NONE)
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1, shields=(shield, shield))
    state = make_state(("A", "B"), [troll])
    return state, widest(len(state.setup.handles))


def test_an_answer_by_a_player_who_does_not_exist_leaves_the_next_answer_read() -> None:
    """616.1: the engine looks only at the answers of players in the game, and at every one
    of them: an answer by player 5 in a two-player game, listed first, is passed over and
    B's answer after it is still the one read (``params._choices``, slice 9: a ``break``
    there dropped B's answer, so the relation asked for a choice B had made)."""
    state, sc = _troll_with_two_shields()
    answers = (
        A.ReplacementChoice("troll", 5, "shield#1"),
        A.ReplacementChoice("troll", 1, "shield#2"),
    )
    v = P.of_action(state, A.PassPriority(player=0, choices=answers), sc)
    assert v["choice0.1.use"] == int(P.Use.SHIELD_MASK)
    assert [v[f"choice0.1.mask{j}"] for j in range(sc.shields)] == [
        j == 1 for j in range(sc.shields)
    ]


def test_a_second_answer_by_the_same_player_leaves_the_next_players_answer_read() -> None:
    """616.1: the engine reads the first answer a player gives for a permanent
    (``engine.destruction``: the first matching answer); a second answer by that player is
    passed over, and A's answer listed after both is still read (``params._choices``,
    slice 11: a ``break`` there dropped A's answer, so the relation asked for a choice A had
    made)."""
    state, sc = _troll_with_two_shields()
    answers = (
        A.ReplacementChoice("troll", 1, "shield#1"),
        A.ReplacementChoice("troll", 1, "shield#2"),
        A.ReplacementChoice("troll", 0, "shield#2"),
    )
    v = P.of_action(state, A.PassPriority(player=0, choices=answers), sc)
    for by, first in ((1, 0), (0, 1)):  # B's first answer (shield#1), then A's (shield#2)
        assert v[f"choice0.{by}.use"] == int(P.Use.SHIELD_MASK), by
        assert [v[f"choice0.{by}.mask{j}"] for j in range(sc.shields)] == [
            j == first for j in range(sc.shields)
        ], by
        assert [v[f"choice0.{by}.mask{j}"] for j in range(sc.shields)] == [
            j == first for j in range(sc.shields)
        ], by


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


def test_damage_shares_naming_a_card_twice_are_out_of_scope_by_their_reason() -> None:
    """120.3: the parameters hold one share per card slot, so damage naming the same card in
    two shares (in slot order otherwise) is not written down: the second share would
    overwrite the first, and the relation would be asked about other damage than the
    engine's (slice 18: the check ``<`` in place of ``<=`` let it through)."""
    action = A.DealDamage(
        source="effect", shares=(A.DamageShare(1, card="giant"), A.DamageShare(2, card="giant"))
    )
    result = check_agreement(BOARD, action, CORRECT, widest(2))
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == "damage shares to cards must name each card once, in slot order"


def test_damage_shares_naming_a_player_twice_are_out_of_scope_by_their_reason() -> None:
    """120.3: the parameters hold one share per player as per card slot, so damage naming the
    same player in two shares is not written down, and the reason says so (slice 7)."""
    action = A.DealDamage(
        source="effect", shares=(A.DamageShare(1, player=1), A.DamageShare(2, player=1))
    )
    result = check_agreement(BOARD, action, CORRECT, widest(2))
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == "a damage share names a player twice"


def test_a_division_with_an_entry_per_recipient_reads_back_and_one_more_is_out_of_scope() -> None:
    """510.1c: an attacker's division names its recipients with amounts, and the engine drops
    an entry of 0 (``engine.turn.assign_combat_damage``). The parameters hold one entry per
    card slot and one for the defending player: a division of exactly that many entries (one
    of them 0) is written down entry by entry, and only one with more is out of scope
    (``params._fill``, slice 12: ``>=`` there refused a division that fits)."""
    sc = _scope(1)  # two card slots: three entries per division
    shares = (("bears", 2), ("player", 1), ("giant", 0))
    action = A.AssignCombatDamage(player=0, divisions=(A.Division("giant", shares),))
    v = P.of_action(BOARD, action, sc)
    assert v["div1"] is True
    assert [v[f"div1.to{k}"] for k in range(3)] == [0, 2, 1]
    assert [v[f"div1.amount{k}"] for k in range(3)] == [2, 1, 0]
    wider = A.AssignCombatDamage(
        player=0, divisions=(A.Division("giant", (*shares, ("bears", 0))),)
    )
    with pytest.raises(OutOfScope) as refused:
        P.of_action(BOARD, wider, sc)
    # the reason word for word, as the out-of-scope result shows it (slice 16: a changed
    # message still matched a search for its middle)
    assert str(refused.value) == "a damage division with more entries than recipients"


def test_a_cast_with_more_targets_than_the_scope_is_out_of_scope_by_its_reason() -> None:
    """601.2c: a spell is cast with its targets chosen, possibly several; the parameters hold
    ``scope.targets`` of them, so a cast of Shock naming two targets is not written down at
    a scope of one target, and the reason, word for word, says how many did not fit where
    (``params._cast``, slice 17: the reason dropped to None); one target still fits."""
    sc = _scope(1)  # one target per object
    one = SHOCK.cast(0, (A.TargetChoice(card="bears"),))
    assert P.of_action(BOARD, one, sc)["n_targets"] == 1
    two = SHOCK.cast(0, (A.TargetChoice(card="bears"), A.TargetChoice(player=1)))
    with pytest.raises(OutOfScope) as refused:
        P.of_action(BOARD, two, sc)
    assert str(refused.value) == "2 targets do not fit a scope of 1"


def test_a_spell_with_more_targets_than_the_scope_is_out_of_scope_by_its_reason() -> None:
    """601.2c: a spell may have several targets; a frame's stack object has ``scope.targets``
    target slots, so Murder on two targets is not written down at a scope of one, and the
    reason says so (slice 9's not-reached ``frame._put_stack``)."""
    path = (
        Path(__file__).resolve().parents[1]
        / "scenarios"
        / "destroy"
        / "effect-targets-at-once.yaml"
    )
    scenario = load_scenario(path)
    cast = run_scenario(scenario).steps[0].actions[0]
    state = step(scenario.start, cast, CORRECT).state
    assert len(state.stack) == 1 and len(state.stack[0].targets) == 2
    scope = replace(widest(len(state.setup.handles)), targets=1)
    result = check_agreement(state, A.PassPriority(player=0), CORRECT, scope)
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.reason == "Murder has 2 targets; the scope allows 1"


def test_a_cast_onto_a_full_stack_is_out_of_scope_by_its_guard() -> None:
    """A spell cast onto a stack that already fills the scope's slots (601.2a: it is put on
    top) has no slot in the successor frame: the relation's ``scope:stack`` guard refuses it,
    and the agreement sets the point aside as out of scope by that guard's label, not as an
    action the relation refuses and the engine accepts (slice 13's ``SymWork.require``)."""
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1)
    board = make_state(("A", "B"), [bears])
    shock = SPELLS["Shock"]
    state = step(board, shock.cast(0, (A.TargetChoice(card="bears"),))).state
    action = shock.cast(0, (A.TargetChoice(card="bears"),))
    step(state, action, CORRECT)  # the engine accepts it
    scope = replace(widest(len(state.setup.handles)), stack=1)
    result = check_agreement(state, action, CORRECT, scope)
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.guard == "scope:stack"


def test_triggers_beyond_the_waiting_list_are_out_of_scope_by_its_guard() -> None:
    """Day of Judgment destroys two Grizzly Bears at once and Fecundity triggers for each
    (603.10a): two waiting triggers. With one waiting place the step is out of scope by the
    ``scope:pending`` guard, which the relation states where the waiting list is next
    emptied (``stack.fits``), not at each push; with two places the views agree."""
    cards = [
        CardSpec("fecundity", PERMANENT_CARDS["Fecundity"], 0),
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
        CardSpec("cubs", PERMANENT_CARDS["Grizzly Bears"], 1),
    ]
    board = make_state(("A", "B"), cards)
    state = step(board, SPELLS["Day of Judgment"].cast(0, ())).state
    state = step(state, A.PassPriority(player=0)).state
    action = A.PassPriority(player=1)  # both passed: Day of Judgment resolves
    after = step(state, action, CORRECT).state
    assert len(after.pending) + len(after.stack) == 2
    one = replace(widest(len(state.setup.handles)), pending=1)
    result = check_agreement(state, action, CORRECT, one)
    assert result.status is Status.OUT_OF_SCOPE, result.describe()
    assert result.guard == "scope:pending"
    two = replace(widest(len(state.setup.handles)), pending=2)
    result = check_agreement(state, action, CORRECT, two)
    assert result.status is Status.AGREE, result.describe()


def test_a_state_of_an_edition_outside_the_scope_is_refused_naming_it() -> None:
    """A state whose edition the scope leaves out (``--scope editions=...``) is out of scope,
    and the refusal names that edition: a frame has no value for it."""
    sc = Scope(cards=1, editions=(Edition.FDN,))
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0)
    state = make_state(("A", "B"), [bears], edition=Edition.M10)
    with pytest.raises(OutOfScope, match=r"^edition M10 is not in the scope$"):
        values(Frame.fresh(Statics.fresh(sc, "s", names=True), "f", names=True), state)


def test_an_assignment_ignores_the_entries_of_an_attacker_given_no_division() -> None:
    """An attacker with no division in the assignment deals its damage the default way
    (510.1c: all to its blocker, here the Grizzly Bears' 2 to Foriysian Brigade); the
    parameters hold entries for every attacker, and the action they decode to
    (``to_action``) reads an attacker's entries only where its ``div`` flag is set. The
    solver may put anything there (the parameters' domain leaves them free), so the
    relation's successor must not read them: with 1 named for the defending player in the
    Bears' unused first entry it is the same (``combat.planned_shares``, slice 12: without
    the flag there the Bears dealt that 1 to B besides their 2 to the Brigade)."""
    path = (
        ROOT
        / "tests"
        / "scenarios"
        / "combat"
        / "m10-blocker-short-of-lethal-gives-its-first-attacker-all.yaml"
    )
    scenario = load_scenario(path)
    state = scenario.start
    assign = None
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            if isinstance(action, A.AssignCombatDamage) and assign is None:
                with suppress(EngineError):
                    step(state, action, CORRECT)
                    assign = action
            if assign is None:
                with suppress(EngineError):
                    state = step(state, action, CORRECT).state
    assert assign is not None
    scope = widest(len(state.setup.handles))
    bears = state.setup.handles.index("bears")
    prep = prepare(state, scope)
    params = P.of_action(state, assign, scope)
    assert params[f"div{bears}"] is False
    plain = evaluate_params(prep, params, assign.kind, CORRECT)
    player = scope.cards  # the recipient code of the defending player
    junk = {**params, f"div{bears}.to0": player, f"div{bears}.amount0": 1}
    named = evaluate_params(prep, junk, assign.kind, CORRECT)
    assert plain.enabled and named.enabled
    assert named.post == plain.post


def test_a_cast_ignores_what_its_unused_target_slots_name() -> None:
    """The parameters of a cast hold more target slots than the spell uses (``n_targets``);
    the action they decode to (``to_action``) reads only the used ones, so the relation's
    successor must not depend on what an unused slot names: here the second slot of a
    one-target Shock names a Grizzly Bears that left and returned (a new object, 400.7, so its
    incarnation is 2, not the 0 an empty slot records). The solver may choose any value there
    (the parameters' domain leaves it free), and a successor that read it would differ from
    the engine's for the same action."""
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 1)
    giant = CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1)
    state = make_state(("A", "B"), [bears, giant])
    state = step(state, A.LeaveAndReturn(target="bears"), CORRECT).state
    assert state.cards[0].gen == 2  # exiled, then returned
    scope = Scope(cards=2, targets=2, stack=1, pending=1, shields=1, max_amount=3)
    shock = SPELLS["Shock"].cast(0, (A.TargetChoice(card="giant"),))
    prep = prepare(state, scope)
    params = P.of_action(state, shock, scope)
    assert params["n_targets"] == 1 and params["tgt1.card"] == NONE
    plain = evaluate_params(prep, params, shock.kind, CORRECT)
    named = evaluate_params(prep, {**params, "tgt1.card": 0}, shock.kind, CORRECT)
    assert plain.enabled and named.enabled
    assert named.post == plain.post


def test_a_mill_spell_drawing_fewer_than_no_cards_is_refused_in_both_views() -> None:
    """701.17a: the model's mill is "target player mills N cards, then draws M", N and M
    numbers of cards. A spell whose draw is below 0 is refused by the engine, and by the
    relation: a solver's search never meets one (the parameters' domain starts ``eff_draw``
    at 0), but a concrete action is read as it is (slice 18: the relation had dropped
    "draw >= 0" from the cast's guard). The same spell drawing none is accepted by both."""
    for draw, legal in ((0, True), (-1, False)):
        action = A.CastSpell(
            player=0,
            name="Scour",
            effect=Effect(EffectKind.MILL, amount=1, draw=draw),
            target_rule=TargetRule.PLAYER,
            targets=(A.TargetChoice(player=1),),
        )
        refused = False
        try:
            step(BOARD, action, CORRECT)
        except EngineError:
            refused = True
        assert refused is not legal, draw
        result = check_agreement(BOARD, action, CORRECT, widest(2))
        assert result.status is Status.AGREE, result.describe()


@pytest.mark.parametrize("use", ["umbra:nobody", "xxxxxxu1"])
def test_an_umbra_answer_must_name_a_known_aura_after_its_prefix(use: str) -> None:
    """616.1: "umbra:HANDLE" names an umbra-armor Aura by its handle. An answer naming a
    handle no card has, or a known handle without the "umbra:" prefix, is no known form:
    ``Use.INVALID``, which the engine refuses too (slice 19's ``params._use`` asked the prefix
    and the handle with ``or``: the first raised KeyError, the second read as an umbra
    answer for Eland Umbra)."""
    troll = CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1)
    umbra = CardSpec("u1", PERMANENT_CARDS["Eland Umbra"], 1, attached_to="troll")
    state = make_state(("A", "B"), [troll, umbra])
    sc = widest(len(state.setup.handles))
    answer = A.ReplacementChoice("troll", 1, use)
    v = P.of_action(state, A.PassPriority(player=0, choices=(answer,)), sc)
    assert v["choice0.1.use"] == int(P.Use.INVALID)
    assert v["choice0.1.slot"] == 0


def test_a_cast_at_a_player_ignores_what_its_target_slot_names_as_a_card() -> None:
    """A target slot of a cast's parameters holds a card and a player; the action they
    decode to (``to_action``) reads the player first, so a slot naming both is a target
    player (115.1, Shock's "any target"), and the solver may put any card beside it (the
    parameters' domain leaves it free). The relation's successor must be the one of the
    player target alone (slice 19's ``step._cast``: without "not a player" there, the
    spell's entry also named the card, and its damage would have gone to both)."""
    giant = CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1)
    state = make_state(("A", "B"), [giant])
    scope = Scope(cards=1, targets=1, stack=1, pending=1, shields=1, max_amount=3)
    shock = SPELLS["Shock"].cast(0, (A.TargetChoice(player=1),))
    prep = prepare(state, scope)
    params = P.of_action(state, shock, scope)
    assert params["tgt0.player"] == 1 and params["tgt0.card"] == NONE
    both = {**params, "tgt0.card": 0}
    assert P.to_action(both, shock.kind, state, scope) == P.to_action(
        params, shock.kind, state, scope
    )
    plain = evaluate_params(prep, params, shock.kind, CORRECT)
    named = evaluate_params(prep, both, shock.kind, CORRECT)
    assert plain.enabled and named.enabled
    assert named.post == plain.post


def test_a_self_animating_creature_does_not_fit_the_encoding() -> None:
    """``template_fits``: only a noncreature, non-attaching permanent animates itself (a
    land such as Spawning Pool, or an artifact); a creature with the same ability is no card
    ``CardStatics`` can hold, whether or not it attaches (slice 19's
    ``frame.template_fits`` refused only a creature that was also an Aura or Equipment)."""
    pool = PERMANENT_CARDS["Spawning Pool"]
    assert template_fits(pool) is None
    creature = replace(pool, types=pool.types | {CardType.CREATURE})
    assert template_fits(creature) == (
        f"{pool.name}: only a noncreature, non-attaching permanent animates itself"
    )
