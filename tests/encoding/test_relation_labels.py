"""Every conjunct of the relation is labelled with a clause of the catalog (or ``frame``,
``action``, a ``scope:`` bound), so an unsat core or a differing variable names a rule: a
writer or guard that lost its label (or got a wrong one) fails here, whatever its value."""

from __future__ import annotations

from functools import cache

import pytest
import z3

from regen_model.clauses import catalog
from regen_model.encoding import params as P
from regen_model.encoding.evaluate import evaluate, prepare
from regen_model.encoding.scope import Scope, widest
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import FRAME, SymWork, UnknownLabel, clause_code, clause_name
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.rules import CORRECT
from regen_model.model.state import Shield

ONE_SLOT = Scope(cards=1, shields=1, stack=1, pending=1, targets=1, max_amount=1)


@cache
def _system() -> RegenSystem:
    """The relation at ``ONE_SLOT``, built once for the tests that only read it."""
    return RegenSystem(scope=ONE_SLOT)


def test_every_conjunct_names_a_clause() -> None:
    known = set(catalog().clauses)
    system = _system()
    for kind in system.action_kinds():
        rel = system.relation(kind)
        for c in [*rel.conjuncts(), *rel.obligations]:
            label = c.label
            assert isinstance(label, str), (kind, label)
            assert label in known or label in (FRAME, "sba.loop") or label.startswith("scope:"), (
                kind,
                label,
            )


def test_pass_at_two_card_slots_builds_and_names_its_clauses() -> None:
    """At one card slot no creature blocks another, so the symbolic build of ``pass`` at
    ``ONE_SLOT`` never makes a blocker's default combat damage share (510.1d; the share of
    ``combat.planned_shares`` to the first attacker it blocks). At two slots it does, and each
    of its fields is a term the build can read (slice 9: a share without its source slot
    broke the build there, which only the proofs and cover runs at wider scopes reached)."""
    known = set(catalog().clauses)
    two = Scope(cards=2, shields=1, stack=1, pending=1, targets=1, max_amount=2)
    rel = RegenSystem(scope=two).relation("pass")
    labels = {c.label for c in [*rel.conjuncts(), *rel.obligations]}
    assert "combat.damage.dealt" in labels or "damage.mark" in labels, sorted(labels)
    unknown = {
        x
        for x in labels
        if x not in known and x not in (FRAME, "sba.loop") and not x.startswith("scope:")
    }
    assert not unknown, unknown


def test_template_step_is_the_built_relation() -> None:
    """The consecution queries ask ``template_step``: its conjuncts are the built relation's
    own terms (nothing substituted), and a step over fresh frames is those terms with the
    frames and parameters renamed, label for label."""
    import z3

    from regen_model.encoding.relation import instantiate, substitution

    system = RegenSystem(scope=ONE_SLOT)
    template = system.template_step()
    other = system.step(system.frame("x0"), system.frame("x1"), "x0")
    pairs = substitution(system.template, other.pre, other.post, other.params)
    for kind in ("pass", "destroy", "cleanup"):
        built = system.relation(kind).conjuncts()
        mine = template.constraints(kind)[-len(built) :]
        theirs = other.constraints(kind)[-len(built) :]
        assert [t.label for t in mine] == [c.label for c in built] == [t.label for t in theirs]
        for c, t, o in zip(built, mine, theirs, strict=True):
            assert t.formula.eq(c.formula)
            assert o.formula.eq(instantiate(c.formula, pairs))
        assert not z3.eq(template.params.kind, other.params.kind)


def test_a_check_labels_each_destruction_with_its_rule() -> None:
    """On concrete values too, the check's destruction of a creature is labelled with the rule
    that destroys it, so a disagreement names it: lethal damage (704.5g) for one Grizzly
    Bears, deathtouch (704.5h) for the other. Each regenerates (701.19a), so the count of
    destructions is the last write of its object and keeps the label."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    board = make_state(
        ("A", "B"),
        [
            CardSpec("hurt", bears, 0, damage=2, shields=(Shield("Regenerate", 0, Rider.NONE),)),
            CardSpec(
                "touched",
                bears,
                1,
                damage=1,
                deathtouched=True,
                shields=(Shield("Regenerate", 1, Rider.NONE),),
            ),
        ],
    )
    ev = evaluate(prepare(board, widest(2)), A.CheckStateBasedActions(), CORRECT)
    assert ev.enabled
    assert ev.writers["c0.g.destructions"] == "sba.lethal-damage"
    assert ev.writers["c1.g.destructions"] == "sba.deathtouch"


def _leaves(term: z3.ExprRef, seen: dict[int, set[int]]) -> set[int]:
    """The integer constants an ``If`` tree of writer codes can take (``seen``: the answer
    for each shared subterm, by its id, so a tree of shared branches is walked once)."""
    key = term.get_id()
    if key not in seen:
        if z3.is_app_of(term, z3.Z3_OP_ITE):
            seen[key] = _leaves(term.arg(1), seen) | _leaves(term.arg(2), seen)
        else:
            assert z3.is_int_value(term), term
            seen[key] = {term.as_long()}
    return seen[key]


def test_every_code_a_symbolic_writer_may_take_has_its_effect() -> None:
    """Where branches give a successor variable different writers, the relation defines it by
    one effect per writer code (``Implies(writer == code, post == value)``) and takes the
    codes from the build's own bookkeeping of what the writer may be (``SymWork.possible``).
    A code the writer term can take but the bookkeeping lost leaves the variable free on that
    path: each code at a leaf of the writer's ``If`` tree must have its effect."""
    checked = 0
    seen: dict[int, set[int]] = {}
    for kind in _system().action_kinds():
        written: dict[str, tuple[z3.ExprRef, set[int]]] = {}
        for c in _system().relation(kind).effects:
            test = c.formula.arg(0) if z3.is_implies(c.formula) else None
            if test is None or not z3.is_eq(test) or not z3.is_int_value(test.arg(1)):
                continue  # a variable with one writer: a single equality
            writer, code = test.arg(0), test.arg(1).as_long()
            written.setdefault(c.var, (writer, set()))[1].add(code)
        for var, (writer, codes) in written.items():
            assert _leaves(writer, seen) <= codes, (kind, var, _leaves(writer, seen) - codes)
        checked += len(written)
    assert checked > 100, checked  # the branches do give variables several writers


