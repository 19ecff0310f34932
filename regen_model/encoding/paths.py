"""Where each branch of the relation goes, as formulas: the symbolic twin of ``probe.py``.

While the symbolic relation of an action kind is built (``relation.build_kind``), every
branching call of the rule code (``SymWork.branch``, ``set_if``, ``require``, ``ops.ite``
and the helpers on it) meets a condition that is a Z3 term (or a literal). ``Paths``
records, per site and per time the build passes it (a card slot, a loop iteration, a
caller), the formula under which the *concrete* evaluation of the same kind would reach
that call and see each outcome:

    reach(site, outcome) = OR over passes k of  pc_k AND (cond_k or NOT cond_k) AND G_k

``pc_k`` is the path condition of the enclosing ``branch`` sides (a concrete evaluation
runs one side only, the one whose condition holds), and ``G_k`` the guards (``require``)
the build had met before the pass (a concrete evaluation stops at the first false guard,
``GuardFailed``). Since the build runs the same rule functions in the same order as the
evaluation, with each side of a branch on its own path, a state and parameters satisfying
``reach(site, outcome)`` make the folded evaluation take that outcome there: what
``driven.py`` asks the solver for, and then checks on the evaluation itself.

Skippable writes (``SymWork.skip``) are run through every time, as the concrete probe does
the first times at each place, so the sites behind them are recorded too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import z3

from regen_model.encoding.ops import to_z3
from regen_model.encoding.probe import Probe, Site, caller_site

Z3 = Any  # z3 terms (no type stubs)


@dataclass(frozen=True)
class Pass:
    """One time the build passed a site: guards met before it, path condition, condition."""

    guards: int  # how many of ``Paths.guards`` came before
    pc: Z3
    cond: Z3


@dataclass
class Paths(Probe):
    """A probe for symbolic builds (module docstring); ``hits`` and ``clauses`` are filled
    as by ``Probe`` for conditions that are literals, so a build's literal outcomes are
    known too."""

    passes: dict[Site, list[Pass]] = field(default_factory=dict)
    guards: list[Z3] = field(default_factory=list)
    _pcs: list[Z3] = field(default_factory=lambda: [z3.BoolVal(True)], repr=False)

    def note(self, cond: Any, clause: str | None = None) -> None:
        site = caller_site(self._positions)
        if site is None:
            return
        self.passes.setdefault(site, []).append(Pass(len(self.guards), self._pcs[-1], to_z3(cond)))
        if clause is not None:
            self.clauses.setdefault(site, set()).add(clause)

    def guard(self, formula: Any) -> None:
        self.guards.append(to_z3(formula))

    @contextmanager
    def path(self, pc: Any) -> Iterator[None]:
        self._pcs.append(to_z3(pc))
        try:
            yield
        finally:
            self._pcs.pop()

    def run_through(self) -> bool:
        return True

    def reach(self, site: Site, outcome: bool) -> Z3 | None:
        """The formula under which the concrete evaluation takes ``outcome`` at ``site``
        (None: the build never passed it)."""
        found = self.passes.get(site)
        if not found:
            return None
        cases = []
        for p in found:
            side = p.cond if outcome else z3.Not(p.cond)
            cases.append(z3.And(p.pc, side, *self.guards[: p.guards]))
        return z3.simplify(z3.Or(*cases)) if len(cases) > 1 else z3.simplify(cases[0])

    def extras(self, pairs_per_site: int = 2) -> list[Extra]:
        """The targets beyond the branch outcomes (``Extra``): every comparison a site's
        condition is made of at its boundary, and every site passed several times on one
        path with two passes going opposite ways."""
        return self.boundaries() + self.mixed(pairs_per_site)

    def boundaries(self) -> list[Extra]:
        """For every arithmetic comparison ``a op b`` (``<=``, ``<``, ``>=``, ``>``) in the
        Boolean structure of a site's condition: the comparison at its boundary, once on
        each side (``a >= b`` at ``a = b`` and at ``a = b - 1``; ``a > b`` at ``a = b + 1``
        and ``a = b``), where the site is reached and the comparison decides the
        condition (the condition with the comparison replaced by true differs from it
        replaced by false). A change to one view that moves a threshold by one (lethal
        damage without the marked damage, a count off by one) shows only on such a
        state; a branch outcome alone lets the solver stay far from the threshold. Each
        comparison is attributed to the first pass it is met at (it is one term,
        wherever it occurs)."""
        seen: set[int] = set()
        out: list[Extra] = []
        for site, found in self.passes.items():
            for p in found:
                for atom in _comparisons(p.cond, seen):
                    decides = z3.Xor(
                        z3.substitute(p.cond, (atom, z3.BoolVal(True))),
                        z3.substitute(p.cond, (atom, z3.BoolVal(False))),
                    )
                    reached = z3.And(p.pc, *self.guards[: p.guards], decides)
                    diff = atom.arg(0) - atom.arg(1)
                    name = _OPS[atom.decl().kind()]
                    for delta in _BOUNDARY[atom.decl().kind()]:
                        at = {0: "a = b", 1: "a = b + 1", -1: "a = b - 1"}[delta]
                        out.append(
                            Extra(
                                "boundary",
                                site,
                                f"comparison {len(out) // 2 + 1} ({name}) at {at}",
                                z3.And(reached, diff == delta),
                            )
                        )
        return out

    def mixed(self, pairs_per_site: int = 2) -> list[Extra]:
        """For every site the build passes several times on one path with the same guards
        before it (a loop over card slots or waiting objects), two consecutive such
        passes going opposite ways, in both orders. An ordering (603.3b: the active
        player's triggers first) or a pairing (blocker with attacker) is visible only
        when the items differ: triggers of both players waiting at once, one card
        attacking and the other not."""
        out: list[Extra] = []
        for site, found in self.passes.items():
            made = 0
            for p, q in pairwise(found):
                if made >= pairs_per_site:
                    break
                if (
                    p.guards != q.guards
                    or not p.pc.eq(q.pc)
                    or p.cond.eq(q.cond)
                    or z3.is_true(p.cond)
                    or z3.is_false(p.cond)
                    or z3.is_true(q.cond)
                    or z3.is_false(q.cond)
                ):
                    continue
                made += 1
                reached = z3.And(p.pc, *self.guards[: p.guards])
                for first, second, label in (
                    (p.cond, z3.Not(q.cond), "true then false"),
                    (z3.Not(p.cond), q.cond, "false then true"),
                ):
                    out.append(
                        Extra(
                            "mixed",
                            site,
                            f"passes {label} ({made})",
                            z3.And(reached, first, second),
                        )
                    )
        return out


@dataclass(frozen=True)
class Extra:
    """A target the solver is asked for beyond a branch outcome (``Paths.extras``): a
    comparison at its boundary or two passes of a site going opposite ways. ``formula``
    holds exactly on the states and parameters that hit it (checked on the model)."""

    what: str  # "boundary" or "mixed" (or "crossed": ``driven.card_statuses``)
    site: Site
    label: str
    formula: Z3

    @property
    def key(self) -> tuple[str, Site, str]:
        return (self.what, self.site, self.label)


_OPS = {z3.Z3_OP_LE: "<=", z3.Z3_OP_GE: ">=", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">"}
# a - b on the true side of the boundary, then on the false side
_BOUNDARY = {z3.Z3_OP_GE: (0, -1), z3.Z3_OP_LE: (0, 1), z3.Z3_OP_GT: (1, 0), z3.Z3_OP_LT: (-1, 0)}
_CONNECTIVES = frozenset({z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES, z3.Z3_OP_XOR})


def _comparisons(cond: Z3, seen: set[int]) -> list[Z3]:
    """The integer comparisons in the Boolean structure of ``cond`` (through the
    connectives and Boolean ``If``s, not into integer terms: a comparison inside an integer
    ``If`` is the condition of that ``If``'s own site), skipping terms in ``seen``."""
    out = []
    todo = [cond]
    while todo:
        t = todo.pop()
        if not z3.is_app(t) or t.get_id() in seen:
            continue
        seen.add(t.get_id())
        k = t.decl().kind()
        if k in _OPS:
            out.append(t)
        elif k in _CONNECTIVES or (k == z3.Z3_OP_ITE and z3.is_bool(t)):
            todo.extend(t.children())
    return out
