"""The agreement on solver-chosen states (``encoding/driven.py``, ``encoding/paths.py``).

* ``frame.representable``: a model of it reads back (``frame.read``, then ``frame.values``)
  as exactly the model's frame, so a chosen state is one the engine can be asked about;
* ``paths.Paths.reach``: every branch the solver is asked to drive is taken by the folded
  evaluation of the state it chose (no ``not-taken``), on kinds small enough for a test;
* a one-view mutant of the relation is caught on a solver-chosen state and named;
* the extras (``paths.Paths.extras``: comparisons at their boundary, repeated sites with
  passes going opposite ways) are well formed, and ``function_spans`` names a change's
  function;
* four of the five hand-made encoding-only changes of issue 10 (``benchmarks/changes.py``)
  that the walk let through are each caught by it, run in a copy of the tree (slow; the
  board-wipe and lethal-damage ones long);
* the facts that keep the boundaries off states no run reaches (issue 10: attackers and
  blockers, Auras on Auras, targets naming nothing or both), the cleanup actions refused
  during combat, and a host ability following its Aura naming only the new host.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from regen_model.encoding.agreement import check_agreement
from regen_model.encoding.driven import (
    DRIVEN_SCOPE,
    EXTRAS_SCOPE,
    Outcome,
    driven_agreement,
    driven_document,
    driven_rows,
    function_spans,
    initiation,
    state_space,
    well_formed,
)
from regen_model.encoding.frame import NONE, read, read_statics, representable, values
from regen_model.encoding.paths import Paths
from regen_model.encoding.probe import recording
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import layout
from regen_model.engine import step as engine_step
from regen_model.engine.errors import IllegalAction
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, CardTemplate
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Attachment, Decision, Mutant, StackKind, Step, ordinal
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState, StackObject, Target
from regen_model.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]


def _value(model: z3.ModelRef, term: z3.ExprRef) -> int | bool:
    v = model.eval(term, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


def test_a_representable_frame_reads_back_as_itself() -> None:
    system = RegenSystem(scope=DRIVEN_SCOPE)
    frame = system.template.pre
    keys = layout(DRIVEN_SCOPE).keys
    solver = z3.Solver()
    solver.add(*[t.formula for t in system.domain(frame)], *representable(frame))
    # states with things going on: stacks, triggers, blocks, orders, shields, hits
    solver.add(frame.stack_size == 1, frame.pending_size == 2)
    for round_ in range(12):
        solver.push()
        if round_ % 3 == 1:
            solver.add(frame.cards[1].blocking == 0, frame.cards[1].order_pos != -1)
        if round_ % 3 == 2:
            solver.add(frame.stack[0].kind == 3)  # combat damage
        assert solver.check() == z3.sat
        model = solver.model()
        solver.pop()
        state = read(model, frame, read_statics(model, frame.statics))
        back = values(layout(DRIVEN_SCOPE).frame, state)
        got = {k: _value(model, v) for k, v in zip(keys, frame.vars(), strict=True)}
        assert {k: (got[k], back[k]) for k in keys if got[k] != back[k]} == {}
        solver.add(z3.Or(*[v != model.eval(v, model_completion=True) for v in frame.vars()]))


def _facts(scope: Scope = DRIVEN_SCOPE) -> frozenset[str]:
    """Every candidate fact at ``scope`` (``test_every_fact_is_inductive`` shows each is
    proved; a second stack slot has its own facts about its targets)."""
    return frozenset(name for name, _ in well_formed(RegenSystem(scope=scope).template.pre))


def test_every_driven_branch_is_taken_and_the_views_agree() -> None:
    # no facts assumed (a larger space: still sound, the facts only narrow it), so that the
    # test needs no proof of them
    report = driven_agreement(
        kinds=("create-shield", "deal-damage", "sacrifice"), workers=1, facts=frozenset()
    )
    counts = report.counts()
    assert report.verdict is Verdict.PROVED, [d.describe() for d in report.tally.disagreements]
    assert counts[Outcome.NOT_TAKEN] == 0
    assert counts[Outcome.UNKNOWN] == 0
    assert counts[Outcome.AGREE] > 50
    assert report.tally.states["deal-damage"] > 0
    rows = driven_rows(report)
    assert [r.verdict for r in rows] == [Verdict.PROVED] * len(rows)
    doc = driven_document(report)
    assert doc["counts"]["agree"] == counts[Outcome.AGREE]
    assert len(doc["branches"]) == sum(counts.values())


def test_extras_are_comparisons_at_their_boundary_and_passes_going_opposite_ways() -> None:
    system = RegenSystem(scope=EXTRAS_SCOPE)
    paths = Paths()
    with recording(paths):
        system.relation("deal-damage")
    boundaries, mixed = paths.boundaries(), paths.mixed()
    assert boundaries and mixed
    for e in boundaries[:6]:  # each is met by some state (or by none: then it is unsat)
        solver = z3.Solver()
        solver.add(e.formula)
        assert solver.check() in (z3.sat, z3.unsat)
    assert len({e.key for e in boundaries + mixed}) == len(boundaries) + len(mixed)
    # a comparison a >= b gives a = b and a = b - 1, decided by the comparison
    labels = {e.label.split(" at ")[1] for e in boundaries}
    assert labels <= {"a = b", "a = b - 1", "a = b + 1"}


def test_each_side_of_a_branch_is_recorded_under_its_own_path_condition() -> None:
    """``SymWork.branch`` runs the rule code of each side under its condition, which
    ``paths.Paths`` records as the path of every site met there: change-type's "stops being
    a creature" side runs only where the action says ``remove``, its "becomes a creature"
    side (613.1d) only where it does not. A side recorded without its path would make the
    reach formulas of its sites unbuildable (the driven check of a kind with an
    ``otherwise`` side, such as pass or declare-blockers, would stop there)."""
    system = RegenSystem(DRIVEN_SCOPE)
    paths = Paths()
    with recording(paths):
        system.relation("change-type")
    pcs = [p.pc for passes in paths.passes.values() for p in passes]
    assert pcs and all(isinstance(pc, z3.BoolRef) for pc in pcs)
    remove = system.template.params.remove

    def only_where(pc: z3.BoolRef, cond: z3.BoolRef) -> bool:
        solver = z3.Solver()
        solver.add(pc, z3.Not(cond))
        return solver.check() == z3.unsat

    assert any(only_where(pc, remove) for pc in pcs)
    assert any(only_where(pc, z3.Not(remove)) for pc in pcs)


def test_a_guard_is_recorded_with_its_clause() -> None:
    """``SymWork.require`` gives the paths probe the clause of each guard it records, so a
    driven disagreement at a guard names its rule: change-type's guard that only a printed
    creature or a permanent with its own animation becomes a creature (613.1d) is recorded
    under ``type.become-creature``, which no write of the kind cites."""
    paths = Paths()
    with recording(paths):
        RegenSystem(DRIVEN_SCOPE).relation("change-type")
    assert "type.become-creature" in set().union(*paths.clauses.values())


def test_function_spans_name_the_changed_function() -> None:
    path = ROOT / "regen_model" / "encoding" / "combat.py"
    line = next(
        n for n, text in enumerate(path.read_text().splitlines(), 1) if "def lethal_for" in text
    )
    ((name, lo, hi),) = function_spans(path, [line + 2])
    assert (name, lo) == ("combat.py", line) and hi > lo


def test_every_fact_assumed_holds_at_every_legal_start() -> None:
    assert initiation(DRIVEN_SCOPE, CORRECT) == {}


def test_no_chosen_state_has_a_target_naming_nothing() -> None:
    """Issue 10, item 2: with two stack slots (``EXTRAS_SCOPE``, what ``--boundaries``
    drives) the solver chose states whose stack object's target names neither a card nor a
    player, which no run reaches, and the engine's assertion stopped the check. The facts
    now exclude them in every stack and waiting slot (``driven._targets_name_something``,
    inductive like the rest, ``test_every_fact_is_inductive``). A target may name a spell on
    the stack instead (Counterspell's), and then nothing else."""
    system = RegenSystem(scope=EXTRAS_SCOPE)
    frame = system.template.pre
    space = state_space(system, frame) + [f for _, f in well_formed(frame)]
    for objs, size in ((frame.stack, frame.stack_size), (frame.pending, frame.pending_size)):
        for j, obj in enumerate(objs):
            solver = z3.Solver()
            solver.add(*space)
            solver.add(j < size, obj.n_targets > 0)
            # (a spell on the stack is a target too: Counterspell's, ``Target.spell``)
            solver.add(
                obj.target_card[0] == NONE,
                obj.target_player[0] == NONE,
                obj.target_spell[0] == NONE,
            )
            assert solver.check() == z3.unsat, f"slot {j} may name nothing"
            # a spell target names nothing else
            spell_and_more = z3.And(
                obj.target_spell[0] != NONE,
                z3.Or(obj.target_card[0] != NONE, obj.target_player[0] != NONE),
            )
            assert not _space_allows(EXTRAS_SCOPE, j < size, obj.n_targets > 0, spell_and_more)
            # nor both: the boundaries of ``pass`` chose a flicker whose target named a
            # phased-out creature and a player, which the engine took for a legal player
            # target (its ``left`` output then differed from the relation's, issue 10)
            both = z3.And(obj.target_card[0] != NONE, obj.target_player[0] != NONE)
            assert not _space_allows(EXTRAS_SCOPE, j < size, obj.n_targets > 0, both), j


def _space_allows(scope: Scope, *wanted: z3.BoolRef | bool) -> bool:
    """Whether a state of the driven space (with every candidate fact) has ``wanted``."""
    system = RegenSystem(scope=scope)
    frame = system.template.pre
    solver = z3.Solver()
    solver.add(*state_space(system, frame), *[f for _, f in well_formed(frame)], *wanted)
    answer = solver.check()
    assert answer != z3.unknown
    return bool(answer == z3.sat)


def test_no_chosen_state_has_a_creature_attacking_and_blocking() -> None:
    """Issue 10: ``agree --driven --boundaries`` on ``declare-blockers`` chose states where a
    creature attacks and blocks at once (even itself), or a noncreature or a creature of the
    defending player attacks, and the views differed there (``order_pos``, a check of
    state-based actions). The facts now say who attacks and blocks (508.1a, 509.1a: the
    active player's creatures, the defending player's; 506.4 takes a creature out of combat
    when that stops being so), which holds since a cleanup during combat is refused
    (``test_the_cleanup_actions_are_refused_during_combat``)."""
    frame = RegenSystem(scope=EXTRAS_SCOPE).template.pre
    for i, c in enumerate(frame.cards):
        assert not _space_allows(EXTRAS_SCOPE, c.attacking, c.blocking != NONE), i
        assert not _space_allows(
            EXTRAS_SCOPE, c.attacking, z3.Not(frame.statics.cards[i].creature), z3.Not(c.animated)
        ), i
        # blockers are declared once, as the declare blockers step begins (509.1)
        assert not _space_allows(
            EXTRAS_SCOPE, frame.decision == ordinal(Decision.DECLARE_BLOCKERS), c.blocking != NONE
        ), i


def test_no_chosen_state_has_an_aura_attached_to_an_aura() -> None:
    """Issue 10: on ``destroy`` the solver chose two Auras attached to each other; the engine
    then recursed through both one's umbra armor and the other's, which the relation asks
    one Aura deep (``destruction._umbra``). No run attaches anything to an Aura or Equipment
    (303.4, 301.5c, 701.3b), so a fact now says so."""
    frame = RegenSystem(scope=EXTRAS_SCOPE).template.pre
    st = frame.statics.cards
    assert not _space_allows(
        EXTRAS_SCOPE, frame.cards[0].attached_to == 1, st[1].attachment != ordinal(Attachment.NONE)
    )


def test_the_cleanup_actions_are_refused_during_combat() -> None:
    """514.2's actions as an effect are refused by both views while a creature is in
    combat (the game performs them in the cleanup step, after 511.3 ended combat): performed
    then, the end of an "until end of turn" control change left an attacker in combat under
    the defending player, who could then declare it as a blocker of itself (issue 10). With
    no creature in combat they are still an action (in any step)."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    board = make_state(
        ("A", "B"), [CardSpec("bears", bears, 1, controller=0)], step=Step.DECLARE_ATTACKERS
    )
    stolen = board.cards[0]._replace(control_eot=0, attacking=True, tapped=True)
    in_combat = board._replace(cards=(stolen,))
    with pytest.raises(IllegalAction, match="never while a creature is attacking"):
        engine_step(in_combat, A.Cleanup())
    result = check_agreement(in_combat, A.Cleanup(), CORRECT, DRIVEN_SCOPE)
    assert result.agrees and result.engine_enabled is False and result.relation_enabled is False
    after = in_combat._replace(cards=(board.cards[0]._replace(control_eot=0),))  # not attacking
    result = check_agreement(after, A.Cleanup(), CORRECT, DRIVEN_SCOPE)
    assert result.agrees and result.engine_enabled is True


@pytest.mark.long
def test_boundaries_of_pass_at_two_stack_slots_do_not_crash_the_engine() -> None:
    """The run that crashed (``agree --driven --boundaries``, kind ``pass``, about 15 min at
    load 4): no state it chooses makes the engine fail an assertion. (It still meets other
    disagreements on states the facts leave open, docs/agreement.md: not this test's.)"""
    report = driven_agreement(EXTRAS_SCOPE, kinds=("pass",), extras=True)
    crashes = [d.describe() for d in report.tally.disagreements if "crashed" in d.describe()]
    assert crashes == []


@pytest.mark.long
def test_every_fact_is_inductive() -> None:
    """Consecution for every action kind (a minute or more): none is dropped."""
    report = driven_agreement(kinds=("create-shield",))
    assert report.dropped == {}
    assert set(report.assumed) == _facts()


def test_a_relation_mutant_is_caught_on_a_solver_chosen_state() -> None:
    """The relation's regeneration does not tap (701.15a): the engine's does, so the views
    differ on every state where an untapped creature regenerates. Which states the solver
    picks depends on Z3's term numbering, which whatever ran before in the process shifts:
    with one state per branch (17 in ``destroy``) about 4 regenerate an untapped creature,
    and in one CI run none did. ``every`` asks a state for every branch (134; about 35 of
    them disagree in each numbering tried) and ``stop`` ends at the first that does."""
    report = driven_agreement(
        kinds=("destroy",),
        rules=CORRECT,
        relation_rules=Rules(frozenset({Mutant.REGEN_DOES_NOT_TAP})),
        workers=1,
        facts=frozenset(),
        every=True,
        stop=True,
    )
    assert report.verdict is Verdict.FAILED
    assert any("regen.apply.tap" in d.result.clauses for d in report.tally.disagreements)
    assert driven_rows(report)[0].verdict is Verdict.FAILED


def test_crossed_targets_ask_each_branch_with_each_card_status() -> None:
    """``cross``: every branch of a kind together with each card slot's status; on the
    correct views every one a state met agrees, each gets a row and a JSON count, and a
    state checked for one target marks the others it meets (fewer states than targets met)."""
    import jsonschema

    from regen_model.encoding.driven import card_statuses
    from regen_model.schemas.define import driven_schema

    names = [n for n, _ in card_statuses(RegenSystem(scope=DRIVEN_SCOPE).template.pre)]
    assert "c0 attacking" in names and "c1 tapped" in names
    assert len(names) == len(set(names)) == 6 * DRIVEN_SCOPE.cards
    report = driven_agreement(kinds=("change-control",), workers=1, facts=_facts(), cross=True)
    crossed = report.extra_counts("crossed")
    assert report.verdict is Verdict.PROVED, [d.describe() for d in report.tally.disagreements]
    assert crossed[Outcome.AGREE] > 100 and crossed[Outcome.DISAGREE] == 0
    assert crossed[Outcome.UNKNOWN] == 0
    assert report.tally.states["change-control"] < crossed[Outcome.AGREE]
    rows = [r for r in driven_rows(report) if "crossed" in r.item]
    assert len(rows) == 1 and rows[0].verdict is Verdict.PROVED
    doc = driven_document(report)
    assert doc["extras"]["crossed"]["agree"] == crossed[Outcome.AGREE]
    jsonschema.validate(doc, driven_schema())


# each change of issue 10 the walk let through: a kind whose relation it changes, the clauses
# one of which the disagreement must name (so that the catch is the change's), and how the
# check is run: ``focus`` drives the changed functions' branches first, ``extras`` adds the
# comparisons at their boundary and the repeated sites with passes going opposite ways (at
# two stack slots, ``EXTRAS_SCOPE``, when ``stack`` says so), ``cross`` every branch with
# each card's status (``driven.card_statuses``); every run stops at the first disagreement
ENCODING_ONLY: dict[str, tuple[str, tuple[str, ...], dict[str, bool]]] = {
    "wipe-drops-cant-regenerate": (
        "pass",
        ("regen.cant.rider", "replace.choice", "destroy.effect"),
        {},
    ),
    # the change deletes a write and leaves no branch of its own: with the branches (and
    # boundaries) alone, whether a chosen state had a creature in combat changing controller
    # was the solver's luck, lost twice when a new field changed its models (issue 13's
    # hand and library counts the second time); the branch "the controller changed" crossed
    # with each card in combat asks for one (2 s)
    "control-change-keeps-combat": (
        "change-control",
        ("control.change", "combat.removal"),
        {"cross": True},
    ),
    "triggers-reversed-apnap": ("pass", ("stack.triggers",), {"extras": True, "stack": True}),
    "lethal-ignores-marked-damage": (
        "assign-combat-damage",
        ("combat.edition.pre-m10", "combat.assign", "combat.trample"),
        {"extras": True},
    ),
}


@pytest.mark.parametrize(
    "name",
    [
        # a few seconds: with issue 13's new statics the unsat cores of ``solve`` dropped
        # the combat features along with the ones that clash, and the feature-rich model of
        # change-control's branch had no creature in combat; the cores are minimised now
        # (``_Driver.kind``), so only the features that clash are dropped
        "control-change-keeps-combat",
        # about eight minutes alone: driving the branches of `pass` (with the changed
        # function's first, ``focus``, it took two minutes once, but another run met a
        # state the engine crashes on first: docs/agreement.md)
        pytest.param("wipe-drops-cant-regenerate", marks=pytest.mark.long),
        # mixed passes of the triggers' order at two stack slots: 5 min wall at load 6-7 on
        # the shared 2-core machine, 53 s user CPU. It was long while the correct code's
        # `pass` met older disagreements first (the ``left`` output of a flicker, with
        # ``stop`` the run ended there); with those decided (issue 10, docs/agreement.md)
        # the first disagreement met is the change's own, so CI caught reversed APNAP again.
        # Since issue 13's hand and library counts (wip/draw) the states chosen for the mixed
        # passes of `pass` no longer meet it soon: more than 25 min wall in a full run, and
        # with the changed function first (``focus``) no catch in 5 min either. Left out of
        # CI until the mixed passes ask for triggers of both players (as ``cross`` asks for
        # the combat status), not hope for them: issue 10
        pytest.param("triggers-reversed-apnap", marks=pytest.mark.long),
        # about ten minutes at load 12: the comparisons of assign-combat-damage
        pytest.param("lethal-ignores-marked-damage", marks=pytest.mark.long),
    ],
)
def test_an_encoding_only_change_is_caught(name: str, tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from changes import CHANGES

    change = next(c for c in CHANGES if c.name == name)
    files = subprocess.run(
        ["git", "ls-files", "-z", "regen_model", "spec"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for f in filter(None, files):
        src = ROOT / f.decode()
        if src.is_file():
            dest = tmp_path / f.decode()
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(src.read_bytes())
    kind, clauses, how = ENCODING_ONLY[name]
    focus: list[tuple[str, int, int]] = []
    for edit in change.edits:
        path = tmp_path / edit.path
        text = path.read_text()
        assert text.count(edit.old) == 1
        line = text[: text.index(edit.old)].count("\n") + 1
        path.write_text(text.replace(edit.old, edit.new))
        if how.get("focus"):
            focus += function_spans(path, [line])
    scope = "EXTRAS_SCOPE" if how.get("stack") else "DRIVEN_SCOPE"
    facts = _facts(EXTRAS_SCOPE if how.get("stack") else DRIVEN_SCOPE)
    # the facts the correct relation keeps: the chosen states are states the correct rules
    # reach, so a disagreement there is the change's
    script = (
        "import json, sys\n"
        "from regen_model.encoding.driven import DRIVEN_SCOPE, EXTRAS_SCOPE, driven_agreement\n"
        f"r = driven_agreement({scope}, kinds=({kind!r},), workers=1,"
        f" facts=frozenset({sorted(facts)!r}), extras={bool(how.get('extras'))},"
        f" cross={bool(how.get('cross'))},"
        f" focus={tuple(focus)!r}, stop=True)\n"
        "print(json.dumps({'verdict': r.verdict.value,"
        " 'clauses': [list(d.result.clauses) for d in r.tally.disagreements],"
        " 'found': [d.describe() for d in r.tally.disagreements]}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["verdict"] == "FAILED", out
    assert any(c in found for found in out["clauses"] for c in clauses), out


def test_a_host_ability_that_follows_its_aura_names_only_the_new_host() -> None:
    """Issue 10: the boundaries of ``pass`` chose a "Regenerate enchanted creature" of an
    Aura on the stack naming a player, below a spell attaching that Aura to a creature. The
    engine gives the ability a new target naming the host (``_retarget_host_abilities``);
    the relation set the card and kept the player, so the target named both. The relation
    now clears the player too (``encoding.attachments.attach``)."""
    regeneration = PERMANENT_CARDS["Regeneration"]
    host_ability = StackObject(
        StackKind.SPELL,
        "regenerate",
        0,
        Effect(EffectKind.REGENERATE),
        (Target(player=1),),
        source=1,
    )
    move = StackObject(
        StackKind.SPELL, "attach", 0, Effect(EffectKind.ATTACH), (Target(card=0),), source=1
    )
    state = _waiting([_bears(), CardSpec("aura", regeneration, 0)], host_ability, move)
    result = check_agreement(state, A.PassPriority(player=1), CORRECT, EXTRAS_SCOPE)
    assert result.agrees, result.describe()
    assert result.successor is not None
    assert result.successor.stack[0].targets == (Target(card=0, gen=0),)


def test_an_attach_whose_object_is_no_aura_or_equipment_attaches_nothing() -> None:
    """The driven check of ``pass`` chose an attach effect on the stack whose source was a
    creature. The relation's ``can_attach`` asks that the object be an Aura or Equipment
    (701.3b); the engine's took it for granted (the attach action and equip check it first)
    and attached the creature. Both now refuse it."""
    move = StackObject(
        StackKind.SPELL, "attach", 0, Effect(EffectKind.ATTACH), (Target(card=1),), source=0
    )
    state = _waiting([_bears(), _bears("other")], move)
    result = check_agreement(state, A.PassPriority(player=1), CORRECT, DRIVEN_SCOPE)
    assert result.agrees, result.describe()
    assert result.successor is not None
    assert result.successor.cards[0].attached_to is None


def test_an_equip_with_a_target_rule_checks_the_rule_as_it_resolves() -> None:
    """The driven check of ``pass`` chose equip's stack object with the target rule "land"
    naming a creature. The engine checks every target against its object's rule and then
    equip's 702.6a (608.2b); the relation checked 702.6a alone for equip, so the Equipment
    moved in the relation and the ability did nothing in the engine. The relation now checks
    both."""
    equip = StackObject(
        StackKind.ABILITY,
        "equip",
        0,
        Effect(EffectKind.ATTACH),
        (Target(card=0),),
        source=1,
        target_rule=TargetRule.LAND,
    )
    state = _waiting([_bears(), CardSpec("gear", _an_equipment(), 0)], equip)
    result = check_agreement(state, A.PassPriority(player=1), CORRECT, DRIVEN_SCOPE)
    assert result.agrees, result.describe()
    assert result.successor is not None
    assert result.successor.cards[1].attached_to is None


def _an_equipment() -> CardTemplate:
    return next(t for t in PERMANENT_CARDS.values() if t.attachment is Attachment.EQUIPMENT)


def _bears(handle: str = "bears") -> CardSpec:
    return CardSpec(handle, PERMANENT_CARDS["Grizzly Bears"], 0)


def _waiting(cards: list[CardSpec], *stack: StackObject) -> GameState:
    """A's board of ``cards`` with ``stack`` waiting, A having passed: B's pass resolves the
    top object."""
    board = make_state(("A", "B"), cards, priority=1)
    return board._replace(stack=stack, passed=frozenset({0}))


def test_attackers_declared_out_of_slot_order_trigger_in_slot_order() -> None:
    """The boundaries of ``declare-attackers`` chose two Soldevi Steam Beasts declared as
    (c1, c0): tapped at once (508.1f), each makes a "becomes tapped" trigger, which their
    controller orders (603.3b). The relation put them on the stack in slot order, the engine
    in the order the declaration listed them; both use slot order now."""
    beast = PERMANENT_CARDS["Soldevi Steam Beast"]
    board = make_state(
        ("A", "B"),
        [CardSpec("c0", beast, 0), CardSpec("c1", beast, 0)],
        step=Step.DECLARE_ATTACKERS,
        priority=None,
    )
    state = board._replace(decision=Decision.DECLARE_ATTACKERS)
    action = A.DeclareAttackers(player=0, attackers=("c1", "c0"))
    result = check_agreement(state, action, CORRECT, EXTRAS_SCOPE)
    assert result.agrees, result.describe()
    assert result.successor is not None
    assert [obj.source for obj in result.successor.stack] == [0, 1]
