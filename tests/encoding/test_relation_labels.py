"""Every conjunct of the relation is labelled with a clause of the catalog (or ``frame``,
``action``, a ``scope:`` bound), so an unsat core or a differing variable names a rule: a
writer or guard that lost its label (or got a wrong one) fails here, whatever its value."""

from __future__ import annotations

from regen_model.clauses import catalog
from regen_model.encoding.evaluate import evaluate, prepare
from regen_model.encoding.scope import Scope, widest
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import FRAME
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.rules import CORRECT
from regen_model.model.state import Shield

ONE_SLOT = Scope(cards=1, shields=1, stack=1, pending=1, targets=1, max_amount=1)


def test_every_conjunct_names_a_clause() -> None:
    known = set(catalog().clauses)
    system = RegenSystem(scope=ONE_SLOT)
    for kind in system.action_kinds():
        rel = system.relation(kind)
        for c in [*rel.conjuncts(), *rel.obligations]:
            label = c.label
            assert isinstance(label, str), (kind, label)
            assert label in known or label in (FRAME, "sba.loop") or label.startswith("scope:"), (
                kind,
                label,
            )


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
