"""Rule mutants: deliberately wrong variants of the rules, and the matrix that shows every
invariant can fail and every mutant is caught.

The mutants are ``model.enums.Mutant`` members applied through ``model.rules.Rules`` to both
the engine and the Z3 encoding; ``catalog`` describes them, ``battery`` holds the bounded
scopes they are explored in, ``matrix`` computes mutant x invariant, ``report`` prints it.
"""

from regen_model.mutants.catalog import MUTANT_INFO, MutantInfo, describe
from regen_model.mutants.matrix import Kill, Matrix, Route, RulesResult, compute_matrix

__all__ = [
    "MUTANT_INFO",
    "Kill",
    "Matrix",
    "MutantInfo",
    "Route",
    "RulesResult",
    "compute_matrix",
    "describe",
]
