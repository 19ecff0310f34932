"""The ``mutants`` section of ``regen-model verify``: the whole matrix, one row per mutant and
per invariant, FAILED for any survivor."""

from __future__ import annotations

from regen_model.mutants.matrix import compute_matrix
from regen_model.mutants.report import verify_rows
from regen_model.verify import Row, VerifyOptions, Workbench


def verify_mutants(options: VerifyOptions, bench: Workbench) -> list[Row]:
    # One process: with the baseline's record reused, a mutant's row costs a fraction of a
    # second, less than sending the record to another worker; ``verify`` runs the other
    # sections on the other core meanwhile.
    return verify_rows(compute_matrix(jobs=1))
