"""Every conjunct of the relation is labelled with a clause of the catalog (or ``frame``,
``action``, a ``scope:`` bound), so an unsat core or a differing variable names a rule: a
writer or guard that lost its label (or got a wrong one) fails here, whatever its value."""

from __future__ import annotations

from regen_model.clauses import catalog
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.encoding.work import FRAME

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
