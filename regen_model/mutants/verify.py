"""The ``mutants`` section of ``regen-model verify``: the whole matrix, one row per mutant and
per invariant, FAILED for any survivor."""

from __future__ import annotations

from regen_model.mutants.matrix import compute_matrix
from regen_model.mutants.report import verify_rows
from regen_model.verify import Row, VerifyOptions


def verify_mutants(options: VerifyOptions) -> list[Row]:
    return verify_rows(compute_matrix())
