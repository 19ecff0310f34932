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
