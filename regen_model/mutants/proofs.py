"""The proof route of the mutant matrix: the proof engine run on the mutated Z3 relation.

For each rule set, ``InductionRoute`` builds the symbolic model of the rules at a bounded
scope (``encoding.system.RegenSystem``, where the mutant is applied to the relation exactly as
``Rules`` applies it to the engine) and asks the proof engine (``checks.induction.prove``) for
every invariant: initiation, then consecution per action kind, with a bounded search for a
reachable run from a legal start when an obligation fails. A VIOLATED obligation is a kill:
the mutant makes a reachable state or step break the invariant, and its trace length is the
depth of that run. CTI and UNKNOWN verdicts are not kills (no real run was found).

The route is a small frozen value, so it travels to the matrix's worker processes; the
solver and the relation are built inside ``kills``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from regen_model.checks import induction
from regen_model.checks.property import from_invariant
from regen_model.checks.solver import DEFAULT_BUDGET, Budget
from regen_model.checks.system import TransitionSystem
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenSystem
from regen_model.invariants import Invariant
from regen_model.model.rules import Rules
from regen_model.mutants.matrix import Kill, Route
from regen_model.verdicts import Verdict

PROOF_SCOPE = Scope(cards=1, shields=2, stack=1, pending=1, targets=1, max_amount=2)


@dataclass(frozen=True)
class InductionRoute:
    """Induction proofs at ``scope``; failed obligations searched ``depth`` steps deep."""

    scope: Scope = PROOF_SCOPE
    depth: int = 3
    budget: Budget = DEFAULT_BUDGET
    kinds: tuple[str, ...] | None = None  # consecution for these action kinds only

    @property
    def name(self) -> str:
        kinds = "" if self.kinds is None else f", kinds {', '.join(self.kinds)}"
        return f"induction ({self.scope.cards} card(s), search depth {self.depth}{kinds})"

    def kills(self, rules: Rules, invariants: Sequence[Invariant]) -> list[Kill]:
        # RegenSystem implements the TransitionSystem protocol, but its decode() is typed with
        # its own frames and steps, which mypy does not accept as the protocol's.
        system = cast(TransitionSystem, RegenSystem(self.scope, rules))
        props = [from_invariant(system, inv) for inv in invariants]
        results = induction.prove(
            system, props, self.budget, bmc_depth=self.depth, kinds=self.kinds
        )
        best: dict[str, Kill] = {}
        for r in results:
            if r.verdict is not Verdict.VIOLATED or r.depth is None:
                continue
            where = r.obligation if r.action is None else f"{r.obligation} of {r.action}"
            kill = Kill(r.invariant, Route.PROOF, r.depth, where)
            if r.invariant not in best or kill.length < best[r.invariant].length:
                best[r.invariant] = kill
        return list(best.values())
