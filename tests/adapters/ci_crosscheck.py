"""The bounded crosscheck both CI engine tests run (phase.rs and python-mtg).

One definition of "the cases ``regen-model crosscheck`` compares with these options": the
stream of ``conform/stream.py`` narrowed to the features the engine declares it lacks, run
against the engine with its known-divergence list, findings not shrunk (CI only needs to know
that a new one exists; the printed command shrinks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regen_model.conform.case import CaseResult
from regen_model.conform.differential import CrosscheckReport, crosscheck
from regen_model.conform.stream import CaseStream, StreamOptions


def ci_crosscheck(
    make_adapter: Callable[[], Any], options: StreamOptions, known: Any
) -> tuple[CrosscheckReport, list[CaseResult], CaseStream]:
    """The report, every case's result in order, and the stream (with the lacks it read)."""
    stream = CaseStream(options, warn=print)
    stream.lacks_from(make_adapter)
    seen: list[CaseResult] = []
    report = crosscheck(
        make_adapter,
        stream,
        seed=options.seed,
        shrink_findings=False,
        known=known,
        on_result=seen.append,
    )
    return report, seen, stream