def test_a_guard_in_a_nested_branch_asks_only_where_both_conditions_hold() -> None:
    """``SymWork.branch`` forks each side under the path so far and its own condition, so a
    guard (``require``) or an obligation (``oblige``) made in a branch nested in another stands
    only where both conditions hold. Forgetting the outer one would refuse, wherever the
    inner condition alone holds, actions the engine takes there; concrete values never fork,
    so only the symbolic relation can show it (slice 14 of the screen,
    ``SymWork._fork__mutmut_14``)."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    board = make_state(("A", "B"), [CardSpec("bears", bears, 0)])
    prep = prepare(board, ONE_SLOT)
    w = SymWork(
        prep.context(CORRECT, P.of_action(board, A.PassPriority(player=0), ONE_SLOT)), prep.pre
    )
    outer, inner, needed = z3.Bools("outer inner needed")

    def nested(v: SymWork) -> None:
        def innermost(u: SymWork) -> None:
            u.require(needed, "tap.untap")
            u.oblige(needed, "tap.untap")

        v.branch(inner, innermost)

    w.branch(outer, nested)
    for made in (w.guards, w.obligations):
        formulas = [f for _, f in made]
        assert formulas
        solver = z3.Solver()
        solver.add(*formulas, z3.Not(outer), inner, z3.Not(needed))
        assert solver.check() == z3.sat  # outside the outer branch: nothing asked
        solver = z3.Solver()
        solver.add(*formulas, outer, inner, z3.Not(needed))
        assert solver.check() == z3.unsat


def test_a_join_keeps_the_frame_as_a_possible_writer_of_a_one_sided_write() -> None:
    """A branch on a symbolic condition where one side writes a variable and the other
    leaves it as it was: after the join the writer is ``If(cond, ..)`` of the clause and the
    frame (code 0), and the bookkeeping of possible writers (``SymWork.possible``, from which
    the relation makes one effect per code) holds both, whichever side wrote. Losing the
    frame would leave the variable free whenever the other side is taken."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    board = make_state(("A", "B"), [CardSpec("bears", bears, 0)])
    prep = prepare(board, ONE_SLOT)
    tap = clause_code("tap.untap")
    for side in ("then", "otherwise"):
        w = SymWork(
            prep.context(CORRECT, P.of_action(board, A.PassPriority(player=0), ONE_SLOT)), prep.pre
        )
        key = w.c(0).tapped
        assert key not in w.possible  # nothing wrote it yet

        def write(v: SymWork, key: str = key) -> None:
            v.set(key, True, "tap.untap")

        if side == "then":
            w.branch(z3.Bool("cond"), write, lambda v: None)
        else:
            w.branch(z3.Bool("cond"), lambda v: None, write)
        assert w.possible[key] == {0, tap}, (side, w.possible[key])
        assert _leaves(w.writer[key], {}) == {0, tap}, side


_RELATION_DIGEST = """
import hashlib, sys
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
system = RegenSystem(scope=Scope(cards=1, shields=1, stack=1, pending=1, targets=1, max_amount=1))
for kind in sys.argv[1:]:
    system.relation(kind)
rel = system.relation("destroy")
text = "\\n".join(f"{c.label} {c.formula.sexpr()}" for c in [*rel.conjuncts(), *rel.obligations])
print(hashlib.sha256(text.encode()).hexdigest())
"""


def test_a_kind_is_the_same_term_whatever_was_built_before_it() -> None:
    """The writer terms hold each clause as a number (``work.clause_code``). Numbered on
    first use, the numbers depended on which rule code ran first in the process, and so did
    the relation's terms and the states Z3 picks from them (a driven check that met an
    untapped regeneration in one test order met none in another). Numbered from the
    catalog, ``destroy`` is the same term in a fresh process and after ``pass`` and
    ``cast`` were built, each in its own interpreter."""
    import subprocess
    import sys

    digests = {
        subprocess.run(
            [sys.executable, "-c", _RELATION_DIGEST, *before],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for before in ((), ("pass", "cast"))
    }
    assert len(digests) == 1, digests


def test_a_label_outside_the_table_has_no_code() -> None:
    """``clause_code`` numbers every label ``check_label`` accepts and refuses any other,
    naming it: a write labelled with a string that is no clause ID fails where it is made,
    on concrete values too, instead of being numbered as nothing (the screen's catch-up 1:
    ``work.clause_code__mutmut_4/5/6`` returned no code, or named None in the error)."""
    assert clause_name(clause_code("stack.cast")) == "stack.cast"
    assert clause_name(clause_code(FRAME)) == FRAME
    with pytest.raises(UnknownLabel, match=r"'stack\.no-such-clause'"):
        clause_code("stack.no-such-clause")
