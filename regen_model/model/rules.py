"""Which rules the engine and the encoding apply: the correct ones, or a deliberate mutant.

A ``Rules`` value is passed explicitly to ``engine.step`` and to the encoding (no global
switch), so a test can run the correct rules and a mutant side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from regen_model.model.enums import Mutant


@dataclass(frozen=True, slots=True)
class Rules:
    mutants: frozenset[Mutant] = frozenset()

    def has(self, mutant: Mutant) -> bool:
        return mutant in self.mutants

    @property
    def name(self) -> str:
        return "correct" if not self.mutants else "+".join(sorted(m.value for m in self.mutants))


CORRECT = Rules()
